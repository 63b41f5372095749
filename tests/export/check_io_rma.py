"""Checks an export of exp_io_rma's trace (tests/export/exp_io_rma.c) against what
the program does at N ranks (each rank r, next = (r + 1) % N):

  MPI-IO: 1 open, 1 close, writes of 1000 (write_at), 500 (iwrite_at), 256
  (write_at_all) bytes, reads of 200 (read_at_all_begin/end), 100 (read_at), 300
  (iread_at) bytes, 1 sync; rank 0 deletes the file.
  One-sided: 1 window (Win_allocate); puts of 64, 16, 128 (Rput) bytes, a get of 32
  bytes, Accumulate 64 B, Fetch_and_op 8/8 B, Compare_and_swap 16/8 B, all to next;
  2 fences, post/start/complete/wait, lock/unlock of next, lock_all/unlock_all.
  Neighbourhood: one Neighbor_allgather of an int over 2 neighbours (8 B each way).

usage: check_io_rma.py chrome FILE.json N
       check_io_rma.py paraver PREFIX N
       check_io_rma.py otf2 PRINT.txt N DEFS.txt
Prints each failed expectation; exit status 1 if any."""
import collections
import json
import re
import sys

WRITES = [1000, 500, 256]
READS = [200, 100, 300]
PUTS = [64, 16, 128]
GETS = [32]
# Accumulate, Fetch_and_op, Compare_and_swap: (origin bytes, result bytes)
ATOMICS = [(64, 0), (8, 8), (16, 8)]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def chrome(path, n):
    doc = json.load(open(path))
    ev = doc["traceEvents"]
    for r in range(n):
        nxt = (r + 1) % n
        xs = [e for e in ev if e.get("ph") == "X" and e.get("tid") == r and e.get("cat") == "mpi"]
        io = [e for e in xs if e["name"].startswith("MPI_File_")]
        files = {e["args"].get("file") for e in io}
        want = 11 if r == 0 else 10
        check(len(io) == want, f"rank {r}: {len(io)} MPI_File_* slices, want {want}")
        check(len(files) == 1 and all(f and "augur-exp-io-" in f for f in files),
              f"rank {r}: MPI-IO slices' file {files}")
        wr = sorted(e["args"].get("bytes", 0) for e in io if "write" in e["name"])
        check(wr == sorted(WRITES), f"rank {r}: write bytes {wr}, want {sorted(WRITES)}")
        rd = sorted(e["args"].get("bytes_recv", 0) for e in io
                    if "read" in e["name"] and not e["name"].endswith("_end"))
        check(rd == sorted(READS), f"rank {r}: read bytes {rd}, want {sorted(READS)}")
        offs = [e["args"].get("offset") for e in io if e["name"] == "MPI_File_write_at"]
        check(offs == [r * 1000], f"rank {r}: write_at offset {offs}")
        puts = [e for e in xs if e["name"] in ("MPI_Put", "MPI_Rput")]
        check(sorted(e["args"].get("bytes", 0) for e in puts) == sorted(PUTS),
              f"rank {r}: put bytes {[e['args'] for e in puts]}")
        data = [e for e in xs if e["name"] in ("MPI_Put", "MPI_Rput", "MPI_Get", "MPI_Accumulate",
                                                "MPI_Fetch_and_op", "MPI_Compare_and_swap")]
        check(len(data) == 7 and all(e["args"].get("target") == nxt for e in data),
              f"rank {r}: one-sided data calls / targets {[(e['name'], e['args'].get('target')) for e in data]}")
        wins = {e["args"].get("window") for e in xs if e["name"].startswith("MPI_Win_") or e in data}
        check(len(wins) == 1 and None not in wins, f"rank {r}: windows {wins}")
        alloc = [e for e in xs if e["name"] == "MPI_Win_allocate"]
        check(len(alloc) == 1 and alloc[0]["args"].get("window") in wins and
              alloc[0]["args"].get("comm") == "world", f"rank {r}: Win_allocate args")
        s = [e for e in ev if e.get("ph") == "s" and e.get("cat") == "rma" and e.get("tid") == r]
        ids = {e["id"] for e in s}
        f = [e for e in ev if e.get("ph") == "f" and e.get("cat") == "rma" and e.get("id") in ids]
        check(len(s) == 7 and len(f) == 7 and all(e["tid"] == nxt for e in f),
              f"rank {r}: {len(s)} one-sided flows from it, {len(f)} ends")
        check(sorted(e["args"]["bytes"] for e in s if e["name"] == "put") == sorted(PUTS),
              f"rank {r}: put flows' bytes")
        check([e["args"]["bytes_recv"] for e in s if e["name"] == "get"] == GETS,
              f"rank {r}: get flow's bytes")
    check(doc["otherData"].get("rma_flows") == 7 * n, "otherData rma_flows")


def paraver(prefix, n):
    pcf = open(prefix + ".pcf").read()
    for name in ("MPI_File_open", "MPI_File_write_at_all", "MPI_Put", "MPI_Win_fence",
                 "MPI_Neighbor_allgather", "I/O", "Remote memory access", "MPI-IO file",
                 "RMA target", "RMA bytes"):
        check(name in pcf, f".pcf: no {name}")
    check(re.search(r"^1\s+/tmp/augur-exp-io-\d+\.dat$", pcf, re.M) is not None,
          ".pcf: the file's name as value 1 of the MPI-IO file event")
    lines = open(prefix + ".prv").read().splitlines()[1:]
    states = collections.Counter()
    ev = collections.defaultdict(list)
    comms = []
    for ln in lines:
        f = ln.split(":")
        if f[0] == "1":
            states[(int(f[3]), int(f[7]))] += 1
        elif f[0] == "2":
            for k in range(6, len(f), 2):
                ev[(int(f[3]), int(f[k]))].append(int(f[k + 1]))
        elif f[0] == "3":
            comms.append(f)
    # the only messages: Neighbor_allgather's, one int to each of 2 neighbours (no one-sided ones)
    check(len(comms) == 2 * n and all(c[13] == "4" for c in comms),
          f"communications: {len(comms)}, want {2 * n} of 4 bytes")
    for r in range(n):
        t = r + 1
        want = 11 if r == 0 else 10
        check(states[(t, 12)] == want, f"task {t}: {states[(t, 12)]} I/O states, want {want}")
        check(sum(ev[(t, 50000004)]) == sum(WRITES) + sum(READS),
              f"task {t}: MPI-IO bytes {ev[(t, 50000004)]}")
        check(set(ev[(t, 50000005)]) == {1}, f"task {t}: MPI-IO file values {set(ev[(t, 50000005)])}")
        nxt = (r + 1) % n
        check(ev[(t, 50000007)] == [nxt + 1] * 7, f"task {t}: RMA targets {ev[(t, 50000007)]}")
        check(sum(ev[(t, 50000006)]) == sum(PUTS) + sum(GETS) + sum(a + b for a, b in ATOMICS),
              f"task {t}: RMA bytes {ev[(t, 50000006)]}")
        check(states[(t, 20)] == 4 and states[(t, 21)] == 3 and states[(t, 23)] == 4,
              f"task {t}: RMA states {[(s, states[(t, s)]) for s in (20, 21, 22, 23)]}")


def otf2(path, n, defs):
    recs = collections.defaultdict(list)
    for ln in open(path):
        m = re.match(r"^([A-Z_]+)\s+(\d+)\s+(\d+)\s+(.*)$", ln.rstrip("\n"))
        if m:
            recs[(m.group(1), int(m.group(2)) & 0xffffffff)].append(m.group(4))

    def num(s, key):
        m = re.search(key + r": (\d+)", s)
        return int(m.group(1)) if m else None

    for r in range(n):
        def c(k):
            return len(recs[(k, r)])
        for k, want in (("IO_CREATE_HANDLE", 1), ("IO_DESTROY_HANDLE", 1),
                        ("IO_OPERATION_BEGIN", 7), ("IO_OPERATION_ISSUED", 3),
                        ("IO_OPERATION_COMPLETE", 7), ("IO_DELETE_FILE", 1 if r == 0 else 0),
                        ("RMA_WIN_CREATE", 1), ("RMA_WIN_DESTROY", 1),
                        ("RMA_COLLECTIVE_BEGIN", 4), ("RMA_COLLECTIVE_END", 4),
                        ("RMA_GROUP_SYNC", 4), ("RMA_REQUEST_LOCK", 1 + n),
                        ("RMA_RELEASE_LOCK", 1 + n), ("RMA_PUT", 3), ("RMA_GET", 1),
                        ("RMA_ATOMIC", 3), ("RMA_OP_COMPLETE_NON_BLOCKING", 7)):
            check(c(k) == want, f"rank {r}: {c(k)} {k}, want {want}")
        begins = recs[("IO_OPERATION_BEGIN", r)]
        wr = sorted(num(s, "Bytes Request") for s in begins if "Mode: WRITE" in s)
        rd = sorted(num(s, "Bytes Request") for s in begins if "Mode: READ" in s)
        check(wr == sorted(WRITES) and rd == sorted(READS), f"rank {r}: I/O requests {wr} {rd}")
        check(sum("COLLECTIVE" in s for s in begins) == 3,
              f"rank {r}: collective I/O operations (write_at_all, read_at_all_begin, sync)")
        done = sum(num(s, "Bytes Result") for s in recs[("IO_OPERATION_COMPLETE", r)])
        check(done == sum(WRITES) + sum(READS), f"rank {r}: I/O bytes completed {done}")
        puts = sorted(num(s, "Bytes") for s in recs[("RMA_PUT", r)])
        check(puts == sorted(PUTS), f"rank {r}: RMA_PUT bytes {puts}")
        check([num(s, "Bytes") for s in recs[("RMA_GET", r)]] == GETS, f"rank {r}: RMA_GET bytes")
        nxt = (r + 1) % n
        tg = {num(s, "Remote") for k in ("RMA_PUT", "RMA_GET", "RMA_ATOMIC") for s in recs[(k, r)]}
        check(tg == {nxt}, f"rank {r}: RMA targets {tg}")
        ids = {num(s, "Matching") for k in ("RMA_PUT", "RMA_GET", "RMA_ATOMIC") for s in recs[(k, r)]}
        done = {num(s, "Matching") for s in recs[("RMA_OP_COMPLETE_NON_BLOCKING", r)]}
        check(ids == done and len(ids) == 7, f"rank {r}: RMA operations {ids} completed {done}")
        ag = [s for s in recs[("MPI_COLLECTIVE_END", r)] if "ALLGATHER" in s]
        check(len(ag) == 1 and num(ag[0], "Sent") == 8 and num(ag[0], "Received") == 8,
              f"rank {r}: Neighbor_allgather's collective end {ag}")
    d = open(defs).read()
    for k, want in (("IO_PARADIGM", 1), ("IO_REGULAR_FILE", 1), ("IO_HANDLE", 1), ("RMA_WIN", 1)):
        got = len(re.findall("^" + k + r"\s", d, re.M))
        check(got == want, f"definitions: {got} {k}, want {want}")
    check(re.search(r'^IO_REGULAR_FILE .*"/tmp/augur-exp-io-\d+\.dat"', d, re.M) is not None,
          "definitions: the file's name")
    check(re.search(r'^RMA_WIN .*MPI_COMM_WORLD', d, re.M) is not None,
          "definitions: the window on MPI_COMM_WORLD")


def main():
    kind, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if kind == "chrome":
        chrome(path, n)
    elif kind == "paraver":
        paraver(path, n)
    else:
        otf2(path, n, sys.argv[4])
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
