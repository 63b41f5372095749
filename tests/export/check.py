"""Checks augur export outputs against `augur dump` of the same trace.

usage: check.py chrome|paraver|simgrid OUTPUT DUMPFILE
Exit 0 when every check holds; otherwise prints what differs and exits 1."""
import collections
import json
import re
import sys

SENDS = {"MPI_Send", "MPI_Bsend", "MPI_Ssend", "MPI_Rsend", "MPI_Isend", "MPI_Ibsend",
         "MPI_Issend", "MPI_Irsend", "MPI_Sendrecv", "MPI_Sendrecv_replace"}


def parse_dump(path):
    """Parent calls as (rank, name, peer) from `augur dump`'s text."""
    calls = []
    with open(path) as f:
        next(f)  # header
        for line in f:
            tok = line.split()
            names = [i for i, t in enumerate(tok) if t.startswith("MPI_")]
            if not names:
                continue  # sub-record
            i = names[0]
            rank = int(tok[i - 2])
            peer = tok[i + 2]
            calls.append((rank, tok[i], int(peer) if peer.lstrip("-").isdigit() else None))
    return calls


def messages(calls):
    return [c for c in calls if c[1] in SENDS and c[2] is not None and c[2] >= 0]


def check_chrome(path, calls):
    d = json.load(open(path))
    assert d["displayTimeUnit"] == "ns", d.get("displayTimeUnit")
    evs = d["traceEvents"]
    for e in evs:
        for k in ("ph", "pid", "name"):
            assert k in e, ("missing", k, e)
        if e["ph"] in "Xsf":
            assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
            assert "tid" in e, e
    ph = collections.Counter(e["ph"] for e in evs)
    ranks = sorted({c[0] for c in calls})
    names = {e["tid"]: e["args"]["name"] for e in evs if e["ph"] == "M" and e["name"] == "thread_name"}
    assert names == {r: "rank %d" % r for r in ranks}, names
    xs = [e for e in evs if e["ph"] == "X"]
    assert len(xs) == len(calls), ("slices", len(xs), "calls", len(calls))
    assert collections.Counter((e["tid"], e["name"]) for e in xs) == \
        collections.Counter((c[0], c[1]) for c in calls), "slices per rank and call differ"
    for e in xs:
        assert e["dur"] >= 0 and e["cat"] == "mpi", e
        # A posted receive buffer is not a received byte count.
        if e["name"] in ("MPI_Irecv", "MPI_Imrecv", "MPI_Recv_init"):
            assert "bytes_recv" not in e["args"], e
    msgs = messages(calls)
    starts = {e["id"]: e for e in evs if e["ph"] == "s"}
    ends = {e["id"]: e for e in evs if e["ph"] == "f"}
    assert len(starts) == len(msgs) == len(ends) == ph["s"] == ph["f"], \
        ("flows", len(starts), len(ends), "messages", len(msgs))
    pairs = collections.Counter()
    for i, s in starts.items():
        f = ends[i]
        assert f["bp"] == "e", f
        pairs[(s["tid"], f["tid"])] += 1
    assert pairs == collections.Counter((c[0], c[2]) for c in msgs), ("pairs", pairs)
    assert d["otherData"]["messages"] == len(msgs), d["otherData"]
    print("chrome: %d slices, %d flows" % (len(xs), len(starts)))


def check_paraver(prefix, calls):
    lines = open(prefix + ".prv").read().splitlines()
    n = len({c[0] for c in calls})
    m = re.match(r"#Paraver \(\d\d/\d\d/\d\d at \d\d:\d\d\):(\d+)_ns:1\((\d+)\):1:(\d+)\((.*)\)$",
                 lines[0])
    assert m, lines[0]
    ftime = int(m.group(1))
    assert int(m.group(2)) == n and int(m.group(3)) == n, lines[0]
    assert m.group(4) == ",".join(["1:1"] * n), lines[0]
    kinds = collections.Counter()
    entries = collections.Counter()
    prev = 0
    for ln in lines[1:]:
        f = [int(x) for x in ln.split(":")]
        assert f[5] >= prev, ("records not sorted by time", ln)
        prev = f[5]
        kinds[f[0]] += 1
        if f[0] == 1:
            assert len(f) == 8 and f[5] <= f[6] <= ftime and 1 <= f[1] <= n, ln
        elif f[0] == 2:
            assert len(f) >= 8 and f[5] <= ftime, ln
            if f[6] == 50000001 and f[7] != 0:
                entries[f[3] - 1] += 1
        elif f[0] == 3:
            assert len(f) == 15 and f[5] <= f[6] and f[11] <= f[12] and f[1] != f[7], ln
        else:
            raise AssertionError("unknown record " + ln)
    msgs = messages(calls)
    assert kinds[3] == len(msgs), ("comm records", kinds[3], "messages", len(msgs))
    assert entries == collections.Counter(c[0] for c in calls), ("call entries", entries)
    assert kinds[1] >= len(calls), ("state records", kinds[1])
    pcf = open(prefix + ".pcf").read()
    for s in ("STATES", "Running", "EVENT_TYPE", "50000001", "MPI_Send", "MPI_Allreduce"):
        assert s in pcf, s
    row = open(prefix + ".row").read()
    assert "LEVEL THREAD SIZE %d" % n in row and "LEVEL CPU SIZE %d" % n in row, row
    print("paraver: %d states, %d events, %d communications" % (kinds[1], kinds[2], kinds[3]))


def check_simgrid(d, calls):
    ranks = sorted({c[0] for c in calls})
    index = open(d + "/index.txt").read().split()
    assert index == ["rank-%d.txt" % r for r in ranks], index
    for r in ranks:
        acts = [ln.split() for ln in open("%s/rank-%d.txt" % (d, r))]
        for a in acts:
            assert int(a[0]) == r, a
        names = [a[1] for a in acts]
        assert names[0] == "init" and names[-1] == "finalize", (names[0], names[-1])
        mine = [c for c in calls if c[0] == r]
        want_sends = sum(1 for c in messages(mine))
        got_sends = sum(1 for a in acts if a[1] in ("send", "isend"))
        assert got_sends == want_sends, ("rank", r, "sends", got_sends, want_sends)
        want_recvs = sum(1 for c in mine if c[1] in ("MPI_Recv", "MPI_Irecv") and c[2] is not None)
        got_recvs = sum(1 for a in acts if a[1] in ("recv", "irecv"))
        assert got_recvs == want_recvs, ("rank", r, "recvs", got_recvs, want_recvs)
        waits = sum(1 for a in acts if a[1] == "wait")
        issued = sum(1 for a in acts if a[1] in ("isend", "irecv"))
        assert waits == issued, ("rank", r, "waits", waits, "isend+irecv", issued)
        for a in acts:
            if a[1] == "compute":
                assert float(a[2]) > 0, a
            if a[1] in ("send", "isend", "recv", "irecv"):
                assert len(a) == 5 and int(a[2]) in ranks and int(a[4]) >= 0, a
        colls = sum(1 for c in mine if c[1] in ("MPI_Allreduce", "MPI_Reduce", "MPI_Barrier", "MPI_Bcast"))
        got = sum(1 for a in acts if a[1] in ("allreduce", "reduce", "barrier", "bcast"))
        assert got == colls, ("rank", r, "collectives", got, colls)
    print("simgrid: %d ranks ok" % len(ranks))


def main():
    kind, out, dump = sys.argv[1:4]
    calls = parse_dump(dump)
    assert calls, "no calls in " + dump
    {"chrome": check_chrome, "paraver": check_paraver, "simgrid": check_simgrid}[kind](out, calls)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("check failed:", e, file=sys.stderr)
        sys.exit(1)
