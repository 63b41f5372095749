# augur report on a hand-built trace with known figures.
. "$(dirname "$0")/lib.sh"
T="$D/known.augur"
"$GEN" "$T" || { fail "gen_trace failed"; finish; }

expect 0 0 "$AUGUR" report "$T" --json
cp "$D/out" "$D/report.json"
"$CHECK" "$D/report.json" || fail "report --json figures differ (see above)"

# Same figures through --top 1: one call, the most expensive one.
expect 0 0 "$AUGUR" report --top 1 --json "$T"
python3 - "$D/out" <<'PY' || fail "--top 1 JSON"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["calls"]) == 1, r["calls"]
assert r["calls"][0]["call"] == "MPI_Recv"
assert len(r["calls"][0]["sites"]) == 1
assert r["calls_total"] == 6
PY

# Text: every section, the top call with its call site, nothing on stderr.
expect 0 0 "$AUGUR" report "$T"
cp "$D/out" "$D/report.txt"
for s in "wall time" "Top MPI calls by time" "Time per rank" "Load balance" "Collectives" \
  "message sizes" "Communication matrix" "MPI_Recv" "augur-test-app+0x100" "(rank 2)"; do
  contains "$D/report.txt" "$s"
done
# Ranked by time: MPI_Recv is the first call row.
first=$(awk '/Top MPI calls/{getline; getline; print $1; exit}' "$D/report.txt")
[ "$first" = "MPI_Recv" ] || fail "first call row is '$first', want MPI_Recv"
# Deterministic: same input, same output.
"$AUGUR" report "$T" --json >"$D/again.json" 2>/dev/null
cmp -s "$D/report.json" "$D/again.json" || fail "two runs of report --json differ"

# One name for an unresolved call site everywhere (module+0xOFFSET), and
# module and offset in every call-site JSON object.
for a in diagnose phases; do
  expect 0 0 "$AUGUR" $a "$T"
  contains "$D/out" "augur-test-app+0x100"
  if grep -q -E "(call )?site [0-9]" "$D/out"; then fail "$a names a call site by its id"; fi
done
"$AUGUR" report "$T" --json >"$D/r.json" 2>/dev/null
"$AUGUR" diagnose "$T" --json >"$D/d.json" 2>/dev/null
"$AUGUR" phases "$T" --json >"$D/p.json" 2>/dev/null
python3 - "$D/r.json" "$D/d.json" "$D/p.json" <<'PY' || fail "call-site JSON objects lack module/offset"
import json, sys
r, d, p = (json.load(open(f)) for f in sys.argv[1:4])
sites = [s for c in r["calls"] for s in c["sites"]]
dsites = [c for f in d["findings"] for c in f["callsites"]]
dsites += [c for c in d["critical_path"]["callsites"] if c["id"]]
sites += dsites
sites += [ph[k] for ph in p["phases"] for k in ("first", "last") if ph[k]["callsite"]]
assert len(sites) > 5, len(sites)
for s in sites:
    assert s["module"] == "/nonexistent/augur-test-app", s
    assert s["offset"] in (0x100, 0x200, 0x300), s
for s in dsites:
    assert s["where"] == "augur-test-app+0x%x" % s["offset"], s
PY

# Threads and persistent requests: overlapping calls add no compute; each
# completion of a persistent send is one message, SEND_INIT itself is none.
"$GEN" "$D/threads.augur" threads || fail "gen_trace threads failed"
expect 0 0 "$AUGUR" report "$D/threads.augur" --json
python3 - "$D/out" <<'PY' || fail "threads/persistent figures"
import json, sys
r = json.load(open(sys.argv[1]))
ranks = r["ranks"]
got = [(x["compute_ns"], x["mpi_ns"], x["window_ns"]) for x in ranks]
assert got == [(1100, 1300, 2000), (600, 1400, 2000)], got
ms = r["message_sizes"]
assert ms["messages"] == 3 and ms["bytes"] == 520, ms
b = {x["lo"]: (x["count"], x["bytes"]) for x in ms["buckets"]}
assert b == {8: (1, 8), 256: (2, 512)}, b
assert r["matrix"] == [{"from": 0, "to": 1, "bytes": 520, "messages": 3}], r["matrix"]
calls = {c["call"]: c for c in r["calls"]}
assert calls["MPI_Start"]["count"] == 2 and calls["MPI_Wait"]["count"] == 2, calls.keys()
PY
expect 0 0 "$AUGUR" dump "$D/threads.augur" --rank 0
n=$(grep -c -E ' 0 +1  MPI_Send ' "$D/out")
[ "$n" -eq 1 ] || fail "dump shows $n thread-1 MPI_Send events of rank 0, want 1"
finish
