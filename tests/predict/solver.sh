# `augur predict` on a real 4-rank MPICH run of apps/pas2p_solver: the
# signature of a recorded run finds the iteration phase; the signature run
# stops early (SET well below the full run's wall time, AET) and predicts
# it: PET within TOL of AET (default 0.5: the machine is shared, so a run's
# wall time itself varies by 2x; bench/predict measures the error). Then a
# signature that does not fit the program (phases never seen: the run goes
# to the end and says so) and one for another rank count (no results, exit 1).
# usage: solver.sh MPIEXEC SOLVER STENCIL
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
app=$2
stencil=$3
TOL=${TOL:-0.5}
ITERS=${ITERS:-150}
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$app" ] || [ ! -x "$stencil" ]; then
  echo "skipped: MPICH recorder, pas2p_solver or stencil not built"
  exit 77
fi
ms() { date +%s%N | cut -c1-13; }

T="$D/solver.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 4 "$app" -n "$ITERS" -w 1
expect 0 0 "$AUGUR" phases "$T"
awk -v n="$ITERS" '$5 == n && /MPI_Isend@main \(pas2p_solver.c/ { f = 1 } END { exit !f }' "$D/out" ||
  fail "no iteration phase of weight $ITERS: $(cat "$D/out")"
expect 0 0 "$AUGUR" signature "$T" -o "$D/sig"
contains "$D/out" "a signature run stops once every rank has measured its phases"
grep -q '^augur-signature 5$' "$D/sig" || fail "signature header: $(head -2 "$D/sig")"

# AET and PET back to back; a second pair when the first is out of
# tolerance (another job may have started in between: a wall time, not the
# method, is then off).
attempt=1
while :; do
  t0=$(ms)
  "$mpiexec" -n 4 "$app" -n "$ITERS" -w 1 >"$D/full.out" || fail "full run failed"
  t1=$(ms)
  expect 0 - "$AUGUR" predict --json --signature "$D/sig" -- "$mpiexec" -n 4 "$app" -n "$ITERS" -w 1
  grep '^{' "$D/out" >"$D/pred.json"
  # A stopped run never prints the program's final line.
  grep -q 'pas2p_solver: ranks=4' "$D/out" && fail "the signature run did not stop early"
  if "$PY" - "$D/pred.json" "$t0" "$t1" "$TOL" >"$D/check.out" 2>&1 <<'PYEOF'; then
import json, sys
d = json.load(open(sys.argv[1]))
aet = (int(sys.argv[3]) - int(sys.argv[2])) / 1000.0
tol = float(sys.argv[4])
pet, set_ = d["pet_seconds"], d["set_seconds"]
print("AET %.3f s  PET %.3f s  PETE %.1f %%  SET %.3f s  SET/AET %.1f %%" %
      (aet, pet, 100 * abs(pet - aet) / aet, set_, 100 * set_ / aet))
assert d["stopped_early"] is True, "did not stop early"
assert set_ < 0.5 * aet, "SET %.3f not well below AET %.3f" % (set_, aet)
assert abs(pet - aet) <= tol * aet, "PET %.3f vs AET %.3f" % (pet, aet)
main = [p for p in d["phases"] if p["weight"] >= 100]
assert main and all(p["status"] == "measured" and p["measured"] >= 1 for p in main), main
assert all(p["phase_seconds"] > 0 for p in d["phases"] if p["status"] == "measured")
PYEOF
    cat "$D/check.out"
    break
  fi
  cat "$D/check.out"
  if [ "$attempt" -ge 2 ]; then
    fail "prediction: $(cat "$D/pred.json")"
    break
  fi
  attempt=$((attempt + 1))
done

# Text output.
expect 0 - "$AUGUR" predict --signature "$D/sig" --measure 2 -- "$mpiexec" -n 4 "$app" -n "$ITERS" -w 1
contains "$D/out" "stopped early"
contains "$D/out" "PET "
grep -Eq '^ +[0-9]+ +'"$ITERS"' .* 2 .*measured' "$D/out" || fail "--measure 2 not applied: $(cat "$D/out")"

# A signature of another program: refused (item 4 of issue 21: an LU
# signature on CG once predicted 13.6 s for a 0.65 s run); forced, nothing
# matches, the run goes to the end and PET is its own measured time.
S="$D/stencil.augur"
expect 0 - "$AUGUR" record -o "$S" -- "$mpiexec" -n 4 "$stencil" -n 20
expect 0 0 "$AUGUR" signature "$S" -o "$D/stencil.sig"
expect 1 1 "$AUGUR" predict --json --signature "$D/stencil.sig" -- "$mpiexec" -n 4 "$app" -n 20 -w 1
contains "$D/err" "is the signature of 'stencil', the command runs 'pas2p_solver'; --force"
expect 0 1 "$AUGUR" predict --force --json --signature "$D/stencil.sig" -- "$mpiexec" -n 4 "$app" -n 20 -w 1
contains "$D/err" "warning:"
contains "$D/out" "pas2p_solver: ranks=4"
grep '^{' "$D/out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["stopped_early"] is False and d["pet_source"] == "full run"
assert d["pet_seconds"] == d["set_seconds"], d
assert all(p["status"] in ("missing", "late") for p in d["phases"]), d["phases"]
' || fail "foreign signature: $(cat "$D/out")"

# A signature for 4 ranks run on 2: every rank says so, no results, exit 1.
expect 1 - "$AUGUR" predict --signature "$D/stencil.sig" -- "$mpiexec" -n 2 "$stencil" -n 5
contains "$D/err" "the signature is for 4 ranks, this run has 2"
contains "$D/err" "wrote no results"
finish
