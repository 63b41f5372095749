# Issue 21 (NPB MG class C, 2 ranks: 196 phases instead of 16): a V-cycle
# with more levels than the phase detector tried known phases per position
# (8 until stop 41). Every level's exchange goes through one routine, so the
# exchanges of all levels begin with the same call and differ only in their
# volume: one known phase per level, all with the same first key. With ten
# levels the oldest ones were no longer tried, and each iteration made new
# phases (64 phases for 6 iterations, weights 1-3). The phase table must have
# one phase per level (weight 3 x ITER: restrict, interpolate, smooth) and
# not grow with the iterations: recorded with 6 and 9 iterations, the two
# tables have the same phases, whose loop weights scale with the iterations.
# usage: many_levels.sh MPIEXEC APP
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
app=$2
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$app" ]; then
  echo "skipped: MPICH recorder or ph_levels not built"
  exit 77
fi
for it in 6 9; do
  # 10 levels, equal compute per level (-G 0), 8-byte messages at level 0.
  expect 0 - "$AUGUR" record -o "$D/r$it.augur" -- "$mpiexec" -n 2 "$app" -l 10 -G 0 -w 2 -s 8 \
    -S 0 -n $it
  expect 0 0 "$AUGUR" phases "$D/r$it.augur" --json
  cp "$D/out" "$D/r$it.json"
done
"$PY" - "$D/r6.json" "$D/r9.json" <<'PYEOF' || fail "phases of a 10-level V-cycle"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d, it in ((a, 6), (b, 9)):
    ph = d["phases"]
    ex = [p for p in ph if p["first"]["call"] == "MPI_Irecv"]
    # levels 1..9 each: one phase; level 0 (the bottom) is part of the
    # iteration's turn-around phase with the Allreduce.
    assert len(ph) <= 14, "%d iterations: %d phases (%s)" % (
        it, len(ph), [(p["id"], p["weight"]) for p in ph])
    small = [(p["id"], p["weight"]) for p in ex if p["repeats"] and p["weight"] < it]
    assert not small, "%d iterations: exchange phases of fewer repetitions than iterations: %s" % (
        it, small)
ta = [(p["id"], p["events"], p["units"]) for p in a["phases"]]
tb = [(p["id"], p["events"], p["units"]) for p in b["phases"]]
assert ta == tb, "6 and 9 iterations, two tables:\n%s\n%s" % (ta, tb)
print("phases: %d for 6 and 9 iterations" % len(ta))
PYEOF
finish
