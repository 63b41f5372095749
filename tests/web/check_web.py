#!/usr/bin/env python3
"""Checks for the augur web tests (tests/web/web.sh).

  check_web.py pages BASE MPIJOB NONMPIJOB DB  the pages, their content, bad parameters
  check_web.py token BASE TOKEN              403 without the token, 200 with it
  check_web.py link DOMFILE                  prints the first drill-down href of a DOM dump
  check_web.py threads DOMFILE               the DOM of a thread page (after a drill-down)
  check_web.py png FILE W H MINCOLOURS       a screenshot of that size that is not blank
"""
import html.parser
import sys
import urllib.error
import urllib.request
import zlib


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **k):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def get(base, path, headers=None, method="GET"):
    req = urllib.request.Request(base + path, headers=headers or {}, method=method)
    try:
        with OPENER.open(req, timeout=10) as r:
            return r.status, r.read().decode("utf-8"), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace"), dict(e.headers)


class Page(html.parser.HTMLParser):
    """Rows of table#rows (cells as text), drill links, svgs, <script>s."""

    def __init__(self, text):
        super().__init__()
        self.rows, self.links, self.svg, self.scripts = [], [], 0, 0
        self.in_body = self.in_table = False
        self.cell = None
        self.row = None
        self.ids = set()
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "script":
            self.scripts += 1
        if tag == "svg":
            self.svg += 1
        if tag == "a" and a.get("class") == "drill":
            self.links.append(a["href"])
        if tag == "tbody":
            self.in_body = True
        if tag == "tr" and self.in_body:
            self.row = []
        if tag == "td" and self.row is not None:
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.in_body = False
        if tag == "td" and self.row is not None and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        if tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def page(base, path, want=200):
    st, body, hdr = get(base, path)
    if st != want:
        fail("%s: status %d, want %d: %s" % (path, st, want, body[:300]))
    if "default-src 'none'" not in hdr.get("Content-Security-Policy", ""):
        fail("%s: no Content-Security-Policy header" % path)
    return body, Page(body)


def header_index(body, name):
    start = body.index("<thead>")
    heads = body[start:body.index("</thead>")]
    cols = [h.split(">")[-1] for h in heads.split("</a>")[:-1]]
    return 2 + cols.index(name)


def pages(base, mpi, nonmpi, db):
    global DB
    DB = db
    body, p = page(base, "/")
    if len(p.rows) != 2:
        fail("job list: want 2 rows, got %r" % p.rows)
    if p.scripts:
        fail("job list holds a <script> element (escaping)")
    if "&lt;script&gt;" not in body:
        fail("job list: the command with <script> is not shown escaped")
    if len(p.links) != 2 or not all("job=" in l for l in p.links):
        fail("job list: drill links %r" % p.links)

    body, p = page(base, "/?job=%s" % mpi)
    if "job" not in p.ids:
        fail("job page: no job summary")
    if len(p.rows) != 2 or [r[0] for r in p.rows] != ["rank 0", "rank 1"]:
        fail("job page: want rank 0 and rank 1, got %r" % p.rows)
    ci = header_index(body, "compute_s_avg")
    c0, c1 = float(p.rows[0][ci]), float(p.rows[1][ci])
    print("web: compute_s rank0 %.3f rank1 %.3f ratio %.2f" % (c0, c1, c1 / c0))
    # The page shows what the database holds (6 significant digits) ...
    import sqlite3
    db = sqlite3.connect("file:%s?mode=ro" % DB, uri=True)
    want = dict(db.execute("select rank, compute_s from process_derived where job_pk=? and rank>=0",
                           (int(mpi),)).fetchall())
    if abs(want[0] - c0) > 1e-5 * want[0] or abs(want[1] - c1) > 1e-5 * want[1]:
        fail("job page: compute_s %r %r, database %r" % (c0, c1, want))
    # ... and that is what the app did: rank 1 computes twice as long (a
    # loose bound: the machine is shared).
    if not 1.2 <= c1 / c0 <= 4.0:
        fail("job page: rank 1 should compute about twice as long: %r %r" % (c0, c1))
    if not all("by=thread" in l for l in p.links):
        fail("job page: rank rows should drill to threads: %r" % p.links)
    body, t = page(base, p.links[1].replace("&amp;", "&"))
    if "rows by <b>thread</b>" not in body or not t.rows:
        fail("drill-down to rank 1's threads: %s" % body[-800:])

    body, p = page(base, "/?job=%s" % nonmpi)
    if "rows by <b>process</b>" not in body or len(p.rows) < 2:
        fail("non-MPI job: want its processes, got %r" % p.rows)

    # Aggregations per row and over the rows; the footer's balance is avg/max.
    body, p = page(base, "/?job=%s&by=rank&m=compute_s&agg=avg,max,balance" % mpi)
    for col in ("compute_s_avg", "compute_s_max", "compute_s_balance"):
        if col not in body:
            fail("aggregation column %s missing" % col)
    if "balance over the rows" not in body:
        fail("no footer aggregations")

    for view in ("bar", "line", "scatter"):
        body, p = page(base, "/?job=%s&view=%s&m=compute_s,mpi_s" % (mpi, view))
        if p.svg < 1 or 'class="chart %s"' % view not in body:
            fail("view %s: no SVG chart" % view)
        if view != "line" and len(p.links) < 4:  # the rows' and the bars'/points'
            fail("view %s: the chart's marks are not links: %r" % (view, p.links))

    for by in ("cluster", "user", "job", "step", "node", "program", "rank", "process", "thread"):
        body, p = page(base, "/?by=%s&sql=1&limit=5" % by)
        if "SELECT" not in body or "LIMIT ?" not in body:
            fail("by=%s: no SQL shown" % by)
        if not p.rows:
            fail("by=%s: no rows" % by)
    body, p = page(base, "/?by=process&order=wall_s_max&desc=1&limit=3")
    if len(p.rows) != 3:
        fail("limit 3: got %d rows" % len(p.rows))
    ci = header_index(body, "wall_s_max")
    walls = [float(r[ci]) for r in p.rows]
    if walls != sorted(walls, reverse=True):
        fail("order=wall_s_max&desc=1 not descending: %r" % walls)
    body, p = page(base, "/?user=root&cluster=local&by=job")
    if len(p.rows) != 2:
        fail("user+cluster filter: %r" % p.rows)
    body, p = page(base, "/?user=nobody-here&by=job")
    if p.rows:
        fail("unknown user should give no rows")
    # A filter value is data, never SQL.
    body, p = page(base, "/?user=%27%20OR%201=1--&by=job")
    if p.rows:
        fail("a quote in a filter value changed the query")

    bad = ["/?by=bogus", "/?m=wall_s;drop%20table%20job", "/?m=nosuchmetric", "/?agg=median",
           "/?limit=0", "/?limit=99999999", "/?job=abc", "/?job=-1", "/?rank=x", "/?view=pie",
           "/?order=nosuch", "/?desc=2", "/?frobnicate=1", "/?node=" + "x" * 400,
           "/?m=" + ",".join("m%d" % i for i in range(40))]
    for b in bad:
        st, body, _ = get(base, b)
        if st != 400:
            fail("%s: status %d, want 400" % (b, st))
        if "<script" in body.lower():
            fail("%s: unescaped markup in the error page" % b)
    st, body, _ = get(base, "/?by=%3Cscript%3Ealert(1)%3C/script%3E")
    if st != 400 or "<script>" in body:
        fail("a parameter with markup must be escaped in the 400 page")
    st, _, _ = get(base, "/?job=999999")
    if st != 404:
        fail("unknown job: status %d, want 404" % st)
    st, _, _ = get(base, "/etc/passwd")
    if st != 404:
        fail("other paths: %d, want 404" % st)
    st, _, _ = get(base, "/", method="POST")
    if st != 405:
        fail("POST: %d, want 405" % st)
    fuzz(base)
    body, _ = page(base, "/")  # still serving after all that
    print("web: pages ok")


def fuzz(base, n=150):
    """Random parameter mixes: 200, 400 or 404, never a 5xx or a dead server."""
    import random
    import urllib.parse
    rnd = random.Random(7)
    keys = ["by", "cluster", "user", "job", "step", "node", "program", "rank", "proc", "m",
            "agg", "view", "order", "desc", "limit", "sql", "x", "", "m[]", "%00"]
    vals = ["", "0", "1", "2", "-1", "99999999999999999999", "rank", "thread", "job", "wall_s",
            "wall_s,cpu_s", "avg,balance", "stddev", "bar", "scatter", "line", "wall_s_max",
            "'", "\"", "<svg onload=x>", "%", "\u00e9", "a" * 300, "1e9", " 1", "NaN", ",", ",,"]
    seen = {}
    for _ in range(n):
        q = [(rnd.choice(keys), rnd.choice(vals)) for _ in range(rnd.randint(0, 6))]
        path = "/?" + urllib.parse.urlencode(q)
        st, body, _ = get(base, path)
        seen[st] = seen.get(st, 0) + 1
        if st not in (200, 400, 404):
            fail("%s: status %d" % (path, st))
        if "<svg onload" in body:
            fail("%s: markup from a parameter reached the page" % path)
    print("web: %d random requests: %s" % (n, sorted(seen.items())))


def token(base, tok):
    st, _, _ = get(base, "/")
    if st != 403:
        fail("no token: %d, want 403" % st)
    st, _, _ = get(base, "/?job=1", {"Authorization": "Bearer wrong-token"})
    if st != 403:
        fail("wrong token: %d, want 403" % st)
    st, _, _ = get(base, "/", {"Cookie": "augur_token=" + tok[:-1]})
    if st != 403:
        fail("truncated token: %d, want 403" % st)
    st, _, _ = get(base, "/", {"Authorization": "Bearer " + tok})
    if st != 200:
        fail("Bearer token: %d, want 200" % st)
    st, _, hdr = get(base, "/?token=" + tok)
    if st != 303 or "augur_token=" + tok not in hdr.get("Set-Cookie", ""):
        fail("login with ?token: %d %r" % (st, hdr))
    if "HttpOnly" not in hdr["Set-Cookie"]:
        fail("the cookie should be HttpOnly")
    st, _, _ = get(base, "/", {"Cookie": "augur_token=" + tok})
    if st != 200:
        fail("cookie: %d, want 200" % st)
    print("web: token ok")


def link(dom):
    p = Page(open(dom, encoding="utf-8").read())
    if not p.links:
        fail("%s: no drill-down link in the DOM" % dom)
    print(p.links[-1])


def threads(dom):
    text = open(dom, encoding="utf-8").read()
    p = Page(text)
    if "rows by <b>thread</b>" not in text or not p.rows:
        fail("%s: not a thread page: %s" % (dom, text[-600:]))
    if not any("tid" in r[0] for r in p.rows):
        fail("%s: rows without thread ids: %r" % (dom, p.rows))


def png(path, w, h, mincolours):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    pw, ph = int.from_bytes(hdr[0:4], "big"), int.from_bytes(hdr[4:8], "big")
    depth, ctype = hdr[8], hdr[9]
    if (pw, ph) != (w, h):
        fail("%s is %dx%d, want %dx%d" % (path, pw, ph, w, h))
    if depth != 8 or ctype not in (2, 6):
        fail("%s: unexpected PNG type %d/%d" % (path, depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = pw * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(ph):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        if y % 4 == 0:
            for x in range(0, stride, bpp * 2):
                colours.add(bytes(line[x:x + 3]))
        prev = line
    if len(colours) < mincolours:
        fail("%s looks blank: %d colours" % (path, len(colours)))
    print("web: screenshot %dx%d, %d colours" % (pw, ph, len(colours)))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "pages":
        pages(*args)
    elif cmd == "token":
        token(*args)
    elif cmd == "link":
        link(*args)
    elif cmd == "threads":
        threads(*args)
    elif cmd == "png":
        png(args[0], int(args[1]), int(args[2]), int(args[3]))
    else:
        fail("unknown check " + cmd)
