#!/bin/sh
# The analyses of a neighbourhood collective (neigh_late.c, 4 ranks): the
# simulator replays it as point-to-point exchanges with the neighbours
# (docs/simulate.md "Neighbourhood collectives"), so with compute 100 times
# faster the waits it caused shrink with it: predicted < 0.3 x measured (a
# replay of the calls' recorded durations keeps rank 1..3's 5 x 40 ms of
# waiting: predicted ≈ measured). report lists the call with the
# collectives and its bytes; the matcher pairs every exchange (simulate:
# nothing unmatched; diagnose runs).
# usage: neigh_analyses.sh MPIEXEC LIB PROG AUGUR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1 lib=$2 prog=$3 AUGUR=$4
PY=${PY:-python3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
T=$D/late.augur
timeout 120 env LD_PRELOAD="$lib" AUGUR_TRACE_DIR="$T" "$mpiexec" -n 4 "$prog" >"$D/run" 2>&1 ||
  { fail "$prog: $(cat "$D/run")"; finish; }

expect 0 0 "$AUGUR" simulate "$T" --cpu-speed x100 --json
"$PY" - "$D/out" <<'PYEOF' || fail "simulate: $(cat "$D/out")"
import json, sys
d = json.load(open(sys.argv[1]))
p, m = d["predicted_seconds"], d["measured_seconds"]
assert m > 0.19, ("measured", m)
assert p < 0.3 * m, ("predicted", p, "measured", m)
assert d["graph"]["unmatched"] == 0, d["graph"]
PYEOF

expect 0 0 "$AUGUR" report "$T" --json
"$PY" - "$D/out" <<'PYEOF' || fail "report: $(cat "$D/out")"
import json, sys
d = json.load(open(sys.argv[1]))
c = [x for x in d["collectives"] if x["call"] == "MPI_Neighbor_alltoall"]
assert len(c) == 1, d["collectives"]
# 4 ranks x 5 calls; ranks 0 and 3 have one neighbour, 1 and 2 two: 6 x 1 KiB a call
assert c[0]["count"] == 20 and c[0]["bytes_sent"] == 5 * 6 * 1024, c
assert c[0]["bytes_recv"] == c[0]["bytes_sent"], c
PYEOF
expect 0 0 "$AUGUR" report "$T"
contains "$D/out" "MPI_Neighbor_alltoall"
expect 0 0 "$AUGUR" diagnose "$T" --json
finish
