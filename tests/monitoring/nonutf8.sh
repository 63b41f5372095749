#!/bin/sh
# Issue 22 item 4: text that is not UTF-8 (a command line and a program path
# with the byte 0xff, as Linux allows) must not make a job, its command or its
# program vanish from the JSON outputs: the bad byte becomes U+FFFD.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
start_augurd
export AUGUR_COLLECTOR="127.0.0.1:$PORT" AUGUR_KEY_FILE="$KEY" AUGUR_SPOOL="$D/spool"
FF=$(printf 'a\377b')
cp /bin/true "$D/tr${FF}ue"

expect 0 - "$AUGUR" profile -- sh -c 'true' "$FF"
expect 0 - "$AUGUR" profile -o "$D/job.json" -- "$D/tr${FF}ue" "x${FF}y"
expect 0 - "$AUGUR" profile -- sh -c 'true' plain
[ "$(jobs_in_db)" = 3 ] || fail "want 3 jobs in the database, got $(jobs_in_db); log: $(cat "$LOG")"

python3 - "$D/job.json" <<'PY' || fail "-o record (see above)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"].endswith("xa\ufffdby"), d.get("command")
progs = [p.get("program") for p in d["processes"]]
assert any(p and p.endswith("/tr" + "a\ufffdb" + "ue") for p in progs), progs
PY

expect 0 0 "$AUGUR" jobs --db "$DB" --json
python3 - "$D/out" <<'PY' || fail "job list (see above)"
import json, sys
jobs = json.load(open(sys.argv[1]))
assert len(jobs) == 3, [j.get("command") for j in jobs]
cmds = [j["command"] for j in jobs]
assert sum("a\ufffdb" in c for c in cmds) == 2, cmds
PY
# The job's row id from the database itself, so this check does not depend on
# the list above.
ID=$(python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.text_factory = bytes
print([i for i, cmd in c.execute('select id, command from job') if cmd.endswith(b'xa\\xffby')][0])" "$DB")

expect 0 0 "$AUGUR" jobs --db "$DB" "#$ID" --json --by process
python3 - "$D/out" <<'PY' || fail "per-process rows (see above)"
import json, sys
d = json.load(open(sys.argv[1]))
progs = [r.get("program") for r in d["rows"]]
assert progs and all(p is not None for p in progs), progs
assert any(p.endswith("/tra\ufffdbue") for p in progs), progs
PY
# The text table shows the bytes escaped (a\xffb: augur_text_safe, as control
# characters, so a terminal never gets raw bytes), not dropped.
expect 0 0 "$AUGUR" jobs --db "$DB"
grep -qF 'true a\xffb' "$D/out" || fail "the text list lost the command's bytes"
finish
