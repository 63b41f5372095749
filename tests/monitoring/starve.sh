#!/bin/sh
# Idle and slow clients cannot starve augurd (issue 22, item 2): with 200
# connections that send nothing and 8 that drip a frame header one byte
# every 0.3 s, a real sender (`augur profile`) is still acknowledged within
# 1 s, nothing is spooled; at io_timeout (2 s here) augurd closes every one
# of them, whole-frame deadline (the drippers never go 2 s without a byte),
# and says so in a few rate-limited log lines, not 208.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
rm -f "$D/port"
"$AUGURD" --listen 127.0.0.1:0 --port-file "$D/port" --db "$DB" --key "$KEY" --io-timeout 2 \
  --log "$LOG" 2>>"$LOG" &
AUGURD_PID=$!
i=0
while [ ! -s "$D/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
PORT=$(cat "$D/port")
PYTHONPATH="$(dirname "$0")" python3 - "$PORT" "$AUGUR" "$KEY" "$D/spool" <<'PY' || fail "latency under idle and slow clients (see above)"
import socket, struct, subprocess, sys, time
from craft import Drip, closed_by
port, augur, key, spool = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(200)]
slow = Drip(port, 8, b"AUGR" + struct.pack("<HHII", 1, 1, 4096, 0), 0.3)
time.sleep(0.5)   # every connection accepted, the drippers dripping
t0 = time.monotonic()
r = subprocess.run([augur, "profile", "--collector", "127.0.0.1:%d" % port, "--key", key,
                    "--spool", spool, "--", "true"], capture_output=True, text=True)
took = time.monotonic() - t0
print("legitimate sender: %.3f s with 200 idle and 8 dripping connections" % took)
ok = r.returncode == 0 and took <= 1.0 and "spooled" not in r.stderr
if not ok:
    print("FAIL: exit %d after %.3f s (want <= 1 s, not spooled): %s" % (r.returncode, took, r.stderr))
# Whole-frame deadline: every idle and dripping connection closed by augurd
# within io_timeout (2 s) of its connect, + 1 s of slack for a loaded machine.
closed = closed_by(idle + slow.socks, t0 - 0.5 + 3.0)
slow.end()
print("closed by augurd within 3 s: %d of 208" % closed)
if closed != 208:
    ok = False
    print("FAIL: %d connections still open past the deadline" % (208 - closed))
sys.exit(0 if ok else 1)
PY
[ "$(jobs_in_db)" = 1 ] || fail "the legitimate job was not stored"
contains "$LOG" "idle for 2 s"
n=$(grep -c "augurd warning: closed" "$LOG")
[ "$n" -ge 1 ] && [ "$n" -le 5 ] || fail "$n log lines for the closed connections, want 1..5 (rate-limited)"
sleep 1.2 # the rate limit's second: the rest is summed up
contains "$LOG" "more slow or idle connections"
stop_augurd
contains "$LOG" "208 slow or idle connections closed"
# Memory: frame buffers together hold at most max(threads, 4) x max_record
# (here 4 x 250000 bytes). Four senders without credentials announce
# 240000-byte frames and send 200000 bytes of them: a real 100-process
# record (213 KiB) cannot get its buffer until their deadline (2 s) frees
# the room, then it is stored (on main it was read at once: 4 workers).
DB="$D/budget.db"
rm -f "$D/port"
"$AUGURD" --listen 127.0.0.1:0 --port-file "$D/port" --db "$DB" --key "$KEY" --io-timeout 2 \
  --threads 1 --max-record 250000 --log "$LOG" 2>>"$LOG" &
AUGURD_PID=$!
i=0
while [ ! -s "$D/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
PORT=$(cat "$D/port")
PYTHONPATH="$(dirname "$0")" python3 - "$PORT" "$KEY" <<'PY' || fail "buffer budget (see above)"
import socket, struct, sys, time
from craft import *
port, key = int(sys.argv[1]), open(sys.argv[2], "rb").read().rstrip(b"\r\n")
hogs = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
for s in hogs:
    s.sendall(b"AUGR" + struct.pack("<HHII", 1, 1, 240000, 0) + b"x" * 200000)
time.sleep(1.0)   # the hogs are cut at 2 s; the record then has 1 s of its own 2 left
t0 = time.monotonic()
st = send(port, frame(key, job(b"\x66" * 16, [proc(rank=i, nranks=100) for i in range(100)])))
took = time.monotonic() - t0
print("a 213 KiB record behind 4 x 200 KB of unauthenticated frames: ack %r after %.2f s" % (st, took))
sys.exit(0 if st == 0 and 0.5 <= took <= 2.5 else 1)
PY
stop_augurd
[ "$(jobs_in_db)" = 1 ] || fail "the record that waited for buffer room was not stored"
# A full table (--max-connections 20, 40 idle connections): the ones that
# waited longest are evicted, a real sender is still served within 1 s.
DB="$D/evict.db"
rm -f "$D/port"
"$AUGURD" --listen 127.0.0.1:0 --port-file "$D/port" --db "$DB" --key "$KEY" --io-timeout 10 \
  --max-connections 20 --log "$LOG" 2>>"$LOG" &
AUGURD_PID=$!
i=0
while [ ! -s "$D/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
PORT=$(cat "$D/port")
PYTHONPATH="$(dirname "$0")" python3 - "$PORT" "$AUGUR" "$KEY" "$D/spool" <<'PY' || fail "full connection table (see above)"
import socket, subprocess, sys, time
from craft import closed_by
port, augur, key, spool = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(40)]
time.sleep(0.3)
t0 = time.monotonic()
r = subprocess.run([augur, "profile", "--collector", "127.0.0.1:%d" % port, "--key", key,
                    "--spool", spool, "--", "true"], capture_output=True, text=True)
took = time.monotonic() - t0
evicted = closed_by(idle, time.monotonic() + 0.5)
print("full table: sender %.3f s, %d of 40 idle connections evicted" % (took, evicted))
sys.exit(0 if r.returncode == 0 and took <= 1.0 and "spooled" not in r.stderr
         and evicted >= 20 else 1)
PY
stop_augurd
[ "$(jobs_in_db)" = 1 ] || fail "the sender facing a full table was not stored"
contains "$LOG" "connection table full"
finish
