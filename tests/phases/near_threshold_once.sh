# Issue 21: two recordings of the same program give the same signature, also
# for a phase of weight 1 whose share of the run lies at the relevance
# threshold (NPB MG B, 2 ranks: phase 14, the barrier before the timed loop,
# 0.82 % of one recording and 1.00 % of the other, so one signature had it
# and the other did not). apps/ph_periodic -o ONCE adds, once after the
# third iteration (as MG's between its warm-up iteration and its timed
# loop: before every window, which ends after the iteration's 11th
# repetition, so never late), a barrier followed by ONCE
# units of compute: recorded with
# ONCE 80 and 120 (+-20 % around a share of about 1 %), with the relevance
# threshold put between the two recordings' shares of that phase, so that a
# rule on the share alone keeps it in one recording and drops it in the
# other. Both `augur phases` tables (ids, weights, calls, relevance) and both
# whole signatures (bench/npb/sigcmp.py: ids, weights, late/sync flags,
# calls) must be the same, the one-off phase kept in both (docs/phases.md,
# "Relevance": a phase of weight 1 costs the signature run nothing).
# usage: near_threshold_once.sh MPIEXEC APP SIGCMP
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
app=$2
sigcmp=$3
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$app" ]; then
  echo "skipped: MPICH recorder or ph_periodic not built"
  exit 77
fi

rec=1
for once in 80 120; do
  expect 0 - "$AUGUR" record -o "$D/r$rec.augur" -- "$mpiexec" -n 2 "$app" -n 40 -k 4 -w 20 -o $once
  expect 0 0 "$AUGUR" phases "$D/r$rec.augur" --json
  cp "$D/out" "$D/r$rec.json"
  rec=2
done
# The one-off barrier: weight 1, 1 call per rank, neither the first nor the
# last phase; the threshold between its two shares.
share=$("$PY" - "$D/r1.json" "$D/r2.json" <<'PYEOF'
import json, sys
s = []
for f in sys.argv[1:3]:
    x = [p for p in json.load(open(f))["phases"]
         if p["weight"] == 1 and p["first"]["call"] == "MPI_Barrier"]
    assert len(x) == 1, "no single one-off barrier phase in %s" % f
    s.append(x[0]["share"])
assert s[0] != s[1], "the same share twice: %r" % s
print("%.9f" % ((s[0] * s[1]) ** 0.5))
PYEOF
) || fail "the one-off phase's share: $share"
echo "threshold between the two recordings' shares: $share"
for rec in 1 2; do
  expect 0 0 "$AUGUR" phases "$D/r$rec.augur" --json --min-share "$share"
  cp "$D/out" "$D/t$rec.json"
  expect 0 - "$AUGUR" signature "$D/r$rec.augur" -o "$D/r$rec.sig" --min-share "$share"
done
"$PY" - "$D/t1.json" "$D/t2.json" <<'PYEOF' || fail "phase tables at the threshold"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
def table(d):
    return [(p["id"], p["weight"], p["events"], p["relevant"]) for p in d["phases"]]
assert table(a) == table(b), "two recordings, two tables:\n%s\n%s" % (table(a), table(b))
lo = [[p for p in d["phases"] if p["weight"] == 1 and p["first"]["call"] == "MPI_Barrier"][0]
      for d in (a, b)]
# Below the threshold in one recording, kept there at no cost.
assert all(p["relevant"] for p in lo), lo
assert [p["kept_free"] for p in lo if p["share"] < a["options"]["min_share"]] == [True], lo
print("same tables; the one-off barrier (%.3f%%, %.3f%%) kept in both" %
      tuple(100 * p["share"] for p in lo))
PYEOF
"$PY" "$sigcmp" "$D/r1.sig" "$D/r2.sig" >"$D/sigcmp" 2>&1 || fail "two signatures: $(cat "$D/sigcmp")"
cat "$D/sigcmp"
finish
