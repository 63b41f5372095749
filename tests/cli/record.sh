# augur record on a real MPI program: flavour FLAVOUR, launcher MPIEXEC, program HELLO.
# Exits 77 (skipped) if the recorder for FLAVOUR has not been built.
flavour=$1
mpiexec=$2
hello=$3
. "$(dirname "$0")/lib.sh"
. "$MPIENV"
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-$flavour.so"
if [ ! -f "$lib" ]; then
  echo "skipped: $lib not built"
  exit 77
fi
cd "$D" || exit 1
app=$(basename "$hello")

expect 0 - "$AUGUR" record -- "$mpiexec" -n 2 "$hello"
contains "$D/err" "trace written to $D/$app.augur"
contains "$D/err" "2 ranks"
[ -f "$D/$app.augur/trace.json" ] || fail "no $app.augur/trace.json"
# Never overwrite: the second run goes to APP-2.augur.
expect 0 - "$AUGUR" record -- "$mpiexec" -n 2 "$hello"
[ -f "$D/$app-2.augur/trace.json" ] || fail "second run did not go to $app-2.augur"

expect 0 0 "$AUGUR" report "$D/$app.augur" --json
python3 - "$D/out" <<'PY' || fail "report of the recorded run"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["nranks"] == 2 and r["complete"] is True, r
pairs = {(p["from"], p["to"]): p for p in r["matrix"]}
assert pairs[(0, 1)]["bytes"] == 4 and pairs[(0, 1)]["messages"] == 1, r["matrix"]
names = [c["call"] for c in r["calls"]]
assert "MPI_Send" in names and "MPI_Recv" in names and "MPI_Barrier" in names, names
PY

# -o names it explicitly: replaced.
expect 0 - "$AUGUR" record -o out.augur --payload-hash --counters none -- "$mpiexec" -n 2 "$hello"
expect 0 - "$AUGUR" record -o out.augur -- "$mpiexec" -n 2 "$hello"
[ ! -d "$D/out-2.augur" ] || fail "-o made out-2.augur"
contains "$D/err" "trace written to $D/out.augur"
# ... also with the compressed copy a rank killed while closing its file leaves behind.
cp out.augur/rank-00000.evt out.augur/rank-00000.evt.part
expect 0 - "$AUGUR" record -o out.augur -- "$mpiexec" -n 2 "$hello"
[ ! -e out.augur/rank-00000.evt.part ] || fail "record -o kept rank-00000.evt.part"
# ... but never a directory that is not a trace.
mkdir -p notatrace && echo keep >notatrace/keep.txt
expect 1 1 "$AUGUR" record -o notatrace -- "$mpiexec" -n 2 "$hello"
[ -f notatrace/keep.txt ] || fail "record -o wiped a non-trace directory"
finish
