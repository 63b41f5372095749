#!/bin/sh
# `make demo`: record a 4-rank 2-D stencil run under augur and show the results.
# Usage: scripts/demo.sh [BUILD_DIR]
set -eu
BUILD=${1:-build}
AUGUR="$BUILD/bin/augur"
. "$(dirname "$0")/mpi-env.sh"

# Prefer MPICH (fast start-up); fall back to Open MPI.
for flavour in mpich openmpi; do
  if [ -x "$BUILD/apps/$flavour/stencil" ] && command -v "mpiexec.$flavour" >/dev/null; then
    break
  fi
done
APP="$BUILD/apps/$flavour/stencil"
TRACE="$BUILD/demo/stencil.augur"
mkdir -p "$BUILD/demo"

say() { printf '\n\033[1m== %s\033[0m\n' "$*" 2>/dev/null || printf '\n== %s\n' "$*"; }

say "augur record -- mpiexec.$flavour -n 4 stencil -n 200 -x 800 -y 800"
"$AUGUR" record -o "$TRACE" -- "mpiexec.$flavour" -n 4 "$APP" -n 200 -x 800 -y 800

if [ "$(nproc)" -lt 4 ]; then
  echo "(note: 4 ranks on $(nproc) cores: ranks take turns on the CPUs, so waiting in MPI"
  echo " dominates this report; on 4+ cores the same run is mostly compute)"
fi

say "augur info"
"$AUGUR" info "$TRACE"

say "augur report"
"$AUGUR" report "$TRACE"

say "augur diagnose"
"$AUGUR" diagnose "$TRACE" | head -30

say "augur record --payload-hash -- mpiexec.$flavour -n 4 pg_blocked_sender   (a known problem)"
CHAIN="$BUILD/demo/chain.augur"
"$AUGUR" record --payload-hash -o "$CHAIN" -- "mpiexec.$flavour" -n 4 "$BUILD/apps/$flavour/pg_blocked_sender" -n 3 -d 100000
say "augur diagnose"
"$AUGUR" diagnose "$CHAIN" --html "$BUILD/demo/chain.html"
echo "open $BUILD/demo/chain.html in a browser: the findings and the timeline with them marked"

say "augur timeline"
"$AUGUR" timeline "$TRACE" -o "$BUILD/demo/stencil.html"
echo "open $BUILD/demo/stencil.html in a browser: ranks x time, states, messages"

say "next"
echo "augur dump $TRACE --rank 1 --limit 20     # the events themselves"
echo "augur report $TRACE --json                # the same report for programs"
echo "augur export $TRACE --format chrome -o stencil.json   # Perfetto; also otf2, paraver, simgrid"
