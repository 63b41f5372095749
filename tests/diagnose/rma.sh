# diagnose's one-sided wait states (docs/diagnose.md "One-sided wait states")
# on real runs of apps/pg_rma_latepost.c and apps/pg_rma_fence.c, under MPICH
# or Open MPI (osc sm,pt2pt), with the compute time, message size and rank
# count varied: the ON run's top finding is the pattern at the program's line
# (for late post: whichever call of the access epoch the MPI blocks in, and
# it must be the call where the origin spends the time), with the ranks and
# roughly the time the program injects; the --off control has none of the
# one-sided patterns above the threshold.
# Environment: AUGUR, MPIEXEC, APPS (build/apps/<mpi>), SRC (apps/), PY, CASE
# (latepost, fence or bulk).
. "$(dirname "$0")/../lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_osc=sm,pt2pt
TOP=1 # rma_check.py: the pattern must be the top finding
# Each rank runs at autogroup nice -20 where it can (tests/simulate/quiet_rank.sh,
# root; else as it is): under load from other jobs (15-19 here) a rank that
# must progress a one-sided transfer is off its CPU for whole time slices, and
# MPICH's fence then took 80 ms per 1 MiB put (12.5 MiB/s: rma_volume above
# the injected wait at fence) against 1-2 ms quiet.
QUIET="$(cd "$(dirname "$0")/../simulate" && pwd)/quiet_rank.sh"

# one NAME NP APP ARGS...: records, diagnoses (JSON and text), checks with
# rma_check.py (the expected line comes from the program's own output).
one() {
  name=$1 np=$2 app=$3
  shift 3
  expect 0 - "$AUGUR" record -o "$D/$name.augur" -- "$MPIEXEC" -n "$np" sh "$QUIET" "$APPS/$app" "$@"
  grep '^expected: ' "$D/out" >"$D/$name.expected" || {
    fail "$name: no expected line: $(cat "$D/err")"
    return
  }
  expect 0 0 "$AUGUR" diagnose "$D/$name.augur" --json
  cp "$D/out" "$D/$name.json"
  expect 0 0 "$AUGUR" diagnose "$D/$name.augur"
  cp "$D/out" "$D/$name.txt"
  expect 0 0 "$AUGUR" report "$D/$name.augur" --json --top 1000
  cp "$D/out" "$D/$name.report.json"
  TOP=$TOP NONE_ALSO=${NONE_ALSO:-} "$PY" "$(dirname "$0")/rma_check.py" "$SRC/$app.c" "$D/$name" "$np" ||
    fail "$name: $(head -c 3000 "$D/$name.txt")"
}

# Sizes: D of 50-60 ms, 3-4 iterations: with 3 or 4 ranks on the 2 cores a
# waiting MPI rank polls and takes a CPU, so every synchronisation costs some
# milliseconds of scheduling even when nobody is late (tests/proving's note);
# the injected time must dwarf that, in the controls too (300 ms: a sleeping
# rank woke up to 24 ms late at load 13-20, which at 150 ms put a control's
# fence waits at 2.2-2.5 % of process-time).
case "$CASE" in
latepost)
  # at 2 ranks the target's wait in the MPI_Allreduce for the origin's
  # computation (the consequence) is as large as the late post: TOP=0
  TOP=0
  one lp2 2 pg_rma_latepost -n 4 -d 50000 -s 64
  TOP=1
  one lp3 3 pg_rma_latepost -n 4 -d 50000 -s 1048576
  one lc2 2 pg_rma_latepost -n 4 -d 50000 -s 4096 --late-complete
  case "$MPIEXEC" in *openmpi*)
    # osc pt2pt alone: Win_start returns at once, the first MPI_Put waits
    export OMPI_MCA_osc=pt2pt
    one lpput3 3 pg_rma_latepost -n 4 -d 50000 -s 1048576
    export OMPI_MCA_osc=sm,pt2pt
    ;;
  esac
  one lpoff2 2 pg_rma_latepost -n 3 -d 300000 -s 64 --off
  one lpoff3 3 pg_rma_latepost -n 3 -d 300000 -s 1048576 --off
  ;;
fence)
  one f2 2 pg_rma_fence -n 4 -d 50000 -b 2000 -s 1048576
  one f4 4 pg_rma_fence -n 3 -d 60000 -b 5000 -s 65536
  one foff2 2 pg_rma_fence -n 3 -d 300000 -b 2000 -s 64 --off
  one foff3 3 pg_rma_fence -n 3 -d 300000 -b 5000 -s 65536 --off
  ;;
bulk)
  # one-sided data movement (rma_volume): 4 MiB and 1 MiB puts completed by
  # MPI_Win_flush, 2 and 3 ranks; the control's 1 KiB puts have none
  one b2 2 pg_rma_bulk -n 4 -b 2000 -s 4194304
  # 3 ranks on 2 CPUs: the rank whose transfer the scheduler delays arrives
  # last at the barrier, and that wait (its consequence) can rank first: TOP=0
  TOP=0
  one b3 3 pg_rma_bulk -n 4 -b 500 -s 1048576
  TOP=1
  NONE_ALSO=rma_volume one boff2 2 pg_rma_bulk -n 4 -b 2000 --off
  ;;
*)
  fail "unknown CASE '$CASE'"
  ;;
esac
finish
