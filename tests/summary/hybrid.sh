# `augur summary` on the hand-built hybrid trace of tests/pop/test_pop.c
# (augur-test-pop --write hybrid: a rank with 2 threads and one parallel
# region next to an MPI-only rank), whose figures are known: the page has
# both tables of efficiencies with those figures, the text the hybrid block,
# and the JSON's efficiencies are `augur report --json`'s.
# usage: hybrid.sh WRITER (environment: AUGUR, PY, CHECK_PAGE, WORK, NAME)
. "$(dirname "$0")/../lib.sh"
WRITER=$1
T="$D/hybrid.augur"
"$WRITER" --write hybrid "$T" || { fail "writing the hybrid trace"; finish; }
expect 0 0 "$AUGUR" summary "$T" -o "$D/hybrid.html"
contains "$D/out" "Efficiencies (POP, hybrid MPI+OpenMP: 3 threads)"
contains "$D/out" "OpenMP parallel efficiency"
"$PY" "$CHECK_PAGE" figures "$D/hybrid.html" efficiencies parallel=6800/7300 load_balance=1 \
  serialisation=1 transfer=6800/7300 || fail "MPI figures on the page"
"$PY" "$CHECK_PAGE" figures "$D/hybrid.html" efficiencies-hybrid parallel=16250/3/7300 \
  mpi_parallel=6800/7300 omp_parallel=16250/3/6800 omp_load_balance=16250/3/6800 omp_other=1 \
  "talp.omp_serialisation=(21900-3000)/21900" "talp.omp_load_balance=(18900-750)/18900" \
  "talp.omp_scheduling=(18150-900)/18150" || fail "hybrid figures on the page"
expect 0 0 "$AUGUR" summary "$T" --json
cp "$D/out" "$D/summary.json"
expect 0 0 "$AUGUR" report "$T" --json
"$PY" - "$D/summary.json" "$D/out" <<'PY' || fail "JSON efficiencies against report --json"
import json, sys
s, r = (json.load(open(p)) for p in sys.argv[1:3])
assert s["efficiencies"] == r["efficiencies"], (s["efficiencies"], r["efficiencies"])
assert s["efficiencies"]["hybrid"]["openmp"] is True
PY
finish
