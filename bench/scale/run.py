#!/usr/bin/env python3
"""bench/scale (issue 27): how augur's analyses scale with the number of ranks.

For each rank count it generates a synthetic trace (augur-bench-dx-gen: a halo
exchange with injected waits, the same total number of records at every rank
count) and runs each command on it, printing wall time, records/s, peak RSS
and RSS per rank, and each command's cost per record against its cost at the
smallest rank count ("cost vs 16" = the 16-rank rate / this rate; issue 27's
goal: at most 2x at 65,536 ranks; peak RSS <= 8 GB); then the same by CPU
time (user + system), the steadier figure on a shared machine.

PATTERNS picks the programs (augur-bench-dx-gen --pattern: halo, the default, a 1-D ring;
halo3d, master, alltoall, wavefront, colls), each with a problem put in on purpose. With
CHECK=1 it also checks, at every rank count, that the results stay right (issue 27: "the
injected problem found, the phases found, the simulated time equal to the generator's
clock"): the findings the generator's --truth file expects are in `diagnose --json
--min-share 0` (pattern, call site, the rank named in the cause, the ranks that wait, three
quarters of the longest waits on the expected ranks, the top partner); a
repeating phase of `phases --json` (`--irregular` for master/worker) repeats once per
iteration and covers most of the run; `simulate --machine bench/scale/gen.machine` (the
generator's network and call costs) predicts the trace's run time (the generator's clock,
from MPI_Init's end) within 10 %, and its error moves by at most 5 points from the smallest
rank count. It prints a table of the checks
and fails if one fails. simulate is skipped (said) on an all-to-all of more than 2e10
messages: MPI_Alltoall is p - 1 pairwise steps per member, p^2 messages an instance, which
simulate runs round by round at about 6 ns a message (1.6e10, 16 M records at 1,024 ranks:
a minute and a half; report's ideal-network replay runs them all at once).

With IDLE="R1 R2" it then measures the memory of a nearly idle rank (issue
27's goal: at most 8 KB): two traces of one iteration (12 records a rank) at
R1 and R2 ranks, and for each command the growth of its peak RSS from R1 to
R2 divided by R2 - R1, the cost of one more such rank without the fixed
costs (the program, libraries, one-off tables) that peak RSS / ranks would
spread over them. With IDLE_MAX_KB set, it fails when a command exceeds it.

usage: bench/scale/run.py [BUILD_DIR] [OUT_DIR]
environment: RANKS ("16 1024 4096"; empty: none), EVENTS (total records,
4000000), COMMANDS ("report diagnose phases simulate"), REPS (1: the median
of REPS runs), PATTERNS ("halo"), CHECK (none), IDLE (none), IDLE_MAX_KB (none).
Traces are kept in OUT_DIR (default BUILD_DIR/bench-scale) and reused.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
out = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(build, "bench-scale"))
ranks = [int(r) for r in os.environ.get("RANKS", "16 1024 4096").split()]
events = int(os.environ.get("EVENTS", "4000000"))
commands = os.environ.get("COMMANDS", "report diagnose phases simulate").split()
reps = int(os.environ.get("REPS", "1"))
patterns = os.environ.get("PATTERNS", "halo").split()
check = os.environ.get("CHECK", "") not in ("", "0")
idle = [int(r) for r in os.environ.get("IDLE", "").split()]
if idle and (len(idle) != 2 or not 2 <= idle[0] < idle[1]):
    sys.exit("bench/scale: IDLE must be two rank counts R1 < R2")
if not ranks and not idle:
    sys.exit("bench/scale: nothing to do (RANKS empty and no IDLE)")
augur = os.path.join(build, "bin", "augur")
gen = os.path.join(build, "bin", "augur-bench-dx-gen")
for exe in (augur, gen):
    if not os.access(exe, os.X_OK):
        sys.exit("bench/scale: no %s (build first)" % exe)
os.makedirs(out, exist_ok=True)


def run_one(argv):
    """Wall seconds, CPU seconds (user + system) and peak RSS (KB) of one child process."""
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        sys.exit("bench/scale: %s failed (status %d)" % (" ".join(argv), status))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def trace_of(name, r, n, pattern="halo"):
    """OUT/NAME, a trace of PATTERN with R ranks and N records, generated (with its
    truth file, OUT/NAME.truth) if it is not there."""
    trace = os.path.join(out, name)
    if not os.path.isdir(trace) or not os.path.isfile(trace + ".truth"):
        print("bench/scale: generating %s" % trace, file=sys.stderr)
        subprocess.run([gen, trace, "--ranks", str(r), "--events", str(n), "--pattern", pattern,
                        "--truth", trace + ".truth"], check=True, stdout=subprocess.DEVNULL)
    return trace


def skipped(pattern, r, truth, command):
    """Why COMMAND is not run on this trace, or None."""
    msgs = r * r * truth["iterations"]
    if pattern == "alltoall" and command == "simulate" and msgs > 2e10:
        return "%.1e messages (p^2 per MPI_Alltoall)" % msgs
    return None


def run_json(argv):
    """The JSON stdout of an augur command (it must succeed)."""
    p = subprocess.run(argv + ["--json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if p.returncode != 0:
        sys.exit("bench/scale: %s failed (status %d)" % (" ".join(argv), p.returncode))
    return json.loads(p.stdout)


def named_ranks(text):
    """Every rank a sentence names ("rank 5", "ranks 0,4,41", "ranks 0-20,22-63")."""
    got = set()
    for m in re.finditer(r"\branks? ((?:\d+(?:-\d+)?,?)+)", text):
        for part in m.group(1).strip(",").split(","):
            a, _, b = part.partition("-")
            got.update(range(int(a), int(b or a) + 1))
    return got


def check_trace(pattern, r, trace, truth):
    """The checks of one trace: a list of (what, ok, detail)."""
    res = []
    dx = run_json([augur, "diagnose", trace, "--min-share", "0"])
    for e in truth["expect"]:
        what = "diagnose %s at call site %d" % ("/".join(e["patterns"]), e["callsite"])
        cands = [f for f in dx["findings"] if f["pattern"] in e["patterns"] and
                 any(c["id"] == e["callsite"] for c in f["callsites"])]
        if not cands:
            res.append((what, False, "not found; findings: %s" %
                        ", ".join(f["pattern"] for f in dx["findings"])))
            continue
        f, why = cands[0], []
        if "names_rank" in e and e["names_rank"] not in named_ranks(f["cause"]):
            why.append("cause does not name rank %d" % e["names_rank"])
        if "min_ranks" in e and len(f["ranks"]) < e["min_ranks"]:
            why.append("%d ranks wait, expected >= %d" % (len(f["ranks"]), e["min_ranks"]))
        if "top_partner" in e and (f.get("top_partner") or {}).get("rank") != e["top_partner"]:
            why.append("top_partner %s, expected rank %d" % (f.get("top_partner"),
                                                              e["top_partner"]))
        if "upstream" in e and e["upstream"] not in f["cause"]:
            why.append("cause does not say %s" % e["upstream"])
        if "worst_ranks" in e:  # most of the longest waits (a few may be the start's skew)
            off = [m["rank"] for m in f["worst"] if m["rank"] not in e["worst_ranks"]]
            if len(off) * 4 > len(f["worst"]):
                why.append("%d of the %d longest waits on ranks %s, not the slow rank's "
                           "neighbours" % (len(off), len(f["worst"]), sorted(set(off))))
        res.append((what, not why, "; ".join(why) or "%.1f%% of process time" % (100 * f["share"])))
    ph = run_json([augur, "phases", trace] + (["--irregular"] if pattern == "master" else []))
    it = truth["iterations"]
    rep = [p for p in ph["phases"] if p["relevant"] and p["weight"] == it and p["share"] >= 0.5]
    res.append(("phases: a phase repeating %d times" % it, bool(rep),
                "%.1f%% of the run" % (100 * rep[0]["share"]) if rep else
                "weights %s" % [p["weight"] for p in ph["phases"] if p["relevant"]]))
    if not skipped(pattern, r, truth, "simulate"):
        sim = run_json([augur, "simulate", trace, "--machine",
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen.machine")])
        # against the trace's own time (the generator's clock) over the window simulate
        # predicts: from MPI_Init's end, whose spread (200 +- 50 us) is not a prediction
        err = sim["predicted_seconds"] / sim["measured_seconds"] - 1
        res.append(("simulate error vs the generator's clock", None, "%+.1f%%" % (100 * err), err,
                    truth.get("sim_model", True)))
    return res


rows, checks = [], []
print("bench/scale: %d records per trace, ranks %s, patterns %s, %d rep(s); %d cores, load %s" %
      (events, " ".join(map(str, ranks)), " ".join(patterns), reps, os.cpu_count(),
       open("/proc/loadavg").read().split()[0]), file=sys.stderr)
for pat in patterns:
    for r in ranks:
        trace = trace_of("%s-%d-%d" % (pat, r, events), r, events, pat)
        with open(trace + ".truth") as f:
            truth = json.load(f)
        for c in commands:
            why = skipped(pat, r, truth, c)
            if why:
                print("bench/scale: %s, %d ranks, %s: skipped, %s" % (pat, r, c, why))
                continue
            extra = ["--irregular"] if c == "phases" and pat == "master" else []
            runs = [run_one([augur, c, trace] + extra) for _ in range(reps)]
            wall = statistics.median(w for w, _, _ in runs)
            cpu = statistics.median(u for _, u, _ in runs)
            rss = max(m for _, _, m in runs)
            rows.append((pat, r, c, wall, cpu, rss, truth["records"]))
            print("bench/scale: %s, %d ranks, %s: %.2f s (CPU %.2f s), load %s" %
                  (pat, r, c, wall, cpu, open("/proc/loadavg").read().split()[0]),
                  file=sys.stderr)
        if check:
            checks += [(pat, r) + x for x in check_trace(pat, r, trace, truth)]


def idle_table(counts):
    """Each command's peak RSS growth per nearly idle rank between two rank counts."""
    peak = {}
    for r in counts:
        trace = trace_of("idle-%d" % r, r, 12 * r)
        for c in commands:
            peak[r, c] = max(run_one([augur, c, trace])[2] for _ in range(reps))
    r1, r2 = counts
    limit = float(os.environ["IDLE_MAX_KB"]) if os.environ.get("IDLE_MAX_KB") else None
    print("nearly idle ranks (12 records each): peak RSS at %d and %d ranks, KB per rank "
          "between them (goal 8 KB)" % (r1, r2))
    print("%-9s %10s %10s %12s" % ("command", "MB at %d" % r1, "MB at %d" % r2, "KB/idle rank"))
    over = []
    for c in commands:
        kb = (peak[r2, c] - peak[r1, c]) / float(r2 - r1)
        print("%-9s %10.1f %10.1f %12.2f" % (c, peak[r1, c] / 1024.0, peak[r2, c] / 1024.0, kb))
        if limit is not None and kb > limit:
            over.append("%s %.2f KB" % (c, kb))
    if over:
        sys.exit("bench/scale: more than %g KB per idle rank: %s" % (limit, ", ".join(over)))


def rate_table(pat):
    """The table of PAT's runs: rates and cost per record against the first count."""
    mine = [x[1:] for x in rows if x[0] == pat]
    base = {c: (n / w, n / max(u, 1e-6)) for r, c, w, u, _, n in mine if r == ranks[0]}
    print("pattern %s" % pat)
    print("%-8s %-9s %9s %12s %10s %11s %12s %9s %12s %12s" %
          ("ranks", "command", "seconds", "records/s", "peak MB", "KB/rank",
           "cost vs %d" % ranks[0], "CPU s", "rec/CPU s", "CPU cost vs %d" % ranks[0]))
    for r, c, w, u, rss, n in mine:
        rate, crate = n / w, n / max(u, 1e-6)
        b = base.get(c)
        print("%-8d %-9s %9.2f %12.3g %10.1f %11.1f %11.2fx %9.2f %12.3g %11.2fx" %
              (r, c, w, rate, rss / 1024.0, rss / r, b[0] / rate if b else float("nan"), u, crate,
               b[1] / crate if b else float("nan")))


def check_table():
    """The checks, one line each; the simulate error's drift from the first rank count.
    Returns the failures."""
    first, bad = {}, []
    print("checks (CHECK=1): what augur finds at each rank count")
    print("%-10s %7s  %-4s  %-46s %s" % ("pattern", "ranks", "ok", "check", "detail"))
    for x in checks:
        pat, r, what, ok, detail = x[:5]
        if ok is None:  # the simulate error: within 10 %, and 5 points of the first count's
            first.setdefault(pat, x[5])
            ok = abs(x[5]) <= 0.10 and abs(x[5] - first[pat]) <= 0.05
            detail += " (%+.1f points from %d ranks)" % (100 * (x[5] - first[pat]), ranks[0])
            if not x[6]:
                ok, detail = True, detail + "; not checked: the generator's collectives are no model"
        print("%-10s %7d  %-4s  %-46s %s" % (pat, r, "ok" if ok else "FAIL", what, detail))
        if not ok:
            bad.append("%s at %d ranks: %s" % (pat, r, what))
    return bad


for p in patterns:
    if any(x[0] == p for x in rows):
        rate_table(p)
failed = check_table() if checks else []
if idle:
    idle_table(idle)
if failed:
    sys.exit("bench/scale: %d check(s) failed: %s" % (len(failed), "; ".join(failed)))
