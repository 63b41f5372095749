# `augur phases --irregular` on a recorded 4-rank MPICH pas2p_irregular (30
# iterations, output every 10th; apps/README.md "PAS2P irregular app"): the
# known structure is MPI_COMM_WORLD as characteristic communicator (the
# Cartesian communicator is the other candidate; rows and columns hold 2
# ranks) and exactly three global phases on every rank: set-up (weight 1),
# iteration (weight 30), output (weight 3). Global mode on the same trace
# finds no phase of weight 30. Then global and EPAS modes on pas2p_solver
# (20 iterations) still give the iteration phase of weight 20.
# usage: irregular.sh MPIEXEC APPDIR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
apps=$2
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$apps/pas2p_irregular" ] || [ ! -x "$apps/pas2p_solver" ]; then
  echo "skipped: MPICH recorder or the PAS2P apps not built"
  exit 77
fi
T="$D/irr.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 4 "$apps/pas2p_irregular" -n 30 -k 10
[ -f "$T/trace.json" ] || { fail "no trace recorded"; finish; }
contains "$D/out" "pas2p_irregular: ranks=4 grid=2x2 iters=30"

expect 0 0 "$AUGUR" phases "$T" --irregular
contains "$D/out" "irregular mode"
contains "$D/out" "characteristic communicator: MPI_COMM_WORLD"
contains "$D/out" "PHASE_TABLE"

expect 0 0 "$AUGUR" phases "$T" --irregular --json
cp "$D/out" "$D/irr.json"
"$PY" - "$D/irr.json" <<'PYEOF' || fail "irregular JSON: $(head -c 4000 "$D/irr.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "irregular" and d["ranks"] == 4, d["mode"]
ir = d["irregular"]
assert ir["comm"] == 1, ir["candidates"]
cands = sorted((c["kind"], c["size"], c["level"]) for c in ir["candidates"])
assert cands == [("cart", 4, 1), ("world", 4, 0)], cands
chosen = [c for c in ir["candidates"] if c["chosen"]]
other = [c for c in ir["candidates"] if not c["chosen"]]
# world: every rank's 30 Allreduces and 3 Reduces; cart: the 3 Bcasts.
assert chosen[0]["score"] == 4 * 33 and other[0]["score"] == 4 * 3, ir["candidates"]
ph = d["phases"]
got = [(p["first"]["call"], sorted(r["weight"] for r in p["ranks"])) for p in ph]
want = [("MPI_Init", [1] * 4), ("MPI_Allreduce", [30] * 4), ("MPI_Reduce", [3] * 4)]
assert got == want, got
assert ir["k"] == 3 and len(ir["points"]) == 12, (ir["k"], len(ir["points"]))
assert [p["weight"] for p in ph] == [1, 30, 3]
# Every rank's ticks: set-up from 0; the others start where their send is.
for p in ph:
    assert len({(r["tick_first"], r["tick_last"]) for r in p["ranks"]}) == 1, p["ranks"]
assert ph[0]["ranks"][0]["tick_first"] == 0
# Shares cover the run; PET is one rank's sum (the largest).
s = sum(p["share"] for p in ph)
assert abs(s - 1) < 0.02, s
sums = [sum(r["total_seconds"] for p in ph for r in p["ranks"] if r["rank"] == k) for k in range(4)]
assert abs(d["pet_seconds"] - max(sums)) < 1e-6 * d["pet_seconds"], (d["pet_seconds"], sums)
PYEOF

# Global mode: the data-dependent sweeps break every repetition of the
# iteration (that is what irregular mode is for).
expect 0 0 "$AUGUR" phases "$T" --json --min-share 0
"$PY" - "$D/out" <<'PYEOF' || fail "global mode on the irregular app: $(head -c 3000 "$D/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert all(p["weight"] < 30 for p in d["phases"]), [(p["id"], p["weight"]) for p in d["phases"]]
assert len(d["phases"]) > 10, len(d["phases"])
PYEOF
expect 2 1 "$AUGUR" phases "$T" --irregular --per-rank

# The solver, regular: global and EPAS modes unchanged.
S="$D/solver.augur"
expect 0 - "$AUGUR" record -o "$S" -- "$mpiexec" -n 4 "$apps/pas2p_solver" -n 20 -x 16 -y 16 -z 16 -w 1
expect 0 0 "$AUGUR" phases "$S" --json
cp "$D/out" "$D/solver.json"
expect 0 0 "$AUGUR" phases "$S" --json --per-rank
cp "$D/out" "$D/solver-rank.json"
"$PY" - "$D/solver.json" "$D/solver-rank.json" <<'PYEOF' || fail "solver: $(head -c 3000 "$D/solver.json")"
import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    rep = [p for p in d["phases"] if p["repeats"]]
    assert len(rep) == 1 and rep[0]["weight"] == 20, (f, [(p["id"], p["weight"]) for p in d["phases"]])
    assert rep[0]["first"]["call"] == "MPI_Isend", rep[0]["first"]
PYEOF
finish
