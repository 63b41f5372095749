"""Checks a diagnosis page (run with Debian's /usr/bin/python3).

  check_page.py page FILE.html NFINDINGS
      FILE is the page as written or Chromium's --dump-dom of it: exactly
      NFINDINGS rows tr.finding with ids finding-1..N and a data-pattern,
      the timeline and the active-process chart as the only two <svg>
      elements, marks on the timeline, the wait-state and critical-path
      tables, no external resource and no XML declaration.
  check_page.py figures FILE ID [KEY=VALUE ...]
      the table of figures with element id ID (the POP efficiencies) has a
      row data-key=KEY for each KEY, in that order among its rows, whose
      value is VALUE (an arithmetic expression such as 2.75/3, to 1e-9 in
      data-value and to the 3 decimals shown) or "unknown" (said, and no
      number).
  check_page.py nofigures FILE ID
      there is no element with id ID.
  check_page.py warnings FILE N [TEXT ...]
      exactly N warnings (li.warning) over the tables of figures, and each
      TEXT in one of them.
Exits 1 with a message on the first failed check.
"""
import ast
import operator
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
        # the tables of figures: {id: [[key, data-value, shown text]]}, and
        # the warnings over them
        self.tables, self.warnings = {}, []
        self.table = self.cell = self.warning = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        self.figures_start(tag, a, cls)
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

    def figures_start(self, tag, a, cls):
        if tag == "table" and "figures" in cls:
            self.table = self.tables.setdefault(a.get("id"), [])
        elif tag == "tr" and "figure" in cls and self.table is not None:
            self.table.append([a.get("data-key"), None, ""])
        elif tag == "td" and "num" in cls and self.table:
            self.table[-1][1] = a.get("data-value")
            self.cell = self.table[-1]
        elif tag == "li" and "warning" in cls:
            self.warning = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None
        elif tag == "td":
            self.cell = None
        elif tag == "li" and self.warning is not None:
            self.warnings.append(self.warning)
            self.warning = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[2] += data
        if self.warning is not None:
            self.warning += data


OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
       ast.Div: operator.truediv}


def arith(text):
    """The value of an arithmetic expression of numbers, + - * / and ()."""
    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)):
            return float(n.value)
        if isinstance(n, ast.BinOp) and type(n.op) in OPS:
            return OPS[type(n.op)](ev(n.left), ev(n.right))
        fail("not arithmetic: %r" % text)
    return ev(ast.parse(text, mode="eval"))


def check_figures(p, tid, wants):
    rows = p.tables.get(tid)
    if rows is None:
        fail("no table of figures with id %r (tables: %s)" % (tid, sorted(p.tables, key=str)))
    keys = [r[0] for r in rows]
    at = -1
    for want in wants:
        key, value = want.split("=", 1)
        if key not in keys:
            fail("table %r has no row %r (rows: %s)" % (tid, key, keys))
        i = keys.index(key)
        if i < at:
            fail("table %r: row %r before the one above it in %s" % (tid, key, keys))
        at = i
        _, dv, shown = rows[i]
        shown = shown.strip()
        if value == "unknown":
            if dv is not None or shown != "unknown":
                fail("%s %s: data-value %r, shown %r, want unknown" % (tid, key, dv, shown))
            continue
        v = arith(value)
        if dv is None:
            fail("%s %s: no data-value (shown %r), want %.12g" % (tid, key, shown, v))
        if abs(float(dv) - v) > 1e-9 * max(1.0, abs(v)):
            fail("%s %s: data-value %s, want %.12g" % (tid, key, dv, v))
        if shown != "%.3f" % v:
            fail("%s %s: shown %r, want %.3f" % (tid, key, shown, v))


def main(args):
    if len(args) < 3 or args[0] not in ("page", "figures", "nofigures", "warnings"):
        fail("usage: check_page.py page|figures|nofigures|warnings FILE ...")
    p = Page()
    p.feed(open(args[1], encoding="utf-8").read())
    p.close()
    if args[0] == "figures":
        return check_figures(p, args[2], args[3:])
    if args[0] == "nofigures":
        if args[2] in p.ids:
            fail("an element with id %r" % args[2])
        return
    if args[0] == "warnings":
        if len(p.warnings) != int(args[2]):
            fail("%d warnings, want %s: %s" % (len(p.warnings), args[2], p.warnings))
        for text in args[3:]:
            if not any(text in w for w in p.warnings):
                fail("no warning with %r: %s" % (text, p.warnings))
        return
    if len(args) != 3:
        fail("usage: check_page.py page FILE NFINDINGS")
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
