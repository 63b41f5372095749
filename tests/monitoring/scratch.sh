#!/bin/sh
# What `augur profile` reads from a job's scratch directory, which the job
# itself writes (issue 22, items 7 and 8):
#  - a 2.1 GB sparse record file planted there is skipped and named, and
#    costs no memory (peak RSS measured); the job's real processes remain;
#  - files that together pass the cap: the one that does not fit is skipped;
#  - a process that ends before it starts (a clock step) keeps the job: the
#    record is written and stored with that process flagged bad_time, and
#    augur profile exits with the command's status (0);
#  - the wall clock stepped back while the job runs (preloaded shim): no
#    time ends before it starts, in the job or its processes.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
REC=2136 # sizeof(augp_proc): mon_record.h, its layout checked at compile time
start_augurd
export AUGUR_COLLECTOR="127.0.0.1:$PORT" AUGUR_KEY_FILE="$KEY" AUGUR_SPOOL="$D/spool"
db() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$DB" "$1"; }

# 1. One 2.1 GB file (1,000,000 records of zeros, sparse).
expect 0 - /usr/bin/time -f %M -o "$D/rss" "$AUGUR" profile -o big.json -- \
  sh -c "truncate -s $((REC * 1000000)) \"\$AUGUR_PROFILE_DIR/big.rec\""
rss=$(tail -1 "$D/rss")
echo "peak RSS with a 2.1 GB record file in scratch: $rss KiB"
# The cap is 64 MiB of records; nothing near it is read here.
[ "$rss" -lt 200000 ] || fail "augur profile used $rss KiB with a 2.1 GB file in scratch"
contains "$D/err" "1 record file of"
contains "$D/err" "big.rec): over the 64 MiB"
python3 - big.json <<'PY' || fail "big.json: the job's own process is missing"
import json, sys
j = json.load(open(sys.argv[1]))
assert any(p["program"].endswith("/sh") or "dash" in p["program"] for p in j["processes"]), j["processes"]
PY
[ "$(jobs_in_db)" = 1 ] || fail "the job was not stored"

# 2. Two files of 42.7 MB each: together over the 64 MiB, one is skipped;
# the other's records (zeros: no host) are left out, the job kept.
expect 0 - "$AUGUR" profile -o two.json -- sh -c \
  "truncate -s $((REC * 20000)) \"\$AUGUR_PROFILE_DIR/a.rec\" \"\$AUGUR_PROFILE_DIR/b.rec\""
contains "$D/err" "1 record file of"
contains "$D/err" "20000 records of"
contains "$D/err" "left out, not a process summary ("
contains "$D/err" ".rec: process 0 has no host)"
[ "$(jobs_in_db)" = 2 ] || fail "the job with oversized scratch was not stored"

# 3. A process record whose end precedes its start.
expect 0 - "$AUGUR" profile -o step.json -- python3 -c '
import os, struct
r = bytearray(2136)
r[0:6] = b"node1\0"
r[64:70] = b"/bin/x"
r[448:496] = struct.pack("<QQqqQQ", 4242, 1, -1, -1, 2000000000, 1000000000)
open(os.path.join(os.environ["AUGUR_PROFILE_DIR"], "stepped.rec"), "wb").write(r)'
contains "$D/err" "ends before it starts (a clock step?): kept, flagged bad_time"
python3 - step.json <<'PY' || fail "step.json: the stepped process is not flagged"
import json, sys
j = json.load(open(sys.argv[1]))
p = [p for p in j["processes"] if p["pid"] == 4242]
assert len(p) == 1 and "bad_time" in p[0]["flags"] and p[0]["end_ns"] == p[0]["start_ns"], p
assert len(j["processes"]) >= 2, "the job's other processes are gone"
PY
[ "$(db 'select count(*) from process where pid = 4242 and flags & 32')" = 1 ] ||
  fail "the stepped process is not stored flagged"
[ "$(jobs_in_db)" = 3 ] || fail "the job with a stepped process was not stored"

# 4. The wall clock steps back an hour while the job runs (a preloaded
# CLOCK_REALTIME shim, in augur and in the job): the job and its processes
# end start + their monotonic duration, so nothing ends before it starts,
# nothing is flagged, and the durations are the real ones (>= 0.3 s).
expect 0 - env LD_PRELOAD="$CLOCKSTEP" "$AUGUR" profile -o clock.json -- sh -c 'sleep 0.3'
python3 - clock.json <<'PY' || fail "clock.json: times broken by a clock step"
import json, sys
j = json.load(open(sys.argv[1]))
assert 3e8 <= j["end_ns"] - j["start_ns"] < 3600e9, ("job", j["start_ns"], j["end_ns"])
for p in j["processes"]:
    assert "bad_time" not in p["flags"], p
    assert 0 <= p["end_ns"] - p["start_ns"] < 3600e9, p
assert any(p["end_ns"] - p["start_ns"] >= 3e8 for p in j["processes"]), j["processes"]
PY
[ "$(jobs_in_db)" = 4 ] || fail "the job with a clock step was not stored"
[ -z "$(ls -A "$D/spool" 2>/dev/null)" ] || fail "something was spooled: $(ls -A "$D/spool")"
finish
