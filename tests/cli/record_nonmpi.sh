# augur record on programs that do not use MPI: still run, say no trace.
. "$(dirname "$0")/lib.sh"
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi.so"
if [ ! -f "$lib" ]; then
  echo "skipped: $lib not built"
  exit 77
fi
cd "$D" || exit 1
expect 0 - "$AUGUR" record -- /bin/true
contains "$D/err" "no trace was produced"
[ ! -e "$D/true.augur" ] || fail "a true.augur directory appeared"
# The program's status is augur's status.
expect 3 - "$AUGUR" record -- sh -c 'exit 3'
contains "$D/err" "no trace was produced"
# A command that does not exist: one line, 127 like a shell.
expect 127 1 "$AUGUR" record -- ./no-such-program
contains "$D/err" "cannot run"
# SIGTERM sent to augur reaches the command (which has no handler: 128 + 15).
expect 143 - "$AUGUR" record -- sh -c 'kill -TERM $PPID; exec sleep 30'
contains "$D/err" "signal 15"
finish
