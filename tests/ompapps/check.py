#!/usr/bin/python3
"""Runs one OpenMP app (apps/omp_stencil.c, apps/pg_omp_*.c) under mpiexec at
2 ranks x 2 threads (some cases 1 x 3), built by one compiler (gcc: libgomp, clang: LLVM libomp),
and checks what the program itself measures.

usage: check.py MPIEXEC APPDIR COMPILER CASE

pg_omp_* cases run the problem ON and OFF (--off) and check: both exit 0;
each prints "expected:" and "measured:" lines; the site the expected line
names is an @augur marker in the source, right before an OpenMP pragma or a
call; ON's measured lost time is measurable (>= 20 ms) and at least twice
OFF's; where the program states an ideal lost time, ON measures at least half
of it. The stencil case checks the residual does not depend on the ranks, the
threads or the compiler, and the per-rank timers. Exits 0 when every check
holds, 1 otherwise.

4 threads share the 2 cores of the test machine: OMP_WAIT_POLICY=passive, so
waiting threads sleep instead of spinning on the cores the other rank's
working threads need (with spinning waits libgomp's idle threads inflate
every figure several times over)."""
import os
import re
import subprocess
import sys

MPIEXEC, APPDIR, CC, CASE = sys.argv[1:5]
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "apps")
ENV = dict(os.environ, OMP_WAIT_POLICY="passive", OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
failures = []

# case: (app, extra arguments, ranks, threads). The *_1x3 cases vary the
# shape (1 rank x 3 threads) so the ideal lost time's formula is checked at
# another team size and rank count, not only at the default.
CASES = {
    "imbalance": ("pg_omp_imbalance", [], 2, 2),
    "imbalance_1x3": ("pg_omp_imbalance", ["-b", "4000", "-k", "1"], 1, 3),
    "serial_before": ("pg_omp_serial", ["--where", "before"], 2, 2),
    "serial_single": ("pg_omp_serial", ["--where", "single"], 2, 2),
    "serial_1x3": ("pg_omp_serial", ["-s", "4000"], 1, 3),
    "forkjoin": ("pg_omp_forkjoin", [], 2, 2),
    "critical": ("pg_omp_critical", [], 2, 2),
    "critical_1x3": ("pg_omp_critical", ["-m", "6"], 1, 3),
    # 16 MiB exchanges: with the default 4 MiB the program's own loss was
    # 0.015 s in a fresh-clone check (stop 37), under the 0.02 s floor below
    "masteronly": ("pg_omp_masteronly", ["-s", "16777216"], 2, 2),
}


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def run(app, args, np=2, want_rc=0):
    cmd = [MPIEXEC, "-n", str(np), os.path.join(APPDIR, app + "." + CC)] + args
    print("+ " + " ".join(cmd))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=60, env=ENV)
    sys.stdout.write(p.stdout)
    check(p.returncode == want_rc, "%s exited %d, want %d" % (app, p.returncode, want_rc))
    return p.stdout


def fields(out, prefix):
    for line in out.splitlines():
        if line.startswith(prefix + ": "):
            return dict(kv.split("=", 1) for kv in line[len(prefix) + 2:].split())
    check(False, "no '%s:' line" % prefix)
    return None


def marker_ok(app, name):
    """The marker /* @augur:APP.NAME */ exists once, and the next line is an
    OpenMP pragma or a call: where the problem's time is spent."""
    lines = open(os.path.join(SRC, app + ".c")).read().splitlines()
    at = [i for i, l in enumerate(lines) if l.strip() == "/* @augur:%s */" % name]
    return len(at) == 1 and at[0] + 1 < len(lines) and \
        re.match(r"\s*(#pragma omp |\w+\()", lines[at[0] + 1]) is not None


def pg_case(app, extra, np, threads):
    args = ["-t", str(threads)] + extra
    on_out, off_out = run(app, args, np=np), run(app, args + ["--off"], np=np)
    on_exp, on = fields(on_out, "expected"), fields(on_out, "measured")
    off_exp, off = fields(off_out, "expected"), fields(off_out, "measured")
    if None in (on_exp, on, off_exp, off):
        return
    check(on["threads"] == str(threads) and off["threads"] == str(threads),
          "team of %d threads" % threads)
    check(on_exp["pattern"] != "none" and off_exp["pattern"] == "none",
          "ON expects %s, OFF expects %s" % (on_exp["pattern"], off_exp["pattern"]))
    ranks = ",".join(str(r) for r in range(np))
    check(on_exp["ranks"] == ranks, "ON names ranks %s: %s" % (ranks, on_exp["ranks"]))
    site = on_exp.get("site", "")
    check(site.startswith(app + ".") and marker_ok(app, site),
          "site %s is a marker right before a pragma or call in %s.c" % (site, app))
    lon, loff = float(on["lost_seconds"]), float(off["lost_seconds"])
    check(lon >= 0.02, "ON measures %.3f s lost (>= 0.02)" % lon)
    check(lon >= 2 * loff, "ON lost %.3f s >= 2 x OFF lost %.3f s" % (lon, loff))
    ideal = float(on_exp["lost_seconds"])
    if app in ("pg_omp_imbalance", "pg_omp_serial", "pg_omp_critical"):
        check(lon >= 0.5 * ideal, "ON lost %.3f s >= half the ideal %.3f s" % (lon, ideal))
    print("wall: ON %s s, OFF %s s" % (on["wall_seconds"], off["wall_seconds"]))


def stencil_case():
    # The same 32 x 48 domain: 1 rank x 1 thread, 2 ranks x 2 threads.
    res = []
    for np, nx, t in ((1, 32, 1), (2, 16, 2)):
        out = run("omp_stencil", ["-n", "20", "-x", str(nx), "-y", "48", "-t", str(t)], np=np)
        m = re.search(r"^omp_stencil: ranks=(\d+) threads=(\d+) .* residual=(\S+)$", out, re.M)
        check(m is not None and m.group(1) == str(np) and m.group(2) == str(t),
              "summary line for %d rank(s) x %d thread(s)" % (np, t))
        res.append(m.group(3) if m else None)
        timers = re.findall(r"^omp_stencil: rank=(\d+) total=(\S+) sweep=(\S+) halo=(\S+) "
                            r"allreduce=(\S+)$", out, re.M)
        check([int(r[0]) for r in timers] == list(range(np)), "one timer line per rank")
        for r in timers:
            total, parts = float(r[1]), sum(float(x) for x in r[2:])
            # each timer is printed to 1 us: three roundings may add 1.5 us
            check(0 < parts <= total + 1.5e-6,
                  "rank %s: sweep+halo+allreduce %.6f <= total %.6f" % (r[0], parts, total))
    check(res[0] is not None and res[0] == res[1],
          "residual independent of ranks and threads: %s" % res)
    # The same global problem as apps/stencil.c (the MPI-only Jacobi, written
    # separately) on 1 rank: the same answer.
    cmd = [MPIEXEC, "-n", "1", os.path.join(APPDIR, "stencil"), "-n", "20", "-x", "32", "-y", "48"]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, timeout=60, env=ENV).stdout
    m = re.search(r"residual=(\S+)$", out, re.M)
    check(m is not None and m.group(1) == res[0],
          "residual %s, stencil (MPI only) prints %s" % (res[0], m.group(1) if m else None))

def site(line):
    """The "(file:line)" of a dump line (other fields, such as a busy host's
    "[run-delay=N]", may follow it)."""
    m = re.findall(r"\([^() ]+:\d+\)", line)
    return m[-1] if m else line


def recorded_forks(app):
    """Records APP (this compiler's build) at 2 ranks x 2 threads, 3
    iterations, with `augur record`; returns each omp_fork record's site and
    the marker lines of the app's source (NAME -> the line after
    "@augur:NAME")."""
    augur = os.environ["AUGUR"]
    trace = os.path.join(os.environ.get("WORK", "/tmp"), "ompapps-%s-%s.augur" % (app, CC))
    subprocess.run(["rm", "-rf", trace], check=True)
    cmd = [augur, "record", "-o", trace, "--", MPIEXEC, "-n", "2",
           os.path.join(APPDIR, app + "." + CC), "-t", "2", "-n", "3"]
    print("+ " + " ".join(cmd))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=60, env=ENV)
    sys.stdout.write(p.stdout)
    check(p.returncode == 0, "augur record exited %d" % p.returncode)
    dump = subprocess.run([augur, "dump", trace, "--kinds", "omp"], stdout=subprocess.PIPE,
                          text=True, timeout=60).stdout
    marks = {}
    for i, l in enumerate(open(os.path.join(SRC, app + ".c")).read().splitlines()):
        m = re.fullmatch(r"/\* @augur:([\w.]+) \*/", l.strip())
        if m:
            marks[m.group(1)] = i + 2
    return [site(l) for l in dump.splitlines() if " omp_fork " in l], marks


def recorded_site_case():
    """`augur record` (OMPT: the clang build on its libomp, the gcc build on
    the libomp it preloads) sees pg_omp_imbalance's regions, and each fork
    resolves to the line after the marker pg_omp_imbalance.loop: the line
    the diagnosis will name. omp_sites' regions, whose GOMP_parallel call GCC
    puts on another line (a function's first line, a line of the loop it is
    inlined into), resolve to their pragmas all the same (docs/openmp.md,
    "Region lines")."""
    forks, marks = recorded_forks("pg_omp_imbalance")
    want = "(pg_omp_imbalance.c:%d)" % marks["pg_omp_imbalance.loop"]
    # 3 iterations x 2 ranks
    check(len(forks) == 6, "%d omp_fork records, expected 6" % len(forks))
    check(forks and all(f == want for f in forks), "forks at %s, expected %s" % (set(forks), want))
    forks, marks = recorded_forks("omp_sites")
    want = {"(omp_sites.c:%d)" % marks["omp_sites." + n]: 6 for n in ("in_if", "in_else", "last")}
    got = {f: forks.count(f) for f in set(forks)}
    check(got == want, "omp_sites forks at %s, expected %s" % (got, want))


if CASE == "stencil":
    stencil_case()
elif CASE == "recorded_site":
    recorded_site_case()
elif CASE == "usage":
    for app in ["omp_stencil"] + sorted({c[0] for c in CASES.values()}):
        out = run(app, ["--bogus"], want_rc=2)
        check("usage:" in out, "%s: a usage line for a bad argument" % app)
else:
    pg_case(*CASES[CASE])
if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("all checks passed")
