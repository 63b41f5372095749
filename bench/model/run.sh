#!/bin/sh
# bench/model: the seed 002 accuracy benchmark (issue 25, Acceptance
# "Accuracy"; bench/model/README.md). For each master/worker app: a training
# sweep and a disjoint held-out sweep inside the trained range (`augur
# sweep`), `augur model fit` with the seed's prototype, with and without the
# seed's weights (`augur model weights --scheme seed`), the held-out |error|
# of T_iter (`augur model predict`) and the best configuration (`augur model
# best`) against the measured best. One table on stdout, the figures in
# OUT/bench_model.json, progress on stderr.
# Usage: bench/model/run.sh [BUILD_DIR] [OUT_DIR]
# Environment: APPS (default "mw_nbody mw_heat mw_kmeans"), WORKERS, THREADS
# (sweep lists, default 1,2 and 1,2), REPS (2), ITERS (10, the seed's),
# MPI (mpich), CC (gcc: the apps' OpenMP build), CORES (default nproc),
# TRAIN_<app>, HELD_<app> (workload lists, e.g. TRAIN_mw_heat=1500,2000),
# MINSIZE (fit's --minsize, default 25: the seed's minsplit on its cluster,
# Listing 4.1), WEIGHTS (the fits' weightings, default
# none,seed,relative,variance: none, the seed's eq. 4.5-4.6, 1 / T_iter^2,
# 1 / sigma^2 of each configuration's repetitions: the seed's eq. 4.4),
# TIMEOUT (per run, 300 s),
# FRESH=1 (run the sweeps again instead of resuming those already in OUT),
# MASTER (sleep: the apps' -s, the master sleeps between MPI_Test calls and
# leaves its core to the workers;
# poll: a blocking MPI_Recv, which polls and keeps a core busy), BIND (1:
# every worker's threads on CPUs of their own, bench/model/bind_rank.sh;
# 0: threads not bound), LOCK (a file: each run, one mpiexec, waits for
# `flock LOCK` and holds it while it runs; not the analysis), QUIET=1 (each
# rank at autogroup nice -20, tests/simulate/quiet_rank.sh; needs root),
# ORDER (mixed: within a repetition the training and held-out workloads in
# one ascending list; blocks: all training workloads, then all held-out ones),
# SWEEPS_ONLY=1 (stop after the sweeps: several run.sh with one app each may
# fill one OUT, and a last one evaluates), SCORE_ONLY=1 (no runs: score the
# sweeps already in OUT again, e.g. with a newer evaluate.py or augur; no
# calibrate either: the analytic column needs OUT/machine.ini). README.md,
# "Noise", says why.
set -eu
BUILD=$(cd "${1:-build}" && pwd)
OUT=${2:-$BUILD/bench-model}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../scripts/mpi-env.sh"
APPS=${APPS:-mw_nbody mw_heat mw_kmeans}
WORKERS=${WORKERS:-1,2}
THREADS=${THREADS:-1,2}
REPS=${REPS:-2}
ITERS=${ITERS:-10}
MPI=${MPI:-mpich}
CC=${CC:-gcc}
CORES=${CORES:-$(nproc)}
TIMEOUT=${TIMEOUT:-300}
AUGUR=$BUILD/bin/augur
[ -x "$AUGUR" ] || { echo "bench/model: no $AUGUR" >&2; exit 1; }
command -v "mpiexec.$MPI" >/dev/null || { echo "bench/model: no mpiexec.$MPI" >&2; exit 1; }
# Idle OpenMP threads sleep instead of spinning; so does the master with -s
# (docs/model.md, "apps"): then workers x threads <= cores run uncontended.
export OMP_WAIT_POLICY=passive
MASTER=${MASTER:-sleep}
case $MASTER in
sleep) MASTER_ARG=-s ;;
poll) MASTER_ARG= ;;
*) echo "bench/model: MASTER=$MASTER: expected sleep or poll" >&2; exit 2 ;;
esac
# How each run is launched (README.md, "Noise"): the words before mpiexec
# (LOCK) and before each rank's program (QUIET, BIND). Not the sweep's
# --places/--bind: under `augur record` a GCC-built app runs on LLVM's
# libomp, and OMP_PROC_BIND would make the app's libgomp pin the whole rank
# to one CPU first (bind_rank.sh).
ORDER=${ORDER:-mixed}
case $ORDER in
mixed | blocks) ;;
*) echo "bench/model: ORDER=$ORDER: expected mixed or blocks" >&2; exit 2 ;;
esac
BIND=${BIND:-1}
PRE=
RANK_PRE=
case $BIND in
1) RANK_PRE="sh $HERE/bind_rank.sh" ;;
0) ;;
*) echo "bench/model: BIND=$BIND: expected 1 or 0" >&2; exit 2 ;;
esac
if [ -n "${LOCK:-}" ]; then
  command -v flock >/dev/null || { echo "bench/model: LOCK needs flock(1)" >&2; exit 1; }
  PRE="flock $LOCK"
fi
[ "${QUIET:-0}" = 1 ] && RANK_PRE="sh $HERE/../../tests/simulate/quiet_rank.sh $RANK_PRE"

# The seed's workload ranges, scaled to this machine: an iteration at
# 1 worker x 1 thread takes about 5-100 ms (docs/model.md "apps" measured
# nbody 1400 -> 16 ms, 2800 -> 73 ms; heat N 2000 -> 25 ms, 4000 -> 98 ms;
# kmeans 16384 -> 32 ms, 65536 -> 132 ms). Held-out workloads lie inside the
# training range and are not training workloads. 9 training workloads (18
# rows per configuration at 2 reps, 54 on the uncontended ones; a leaf of
# one configuration's own needs MINSIZE <= 18 unweighted) and 4 held-out
# ones (README.md, "More rows per configuration").
default_train() {
  case $1 in
  mw_nbody) echo 700,850,1200,1350,1800,1950,2400,2800,3000 ;;
  mw_heat) echo 1500,1650,2000,2150,2600,2750,3200,3400,4000 ;;
  mw_kmeans) echo 3000,5000,10000,12500,20000,23000,32000,36000,48000 ;;
  esac
}
default_held() {
  case $1 in
  mw_nbody) echo 1000,1500,2100,2600 ;;
  mw_heat) echo 1800,2300,2900,3600 ;;
  mw_kmeans) echo 7000,15000,26000,40000 ;;
  esac
}
# The seed's prototypes (Tables 5.4, 5.8, 5.15) and partitioning variables.
prototype() {
  case $1 in
  mw_nbody) echo "w2 + w1 + workers + local_workload" ;;
  mw_heat) echo "w2 + w1 + workers + workload" ;;
  *) echo "w2 + w1 + workers" ;;
  esac
}

# The seed's analytic model (approach A, `augur model analytic`): bytes the
# master sends each worker and each worker sends back (apps/README.md), and
# how a thread's work grows (docs/model.md "Analytic baseline").
analytic_spec() {
  case $1 in
  mw_nbody) echo "32*W;48*W/workers;w2" ;;
  mw_heat) echo "16*W;16*W+8;w2" ;;
  mw_kmeans) echo "10000;10080;w1" ;;
  esac
}

LOAD_START=$(cut -d' ' -f1 /proc/loadavg)
echo "bench/model: $APPS; workers $WORKERS x threads $THREADS, $REPS rep(s), $ITERS iterations," \
  "$MPI, $CC build, $CORES cores, master: $MASTER, bind: $BIND, lock: ${LOCK:-none}," \
  "quiet ranks: ${QUIET:-0}; output in $OUT" >&2
for app in $APPS; do
  if [ "${SCORE_ONLY:-0}" = 1 ]; then
    for set in train held; do
      [ -s "$OUT/$app-$set.csv" ] ||
        { echo "bench/model: SCORE_ONLY=1: no $OUT/$app-$set.csv (run the sweeps first)" >&2; exit 1; }
    done
    continue
  fi
  exe="$BUILD/apps/$MPI/$app.$CC"
  [ -x "$exe" ] || { echo "bench/model: no $exe (build the apps first)" >&2; exit 1; }
  train=$(eval "echo \${TRAIN_$app:-}")
  [ -n "$train" ] || train=$(default_train "$app")
  held=$(eval "echo \${HELD_$app:-}")
  [ -n "$held" ] || held=$(default_held "$app")
  for set in train held; do
    [ "${FRESH:-0}" = 1 ] && rm -rf "$OUT/$app-$set.csv" "$OUT/$app-$set.traces"
  done
  # Repetition r of every grid point (training and held-out) before repetition
  # r+1 of any: `augur sweep` runs a grid point's repetitions back to back
  # (docs/model.md "sweep"), so they would see the same machine load and
  # their spread would hide how much a configuration's time drifts with it
  # (README.md, "Noise"). Each call with --reps r runs only repetition r: the
  # earlier ones are in the CSV already (resume). Within a repetition,
  # ORDER=mixed (default) runs the workloads of both sets in one ascending
  # list, one sweep call per workload (the held-out ones lie between the
  # training ones): a slow spell of the machine then falls on training and
  # held-out runs alike instead of on a block of one set (README.md, "Scored
  # per workload"); ORDER=blocks runs all training workloads, then all
  # held-out ones (before modelmean).
  case $ORDER in
  mixed) order=$({ for w in $(echo "$train" | tr , ' '); do echo "$w train"; done
    for w in $(echo "$held" | tr , ' '); do echo "$w held"; done; } | sort -g -k1,1 |
    tr ' ' :) ;;
  blocks) order="$train:train $held:held" ;;
  esac
  r=1
  while [ $r -le "$REPS" ]; do
    for step in $order; do
      wl=${step%:*}
      set=${step##*:}
      echo "bench/model: $app $set sweep, workloads $wl, repetition $r of $REPS" >&2
      # A sweep that stops half-way is resumed by running it again (docs/model.md
      # "sweep", Resume): failed runs are rows with a status, not an error here.
      # shellcheck disable=SC2086 # PRE, RANK_PRE: words
      "$AUGUR" sweep --workers "$WORKERS" --threads "$THREADS" --workload "$wl" --reps "$r" \
        --iterations "$ITERS" --timeout "$TIMEOUT" -o "$OUT/$app-$set.csv" -- \
        $PRE "mpiexec.$MPI" -n '{procs}' $RANK_PRE "$exe" -W '{workload}' -i '{iterations}' \
        $MASTER_ARG >&2 ||
        echo "bench/model: $app $set sweep: some runs failed (their rows say why)" >&2
    done
    r=$((r + 1))
  done
done

[ "${SWEEPS_ONLY:-0}" = 1 ] && exit 0

# The analytic baseline's machine model (`augur calibrate --openmp`, once:
# kept in OUT like the sweeps; FRESH=1 measures again).
[ "${FRESH:-0}" = 1 ] && [ "${SCORE_ONLY:-0}" != 1 ] && rm -f "$OUT/machine.ini"
if [ ! -s "$OUT/machine.ini" ] && [ "${SCORE_ONLY:-0}" != 1 ]; then
  echo "bench/model: augur calibrate --openmp (the analytic baseline's microbenchmarks)" >&2
  "$AUGUR" calibrate --openmp --mpi "$MPI" -o "$OUT/machine.ini" >&2 ||
    { echo "bench/model: calibrate --openmp failed: no analytic column" >&2; rm -f "$OUT/machine.ini"; }
fi

# The fits, predictions and choices (evaluate.py) and the table.
set --
for app in $APPS; do set -- "$@" "$app=$(prototype "$app")"; done
# The same with the leaf terms chosen by `augur model fit --terms auto`
# (docs/model.md, "Leaf terms chosen automatically"): prototype vs auto.
for app in $APPS; do set -- "$@" "$app=auto"; done
for app in $APPS; do set -- "$@" --analytic "$app=$(analytic_spec "$app")"; done
[ -s "$OUT/machine.ini" ] && set -- "$@" --machine "$OUT/machine.ini"
[ "${SCORE_ONLY:-0}" = 1 ] && set -- "$@" --score-only
exec python3 "$HERE/evaluate.py" --augur "$AUGUR" --out "$OUT" --cores "$CORES" \
  --minsize "${MINSIZE:-25}" --weights "${WEIGHTS:-none,seed,relative,variance}" --reps "$REPS" \
  --iterations "$ITERS" \
  --load-start "$LOAD_START" --master "$MASTER" --bind "$BIND" "$@"
