#!/bin/sh
# Records one run of a Fortran MPI program and checks the trace.
#
# usage: record_check.sh AUGUR|none RECORDER_LIB MPIEXEC NP TRACE APP [APP_ARGS...] -- CHECKER [ARGS...]
#
# With AUGUR (the CLI) the run goes through `augur record -o TRACE --`, the
# way a user records; with "none" (CLI not built) the recorder library is
# preloaded directly.
set -u
[ $# -ge 7 ] || { echo "usage: $0 AUGUR|none LIB MPIEXEC NP TRACE APP [ARGS...] -- CHECKER [ARGS...]" >&2; exit 2; }
AUGUR=$1 LIB=$2 MPIEXEC=$3 NP=$4 TRACE=$5 APP=$6
shift 6
APP_ARGS=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do APP_ARGS="$APP_ARGS $1"; shift; done
[ $# -gt 1 ] || { echo "$0: missing '-- CHECKER'" >&2; exit 2; }
shift
CHECK="$*"

for f in "$APP" "${CHECK%% *}"; do
  [ -x "$f" ] || { echo "FAIL: $f is not built" >&2; exit 1; }
done
rm -rf "$TRACE"
mkdir -p "$(dirname "$TRACE")"
if [ "$AUGUR" != none ]; then
  echo "+ $AUGUR record -o $TRACE -- $MPIEXEC -n $NP $APP$APP_ARGS"
  # shellcheck disable=SC2086 # APP_ARGS is a list of plain words
  "$AUGUR" record -o "$TRACE" -- "$MPIEXEC" -n "$NP" "$APP" $APP_ARGS
else
  [ -f "$LIB" ] || { echo "FAIL: $LIB is not built" >&2; exit 1; }
  echo "+ LD_PRELOAD=$LIB AUGUR_TRACE_DIR=$TRACE $MPIEXEC -n $NP $APP$APP_ARGS"
  # shellcheck disable=SC2086
  LD_PRELOAD="$LIB" AUGUR_TRACE_DIR="$TRACE" "$MPIEXEC" -n "$NP" "$APP" $APP_ARGS
fi
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: the recorded run exited with status $rc" >&2; exit 1; }
[ -f "$TRACE/trace.json" ] || { echo "FAIL: no trace at $TRACE" >&2; exit 1; }
echo "+ $CHECK"
# shellcheck disable=SC2086
exec $CHECK
