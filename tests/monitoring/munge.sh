#!/bin/sh
# MUNGE authentication with a real munged started here (Debian munge):
#  - root and an ordinary user (nobody) send records signed by munged; both
#    are stored, the user's under its own uid;
#  - a user who replays root's record (spooled earlier) is refused: a user
#    may only send records of its own uid ("unauthorized"), and the sender
#    puts the record aside as .rejected;
#  - an HMAC-signed record is refused by a MUNGE augurd ("unauthenticated")
#    and kept in the spool;
#  - munged down: the sender cannot sign, the record is spooled; munged
#    back: the flush delivers it, stored once.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
[ "$(id -u)" = 0 ] || { echo "skipped: needs root (runs a sender as nobody)"; exit 77; }
trap 'stop_augurd; stop_munged' EXIT
start_munged "$D/munge"
chmod 755 "$D/munge" # the socket must be reachable by nobody
AUGURD_KEY="munge:$MUNGE_SOCK"
start_augurd
export AUGUR_COLLECTOR="127.0.0.1:$PORT" AUGUR_KEY_FILE="munge:$MUNGE_SOCK"
export AUGUR_SEND_DEADLINE_MS=1500
spooled() { ls "$1" 2>/dev/null | grep -c '\.rec$'; }
db() { /usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$DB" "$1"; }

# root
AUGUR_SPOOL="$D/spool-root" expect 0 - "$AUGUR" profile -- true
[ "$(jobs_in_db)" = 1 ] || fail "root's record not stored: $(cat "$D/err") $(tail -3 "$LOG")"

# nobody, its own record (its spool must be its own: mode 700, owned by it)
mkdir -p "$D/spool-user" && chown nobody:nogroup "$D/spool-user" && chmod 700 "$D/spool-user"
AUGUR_SPOOL="$D/spool-user" expect 0 - runuser -u nobody -- env AUGUR_SPOOL="$D/spool-user" \
  "$AUGUR" profile -- true
[ "$(jobs_in_db)" = 2 ] || fail "nobody's record not stored: $(cat "$D/err") $(tail -3 "$LOG")"
[ "$(db 'select count(*) from job where uid = 65534')" = 1 ] || fail "nobody's job is not under uid 65534"

# root's record, spooled (no collector), then replayed by nobody: refused.
# A record is bound to the spool that signed it (tests/monitoring/
# spool_attack.sh), so nobody gets root's spool key with it here: the
# collector's uid check is what stops this replay.
AUGUR_COLLECTOR="127.0.0.1:1" AUGUR_SEND_DEADLINE_MS=200 AUGUR_SPOOL="$D/spool-root" \
  expect 0 - "$AUGUR" profile -- true
[ "$(spooled "$D/spool-root")" = 1 ] || fail "root's record was not spooled"
cp "$D/spool-root/"*.rec "$D/spool-root/.key" "$D/spool-user/"
chown nobody:nogroup "$D/spool-user/"*.rec "$D/spool-user/.key"
expect 0 - runuser -u nobody -- env AUGUR_SPOOL="$D/spool-user" "$AUGUR" profile --flush
contains "$LOG" "unauthorized: uid 65534 sent a record of uid 0"
ls "$D/spool-user" | grep -q '\.rejected$' || fail "the refused record was not put aside"
[ "$(jobs_in_db)" = 2 ] || fail "a replayed record of another user was stored"

# An HMAC-signed record to a MUNGE augurd: refused, kept.
AUGUR_KEY_FILE="$KEY" AUGUR_SPOOL="$D/spool-hmac" expect 0 - "$AUGUR" profile -- true
contains "$D/err" "spooled"
contains "$LOG" "unauthenticated: an HMAC-signed frame, this side uses MUNGE"
[ "$(spooled "$D/spool-hmac")" = 1 ] || fail "the HMAC record was not kept"

# munged down: cannot sign -> spooled (within the deadline); back -> delivered.
stop_munged
AUGUR_SPOOL="$D/spool-root" expect 0 - "$AUGUR" profile -- true
contains "$D/err" "spooled"
[ "$(spooled "$D/spool-root")" = 2 ] || fail "want 2 spooled records while munged is down"
start_munged "$D/munge"
AUGUR_SPOOL="$D/spool-root" expect 0 1 "$AUGUR" profile --flush
contains "$D/err" "2 records delivered, 0 left"
[ "$(jobs_in_db)" = 4 ] || fail "want 4 jobs after munged came back, got $(jobs_in_db)"
finish
