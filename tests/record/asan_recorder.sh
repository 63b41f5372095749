#!/bin/sh
# The MPI recorder under AddressSanitizer + UBSan (`make check`'s
# check-asan-recorder): the ASan stage's build has no MPI, so the recorder's
# hot path (records filled in the thread buffer's slot, parents copied aside
# when their group does not fit, tiny buffers flushed mid-call) is checked
# here. BUILD is a -DAUGUR_SANITIZE=ON build with MPICH's recorder
# (augur-mpi-mpich), augur, augur-check-record and record-tests-mpich built.
# The MPI programs are not instrumented: libasan and libubsan are preloaded
# before the recorder. Each case must pass its checker and no sanitizer may
# report (halt_on_error: a report ends the rank, and the job fails).
#
#   asan_recorder.sh BUILD
set -u
build=$(cd "$1" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
mpiexec=$(command -v mpiexec.mpich) || { echo "skipped: no mpiexec.mpich"; exit 0; }
mpicc=$(command -v mpicc.mpich) || { echo "skipped: no mpicc.mpich"; exit 0; }
asan=$(gcc -print-file-name=libasan.so) ubsan=$(gcc -print-file-name=libubsan.so)
[ -f "$asan" ] && [ -f "$ubsan" ] || { echo "FAIL: no libasan/libubsan from gcc"; exit 1; }
lib="$asan $ubsan $build/lib/libaugur-mpi-mpich.so"
progs=$build/tests/record/mpich
out=$build/tests/record/asan
rm -rf "$out" && mkdir -p "$out" || exit 1
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export AUGUR_COUNTERS=none
fails=0
case_() { # NAME ENV... -- run_record_test.sh arguments after LIB
  name=$1
  shift
  envs=""
  while [ "$1" != -- ]; do envs="$envs $1"; shift; done
  shift
  # shellcheck disable=SC2086
  if env $envs sh "$here/run_record_test.sh" "$mpiexec" "$@" >"$out/$name.log" 2>&1 &&
    ! grep -q "ERROR: AddressSanitizer\|runtime error" "$out"/*.out "$out/$name.log"; then
    echo "ok: $name"
  else
    echo "FAIL: $name"; tail -20 "$out/$name.log"; fails=$((fails + 1))
  fi
}
chk=$build/bin/augur-check-record
for n in 2 4; do
  t=$out/basic-$n.augur
  case_ "basic-n$n-hash-16" AUGUR_PAYLOAD_HASH=1 AUGUR_BUFFER_EVENTS=16 -- \
    "$n" "$lib" "$progs/rec_basic" "$t" ok "$chk" basic "$t" "$n" @EXSCAN_LINE@ --hash
  t=$out/more-$n.augur
  case_ "more-n$n-hash-16" AUGUR_PAYLOAD_HASH=1 AUGUR_BUFFER_EVENTS=16 -- \
    "$n" "$lib" "$progs/rec_more" "$t" ok "$chk" more "$t" "$n" --hash
  t=$out/threads-$n.augur
  case_ "threads-n$n-16" AUGUR_BUFFER_EVENTS=16 -- \
    "$n" "$lib" "$progs/rec_threads" "$t" ok "$chk" threads "$t" "$n"
done
if sh "$here/groups.sh" "$mpicc" "$mpiexec" "$lib" "$build/bin/augur" "$out" >"$out/groups.log" 2>&1 &&
  ! grep -q "ERROR: AddressSanitizer\|runtime error" "$out/groups.out" "$out/groups.log"; then
  echo "ok: groups"
else
  echo "FAIL: groups"; tail -20 "$out/groups.log" "$out/groups.out"; fails=$((fails + 1))
fi
[ "$fails" -eq 0 ] && echo "asan recorder: all cases passed"
[ "$fails" -eq 0 ]
