# Shared by tests/export/*.sh. Environment from CTest: AUGUR (the CLI), APPS
# (MPICH apps folder), MPIEXEC (MPICH's launcher), PY (/usr/bin/python3),
# WORK (scratch root), NAME (test name).
. "$(dirname "$0")/../lib.sh"
HERE="$(dirname "$0")"

# record NAME APP ARGS...: a 2-rank MPICH trace $D/NAME.augur and its dump in
# $D/NAME.dump. Exits 77 (skipped) when the MPICH recorder is not built.
record() {
  n=$1
  app=$2
  shift 2
  lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
  if [ ! -f "$lib" ] || [ ! -x "$APPS/$app" ]; then
    echo "skipped: $lib or $APPS/$app not built"
    exit 77
  fi
  "$AUGUR" record -o "$D/$n.augur" -- "$MPIEXEC" -n 2 "$APPS/$app" "$@" >"$D/rec.out" 2>&1 ||
    { fail "record $app: $(cat "$D/rec.out")"; finish; }
  "$AUGUR" dump "$D/$n.augur" >"$D/$n.dump" || { fail "dump $n"; finish; }
}
