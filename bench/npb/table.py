#!/usr/bin/env python3
"""bench/npb/table.py CSV MD: prints bench/npb's table (a row per kernel and
MPI) from its CSV and writes it as a markdown table to MD."""
import csv
import sys

COLS = [("mpi", "mpi"), ("kernel", "kernel"), ("class", "cls"), ("ranks", "np"),
        ("aet_s", "AET_s"), ("pet_s", "PET_s"), ("pete_pct", "PETE%"),
        ("set_aet_pct", "SET/AET%"), ("verified", "verif"), ("same_phases", "same"),
        ("nphases", "phases"), ("sim_pct", "sim%"), ("sim_over_cores_pct", "over%"),
        ("diagnose_top", "diagnose top finding"), ("predict", "predict"),
        ("exports", "exports")]

rows = list(csv.DictReader(open(sys.argv[1])))
cells = [[h for _, h in COLS]] + [[r.get(k, "") or "-" for k, _ in COLS] for r in rows]
width = [max(len(c[i]) for c in cells) for i in range(len(COLS))]
for c in cells:
    print("  ".join(v.ljust(width[i]) if i in (0, 1, 13, 14, 15) else v.rjust(width[i])
                    for i, v in enumerate(c)).rstrip())
with open(sys.argv[2], "w") as md:
    md.write("| " + " | ".join(cells[0]) + " |\n")
    md.write("|" + "|".join("---" for _ in COLS) + "|\n")
    for c in cells[1:]:
        md.write("| " + " | ".join(c) + " |\n")
