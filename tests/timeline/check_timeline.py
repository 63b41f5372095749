"""Checks for `augur timeline` output (run with Debian's /usr/bin/python3).

  check_timeline.py svg FILE.svg --ranks A-B [--dump DUMP.txt --from NS --to NS]
      SVG parses as XML; one row per rank of A-B (and no other), legend
      entries for every state, an axis with ticks, title; with --dump, the
      number of message arrows equals the matched messages of the window
      computed independently here from `augur dump` output.
  check_timeline.py html FILE.html --ranks A-B
      the page embeds the SVG, a summary table with one line per rank, and
      loads no external resource.
  check_timeline.py dom DOM.html --ranks A-B
      Chromium's --dump-dom of the page: the SVG rows exist after load.
  check_timeline.py png FILE.png WIDTH HEIGHT MINCOLOURS
      a PNG of exactly WIDTHxHEIGHT with at least MINCOLOURS distinct colours.
Exits 1 with a message on the first failed check.
"""
import re
import struct
import sys
import zlib
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
STATES = ["compute", "p2p send", "p2p receive/wait", "collective", "barrier", "other MPI"]


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def opt(args, name, default=None):
    if name in args:
        return args[args.index(name) + 1]
    return default


def rank_range(args):
    a, _, b = opt(args, "--ranks").partition("-")
    return int(a), int(b or a)


def check_svg_tree(root, lo, hi):
    if root.tag != NS + "svg":
        fail("root element is %s, not svg in the SVG namespace" % root.tag)
    rows = [g for g in root.iter(NS + "g") if g.get("class") == "row"]
    got = sorted(int(g.get("data-rank")) for g in rows)
    if got != list(range(lo, hi + 1)):
        fail("rows for ranks %s, want %d-%d" % (got, lo, hi))
    for g in rows:
        if not any(r.get("class", "").startswith("st ") for r in g.iter(NS + "rect")):
            fail("row of rank %s has no state rectangle" % g.get("data-rank"))
    legend = [g for g in root.iter(NS + "g") if g.get("class") == "legend-entry"]
    names = [g.get("data-state") for g in legend]
    for s in STATES + ["message", "mark"]:
        if s not in names:
            fail("legend has no entry '%s' (has %s)" % (s, names))
    axis = [g for g in root.iter(NS + "g") if g.get("id") == "axis"]
    if len(axis) != 1:
        fail("want one axis group, got %d" % len(axis))
    ticks = [g for g in axis[0] if g.get("class") == "tick"]
    if len(ticks) < 2:
        fail("axis has %d ticks, want at least 2" % len(ticks))
    for t in ticks:
        label = t.find(NS + "text").text
        if not re.fullmatch(r"[0-9.]+ (ns|\u00b5s|ms|s)", label):
            fail("tick label %r has no unit" % label)
    if root.find(NS + "title") is None:
        fail("no <title>")
    return [l for l in root.iter(NS + "line") if l.get("class") == "msg"]


DUR = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def dump_messages(path):
    """Matched messages from `augur dump` lines, FIFO per (sender, receiver,
    comm, tag): (t_send_ns, t_recv_ns, sender, receiver). Receive end = the
    end of the call (or of the parent of a completion/sub-record)."""
    sends, recvs, out = {}, {}, []
    parent_end = {}
    line_re = re.compile(
        r"^\s*(\d+\.\d+)\s+(?:([\d.]+) (ns|us|ms|s)\s+)?(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\d+)")
    for line in open(path):
        m = line_re.match(line)
        if not m:
            continue
        t = round(float(m.group(1)) * 1e9)
        call, comm, peer, tag = m.group(6), m.group(7), m.group(8), m.group(9)
        rank = int(m.group(4))
        nbytes, nrecv = int(m.group(10)), int(m.group(11))
        if m.group(2):
            end = t + float(m.group(2)) * DUR[m.group(3)]
            parent_end[rank] = end
        else:
            end = parent_end[rank]
        if not peer.isdigit() or not tag.lstrip("-").isdigit():
            continue
        peer = int(peer)
        if call in ("MPI_Send", "MPI_Isend", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Issend",
                    "MPI_Sendrecv") or (call.startswith("COMPLETION") and nbytes > 0 and nrecv == 0):
            if call.startswith("COMPLETION"):
                continue  # nonblocking sends are counted at the Isend
            side, key, tt = "s", (rank, peer, comm, tag), t
        elif call in ("MPI_Recv", "SUB_RECV") or (call.startswith("COMPLETION") and nrecv > 0):
            side, key, tt = "r", (peer, rank, comm, tag), end
        else:
            continue
        mine, other = (sends, recvs) if side == "s" else (recvs, sends)
        if other.get(key):
            o = other[key].pop(0)
            ts, tr = (tt, o) if side == "s" else (o, tt)
            out.append((ts, tr, key[0], key[1]))
        else:
            mine.setdefault(key, []).append(tt)
    return out


def count_in_window(msgs, lo, hi, t0, t1):
    return sum(1 for ts, tr, s, r in msgs
               if lo <= s <= hi and lo <= r <= hi and min(ts, tr) <= t1 and max(ts, tr) >= t0)


def cmd_svg(args):
    path = args[0]
    lo, hi = rank_range(args)
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail("%s is not well-formed XML: %s" % (path, e))
    arrows = check_svg_tree(root, lo, hi)
    dump = opt(args, "--dump")
    if dump:
        msgs = dump_messages(dump)
        t0, t1 = float(opt(args, "--from")), float(opt(args, "--to"))
        # dump rounds durations (3-4 digits): allow endpoints that close to an edge
        slack = float(opt(args, "--slack", "50000"))
        n_in = count_in_window(msgs, lo, hi, t0 + slack, t1 - slack)
        n_out = count_in_window(msgs, lo, hi, t0 - slack, t1 + slack)
        if not n_in <= len(arrows) <= n_out:
            fail("%d message arrows, want %d..%d (matched messages of the window from augur dump, "
                 "%d in the whole trace)" % (len(arrows), n_in, n_out, len(msgs)))
        want = opt(args, "--min-arrows")
        if want and len(arrows) < int(want):
            fail("%d message arrows, want at least %s" % (len(arrows), want))
    print("svg ok: ranks %d-%d, %d arrows" % (lo, hi, len(arrows)))


def cmd_html(args):
    path = args[0]
    lo, hi = rank_range(args)
    text = open(path, encoding="utf-8").read()
    if not text.startswith("<!DOCTYPE html>"):
        fail("no doctype")
    for bad in ("http://", "https://", "src=", "<link", "<script"):
        # the SVG namespace URI is the one allowed absolute URL
        if bad in text.replace('xmlns="http://www.w3.org/2000/svg"', ""):
            fail("page refers to something external (%r)" % bad)
    m = re.search(r"<svg .*?</svg>", text, re.S)
    if not m:
        fail("no embedded svg")
    check_svg_tree(ET.fromstring(m.group(0)), lo, hi)
    rows = re.findall(r'<tr class="rank-row"><td>(\d+)</td>', text)
    if [int(r) for r in rows] != list(range(lo, hi + 1)):
        fail("summary table rows %s, want ranks %d-%d" % (rows, lo, hi))
    print("html ok")


def cmd_dom(args):
    text = open(args[0], encoding="utf-8").read()
    lo, hi = rank_range(args)
    for r in range(lo, hi + 1):
        if 'id="rank-%d"' % r not in text:
            fail("DOM after load has no row for rank %d" % r)
    if 'id="summary"' not in text or 'id="legend"' not in text:
        fail("DOM after load lacks the summary table or the legend")
    print("dom ok")


def cmd_png(args):
    path, w, h, mincol = args[0], int(args[1]), int(args[2]), int(args[3])
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    width, height, depth, ctype = hdr[0], hdr[1], hdr[2], hdr[3]
    if (width, height) != (w, h):
        fail("PNG is %dx%d, want %dx%d" % (width, height, w, h))
    if depth != 8 or ctype not in (2, 6):
        fail("unexpected PNG format depth %d colour type %d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        if y % 2 == 0:  # every other line is plenty to count colours
            for x in range(0, stride, bpp * 2):
                colours.add(bytes(line[x:x + 3]))
        prev = line
    if len(colours) < mincol:
        fail("%s has %d distinct colours, want at least %d (blank page?)" % (path, len(colours), mincol))
    print("png ok: %dx%d, %d colours" % (width, height, len(colours)))


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    {"svg": cmd_svg, "html": cmd_html, "dom": cmd_dom, "png": cmd_png}[sys.argv[1]](sys.argv[2:])


main()
