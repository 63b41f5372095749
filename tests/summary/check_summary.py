"""Checks augur summary's outputs against the individual commands' JSON
(run with Debian's /usr/bin/python3).

  check_summary.py json SUMMARY.json REPORT.json DIAGNOSE.json PHASES.json [SIMULATE.json]
      the summary's JSON has every section, and its numbers are the
      commands': efficiencies == report's "efficiencies"; findings == the
      first of diagnose's (whole objects); phases == phases' document;
      predictions.machine.simulate == simulate's (when given; but for
      wall_seconds, the time the simulation took); the run's
      nranks, events, wall_ns, complete == report's.
  check_summary.py text SUMMARY.txt SUMMARY.json
      the text has every section's heading in order, each naming its
      command, and the numbers of the JSON (findings' lost seconds, the
      phases' weights, the efficiencies to 3 decimals).
  check_summary.py page PAGE.html SUMMARY.json
      the page (as written, or Chromium's --dump-dom of it) has the six
      sections in order, the contents linking to each, every in-page link
      resolving, no external resource; the figures (data-value) equal the
      JSON's efficiencies to 1e-9; one finding row per JSON finding with its
      pattern; one phase row per relevant phase with its weight; the
      timeline and active-process drawings; the prediction when in the JSON.
Exits 1 with a message on the first failed check.
"""
import json
import math
import sys
from html.parser import HTMLParser

SECTIONS = ["s-run", "s-efficiencies", "s-findings", "s-timeline", "s-phases", "s-predictions"]


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def load(path):
    with open(path) as f:
        return json.load(f)


def strip_incomplete(d):
    d = dict(d)
    d.pop("incomplete", None)
    d.pop("kept", None)
    return d


def cmd_json(args):
    s, rep, dx, ph = (load(p) for p in args[:4])
    for k in ("schema", "version", "trace", "run", "efficiencies", "findings", "findings_total",
              "phases", "predictions"):
        if k not in s:
            fail("summary JSON has no %r" % k)
    if s["schema"] != "augur-summary":
        fail("schema %r" % s["schema"])
    if s["efficiencies"] != rep["efficiencies"]:
        fail("efficiencies differ from report --json's:\n%s\n%s" % (s["efficiencies"],
                                                                    rep["efficiencies"]))
    n = len(s["findings"])
    if s["findings_total"] != len(dx["findings"]):
        fail("findings_total %d, diagnose has %d" % (s["findings_total"], len(dx["findings"])))
    if n != min(len(dx["findings"]), 5) or s["findings"] != dx["findings"][:n]:
        fail("findings differ from diagnose --json's first %d" % n)
    if s["phases"] != strip_incomplete(ph):
        fail("phases differ from phases --json")
    run = s["run"]
    for k, v in (("nranks", rep["nranks"]), ("events", rep["events"]),
                 ("wall_ns", rep["wall_ns"]), ("complete", rep["complete"])):
        if run.get(k) != v:
            fail("run.%s = %r, report says %r" % (k, run.get(k), v))
    if len(args) > 4:
        # wall_seconds: how long the simulation itself took, not a result
        sim = strip_incomplete(load(args[4]))
        got = dict(s["predictions"].get("machine", {}).get("simulate") or {})
        sim.pop("wall_seconds", None)
        got.pop("wall_seconds", None)
        if got != sim:
            fail("predictions.machine.simulate differs from simulate --json:\n%s\n%s" % (got, sim))
    print("json ok: %d findings, %d phases" % (n, len(s["phases"].get("phases", []))))


def cmd_text(args):
    text = open(args[0]).read()
    s = load(args[1])
    heads = [("Run", "augur report"), ("Efficiencies (POP)", "augur report"),
             ("Top findings", "augur diagnose"), ("Timeline", "augur timeline"),
             ("Phases", "augur phases"), ("Pred", "augur simulate")]
    lines = text.splitlines()
    pos = 0
    for title, command in heads:
        for i in range(pos, len(lines)):
            if lines[i].startswith(title):
                break
        else:
            fail("no section %r after line %d:\n%s" % (title, pos, text))
        block = "\n".join(lines[i:i + 40])
        if "detail: " + command not in block:
            fail("section %r does not name %r" % (title, command))
        pos = i + 1
    for f in s["findings"]:
        if "%.3f" % f["seconds"] not in text or f["pattern"] not in text:
            fail("finding %s %.3f not in the text" % (f["pattern"], f["seconds"]))
    for p in s["phases"].get("phases", []):
        if p.get("relevant") and not any(l.split()[:2] == [str(p["id"]), str(p["weight"])]
                                         for l in lines if l.strip()):
            fail("relevant phase %d (weight %d) not in the text" % (p["id"], p["weight"]))
    e = s["efficiencies"]
    for k in ("parallel", "load_balance", "communication"):
        if e.get(k) is not None and "%.3f" % e[k] not in text:
            fail("efficiency %s %.3f not in the text" % (k, e[k]))
    print("text ok")


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.order, self.hrefs, self.external = [], [], [], []
        self.findings, self.phases, self.figures, self.svgs = [], [], {}, []
        self.values = {}
        self.table = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if a.get("id"):
            if a["id"] in self.ids:
                fail("duplicate id %r" % a["id"])
            self.ids.append(a["id"])
        if tag == "section":
            self.order.append(a.get("id"))
        if tag == "table":
            self.table = a.get("id")
        for k in ("src", "href"):
            v = a.get(k)
            if v and not v.startswith("#"):
                self.external.append((tag, k, v))
            elif v and tag == "a":
                self.hrefs.append(v[1:])
        if tag == "tr" and "finding" in cls:
            self.findings.append(a.get("data-pattern"))
        if tag == "tr" and "phase" in cls:
            self.phases.append((int(a["data-id"]), int(a["data-weight"])))
        if tag == "tr" and "figure" in cls and self.table == "efficiencies":
            self.figures[a["data-key"]] = None
            self.key = a["data-key"]
        if tag == "td" and "num" in cls and self.table == "efficiencies" and \
                "data-value" in a:
            self.figures[self.key] = float(a["data-value"])
        if tag == "tr" and "data-value" in a and self.table == "prediction":
            self.values[a["data-key"]] = float(a["data-value"])
        if tag == "svg":
            self.svgs.append(a.get("id"))


def cmd_page(args):
    p = Page()
    p.feed(open(args[0]).read())
    s = load(args[1])
    if p.order != SECTIONS:
        fail("sections %r, want %r" % (p.order, SECTIONS))
    for h in p.hrefs:
        if h not in p.ids:
            fail("link #%s goes nowhere" % h)
    for sec in SECTIONS:
        if sec not in p.hrefs:
            fail("nothing links to section %s" % sec)
    if p.external:
        fail("external resources: %r" % p.external[:3])
    e = s["efficiencies"]
    if "error" not in e:
        for k in ("parallel", "load_balance", "communication", "serialisation", "transfer"):
            want, got = e.get(k), p.figures.get(k, "missing")
            if got == "missing":
                fail("no figure %s on the page" % k)
            if (want is None) != (got is None) or (want is not None and
                                                    not math.isclose(got, want, abs_tol=1e-9)):
                fail("figure %s: page %r, JSON %r" % (k, got, want))
    if isinstance(s["findings"], list):
        want = [f["pattern"] for f in s["findings"]]
        if p.findings != want:
            fail("finding rows %r, JSON %r" % (p.findings, want))
        if p.svgs != ["augur-timeline", "active-chart"]:
            fail("drawings %r: want the timeline and the active-process chart" % p.svgs)
    if "phases" in s["phases"]:
        want = sorted((q["id"], q["weight"]) for q in s["phases"]["phases"] if q["relevant"])
        if sorted(p.phases) != want:
            fail("phase rows %r, JSON's relevant phases %r" % (p.phases, want))
    m = s["predictions"].get("machine")
    if m and "simulate" in m and "predicted_seconds" in m["simulate"]:
        got = p.values.get("predicted_seconds")
        # simulate's JSON states seconds to the nanosecond
        if got is None or not math.isclose(got, m["simulate"]["predicted_seconds"],
                                           rel_tol=0, abs_tol=1e-9):
            fail("predicted %r, JSON %r" % (got, m["simulate"]["predicted_seconds"]))
    print("page ok: %d findings, %d phases" % (len(p.findings), len(p.phases)))


def main():
    cmds = {"json": cmd_json, "text": cmd_text, "page": cmd_page}
    if len(sys.argv) < 3 or sys.argv[1] not in cmds:
        fail(__doc__)
    cmds[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
