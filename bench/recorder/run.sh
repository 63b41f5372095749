#!/bin/sh
# bench/recorder: the recorder's figures from one run (issue: foundation).
#   1. overhead per intercepted call (tight loop of MPI_Iprobe / MPI_Test(NULL), recorded vs plain)
#   2. whole-app overhead on the stencil (wall time of mpiexec, recorded vs plain)
#   3. bytes per event on disk for that stencil trace
#   4. reader throughput (events/s on one core): the stencil trace, and a synthetic 10 M-event trace
# The machine is shared and noisy: configurations alternate, R runs each, medians reported.
# Usage: bench/recorder/run.sh [BUILD_DIR] [RUNS]
set -eu
BUILD=$(cd "${1:-build}" && pwd)
R=${2:-5}
. "$(dirname "$0")/../../scripts/mpi-env.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$(dirname "$0")/../lib.sh"
jget() { sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p"; }

CALLS=${CALLS:-2000000}
echo "augur bench/recorder  (runs per configuration: $R, medians; $(nproc) cores)"
echo
printf '%-9s %-12s %10s %10s %10s\n' "mpi" "loop" "plain ns" "recorded" "overhead"
for F in mpich openmpi; do
  [ -x "$BUILD/bin/augur-bench-overhead-$F" ] || continue
  : >"$TMP/p_iprobe"; : >"$TMP/r_iprobe"; : >"$TMP/p_test"; : >"$TMP/r_test"
  i=0
  while [ $i -lt "$R" ]; do
    out=$("mpiexec.$F" -n 2 "$BUILD/bin/augur-bench-overhead-$F" -n "$CALLS" --json)
    echo "$out" | jget iprobe_ns_per_call >>"$TMP/p_iprobe"
    echo "$out" | jget test_null_ns_per_call >>"$TMP/p_test"
    rm -rf "$TMP/ov.augur"
    out=$(env AUGUR_TRACE_DIR="$TMP/ov.augur" LD_PRELOAD="$BUILD/lib/libaugur-mpi-$F.so" \
      "mpiexec.$F" -n 2 "$BUILD/bin/augur-bench-overhead-$F" -n "$CALLS" --json)
    echo "$out" | jget iprobe_ns_per_call >>"$TMP/r_iprobe"
    echo "$out" | jget test_null_ns_per_call >>"$TMP/r_test"
    i=$((i + 1))
  done
  for loop in iprobe test; do
    p=$(median <"$TMP/p_$loop"); r=$(median <"$TMP/r_$loop")
    printf '%-9s %-12s %10.1f %10.1f %+9.1f   (goal <= 50 ns)\n' "$F" "$loop" "$p" "$r" \
      "$(calc "$r - $p")"
  done
done

echo
F=mpich
[ -x "$BUILD/apps/$F/stencil" ] || F=openmpi
ITER=${STENCIL_ITER:-6000}
ARGS="-n $ITER -x 1024 -y 1024"
echo "stencil ($F, 2 ranks, $ARGS): wall time of the whole mpiexec"
: >"$TMP/plain"; : >"$TMP/rec"
i=0
while [ $i -lt "$R" ]; do
  t0=$(now); "mpiexec.$F" -n 2 "$BUILD/apps/$F/stencil" $ARGS >/dev/null; t1=$(now)
  calc "$t1 - $t0" >>"$TMP/plain"
  rm -rf "$TMP/st.augur"
  t0=$(now)
  "$BUILD/bin/augur" record -o "$TMP/st.augur" -- "mpiexec.$F" -n 2 "$BUILD/apps/$F/stencil" $ARGS >/dev/null 2>&1
  t1=$(now)
  calc "$t1 - $t0" >>"$TMP/rec"
  i=$((i + 1))
done
p=$(median <"$TMP/plain"); r=$(median <"$TMP/rec")
printf '  plain %.3f s   recorded %.3f s   overhead %+.2f %%   (goal <= 1 %%)\n' "$p" "$r" \
  "$(calc "($r - $p) * 100 / $p")"

echo
echo "fixed cost per run ($F, 2 ranks, ring -n 1: start-up, clock calibration and sync, flush)"
: >"$TMP/plain"; : >"$TMP/rec"
i=0
while [ $i -lt "$R" ]; do
  t0=$(now); "mpiexec.$F" -n 2 "$BUILD/apps/$F/ring" -n 1 >/dev/null; t1=$(now)
  calc "$t1 - $t0" >>"$TMP/plain"
  rm -rf "$TMP/ring.augur"
  t0=$(now)
  "$BUILD/bin/augur" record -o "$TMP/ring.augur" -- "mpiexec.$F" -n 2 "$BUILD/apps/$F/ring" -n 1 >/dev/null 2>&1
  t1=$(now)
  calc "$t1 - $t0" >>"$TMP/rec"
  i=$((i + 1))
done
p=$(median <"$TMP/plain"); r=$(median <"$TMP/rec")
printf '  plain %.3f s   recorded %.3f s   fixed cost %.1f ms per run\n' "$p" "$r" \
  "$(calc "($r - $p) * 1000")"

echo
echo "reader and size: a synthetic stencil-like trace of 10 M events, then the stencil trace above"
"$BUILD/bin/augur-bench-reader" --runs "$R" --events 10000000 "$TMP/st.augur" | sed 's/^/  /'
