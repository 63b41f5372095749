#!/bin/sh
# Records one app run with `augur record` (the way a user does) and checks
# the trace with augur-check-apps.
#
# usage: record_and_check.sh AUGUR MPIEXEC NP TRACE_DIR APP [APP_ARGS...] -- CHECKER [CHECKER_ARGS...]
set -u
[ $# -ge 6 ] || { echo "usage: $0 AUGUR MPIEXEC NP TRACE_DIR APP [ARGS...] -- CHECKER [ARGS...]" >&2; exit 2; }
AUGUR=$1 MPIEXEC=$2 NP=$3 TRACE=$4 APP=$5
shift 5

# Split "APP_ARGS -- CHECKER ARGS": rebuild $@ as the app's arguments and
# keep the checker command line in $CHECK (no spaces in any of our args).
APP_ARGS=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do APP_ARGS="$APP_ARGS $1"; shift; done
[ $# -gt 1 ] || { echo "$0: missing '-- CHECKER'" >&2; exit 2; }
shift
CHECK="$*"

for f in "$AUGUR" "$APP" "${CHECK%% *}"; do
  [ -x "$f" ] || { echo "FAIL: $f is not built" >&2; exit 1; }
done

rm -rf "$TRACE"
mkdir -p "$(dirname "$TRACE")"
echo "+ $AUGUR record -o $TRACE -- $MPIEXEC -n $NP $APP$APP_ARGS"
# shellcheck disable=SC2086 # APP_ARGS is a list of plain words
"$AUGUR" record -o "$TRACE" -- "$MPIEXEC" -n "$NP" "$APP" $APP_ARGS
rc=$?
if [ $rc -ne 0 ]; then
  echo "FAIL: augur record exited with status $rc" >&2
  exit 1
fi
[ -f "$TRACE/trace.json" ] || { echo "FAIL: no trace at $TRACE" >&2; exit 1; }

echo "+ $CHECK"
# shellcheck disable=SC2086
exec $CHECK
