# Shared by tests/export/*.sh. Environment from CTest: AUGUR (the CLI), APPS
# (MPICH apps folder), MPIEXEC (MPICH's launcher), PY (/usr/bin/python3),
# WORK (scratch root), NAME (test name).
set -u
D="$WORK/$NAME"
rm -rf "$D"
mkdir -p "$D"
failures=0
HERE="$(dirname "$0")"

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$NAME: $failures failure(s)" >&2
    exit 1
  fi
  echo "$NAME: ok"
  exit 0
}

# expect CODE CMD...: runs CMD with stdout/stderr in $D/out, $D/err and checks
# the exit status (and that it did not crash).
expect() {
  want=$1
  shift
  "$@" >"$D/out" 2>"$D/err"
  got=$?
  [ "$got" -eq "$want" ] || fail "'$*' exited $got, want $want; stderr: $(cat "$D/err")"
  return 0
}

contains() {
  grep -F -q -- "$2" "$1" || fail "$1 does not contain '$2': $(head -c 2000 "$1")"
}

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
