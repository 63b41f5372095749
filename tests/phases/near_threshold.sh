# Issue 21: two recordings of the same run give the same signature, also for
# a phase whose share of the run lies at the relevance threshold (NPB MG B:
# 0.96 % of one recording, 1.14 % of the other, so one signature had it and
# the other did not). apps/ph_periodic -e EXTRA sets the share of its extra
# exchange (every K-th iteration). It is recorded twice; the relevance
# threshold is put between the phase's two measured shares, so that a rule on
# the share alone keeps it in one recording and drops it in the other. Both
# `augur phases` tables (weights, relevance) and both signatures
# (bench/npb/sigcmp.py: ids, weights, flags, calls) must be the same, the
# extra exchange relevant in both, by loop (it repeats inside the iteration's
# loop: docs/phases.md, "Relevance"). Weight-1 phases (set-up, teardown) keep
# the seed's rule and are left out of the comparison.
# usage: near_threshold.sh MPIEXEC APP SIGCMP
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
app=$2
sigcmp=$3
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$app" ]; then
  echo "skipped: MPICH recorder or ph_periodic not built"
  exit 77
fi

for rec in 1 2; do
  expect 0 - "$AUGUR" record -o "$D/r$rec.augur" -- "$mpiexec" -n 2 "$app" -n 40 -k 4 -w 20 -e 0
  expect 0 0 "$AUGUR" phases "$D/r$rec.augur" --json
  cp "$D/out" "$D/r$rec.json"
done
# The extra exchange: weight 40 / 4, 4 calls per rank; the threshold between its shares.
share=$("$PY" - "$D/r1.json" "$D/r2.json" <<'PYEOF'
import json, sys
s = []
for f in sys.argv[1:3]:
    x = [p for p in json.load(open(f))["phases"] if p["weight"] == 10 and p["events"] == 8]
    assert len(x) == 1, "no single extra-exchange phase in %s" % f
    s.append(x[0]["share"])
assert s[0] != s[1], "the same share twice: %r" % s
print("%.9f" % ((s[0] * s[1]) ** 0.5))
PYEOF
) || fail "the extra exchange's share: $share"
echo "threshold between the two recordings' shares: $share"
for rec in 1 2; do
  expect 0 0 "$AUGUR" phases "$D/r$rec.augur" --json --min-share "$share"
  cp "$D/out" "$D/t$rec.json"
  expect 0 - "$AUGUR" signature "$D/r$rec.augur" -o "$D/r$rec.sig" --min-share "$share"
done
"$PY" - "$D/t1.json" "$D/t2.json" <<'PYEOF' || fail "phase tables at the threshold"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
# Weight-1 phases (set-up, teardown) keep the seed's rule on their share:
# their relevance may differ, the repeating phases' may not.
def table(d):
    return [(p["id"], p["weight"], p["events"], p["relevant"] or p["weight"] == 1)
            for p in d["phases"]]
assert table(a) == table(b), "two recordings, two tables:\n%s\n%s" % (table(a), table(b))
it = [p for p in a["phases"] if p["weight"] == 40]
x = [p for p in a["phases"] if p["weight"] == 10 and p["events"] == 8]
assert len(it) == 1 and len(x) == 1, table(a)
# Below the threshold in one recording, relevant there by loop.
lo = [[p for p in d["phases"] if p["id"] == x[0]["id"]][0] for d in (a, b)]
assert x[0]["relevant"] and [p["loop_of"] for p in lo if p["share"] < a["options"]["min_share"]] \
    == [it[0]["id"]], lo
print("same tables; the extra exchange (%.3f%%, %.3f%%) relevant in the iteration's loop" %
      tuple(100 * [p for p in d["phases"] if p["id"] == x[0]["id"]][0]["share"] for d in (a, b)))
PYEOF
# The signatures' repeating phases (bench/npb/sigcmp.py on copies without
# the weight-1 phases).
for rec in 1 2; do
  awk 'BEGIN { keep = 1 } $1 == "phase" { keep = $3 != 1 } $1 == "end" { keep = 1 } keep' \
    "$D/r$rec.sig" >"$D/rep$rec.sig"
done
"$PY" "$sigcmp" "$D/rep1.sig" "$D/rep2.sig" >"$D/sigcmp" 2>&1 || fail "two signatures: $(cat "$D/sigcmp")"
cat "$D/sigcmp"
finish
