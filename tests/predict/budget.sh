# The measurement budget of a signature (docs/signature.md, "What is
# measured"): 5 % of the base run's time, counted from where the first
# repeating phase starts. Counted from MPI_Init, a set-up longer than 5 % of
# the run left the budget at the warm-up and K repetitions of the earliest
# repeating phase, and every other phase was timed once (NPB LU W, 2 ranks:
# set-up 6.7 % of the run, its second pipeline phase of weight 9030 and its
# time-step phase timed once each; issue 21). apps/ph_periodic with a set-up
# of about a quarter of the run: the extra exchange of every K-th iteration
# must be timed at least 3 times, the iteration K = 10 times, for two
# settings (K, set-up share, iterations).
# usage: budget.sh MPIEXEC APPDIR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
app=$2/ph_periodic
[ -x "$app" ] || { echo "skipped: ph_periodic not built"; exit 77; }

# check ITER K SETUP_US
check() {
  T="$D/b$2.augur"
  expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 2 "$app" -n "$1" -k "$2" -w 200 -S "$3"
  expect 0 0 "$AUGUR" signature "$T" -o "$D/sig$2"
  # phase ID WEIGHT BASE START MEASURE LATE SYNC SAMPLE
  "$PY" - "$D/sig$2" "$1" "$2" <<'PYEOF' || fail "ITER $1 K $2 SETUP $3 us: $(grep '^phase' "$D/sig$2")"
import sys
it, k = int(sys.argv[2]), int(sys.argv[3])
ph = [l.split() for l in open(sys.argv[1]) if l.startswith("phase ")]
plan = {int(p[2]): int(p[5]) for p in ph}
print("ITER %d K %d: measure by weight %s" % (it, k, plan))
assert plan.get(it) == 10, "the iteration is not timed 10 times"
assert plan.get(it // k, 0) >= 3, "the extra exchange is timed fewer than 3 times"
PYEOF
}
check 400 5 300000
check 600 4 500000
