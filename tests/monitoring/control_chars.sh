#!/bin/sh
# Control characters from senders never reach a log or a terminal raw
# (issue 22, item 6): a job id set through SLURM_JOB_ID that carries a
# newline, a fake log line and an escape sequence is logged by augurd
# escaped; `augur jobs` prints job ids, users, clusters, commands, node and
# program names with C0/C1 controls, DEL and invalid UTF-8 escaped (\xHH),
# valid UTF-8 kept.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
start_augurd
ESC=$(printf '\033')
evil=$(printf 'x\n2026-01-01T00:00:00Z augurd info: stored job FAKE\033[2J')
SLURM_JOB_ID="$evil" expect 0 - "$AUGUR" profile --collector "127.0.0.1:$PORT" --key "$KEY" \
  --spool "$D/spool" -- true
PYTHONPATH="$(dirname "$0")" python3 - "$PORT" "$KEY" <<'PY' || fail "crafted record not stored"
import sys
from craft import *
port, key = int(sys.argv[1]), open(sys.argv[2], "rb").read().rstrip(b"\r\n")
p = proc(host=b"evil\x1b]0;pwned\x07", program=b"/bin/a\x7fpp\xff")
j = job(b"\x55" * 16, [p], job_id=b"ctl\rjob", user=b"u\x9b", cluster=b"c\x1b[31m",
        command="caf\u00e9 \u009b31m ok")
sys.exit(0 if send(port, frame(key, j)) == 0 else 1)
PY
stop_augurd
[ "$(jobs_in_db)" = 2 ] || fail "want 2 jobs stored: $(cat "$LOG")"
# The log: the job id escaped, on its own line, no escape character.
contains "$LOG" 'stored job x\x0a2026-01-01T00:00:00Z augurd info: stored job FAKE\x1b[2J'
grep -q '^2026-01-01T00:00:00Z augurd info: stored job FAKE' "$LOG" && fail "a fake log line in $LOG"
grep -q "$ESC" "$LOG" && fail "an escape character in $LOG"
# augur jobs: the list and the job's processes.
expect 0 0 "$AUGUR" jobs --db "$DB"
cp "$D/out" "$D/list"
expect 0 0 "$AUGUR" jobs --db "$DB" 5555555555
cat "$D/out" >>"$D/list"
python3 - "$D/list" <<'PY' || fail "raw control characters on the terminal: $(od -c "$D/list" | head -20)"
import sys
b = open(sys.argv[1], "rb").read()
bad = [c for c in b if (c < 0x20 and c != 0x0a) or c == 0x7f or c == 0x9b]
lines = b.decode("utf-8").splitlines()   # valid UTF-8 as a whole
want = [r"x\x0a2026", r"ctl\x0djob", r"u\x9b", r"c\x1b[31m", "caf\u00e9 \\xc2\\x9b31m ok",
        r"evil\x1b]0;p", r"a\x7fpp\xff"]
missing = [w for w in want if w not in b.decode("utf-8")]
fake = [l for l in lines if l.startswith("2026-01-01")]
print("raw controls: %d, missing: %s, fake lines: %d" % (len(bad), missing, len(fake)))
sys.exit(1 if bad or missing or fake else 0)
PY
finish
