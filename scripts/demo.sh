#!/bin/sh
# `make demo`: record MPI runs under augur and show the main results:
# record -> report -> diagnose -> phases/signature/predict -> simulate.
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
say "augur summary -o chain-summary.html   (the first page to open)"; "$AUGUR" summary "$CHAIN" -o "$BUILD/demo/chain-summary.html"

# PAS2P: the phases of a recorded run, its signature, and a prediction of a
# full run from a short signature run of the same program and input.
SOLVER="$BUILD/apps/$flavour/pas2p_solver"
SOLVE_ARGS="-n 200 -w 1"
SOLVED="$BUILD/demo/solver.augur"
say "augur record -- mpiexec.$flavour -n 4 pas2p_solver $SOLVE_ARGS   (an iterative solver)"
# shellcheck disable=SC2086
"$AUGUR" record -o "$SOLVED" -- "mpiexec.$flavour" -n 4 "$SOLVER" $SOLVE_ARGS
say "augur phases"
"$AUGUR" phases "$SOLVED"
say "augur signature"
"$AUGUR" signature "$SOLVED" -o "$BUILD/demo/solver.sig"
say "augur predict --signature solver.sig -- mpiexec.$flavour -n 4 pas2p_solver $SOLVE_ARGS"
# shellcheck disable=SC2086
"$AUGUR" predict --signature "$BUILD/demo/solver.sig" -- "mpiexec.$flavour" -n 4 "$SOLVER" $SOLVE_ARGS
echo "(PET: the predicted time of the full run; SET: what the signature run took)"

# Simulation: the recorded stencil replayed on a model of this machine
# (measured with as many ranks as the run had: 4 ranks on this machine's
# cores), then what-ifs. `calibrate --from` the trace itself is the other
# way; from an oversubscribed run it charges every message a whole turn's
# wait, where in the run concurrent messages shared one: too high.
say "augur calibrate --ranks 4; augur simulate stencil.augur"
"$AUGUR" calibrate --mpi "$flavour" --ranks 4 -o "$BUILD/demo/machine.ini" >/dev/null 2>&1 ||
  "$AUGUR" calibrate --from "$TRACE" -o "$BUILD/demo/machine.ini" >/dev/null
"$AUGUR" simulate "$TRACE" --machine "$BUILD/demo/machine.ini"
say "augur simulate --cpu-speed x2   (what if the CPUs were twice as fast?)"
"$AUGUR" simulate "$TRACE" --machine "$BUILD/demo/machine.ini" --cpu-speed x2 | grep -E "^(predicted|measured) time"

say "augur timeline"
"$AUGUR" timeline "$TRACE" -o "$BUILD/demo/stencil.html"
echo "open $BUILD/demo/stencil.html in a browser: ranks x time, states, messages"

# Hybrid MPI+OpenMP: the OpenMP stencil as GCC built it (libgomp, which has no
# OMPT): `augur record` runs it on LLVM's libomp, no rebuild, and records
# every thread. 2 ranks x 1 thread would not be hybrid, 2 x 2 would share 2
# cores: 1 rank x 2 threads.
OMP_APP="$BUILD/apps/$flavour/omp_stencil.gcc"
if [ -x "$OMP_APP" ]; then
  HYB="$BUILD/demo/hybrid.augur"
  say "augur record -- mpiexec.$flavour -n 1 omp_stencil.gcc -t 2   (MPI+OpenMP, GCC build)"
  "$AUGUR" record -o "$HYB" -- "mpiexec.$flavour" -n 1 "$OMP_APP" -t 2 -n 200 -x 400 -y 400
  say "augur report   (the efficiencies, per thread)"
  "$AUGUR" report "$HYB" | sed -n '/Efficiencies/,$p'
  "$AUGUR" timeline "$HYB" -o "$BUILD/demo/hybrid.html"
  echo "open $BUILD/demo/hybrid.html in a browser: a row per thread"
fi

# The master/worker model (seed 002): a few short training runs of the heat
# app, a regression tree of T_iter, the best configuration for a workload
# not run. 1 worker x 1 thread and 1 x 2 (the master polls: 1 x 2 shares
# the 2 cores, and its rows say so).
MW_APP="$BUILD/apps/$flavour/mw_heat.gcc"
if [ -x "$MW_APP" ]; then
  say "augur sweep -- mpiexec.$flavour -n {procs} mw_heat.gcc -W {workload}   (training runs)"
  rm -rf "$BUILD/demo/heat.csv" "$BUILD/demo/heat.traces"
  "$AUGUR" sweep --workers 1 --threads 1,2 --workload 600,800,1000,1200,1400 --iterations 5 \
    -o "$BUILD/demo/heat.csv" -- "mpiexec.$flavour" -n {procs} "$MW_APP" -W {workload} \
    -i {iterations} 2>&1 | tail -1
  say "augur model fit; augur model best --workload 900"
  "$AUGUR" model fit "$BUILD/demo/heat.csv" --minsize 4 -o "$BUILD/demo/heat.json" \
    --formula 't_iter ~ w2 + w1 | w2 + w1 + workload + threads' | sed -n '/Fitted party/,$p'
  "$AUGUR" model best "$BUILD/demo/heat.json" --workload 900 --data "$BUILD/demo/heat.csv"
fi

say "next"
echo "augur dump $TRACE --rank 1 --limit 20     # the events themselves"
echo "augur report $TRACE --json                # the same report for programs"
echo "augur export $TRACE --format chrome -o stencil.json   # Perfetto; also otf2, paraver, simgrid"
