# `augur diagnose` on the command line: usage errors, a missing and a damaged
# trace, and a real 4-rank MPICH run of pg_late_barrier (rank 3 late at every
# barrier): text, JSON with the documented keys, and the HTML page.
# Environment: AUGUR, MPIEXEC (mpiexec.mpich), APPS (build/apps/mpich), PY, CHECK_PAGE.
. "$(dirname "$0")/../lib.sh"

expect 2 1 "$AUGUR" diagnose
expect 2 1 "$AUGUR" diagnose "$D/x.augur" --min-share 1.5
expect 2 1 "$AUGUR" diagnose "$D/x.augur" --min-share abc
expect 2 1 "$AUGUR" diagnose "$D/x.augur" --eager-limit -3
expect 2 1 "$AUGUR" diagnose "$D/x.augur" --io-bandwidth 0
contains "$D/err" "--io-bandwidth"
expect 2 1 "$AUGUR" diagnose "$D/x.augur" --io-bandwidth fast
expect 2 1 "$AUGUR" diagnose "$D/x.augur" --bogus
expect 2 1 "$AUGUR" diagnose "$D/x.augur" --html
expect 1 1 "$AUGUR" diagnose "$D/x.augur"
contains "$D/err" "no such trace"
expect 0 0 "$AUGUR" diagnose --help
contains "$D/out" "usage: augur diagnose"

T="$D/lb.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$MPIEXEC" -n 4 "$APPS/pg_late_barrier" -n 2 -d 100000
[ -d "$T" ] || { fail "no trace recorded"; finish; }

expect 0 0 "$AUGUR" diagnose "$T"
contains "$D/out" "wait_at_barrier"
contains "$D/out" "pg_late_barrier.c"
contains "$D/out" "rank 3"
contains "$D/out" "Critical path"

expect 0 0 "$AUGUR" diagnose "$T" --json --html "$D/lb.html"
cp "$D/out" "$D/lb.json"
"$PY" - "$D/lb.json" <<'PY' || fail "JSON of the late barrier run"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("total_seconds", "process_seconds", "events", "findings", "wait_states",
          "critical_path", "intervals", "notes"):
    assert k in d, k
f = d["findings"][0]
for k in ("pattern", "seconds", "share", "ranks", "callsites", "cause", "recommendation",
          "saving_seconds"):
    assert k in f, k
assert f["pattern"] == "wait_at_barrier", f["pattern"]
assert f["ranks"] == [0, 1, 2], f["ranks"]
assert f["callsites"][0]["file"].endswith("pg_late_barrier.c"), f["callsites"]
# 2 iterations x 3 ranks x 100 ms injected
assert 0.5 < f["seconds"] < 0.8, f["seconds"]
secs = [x["seconds"] for x in d["findings"]]
assert secs == sorted(secs, reverse=True) or d["findings"][0]["pattern"] != "late_arrival"
# no payload fingerprints and no counters: said, not hidden
assert any("payload" in n for n in d["notes"]), d["notes"]
# io_collective's reference bandwidth: the default, said as such
assert d["io"] == {"bandwidth_bytes_per_s": 256 * 1024 * 1024, "bandwidth_source": "default"}, d["io"]
PY
expect 0 0 "$AUGUR" diagnose "$T" --json --io-bandwidth 40.5
"$PY" -c "import json,sys; io = json.load(open(sys.argv[1]))['io']; assert io == {'bandwidth_bytes_per_s': 40.5e6, 'bandwidth_source': 'given'}, io" "$D/out" ||
  fail "--io-bandwidth 40.5 not in the JSON: $(head -c 300 "$D/out")"
n=$("$PY" -c "import json,sys; print(len(json.load(open(sys.argv[1]))['findings']))" "$D/lb.json")
"$PY" "$CHECK_PAGE" page "$D/lb.html" "$n" || fail "HTML page of the late barrier run"

# A damaged trace: a clear error, nothing else.
cp -r "$T" "$D/bad.augur"
f="$D/bad.augur/rank-00002.evt"
size=$(wc -c <"$f")
head -c $((size - 7)) "$f" >"$f.tmp" && mv "$f.tmp" "$f"
expect 1 1 "$AUGUR" diagnose "$D/bad.augur"
contains "$D/err" "damaged"
contains "$D/err" "rank-00002"
finish
