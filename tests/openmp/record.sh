#!/bin/sh
# Records apps/omp_check built with clang (libomp: mode ompt) and with gcc
# (libgomp: mode ompt-preloaded, on LLVM's libomp that `augur record`
# preloads) with `augur record --omp auto`, with small buffers, and with
# --omp off; checks each trace against what the program did (augur-check-omp).
# Then the libgomp build without libomp (mode unavailable), a run ended by
# SIGTERM (the OpenMP buffers written by the signal handler), one whose ranks
# get SIGKILL (the age bound wrote them), and a program hidden behind a
# script (auto: not seen, said in one line; --omp on: recorded).
#
#   record.sh AUGUR CHECKER MPIEXEC APPDIR RECORDER_LIB DEFAULT
# DEFAULT: 1 when this flavour's recorder is the default one.
set -u
augur=$1 check=$2 mpiexec=$3 apps=$4 lib=$5 default=$6
. "$(dirname "$0")/../lib.sh"
# Open MPI as root, ranks x threads on 2 cores, containers without CMA.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
# Threads sleep at barriers instead of spinning: 2 ranks x 3 threads share 2 cores.
export OMP_WAIT_POLICY=passive AUGUR_COUNTERS=none

R=3 T=3 N=500 C=7 K=4 DMS=20 PRE=1
run() { # run NAME MODE PROG [augur record options]
  name=$1 mode=$2 prog=$3
  shift 3
  expect 0 - timeout 120 "$augur" record "$@" -o "$D/$name.augur" -- "$mpiexec" -n 2 "$prog" \
    -r $R -t $T -n $N -c $C -k $K -d $DMS -p $PRE
  cp "$D/out" "$D/$name.out"
  cp "$D/err" "$D/$name.err"
  grep -q "^omp_check ok" "$D/$name.out" || fail "$name: the program failed: $(cat "$D/$name.out")"
  if [ "$mode" = skip ]; then
    :
  elif [ "$mode" = off ]; then
    "$check" off "$D/$name.augur" || fail "$name: trace check (off)"
  else
    "$check" record "$D/$name.augur" "$D/$name.out" "$mode" $R $T $N $K $DMS $PRE ||
      fail "$name: trace check ($mode)"
  fi
}

run clang ompt "$apps/omp_check.clang"
# Buffers of 16 records: OpenMP blocks written mid-run by the threads that
# fill them, none lost, none out of order.
AUGUR_BUFFER_EVENTS=16 run small ompt "$apps/omp_check.clang"
blocks=$("$augur" info "$D/small.augur" | sed -n 's/^OpenMP .* records in \([0-9]*\) blocks.*/\1/p')
[ "${blocks:-0}" -gt 20 ] || fail "small buffers: ${blocks:-no} OpenMP blocks, want > 20"
run gcc ompt-preloaded "$apps/omp_check.gcc"
contains "$D/gcc.err" "libgomp"
run off off "$apps/omp_check.clang" --omp off

# The recorder preloaded by hand into the libgomp build (no libomp): no tool,
# trace.json says "unavailable" with its note, the MPI records are there.
t="$D/gomp.augur"
env LD_PRELOAD="$lib" AUGUR_TRACE_DIR="$t" timeout 120 "$mpiexec" -n 2 "$apps/omp_check.gcc" \
  -r 1 -t 2 -p 0 >"$t.out" 2>&1 || fail "gomp: the program failed: $(cat "$t.out")"
"$augur" info "$t" >"$t.info" 2>&1
grep -q "^OpenMP *unavailable" "$t.info" || fail "gomp: not 'unavailable': $(cat "$t.info")"
contains "$t.info" "libgomp has no OMPT"

# SIGTERM to mpiexec in the middle, buffers larger than the run and no age
# bound: only the signal handler can have written the OpenMP blocks.
t="$D/term.augur"
AUGUR_FLUSH_SECONDS=0 AUGUR_BUFFER_EVENTS=1000000 "$augur" record -o "$t" -- "$mpiexec" -n 2 \
  "$apps/omp_check.clang" -r 100000 -t 2 -n 10 -d 1 -k 1 -p 0 >"$t.out" 2>&1 &
rec=$!
i=0
while [ ! -f "$t/rank-00000.evt" ] || [ ! -f "$t/rank-00001.evt" ]; do
  i=$((i + 1))
  [ $i -gt 600 ] && break
  sleep 0.1
done
sleep 1.5
launcher=$(pgrep -P $rec)
[ -n "$launcher" ] && kill -TERM $launcher
wait $rec
"$check" some "$t" 100 || fail "SIGTERM: OpenMP records lost"

# SIGKILL to the ranks 2.5 s in: no handler runs; the 1 s age bound must have
# written the OpenMP records older than a second (buffers never full).
t="$D/kill.augur"
args="-r 100000 -t 2 -n 10 -d 1 -k 1 -p 2"
AUGUR_FLUSH_SECONDS=1 AUGUR_BUFFER_EVENTS=1000000 "$augur" record -o "$t" -- "$mpiexec" -n 2 \
  "$apps/omp_check.clang" $args >"$t.out" 2>&1 &
rec=$!
i=0
while [ ! -f "$t/rank-00000.evt" ] || [ ! -f "$t/rank-00001.evt" ]; do
  i=$((i + 1))
  [ $i -gt 600 ] && break
  sleep 0.1
done
sleep 2.5
for pid in $(pgrep -f "omp_check.clang $args"); do
  [ "$(cat /proc/$pid/comm 2>/dev/null)" = omp_check.clang ] && kill -KILL "$pid"
done
wait $rec
"$check" some "$t" 100 || fail "SIGKILL: the age bound wrote no OpenMP records"

# A command whose program the detection cannot see (a shell runs it): auto
# finds no OpenMP runtime and the libgomp build is not recorded; --omp on
# preloads LLVM's libomp anyway. Default recorder only (no MPI seen either).
if [ "$default" = 1 ]; then
  printf '#!/bin/sh\nexec "%s" "$@"\n' "$apps/omp_check.gcc" >"$D/wrap.sh"
  chmod +x "$D/wrap.sh"
  run shell_auto skip "$D/wrap.sh"
  contains "$D/shell_auto.err" "OpenMP not seen: libgomp has no OMPT"
  run shell_on ompt-preloaded "$D/wrap.sh" --omp on
fi
finish
