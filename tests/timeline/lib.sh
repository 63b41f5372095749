# Shared by tests/timeline/*.sh. Environment from CTest: AUGUR (the CLI),
# PY (Debian's /usr/bin/python3), CHECK (check_timeline.py), WORK (scratch
# root shared by the tests: the recorded trace lives in $WORK/stencil.augur),
# NAME (test name).
. "$(dirname "$0")/../lib.sh"
TRACE="$WORK/stencil.augur"

need_trace() {
  if [ ! -f "$TRACE/trace.json" ]; then
    echo "skipped: no recorded trace ($TRACE); timeline_record did not run"
    exit 77
  fi
}
