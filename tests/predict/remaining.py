"""What `augur predict --json` says after an early stop, against the
signature it ran (docs/signature.md, "The speed and the repetitions to come"):
  - every repeating phase's curve runs from (0, 0) to (WEIGHT, BASE x WEIGHT);
  - scale is the pooled speed: the time of every repetition timed here over
    the same repetitions' time in the base run (SAMPLE_SECONDS), over the
    phases whose planned repetitions were all timed and are typical of them;
  - remaining = scale x the curves' base time after `seen` (PhaseET per
    repetition for a phase without a curve) + rest x the share left;
  - speed_range: the fastest and slowest phase's own speed (samples of 1 ms
    or more); pet_own_speeds_seconds: PET with each phase to come at its own
    speed (the pool for a phase without one); speed_varies when that moves
    PET by more than 15 %; pet_range_seconds spans the two PETs.
usage: remaining.py SIGNATURE PREDICTION_JSON"""
import json
import sys

sig = open(sys.argv[1]).read().split("\n")
pred = json.load(open(sys.argv[2]))
assert sig[0] == "augur-signature 5", sig[0]
line = {}
for i, l in enumerate(sig):
    if l.startswith("phase "):
        w = l.split()
        n = int(sig[i + 1].split()[1])
        assert sig[i + 1].startswith("curve "), sig[i + 1]
        pts = [(int(a.split()[1]), float(a.split()[2])) for a in sig[i + 2:i + 2 + n]]
        line[int(w[1])] = (int(w[2]), float(w[3]), int(w[5]), float(w[8]), pts)


def left(pid, each, seen):
    w, base, _, _, pts = line[pid]
    if w >= 2:  # from 0 to WEIGHT, the base run's PhaseET x W in all
        assert pts and pts[0] == (0, 0.0) and pts[-1][0] == w, pts
        # BASE is printed with 9 decimals: W x its rounding (0.5e-9) is in the product.
        assert abs(pts[-1][1] - base * w) <= 1e-6 * base * w + 0.5e-9 * w + 1e-8, (pts[-1], base, w)
    if not pts:  # a single repetition: its PhaseET here
        return each * max(w - seen, 0)
    if seen >= w:
        return 0.0
    for (a, ta), (b, tb) in zip(pts, pts[1:]):
        if a <= seen <= b:
            return pts[-1][1] - (ta + (tb - ta) * (seen - a) / (b - a))


here = there = 0.0
for q in pred["phases"]:
    _, _, k, sample, _ = line[q["id"]]
    if q["status"] == "measured" and q["measured"] == k and sample > 0 and not q["untypical_sample"]:
        here += q["timed_seconds"] * q["measured"]
        there += sample * q["measured"]
if here > 0:
    assert abs(pred["scale"] - here / there) <= 1e-5 * here / there, (pred["scale"], here / there)
# The spread: the slowest and fastest of those phases' own speeds, over the
# phases whose sample took 1 ms or more in the base run.
own = {}
for q in pred["phases"]:
    _, _, k, sample, _ = line[q["id"]]
    if q["status"] == "measured" and q["measured"] == k and sample > 0 and \
            not q["untypical_sample"] and sample * q["measured"] >= 1e-3:
        own[q["id"]] = q["timed_seconds"] / sample
if pred["stopped_early"] and len(own) >= 2:
    lo, hi = pred["speed_range"]
    sp = list(own.values())
    assert abs(lo - min(sp)) <= 1e-5 * lo and abs(hi - max(sp)) <= 1e-5 * hi, (own, lo, hi)
    po = pred["pet_own_speeds_seconds"]
    if pred["remaining_from"] == "base run x scale":
        # Each phase's repetitions to come at its own speed, the pool for the rest.
        k = pred["scale"]
        o = done = whole = 0.0
        for q in pred["phases"]:
            w = line[q["id"]][0]
            lq = left(q["id"], q["phase_seconds"] / k, min(q["seen"], w))
            aq = left(q["id"], q["phase_seconds"] / k, 0)
            v = own.get(q["id"], k) if line[q["id"]][4] else k  # no curve: PhaseET here
            o, done, whole = o + lq * v, done + (aq - lq) * k, whole + aq * k
        want = pred["run_seconds"] + o + pred["rest_seconds"] * (1 - done / whole) + \
            pred["launch_seconds"]
        assert abs(po - want) <= 1e-5 * want, (po, want)
        assert pred["speed_varies"] == (abs(po - pred["pet_seconds"]) > 0.15 * pred["pet_seconds"])
    else:
        assert pred["speed_varies"] is False and po == pred["pet_seconds"], pred
    a, b = pred["pet_range_seconds"]
    assert a == min(po, pred["pet_seconds"]) and b == max(po, pred["pet_seconds"]), pred
else:
    assert pred["speed_range"] is None and pred["speed_varies"] is False, pred
if pred["pet_source"] == "run + remaining":
    assert pred["remaining_from"] == "base run x scale", pred["remaining_from"]
    rem = done = whole = 0.0
    k = pred["scale"]
    for q in pred["phases"]:
        w = line[q["id"]][0]
        lq = left(q["id"], q["phase_seconds"] / k, min(q["seen"], w)) * k
        aq = left(q["id"], q["phase_seconds"] / k, 0) * k
        rem, done, whole = rem + lq, done + aq - lq, whole + aq
    want = rem + pred["rest_seconds"] * (1 - done / whole)
    assert abs(pred["remaining_seconds"] - want) <= 1e-5 * want, (pred["remaining_seconds"], want)
    pet = pred["run_seconds"] + pred["remaining_seconds"] + pred["launch_seconds"]
    assert abs(pred["pet_seconds"] - pet) <= 1e-6 * pet, (pet, pred)
else:
    assert pred["remaining_from"] == "none", pred["remaining_from"]
if pred["stopped_early"]:
    # The stop itself (the results seen, SIGTERM, the job's end) is not in PET: a
    # full run does not pay it (issue 21: IS A's 1.8 s runs were predicted +18 %
    # with it in). SET = start-up (launch) + the ranks' run + the stop.
    st = pred["stop_seconds"]
    assert st > 0, pred
    if pred["launch_seconds"] > 0:
        got = pred["launch_seconds"] + pred["run_seconds"] + st
        assert abs(got - pred["set_seconds"]) <= 1e-6 * pred["set_seconds"], (got, pred)
