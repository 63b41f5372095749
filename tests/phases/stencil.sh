# `augur phases` on a recorded 4-rank MPICH stencil (20 iterations on a 2x2
# grid: per rank Irecv x2, Isend x2, Waitall, Allreduce): the iteration is
# one phase of weight 20 and 6 ticks, framed by a non-repeating init
# (Init, Cart_create) and teardown (Comm_free, Finalize). Then EPAS mode,
# JSON, and a damaged copy of the trace (exit 1, the file named).
# usage: stencil.sh MPIEXEC STENCIL
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
app=$2
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$app" ]; then
  echo "skipped: MPICH recorder or stencil not built"
  exit 77
fi
T="$D/stencil.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 4 "$app" -n 20
[ -f "$T/trace.json" ] || { fail "no trace recorded"; finish; }

expect 0 0 "$AUGUR" phases "$T"
contains "$D/out" "global logical trace, 4 ranks"
contains "$D/out" "MPI_Irecv@main (stencil.c:"
contains "$D/out" "MPI_Allreduce@main (stencil.c:"
# The iteration row: 6 ticks, 24 calls, weight 20.
awk '$2 == 6 && $3 == 24 && $5 == 20 { found = 1 } END { exit !found }' "$D/out" ||
  fail "no 6-tick, 24-call phase of weight 20: $(cat "$D/out")"

expect 0 0 "$AUGUR" phases "$T" --json --min-share 0
cp "$D/out" "$D/global.json"
"$PY" - "$D/global.json" <<'PYEOF' || fail "global JSON: $(cat "$D/global.json" | head -c 3000)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 1 and d["mode"] == "global" and d["ranks"] == 4, d
assert d["logical"]["messages"] == 20 * 8 and d["logical"]["collectives"] == 20, d["logical"]
assert d["logical"]["forced"] == 0
ph = d["phases"]
rep = [p for p in ph if p["repeats"]]
assert len(rep) == 1, [(p["id"], p["weight"]) for p in ph]
it = rep[0]
assert it["weight"] == 20 and it["units"] == 6 and it["events"] == 24 and it["nranks"] == 4, it
assert it["first"]["call"] == "MPI_Irecv" and it["last"]["call"] == "MPI_Allreduce", it
assert it["first"]["location"].startswith("main (stencil.c:"), it
assert it["runs"] == [[2, 20]], it["runs"]
init, tail = ph[0], ph[-1]
assert not init["repeats"] and init["first"]["call"] == "MPI_Init" and init["units"] == 2, init
assert not tail["repeats"] and tail["last"]["call"] == "MPI_Finalize" and tail["units"] == 2, tail
assert len(ph) == 3, len(ph)
s = sum(p["share"] for p in ph)
assert abs(s - 1) < 1e-6, s
assert abs(it["total_seconds"] - 20 * it["phase_seconds"]) < 1e-6 * it["total_seconds"]
PYEOF

# EPAS: every rank alone; the representative rank shows the same phase.
expect 0 0 "$AUGUR" phases "$T" --per-rank --json --min-share 0
cp "$D/out" "$D/rank.json"
"$PY" - "$D/rank.json" <<'PYEOF' || fail "per-rank JSON: $(head -c 3000 "$D/rank.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "rank" and d["representative"] and 0 <= d["rank"] < 4, d
assert len(d["rank_errors"]) == 4
rep = [p for p in d["phases"] if p["repeats"]]
assert len(rep) == 1 and rep[0]["weight"] == 20 and rep[0]["units"] == 6, rep
PYEOF
expect 0 0 "$AUGUR" phases "$T" --rank 3
contains "$D/out" "rank 3"
expect 1 1 "$AUGUR" phases "$T" --rank 4

# A damaged trace: exit 1, one line naming the rank file; no table.
cp -r "$T" "$D/damaged.augur"
f="$D/damaged.augur/rank-00002.evt"
truncate -s $(($(wc -c <"$f") / 2)) "$f"
expect 1 1 "$AUGUR" phases "$D/damaged.augur"
contains "$D/err" "rank-00002.evt"
[ ! -s "$D/out" ] || fail "a damaged trace printed a table: $(cat "$D/out")"
finish
