# Crafted job records for the monitoring tests: the byte layout of
# augp_job and augp_proc (src/mon/mon_record.h), HMAC-signed frames,
# and one send that returns augurd's ack status.
import hashlib, hmac, socket, struct

PROC = 2136          # sizeof(augp_proc): 448 bytes of strings, 51 u64, 8 threads of 160
THREAD = 160
OFF = {"pid": 448, "ppid": 456, "rank": 464, "nranks": 472, "start_ns": 480, "end_ns": 488,
       "ctr": 584, "mpi_ns": 680, "mpi_calls": 720, "io_ns": 760, "io_calls": 792,
       "nthreads": 848, "threads": 856}
JOB = {"uid_num": 464, "start_ns": 472, "end_ns": 480, "level": 488, "nprocs": 496,
       "exit_status": 504}


def put_str(b, off, size, s):
    s = s.encode() if isinstance(s, str) else s
    assert len(s) < size
    b[off:off + size] = s + b"\0" * (size - len(s))


def proc(rank=-1, nranks=-1, host="node1", program="/bin/app", start=10**18, wall=10**9):
    p = bytearray(PROC)
    put_str(p, 0, 64, host)
    put_str(p, 64, 128, program)
    struct.pack_into("<QQqqQQ", p, 448, 1000, 1, rank, nranks, start, start + wall)
    struct.pack_into("<Q", p, 568, 1)           # level
    struct.pack_into("<Q", p, OFF["nthreads"], 1)
    return p


def job(uid, procs, job_id="j1", user="u", cluster="test", command="./app", start=10**18,
        wall=2 * 10**9):
    j = bytearray(512)
    j[0:16] = uid
    put_str(j, 16, 64, job_id)
    put_str(j, 80, 32, "0")
    put_str(j, 112, 64, cluster)
    put_str(j, 176, 32, user)
    put_str(j, 208, 256, command)
    struct.pack_into("<QQQQQq", j, 464, 0, start, start + wall, 1, len(procs), 0)
    return j + b"".join(procs)


def frame(key, payload):
    hdr = b"AUGR" + struct.pack("<HHII", 1, 1, len(payload), 0)
    return hdr + payload + hmac.new(key, hdr + payload, hashlib.sha256).digest()


def send(port, data):
    """The ack status augurd answers, or None when it closes without one."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(data)
    got = b""
    while len(got) < 16 + 20 + 32:
        b = s.recv(4096)
        if not b:
            break
        got += b
    s.close()
    return got[16] if len(got) >= 17 else None


class Drip:
    """Connections to PORT that send HEAD at once, then DATA one byte at a
    time, every PAUSE seconds, never the last byte (never a whole frame or
    request)."""

    def __init__(self, port, n, data, pause, head=b""):
        import threading
        self.socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(n)]
        for s in self.socks:
            s.sendall(head)   # sent whole: headers, then the body drips
        self.data, self.pause, self.stop = data, pause, False
        self.t = threading.Thread(target=self._run)
        self.t.start()

    def _run(self):
        import time
        i = 0
        while not self.stop and i < len(self.data) - 1:
            for s in self.socks:
                try:
                    s.send(self.data[i:i + 1])
                except OSError:
                    pass
            i += 1
            time.sleep(self.pause)

    def end(self):
        self.stop = True
        self.t.join()


def closed_by(socks, until):
    """How many of SOCKS the server closes by time.monotonic() UNTIL
    (whatever it answered before)."""
    import time
    closed = 0
    for s in socks:
        s.settimeout(max(0.01, until - time.monotonic()))
        try:
            while s.recv(4096):
                pass
            closed += 1
        except ConnectionResetError:
            closed += 1
        except OSError:
            pass
    return closed
