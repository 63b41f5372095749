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
  [ "$nr" = 2 ] && cp "$D/sig" "$D/sig2"
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
assert sig[0] == "augur-signature 5", sig[0]
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
pet = pred["pet_seconds"]
print("ranks %d: AET %.3f s  PET %.3f s  PETE %.1f %%  SET %.3f s; phase %d: base %.6f sample %.6f "
      "timed %.6f -> %.6f (cv %.2f)" % (ranks, aet, pet, 100 * abs(pet - aet) / aet,
      pred["set_seconds"], top["id"], base, sample, pp["timed_seconds"], pp["phase_seconds"],
      top["cv"]))
assert abs(pet - aet) <= tol * aet, "PET %.3f vs AET %.3f" % (pet, aet)
PYEOF
    fail "ranks $nr levels $3: $(cat "$D/pred.json")"
  # The repetitions still to come: their base time (the curve) x the speed
  # pooled over every timed repetition.
  "$PY" "$(dirname "$0")/remaining.py" "$D/sig" "$D/pred.json" ||
    fail "ranks $nr levels $3: remaining: $(cat "$D/pred.json")"
}

# ranks iterations levels work bytes set-up [max period: a V-cycle longer than
# it, as NPB MG class B's (about 540 ticks at 2 ranks) is longer than 512]
check 2 20 4 16 64 60 40
check 4 12 3 64 512 40

# Not one speed: the signature of a run with WORK 16 predicts a run with WORK
# 64. The levels' compute is 4 x, the set-up's cheap exchanges are not, so the
# phases' own speeds differ by far more than 1.25: the pool, weighed by the
# sample (the set-up counts as much as a level), is not the speed of the
# levels to come, so PET with each phase at its own speed is more than 15 %
# away and predict must say so (text and JSON), and that PET is nearer the
# plain run.
t0=$(ms)
"$mpiexec" -n 2 "$app" -n 20 -l 4 -w 64 -s 64 -S 60 >/dev/null || fail "full run failed"
t1=$(ms)
aet=$(( t1 - t0 ))
aet=$(echo "$aet" | awk '{ printf "%.3f", $1 / 1000 }')
expect 0 - "$AUGUR" predict --signature "$D/sig2" -- "$mpiexec" -n 2 "$app" -n 20 -l 4 -w 64 -s 64 -S 60
contains "$D/out" "not at one speed"
expect 0 - "$AUGUR" predict --json --signature "$D/sig2" -- "$mpiexec" -n 2 "$app" -n 20 -l 4 -w 64 -s 64 -S 60
grep '^{' "$D/out" >"$D/pred.json"
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stopped_early"] and d["speed_varies"] is True, d
lo, hi = d["speed_range"]
assert hi > 2 * lo, d["speed_range"]
a, b = d["pet_range_seconds"]
po, pet = d["pet_own_speeds_seconds"], d["pet_seconds"]
assert abs(po - pet) > 0.15 * pet and a == min(po, pet) and b == max(po, pet), d
assert abs(po - float(sys.argv[2])) < abs(pet - float(sys.argv[2])), (d, sys.argv[2])
' "$D/pred.json" "$aet" || fail "one speed: $(cat "$D/pred.json")"
"$PY" "$(dirname "$0")/remaining.py" "$D/sig2" "$D/pred.json" || fail "one speed: remaining"
finish
