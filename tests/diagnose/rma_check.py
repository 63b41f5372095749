#!/usr/bin/python3
"""Checks one diagnosed run of a pg_rma_* program (tests/diagnose/rma.sh).

usage: rma_check.py APP_SOURCE BASE NP
BASE.expected: the program's "expected: pattern=P lost_seconds=X ranks=L site=a.b|c"
line; BASE.json / BASE.txt: augur diagnose; BASE.report.json: augur report."""
import json
import os
import re
import sys

RMA = ["late_post", "early_wait", "late_complete", "wait_at_fence", "lock_contention"]
src, base, np = sys.argv[1], sys.argv[2], int(sys.argv[3])
exp = dict(kv.split("=", 1) for kv in open(base + ".expected").read().split()[1:])
d = json.load(open(base + ".json"))
txt = open(base + ".txt").read()
ids = [f["pattern"] for f in d["findings"]]
lines = open(src).read().splitlines()


def line_of(marker):
    """The line after '@augur:<marker>' in the program."""
    for i, s in enumerate(lines):
        if "@augur:" + marker in s:
            return i + 2
    sys.exit("no marker " + marker)


errors = []


def check(cond, what):
    if not cond:
        errors.append(what)


if exp["pattern"] == "none":
    # the control: none of the one-sided patterns above the threshold (and,
    # for pg_rma_bulk, no rma_volume: NONE_ALSO)
    bad = RMA + os.environ.get("NONE_ALSO", "").split()
    check(not [p for p in ids if p in bad], "control has one-sided findings: %s" % ids)
else:
    pat = exp["pattern"]
    if os.environ.get("TOP", "1") == "1":
        check(ids and ids[0] == pat, "top finding is not %s: %s" % (pat, ids))
    else:  # a consequence of the same size may rank first (rma.sh)
        check(pat in ids, "no %s finding: %s" % (pat, ids))
    f = [x for x in d["findings"] if x["pattern"] == pat]
    if f:
        f = f[0]
        app, sites = exp["site"].split(".", 1)
        want = {line_of(app + "." + s): s for s in sites.split("|")}
        got = f["callsites"][0]["line"]
        check(got in want, "%s at line %s, want one of %s" % (pat, got, sorted(want)))
        # each call site's part of the wait lies inside that call's time
        # (augur report): a wait charged to a call that did not take it fails
        rep = json.load(open(base + ".report.json"))
        spent = {}
        for call in rep["calls"]:
            for c in call.get("sites", []):
                spent[c["line"]] = spent.get(c["line"], 0) + c["time_ns"] * 1e-9
        for c in f["callsites"]:
            check(c["seconds"] <= spent.get(c["line"], 0) * 1.001 + 1e-6,
                  "%.4f s charged at line %s, which took %.4f s" % (c["seconds"], c["line"],
                                                                   spent.get(c["line"], 0)))
        ranks = exp["ranks"]
        rlist = [] if ranks == "-" else [int(r) for r in ranks.split(",")]
        # the ranks the program makes wait; under load another may wait too
        check(set(rlist) <= set(f["ranks"]), "ranks %s, want %s" % (f["ranks"], rlist))
        lost = float(exp["lost_seconds"])
        if lost >= 0:
            check(0.6 * lost <= f["seconds"] <= 2.5 * lost,
                  "%s: %.4f s, the program injects %.4f s" % (pat, f["seconds"], lost))
        else:  # the machine's transfer time (pg_rma_bulk): most of the calls' time
            took = sum(spent.get(line_of(app + "." + s), 0) for s in sites.split("|"))
            check(0.5 * took <= f["seconds"],
                  "%s: %.4f s of the %.4f s the transfer calls took" % (pat, f["seconds"], took))
        check(f["cause"] and f["recommendation"], "no cause or recommendation")
        check(f["wait_state"] is None, "wait_state %s" % f["wait_state"])
        check(pat in txt, "text does not name %s" % pat)
    check(any(n.startswith("one-sided calls:") for n in d["notes"]), "no one-sided note")
for e in errors:
    print("FAIL: " + e)
sys.exit(1 if errors else 0)
