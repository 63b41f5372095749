#!/bin/sh
# Absurd values from an authenticated sender are refused (issue 22, item 9):
# times and counters above 2^63-1 (they would be stored negative), nranks
# and pids beyond a C int, MPI time beyond the wall time. Each gets a
# `rejected` ack and a log line naming the process and the field; nothing
# of them is stored. A valid 100-process record (213 KiB, read in several
# pieces) is stored whole.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
start_augurd
PYTHONPATH="$(dirname "$0")" python3 - "$PORT" "$KEY" <<'PY' || fail "crafted records (see above)"
import struct, sys
from craft import *
port, key = int(sys.argv[1]), open(sys.argv[2], "rb").read().rstrip(b"\r\n")
ok = True

def spoiled(n, how):
    procs = [proc(rank=i, nranks=2) for i in range(2)]
    j = bytearray(job(bytes([n]) * 16, procs))
    how(j, 512 + PROC)                    # process 1
    return bytes(j)

cases = {
    "job end_ns 2^63+5": lambda j, p: struct.pack_into("<Q", j, JOB["end_ns"], 2**63 + 5),
    "nranks 2^63-1": lambda j, p: struct.pack_into("<q", j, p + OFF["nranks"], 2**63 - 1),
    "counter cycles 2^64-1": lambda j, p: struct.pack_into("<Q", j, p + OFF["ctr"] + 8, 2**64 - 1),
    "process end_ns 2^64-1": lambda j, p: struct.pack_into("<Q", j, p + OFF["end_ns"], 2**64 - 1),
    "MPI wait 5 s in 1 s": lambda j, p: struct.pack_into("<Q", j, p + OFF["mpi_ns"] + 8, 5 * 10**9),
    "thread 0 cpu_ns 2^63": lambda j, p: struct.pack_into("<Q", j, p + OFF["threads"] + 24, 2**63),
}
for n, (name, how) in enumerate(cases.items(), start=1):
    st = send(port, frame(key, spoiled(n, how)))
    if st != 2:
        ok = False
        print("FAIL: %s: ack %r, want 2 (rejected)" % (name, st))
big = job(b"\x77" * 16, [proc(rank=i, nranks=100) for i in range(100)], job_id="big")
st = send(port, frame(key, big))
if st != 0:
    ok = False
    print("FAIL: a valid 100-process record: ack %r, want 0 (stored)" % st)
sys.exit(0 if ok else 1)
PY
contains "$LOG" "implausible: job start_ns 1000000000000000000, end_ns 9223372036854775813, above 2^63-1"
contains "$LOG" "implausible: process 1 has nranks 9223372036854775807"
contains "$LOG" "implausible: process 1 counter cycles = 18446744073709551615, above 2^63-1"
contains "$LOG" "implausible: process 1 end_ns = 18446744073709551615"
contains "$LOG" "implausible: process 1 spent 5.000 s in MPI and 0.000 s in I/O in 1.000 s of wall time"
contains "$LOG" "implausible: process 1 thread 0 cpu_ns = 9223372036854775808"
[ "$(jobs_in_db)" = 1 ] || fail "want only the valid job stored, got $(jobs_in_db) jobs"
n=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from process').fetchone()[0])" "$DB")
[ "$n" = 100 ] || fail "the 100-process job has $n processes stored"
finish
