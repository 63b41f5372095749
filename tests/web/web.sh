#!/bin/sh
# augur web end to end: a real augurd, an MPI job (rank 1 computes twice as
# long) and a non-MPI job sent by `augur profile`, then `augur web` on a free
# port: the pages and their content (python urllib), bad parameters (400),
# the token (403), and headless Chromium following a drill-down link from
# the job page to a rank's threads, plus a screenshot that is not blank.
# Usage: web.sh MPIEXEC APP (environment: AUGUR, AUGURD, WORK, NAME, MPIENV, CHECK)
MPIEXEC=$1
APP=$2
. "$(dirname "$0")/../monitoring/lib.sh"
. "$MPIENV"
cd "$D" || exit 1
# VERBOSE_TIMES=1: where the seconds go.
stamp() { [ -n "${VERBOSE_TIMES:-}" ] && echo "$(date +%s.%N | cut -c1-14) $*"; return 0; }
stamp start
WEB_PIDS=""
stop_all() {
  for p in $WEB_PIDS; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
  stop_augurd
}
trap 'stop_all' EXIT

# start_web NAME ARGS...: augur web on a free port; sets BASE.
start_web() {
  n=$1
  shift
  rm -f "$D/$n.port"
  "$AUGUR" web --db "$DB" --listen 127.0.0.1:0 --port-file "$D/$n.port" "$@" 2>"$D/$n.log" &
  WEB_PIDS="$WEB_PIDS $!"
  i=0
  while [ ! -s "$D/$n.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
  [ -s "$D/$n.port" ] || { fail "augur web did not start: $(cat "$D/$n.log")"; finish; }
  BASE="http://127.0.0.1:$(cat "$D/$n.port")"
}

# wait_rc NAME...: the chrome runs (lib.sh) are done. Not `wait`: that
# would also wait for augurd and augur web, which run until killed.
wait_rc() {
  for n in "$@"; do
    i=0
    while [ ! -s "$D/$n.rc" ] && [ $i -lt 1400 ]; do sleep 0.05; i=$((i + 1)); done
  done
}

start_augurd
export AUGUR_COLLECTOR="127.0.0.1:$PORT" AUGUR_KEY_FILE="$KEY" AUGUR_SPOOL="$D/spool"
# The non-MPI job's command carries markup: the pages must show it escaped.
expect 0 - "$AUGUR" profile -- sh -c 'true "<script>alert(1)</script>"; ls >/dev/null'
expect 0 - "$AUGUR" profile --level 2 -- "$MPIEXEC" -n 2 "$APP" 0.25 "$D"
[ "$(jobs_in_db)" = 2 ] || { fail "want 2 jobs in the database: $(cat "$LOG")"; finish; }
rows=$(python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
mpi = c.execute('select j.id from job j where j.command like \"%-n 2%\"').fetchone()[0]
other = c.execute('select id from job where id != ?', (mpi,)).fetchone()[0]
print(mpi, other)" "$DB")
MPIJOB=${rows% *}
OTHERJOB=${rows#* }

# Start-up errors: no token off loopback, missing database, bad --listen.
expect 2 1 "$AUGUR" web --db "$DB" --listen 0.0.0.0:0
expect 1 1 "$AUGUR" web --db "$D/no-such.db" --listen 127.0.0.1:0
expect 2 1 "$AUGUR" web --db "$DB" --listen nonsense
expect 2 1 "$AUGUR" web --db "$DB" --listen 127.0.0.1:70000
expect 2 1 "$AUGUR" web --db "$DB" --token short
expect 2 1 "$AUGUR" web --db "$DB" --token "has space;and=more"
expect 2 1 "$AUGUR" web --db "$DB" --frobnicate
expect 0 0 "$AUGUR" web --help
contains "$D/out" "--listen"

start_web web
stamp web up
"$PY" "$CHECK" pages "$BASE" "$MPIJOB" "$OTHERJOB" "$DB" || fail "pages (see above)"
# The database was opened read-only: nothing written by serving.
python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute('select count(*) from job').fetchone()[0] == 2" "$DB" || fail "database changed"

stamp pages checked
start_web tok --token "s3cret-token-for-tests"
"$PY" "$CHECK" token "$BASE" "s3cret-token-for-tests" || fail "token (see above)"
BASE=http://127.0.0.1:$(cat "$D/web.port")

# Headless Chromium: the job page (bar view) as a DOM and a screenshot,
# then the drill-down link it holds, followed.
stamp token checked
need_chromium
chrome job --dump-dom "$BASE/?job=$MPIJOB&view=bar"
chrome shot --screenshot="$D/job.png" --window-size=1200,900 "$BASE/?job=$MPIJOB&view=bar"
wait_rc job shot
stamp chromium job page
ok job && ok shot
NEXT=$("$PY" "$CHECK" link "$D/job.out") || fail "no drill-down link in the job page's DOM"
case "$NEXT" in
/\?*) ;;
*) fail "drill-down link '$NEXT' is not a page link" ;;
esac
chrome drill --dump-dom "$BASE$(printf '%s' "$NEXT" | sed 's/&amp;/\&/g')"
wait_rc drill
stamp chromium drill-down
ok drill && { "$PY" "$CHECK" threads "$D/drill.out" || fail "the drill-down page"; }
[ -s "$D/job.png" ] && { "$PY" "$CHECK" png "$D/job.png" 1200 900 6 || fail "screenshot"; }
rm -rf "$D"/profile-*
finish
