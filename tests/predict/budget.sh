# The measurement budget of a signature (docs/signature.md, "What is
# measured"): 5 % of the base run's time, counted from where the first
# repeating phase starts. Counted from MPI_Init, a set-up longer than 5 % of
# the run left the budget at the warm-up and K repetitions of the earliest
# repeating phase, and every other phase was timed once (NPB LU W, 2 ranks:
# set-up 6.7 % of the run, its second pipeline phase of weight 9030 and its
# time-step phase timed once each; issue 21). apps/ph_periodic with a set-up
# of about a quarter of the run: the extra exchange of every K-th iteration
# must be timed at least twice (was once), the iteration K = 10 times, for two
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
# 5 % of the run is about 20 iterations, 4 extra exchanges, the first one a
# warm-up; load moves the window by one. Counted from MPI_Init: once.
assert plan.get(it // k, 0) >= 2, "the extra exchange is timed fewer than 2 times"
PYEOF
}
check 400 5 300000
check 600 4 500000

# Long repetitions need fewer than K (AUGUR_SIGNATURE_ENOUGH, 0.4 s of timed
# time): 16 iterations of about 0.1-0.3 s each. K = 10 of them after the
# warm-up made the signature run most of the run (NPB FT B: 20 iterations,
# SET/AET 68 %); now the budget waits for ceil(0.4 s / the iteration's base
# time), unless the iterations vary (CV above 0.5), when K average them.
T="$D/long.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 2 "$app" -n 16 -k 1000 -w 8000
expect 0 0 "$AUGUR" phases "$T" --json
cp "$D/out" "$D/long.json"
expect 0 0 "$AUGUR" signature "$T" -o "$D/siglong"
"$PY" - "$D/siglong" "$D/long.json" <<'PYEOF' || fail "long repetitions: $(grep '^phase' "$D/siglong")"
import json, math, sys
ph = [l.split() for l in open(sys.argv[1]) if l.startswith("phase ")]
cv = {p["id"]: p["cv"] for p in json.load(open(sys.argv[2]))["phases"]}
it = max(ph, key=lambda p: int(p[2]))  # the iteration: the largest weight
w, base, measure = int(it[2]), float(it[3]), int(it[5])
want = 10 if cv[int(it[1])] > 0.5 else min(10, max(1, math.ceil(0.4 / base)))
print("iteration: weight %d, base %.3f s, cv %.2f: measured %d, want %d" % (w, base, cv[int(it[1])], measure, want))
assert w >= 15 and measure == min(want, w - 1), (measure, want)
PYEOF
finish
