#!/bin/sh
# Bad submissions are refused and logged, never crash augurd: garbage, a
# wrong key, an oversized header, a truncated frame, an authenticated but
# inconsistent record (answered with a "rejected" ack). A valid job is still
# stored afterwards.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
start_augurd
python3 - "$PORT" "$KEY" <<'PY' || fail "raw submissions (see above)"
import errno, hashlib, hmac, socket, struct, sys
port, key = int(sys.argv[1]), open(sys.argv[2], "rb").read().rstrip(b"\r\n")

def frame(payload, k=key, typ=1, length=None):
    hdr = b"AUGR" + struct.pack("<HHII", 1, typ, len(payload) if length is None else length, 0)
    return hdr + payload + hmac.new(k, hdr + payload, hashlib.sha256).digest()

def send(data):
    # augurd closes on bad input, unread bytes and all: a reset is a "no",
    # and so is a connection already gone when we shut our side (ENOTCONN).
    # Anything else (a timeout: augurd must answer or close) fails the test.
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    got = b""
    try:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        while True:
            b = s.recv(4096)
            if not b:
                break
            got += b
    except OSError as e:
        if e.errno not in (errno.ECONNRESET, errno.EPIPE, errno.ENOTCONN):
            raise
    s.close()
    return got

job = bytearray(512)                      # an augp_job header
job[0:16] = b"\x01" * 16                  # uid
job[16:20] = b"j42\x00"                   # job_id
job[112:116] = b"x\x00\x00\x00"           # step
job[144:148] = b"test"                    # cluster
job[496:504] = struct.pack("<Q", 5)       # nprocs = 5, but no process follows
assert send(b"hello, this is not augur\n" * 4) == b""
assert send(frame(bytes(job), k=b"not the key, not the key, not!!")) == b""
assert send(frame(b"", length=0x7FFFFFF0)[:16]) == b""
assert send(frame(bytes(job))[:200]) == b""
reply = send(frame(bytes(job)))
assert len(reply) == 16 + 20 + 32 and reply[16] == 2, reply   # MON_ACK_REJECTED
print("ok")
PY
sleep 0.2
kill -0 "$AUGURD_PID" 2>/dev/null || fail "augurd died"
contains "$LOG" "malformed: bad magic"
contains "$LOG" "unauthenticated: bad signature"
contains "$LOG" "oversized"
contains "$LOG" "truncated frame"
contains "$LOG" "malformed: header says 5 processes"
[ "$(jobs_in_db)" = 0 ] || fail "a rejected record was stored"

expect 0 - "$AUGUR" profile --collector "127.0.0.1:$PORT" --key "$KEY" --spool "$D/spool" -- true
[ "$(jobs_in_db)" = 1 ] || fail "a valid job after the bad ones was not stored: $(cat "$LOG")"

# A record the collector rejects at its first send (a collector that
# answers "rejected" to everything, speaking the wire format with the key)
# is set aside as .rec.rejected at once, not spooled to be sent again.
python3 - "$KEY" "$D/fport" <<'PY' &
import hashlib, hmac, socket, struct, sys
key = open(sys.argv[1], "rb").read().rstrip(b"\r\n")
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(4)
srv.settimeout(60)
open(sys.argv[2], "w").write(str(srv.getsockname()[1]))
c, _ = srv.accept()
def read(n):
    b = b""
    while len(b) < n:
        got = c.recv(n - len(b))
        if not got:
            raise SystemExit(1)
        b += got
    return b
hdr = read(16)
plen = struct.unpack("<I", hdr[8:12])[0]
payload = read(plen + 32)[:plen]
ack = struct.pack("<I", 2) + payload[:16]
ahdr = b"AUGR" + struct.pack("<HHII", 1, 2, len(ack), 0)
c.sendall(ahdr + ack + hmac.new(key, ahdr + ack, hashlib.sha256).digest())
c.close()
PY
FAKE=$!
i=0
while [ ! -s "$D/fport" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
expect 1 - "$AUGUR" profile --collector "127.0.0.1:$(cat "$D/fport")" --key "$KEY" \
  --spool "$D/spool-rej" -- true
wait "$FAKE"
contains "$D/err" "record not sent: the collector rejected the job record; set aside as"
ls "$D/spool-rej" | grep -q '\.rec\.rejected$' || fail "the rejected record was not set aside"
ls "$D/spool-rej" | grep -q '\.rec$' && fail "a rejected record was spooled to be sent again"

# Bad configuration: refused with a message, not a crash.
chmod 644 "$KEY"
expect 1 1 "$AUGURD" --key "$KEY" --db "$D/x.db" --listen 127.0.0.1:0
contains "$D/err" "readable by others"
chmod 600 "$KEY"
expect 2 1 "$AUGURD" --db "$D/x.db"
expect 2 1 "$AUGURD" --key "$KEY" --threads zero
printf 'key = %s  # a comment\nthreads 4\n' "$KEY" >"$D/bad.conf"
expect 2 1 "$AUGURD" -c "$D/bad.conf"
contains "$D/err" "bad.conf:2: expected 'name = value'"
printf 'key = %s\nthreads = 4\ncolour = red\n' "$KEY" >"$D/bad.conf"
expect 2 1 "$AUGURD" -c "$D/bad.conf"
contains "$D/err" "bad.conf:3: unknown setting 'colour'"
finish
