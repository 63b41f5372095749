# Thread rows of a hand-built hybrid trace (2 ranks, rank 0 with two threads
# in one parallel region; tests/timeline/test_timeline_omp.c writes it): the
# timeline SVG and the Chrome, Paraver and OTF2 exports hold every thread
# and its OpenMP states with their exact times (check_omp.py); the OTF2
# archive reads back with otf2-print and `augur import` keeps its MPI
# records. The diagnosis page (an MPI analysis) is the same with and
# without the OpenMP records. MKHYBRID: the test program that writes the
# trace.
. "$(dirname "$0")/../lib.sh"
HERE="$(dirname "$0")"
T="$D/h.augur"
"$MKHYBRID" --write "$T" || { fail "writing the hybrid trace"; finish; }
expect 0 0 "$AUGUR" timeline "$T" -o "$D/h.svg" --width 7500
"$PY" "$HERE/check_omp.py" svg "$D/h.svg" || fail "timeline thread rows"
expect 0 0 "$AUGUR" timeline "$T" -o "$D/h.html"
contains "$D/h.html" '<table id="threads">'
expect 0 - "$AUGUR" export "$T" --format chrome -o "$D/h.json"
grep -q "unpaired" "$D/out" && fail "complete trace: an unpaired warning"
"$PY" "$HERE/check_omp.py" chrome "$D/h.json" || fail "chrome thread states"
expect 0 - "$AUGUR" export "$T" --format paraver -o "$D/h"
"$PY" "$HERE/check_omp.py" paraver "$D/h" || fail "paraver thread states"
if command -v otf2-print >/dev/null 2>&1; then
  expect 0 - "$AUGUR" export "$T" --format otf2 -o "$D/h.otf2"
  otf2-print "$D/h.otf2/traces.otf2" >"$D/print.txt" 2>"$D/print.err" || fail "otf2-print: $(cat "$D/print.err")"
  "$PY" "$HERE/check_omp.py" otf2 "$D/print.txt" || fail "otf2 OpenMP records"
  expect 0 - "$AUGUR" import "$D/h.otf2" -o "$D/back.augur"
  "$AUGUR" dump "$T" --kinds mpi >"$D/a.dump" && "$AUGUR" dump "$D/back.augur" >"$D/b.dump" &&
    cmp -s "$D/a.dump" "$D/b.dump" || fail "import of the OTF2 export: MPI records differ"
else
  echo "otf2-print not installed: OTF2 part skipped"
fi
# Thread 1's end of its implicit task missing: every export says the OpenMP
# states are approximate (Chrome also in otherData); the complete trace not.
"$MKHYBRID" --write-cut "$D/cut.augur" || fail "writing the cut trace"
for f in chrome paraver otf2; do
  [ $f = otf2 ] && ! command -v otf2-print >/dev/null 2>&1 && continue
  expect 0 - "$AUGUR" export "$D/cut.augur" --format $f -o "$D/cut-$f"
  contains "$D/out" "OpenMP begin/end records unpaired"
done
"$PY" -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))['otherData']['openmp_unpaired'] < 1)" \
  "$D/cut-chrome" || fail "chrome: otherData openmp_unpaired"
mkdir -p "$D/mpi"
"$MKHYBRID" --write-mpi "$D/mpi/h.augur" || fail "writing the MPI-only trace"
# (the page names the trace as given: the same relative name for both)
(cd "$D" && "$AUGUR" diagnose h.augur --html diag.html >/dev/null) || fail "diagnose (OpenMP)"
(cd "$D/mpi" && "$AUGUR" diagnose h.augur --html diag.html >/dev/null) || fail "diagnose (MPI)"
# diagnose adds its OpenMP findings (docs/diagnose.md): the rest is the same
for k in "$D" "$D/mpi"; do
  (cd "$k" && "$AUGUR" diagnose h.augur --json >diag.json) || fail "diagnose --json ($k)"
  "$PY" "$HERE/../diagnose/mpi_part.py" "$k/diag.json" >"$k/diag.mpi" || fail "mpi_part ($k)"
done
cmp -s "$D/diag.mpi" "$D/mpi/diag.mpi" || fail "diagnose's MPI part differs with OpenMP records"
finish
