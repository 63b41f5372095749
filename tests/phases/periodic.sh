# Issue 21, item 5: the same program gives the same phases, and their unit is
# the iteration. apps/ph_periodic does an extra exchange every K iterations;
# for each setting (ranks, K, compute, message size) it is recorded twice and
# `augur phases --json` must give two identical phase tables (every phase's
# weight, ticks, calls and bounding call sites), an iteration phase of weight
# ITER with the iteration's calls (6 per rank: 2 Irecv, 2 Isend, Waitall,
# Allreduce) and the extra exchange as a phase of weight ITER / K (4 calls per
# rank), never the K-iteration super-period.
# usage: periodic.sh MPIEXEC APP
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
app=$2
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$app" ]; then
  echo "skipped: MPICH recorder or ph_periodic not built"
  exit 77
fi

# check RANKS K WORK BYTES ITER
check() {
  for rec in 1 2; do
    T="$D/p$1-$2-$rec.augur"
    expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n "$1" "$app" -n "$5" -k "$2" -w "$3" -s "$4"
    expect 0 0 "$AUGUR" phases "$T" --json
    cp "$D/out" "$D/p$1-$2-$rec.json"
  done
  "$PY" - "$D/p$1-$2-1.json" "$D/p$1-$2-2.json" "$@" <<'PYEOF' || fail "ranks $1 K $2 work $3 bytes $4"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
ranks, k, work, size, it = (int(x) for x in sys.argv[3:8])
def table(d):
    return [(p["weight"], p["units"], p["events"], p["first"]["call"], p["first"]["location"],
             p["last"]["call"], p["last"]["location"]) for p in d["phases"]]
ta, tb = table(a), table(b)
assert ta == tb, "two recordings, two phase tables:\n%s\n%s" % (ta, tb)
it_ph = [p for p in a["phases"] if p["weight"] == it]
assert len(it_ph) == 1, "no single iteration phase of weight %d: %s" % (it, ta)
p = it_ph[0]
assert p["events"] == 6 * ranks and p["first"]["call"] == "MPI_Irecv" and \
    p["last"]["call"] == "MPI_Allreduce", p
x_ph = [p for p in a["phases"] if p["weight"] == it // k and p["events"] == 4 * ranks]
assert len(x_ph) == 1, "no extra-exchange phase of weight %d: %s" % (it // k, ta)
assert "ph_periodic.c" in x_ph[0]["first"]["location"], x_ph[0]
# Nothing that repeats spans more than one iteration.
big = [p for p in a["phases"] if p["weight"] >= 2 and p["events"] > 6 * ranks]
assert not big, "a repeating phase larger than the iteration: %s" % big
# The iteration is relevant in both.
for d in (a, b):
    assert [q["relevant"] for q in d["phases"] if q["weight"] == it] == [True], d["phases"]
print("ranks %d K %d: %d phases, the same twice" % (ranks, k, len(ta)))
PYEOF
}

# ranks K work bytes iterations (ITER % K != 0: the last exchange is not the teardown's)
check 2 4 20 4096 30
check 2 7 5 65536 37
check 4 3 40 1024 20
finish
