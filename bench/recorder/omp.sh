#!/bin/sh
# bench/recorder/omp.sh: the OMPT recorder's cost per OpenMP record
# (docs/openmp.md "Recording"; goal <= 100 ns). L empty parallel regions of
# T threads on one rank (augur-bench-omp), plain and recorded, alternating,
# RUNS of each; cost per record = (median recorded - median plain) time per
# region / records per region (counted in the recorded trace).
# Usage: bench/recorder/omp.sh [BUILD_DIR] [RUNS] [THREADS]
set -eu
BUILD=$(cd "${1:-build}" && pwd)
R=${2:-5}
T=${3:-1}
L=${LOOPS:-300000}
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../../scripts/mpi-env.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
F=mpich
exe="$BUILD/bin/augur-bench-omp-$F"
[ -x "$exe" ] || { echo "no $exe (needs clang and LLVM's libomp)"; exit 77; }
: >"$TMP/plain"
: >"$TMP/rec"
i=0
while [ $i -lt "$R" ]; do
  "mpiexec.$F" -n 1 "$exe" -l "$L" -t "$T" | sed -n 's/^ns_per_region //p' >>"$TMP/plain"
  rm -rf "$TMP/o.augur"
  env AUGUR_TRACE_DIR="$TMP/o.augur" AUGUR_COUNTERS=none LD_PRELOAD="$BUILD/lib/libaugur-mpi-$F.so" \
    "mpiexec.$F" -n 1 "$exe" -l "$L" -t "$T" | sed -n 's/^ns_per_region //p' >>"$TMP/rec"
  i=$((i + 1))
done
records=$("$BUILD/bin/augur" info "$TMP/o.augur" | sed -n 's/^OpenMP .*; \([0-9]*\) records.*/\1/p')
p=$(median <"$TMP/plain")
r=$(median <"$TMP/rec")
per=$(calc "$records / ($L + 1)")
printf 'threads %d, %d regions: plain %.1f ns/region, recorded %.1f, %.1f records/region\n' \
  "$T" "$L" "$p" "$r" "$per"
printf 'cost per OpenMP record: %.1f ns (goal <= 100 ns; medians of %d)\n' \
  "$(calc "($r - $p) / $per")" "$R"
