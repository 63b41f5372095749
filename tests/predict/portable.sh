# `augur signature --portable`: a signature made from the MPICH build of
# pas2p_solver recognises the phases of its Open MPI build (another binary:
# call sites differ, calls match by type, peer offset and size); the plain
# signature of the same trace matches nothing there and the run goes to the
# end. Not a timing test: it checks what is recognised, not the prediction.
# usage: portable.sh MPICH_MPIEXEC MPICH_SOLVER OPENMPI_MPIEXEC OPENMPI_SOLVER MPIENV
. "$(dirname "$0")/../lib.sh"
. "$5"
ITERS=40
[ -x "$2" ] && [ -x "$4" ] || { echo "skipped: both builds of pas2p_solver are needed"; exit 77; }
T="$D/solver.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$1" -n 4 "$2" -n "$ITERS" -w 1
expect 0 0 "$AUGUR" signature "$T" -o "$D/plain.sig"
expect 0 0 "$AUGUR" signature "$T" -o "$D/portable.sig" --portable
contains "$D/out" "portable"
# Every call of the portable signature has module 0 (site not compared).
awk '$1 == "call" && $5 != 0 { bad = 1 } END { exit bad }' "$D/portable.sig" ||
  fail "a portable signature still names call sites"
awk '$1 == "call" && $5 != 0 { n++ } END { exit !n }' "$D/plain.sig" ||
  fail "the plain signature names no call site"

check() { # check SIG WANT_STOPPED MPIEXEC SOLVER [--force]
  expect 0 - "$AUGUR" predict ${5:-} --json --signature "$1" -- "$3" -n 4 "$4" -n "$ITERS" -w 1
  grep '^{' "$D/out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
want = sys.argv[1] == "1"
assert d["stopped_early"] is want, d
main = [p for p in d["phases"] if p["weight"] == int(sys.argv[2])]
assert main, d["phases"]
st = {p["status"] for p in main}
assert st == ({"measured"} if want else {"missing"}), st
' "$2" "$ITERS" || fail "$1 on the Open MPI build: $(cat "$D/out" "$D/err")"
}
# The plain signature names the MPICH build: refused on the other build,
# and forced, it matches nothing there.
expect 1 1 "$AUGUR" predict --signature "$D/plain.sig" -- "$3" -n 4 "$4" -n "$ITERS" -w 1
contains "$D/err" "another build of 'pas2p_solver'"
check "$D/plain.sig" 0 "$3" "$4" --force
check "$D/portable.sig" 1 "$3" "$4"
finish
