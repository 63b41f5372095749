#!/usr/bin/env python3
"""bench_model_score: evaluate.py's per-workload score and its noise floors
(README.md, "Scored per workload") and drift.py on runs whose figures are
worked out by hand below. Exit 0 when every figure is the documented one."""
import csv
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evaluate  # noqa: E402  (bench/model/evaluate.py)


def run(w, wk, th, measured, predicted):
    return {"workload": w, "workers": wk, "threads": th, "rep": 1, "measured": measured,
            "predicted": predicted, "error": abs(predicted - measured) / measured}


def near(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


failures = []


def check(what, got, want):
    if not near(got, want):
        failures.append("%s: %r, expected %r" % (what, got, want))


# W 1000 1x1: runs 10 and 12 ms (mean 11), predicted 11.5: per workload
# |11.5 - 11| / 11; per run 15 % and 4.17 %. W 1000 1x2: one run, 6 ms,
# predicted 6.6: 10 % either way. W 2000 1x1: 20, 20, 26 (mean 22), predicted
# 22: 0 per workload, per run 10, 10, 15.4 %.
errors = [run(1000, 1, 1, 10.0, 11.5), run(1000, 1, 1, 12.0, 11.5), run(1000, 1, 2, 6.0, 6.6),
          run(2000, 1, 1, 20.0, 22.0), run(2000, 1, 1, 20.0, 22.0), run(2000, 1, 1, 26.0, 22.0)]
ws = evaluate.workload_scores(errors)
if [(x["workload"], x["workers"], x["threads"], x["n"]) for x in ws] != \
        [(1000, 1, 1, 2), (1000, 1, 2, 1), (2000, 1, 1, 3)]:
    failures.append("groups: %r" % [(x["workload"], x["workers"], x["threads"], x["n"])
                                    for x in ws])
else:
    check("W 1000 1x1 measured", ws[0]["measured"], 11.0)
    check("W 1000 1x1 error", ws[0]["error"], 0.5 / 11)
    check("W 1000 1x1 signed", ws[0]["signed"], 0.5 / 11)
    check("W 1000 1x2 error", ws[1]["error"], 0.1)
    check("W 2000 1x1 error", ws[2]["error"], 0.0)

# A predictor that differs between the runs of one configuration: the mean
# prediction (10 and 14 -> 12) against the mean measured (12): 0.
ws = evaluate.workload_scores([run(500, 2, 1, 11.0, 10.0), run(500, 2, 1, 13.0, 14.0)])
check("mean prediction", ws[0]["error"], 0.0)

# Noise floors: groups (10, 12), (6) left out (one run), (20, 20, 26).
# Per run: |x - m| / m * sqrt(n / (n - 1)): 1/11*sqrt(2) twice, 2/22*sqrt(1.5)
# twice, 4/22*sqrt(1.5); median 1/11*sqrt(2). Per workload: each divided by
# sqrt(n): 1/11 twice, 2/22*sqrt(1.5)/sqrt(3) twice, 4/22*sqrt(1.5)/sqrt(3);
# median 1/11.
per_run, per_wl = evaluate.noise_floors([[10.0, 12.0], [6.0], [20.0, 20.0, 26.0]])
check("noise per run", per_run, 100 * math.sqrt(2) / 11)
check("noise per workload", per_wl, 100 / 11)
# Groups of 2 and 3 runs, the 3-run ones the majority: each deviation is
# divided by the sqrt(n) of its own group. Per run: 1/11*sqrt(2) twice,
# 1/11*sqrt(1.5) four times, 2/11*sqrt(1.5) twice (median: the mean of the 4th
# and 5th); per workload 1/11 twice, 1/11*sqrt(0.5) four times,
# 2/11*sqrt(0.5) twice.
per_run, per_wl = evaluate.noise_floors([[10.0, 12.0], [20.0, 20.0, 26.0], [20.0, 20.0, 26.0]])
check("noise per run, n = 2 and 3", per_run, 100 * (math.sqrt(1.5) + math.sqrt(2)) / 22)
check("noise per workload, n = 2 and 3", per_wl, 100 * (math.sqrt(0.5) + 1) / 22)
# Two runs per group: the per-workload floor is the per-run one / sqrt(2).
per_run, per_wl = evaluate.noise_floors([[10.0, 12.0], [30.0, 33.0], [7.0, 7.5]])
check("n = 2: per workload = per run / sqrt(2)", per_wl, per_run / math.sqrt(2))
if evaluate.noise_floors([[1.0], [2.0]]) != (None, None):
    failures.append("one run per group: expected no floor")

# drift.py: REF has T_iter 10 (training) and 20 (held-out) per configuration;
# OUT's training runs 10 % faster (the mean 9 of 8, 8, 11), its held-out
# runs as REF (20), and a 2 x 2 row (oversubscribed on 2 cores: left out)
# that would change the medians: held-out / training = 1 / 0.9.

HEADER = ["workload", "workers", "threads", "rep", "t_iter", "status"]
with tempfile.TemporaryDirectory() as tmp:
    for run, train in (("ref", [10.0]), ("out", [8.0, 8.0, 11.0])):
        os.mkdir(os.path.join(tmp, run))
        for s, times in (("train", train), ("held", [20.0])):
            with open(os.path.join(tmp, run, "mw_heat-%s.csv" % s), "w", newline="") as f:
                w = csv.writer(f, lineterminator="\n")
                w.writerow(HEADER)
                for wk, th in ((1, 1), (2, 2)):
                    for i, t in enumerate(times):
                        w.writerow([1000, wk, th, i + 1, t * (5 if (wk, th) == (2, 2) and
                                                          run == "out" else 1), "ok"])
    p = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     "drift.py"), "--apps", "mw_heat",
                        os.path.join(tmp, "ref"), os.path.join(tmp, "out")],
                       capture_output=True, text=True)
    want = "training 0.900, held-out 1.000, held-out/training 1.111"
    if p.returncode != 0 or want not in p.stdout:
        failures.append("drift.py: %r %r, expected %r" % (p.stdout, p.stderr, want))

for f in failures:
    print("bench_model_score: " + f)
print("bench_model_score: %s" % ("FAILED" if failures else "ok"))
sys.exit(1 if failures else 0)
