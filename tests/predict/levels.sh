# Issue 21, item 2: phases whose repetitions differ (NPB MG's levels: the same
# calls, other sizes and compute). apps/ph_levels exchanges through one
# function at every level of a V-cycle, after a set-up of cheap exchanges at
# the finest level, so the finest level's exchange phase has cheap set-up
# repetitions and costly loop ones. Checked, for 2 and 4 ranks:
#  - `augur phases` says that phase varies (text warning and JSON
#    quality.varying, with its CV above the bound);
#  - `augur signature` times repetitions typical of it (their base-run mean,
#    SAMPLE_SECONDS, within 25 % of the phase's mean), not the first ones
#    after the warm-up (the set-up's cheap ones);
#  - `augur predict` scales the phase's base mean by how those repetitions
#    ran here (PhaseET = base x timed / sample), and PET is within TOL of a
#    plain run measured just before (loose: the machine is shared).
# usage: levels.sh MPIEXEC APP
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
app=$2
TOL=${TOL:-0.5}
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$app" ]; then
  echo "skipped: MPICH recorder or ph_levels not built"
  exit 77
fi
ms() { date +%s%N | cut -c1-13; }

# check RANKS ITER LEVELS WORK BYTES SETUP [MAXPERIOD]
check() {
  nr=$1
  args="-n $2 -l $3 -w $4 -s $5 -S $6"
  mp=${7:+--max-period $7}
  T="$D/lv$nr-$3.augur"
  # shellcheck disable=SC2086
  expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n "$nr" "$app" $args
  expect 0 0 "$AUGUR" phases "$T" $mp
  contains "$D/out" "repetitions vary (CV of their times"
  expect 0 0 "$AUGUR" phases "$T" --json $mp
  cp "$D/out" "$D/ph.json"
  expect 0 0 "$AUGUR" signature "$T" -o "$D/sig" $mp
  t0=$(ms)
  "$mpiexec" -n "$nr" "$app" $args >"$D/full.out" || fail "full run failed"
  t1=$(ms)
  expect 0 - "$AUGUR" predict --json --signature "$D/sig" -- "$mpiexec" -n "$nr" "$app" $args
  grep '^{' "$D/out" >"$D/pred.json"
  "$PY" - "$D/ph.json" "$D/sig" "$D/pred.json" "$t0" "$t1" "$TOL" "$@" <<'PYEOF' ||
import json, sys
ph = json.load(open(sys.argv[1]))
sig = open(sys.argv[2]).read().split("\n")
pred = json.load(open(sys.argv[3]))
aet = (int(sys.argv[5]) - int(sys.argv[4])) / 1000.0
tol = float(sys.argv[6])
ranks, it, levels, work, size, setup = (int(x) for x in sys.argv[7:13])
# The finest level's exchange: the set-up's and two per V-cycle.
top = [p for p in ph["phases"] if p["weight"] == setup + 2 * it]
assert len(top) == 1, [(p["weight"], p["events"]) for p in ph["phases"]]
top = top[0]
assert top["varies"] and top["cv"] > ph["quality"]["cv_bound"], top
assert top["id"] in ph["quality"]["varying"], ph["quality"]
assert sig[0] == "augur-signature 4", sig[0]
line = [l.split() for l in sig if l.startswith("phase %d " % top["id"])][0]
base, sample = float(line[3]), float(line[8])
# The timed repetitions are typical of the phase: not only the set-up's
# cheap ones (its first SETUP repetitions, where the first plan puts them).
start, k = int(line[4]), int(line[5])
assert start + k > setup, ("window in the set-up", start, k, setup)
assert sample > 0, (base, sample)
pp = [p for p in pred["phases"] if p["id"] == top["id"]][0]
assert pp["status"] == "measured" and pp["timed_seconds"] > 0, pp
# A typical window (within AUGUR_SIGNATURE_TYPICAL = 1.25 of the phase's mean)
# is compared with itself; an untypical one (none close enough early enough:
# on a loaded machine the base run's times scatter) is reported as such and
# its measured mean is the phase's. predict and the signature must agree.
typical = base / 1.25 <= sample <= base * 1.25
assert typical == (not pp["untypical_sample"]), (typical, pp)
want = base * pp["timed_seconds"] / sample if typical else pp["timed_seconds"]
assert abs(pp["phase_seconds"] - want) <= 1e-6 * want, (pp, want)
# The repetitions still to come are predicted from what they took in the
# base run (the phase's curve: the set-up's cheap ones are not counted at
# the phase's mean), times the speed measured on every timed repetition
# (here over the same ones there), and the other phases' time in the share
# that remains.
def curve(pid):
    lines, n = sig[sig.index([l for l in sig if l.startswith("phase %d " % pid)][0]) + 1:], 0
    assert lines[0].startswith("curve "), lines[0]
    n = int(lines[0].split()[1])
    return [(int(l.split()[1]), float(l.split()[2])) for l in lines[1:1 + n]]
def left(pid, w, each, seen):
    pts = curve(pid)
    if w >= 2:  # from 0 to WEIGHT, the base run's PhaseET x W in all
        assert pts and pts[0] == (0, 0.0) and pts[-1][0] == w, pts
        assert abs(pts[-1][1] - each0[pid] * w) <= 1e-6 * each0[pid] * w + 1e-8, (pts[-1], w)
    if not pts:  # a single repetition: its PhaseET here
        return each * max(w - seen, 0)
    if seen >= w:
        return 0.0
    for (a, ta), (b, tb) in zip(pts, pts[1:]):
        if a <= seen <= b:
            return pts[-1][1] - (ta + (tb - ta) * (seen - a) / (b - a))
each0 = {int(l.split()[1]): float(l.split()[3]) for l in sig if l.startswith("phase ")}
here = there = 0.0
for q in pred["phases"]:
    pl = [l.split() for l in sig if l.startswith("phase %d " % q["id"])][0]
    if q["status"] == "measured" and q["measured"] == int(pl[5]) and float(pl[8]) > 0:
        here += q["timed_seconds"] * q["measured"]
        there += float(pl[8]) * q["measured"]
if here > 0:
    assert abs(pred["scale"] - here / there) <= 1e-5 * here / there, (pred["scale"], here / there)
if pred["pet_source"] == "run + remaining":
    rem = done = allb = 0.0
    for q in pred["phases"]:
        pl = [l.split() for l in sig if l.startswith("phase %d " % q["id"])][0]
        w, k = int(pl[2]), pred["scale"]
        l = left(q["id"], w, q["phase_seconds"] / k, min(q["seen"], w)) * k
        a = left(q["id"], w, q["phase_seconds"] / k, 0) * k
        rem, done, allb = rem + l, done + a - l, allb + a
    want = rem + pred["rest_seconds"] * (1 - done / allb)
    assert abs(pred["remaining_seconds"] - want) <= 1e-5 * want, (pred["remaining_seconds"], want)
pet = pred["pet_seconds"]
print("ranks %d: AET %.3f s  PET %.3f s  PETE %.1f %%  SET %.3f s; phase %d: base %.6f sample %.6f "
      "timed %.6f -> %.6f (cv %.2f)" % (ranks, aet, pet, 100 * abs(pet - aet) / aet,
      pred["set_seconds"], top["id"], base, sample, pp["timed_seconds"], pp["phase_seconds"],
      top["cv"]))
assert abs(pet - aet) <= tol * aet, "PET %.3f vs AET %.3f" % (pet, aet)
PYEOF
    fail "ranks $nr levels $3: $(cat "$D/pred.json")"
}

# ranks iterations levels work bytes set-up [max period: a V-cycle longer than
# it, as NPB MG class B's (about 540 ticks at 2 ranks) is longer than 512]
check 2 20 4 16 64 60 40
check 4 12 3 64 512 40
finish
