#!/bin/sh
# The database fails under augurd, records are not lost:
#  1. locked: another process holds an exclusive lock on the SQLite file for
#     longer than augurd's busy timeout (5 s). augurd logs the failure and
#     answers "retry"; the sender retries and the record is stored once the
#     lock is gone, within the sender's deadline.
#  2. locked for longer than the sender's deadline: the record is spooled;
#     after the lock is gone a flush delivers it. augurd may also have
#     committed it late (its busy wait outlived the sender): then the flush
#     is acknowledged as a duplicate. Either way: stored exactly once.
#  3. full: the database lives on a small tmpfs that is filled up. augurd
#     logs "database or disk is full", the record is spooled; space is freed,
#     a flush delivers it, stored once. Needs mount (root): skipped otherwise.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
export AUGUR_KEY_FILE="$KEY" AUGUR_SPOOL="$D/spool"
spooled() { ls "$D/spool" 2>/dev/null | grep -c '\.rec$'; }

# hold_lock SECONDS: an exclusive transaction on $DB for that long; returns
# once the lock is taken (file $D/locked).
hold_lock() {
  rm -f "$D/locked"
  /usr/bin/python3 - "$DB" "$1" "$D/locked" <<'EOF' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[3], "w").close()
time.sleep(float(sys.argv[2]))
c.execute("ROLLBACK")
EOF
  LOCK_PID=$!
  i=0
  while [ ! -e "$D/locked" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
  [ -e "$D/locked" ] || fail "could not lock $DB"
}

# 1. Locked for 6 s, sender deadline 15 s: retried, stored, not spooled.
start_augurd
export AUGUR_COLLECTOR="127.0.0.1:$PORT"
expect 0 - "$AUGUR" profile -- true # creates the schema, one job
hold_lock 6
AUGUR_SEND_DEADLINE_MS=15000 expect 0 - "$AUGUR" profile -- true
wait "$LOCK_PID"
contains "$LOG" "store failed"
contains "$LOG" "database is locked"
[ "$(spooled)" = 0 ] || fail "a retried record was spooled"
[ "$(jobs_in_db)" = 2 ] || fail "want 2 jobs after a lock, got $(jobs_in_db)"

# 2. Locked for 4 s, sender deadline 1 s: spooled, then delivered once.
hold_lock 4
AUGUR_SEND_DEADLINE_MS=1000 expect 0 - "$AUGUR" profile -- true
contains "$D/err" "spooled"
[ "$(spooled)" = 1 ] || fail "want 1 spooled record while locked, got $(spooled)"
wait "$LOCK_PID"
expect 0 1 "$AUGUR" profile --flush
contains "$D/err" "1 record delivered, 0 left"
[ "$(jobs_in_db)" = 3 ] || fail "want 3 jobs after the spool drained, got $(jobs_in_db)"
stop_augurd

# 3. Disk full: a 2 MiB tmpfs, filled once the schema exists.
mkdir -p "$D/small"
if ! mount -t tmpfs -o size=2m tmpfs "$D/small" 2>/dev/null; then
  echo "full-disk case skipped: cannot mount a tmpfs (needs root)"
  finish
fi
trap 'stop_augurd; umount "$D/small" 2>/dev/null' EXIT
DB="$D/small/augur.db"
start_augurd
export AUGUR_COLLECTOR="127.0.0.1:$PORT"
expect 0 - "$AUGUR" profile -- true
dd if=/dev/zero of="$D/small/filler" bs=64k 2>/dev/null # stops at ENOSPC
AUGUR_SEND_DEADLINE_MS=1000 expect 0 - "$AUGUR" profile -- sh -c 'sleep 0.1 & sleep 0.1 & wait'
contains "$D/err" "spooled"
contains "$LOG" "store failed"
contains "$LOG" "full"
[ "$(spooled)" = 1 ] || fail "want 1 spooled record on a full disk, got $(spooled)"
rm -f "$D/small/filler"
expect 0 1 "$AUGUR" profile --flush
contains "$D/err" "1 record delivered, 0 left"
[ "$(jobs_in_db)" = 2 ] || fail "want 2 jobs after space was freed, got $(jobs_in_db)"
# The whole record made it: every process the job header announces.
set -- $(/usr/bin/python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('select count(*) from process').fetchone()[0], c.execute('select sum(nprocs) from job').fetchone()[0])" "$DB")
[ "$1" = "$2" ] && [ "$1" -ge 4 ] || fail "want every announced process stored (>= 4), got $1 of $2"
stop_augurd
contains "$LOG" "failed transactions (retried by their senders)"
grep -q "stopping: .* [1-9][0-9]* failed transactions" "$LOG" || fail "augurd's summary does not count the failed transactions"
umount "$D/small" || fail "tmpfs still busy"
finish
