"""Checks a diagnosis page (run with Debian's /usr/bin/python3).

  check_page.py page FILE.html NFINDINGS
      FILE is the page as written or Chromium's --dump-dom of it: exactly
      NFINDINGS rows tr.finding with ids finding-1..N and a data-pattern,
      the timeline and the active-process chart as the only two <svg>
      elements, marks on the timeline, the wait-state and critical-path
      tables, no external resource and no XML declaration.
Exits 1 with a message on the first failed check.
"""
import sys
from html.parser import HTMLParser


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.findings, self.svgs, self.ids, self.marks = [], [], set(), 0
        self.external, self.decls = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if a.get("id"):
            if a["id"] in self.ids:
                fail("duplicate id %r" % a["id"])
            self.ids.add(a["id"])
        if tag == "tr" and "finding" in cls:
            self.findings.append((a.get("id"), a.get("data-pattern")))
        if tag == "svg":
            self.svgs.append(a.get("id"))
        if tag == "rect" and "mark" in cls:
            self.marks += 1
        for k in ("src", "href"):
            v = a.get(k)
            if v and not v.startswith("#") and not (k == "href" and tag == "a" and v == ""):
                self.external.append((tag, k, v))
        if tag in ("script", "link", "img", "iframe"):
            self.external.append((tag, "", ""))

    def handle_pi(self, data):
        self.decls.append(data)


def main(args):
    if len(args) != 3 or args[0] != "page":
        fail("usage: check_page.py page FILE NFINDINGS")
    p = Page()
    p.feed(open(args[1], encoding="utf-8").read())
    p.close()
    n = int(args[2])
    want = ["finding-%d" % (i + 1) for i in range(n)]
    if [i for i, _ in p.findings] != want:
        fail("finding rows %s, want %s" % (p.findings, want))
    if not all(pat for _, pat in p.findings):
        fail("a finding row has no data-pattern: %s" % p.findings)
    if p.svgs != ["augur-timeline", "active-chart"]:
        fail("svg elements %s, want the timeline and the active chart" % p.svgs)
    if p.marks < n:
        fail("%d marks on the timeline, want at least %d" % (p.marks, n))
    for t in ("wait-states", "critical-path", "run", "verdict"):
        if t not in p.ids:
            fail("no element with id %r" % t)
    if p.external:
        fail("external resources: %s" % p.external)
    if any("xml" in d for d in p.decls):
        fail("XML declaration inside the page: %s" % p.decls)


main(sys.argv[1:])
