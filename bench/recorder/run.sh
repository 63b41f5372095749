#!/bin/sh
# bench/recorder: the recorder's figures from one run (issue: foundation).
#   1. overhead per intercepted call and its breakdown (cost.sh: MPI_Iprobe / MPI_Test loops,
#      recorded vs plain, 1 and 2 ranks, both MPIs)
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

echo "augur bench/recorder  (runs per configuration: $R, medians; $(nproc) cores)"
echo
echo "overhead per intercepted call and its breakdown (bench/recorder/cost.sh)"
sh "$(dirname "$0")/cost.sh" "$BUILD" "$R" | sed 's/^/  /'

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
