# `augur signature --irregular` and `augur predict` on a real 4-rank MPICH
# run of apps/pas2p_irregular (60 iterations, output every 10th): the
# signature holds the three irregular phases with per-rank weights (set-up
# 1, iteration 60, output 6) and the stretches to time on each rank; the
# signature run recognises them by stretch, stops early at a vote on the
# iteration phase's Allreduce and predicts from the rank with the largest
# sum. What is recognised, not a timing: PET is only checked to be in the
# range of the base run (bench/predict measures the error).
# usage: irregular.sh MPIEXEC APPDIR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
apps=$2
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$apps/pas2p_irregular" ] || [ ! -x "$apps/stencil" ]; then
  echo "skipped: MPICH recorder or the apps not built"
  exit 77
fi
run="$apps/pas2p_irregular -n 60 -k 10"
T="$D/irr.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 4 $run
expect 0 0 "$AUGUR" signature "$T" --irregular -o "$D/sig"
contains "$D/out" "3 relevant phases (0 late, estimated), 4 ranks, irregular; a signature run stops once every rank has measured its phases"
grep -q '^augur-signature 5$' "$D/sig" || fail "signature header: $(head -2 "$D/sig")"
grep -q '^mode irregular$' "$D/sig" || fail "no 'mode irregular': $(head -5 "$D/sig")"
grep -q '^comm 0x1 [0-9][0-9]*$' "$D/sig" || fail "characteristic communicator not MPI_COMM_WORLD: $(head -5 "$D/sig")"
# A global-mode signature of the same trace stays version 1.
expect 0 0 "$AUGUR" signature "$T" -o "$D/global.sig"
grep -q '^augur-signature 5$' "$D/global.sig" || fail "global signature: $(head -2 "$D/global.sig")"

expect 0 - "$AUGUR" predict --json --signature "$D/sig" -- "$mpiexec" -n 4 $run
grep '^{' "$D/out" >"$D/pred.json"
grep -q 'pas2p_irregular: ranks=4' "$D/out" && fail "the signature run did not stop early"
"$PY" - "$D/pred.json" "$D/sig" <<'PYEOF' || fail "prediction: $(cat "$D/pred.json")"
import json, sys
d = json.load(open(sys.argv[1]))
base = float([l.split()[1] for l in open(sys.argv[2]) if l.startswith("base ")][0])
print("PET %.3f s  SET %.3f s  base run %.3f s  PET rank %d" %
      (d["pet_seconds"], d["set_seconds"], base, d["pet_rank"]))
assert d["mode"] == "irregular" and d["stopped_early"] is True, d
assert 0 <= d["pet_rank"] < 4
ph = {p["id"]: p for p in d["phases"]}
assert sorted(ph) == [1, 2, 3], ph
assert [ph[i]["weight"] for i in (1, 2, 3)] == [1, 60, 6], ph
assert all(p["status"] == "measured" and p["measured"] >= 1 for p in d["phases"]), ph
assert all(p["phase_seconds"] > 0 for p in d["phases"])
# The phases' sum is PET's bulk: weights applied (PET far above SET).
assert d["pet_seconds"] > 1.5 * d["set_seconds"], d
assert 0.3 * base < d["pet_seconds"] < 4 * base, (d["pet_seconds"], base)
PYEOF

# --measure 2: two iterations timed on every rank.
expect 0 - "$AUGUR" predict --signature "$D/sig" --measure 2 -- "$mpiexec" -n 4 $run
contains "$D/out" "irregular phases: every rank has its own weights"
grep -Eq '^ +2 +60 .* 2 .*measured' "$D/out" || fail "--measure 2 not applied: $(cat "$D/out")"

# Another program: refused; forced, no stretch matches, the run goes to the
# end and says so.
expect 1 1 "$AUGUR" predict --json --signature "$D/sig" -- "$mpiexec" -n 4 "$apps/stencil" -n 20
contains "$D/err" "is the signature of 'pas2p_irregular', the command runs 'stencil'"
expect 0 - "$AUGUR" predict --force --json --signature "$D/sig" -- "$mpiexec" -n 4 "$apps/stencil" -n 20
grep '^{' "$D/out" >"$D/other.json"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["stopped_early"] is False and all(p["status"] != "measured" for p in d["phases"]), d' \
  "$D/other.json" || fail "another program: $(cat "$D/other.json")"
finish
