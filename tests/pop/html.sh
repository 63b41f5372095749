# The POP efficiencies on the page of `augur diagnose --html` (docs/
# diagnose-html.md), on the hand-built traces of test_pop.c whose figures are
# known (augur-test-pop --write KIND DIR): the figures to 1e-9, the notes of
# the text, an unknown figure said and not invented, the hybrid table only
# for a trace with OpenMP records; --no-ideal (page and report).
# usage: html.sh WRITER (environment: AUGUR, PY, CHECK_PAGE, WORK, NAME)
. "$(dirname "$0")/../lib.sh"
WRITER=$1
check() { "$PY" "$CHECK_PAGE" "$@" || fail "check_page.py $*"; }
page() {
  "$WRITER" --write "$1" "$D/$1.augur" || { fail "writing the $1 trace"; return; }
  expect 0 - "$AUGUR" diagnose "$D/$1.augur" --html "$D/$1.html"
  [ -s "$D/$1.html" ] || fail "no page for the $1 trace"
}

# 2 ranks that a message serialises: LB 2.75/3, CommE 3/4.002, SerE 3/4,
# TE 4/4.002 (test_pop.c test_mpi_only). MPI only: no hybrid table, no note.
MPI="parallel=2.75/3*3/4.002 load_balance=2.75/3 communication=3/4.002 serialisation=3/4 transfer=4/4.002"
page serial
# shellcheck disable=SC2086 # MPI is a list of checks
check figures "$D/serial.html" efficiencies $MPI
check nofigures "$D/serial.html" efficiencies-hybrid
check warnings "$D/serial.html" 0
contains "$D/serial.html" "useful avg 2.750 s, max 3.000 s (rank 0); run time 4.002 s, on an ideal network 4.000 s"
# the text of the diagnosis is what it was: the efficiencies are the page's
grep -q "Efficiencies" "$D/out" && fail "augur diagnose's text shows the efficiencies"

# The same on one CPU: the same figures, and the text's note.
page oversubscribed
# shellcheck disable=SC2086
check figures "$D/oversubscribed.html" efficiencies $MPI
check warnings "$D/oversubscribed.html" 1 "oversubscribed: 2 ranks on 1 CPU (host h)"

# Without the replay on the ideal network (--no-ideal): SerE and TE unknown,
# said to be not computed, no warning (the others are as trustworthy); and
# the same in augur report. --no-ideal is for the page only.
expect 0 - "$AUGUR" diagnose "$D/serial.augur" --html "$D/noideal.html" --no-ideal
check figures "$D/noideal.html" efficiencies "parallel=2.75/3*3/4.002" load_balance=2.75/3 \
  communication=3/4.002 serialisation=unknown transfer=unknown
check warnings "$D/noideal.html" 0
contains "$D/noideal.html" "run time 4.002 s, on an ideal network not computed (--no-ideal)"
expect 2 1 "$AUGUR" diagnose "$D/serial.augur" --no-ideal
contains "$D/err" "--no-ideal goes with --html FILE"
expect 0 0 "$AUGUR" report "$D/serial.augur" --no-ideal
contains "$D/out" "on an ideal network not computed (--no-ideal)"
expect 0 0 "$AUGUR" report "$D/serial.augur" --no-ideal --json
contains "$D/out" '"ideal_computed": false'
contains "$D/out" '"serialisation": null'

# Rank 1 stops before MPI_Finalize: said (the reader's words).
page cut
check warnings "$D/cut.html" 1 "trace incomplete: rank 1"
check figures "$D/cut.html" efficiencies load_balance=1.75/3

# Crossed receives: the replay on the ideal network stalls, so SerE and TE
# are unknown, said so, with the reason; the others are there.
page crossed
check figures "$D/crossed.html" efficiencies parallel=2.5/4.003 load_balance=1 \
  communication=2.5/4.003 serialisation=unknown transfer=unknown
check warnings "$D/crossed.html" 1 "no run time on the ideal network (simulation stalled"
contains "$D/crossed.html" "on an ideal network ?"

# A hybrid rank (2 threads, one region) next to an MPI-only one
# (test_pop.c test_hybrid_trace): both tables.
page hybrid
check figures "$D/hybrid.html" efficiencies parallel=6800/7300 load_balance=1 serialisation=1 \
  transfer=6800/7300
check figures "$D/hybrid.html" efficiencies-hybrid parallel=16250/3/7300 mpi_parallel=6800/7300 \
  omp_parallel=16250/3/6800 omp_load_balance=16250/3/6800 omp_other=1 \
  "talp.omp_serialisation=(21900-3000)/21900" "talp.omp_load_balance=(18900-750)/18900" \
  "talp.omp_scheduling=(18150-900)/18150"
check warnings "$D/hybrid.html" 0
contains "$D/hybrid.html" "<h2>Efficiencies (POP, hybrid MPI+OpenMP: 3 threads)</h2>"

# The hybrid rank cut inside its region: the reader's statement over the
# MPI table, the unpaired OpenMP records over the hybrid one, as in the text.
page hybrid-cut
check warnings "$D/hybrid-cut.html" 2 "trace incomplete: rank 0" \
  "OpenMP begin/end records did not pair"
check figures "$D/hybrid-cut.html" efficiencies-hybrid omp_other=1
finish
