# `augur summary` on a real 4-rank MPICH run of pg_blocked_sender (a demo
# program: a chain of blocked receivers, so there are findings, and ten
# iterations, so there are phases), then of pas2p_solver (the demo's
# iterative solver): usage errors in one line; the text, the
# JSON and the page have every section, and their numbers are the ones
# `augur report/diagnose/phases/simulate --json` give; the page renders in
# headless Chromium (not blank, the same DOM); a signature's phases.
# Environment: AUGUR, MPIEXEC, APPS, PY, CHECK, CHECK_PAGE, CHECK_PNG.
. "$(dirname "$0")/../lib.sh"

# Bad options and inputs: one clear line each.
expect 2 1 "$AUGUR" summary
expect 2 1 "$AUGUR" summary "$D/x.augur" --bogus
expect 2 1 "$AUGUR" summary "$D/x.augur" --top 0
expect 2 1 "$AUGUR" summary "$D/x.augur" -o
expect 2 1 "$AUGUR" summary "$D/x.augur" "$D/y.augur"
expect 1 1 "$AUGUR" summary "$D/x.augur"
contains "$D/err" "no such trace"
expect 1 1 "$AUGUR" summary "$D/x.augur" --machine "$D/none.ini"
expect 1 1 "$AUGUR" summary "$D/x.augur" --signature "$D/none.sig"
expect 0 0 "$AUGUR" summary --help
contains "$D/out" "usage: augur summary"

T="$D/chain.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$MPIEXEC" -n 4 "$APPS/pg_blocked_sender" -n 10 -d 20000
[ -d "$T" ] || { fail "no trace recorded"; finish; }

# A machine model (docs/simulate.md) and a signature of the same run.
cat >"$D/m.ini" <<'INI'
[machine]
name = summary-test
[network]
latency = 5e-6
bandwidth = 1G
INI
expect 0 - "$AUGUR" signature "$T" -o "$D/chain.sig"

# The individual commands' JSON.
"$AUGUR" report "$T" --json >"$D/report.json" 2>"$D/report.err" || fail "report: $(cat "$D/report.err")"
"$AUGUR" diagnose "$T" --json >"$D/diagnose.json" 2>"$D/diagnose.err" || fail "diagnose"
"$AUGUR" phases "$T" --json >"$D/phases.json" 2>"$D/phases.err" || fail "phases"
"$AUGUR" simulate "$T" --machine "$D/m.ini" --json >"$D/simulate.json" 2>"$D/sim.err" ||
  fail "simulate"

# JSON: every section, the commands' numbers.
expect 0 0 "$AUGUR" summary "$T" --json --machine "$D/m.ini" --signature "$D/chain.sig"
cp "$D/out" "$D/summary.json"
"$PY" "$CHECK" json "$D/summary.json" "$D/report.json" "$D/diagnose.json" "$D/phases.json" \
  "$D/simulate.json" || fail "summary JSON against the commands' JSON"
"$PY" - "$D/summary.json" <<'PY' || fail "summary JSON: findings, signature"
import json, sys
s = json.load(open(sys.argv[1]))
assert "blocked_sender" in [f["pattern"] for f in s["findings"]], s["findings"]
sig = s["predictions"]["signature"]
assert sig["phases"] and all(p["weight"] >= 1 for p in sig["phases"]), sig
assert "incomplete" not in s
PY

# Text: every section in order, each naming its command, the same numbers.
expect 0 0 "$AUGUR" summary "$T" --machine "$D/m.ini" --signature "$D/chain.sig"
cp "$D/out" "$D/summary.txt"
"$PY" "$CHECK" text "$D/summary.txt" "$D/summary.json" || fail "summary text"
contains "$D/summary.txt" "Signature $D/chain.sig"
contains "$D/summary.txt" "Prediction on machine summary-test"
# --top: fewer findings, the same first ones
expect 0 0 "$AUGUR" summary "$T" --json --top 1
"$PY" -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a["findings"] == b["findings"][:1], a["findings"]' \
  "$D/out" "$D/summary.json" || fail "--top 1"

# The page: the text too, and the page with every section and the same numbers.
expect 0 0 "$AUGUR" summary "$T" -o "$D/page.html" --machine "$D/m.ini" --signature "$D/chain.sig"
contains "$D/out" "Top findings"
[ -s "$D/page.html" ] || { fail "no page written"; finish; }
"$PY" "$CHECK" page "$D/page.html" "$D/summary.json" || fail "the page as written"
n=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$D/summary.json")
"$PY" "$CHECK_PAGE" figures "$D/page.html" efficiencies \
  parallel="$("$PY" -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["efficiencies"]["parallel"]))' "$D/report.json")" ||
  fail "parallel efficiency on the page"
grep -c 'class="sig-phase"' "$D/page.html" >/dev/null || fail "no signature phases on the page"

# Headless Chromium: not blank, and the DOM it builds passes the same checks.
if [ -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  need_chromium
  chrome shot --screenshot="$D/page.png" --window-size=1600,1200 "file://$D/page.html"
  chrome dom --dump-dom "file://$D/page.html"
  wait
  ok shot && { "$PY" "$CHECK_PNG" png "$D/page.png" 1600 1200 8 || fail "screenshot"; }
  ok dom && { "$PY" "$CHECK" page "$D/dom.out" "$D/summary.json" || fail "DOM of the page"; }
  rm -rf "$D"/profile-*
else
  echo "no chromium: the page is checked as written only"
fi
echo "findings on the page: $n"

# The demo's other program, an iterative solver (a phase of weight -n): the
# same checks of the JSON and the page against the commands' JSON.
S="$D/solver.augur"
expect 0 - "$AUGUR" record -o "$S" -- "$MPIEXEC" -n 4 "$APPS/pas2p_solver" -n 10 -w 1
[ -d "$S" ] || { fail "no solver trace recorded"; finish; }
for c in report diagnose phases; do
  "$AUGUR" $c "$S" --json >"$D/s-$c.json" 2>"$D/s-$c.err" || fail "$c of the solver trace"
done
expect 0 0 "$AUGUR" summary "$S" --json
cp "$D/out" "$D/s-summary.json"
"$PY" "$CHECK" json "$D/s-summary.json" "$D/s-report.json" "$D/s-diagnose.json" \
  "$D/s-phases.json" || fail "solver: summary JSON against the commands' JSON"
"$PY" -c 'import json,sys; p=json.load(open(sys.argv[1]))["phases"]["phases"]; assert any(q["relevant"] and q["weight"] >= 10 for q in p), p' \
  "$D/s-summary.json" || fail "solver: no relevant phase repeated 10 times"
expect 0 0 "$AUGUR" summary "$S" -o "$D/solver.html"
"$PY" "$CHECK" text "$D/out" "$D/s-summary.json" || fail "solver: summary text"
"$PY" "$CHECK" page "$D/solver.html" "$D/s-summary.json" || fail "solver: the page"
finish
