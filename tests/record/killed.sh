#!/bin/sh
# A recorded run killed in the middle keeps its records, and every analysis
# says the trace is incomplete (text and JSON) and exits 0.
#
#   killed.sh MPIEXEC LIB PROG AUGUR OUT SIGNAL
#
# SIGNAL TERM: the recorder's handler writes the buffered records.
# SIGNAL KILL: no handler runs; the 1 s age bound (AUGUR_FLUSH_SECONDS) must
# have written the records older than a second, so a kill 2.5 s in leaves
# events on disk although no buffer was ever full.
set -u
mpiexec=$1 lib=$2 prog=$3 augur=$4 out=$5 sig=$6
. "$(dirname "$0")/lib.sh"
trace="$out/killed-$sig.augur" pids="$out/pids-$sig"
rm -rf "$trace" "$pids"
mkdir -p "$pids"
AUGUR_FLUSH_SECONDS=1 AUGUR_COUNTERS=none AUGUR_TEST_PIDDIR="$pids" LD_PRELOAD="$lib" \
  AUGUR_TRACE_DIR="$trace" timeout 90 "$mpiexec" -n 2 "$prog" >"$trace.out" 2>&1 &
job=$!
i=0
while [ ! -f "$pids/pid.0" ] || [ ! -f "$pids/pid.1" ]; do
  i=$((i + 1))
  if [ $i -gt 600 ]; then
    echo "FAIL: the program did not start in 60 s"; cat "$trace.out"; kill "$job"; exit 1
  fi
  sleep 0.1
done
[ "$sig" = KILL ] && sleep 2.5
kill -s "$sig" "$(cat "$pids/pid.0")" "$(cat "$pids/pid.1")"
wait "$job"

# Events on disk for both ranks.
"$augur" report "$trace" --json >"$out/report-$sig.json" 2>"$out/report-$sig.err"
rc=$?
[ $rc -eq 0 ] || fail "report exited $rc: $(cat "$out/report-$sig.err")"
python3 - "$out/report-$sig.json" <<'PY' || fail "report JSON of the killed run"
import json, sys
r = json.load(open(sys.argv[1]))
ev = [x["events"] for x in r["ranks"]]
assert all(e > 10 for e in ev), "events per rank %s: the buffered records were lost" % ev
assert r["incomplete"].startswith("trace incomplete: "), r.get("incomplete")
assert "MPI_Finalize" in r["incomplete"], r["incomplete"]
assert r["complete"] is False
PY

# Its blocks as the program wrote them: raw (compression is at close).
python3 "$(dirname "$0")/codecs.py" "$trace" raw || fail "the killed run's blocks"

# Every analysis: the statement in text and JSON, exit 0.
for a in report diagnose phases simulate; do
  "$augur" $a "$trace" >"$out/$a-$sig.txt" 2>"$out/$a-$sig.err"
  rc=$?
  [ $rc -eq 0 ] || fail "$a exited $rc: $(cat "$out/$a-$sig.err")"
  head -1 "$out/$a-$sig.txt" | grep -q "^trace incomplete: rank [01] stops at [0-9.]* s (no MPI_Finalize)" ||
    grep -q "^trace incomplete: 2 of 2 ranks stop before MPI_Finalize, rank [01] first at" \
      "$out/$a-$sig.txt" || fail "$a text does not start with the statement: $(head -3 "$out/$a-$sig.txt")"
  "$augur" $a "$trace" --json >"$out/$a-$sig.json" 2>"$out/$a-$sig.jerr"
  rc=$?
  [ $rc -eq 0 ] || fail "$a --json exited $rc: $(cat "$out/$a-$sig.jerr")"
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["incomplete"].startswith("trace incomplete: "), d.get("incomplete")
' "$out/$a-$sig.json" || fail "$a --json has no incomplete statement"
done
"$augur" diagnose "$trace" --html "$out/diagnose-$sig.html" >/dev/null 2>&1 ||
  fail "diagnose --html failed"
grep -q '<p id="incomplete"><strong>trace incomplete: ' "$out/diagnose-$sig.html" ||
  fail "diagnose --html does not say the trace is incomplete"
"$augur" signature "$trace" -o "$out/sig-$sig.txt" >"$out/signature-$sig.txt" 2>&1
grep -q "^trace incomplete: " "$out/signature-$sig.txt" ||
  fail "signature does not say the trace is incomplete: $(cat "$out/signature-$sig.txt")"
[ $fails -eq 0 ] || exit 1
echo "killed by SIG$sig: ok"
