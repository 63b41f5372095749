#!/usr/bin/env python3
"""bench/model's second half (run.sh runs the sweeps, then this): for each
app, fit the seed's prototype on the training sweep (without weights, with the
seed's weights, with relative weights 1 / T_iter^2 and with variance weights
1 / sigma^2), predict every held-out run, score each held-out workload x
configuration against the mean T_iter of its repetitions (the headline) and
each run, choose the best configuration per held-out workload, print one
table and write OUT/bench_model.json. It reads only OUT's CSVs (and
machine.ini): run it again on old sweeps to score them again.

Usage: evaluate.py --augur AUGUR --out OUT --cores N [--minsize M]
                   APP=PROTOTYPE ...   (OUT/APP-train.csv, OUT/APP-held.csv)

Two configuration sets per app and weighting:
  w*t<=N  trained and evaluated on configurations with workers x threads <= N
          cores (uncontended for the workers; `augur model best --cores N`);
  w*t>N   trained on every configuration, |error| on the oversubscribed
          held-out runs only, best with --oversubscribe against the measured
          best over every configuration.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import textwrap

AFFINITY = ("tl2_", "pl2_", "tl3_", "pl3_", "ts_", "ps_")
BASE_PARTITION = ["w2", "w1", "workers", "workload", "local_workload", "threads"]


def say(msg):
    """A note on stdout, wrapped at 100 columns."""
    print(textwrap.fill(msg, 100, subsequent_indent="  "))


def log(msg):
    print("bench/model: " + msg, file=sys.stderr, flush=True)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return rows


def write_csv(path, rows, columns):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({c: r.get(c, "") for c in columns})


def run(args):
    p = subprocess.run(args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def cfg(r):
    return (int(r["workers"]), int(r["threads"]))


def affinity_columns(rows, columns):
    """Affinity columns that vary over the training rows and are one value
    per (workers, threads) configuration: `best` takes a configuration's
    placement from its training runs and refuses a column that differs
    between runs of one configuration (unbound threads land anywhere)."""
    used, left_out = [], []
    for c in columns:
        if not c.startswith(AFFINITY):
            continue
        values = {r[c] for r in rows}
        if len(values) < 2:
            continue
        per = {}
        for r in rows:
            per.setdefault(cfg(r), set()).add(r[c])
        if all(len(v) == 1 for v in per.values()):
            used.append(c)
        else:
            left_out.append(c)
    return used, left_out


def leaves(model_path):
    with open(model_path) as f:
        m = json.load(f)
    return sum(1 for n in m["nodes"] if n["left"] == 0), [v["name"] for v in m["variables"]]


def workload_scores(errors):
    """The score of each held-out workload x configuration (the acceptance's
    "held-out workloads"; README.md, "Scored per workload"): the prediction
    against the workload's measured T_iter, the mean of its n repetitions:
    |mean predicted - mean measured| / mean measured (the prediction is one
    value per configuration and workload; its mean only guards against a
    predictor that differs between runs). `errors`: dicts with workload,
    workers, threads, measured, predicted. Sorted by workload, workers,
    threads."""
    groups = {}
    for x in errors:
        groups.setdefault((x["workload"], x["workers"], x["threads"]), []).append(x)
    out = []
    for (w, wk, th), xs in sorted(groups.items()):
        m = statistics.mean(x["measured"] for x in xs)
        p = statistics.mean(x["predicted"] for x in xs)
        out.append({"workload": w, "workers": wk, "threads": th, "n": len(xs), "measured": m,
                    "predicted": p, "signed": (p - m) / m, "error": abs(p - m) / m})
    return out


def noise_floors(groups):
    """What the runs' own scatter costs a model that knew each held-out
    configuration's true mean T_iter, estimated from the repetitions (groups:
    the T_iter of the n >= 2 runs of each workload x configuration; groups of
    one run are left out). Returns (per run, per workload) in %, or None:
    - per run: the median over runs of |run - mean of its n| / mean x
      sqrt(n/(n-1)) (the mean of n runs is itself off by sigma/sqrt(n); for
      normal noise the factor makes this the median of |run - true mean|);
    - per workload: the same deviations each divided by sqrt(n) of its group:
      the mean of n runs is off from the true mean by sigma/sqrt(n), so its
      median |error| is the single-run one / sqrt(n)."""
    per_run, per_mean = [], []
    for v in groups:
        n = len(v)
        if n < 2:
            continue
        m = statistics.mean(v)
        for x in v:
            d = abs(x - m) / m * (n / (n - 1)) ** 0.5
            per_run.append(d)
            per_mean.append(d / n ** 0.5)
    if not per_run:
        return None, None
    return 100 * statistics.median(per_run), 100 * statistics.median(per_mean)


def held_workloads(held):
    """Per held-out workload (ascending): the workload as written, the median
    measured T_iter of each configuration (over its repetitions), and the
    choice options `best` and `analytic` take for it (the measured
    configurations: their largest worker count and their thread counts)."""
    for w in sorted({float(r["workload"]) for r in held}):
        meas = {}
        for r in held:
            if float(r["workload"]) == w:
                meas.setdefault(cfg(r), []).append(float(r["t_iter"]))
        meas = {c: statistics.median(v) for c, v in meas.items()}
        wl = next(r["workload"] for r in held if float(r["workload"]) == w)
        yield wl, meas, ["--max-workers", str(max(c[0] for c in meas)), "--threads",
                         ",".join(str(t) for t in sorted({c[1] for c in meas}))]


def evaluate(a, app, prototype, weights, subset, train_all, held_all, columns):
    """One line of the table: returns a dict of figures (or with 'error')."""
    cores = a.cores
    auto = prototype == "auto"  # the leaf terms chosen by fit --terms auto
    # weights: none, seed (the seed's eq. 4.5-4.6) or relative (1 / T_iter^2:
    # least squares of relative errors; docs/model.md "Weights")
    tag = "%s-%s-%s%s" % (app, {"none": "u", "seed": "w"}.get(weights, weights[0]),
                          "over" if subset == "over" else "unc", "-auto" if auto else "")
    res = {"app": app, "terms": "auto" if auto else "seed", "weights": weights,
           "configurations": "w*t<=%d" % cores if subset == "unc" else "w*t>%d" % cores}
    if subset == "unc":
        train = [r for r in train_all if cfg(r)[0] * cfg(r)[1] <= cores]
        held = [r for r in held_all if cfg(r)[0] * cfg(r)[1] <= cores]
        held_err = held
    else:
        train = list(train_all)
        held = list(held_all)
        held_err = [r for r in held if cfg(r)[0] * cfg(r)[1] > cores]
    res["train_rows"] = len(train)
    res["held_rows"] = len(held_err)
    if not train or not held_err:
        res["skipped"] = "no training or held-out runs in this set"
        return res
    aff, aff_out = affinity_columns(train, columns)
    res["affinity_used"] = aff
    res["affinity_left_out"] = aff_out
    partition = BASE_PARTITION + aff
    formula = "t_iter ~ %s | %s" % ("1" if auto else prototype, " + ".join(partition))
    res["formula"] = formula
    data = os.path.join(a.out, tag + ".csv")
    write_csv(data, train, columns)
    if weights != "none":
        wdata = os.path.join(a.out, tag + "-w.csv")
        rc, _, err = run([a.augur, "model", "weights", data, "--scheme", weights, "-o", wdata])
        if rc != 0:
            res["error"] = "weights: " + err.strip().splitlines()[-1]
            return res
        data = wdata
    model = os.path.join(a.out, tag + ".model.json")
    fit = [a.augur, "model", "fit", data, "--formula", formula, "-o", model]
    if weights != "none":
        fit += ["--weights", "weight"]
    if a.minsize:
        fit += ["--minsize", a.minsize]
    if auto:
        fit += ["--terms", "auto"]
    rc, out, err = run(fit)
    if rc != 0:
        res["error"] = "fit: " + (err.strip().splitlines() or ["exit %d" % rc])[-1]
        return res
    if auto:
        with open(model) as f:
            res["formula"] = json.load(f)["formula"]
    with open(model[:-len(".json")] + ".txt", "w") as f:
        f.write(out)
    res["leaves"], variables = leaves(model)
    # Held-out |error| per run (seed eq. 5.1).
    errors = []
    for r in held_err:
        # PMNF terms (--terms auto) are not data set columns: predict computes
        # them from workload, workers, threads.
        given = [v for v in variables if v in r]
        if len(given) < len(variables):
            given += [v for v in ("workload", "workers", "threads") if v not in given]
        at = ",".join("%s=%s" % (v, r[v]) for v in given)
        rc, out, err = run([a.augur, "model", "predict", model, "--at", at, "--json"])
        if rc != 0:
            res["error"] = "predict: " + err.strip().splitlines()[-1]
            return res
        pred = json.loads(out)["prediction"]
        meas = float(r["t_iter"])
        errors.append({"workload": float(r["workload"]), "workers": cfg(r)[0],
                       "threads": cfg(r)[1], "rep": int(r["rep"]), "measured": meas,
                       "predicted": pred, "error": abs(pred - meas) / meas})
    e = [x["error"] for x in errors]
    # The noise floor: the spread of the repetitions of each held-out
    # configuration, (max - min) / median over its runs; the median of those.
    reps = {}
    for r in held_err:
        reps.setdefault((r["workload"], cfg(r)), []).append(float(r["t_iter"]))
    spread = [(max(v) - min(v)) / statistics.median(v) for v in reps.values() if len(v) > 1]
    res["rep_spread_pct"] = 100 * statistics.median(spread) if spread else None
    floors = noise_floors(reps.values())
    res["noise_error_pct"] = floors[0]
    res["noise_workload_error_pct"] = floors[1]
    # The headline (README.md, "Scored per workload"): each held-out workload
    # x configuration against the mean T_iter of its repetitions.
    res["workload_errors"] = workload_scores(errors)
    we = [x["error"] for x in res["workload_errors"]]
    res["median_workload_error_pct"] = 100 * statistics.median(we)
    res["max_workload_error_pct"] = 100 * max(we)
    res["median_error_pct"] = 100 * statistics.median(e)
    # The signed error per configuration (median over its held-out runs, %):
    # a bias of one configuration that the |error| hides (README.md, "nbody's
    # 1 x 2").
    signed = {}
    for x in errors:
        signed.setdefault("%dx%d" % (x["workers"], x["threads"]), []).append(
            (x["predicted"] - x["measured"]) / x["measured"])
    res["signed_error_pct"] = {c: 100 * statistics.median(v) for c, v in sorted(signed.items())}
    res["max_error_pct"] = 100 * max(e)
    res["errors"] = errors
    # Best configuration per held-out workload against the measured best (the
    # median over the repetitions of each configuration).
    choices = []
    for wl, meas, which in held_workloads(held):
        w = float(wl)
        cmd = [a.augur, "model", "best", model, "--workload", wl, "--data", data, "--cores",
               str(cores)] + which + ["--json"]
        if subset == "over":
            cmd.append("--oversubscribe")
        rc, out, err = run(cmd)
        ch = {"workload": w, "measured_best": None, "chosen": None, "found": False}
        best_c = min(meas, key=meas.get)
        ch["measured_best"] = {"workers": best_c[0], "threads": best_c[1], "t_iter": meas[best_c]}
        if rc != 0:
            ch["why"] = "best: " + err.strip().splitlines()[-1]
        else:
            b = json.loads(out)["best"]
            if b is None:
                ch["why"] = "best: none (every configuration extrapolated)"
            else:
                c = (b["workers"], b["threads"])
                ch["chosen"] = {"workers": c[0], "threads": c[1], "predicted": b["t_iter"],
                                "t_iter": meas.get(c)}
                if c in meas:
                    ch["ratio"] = meas[c] / meas[best_c]
                    ch["found"] = meas[c] <= 1.02 * meas[best_c]
                else:
                    ch["why"] = "chosen configuration not measured"
        choices.append(ch)
    # The runs `augur model suggest` would add to this training set (the
    # same configuration space as best's).
    cmd = [a.augur, "model", "suggest", model, "--data", data, "--cores", str(cores),
           "--max-workers", str(max(cfg(r)[0] for r in train)), "--threads",
           ",".join(str(t) for t in sorted({cfg(r)[1] for r in train})), "--count", "3", "--json"]
    if subset == "over":
        cmd.append("--oversubscribe")
    rc, out, err = run(cmd)
    res["suggested_runs"] = [s["sweep_args"] for s in json.loads(out)["suggestions"]] \
        if rc == 0 else "suggest: " + (err.strip().splitlines() or ["exit %d" % rc])[-1]
    res["best_found"] = sum(1 for c in choices if c["found"])
    res["best_workloads"] = len(choices)
    res["choices"] = choices
    return res


def analytic(a, app, spec, subset, train_all, held_all):
    """The seed's analytic model (approach A, `augur model analytic`) on the
    same held-out runs and choices as the tree: calibrated on one training
    configuration (1 worker x 1 thread at the median training workload, the
    median of its repetitions), message costs and OpenMP overheads from the
    machine model's [microbench] section (`augur calibrate --openmp`)."""
    cores = a.cores
    if subset == "unc":
        train = [r for r in train_all if cfg(r)[0] * cfg(r)[1] <= cores]
        held = [r for r in held_all if cfg(r)[0] * cfg(r)[1] <= cores]
        held_err = held
    else:
        train, held = list(train_all), list(held_all)
        held_err = [r for r in held if cfg(r)[0] * cfg(r)[1] > cores]
    res = {}
    if not train or not held_err:
        return res
    send, reply, work = spec.split(";")
    wls = sorted({float(r["workload"]) for r in train})
    mid = wls[len(wls) // 2]
    row = next((r for r in train if float(r["workload"]) == mid and cfg(r) == (1, 1)),
               next(r for r in train if float(r["workload"]) == mid))
    calib = "workload=%s,workers=%s,threads=%s" % (row["workload"], row["workers"], row["threads"])
    data = os.path.join(a.out, "%s-analytic-%s.csv" % (app, subset))
    with open(os.path.join(a.out, app + "-train.csv")) as f:
        columns = f.readline().strip().split(",")
    write_csv(data, train, columns)
    base = [a.augur, "model", "analytic", a.machine, "--data", data, "--calib", calib,
            "--send", send, "--reply", reply, "--work", work, "--json"]
    res["analytic_calibration"] = calib
    errors = []
    for r in held_err:
        at = "workload=%s,workers=%s,threads=%s" % (r["workload"], r["workers"], r["threads"])
        rc, out, err = run(base + ["--at", at])
        if rc != 0:
            res["analytic_error"] = err.strip().splitlines()[-1]
            return res
        pred, meas = json.loads(out)["prediction"], float(r["t_iter"])
        errors.append({"workload": float(r["workload"]), "workers": cfg(r)[0],
                       "threads": cfg(r)[1], "measured": meas, "predicted": pred,
                       "error": abs(pred - meas) / meas})
    res["analytic_median_error_pct"] = 100 * statistics.median(x["error"] for x in errors)
    res["analytic_workload_errors"] = workload_scores(errors)
    res["analytic_median_workload_error_pct"] = 100 * statistics.median(
        x["error"] for x in res["analytic_workload_errors"])
    res["analytic_errors"] = errors
    found, choices = 0, []
    for wl, meas, which in held_workloads(held):
        w = float(wl)
        cmd = base + ["--workload", wl, "--cores", str(cores)] + which
        if subset == "over":
            cmd.append("--oversubscribe")
        rc, out, err = run(cmd)
        if rc != 0:
            res["analytic_error"] = err.strip().splitlines()[-1]
            return res
        b = json.loads(out)["best"]
        c = (b["workers"], b["threads"])
        best_c = min(meas, key=meas.get)
        ok = c in meas and meas[c] <= 1.02 * meas[best_c]
        found += ok
        choices.append({"workload": w, "chosen": {"workers": c[0], "threads": c[1],
                                                  "predicted": b["t_iter"], "t_iter": meas.get(c)},
                        "measured_best": {"workers": best_c[0], "threads": best_c[1],
                                          "t_iter": meas[best_c]}, "found": ok})
    res["analytic_best_found"] = found
    res["analytic_choices"] = choices
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--augur", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cores", type=int, required=True)
    ap.add_argument("--minsize", default="")
    ap.add_argument("--reps", default="")
    ap.add_argument("--iterations", default="")
    ap.add_argument("--load-start", default="")
    ap.add_argument("--score-only", action="store_true",
                    help="no sweeps ran (run.sh SCORE_ONLY=1): the load is the scoring's")
    ap.add_argument("--master", default="poll", choices=("poll", "sleep"))
    ap.add_argument("--bind", default="0", choices=("0", "1"),
                    help="1: the sweeps bound each worker's threads to CPUs of their own")
    ap.add_argument("--machine", default="",
                    help="machine model with [microbench] (augur calibrate --openmp)")
    ap.add_argument("--analytic", action="append", default=[],
                    help="APP=SEND;REPLY;WORK for augur model analytic")
    ap.add_argument("--weights", default="none,seed,relative,variance",
                    help="the weightings, comma-separated: none, seed, relative, variance")
    ap.add_argument("apps", nargs="+")
    a = ap.parse_args()
    for w in a.weights.split(","):
        if w not in ("none", "seed", "relative", "variance"):
            ap.error("--weights: %r is not none, seed, relative or variance" % w)
    results, notes = [], []
    specs = dict(x.split("=", 1) for x in a.analytic)
    an_done = {}  # (app, subset) -> the analytic figures
    for spec in a.apps:
        app, prototype = spec.split("=", 1)
        tr_path = os.path.join(a.out, app + "-train.csv")
        he_path = os.path.join(a.out, app + "-held.csv")
        train_all, held_all = read_csv(tr_path), read_csv(he_path)
        with open(tr_path) as f:
            columns = f.readline().strip().split(",")
        bad = [r for r in train_all + held_all if r["status"] != "ok"]
        if bad:
            notes.append("%s: %d run(s) not ok (%s), left out" %
                         (app, len(bad), ", ".join(sorted({r["status"] for r in bad}))))
        train_all = [r for r in train_all if r["status"] == "ok"]
        held_all = [r for r in held_all if r["status"] == "ok"]
        tw = {r["workload"] for r in train_all}
        hw = {r["workload"] for r in held_all}
        if tw & hw:
            notes.append("%s: held-out workloads %s are also training workloads" %
                         (app, ",".join(sorted(tw & hw))))
        for subset in ("unc", "over"):
            an = {}
            if a.machine and app in specs and (app, subset) in an_done:
                an = an_done[(app, subset)]  # the prototype's and auto's rows: one analytic run
            elif a.machine and app in specs:
                log("%s: analytic model (%s)" % (app, "w*t<=%d" % a.cores if subset == "unc"
                                                  else "all configurations"))
                an = an_done[(app, subset)] = analytic(a, app, specs[app], subset, train_all,
                                                       held_all)
            for weights in a.weights.split(","):
                log("%s: fit and evaluate (%s, weights %s)" %
                    (app, "w*t<=%d" % a.cores if subset == "unc" else "all configurations",
                     weights))
                results.append(evaluate(a, app, prototype, weights, subset, train_all,
                                        held_all, columns))
                results[-1].update(an)
    # The table.
    print("augur bench/model  (seed 002 accuracy; %d cores; %s rep(s), %s iterations per run)" %
          (a.cores, a.reps, a.iterations))
    print("  wl|err| (the headline, README.md \"Scored per workload\"): the median over held-out")
    print("  workload x configuration of |predicted - measured| / measured, measured = the mean")
    print("  T_iter of its repetitions; wl.noise: the same for a model that knew each one's true")
    print("  mean (the single-run noise|err| / sqrt(n) of its n repetitions, estimated from them);")
    print("  run|err|: the median |err| of each held-out run (seed eq. 5.1), max: over the runs;")
    print("  best: held-out workloads whose chosen configuration measured within 2 % of the")
    print("  measured best (the median of each configuration's repetitions)")
    print("  rep spread: median over held-out configurations of (max - min) / median of its runs'")
    print("  T_iter (the noise no model can predict); noise|err|: the median |err| of a model that")
    print("  knew each held-out configuration's mean T_iter (from the repetitions: |run - their")
    print("  mean| x sqrt(n/(n-1)), normal noise): what the runs' scatter alone costs a model;")
    print("  analytic: the seed's approach A (augur model analytic) on the same held-out runs:")
    print("  median |err| % per workload x configuration (an.wl) and per run, and best found")
    hdr = "%-10s %-5s %-8s %-8s %6s %5s %7s %9s %9s %9s %9s %10s %12s %11s %8s %14s %9s" % (
        "app", "terms", "configs", "weights", "train", "held", "leaves", "wl|err|%", "wl.noise%",
        "run|err|%", "max|err|%", "best<=2%", "rep spread%", "noise|err|%", "an.wl%",
        "analytic|err|%", "an.best")
    print(hdr)
    for r in results:
        if "median_error_pct" not in r:
            print("%-10s %-5s %-8s %-8s %6d %5d   %s" % (
                r["app"], r["terms"], r["configurations"], r["weights"], r["train_rows"], r["held_rows"],
                r.get("error") or r.get("skipped")))
            continue
        sp = r["rep_spread_pct"]
        ne = r["noise_error_pct"]
        nw = r["noise_workload_error_pct"]
        an = r.get("analytic_median_error_pct")
        anw = r.get("analytic_median_workload_error_pct")
        print("%-10s %-5s %-8s %-8s %6d %5d %7d %9.1f %9s %9.1f %9.1f %10s %12s %11s %8s %14s %9s" % (
            r["app"], r["terms"], r["configurations"], r["weights"], r["train_rows"], r["held_rows"],
            r["leaves"], r["median_workload_error_pct"], "-" if nw is None else "%.1f" % nw,
            r["median_error_pct"], r["max_error_pct"],
            "%d/%d" % (r["best_found"], r["best_workloads"]), "-" if sp is None else "%.1f" % sp,
            "-" if ne is None else "%.1f" % ne,
            "-" if anw is None else "%.1f" % anw,
            "-" if an is None else "%.1f" % an,
            "%d/%d" % (r["analytic_best_found"], r["best_workloads"]) if an is not None else "-"))
    signed = [r for r in results if r.get("signed_error_pct")
              and r["configurations"].startswith("w*t<=")]
    if signed:
        print("signed error per configuration, w*t<=%d rows (median over its held-out runs of "
              "(predicted - measured) / measured, %%):" % a.cores)
        for r in signed:
            print("  %-10s %-5s %-8s %s" % (r["app"], r["terms"], r["weights"], "  ".join(
                "%s %+6.1f" % (c, v) for c, v in r["signed_error_pct"].items())))
    say("configurations with workers x threads > %d are oversubscribed on this machine's %d "
          "cores: rows w*t>%d are fitted on every configuration and give |err| of the "
          "oversubscribed held-out runs only; their best may pick an oversubscribed one and is "
          "compared with the measured best over all." % (a.cores, a.cores, a.cores))
    if a.master == "poll":
        say("the master (rank 0) is one more busy process (MPICH's blocking MPI_Recv polls), so "
              "w*t<=%d still shares the cores with it." % a.cores)
    else:
        say("the master (rank 0) sleeps between MPI_Test calls (the apps' -s): it leaves its "
              "core to the workers, so w*t<=%d runs uncontended." % a.cores)
    if a.bind == "1":
        say("threads bound: each worker's threads on CPUs of their own (bench/model/bind_rank.sh, "
            "KMP_AFFINITY=granularity=fine,compact).")
    with open("/proc/loadavg") as f:
        load_end = f.read().split()[0]
    if a.score_only:
        print("no sweeps ran (SCORE_ONLY=1): the load below is the scoring's, not the sweeps'")
    print("machine load (1-min load average on %d cores): %s at the start, %s at the end" %
          (a.cores, a.load_start or "?", load_end))
    for n in dict.fromkeys(notes):
        say("note: " + n)
    for r in results:
        if r.get("analytic_error") and r["weights"] == "none" and r["terms"] == "seed":
            say("note: %s %s: analytic model failed: %s" % (r["app"], r["configurations"],
                                                           r["analytic_error"]))
    if not a.machine:
        say("note: no machine model with [microbench] (augur calibrate --openmp): no analytic "
            "column")
    for r in results:
        if r.get("affinity_left_out") and r["weights"] == "none" and r["terms"] == "seed" and \
                r["configurations"].startswith("w*t<="):
            say("note: %s: affinity columns left out (they differ between runs of one"
                " configuration%s): %s" % (r["app"], ": threads not bound" if a.bind == "0" else "", ",".join(r["affinity_left_out"])))
    path = os.path.join(a.out, "bench_model.json")
    with open(path, "w") as f:
        json.dump({"schema": 1, "cores": a.cores, "reps": a.reps, "iterations": a.iterations,
                   "bind": a.bind == "1",
                   "load_start": a.load_start, "load_end": load_end,
                   "score_only": a.score_only, "notes": notes, "results": results}, f, indent=1)
    print("figures: " + path)
    # A fit, prediction or choice that failed fails the benchmark.
    return 1 if any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
