# Shared by tests/timeline/*.sh. Environment from CTest: AUGUR (the CLI),
# PY (Debian's /usr/bin/python3), CHECK (check_timeline.py), WORK (scratch
# root shared by the tests: the recorded trace lives in $WORK/stencil.augur),
# NAME (test name).
set -u
D="$WORK/$NAME"
rm -rf "$D"
mkdir -p "$D"
TRACE="$WORK/stencil.augur"
failures=0

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

# expect CODE LINES CMD...: runs CMD (stdout, stderr in $D/out, $D/err), checks
# the exit status, no crash, and (LINES not '-') the number of stderr lines.
expect() {
  want=$1
  lines=$2
  shift 2
  "$@" >"$D/out" 2>"$D/err"
  got=$?
  [ "$got" -eq "$want" ] || fail "'$*' exited $got, want $want; stderr: $(cat "$D/err")"
  if [ "$lines" != "-" ]; then
    n=$(wc -l <"$D/err")
    [ "$n" -eq "$lines" ] || fail "'$*' wrote $n stderr lines, want $lines: $(cat "$D/err")"
  fi
  return 0
}

need_trace() {
  if [ ! -f "$TRACE/trace.json" ]; then
    echo "skipped: no recorded trace ($TRACE); timeline_record did not run"
    exit 77
  fi
}
