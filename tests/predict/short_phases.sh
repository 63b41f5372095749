# `augur predict` on apps/pred_short_phases (2 ranks): many short blocks, each
# closed by an MPI_Barrier, whose calls repeat at a shorter period on the odd
# rank than on the even one. The stop vote used to be taken where each rank's
# own matcher ended a repetition of the sync phase, so the odd rank voted
# (PMPI_Allreduce) while the even one waited in MPI_Barrier: a deadlock on
# every run (issue 21, item 1). Each rank now reports with one nonblocking
# gather, started wherever it is: the run must stop early and predict.
# --stall bounds a regression to a failure instead of a hang.
# Then the watchdog: rank 0 computes 60 s without MPI calls (-s 60) while
# rank 1 waits; with --stall 3 the run is ended in seconds, saying so.
# usage: short_phases.sh MPIEXEC APPDIR MPIENV
. "$(dirname "$0")/../lib.sh"
. "$3"
mpiexec=$1
app=$2/pred_short_phases
# 600 iterations: the loop runs 0.3 s or more after the phases are measured
# (about 10 repetitions in), time for the stop on a loaded machine (with 150,
# 70 ms once did not suffice under CI's parallel tests: Open MPI, stop 31).
ITERS=${ITERS:-600}
[ -x "$app" ] || { echo "skipped: pred_short_phases not built"; exit 77; }

T="$D/sp.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 2 "$app" -n "$ITERS"
expect 0 0 "$AUGUR" signature "$T" -o "$D/sig"
# The odd rank's part of the repeating phase repeats within it (its blocks
# are alike), the even rank's does not: the case that deadlocked.
awk '$1 == "rank" { r = $2 } $1 == "call" { s[r] = s[r] " " $2 "/" $6 }
     END { exit !(s[0] != s[1]) }' "$D/sig" || fail "no per-rank difference: $(cat "$D/sig")"

expect 0 - "$AUGUR" predict --stall 20 --json --signature "$D/sig" -- "$mpiexec" -n 2 "$app" -n "$ITERS"
grep -q 'iterations of 4 blocks done' "$D/out" && fail "the signature run did not stop early"
grep '^{' "$D/out" >"$D/pred.json"
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stopped_early"] is True, d
# Stopped early: what ran before the stop is measured, only the repetitions
# still to come are predicted (docs/signature.md, "PET of a run that stopped").
assert d["pet_source"] == "run + remaining", d
main = [p for p in d["phases"] if p["weight"] > 1]
assert main and all(p["status"] == "measured" for p in main), d["phases"]
assert all(0 <= p["seen"] for p in d["phases"]), d["phases"]
' "$D/pred.json" || fail "prediction: $(cat "$D/out" "$D/err")"
# What remains: the curves' base time after seen x the pooled speed.
"$PY" "$(dirname "$0")/remaining.py" "$D/sig" "$D/pred.json" ||
  fail "remaining: $(cat "$D/pred.json")"

# A loop of point-to-point calls only (ring: no collective until the end)
# stops early too.
R="$D/ring.augur"
expect 0 - "$AUGUR" record -o "$R" -- "$mpiexec" -n 2 "$2/ring" -n 400 -s 100000
expect 0 0 "$AUGUR" signature "$R" -o "$D/ring.sig"
expect 0 - "$AUGUR" predict --stall 20 --json --signature "$D/ring.sig" -- "$mpiexec" -n 2 "$2/ring" -n 400 -s 100000
grep -q 'ring: ranks=2' "$D/out" && fail "the ring's signature run did not stop early"
grep '^{' "$D/out" | "$PY" -c 'import json,sys; d=json.load(sys.stdin)
assert d["stopped_early"] is True, d' || fail "ring prediction: $(cat "$D/out" "$D/err")"

# The watchdog: no rank enters an MPI call for 60 s; --stall 3 ends it.
t0=$(date +%s)
expect 1 - "$AUGUR" predict --stall 3 --signature "$D/sig" -- "$mpiexec" -n 2 "$app" -n "$ITERS" -s 60
t1=$(date +%s)
[ $((t1 - t0)) -lt 40 ] || fail "the watchdog took $((t1 - t0)) s"
contains "$D/err" "the signature run made no progress for"
contains "$D/err" "limit 3 s, --stall"
contains "$D/err" "rank 0: "
contains "$D/err" "rank 1: "
grep -q "the program failed" "$D/err" && fail "the stop is reported as a program failure"
finish
