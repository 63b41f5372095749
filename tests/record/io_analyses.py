#!/usr/bin/env python3
"""augur report's MPI-IO section, and diagnose's note that it does not
diagnose file I/O, on a trace of tests/record/rec_io.c.

usage: io_analyses.py AUGUR TRACE NRANKS

Exact figures from what rec_io.c does on each rank: 14 blocks of 64 bytes
written, 15 read (one more through the second open), one file (both opens and
the delete have one id) used by every rank, I/O calls = its MPI_File_* calls
plus the 10 MPI_Wait calls that completed I/O requests (rank 0 also deletes the
file). The text output has the section; a rank's figures sum to the total.
diagnose says, text and JSON, how many MPI-IO calls it did not analyse. The
Paraver export names the MPI-IO types."""
import json
import subprocess
import sys

augur, trace, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
fails = []


def check(cond, msg):
    if not cond:
        fails.append(msg)


BLK = 64
doc = json.loads(subprocess.run([augur, "report", trace, "--json", "--top", "100"],
                                check=True, capture_output=True, text=True).stdout)
io = doc.get("io")
check(io is not None, "no io member")
io = io or {}
check(io.get("bytes_written") == n * 14 * BLK, f"bytes_written {io.get('bytes_written')}")
check(io.get("bytes_read") == n * 15 * BLK, f"bytes_read {io.get('bytes_read')}")
check(io.get("files_total") == 1, f"files_total {io.get('files_total')}")
files = io.get("files", [{}])
check(files and files[0].get("ranks") == n, f"file used by {files[0].get('ranks')} ranks")
check(files and str(files[0].get("name")).startswith("/tmp/augur-rec-io-"),
      f"file name {files[0].get('name')}")
check(0 < io.get("wait_ns", 0) < io.get("time_ns", 0), "wait_ns not inside time_ns")
ranks = io.get("ranks", [])
check(len(ranks) == n, f"{len(ranks)} ranks")
for r in ranks:
    want_calls = 56 + 10 + (1 if r["rank"] == 0 else 0)
    check(r["calls"] == want_calls, f"rank {r['rank']}: {r['calls']} calls, expected {want_calls}")
    check(r["bytes_written"] == 14 * BLK and r["bytes_read"] == 15 * BLK,
          f"rank {r['rank']}: {r['bytes_written']} written, {r['bytes_read']} read")
for key in ("calls", "time_ns", "bytes_written", "bytes_read"):
    check(sum(r[key] for r in ranks) == io.get(key), f"ranks' {key} do not sum to the total")
sites = io.get("sites", [])
check(io.get("sites_total") == len(sites), "sites cut at --top 100")
waits = [s for s in sites if s["call"] == "MPI_Wait"]
check(len(waits) == 10 and all(s["calls"] == n for s in waits),
      f"MPI_Wait sites: {[(s['where'], s['calls']) for s in waits]}")
check(all("rec_io.c" in s["where"] for s in sites), "a call site outside rec_io.c")
check(sum(s["bytes_written"] for s in sites) == io.get("bytes_written"), "sites' bytes")

text = subprocess.run([augur, "report", trace], check=True, capture_output=True,
                      text=True).stdout
check("\nMPI-IO (" in text and "  all ranks " in text, "text: no MPI-IO section")
io_calls = n * 56 + 1  # every rank's MPI_File_* calls and rank 0's delete
dx = json.loads(subprocess.run([augur, "diagnose", trace, "--json"], check=True,
                               capture_output=True, text=True).stdout)
notes = [x for x in dx.get("notes", []) if "MPI-IO calls" in x]
check(len(notes) == 1 and notes[0].startswith(f"{io_calls} MPI-IO calls,"),
      f"diagnose --json notes: {notes}")
text = subprocess.run([augur, "diagnose", trace], check=True, capture_output=True,
                      text=True).stdout
check(f"note: {io_calls} MPI-IO calls, " in text, "diagnose text: no MPI-IO note")
# the Paraver export names the MPI-IO types of a trace that has them (and only then: a
# trace without them keeps its .pcf, tests/compare/outputs.sh)
import os
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "t")
    subprocess.run([augur, "export", trace, "-f", "paraver", "-o", out], check=True,
                   capture_output=True)
    pcf = open(out + ".pcf").read()
    check("   MPI_File_write_at_all\n" in pcf and "   MPI_File_open\n" in pcf,
          "paraver .pcf: no MPI_File_* names")
for f in fails:
    print("FAIL:", f)
print("ok" if not fails else f"{len(fails)} check(s) failed")
sys.exit(1 if fails else 0)
