"""Synthetic master/worker data sets whose best configuration is known.

T_iter = A + B*W/(workers*threads) + C*workers + D*threads (+ noise): the
first term is the workers' share of the work, the second the master's
messages (one per worker), the third the threads' start-up. Usage:

  synth.py data OUT.csv [--noise REL] [--noisy-config WK,THR,FACTOR] [--seed N]
  synth.py truth W CORES OBJECTIVE   # the true best among the trained configs
  synth.py t W WORKERS THREADS       # the true T_iter
"""
import random
import sys

A, B, C, D = 0.002, 1e-5, 1e-3, 1.5e-3
WORKLOADS = [1000, 2000, 4000, 8000]
CONFIGS = [(wk, thr) for wk in (1, 2, 4, 8) for thr in (1, 2, 4, 8) if wk * thr <= 8]
REPS = 3


def t_iter(w, wk, thr):
    return A + B * w / (wk * thr) + C * wk + D * thr


def t_comp(w, wk, thr):
    """The mean worker's computation per iteration."""
    return B * w / (wk * thr) + 0.5 * D * thr


def data(out, noise, noisy, seed=25):
    rng = random.Random(seed)
    cols = ["app", "workload", "workers", "threads", "procs", "rep", "iterations", "t_iter",
            "t_iter_sd", "t_comp_worker", "w1", "w2", "local_workload"]
    with open(out, "w") as f:
        f.write(",".join(cols) + "\n")
        for w in WORKLOADS:
            for wk, thr in CONFIGS:
                rel = noise * (noisy[2] if noisy and (wk, thr) == noisy[:2] else 1)
                for rep in range(1, REPS + 1):
                    t = t_iter(w, wk, thr) * (1 + rng.gauss(0, rel))
                    tc = t_comp(w, wk, thr) * (1 + rng.gauss(0, noise))
                    row = ["synth", w, wk, thr, wk + 1, rep, 10, "%.9g" % t,
                           "%.9g" % (t * rel), "%.9g" % tc, "%.9g" % (w / (wk * thr)),
                           "%.9g" % (w * w / (wk * thr)), "%.9g" % (w / wk)]
                    f.write(",".join(str(c) for c in row) + "\n")


def truth(w, cores, objective):
    def score(c):
        t = t_iter(w, *c)
        return t if objective == "time" else t * t / t_comp(w, *c)
    best = min((c for c in CONFIGS if c[0] * c[1] <= cores), key=score)
    print("%d %d" % best)


if __name__ == "__main__":
    if sys.argv[1] == "data":
        noise, noisy, seed = 0.01, None, 25
        args = sys.argv[3:]
        for i, a in enumerate(args):
            if a == "--noise":
                noise = float(args[i + 1])
            if a == "--noisy-config":
                wk, thr, fac = args[i + 1].split(",")
                noisy = (int(wk), int(thr), float(fac))
            if a == "--seed":
                seed = int(args[i + 1])
        data(sys.argv[2], noise, noisy, seed)
    elif sys.argv[1] == "truth":
        truth(float(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        print("%.9g" % t_iter(float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
