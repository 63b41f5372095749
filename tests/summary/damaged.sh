# `augur summary` on traces it cannot fully use: an interrupted run (rank 1
# crashes: no MPI_Finalize) and a damaged one (a rank file cut short). The
# text, the JSON and the page say so; what could be computed is still shown;
# a damaged trace exits 1 with one line on stderr, as `augur report` does.
# Environment: AUGUR, MPIEXEC, APPS, PY, CHECK.
. "$(dirname "$0")/../lib.sh"
export AUGUR_COUNTERS=none

# Interrupted: rank 1 segfaults after 50 messages (apps/cr_crash.c).
C="$D/crash.augur"
timeout 100 "$AUGUR" record -o "$C" -- "$MPIEXEC" -n 2 "$APPS/cr_crash" -n 50 -w 50 -f 1 \
  >"$D/rec.out" 2>&1
[ -d "$C" ] || { fail "no trace recorded: $(tail -3 "$D/rec.out")"; finish; }
expect 0 0 "$AUGUR" summary "$C" -o "$D/crash.html"
head -2 "$D/out" | grep -q "trace incomplete" || fail "text does not start with the statement: $(head -3 "$D/out")"
contains "$D/crash.html" 'id="incomplete"'
contains "$D/crash.html" "trace incomplete"
expect 0 0 "$AUGUR" summary "$C" --json
"$PY" - "$D/out" <<'PY' || fail "JSON of the interrupted run"
import json, sys
s = json.load(open(sys.argv[1]))
assert "trace incomplete" in s["incomplete"], s.get("incomplete")
assert [k["rank"] for k in s["kept"]] == [0, 1], s["kept"]
assert s["run"]["complete"] is False, s["run"]
PY

# Damaged: rank 2's file cut short by 7 bytes.
T="$D/lb.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$MPIEXEC" -n 4 "$APPS/pg_late_barrier" -n 2 -d 20000
[ -d "$T" ] || { fail "no trace recorded"; finish; }
cp -r "$T" "$D/bad.augur"
f="$D/bad.augur/rank-00002.evt"
size=$(wc -c <"$f")
head -c $((size - 7)) "$f" >"$f.tmp" && mv "$f.tmp" "$f"
expect 1 1 "$AUGUR" summary "$D/bad.augur" -o "$D/bad.html"
contains "$D/err" "damaged"
contains "$D/out" "damaged: "
contains "$D/out" "Efficiencies (POP)"
contains "$D/bad.html" 'id="damaged"'
contains "$D/bad.html" "rank-00002"
for s in s-run s-efficiencies s-findings s-timeline s-phases s-predictions; do
  contains "$D/bad.html" "<section class=\"part\" id=\"$s\">"
done
expect 1 1 "$AUGUR" summary "$D/bad.augur" --json
"$PY" - "$D/out" <<'PY' || fail "JSON of the damaged trace"
import json, sys
s = json.load(open(sys.argv[1]))
assert "rank-00002" in s["run"]["error"], s["run"]
assert any("damaged" in n for n in s["efficiencies"]["notes"]), s["efficiencies"]["notes"]
for k in ("findings", "phases"):
    v = s[k]
    assert isinstance(v, list) or "error" in v or "phases" in v, (k, v)
PY
finish
