#!/usr/bin/python3
"""Prints the MPI part of an `augur diagnose --json` document (file argv[1]):
without the OpenMP findings (those with "thread_seconds", docs/diagnose.md
"OpenMP patterns"), their count below the threshold, the "openmp" object
and the notes on OpenMP; the intervals' finding indices renumbered. A
hybrid trace's MPI part equals the diagnosis of its MPI records alone."""
import json
import sys

d = json.load(open(sys.argv[1]))
keep = [i for i, f in enumerate(d["findings"]) if "thread_seconds" not in f]
index = {old: new for new, old in enumerate(keep)}
d["findings"] = [d["findings"][i] for i in keep]
for iv in d.get("intervals", []):
    if iv["finding"] is not None:
        iv["finding"] = index.get(iv["finding"])
if "openmp" in d:
    d["below_threshold"] -= d["openmp"]["below_threshold"]
    del d["openmp"]
d["notes"] = [n for n in d["notes"] if "OpenMP" not in n and not n.startswith("threads ")]
print(json.dumps(d, indent=1))
