#!/usr/bin/env python3
"""How much faster or slower a bench/model run's held-out sweep ran than its
training sweep (README.md, "Four repetitions, and the run order"): for each
app, the median over workload x configuration (w*t <= CORES, runs ok) of the
mean T_iter in OUT against the mean in REF (another run of the same grid,
e.g. the idle machine's), for the training and the held-out sweep, and their
ratio held-out / training. A ratio of 1.10 means the held-out runs were 10 %
slower relative to the training runs than in REF: every prediction from
OUT's training runs is then about 10 % low, whatever the model.

Usage: drift.py [--cores N] REF OUT...   (REF/APP-train.csv, REF/APP-held.csv)
"""
import argparse
import os
import statistics
import sys

from evaluate import cfg, read_csv  # bench/model/evaluate.py: the sweeps' CSV and its grid


def means(path, cores):
    groups = {}
    for r in read_csv(path):
        if r["status"] == "ok" and cfg(r)[0] * cfg(r)[1] <= cores:
            groups.setdefault((r["workload"],) + cfg(r), []).append(float(r["t_iter"]))
    return {k: statistics.mean(v) for k, v in groups.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--apps", default="mw_nbody,mw_heat,mw_kmeans")
    ap.add_argument("ref")
    ap.add_argument("out", nargs="+")
    a = ap.parse_args()
    for out in a.out:
        for app in a.apps.split(","):
            ratio = []
            for s in ("train", "held"):
                paths = [os.path.join(d, "%s-%s.csv" % (app, s)) for d in (a.ref, out)]
                for p in paths:
                    if not os.path.exists(p):
                        sys.exit("drift.py: no %s" % p)
                ref, run = (means(p, a.cores) for p in paths)
                both = [run[k] / ref[k] for k in ref if k in run]
                if not both:
                    sys.exit("drift.py: %s and %s share no workload x configuration" %
                             tuple(paths))
                ratio.append(statistics.median(both))
            print("%s %s: T_iter against %s: training %.3f, held-out %.3f, held-out/training %.3f"
                  % (out, app, a.ref, ratio[0], ratio[1], ratio[1] / ratio[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
