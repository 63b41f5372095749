#!/bin/sh
# A Fortran CALL continued over several lines resolves to its first line.
#
# usage: continued.sh AUGUR LIB MPIEXEC TRACE APP SOURCE
# Records APP on 2 ranks; `augur report --json` must place rank 0's MPI_Send
# at SOURCE's line after "@augur:send" (gfortran's line table has only the
# statement's last line).
set -u
AUGUR=$1 LIB=$2 MPIEXEC=$3 TRACE=$4 APP=$5 SRC=$6
want=$(($(grep -n '@augur:send' "$SRC" | cut -d: -f1) + 1))
rm -rf "$TRACE"
mkdir -p "$(dirname "$TRACE")"
LD_PRELOAD="$LIB" AUGUR_TRACE_DIR="$TRACE" timeout 60 "$MPIEXEC" -n 2 "$APP" ||
  { echo "FAIL: $APP failed"; exit 1; }
"$AUGUR" report "$TRACE" --json >"$TRACE.json" || { echo "FAIL: report failed"; exit 1; }
python3 - "$TRACE.json" "$want" "$(basename "$SRC")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
want, base = int(sys.argv[2]), sys.argv[3]
send = [c for c in r["calls"] if c["call"] == "MPI_Send"]
assert send, "no MPI_Send recorded"
s = send[0]["sites"][0]
assert s["file"] and s["file"].endswith(base), s
assert s["line"] == want, "MPI_Send at line %s, want %d (the CALL's first line)" % (s["line"], want)
print("MPI_Send at %s:%d: ok" % (base, want))
PY
