# Fixture: records a 4-rank MPICH stencil (a few iterations) for the other
# timeline tests, and its `augur dump` (the independent view of the messages).
# usage: record.sh MPIEXEC STENCIL
. "$(dirname "$0")/lib.sh"
mpiexec=$1
app=$2
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$app" ]; then
  echo "skipped: MPICH recorder or stencil not built"
  exit 77
fi
rm -rf "$TRACE"
expect 0 - "$AUGUR" record -o "$TRACE" -- "$mpiexec" -n 4 "$app" -n 6
[ -f "$TRACE/trace.json" ] || fail "no trace recorded"
"$AUGUR" dump "$TRACE" >"$WORK/stencil.dump" || fail "augur dump failed"
finish
