#!/bin/sh
# augur web against the network (issue 22, item 5): a request whose Host is
# not one of the server's names (DNS rebinding) gets 421, the server's own
# names 200; with 300 clients dripping a request a byte every 0.4 s (10 of
# them whole headers, then a body), a
# legitimate request is still answered within 1 s, and every dripping
# connection is closed at the request deadline (--timeout 2: by 3.5 s).
. "$(dirname "$0")/../monitoring/lib.sh"
cd "$D" || exit 1
start_augurd
expect 0 - "$AUGUR" profile --collector "127.0.0.1:$PORT" --key "$KEY" --spool "$D/spool" -- true
stop_augurd
rm -f "$D/web.port"
"$AUGUR" web --db "$DB" --listen 127.0.0.1:0 --port-file "$D/web.port" --timeout 2 \
  --allow-host augur.example,other.example 2>"$D/web.log" &
WEB_PID=$!
trap 'kill $WEB_PID 2>/dev/null; wait $WEB_PID 2>/dev/null' EXIT
i=0
while [ ! -s "$D/web.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
WPORT=$(cat "$D/web.port")
PYTHONPATH="$(dirname "$0")/../monitoring" python3 - "$WPORT" <<'PY' || fail "Host names and slow clients (see above)"
import socket, sys, time
from craft import Drip, closed_by
port = int(sys.argv[1])
ok = True

def status(host, version="1.1"):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    h = "Host: %s\r\n" % host if host is not None else ""
    s.sendall(("GET / HTTP/%s\r\n%sConnection: close\r\n\r\n" % (version, h)).encode())
    got = b""
    while b"\r\n" not in got:
        b = s.recv(4096)
        if not b:
            break
        got += b
    s.close()
    return int(got.split(b" ")[1]) if got.startswith(b"HTTP/") else None

for host, want in [("evil.example", 421), ("evil.example:%d" % port, 421),
                   ("127.0.0.1.evil.example:%d" % port, 421), ("localhost:1", 421),
                   ("localhost:%d" % port, 200), ("LOCALHOST", 200), ("127.0.0.1:%d" % port, 200),
                   ("[::1]:%d" % port, 200), ("augur.example:%d" % port, 200),
                   ("other.example", 200), (socket.gethostname(), 200)]:
    got = status(host)
    if got != want:
        ok = False
        print("FAIL: Host %s: %r, want %d" % (host, got, want))
if status(None, "1.0") != 200:
    ok = False
    print("FAIL: HTTP/1.0 without Host refused")
if status(None) != 400:
    ok = False
    print("FAIL: HTTP/1.1 without Host not refused")

slow = Drip(port, 290, ("GET / HTTP/1.1\r\nHost: localhost:%d\r\n" % port).encode(), 0.4)
# 10 of them send whole headers announcing a body, then drip the body.
body = Drip(port, 10, b"x" * 100, 0.4, head=("POST / HTTP/1.1\r\nHost: localhost:%d\r\n"
                                           "Content-Length: 100\r\n\r\n" % port).encode())
t_open = time.monotonic()
time.sleep(0.5)
for k in range(2):
    t0 = time.monotonic()
    try:
        got = status("localhost:%d" % port)
    except OSError as e:
        got = repr(e)
    took = time.monotonic() - t0
    print("legitimate request with 300 slow clients connected: %r in %.3f s" % (got, took))
    if got != 200 or took > 1.0:
        ok = False
        print("FAIL: want 200 within 1 s")
    time.sleep(0.5)
closed = closed_by(slow.socks + body.socks, t_open + 3.5)
slow.end()
body.end()
print("slow clients closed within 3.5 s: %d of 300" % closed)
if closed != 300:
    ok = False
    print("FAIL: %d slow connections still open after the deadline" % (300 - closed))
sys.exit(0 if ok else 1)
PY
contains "$D/web.log" "without a whole request within 2 s"
n=$(grep -c "augur web: closed" "$D/web.log")
[ "$n" -le 8 ] || fail "$n log lines for the closed connections, want a few"
finish
