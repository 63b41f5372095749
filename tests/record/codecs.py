#!/usr/bin/env python3
"""codecs.py TRACE zstd|raw: the recorder's rank files hold what its compression
at close promises (augur_writer_defer_compression, docs/trace-format.md "Sizes").

zstd (a run that reached MPI_Finalize or exit): every events block of 1 KiB or
more raw is compressed. raw (a killed run): every events block is raw, as
written while the program ran, and at least one is there. Both: no rank file
has a `.part` copy left beside it. Exit 1 with what is wrong."""
import glob
import os
import struct
import sys

trace, want = sys.argv[1], sys.argv[2]
bad, events = [], 0
files = sorted(glob.glob(os.path.join(trace, "rank-*.evt")))
if not files:
    bad.append("no rank files in %s" % trace)
for path in files:
    if os.path.exists(path + ".part"):
        bad.append("%s.part left behind" % path)
    data = open(path, "rb").read()
    at = 32
    while at + 56 <= len(data):
        if data[at:at + 4] != b"ABLK":
            bad.append("%s: no block magic at %d" % (path, at))
            break
        kind, codec = data[at + 4], data[at + 5]
        raw, stored = struct.unpack_from("<II", data, at + 16)
        if kind == 1:
            events += 1
            if want == "zstd" and raw >= 1024 and codec != 1:
                bad.append("%s: events block at %d (%d bytes) not compressed" % (path, at, raw))
            if want == "raw" and codec != 0:
                bad.append("%s: events block at %d compressed" % (path, at))
        at += 56 + stored
if want == "raw" and not events:
    bad.append("no events block")
for b in bad[:10]:
    print("FAIL codecs.py %s: %s" % (want, b))
sys.exit(1 if bad else 0)
