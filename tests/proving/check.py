#!/usr/bin/python3
"""Records one proving-ground app with the problem ON and OFF and asserts that
the trace shows the problem when ON and not when OFF.

usage: check.py AUGUR PG_EVENTS MPIEXEC APPDIR OUTDIR CASE

Each case runs `augur record -o DIR -- MPIEXEC -n 4 APP ARGS`, reads the app's
"expected: pattern=... lost_seconds=... ranks=..." line from the run's output,
and checks facts from `augur report --json` and from pg-events (one line per
event, with payload hashes). Exits 0 when every check holds, 1 otherwise."""
import json
import os
import shutil
import subprocess
import sys

NP = 4
# Test sizes: D = 100 ms, 3 iterations. On the 2-core test machine 4 ranks
# cost ~10 ms per collective call even when nobody is late (ranks poll for
# the CPU), so the injected time must dwarf that for the OFF checks.
LONG = ["-n", "3", "-d", "100000"]
AUGUR, EVENTS, MPIEXEC, APPDIR, OUTDIR, CASE = sys.argv[1:7]
failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def record(app, args, name, hashes=False):
    """Records one run; returns (expected dict, report dict, events list)."""
    trace = os.path.join(OUTDIR, name + ".augur")
    shutil.rmtree(trace, ignore_errors=True)
    cmd = [AUGUR, "record", "-o", trace] + (["--payload-hash"] if hashes else [])
    cmd += ["--", MPIEXEC, "-n", str(NP), os.path.join(APPDIR, app)] + args
    print("+ " + " ".join(cmd))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=60)
    sys.stdout.write(p.stdout)
    if p.returncode != 0:
        sys.exit("FAIL: augur record exited with %d" % p.returncode)
    exp = None
    for line in p.stdout.splitlines():
        if line.startswith("expected: "):
            exp = dict(kv.split("=", 1) for kv in line[len("expected: "):].split())
    if exp is None:
        sys.exit("FAIL: no 'expected:' line from " + app)
    exp["lost_seconds"] = float(exp["lost_seconds"])
    if exp["pattern"] != "none":
        diagnosed(app, trace, exp)
    rep = json.loads(subprocess.run([AUGUR, "report", "--json", "--top", "1000", trace], check=True,
                                    stdout=subprocess.PIPE, text=True).stdout)
    evs = []
    out = subprocess.run([EVENTS, trace], check=True, stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        f = line.split("\t")
        evs.append(dict(rank=int(f[0]), call=f[1], peer=int(f[2]), tag=int(f[3]),
                        bytes=int(f[4]), bytes_recv=int(f[5]), hash=f[6],
                        t0=int(f[7]), t1=int(f[8]), line=int(f[9])))
    return exp, rep, evs


SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "apps")


def diagnosed(app, trace, exp):
    """`augur diagnose` names the problem the app injects, at its call site,
    as the top finding (bench/diagnose also checks the lost time)."""
    d = json.loads(subprocess.run([AUGUR, "diagnose", "--json", trace], check=True,
                                  stdout=subprocess.PIPE, text=True).stdout)
    top = d["findings"][0] if d["findings"] else {"pattern": "none", "callsites": []}
    check(top["pattern"] == exp["pattern"],
          "diagnose: top finding %s, expected %s" % (top["pattern"], exp["pattern"]))
    want = site(app, exp["site"].split(".", 1)[1]) if "site" in exp else None
    got = top["callsites"][0]["line"] if top["callsites"] else None
    check(want is None or got == want, "diagnose: top finding at line %s, expected %s" % (got, want))


def site(app, name):
    """Source line of the call after the marker "@augur:APP.NAME" in apps/APP.c."""
    with open(os.path.join(SRC, app + ".c")) as f:
        for i, line in enumerate(f, 1):
            if line.strip() == "/* @augur:%s.%s */" % (app, name):
                return i + 1
    sys.exit("FAIL: no marker @augur:%s.%s in apps/%s.c" % (app, name, app))


def call_s(rep, call, line=None):
    """Seconds spent in `call` over all ranks (at source line `line` if
    given), from augur report."""
    ns = 0
    for c in rep["calls"]:
        if c["call"] != call:
            continue
        if line is None:
            ns += c["time_ns"]
        else:
            ns += sum(s["time_ns"] for s in c["sites"] if s["line"] == line)
    return ns / 1e9


def call_count(rep, call):
    return sum(c["count"] for c in rep["calls"] if c["call"] == call)


def sel(evs, rank=None, call=None, **kw):
    return [e for e in evs if (rank is None or e["rank"] == rank)
            and (call is None or e["call"] == call)
            and all(e[k] == v for k, v in kw.items())]


def secs(evs):
    return sum(e["t1"] - e["t0"] for e in evs) / 1e9


def on_off(app, call, where, on_args=(), off_args=("--off",), hashes=False):
    """The common check: time in `call` is >= 0.8 x the injected lost time
    when ON and <= 0.2 x it when OFF."""
    e1, r1, v1 = record(app, list(on_args), app + "-on", hashes)
    e0, r0, v0 = record(app, list(on_args) + list(off_args), app + "-off", hashes)
    lost = e1["lost_seconds"]
    check(lost > 0 and e0["lost_seconds"] == 0 and e0["pattern"] == "none",
          "%s: expected lines ON %s %.3fs, OFF none" % (app, e1["pattern"], lost))
    line = site(app, where)
    t1, t0 = call_s(r1, call, line), call_s(r0, call, line)
    check(t1 >= 0.8 * lost, "%s ON: %s at line %d: %.3fs >= 0.8 x lost %.3fs" % (app, call, line, t1, lost))
    check(t0 <= 0.2 * lost, "%s OFF: %s at line %d: %.3fs <= 0.2 x lost %.3fs" % (app, call, line, t0, lost))
    return (e1, r1, v1), (e0, r0, v0)


def case_late_barrier():
    # D = 200 ms: OFF, every rank computes D too, and the barrier's own cost
    # on a loaded 2-core machine (tens of ms) must stay under 0.2 x lost.
    (e1, r1, v1), _ = on_off("pg_late_barrier", "MPI_Barrier", "barrier", ["-n", "3", "-d", "200000"])
    late = secs(sel(v1, NP - 1, "MPI_Barrier", line=site("pg_late_barrier", "barrier")))
    check(late <= 0.2 * e1["lost_seconds"] / (NP - 1),
          "late rank %d barely waits in the barrier (%.3fs)" % (NP - 1, late))


def case_imbalance():
    (e1, r1, v1), _ = on_off("pg_imbalance", "MPI_Allreduce", "allreduce", ["-n", "2", "-b", "40000"])
    w = [secs(sel(v1, r, "MPI_Allreduce")) for r in range(NP)]
    check(all(w[r] > w[r + 1] for r in range(NP - 1)),
          "Allreduce waiting falls with the rank: %s" % ["%.3f" % x for x in w])


def case_late_receiver():
    on_off("pg_late_receiver", "MPI_Ssend", "ssend", LONG)


def case_late_bcast():
    (e1, r1, v1), _ = on_off("pg_late_bcast", "MPI_Bcast", "bcast", LONG)
    root = secs(sel(v1, 0, "MPI_Bcast", line=site("pg_late_bcast", "bcast")))
    check(root <= 0.2 * e1["lost_seconds"], "the late root barely waits (%.3fs)" % root)


def case_early_reduce():
    app = "pg_early_reduce"
    e1, r1, v1 = record(app, LONG, app + "-on")
    e0, r0, v0 = record(app, LONG + ["--off"], app + "-off")
    lost = e1["lost_seconds"]
    line = site(app, "reduce")
    t1, t0 = secs(sel(v1, 0, "MPI_Reduce", line=line)), secs(sel(v0, 0, "MPI_Reduce", line=line))
    check(t1 >= 0.8 * lost, "ON: root's MPI_Reduce time %.3fs >= 0.8 x %.3fs" % (t1, lost))
    check(t0 <= 0.2 * lost, "OFF: root's MPI_Reduce time %.3fs <= 0.2 x %.3fs" % (t0, lost))


def case_wrong_order():
    app = "pg_wrong_order"
    e1, r1, v1 = record(app, LONG, app + "-on")
    e0, r0, v0 = record(app, LONG + ["--off"], app + "-off")
    # lost_seconds is the receivers' wait for B; the senders then wait about
    # as long in the barrier, a consequence the diagnosis reports separately.
    lost = e1["lost_seconds"]
    odd = [r for r in range(1, NP, 2)]
    check(e1["ranks"] == ",".join(map(str, odd)) and e0["pattern"] == "none",
          "expected lines: ON ranks %s (the receivers), OFF none" % e1["ranks"])
    recv_b = site(app, "recv_b")
    recv_b1 = sum(secs(sel(v1, r, "MPI_Recv", line=recv_b)) for r in odd)
    recv_b0 = sum(secs(sel(v0, r, "MPI_Recv", tag=2)) for r in odd)
    check(recv_b1 >= 0.8 * lost, "ON: receivers wait %.3fs in .recv_b >= 0.8 x %.3fs" % (recv_b1, lost))
    # Upper bound: lost_seconds counts the receivers only (not the senders too).
    check(recv_b1 <= 1.5 * lost, "ON: receivers wait %.3fs in .recv_b <= 1.5 x %.3fs" % (recv_b1, lost))
    check(recv_b0 <= 0.2 * lost, "OFF: receivers wait %.3fs for B <= 0.2 x %.3fs" % (recv_b0, lost))
    first1 = [e["tag"] for e in sel(v1, 1, "MPI_Recv")][::2]
    first0 = [e["tag"] for e in sel(v0, 1, "MPI_Recv")][::2]
    check(first1 and all(t == 2 for t in first1), "ON: rank 1 receives B (tag 2) first")
    check(first0 and all(t == 1 for t in first0), "OFF: rank 1 receives A (tag 1) first")
    bar1 = sum(secs(sel(v1, r, "MPI_Barrier", line=site(app, "barrier"))) for r in range(0, NP, 2))
    check(bar1 >= 0.8 * lost, "ON: senders then wait %.3fs in MPI_Barrier (consequence) >= 0.8 x %.3fs"
          % (bar1, lost))


def case_slow_comm():
    app = "pg_slow_comm"
    e1, r1, v1 = record(app, [], app + "-on")
    e0, r0, v0 = record(app, ["--off"], app + "-off")
    lost = e1["lost_seconds"]
    t1 = call_s(r1, "MPI_Send") + call_s(r1, "MPI_Recv")
    t0 = call_s(r0, "MPI_Send") + call_s(r0, "MPI_Recv")
    check(lost > 0.01, "ON: measured transfer time %.3fs is significant" % lost)
    check(0.8 * lost <= t1 <= 1.2 * lost,
          "ON: Send+Recv time %.3fs within 20%% of the app's measure %.3fs" % (t1, lost))
    check(t0 <= 0.2 * lost, "OFF: Send+Recv time %.3fs <= 0.2 x %.3fs" % (t0, lost))
    big = sel(v1, 1, "MPI_Recv")
    check(big and all(e["bytes_recv"] == int(e1["bytes"]) for e in big),
          "ON: rank 1 receives %s bytes each time" % e1["bytes"])


def case_blocked_sender(data):
    app = "pg_blocked_sender"
    args = ["--data", data] + LONG
    e1, r1, v1 = record(app, args, "%s-%s-on" % (app, data), True)
    e0, r0, v0 = record(app, args + ["--off"], "%s-%s-off" % (app, data), True)
    lost = e1["lost_seconds"]
    per_rank = lost / (NP - 2)
    w2 = secs(sel(v1, 2, "MPI_Recv", line=site(app, "recv")))
    check(w2 >= 0.8 * per_rank, "ON: rank 2 waits %.3fs for blocked rank 1 >= 0.8 x %.3fs"
          % (w2, per_rank))
    rx = [e["hash"] for e in sel(v1, 1, "MPI_Recv")]
    tx = [e["hash"] for e in sel(v1, 1, "MPI_Send")]
    check(len(rx) == len(tx) > 0 and all(h != "0" * 16 for h in rx + tx),
          "ON: rank 1 has payload hashes on %d receives and sends" % len(rx))
    if data == "same":
        check(rx == tx, "ON same: rank 1 forwards exactly what it receives (hashes equal)")
    else:
        check(all(a != b for a, b in zip(rx, tx)),
              "ON %s: rank 1 sends other data than it receives (hashes differ)" % data)
    # Both runs deliver the same data to every rank, only the route differs.
    for r in range(1, NP):
        h1 = [e["hash"] for e in sel(v1, r, "MPI_Recv")]
        h0 = [e["hash"] for e in sel(v0, r, "MPI_Recv")]
        check(h1 == h0, "rank %d receives the same payloads ON and OFF" % r)
    if data == "independent":
        w0 = secs(sel(v0, 2, "MPI_Recv", line=site(app, "recv_late")))
        check(w0 <= 0.2 * per_rank, "OFF: rank 2 waits %.3fs <= 0.2 x %.3fs" % (w0, per_rank))
    else:
        peers = {e["peer"] for r in range(2, NP) for e in sel(v0, r, "MPI_Recv")}
        check(peers == {0}, "OFF: ranks 2.. receive straight from rank 0 (peers %s)" % peers)


def case_multicast(data):
    app = "pg_multicast"
    # 4 MiB: each transfer takes long enough to tell the turns apart.
    args = ["--data", data, "-s", str(4 << 20)]
    e1, r1, v1 = record(app, args, "%s-%s-on" % (app, data), True)
    e0, r0, v0 = record(app, args + ["--off"], "%s-%s-off" % (app, data), True)
    n = int(e1["sends"])
    it = n // (NP - 1)
    coll = "MPI_Bcast" if data == "same" else "MPI_Scatter"
    sends = sel(v1, 0, "MPI_Send")
    check(len(sends) == n and [e["peer"] for e in sends] == list(range(1, NP)) * it,
          "ON: rank 0 sends to ranks 1..%d in turn, %d MPI_Send" % (NP - 1, n))
    check(call_count(r1, coll) == 0, "ON: no %s" % coll)
    check(len(sel(v0, 0, coll)) == it and not sel(v0, 0, "MPI_Send"),
          "OFF: rank 0 calls %s %d times and no MPI_Send" % (coll, it))
    per_iter = [[e["hash"] for e in sends[i * (NP - 1):(i + 1) * (NP - 1)]] for i in range(it)]
    if data == "same":
        check(all(len(set(h)) == 1 for h in per_iter), "ON same: one payload hash per iteration")
    else:
        check(all(len(set(h)) == NP - 1 for h in per_iter),
              "ON different: %d distinct payload hashes per iteration" % (NP - 1))
    # First iteration, right after the start barrier: all receivers block at
    # once and are served in turn (later iterations overlap).
    w = [secs(sel(v1, r, "MPI_Recv")[:1]) for r in range(1, NP)]
    check(all(w[i] < w[i + 1] for i in range(len(w) - 1)),
          "ON: receivers of the first round wait in turn: %s" % ["%.4f" % x for x in w])


def case_master_worker():
    app = "pg_master_worker"
    # Three times the default costs: ~10 ms of scheduling noise per message
    # on 4 ranks / 2 cores must stay small next to the idle times.
    ew, rw, vw = record(app, ["--workers-bound", "-w", "90000", "-g", "3000"], app + "-workers")
    em, rm, vm = record(app, ["--master-bound", "-w", "3000", "-g", "30000"], app + "-master")
    e0, r0, v0 = record(app, ["--off", "-t", "60", "-g", "10000"], app + "-off")
    tasks = int(ew["tasks"])
    mw = secs(sel(vw, 0, "MPI_Recv"))
    check(len(sel(vw, 0, "MPI_Recv")) == tasks, "workers-bound: master receives %d results" % tasks)
    check(mw >= 0.8 * ew["lost_seconds"], "workers-bound: master waits %.3fs >= 0.8 x %.3fs"
          % (mw, ew["lost_seconds"]))
    ww = sum(secs(sel(vm, r, "MPI_Recv")) for r in range(1, NP))
    check(ww >= 0.8 * em["lost_seconds"], "master-bound: workers wait %.3fs >= 0.8 x %.3fs"
          % (ww, em["lost_seconds"]))
    mm = secs(sel(vm, 0, "MPI_Recv"))
    check(mm <= 0.2 * ew["lost_seconds"], "master-bound: master waits only %.3fs" % mm)
    m0 = secs(sel(v0, 0, "MPI_Recv"))
    w0 = sum(secs(sel(v0, r, "MPI_Recv")) for r in range(1, NP))
    # Balanced: the master keeps a task ready for every worker, with 5 %
    # slack. What is left (the slack, the last tasks' tail, ~3 ms per
    # hand-off with 4 ranks on 2 cores) stays well under the unbalanced runs.
    m_ok = 0.5 * ew["lost_seconds"]
    w_ok = 0.5 * em["lost_seconds"]
    check(m0 <= m_ok, "OFF: master waits %.3fs <= %.3fs" % (m0, m_ok))
    check(w0 <= w_ok, "OFF: workers wait %.3fs <= %.3fs" % (w0, w_ok))


def case_serialization():
    app = "pg_serialization"
    e1, r1, v1 = record(app, LONG, app + "-on")
    e0, r0, v0 = record(app, LONG + ["--off"], app + "-off")
    lost = e1["lost_seconds"]
    check(e1["pattern"] == "blocked_sender" and e1["ranks"] == ",".join(map(str, range(2, NP)))
          and e0["pattern"] == "none" and e0["lost_seconds"] == 0,
          "expected lines: ON blocked_sender %.3fs on ranks %s, OFF none" % (lost, e1["ranks"]))
    recv = site(app, "recv")
    t1 = call_s(r1, "MPI_Recv", recv)
    check(t1 >= 0.8 * lost, "ON: MPI_Recv at line %d: %.3fs >= 0.8 x lost %.3fs" % (recv, t1, lost))
    # OFF exchanges the same messages in one MPI_Sendrecv per step, after
    # computing side by side: nobody waits for a neighbour.
    xchg = site(app, "exchange")
    t0 = call_s(r0, "MPI_Sendrecv", xchg)
    check(call_count(r0, "MPI_Sendrecv") == NP * int(LONG[1]) and call_count(r0, "MPI_Recv") == 0,
          "OFF: one MPI_Sendrecv per rank and step, no MPI_Recv")
    check(t0 <= 0.2 * lost, "OFF: MPI_Sendrecv at line %d: %.3fs <= 0.2 x lost %.3fs" % (xchg, t0, lost))
    # Rank k waits k x D per step: the waits grow along the chain.
    w = [secs(sel(v1, r, "MPI_Recv", line=recv)) for r in range(1, NP)]
    check(all(w[i] < w[i + 1] for i in range(len(w) - 1)),
          "ON: the wait grows along the chain: %s" % ["%.3f" % x for x in w])


CASES = {
    "late_barrier": case_late_barrier,
    "imbalance": case_imbalance,
    "late_receiver": case_late_receiver,
    "late_bcast": case_late_bcast,
    "early_reduce": case_early_reduce,
    "wrong_order": case_wrong_order,
    "slow_comm": case_slow_comm,
    "blocked_sender_same": lambda: case_blocked_sender("same"),
    "blocked_sender_independent": lambda: case_blocked_sender("independent"),
    "blocked_sender_modified": lambda: case_blocked_sender("modified"),
    "multicast_same": lambda: case_multicast("same"),
    "multicast_different": lambda: case_multicast("different"),
    "master_worker": case_master_worker,
    "serialization": case_serialization,
}

if CASE not in CASES:
    sys.exit("unknown case %s (known: %s)" % (CASE, " ".join(CASES)))
os.makedirs(OUTDIR, exist_ok=True)
CASES[CASE]()
if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("all checks passed")
