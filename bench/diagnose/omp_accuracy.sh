#!/bin/sh
# bench/diagnose/omp_accuracy.sh: how much lost thread-time `augur diagnose`
# finds for each OpenMP problem of the proving ground (apps/pg_omp_*.c), against
# what the program's own timers measured ("measured: lost_seconds="), per
# build, through the proving test's driver (tests/proving/omp.py: 2 ranks x 2
# threads, *_1x3 1 rank x 3 threads, OMP_WAIT_POLICY=passive). Goal (issue 24):
# within 10 %. Prints one row per case and build and "N/M within 10 %".
# usage: bench/diagnose/omp_accuracy.sh [BUILD_DIR]
set -eu
BUILD=$(cd "${1:-build}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../scripts/mpi-env.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CASES=${CASES:-imbalance imbalance_1x3 serial_before serial_before_1x3 serial_single forkjoin critical critical_1x3 masteronly}
printf '%-20s %-6s %-24s %10s %10s %8s\n' case build pattern augur_s measured_s error
n=0
ok=0
for cc in gcc clang; do
  [ -x "$BUILD/apps/mpich/pg_omp_imbalance.$cc" ] || continue
  for c in $CASES; do
    python3 "$HERE/../../tests/proving/omp.py" "$BUILD/bin/augur" mpiexec.mpich "$BUILD/apps/mpich" \
      "$TMP/$c.$cc" "$cc" "$c" >"$TMP/out" 2>&1 || true
    line=$(grep '^accuracy: ' "$TMP/out" || true)
    n=$((n + 1))
    if [ -z "$line" ]; then
      printf '%-20s %-6s %-24s %10s %10s %8s\n' "$c" "$cc" "(not found)" - - -
      continue
    fi
    row=$(echo "$line" | python3 -c 'import sys
kv = dict(w.split("=") for w in sys.stdin.read().split()[1:])
a, m = float(kv["augur"]), float(kv["measured"])
e = (a - m) / m
print("%s %.4f %.4f %+.1f%% %d" % (kv["pattern"], a, m, 100 * e, abs(e) <= 0.10))')
    set -- $row
    printf '%-20s %-6s %-24s %10s %10s %8s\n' "$c" "$cc" "$1" "$2" "$3" "$4"
    ok=$((ok + $5))
  done
done
echo "$ok/$n within 10 %"
