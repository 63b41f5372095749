# A program with no repeating phase (apps/pred_short_phases -n 1 -b 1: one
# block, one barrier): `augur phases` and `augur signature` say that PAS2P
# cannot shorten the run (text and JSON), and `augur predict` reports the
# signature run's own measured time, which went to the end, as PET instead
# of echoing the base run (issue 21, item 3: NPB EP under taskset -c 0 was
# predicted at the base run's 7.9 s for a 16.3 s run, its phase "missing";
# the phase that ends with MPI_Finalize is now measured). Then a signature
# used on another program.
# usage: no_repeat.sh MPIEXEC APPDIR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
app=$2/pred_short_phases
[ -x "$app" ] || { echo "skipped: pred_short_phases not built"; exit 77; }
NR="no repeating phase: PAS2P cannot shorten this run"

T="$D/nr.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 2 "$app" -n 1 -b 1 -w 200000
expect 0 0 "$AUGUR" phases "$T"
contains "$D/out" "$NR"
expect 0 0 "$AUGUR" phases --json "$T"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["repeating_phase"] is False and d["note"] == sys.argv[2], d' "$D/out" "$NR" ||
  fail "phases --json: $(cat "$D/out")"
expect 0 0 "$AUGUR" signature "$T" -o "$D/sig"
contains "$D/out" "$NR"

expect 0 - "$AUGUR" predict --json --signature "$D/sig" -- "$mpiexec" -n 2 "$app" -n 1 -b 1 -w 200000
contains "$D/out" "1 iterations of 1 blocks done"
grep '^{' "$D/out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["stopped_early"] is False and d["pet_source"] == "full run", d
assert d["repeating_phase"] is False, d
assert d["pet_seconds"] == d["set_seconds"], d
assert [p["status"] for p in d["phases"]] == ["measured"], d["phases"]
' || fail "prediction: $(cat "$D/out" "$D/err")"
expect 0 - "$AUGUR" predict --signature "$D/sig" -- "$mpiexec" -n 2 "$app" -n 1 -b 1 -w 200000
contains "$D/out" "the measured time of this full run"
contains "$D/out" "PAS2P cannot shorten this run"

# Another program (issue 21, item 4: an LU signature run on CG exited 0 with
# PET 13.6 s for a 0.65 s run): refused before anything runs; forced, it
# warns and runs. Behind a wrapper augur predict cannot see through, the
# ranks refuse it themselves and write no results.
ring=$2/ring
expect 1 1 "$AUGUR" predict --signature "$D/sig" -- "$mpiexec" -n 2 "$ring" -n 3
contains "$D/err" "is the signature of 'pred_short_phases', the command runs 'ring'; --force"
expect 0 1 "$AUGUR" predict --force --signature "$D/sig" -- "$mpiexec" -n 2 "$ring" -n 3
contains "$D/err" "warning:"
contains "$D/out" "the measured time of this full run"
expect 1 - "$AUGUR" predict --mpi mpich --signature "$D/sig" -- sh -c "$mpiexec -n 2 $ring -n 3"
contains "$D/err" "signature mode: $D/sig: the signature is for 'pred_short_phases'"
contains "$D/err" "wrote no results"
finish
