#!/usr/bin/env python3
"""bench/scale (issue 27): how augur's analyses scale with the number of ranks.

For each rank count it generates a synthetic trace (augur-bench-dx-gen: a halo
exchange with injected waits, the same total number of records at every rank
count) and runs each command on it, printing wall time, records/s, peak RSS
and RSS per rank, and each command's cost per record against its cost at the
smallest rank count ("cost vs 16" = the 16-rank rate / this rate; issue 27's
goal: at most 2x at 65,536 ranks; peak RSS <= 8 GB); then the same by CPU
time (user + system), the steadier figure on a shared machine.

With IDLE="R1 R2" it then measures the memory of a nearly idle rank (issue
27's goal: at most 8 KB): two traces of one iteration (12 records a rank) at
R1 and R2 ranks, and for each command the growth of its peak RSS from R1 to
R2 divided by R2 - R1, the cost of one more such rank without the fixed
costs (the program, libraries, one-off tables) that peak RSS / ranks would
spread over them. With IDLE_MAX_KB set, it fails when a command exceeds it.

usage: bench/scale/run.py [BUILD_DIR] [OUT_DIR]
environment: RANKS ("16 1024 4096"; empty: none), EVENTS (total records,
4000000), COMMANDS ("report diagnose phases simulate"), REPS (1: the median
of REPS runs), IDLE (none), IDLE_MAX_KB (none).
Traces are kept in OUT_DIR (default BUILD_DIR/bench-scale) and reused.
"""
import os
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


def trace_of(name, r, n):
    """OUT/NAME, a halo trace of R ranks and N records, generated if it is not there."""
    trace = os.path.join(out, name)
    if not os.path.isdir(trace):
        print("bench/scale: generating %s" % trace, file=sys.stderr)
        subprocess.run([gen, trace, "--ranks", str(r), "--events", str(n)], check=True,
                       stdout=subprocess.DEVNULL)
    return trace


rows = []
print("bench/scale: %d records per trace, ranks %s, %d rep(s); %d cores, load %s" %
      (events, " ".join(map(str, ranks)), reps, os.cpu_count(),
       open("/proc/loadavg").read().split()[0]), file=sys.stderr)
for r in ranks:
    trace = trace_of("halo-%d-%d" % (r, events), r, events)
    for c in commands:
        runs = [run_one([augur, c, trace]) for _ in range(reps)]
        wall = statistics.median(w for w, _, _ in runs)
        cpu = statistics.median(u for _, u, _ in runs)
        rss = max(m for _, _, m in runs)
        rows.append((r, c, wall, cpu, rss))
        print("bench/scale: %d ranks, %s: %.2f s (CPU %.2f s), load %s" %
              (r, c, wall, cpu, open("/proc/loadavg").read().split()[0]), file=sys.stderr)


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


def rate_table():
    """The table of the RANKS runs: rates and cost per record against the first count."""
    base = {c: (events / w, events / u) for r, c, w, u, _ in rows if r == ranks[0]}
    print("%-8s %-9s %9s %12s %10s %11s %12s %9s %12s %12s" %
          ("ranks", "command", "seconds", "records/s", "peak MB", "KB/rank",
           "cost vs %d" % ranks[0], "CPU s", "rec/CPU s", "CPU cost vs %d" % ranks[0]))
    for r, c, w, u, rss in rows:
        rate, crate = events / w, events / max(u, 1e-6)
        print("%-8d %-9s %9.2f %12.3g %10.1f %11.1f %11.2fx %9.2f %12.3g %11.2fx" %
              (r, c, w, rate, rss / 1024.0, rss / r, base[c][0] / rate, u, crate,
               base[c][1] / crate))


if rows:
    rate_table()
if idle:
    idle_table(idle)
