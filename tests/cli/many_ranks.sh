# Output for people stays readable at many ranks: `simulate` and `info` show the
# ranks that stand out, not a line per rank (65,536 at scale), and say that --json
# has them all (up to 16 ranks every rank has its row, as before); the timelines of
# `diagnose --html` draws the 64 ranks around the worst instance and `timeline` all
# ranks in at most 64 rows of blocks, and each says so (a row per rank of 4,096 made
# a 686 MB page).
. "$(dirname "$0")/lib.sh"
T="$D/t40.augur"
"$DXGEN" "$T" --ranks 40 --events 40000 --seed 3 >/dev/null 2>&1 || {
  fail "augur-bench-dx-gen failed"
  finish
}

# simulate: the 16 ranks that finish last (then by rank), and each column's
# minimum, mean and maximum over all 40, as the JSON has them.
expect 0 - "$AUGUR" simulate "$T" --json
cp "$D/out" "$D/sim.json"
expect 0 - "$AUGUR" simulate "$T"
cp "$D/out" "$D/sim.txt"
contains "$D/sim.txt" "(16 ranks that finish last shown of 40; --json has all)"
python3 - "$D/sim.json" "$D/sim.txt" <<'PY' || fail "simulate's rows are not the ranks that finish last"
import json, sys
ranks = json.load(open(sys.argv[1]))["ranks"]
lines = open(sys.argv[2]).read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:2] == ["rank", "compute"])
rows = []
for l in lines[head + 1:]:
    f = l.split()
    if not f or not f[0].isdigit():
        break
    rows.append(f)
# 16 distinct ranks, latest finish first, none left out that finishes later
# (the JSON's 9 digits: ranks equal there may come in either order)
shown = [int(f[0]) for f in rows]
assert len(shown) == 16 and len(set(shown)) == 16, shown
fin = [ranks[k]["finish"] for k in shown]
assert fin == sorted(fin, reverse=True), fin
assert min(fin) >= max(r["finish"] for r in ranks if r["rank"] not in shown), fin
cols = ["compute", "send_wait", "recv_wait", "sync_wait", "mpi", "finish"]
for f in rows:
    r = ranks[int(f[0])]
    assert f[1:] == ["%.6f" % r[c] for c in cols], (f, r)
stats = {l.split()[0]: l.split()[1:] for l in lines if l.split()[:1] in (["min"], ["mean"], ["max"])}
for name, fn in (("min", min), ("max", max), ("mean", lambda v: sum(v) / len(v))):
    got = [float(x) for x in stats[name]]
    exp = [fn([r[c] for r in ranks]) for c in cols]
    assert all(abs(g - e) <= 1.5e-6 for g, e in zip(got, exp)), (name, got, exp)
PY

# At 16 ranks: every rank, no summary.
"$DXGEN" "$D/t16.augur" --ranks 16 --events 16000 --seed 3 >/dev/null 2>&1 || fail "dx-gen 16"
expect 0 - "$AUGUR" simulate "$D/t16.augur"
n=$(awk '/rank +compute/{on=1; next} on && $1 ~ /^[0-9]+$/ {n++} on && NF == 0 {exit} END {print n + 0}' "$D/out")
[ "$n" = 16 ] || fail "simulate at 16 ranks shows $n rank rows, want 16"
if grep -q -E "^ *(min|mean|max) " "$D/out"; then fail "simulate at 16 ranks has summary rows"; fi
if grep -q "json has all" "$D/out"; then fail "simulate at 16 ranks says rows are left out"; fi

# info: rank 7's file cut short (DAMAGED) among 40; its row, the extremes', in rank
# order, the statuses counted over all 40.
cp -r "$T" "$D/cut.augur"
size=$(wc -c <"$T/rank-00007.evt")
head -c $((size - 7)) "$T/rank-00007.evt" >"$D/cut.augur/rank-00007.evt"
expect 1 - "$AUGUR" info "$D/cut.augur" --json
cp "$D/out" "$D/info.json"
expect 1 - "$AUGUR" info "$D/cut.augur"
cp "$D/out" "$D/info.txt"
contains "$D/info.txt" "40 ranks: 39 complete, 1 DAMAGED"
contains "$D/info.txt" "(rows: the ranks not complete, the ranks with the fewest and the most events"
python3 - "$D/info.json" "$D/info.txt" <<'PY' || fail "info's rows are not the ranks that stand out"
import json, sys
ranks = json.load(open(sys.argv[1]))["ranks"]
assert len(ranks) == 40
lines = open(sys.argv[2]).read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:2] == ["rank", "host"])
shown = []
for l in lines[head + 1:]:
    f = l.split()
    if not f[0].isdigit():
        assert f[0] == "total", l
        assert int(f[1]) == sum(r["events"] for r in ranks), l
        break
    shown.append(int(f[0]))
assert shown == sorted(set(shown)), shown
odd = {r["rank"] for r in ranks if r["status"] != "complete"}
assert odd == {7}, odd
ev = [r["events"] for r in ranks]
fewest = ev.index(min(ev))
most = ev.index(max(ev))
last = max(range(40), key=lambda i: (ranks[i]["last_s"], -i))
assert set(shown) == odd | {fewest, most, last}, (shown, odd, fewest, most, last)
PY
# diagnose --html at 100 ranks: 64 rows around the top finding's worst instance,
# and the page says which.
"$DXGEN" "$D/t100.augur" --ranks 100 --events 50000 --seed 5 >/dev/null 2>&1 || fail "dx-gen 100"
expect 0 - "$AUGUR" diagnose "$D/t100.augur" --json
cp "$D/out" "$D/dx.json"
expect 0 - "$AUGUR" diagnose "$D/t100.augur" --html "$D/dx.html"
python3 - "$D/dx.json" "$D/dx.html" <<'PY' || fail "diagnose --html's timeline window"
import json, re, sys
d = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()
rows = [int(x) for x in re.findall(r'<g class="row" id="rank-(\d+)"', page)]
assert len(rows) == 64 and rows == list(range(rows[0], rows[0] + 64)), rows
lo, hi = rows[0], rows[-1]
assert "Ranks %d-%d of 100: those around the worst instance" % (lo, hi) in page
assert "ranks %d-%d of 100" % (lo, hi) in page  # the picture's own note
worst = next(f["worst"][0]["rank"] for f in d["findings"] if f.get("worst"))
assert lo == min(max(worst - 32, 0), 100 - 64), (worst, lo, hi)  # centred on it
PY
# timeline: all 100 ranks, 2 a row (50 rows), said on stderr; each row's time per
# state (the HTML table) the sum of its two ranks' (--group 1: a row per rank).
expect 0 1 "$AUGUR" timeline "$D/t100.augur" -o "$D/tl.html"
contains "$D/err" "100 ranks drawn 2 a row"
expect 0 0 "$AUGUR" timeline "$D/t100.augur" -o "$D/all.html" --group 1
python3 - "$D/tl.html" "$D/all.html" <<'PY' || fail "timeline's rank groups"
import re, sys
g, one = open(sys.argv[1]).read(), open(sys.argv[2]).read()
ids = re.findall(r'<g class="row" id="(ranks-\d+-\d+)"', g)
assert ids == ["ranks-%d-%d" % (2 * i, 2 * i + 1) for i in range(50)], ids[:3]
assert len(re.findall(r'<g class="row" id="rank-\d+"', one)) == 100
assert "a row per 2 ranks, their mean" in g
unit = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
def table(page):
    rows = {}
    for label, cells in re.findall(r'<tr class="rank-row"><td>([^<]*)</td>(.*?)</tr>', page):
        vals = re.findall(r"<td>([^<]*)</td>", cells)
        rows[label] = [float(v.split()[0]) * unit[v.split()[1]] if " " in v else float(v.rstrip("%") or 0)
                       for v in vals if not v.endswith("%")]
    return rows
tg, t1 = table(g), table(one)
assert len(tg) == 50 and len(t1) == 100, (len(tg), len(t1))
for i in range(50):
    a, b, row = t1[str(2 * i)], t1[str(2 * i + 1)], tg["%d-%d" % (2 * i, 2 * i + 1)]
    for x, y, z in zip(a, b, row):
        assert abs(x + y - z) <= 0.01 * z + 1e-8, (i, a, b, row)
PY
finish
