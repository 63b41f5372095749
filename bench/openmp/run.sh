#!/bin/sh
# bench/openmp: the overhead of OpenMP constructs (EPCC syncbench-like:
# parallel, for, barrier, critical), plain vs recorded by `augur record`,
# both runtimes (GCC/libgomp and clang/LLVM libomp builds), medians over runs.
# See bench/openmp/README.md.
# Usage: bench/openmp/run.sh [BUILD_DIR] [RUNS]
# Environment: THREADS (default "1 2 4"; more threads than cores are reported
# separately, as oversubscribed), INNER, OUTER (repetitions inside one run,
# defaults 100 and 200), MPI (flavour, default mpich if built), BUILDS
# (default "gcc clang"), STENCIL (omp_stencil's arguments).
set -eu
BUILD=$(cd "${1:-build}" && pwd)
R=${2:-5}
THREADS=${THREADS:-1 2 4}
BUILDS=${BUILDS:-gcc clang}
INNER=${INNER:-100}
OUTER=${OUTER:-200}
. "$(dirname "$0")/../../scripts/mpi-env.sh"
. "$(dirname "$0")/../lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
F=${MPI:-mpich}
[ -x "$BUILD/bin/augur-bench-omp-$F.gcc" ] || F=openmpi
[ -x "$BUILD/bin/augur-bench-omp-$F.gcc" ] || { echo "bench/openmp: no augur-bench-omp build in $BUILD/bin" >&2; exit 1; }
CORES=$(nproc)
# The LLVM libomp `augur record` preloads under a GCC build (mode
# ompt-preloaded): the gcc rows are also run plainly on it, so "overhead" is
# the recorder's cost, not libgomp vs libomp.
LIBOMP=${LIBOMP:-}
for l in /usr/lib/x86_64-linux-gnu/libomp.so.5 /usr/lib/llvm-14/lib/libomp.so.5; do
  [ -z "$LIBOMP" ] && [ -f "$l" ] && LIBOMP=$l
done
TESTS="parallel for barrier critical"
jget() { sed -n "s/.*\"$1\": *\"*\([^,\"}]*\).*/\1/p"; }
# mode TRACE: the trace's OpenMP recording mode (docs/openmp.md, trace.json
# "openmp"."mode"; "unknown" when the recorder does not write it yet).
mode() {
  python3 -c 'import json, sys
print(json.load(open(sys.argv[1])).get("openmp", {}).get("mode", "unknown"))' "$1/trace.json" \
    2>/dev/null || echo "no-trace"
}
# records TRACE: how many OpenMP records the trace holds (`augur info
# --json`, "openmp"."records"); nothing when it cannot say.
records() {
  "$BUILD/bin/augur" info --json "$1" 2>/dev/null | python3 -c 'import json, sys
print(json.load(sys.stdin)["openmp"]["records"])' 2>/dev/null || true
}

echo "augur bench/openmp  ($F, 1 rank, $CORES cores, runs per configuration: $R, medians;"
echo "  each run: median of $OUTER x $INNER repetitions per construct, ns per construct)"
for cc in $BUILDS; do
  EXE="$BUILD/bin/augur-bench-omp-$F.$cc"
  [ -x "$EXE" ] || { echo; echo "$cc: not built (no clang with libomp)"; continue; }
  for T in $THREADS; do
    for t in $TESTS; do : >"$TMP/p_$t"; : >"$TMP/r_$t"; : >"$TMP/l_$t"; done
    : >"$TMP/records"
    modes=""
    i=0
    while [ $i -lt "$R" ]; do
      "mpiexec.$F" -n 1 "$EXE" -t "$T" -r "$OUTER" -i "$INNER" --json >"$TMP/plain.json"
      if [ "$cc" = gcc ] && [ -n "$LIBOMP" ]; then
        "mpiexec.$F" -n 1 env LD_PRELOAD="$LIBOMP" "$EXE" -t "$T" -r "$OUTER" -i "$INNER" --json \
          >"$TMP/libomp.json"
        for t in $TESTS; do jget "${t}_ns" <"$TMP/libomp.json" >>"$TMP/l_$t"; done
      fi
      rm -rf "$TMP/rec.augur"
      "$BUILD/bin/augur" record -o "$TMP/rec.augur" -- "mpiexec.$F" -n 1 "$EXE" -t "$T" \
        -r "$OUTER" -i "$INNER" --json >"$TMP/rec.out" 2>"$TMP/rec.err" ||
        { echo "augur record failed: $(tail -3 "$TMP/rec.err")" >&2; exit 1; }
      grep '^{' "$TMP/rec.out" >"$TMP/rec.json"
      modes="$modes $(mode "$TMP/rec.augur")"
      records "$TMP/rec.augur" >>"$TMP/records"
      for t in $TESTS; do
        jget "${t}_ns" <"$TMP/plain.json" >>"$TMP/p_$t"
        jget "${t}_ns" <"$TMP/rec.json" >>"$TMP/r_$t"
      done
      i=$((i + 1))
    done
    m=$(echo $modes | tr ' ' '\n' | sort -u | paste -sd' ')
    runtime=$(jget runtime <"$TMP/plain.json")
    echo
    over=""
    [ "$T" -gt "$CORES" ] && over="  OVERSUBSCRIBED ($T threads > $CORES cores): not comparable with the rows above"
    echo "$cc ($runtime), $T thread(s), recorded openmp mode: $m$over"
    case "$m" in
    ompt | ompt-preloaded) ;;
    *) echo "  (OpenMP not recorded in this mode: 'recorded' is MPI-only recording, the OMPT overhead is not measured)" ;;
    esac
    printf '  %-9s %12s %14s %12s %12s\n' construct "plain ns" "plain libomp" "recorded ns" \
      "overhead ns"
    total=0
    for t in $TESTS; do
      p=$(median <"$TMP/p_$t")
      r=$(median <"$TMP/r_$t")
      l="-"
      [ -s "$TMP/l_$t" ] && l=$(median <"$TMP/l_$t")
      base=$p
      [ "$m" = ompt-preloaded ] && [ "$l" != "-" ] && base=$l
      printf '  %-9s %12.1f %14s %12.1f %+12.1f\n' "$t" "$p" "$l" "$r" "$(calc "$r - $base")"
      total=$(calc "$total + ($r - $base) * $OUTER * $INNER")
    done
    [ "$m" = ompt-preloaded ] && echo "  (overhead: recorded - plain on the preloaded libomp)"
    # Per OpenMP record: the run's added time (each test's overhead x its
    # OUTER x INNER constructs) over the records the trace holds.
    n=$(median <"$TMP/records")
    if [ "$n" != 0 ] && [ -n "$n" ]; then
      printf '  per OpenMP record: %.1f ns (%s records per run; goal <= 100 ns)\n' \
        "$(calc "$total / $n")" "$n"
    fi
  done
done

# Whole-run overhead on the hybrid stencil (goal <= 2 %): the program's own
# total (rank 0, barrier to end of loop: no start-up, no flush), plain vs
# recorded, per build; 1 rank x 2 threads and 2 ranks x 1 thread (both a
# thread per core on 2 cores: 2 x 2 would measure the scheduler).
# Runs of 1-11 s (gcc's build is about 4 x faster than clang's): shorter
# runs measure the recorder's start and end more than its cost per region.
STENCIL=${STENCIL:--n 3000 -x 1024 -y 1024}
echo
echo "omp_stencil ($F, $STENCIL): the program's own total, seconds"
printf '  %-7s %-22s %10s %13s %10s %10s  %s\n' build shape plain "plain libomp" recorded overhead \
  "openmp mode"
for cc in $BUILDS; do
  EXE="$BUILD/apps/$F/omp_stencil.$cc"
  [ -x "$EXE" ] || continue
  for NP in 1 2; do
    NT=$((3 - NP))
    : >"$TMP/sp"; : >"$TMP/sr"; : >"$TMP/sl"
    modes=""
    i=0
    while [ $i -lt "$R" ]; do
      "mpiexec.$F" -n $NP "$EXE" $STENCIL -t $NT | sed -n 's/^omp_stencil: rank=0 total=\([0-9.]*\).*/\1/p' >>"$TMP/sp"
      if [ "$cc" = gcc ] && [ -n "$LIBOMP" ]; then
        "mpiexec.$F" -n $NP env LD_PRELOAD="$LIBOMP" "$EXE" $STENCIL -t $NT |
          sed -n 's/^omp_stencil: rank=0 total=\([0-9.]*\).*/\1/p' >>"$TMP/sl"
      fi
      rm -rf "$TMP/st.augur"
      "$BUILD/bin/augur" record -o "$TMP/st.augur" -- "mpiexec.$F" -n $NP "$EXE" $STENCIL -t $NT 2>/dev/null |
        sed -n 's/^omp_stencil: rank=0 total=\([0-9.]*\).*/\1/p' >>"$TMP/sr"
      modes="$modes $(mode "$TMP/st.augur")"
      i=$((i + 1))
    done
    p=$(median <"$TMP/sp"); r=$(median <"$TMP/sr")
    m=$(echo $modes | tr ' ' '\n' | sort -u | paste -sd' ')
    l="-"
    [ -s "$TMP/sl" ] && l=$(printf "%.3f" "$(median <"$TMP/sl")")
    base=$p
    [ "$m" = ompt-preloaded ] && [ "$l" != "-" ] && base=$l
    shape="$NP rank(s) x $NT thread(s)"
    printf '  %-7s %-22s %10.3f %13s %10.3f %+9.2f%%  %s\n' "$cc" "$shape" "$p" "$l" "$r" \
      "$(calc "($r - $base) * 100 / $base")" "$m"
  done
done
