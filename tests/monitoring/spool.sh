#!/bin/sh
# No record lost, none duplicated: augurd is killed (SIGKILL) while a job
# ends -> the record is spooled within the send deadline; augurd comes back
# -> `augur profile --flush` delivers it; the same record sent again (an ack
# lost after the commit) is recognised by its uid and stored once; a later
# job's send also drains the spool.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
start_augurd
P=$PORT
export AUGUR_COLLECTOR="127.0.0.1:$P" AUGUR_KEY_FILE="$KEY" AUGUR_SPOOL="$D/spool"
export AUGUR_SEND_DEADLINE_MS=1500
spooled() { ls "$D/spool" 2>/dev/null | grep -c '\.rec$'; }

t0=$(date +%s%N)
expect 0 - "$AUGUR" profile -- sh -c "kill -9 $AUGURD_PID; sleep 0.2"
t1=$(date +%s%N)
wait "$AUGURD_PID" 2>/dev/null
AUGURD_PID=""
contains "$D/err" "spooled"
[ "$(spooled)" = 1 ] || fail "want 1 spooled record, got $(spooled)"
ms=$(((t1 - t0) / 1000000))
# The bound: deadline (1.5 s) + the job (0.2 s) + start-up; never more.
[ "$ms" -lt 6000 ] || fail "the job waited $ms ms with no collector (deadline 1500 ms)"
REC=$(basename "$(ls "$D/spool/"*.rec)")
cp "$D/spool/$REC" "$D/copy.rec"

# Nothing answers: --flush keeps the record and says so.
expect 1 1 "$AUGUR" profile --flush
contains "$D/err" "0 records delivered, 1 left"

start_augurd "$P"
expect 0 1 "$AUGUR" profile --flush
contains "$D/err" "1 record delivered, 0 left"
[ "$(spooled)" = 0 ] || fail "spool not empty after a flush"
[ "$(jobs_in_db)" = 1 ] || fail "want 1 job stored, got $(jobs_in_db)"

# The same record again: acknowledged as a duplicate, stored once.
cp "$D/copy.rec" "$D/spool/$REC"
expect 0 1 "$AUGUR" profile --flush
contains "$D/err" "1 record delivered"
[ "$(jobs_in_db)" = 1 ] || fail "a repeated record was stored twice ($(jobs_in_db) jobs)"
contains "$LOG" "duplicate"

# A new job drains what is spooled (here the duplicate again) after its own.
cp "$D/copy.rec" "$D/spool/$REC"
expect 0 - "$AUGUR" profile -- true
contains "$D/err" "also delivered 1 spooled record"
[ "$(jobs_in_db)" = 2 ] || fail "want 2 jobs, got $(jobs_in_db)"
[ "$(spooled)" = 0 ] || fail "spool not drained"
finish
