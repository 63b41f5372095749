"""Checks the thread rows of a hand-built hybrid trace (tests/timeline/
test_timeline_omp.c writes it; its thread states are known exactly) in the
timeline SVG and the Chrome, Paraver and OTF2 exports.

usage: check_omp.py svg|chrome|paraver|otf2 FILE
Exit 0 when everything matches, 1 with the differences on stderr."""
import json
import re
import sys
import xml.etree.ElementTree as ET

# enum augur_tstate
MPI, WAIT, SYNC, MUTEX, FORK, JOIN, IDLE, SERIAL, USEFUL = range(9)
NAMES = ["mpi", "omp_wait", "omp_sync", "omp_mutex", "omp_fork", "omp_join", "idle", "serial",
         "useful"]
# (rank, thread) -> [(state, t0, t1)], ns on the trace's timeline
WANT = {
    (0, 0): [(SERIAL, 100, 1100), (FORK, 1100, 1200), (USEFUL, 1200, 4200), (WAIT, 4200, 5200),
             (USEFUL, 5200, 5300), (JOIN, 5300, 5400), (SERIAL, 5400, 6400), (MPI, 6400, 6900),
             (SERIAL, 6900, 7400)],
    (0, 1): [(IDLE, 100, 1100), (FORK, 1100, 1300), (USEFUL, 1300, 5100), (WAIT, 5100, 5200),
             (USEFUL, 5200, 5250), (IDLE, 5250, 6000), (MUTEX, 6000, 6100), (IDLE, 6100, 7400)],
    (1, 0): [(SERIAL, 100, 6000), (MPI, 6000, 6950), (SERIAL, 6950, 7400)],
}
errors = []


def check(cond, what):
    if not cond:
        errors.append(what)


def svg(path):
    """augur timeline --width 7500 over 0..7500 ns: 1 px = 1 ns, x = 84 + t."""
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.parse(path).getroot()
    rows = root.findall(".//s:g[@class='row thread-row']", ns)
    check(len(rows) == 3, "svg: %d thread rows, want 3" % len(rows))
    for g in rows:
        key = (int(g.get("data-rank")), int(g.get("data-thread")))
        got = []
        for r in g.findall("s:rect", ns):
            m = re.match(r"ts ts-(\d+)$", r.get("class", ""))
            if m:
                x, w = float(r.get("x")), float(r.get("width"))
                got.append((int(m.group(1)), round(x - 84), round(x - 84 + w)))
        check(got == WANT.get(key), "svg: row %s: %s, want %s" % (key, got, WANT.get(key)))
        check((g.get("data-initial") == "1") == (key[1] == 0), "svg: row %s initial flag" % (key,))
    legend = {g.get("data-state") for g in root.findall(".//s:g[@class='legend-entry']", ns)}
    check(set(NAMES) <= legend, "svg: legend lacks %s" % (set(NAMES) - legend))


def chrome(path):
    """OpenMP states (not MPI, serial, idle) as 'omp' slices, tid = rank + 2 x thread."""
    d = json.load(open(path))
    got = {}
    for e in d["traceEvents"]:
        if e.get("cat") == "omp":
            check(e["ph"] == "X", "chrome: omp event not a slice: %s" % e)
            key = (e["tid"] % 2, e["tid"] // 2)
            t0 = round(e["ts"] * 1000)
            got.setdefault(key, []).append((NAMES.index(e["name"]), t0, t0 + round(e["dur"] * 1000)))
    want = {k: [s for s in v if s[0] not in (MPI, SERIAL, IDLE)] for k, v in WANT.items()}
    want = {k: v for k, v in want.items() if v}
    got = {k: sorted(v, key=lambda s: s[1]) for k, v in got.items()}
    check(got == want, "chrome: omp slices %s, want %s" % (got, want))
    n = sum(len(v) for v in want.values())
    check(d["otherData"].get("openmp_slices") == n, "chrome: otherData openmp_slices != %d" % n)
    names = {e["args"]["name"] for e in d["traceEvents"] if e.get("name") == "thread_name"}
    check("rank 0 thread 1" in names, "chrome: no track named 'rank 0 thread 1'")
    calls = [e for e in d["traceEvents"] if e.get("cat") == "mpi"]
    check(len(calls) == 6, "chrome: %d MPI slices, want 6" % len(calls))


def paraver(prefix):
    """A Paraver thread per recorder thread; states between MPI calls from the
    thread states (Extrae's numbers), event 50000003 = state + 1."""
    pst = {SERIAL: 1, USEFUL: 1, IDLE: 0, FORK: 7, JOIN: 7, WAIT: 5, SYNC: 5, MUTEX: 9}
    lines = open(prefix + ".prv").read().splitlines()
    check(lines[0].endswith(":1:2(2:1,1:1)"), "paraver: header %s" % lines[0])
    states, evs = {}, {}
    for ln in lines[1:]:
        f = [int(v) for v in ln.split(":")]
        key = (f[3] - 1, f[4] - 1)
        if f[0] == 1:
            states.setdefault(key, []).append((f[7], f[5], f[6]))
        elif f[0] == 2 and f[6] == 50000003 and f[7]:
            evs.setdefault(key, []).append((f[7] - 1, f[5]))
    for key, want in WANT.items():
        w = [(pst[s], a, b) for s, a, b in want if s != MPI]
        g = [s for s in states.get(key, []) if s[0] in (0, 1, 5, 7, 9) and s[1] >= 100]
        check(g == w, "paraver: states of %s: %s, want %s" % (key, g, w))
        we = [(s, a) for s, a, b in want if s != MPI]
        check(evs.get(key) == we, "paraver: events of %s: %s, want %s" % (key, evs.get(key), we))
    row = open(prefix + ".row").read()
    check("LEVEL THREAD SIZE 3\nrank 0 thread 0\nrank 0 thread 1\nrank 1 thread 0\n" in row,
          "paraver: .row threads")
    pcf = open(prefix + ".pcf").read()
    for s in ("OpenMP thread state", "7    Scheduling and Fork/Join", "9   useful"):
        check(s in pcf, "paraver: .pcf lacks %r" % s)


def otf2(path):
    """otf2-print output: per location, OpenMP regions entered and left in
    nesting order, a fork and a join on the encountering thread."""
    per = {}
    for ln in open(path):
        m = re.match(r"(ENTER|LEAVE|THREAD_FORK|THREAD_JOIN|THREAD_ACQUIRE_LOCK|THREAD_RELEASE_LOCK)\s+(\d+)\s+\d+\s+(.*)", ln)
        if not m:
            continue
        rec, loc, rest = m.groups()
        r = re.search(r'Region: "([^"]*)"', rest)
        if rec in ("ENTER", "LEAVE") and not r.group(1).startswith("!$omp"):
            continue
        per.setdefault(int(loc), []).append(rec + (" " + r.group(1) if r else ""))
    body = ["ENTER !$omp parallel", "ENTER !$omp worksharing", "LEAVE !$omp worksharing",
            "ENTER !$omp sync region", "ENTER !$omp sync wait", "LEAVE !$omp sync wait",
            "LEAVE !$omp sync region", "LEAVE !$omp parallel"]
    lock = ["ENTER !$omp mutex wait", "LEAVE !$omp mutex wait", "THREAD_ACQUIRE_LOCK",
            "THREAD_RELEASE_LOCK"]
    want = {0: ["THREAD_FORK"] + body + ["THREAD_JOIN"], 1 << 32: body + lock}
    check(per == want, "otf2: %s, want %s" % (per, want))


{"svg": svg, "chrome": chrome, "paraver": paraver, "otf2": otf2}[sys.argv[1]](sys.argv[2])
for e in errors:
    print("FAIL:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
