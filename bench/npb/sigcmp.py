#!/usr/bin/env python3
"""bench/npb/sigcmp.py SIG1 SIG2: are two augur signatures (docs/signature.md,
"Signature file") the same in phases and weights? Compares, per phase, its id,
weight, late/sync flags and its calls per rank (type, peer, size class, call
site); times (base seconds, unit times) and the measurement plan are ignored.
Exit 0 and "same" when they match, else exit 1 and the first differences."""
import sys


def structure(path):
    """Phases of the signature at PATH: {id: (weight, late, sync, calls)}."""
    phases, cur, calls = {}, None, []
    version = None
    for raw in open(path):
        w = raw.split("#", 1)[0].split()
        if not w:
            continue
        if w[0] == "augur-signature":
            version = w[1]
        elif w[0] == "phase":
            cur = w[1]
            calls = []
            # phase ID WEIGHT BASE START MEASURE LATE SYNC
            phases[cur] = (w[2], w[6], w[7], calls)
        elif w[0] == "guard":
            # version 5: guard ID WEIGHT (a phase below the threshold, matched too)
            cur = "guard " + w[1]
            calls = []
            phases[cur] = (w[2], "-", "-", calls)
        elif w[0] == "rank" and cur is not None:
            # v1: rank R N; v2: rank R NCALLS WEIGHT BASE START MEASURE FIRST_UNIT
            calls.append(("rank",) + tuple(w[1:3] if version == "1" else w[1:4]))
        elif w[0] == "call" and cur is not None:
            calls.append(tuple(w[1:6]))  # version 5's BYTES (volume) not compared
    return phases


def order(pid):
    """Phases by id, then the guards by id."""
    return (pid.startswith("guard"), int(pid.split()[-1]))


def main():
    a, b = structure(sys.argv[1]), structure(sys.argv[2])
    diffs = []
    if sorted(a) != sorted(b):
        diffs.append("phase ids differ: %s vs %s" % (" ".join(sorted(a, key=order)),
                                                      " ".join(sorted(b, key=order))))
    for pid in sorted(set(a) & set(b), key=order):
        (wa, la, sa, ca), (wb, lb, sb, cb) = a[pid], b[pid]
        if (wa, la, sa) != (wb, lb, sb):
            diffs.append("phase %s: weight/late/sync %s/%s/%s vs %s/%s/%s" %
                         (pid, wa, la, sa, wb, lb, sb))
        if ca != cb:
            diffs.append("phase %s: calls differ (%d vs %d lines)" % (pid, len(ca), len(cb)))
    if diffs:
        print("\n".join(diffs[:10]))
        sys.exit(1)
    print("same: %d phases, weights %s" % (len(a), " ".join(a[p][0] for p in sorted(a, key=order))))


main()
