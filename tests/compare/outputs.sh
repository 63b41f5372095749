#!/bin/sh
# Byte-identical outputs of two builds (issue 23: refactoring changes no output).
#
# usage: tests/compare/outputs.sh BEFORE_BUILD AFTER_BUILD [WORKDIR]
#
# BEFORE_BUILD, AFTER_BUILD: CMake build directories (bin/augur, apps/mpich/...).
# WORKDIR (default /tmp/augur-compare): the traces are recorded once, with BEFORE's
# recorder, into WORKDIR/traces and reused by later calls (delete it to record again);
# each build's outputs go to WORKDIR/out/before and WORKDIR/out/after.
# TRACES=DIR: take (or record) the traces in DIR instead of WORKDIR/traces.
#
# For every trace it runs report (text, JSON), info, dump, diagnose (text, JSON, HTML),
# phases (text, JSON, irregular), signature, simulate (text, JSON, what-ifs), graph,
# timeline (SVG, HTML) and the four exports, and the import of the OTF2 export; for the
# graph files under tests/simulate/graphs it runs simulate. Then it diffs the two output
# trees. Lines that measure the analysis itself (a rate, "in 0.3 s") are not results:
# the filter below drops them, and nothing else.
#
# Exit 0: identical. Exit 1: the differing files are listed (diff -r). Exit 2: usage.
set -u
if [ $# -lt 2 ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
BEFORE=$(cd "$1" && pwd) || exit 2
AFTER=$(cd "$2" && pwd) || exit 2
W=${3:-/tmp/augur-compare}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
T=${TRACES:-$W/traces}
mkdir -p "$T" || exit 2
MPIEXEC=${MPIEXEC:-mpiexec.mpich}

# --- traces (recorded once) -------------------------------------------------
record() { # name ranks app args...
  name=$1
  np=$2
  shift 2
  [ -d "$T/$name.augur" ] && return 0
  app=$BEFORE/apps/mpich/$1
  shift
  if [ ! -x "$app" ]; then
    echo "compare: no $app, trace $name skipped" >&2
    return 0
  fi
  echo "compare: recording $name" >&2
  timeout 120 "$BEFORE/bin/augur" record -o "$T/$name.augur" -- "$MPIEXEC" -n "$np" "$app" "$@" \
    >"$T/$name.log" 2>&1 || echo "compare: recording $name failed (see $T/$name.log)" >&2
}
if [ ! -d "$T/halo.augur" ]; then
  "$BEFORE/bin/augur-bench-dx-gen" "$T/halo.augur" --ranks 16 --events 200000 --seed 7 \
    >/dev/null 2>&1 || echo "compare: augur-bench-dx-gen failed" >&2
fi
record late_receiver 4 pg_late_receiver
record blocked_sender 4 pg_blocked_sender
record imbalance 4 pg_imbalance
record master_worker 4 pg_master_worker
record serialization 4 pg_serialization
record late_bcast 4 pg_late_bcast
record wrong_order 4 pg_wrong_order
record alltoall 4 dx_alltoall
record poll 2 dx_poll
record chain 4 dx_chain
record levels 4 ph_levels
record periodic 4 ph_periodic
record ring 4 ring
record stencil 4 stencil
record stencil_f 4 stencil_f
record solver 4 pas2p_solver
record irregular 4 pas2p_irregular

# Lines that measure the run of the analysis, not its result.
timing_filter() {
  grep -v -E '[0-9.]+ ?[kMG]?(events|records|ops|operations)/s|in [0-9.]+ ?m?s\b|elapsed|took [0-9.]+ ?m?s' |
    sed -E 's/"wall_seconds": ?[0-9.e+-]+/"wall_seconds":(time of the analysis)/g'
}

# --- outputs of one build -----------------------------------------------------
outputs() { # build outdir
  A=$1/bin/augur
  # Both builds write under the same path, so that paths in the outputs are equal.
  O=$W/run
  rm -rf "$O" "$2"
  mkdir -p "$O" "$(dirname "$2")"
  for tr in "$T"/*.augur; do
    [ -d "$tr" ] || [ -f "$tr" ] || continue
    n=$(basename "$tr" .augur)
    d=$O/$n
    mkdir -p "$d"
    run() { # file cmd...
      f=$1
      shift
      "$@" >"$d/$f.out" 2>"$d/$f.err"
      echo "exit $?" >>"$d/$f.out"
      timing_filter <"$d/$f.err" >"$d/$f.err.f"; mv "$d/$f.err.f" "$d/$f.err"
      timing_filter <"$d/$f.out" >"$d/$f.out.f"; mv "$d/$f.out.f" "$d/$f.out"
    }
    run report "$A" report "$tr"
    run report-json "$A" report "$tr" --json --top 30
    run info "$A" info "$tr"
    "$A" dump "$tr" 2>&1 | md5sum >"$d/dump.md5"
    run diagnose "$A" diagnose "$tr"
    run diagnose-json "$A" diagnose "$tr" --json --html "$d/diagnose.html"
    run phases "$A" phases "$tr"
    run phases-json "$A" phases "$tr" --json
    run phases-irr "$A" phases "$tr" --json --irregular
    run phases-rank "$A" phases "$tr" --json --per-rank
    run signature "$A" signature "$tr" -o "$d/sig"
    run signature-irr "$A" signature "$tr" -o "$d/sig-irr" --irregular --portable
    run simulate "$A" simulate "$tr"
    run simulate-json "$A" simulate "$tr" --json
    run simulate-whatif "$A" simulate "$tr" --json --cpu-speed x2 --bandwidth x0.5 \
      --latency x3 --cores 2 --ranks-per-node 2 --placement cyclic --topology torus
    run simulate-mem "$A" simulate "$tr" --json --in-memory
    run graph "$A" graph "$tr" -o "$d/graph"
    run graph-spread "$A" graph "$tr" -o "$d/graph-spread" --spread
    run graph-exact "$A" graph "$tr" -o "$d/graph-exact" --exact
    run timeline-svg "$A" timeline "$tr" -o "$d/timeline.svg"
    run timeline-html "$A" timeline "$tr" -o "$d/timeline.html" --ranks 0-1 --width 800
    run export-chrome "$A" export "$tr" -f chrome -o "$d/trace.json"
    run export-paraver "$A" export "$tr" -f paraver -o "$d/trace"
    run export-simgrid "$A" export "$tr" -f simgrid -o "$d/simgrid"
    run export-otf2 "$A" export "$tr" -f otf2 -o "$d/otf2"
    if [ -d "$d/otf2" ]; then
      anchor=$(find "$d/otf2" -maxdepth 1 -name '*.otf2' | head -n 1)
      run import "$A" import "${anchor:-$d/otf2}" -o "$d/imported.augur"
      [ -e "$d/imported.augur" ] && "$A" dump "$d/imported.augur" 2>&1 | md5sum >"$d/import-dump.md5"
      rm -rf "$d/imported.augur"
      # The anchor file holds a random trace identifier: compare what it says without it.
      if [ -n "$anchor" ]; then
        otf2-print -A "$anchor" 2>&1 | grep -v '^Trace identifier' >"$anchor.print"
        rm -f "$anchor"
      fi
    fi
  done
  for g in "$SRC"/tests/simulate/graphs/*.graph; do
    n=graph-$(basename "$g" .graph)
    mkdir -p "$O/$n"
    "$A" simulate "$g" --json --runs 3 >"$O/$n/simulate.json" 2>"$O/$n/simulate.err"
    echo "exit $?" >>"$O/$n/simulate.json"
  done
  mv "$O" "$2"
}

echo "compare: outputs of $BEFORE" >&2
outputs "$BEFORE" "$W/out/before"
echo "compare: outputs of $AFTER" >&2
outputs "$AFTER" "$W/out/after"
if diff -r "$W/out/before" "$W/out/after" >"$W/diff.txt" 2>&1; then
  echo "compare: identical ($(find "$W/out/after" -type f | wc -l) files)"
  exit 0
fi
echo "compare: DIFFERENT (full diff in $W/diff.txt):"
diff -rq "$W/out/before" "$W/out/after" | head -n 40
exit 1
