#!/usr/bin/python3
"""Proving ground for diagnose's OpenMP patterns (docs/diagnose.md, "OpenMP
patterns"): records one apps/pg_omp_* program (one build: gcc or clang) at
2 ranks x 2 threads (cases *_1x3: 1 rank x 3 threads) with
OMP_WAIT_POLICY=passive, ON and with --off, and checks with
`augur diagnose --json`:

* ON: the top OpenMP finding is the program's pattern (its "expected:"
  line) at the program's marked line (apps/README.md: where GCC and clang
  put the runtime calls), and its lost thread-time is at least a quarter of
  what the program's own timers measured ("measured:" line);
* OFF: no finding of that pattern above the threshold.

usage: omp.py AUGUR MPIEXEC APPDIR OUTDIR CC CASE
Exits 0 when every check holds, 1 otherwise."""
import json
import os
import shutil
import subprocess
import sys

AUGUR, MPIEXEC, APPDIR, OUTDIR, CC, CASE = sys.argv[1:7]
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "apps")
ENV = dict(os.environ, OMP_WAIT_POLICY="passive")
OMP = {"omp_load_imbalance", "omp_critical_contention", "omp_fork_join", "mpi_in_serial_section",
       "omp_serial_region", "omp_limited_parallelism"}
failures = []
os.makedirs(OUTDIR, exist_ok=True)


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def marker(app, name):
    """Source line after the marker "@augur:APP.NAME" in apps/APP.c."""
    with open(os.path.join(SRC, app + ".c")) as f:
        for i, line in enumerate(f, 1):
            if line.strip() == "/* @augur:%s.%s */" % (app, name):
                return i + 1
    sys.exit("FAIL: no marker @augur:%s.%s in apps/%s.c" % (app, name, app))


def run(app, args, name, env=None):
    """Records APP ARGS (ENV: more environment); returns (expected, measured
    lost seconds, diagnosis)."""
    trace = os.path.join(OUTDIR, "%s-%s-%s.augur" % (CASE, CC, name))
    shutil.rmtree(trace, ignore_errors=True)
    ranks, threads = SHAPE
    cmd = [AUGUR, "record", "-o", trace, "--", MPIEXEC, "-n", str(ranks),
           os.path.join(APPDIR, app + "." + CC), "-t", str(threads)] + args
    print("+ " + " ".join(cmd))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=60, env=dict(ENV, **(env or {})))
    sys.stdout.write(p.stdout)
    if p.returncode != 0:
        sys.exit("FAIL: augur record exited with %d" % p.returncode)
    exp, lost = None, None
    for line in p.stdout.splitlines():
        if line.startswith("expected: "):
            exp = dict(kv.split("=", 1) for kv in line[len("expected: "):].split())
        if line.startswith("measured: "):
            measured = dict(kv.split("=", 1) for kv in line[10:].split())
            lost = float(measured["lost_seconds"])
            exp["wall"] = float(measured["wall_seconds"])
    if exp is None or lost is None:
        sys.exit("FAIL: no 'expected:' or 'measured:' line from " + app)
    out = subprocess.run([AUGUR, "diagnose", "--json", trace], check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    d = json.loads(out)
    for f in d["findings"]:
        c = f["callsites"][0] if f["callsites"] else {}
        print("  finding %-24s %6.1f %%  %8.4f thread-s  %s" % (
            f["pattern"], 100 * f["share"], f.get("thread_seconds", 0), c.get("where")))
    return exp, lost, d


# case: app, extra args, the marker of the expected site per compiler
CASES = {
    # items of 25 ms or more: the balanced control's scheduling jitter (real: the program
    # measures it too) stays well under the threshold on a loaded machine
    "imbalance": ("pg_omp_imbalance", ["-n", "6", "-b", "25000"], {"gcc": "loop", "clang": "loop"}),
    # the serial work before a region has no record of its own: the finding
    # names the region that follows it (and the one before, in its cause)
    "serial_before": ("pg_omp_serial", [], {"gcc": "region", "clang": "region"}),
    # GCC puts a single's runtime call on the enclosing parallel's line
    "serial_single": ("pg_omp_serial", ["--where", "single"],
                      {"gcc": "region_single", "clang": "single"}),
    "forkjoin": ("pg_omp_forkjoin", [], {"gcc": "region", "clang": "region"}),
    "critical": ("pg_omp_critical", [], {"gcc": "critical", "clang": "critical"}),
    # 16 MiB x 12: the first exchange (before the first region: not counted,
    # docs/diagnose.md) is a small part of the lost time
    "masteronly": ("pg_omp_masteronly", ["-n", "12", "-s", "16777216"],
                   {"gcc": "exchange", "clang": "exchange"}),
}
# the same programs at another shape, 1 rank x 3 threads (ranks x threads)
for name in ("imbalance", "serial_before", "critical"):
    CASES[name + "_1x3"] = CASES[name]
SHAPE = (1, 3) if CASE.endswith("_1x3") else (2, 2)


def limited():
    """omp_limited_parallelism: pg_omp_imbalance asks for 2 threads at 1
    rank (2 CPUs) under OMP_THREAD_LIMIT=1, teams of 1: one thread missing
    for the regions' whole time (about the program's wall time); the control
    runs without the limit."""
    exp, _, on = run("pg_omp_imbalance", ["-n", "4"], "on", {"OMP_THREAD_LIMIT": "1"})
    top = next((f for f in on["findings"] if f["pattern"] in OMP), None)
    got = top["pattern"] if top else "none"
    check(got == "omp_limited_parallelism", "ON: top OpenMP finding %s, expected "
          "omp_limited_parallelism" % got)
    if got == "omp_limited_parallelism":
        want = marker("pg_omp_imbalance", "loop")
        check(top["callsites"][0]["line"] == want, "ON: at line %s, expected %d"
              % (top["callsites"][0]["line"], want))
        check(0.5 * exp["wall"] <= top["thread_seconds"] <= 1.1 * exp["wall"],
              "ON: %.4f thread-seconds missing, about the wall time %.4f"
              % (top["thread_seconds"], exp["wall"]))
    _, _, off = run("pg_omp_imbalance", ["-n", "4"], "off")
    bad = [f for f in off["findings"] if f["pattern"] == "omp_limited_parallelism"]
    check(not bad, "OFF (no limit): no omp_limited_parallelism above the threshold")


if CASE == "limited":
    SHAPE = (1, 2)
    limited()
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)
    sys.exit(0)
app, args, where = CASES[CASE]
exp, lost, on = run(app, args, "on")
pattern = exp["pattern"]
check(pattern in OMP, "%s: expected an OpenMP pattern, got %s" % (app, pattern))
top = next((f for f in on["findings"] if f["pattern"] in OMP), None)
got = top["pattern"] if top else "none"
check(got == pattern, "ON: top OpenMP finding %s, expected %s" % (got, pattern))
if top and got == pattern:
    want = marker(app, where[CC])
    line = top["callsites"][0]["line"] if top["callsites"] else None
    check(line == want, "ON: at line %s, expected %d (after @augur:%s.%s)" % (line, want, app,
                                                                            where[CC]))
    ts = top["thread_seconds"]
    # for bench/diagnose/omp_accuracy.sh: augur's lost time against the program's
    print("accuracy: case=%s cc=%s pattern=%s augur=%.6f measured=%.6f" % (CASE, CC, got, ts, lost))
    check(ts >= 0.25 * lost, "ON: %.4f thread-seconds lost >= a quarter of the measured %.4f"
          % (ts, lost))
_, _, off = run(app, args + ["--off"], "off")
bad = [f for f in off["findings"] if f["pattern"] == pattern]
check(not bad, "OFF: no %s above %.0f %% (%s)" % (
    pattern, 100 * off["min_share"],
    ", ".join("%.1f %% at %s" % (100 * f["share"], f["callsites"][0]["where"]) for f in bad)
    or "none"))
if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
