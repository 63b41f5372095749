"""Rewrites a ph_periodic signature (phases: set-up 1, the iteration, the
extra exchange of every K-th iteration) into one whose K-th iteration is one
phase: the iteration's calls then the extra exchange's (weight N/K), beside
the plain iteration (weight N - N/K). The plain iteration's fingerprint then
lies inside the K-th one's, as NPB MG's phase 12 lies in its phase 4.
usage: nested_sig.py IN OUT N K"""
import sys
src, out, n, k = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lines = open(src).read().rstrip("\n").split("\n")
head, blocks, cur = [], [], None
for l in lines:
    if l.startswith("guards ") or l == "end":  # version 5: guards after the phases
        break
    if l.startswith("phase "):
        cur = [l]
        blocks.append(cur)
    elif cur is None:
        head.append(l)
    else:
        cur.append(l)


def ranks(block):
    """{rank: [call lines]} of a phase block."""
    r, calls = None, {}
    for l in block[1:]:
        if l.startswith("rank "):
            r = int(l.split()[1])
            calls[r] = []
        elif l.startswith("call ") and r is not None:
            calls[r].append(l)
    return calls


# The set-up is the first phase; the teardown (weight 1, late: kept at no
# cost since docs/phases.md "Relevance by cost") is left out.
setup = blocks[0]
by_weight = sorted((b for b in blocks[1:] if int(b[0].split()[2]) > 1),
                   key=lambda b: int(b[0].split()[2]))
extra, it = by_weight[0], by_weight[1]
assert int(it[0].split()[2]) == n and int(extra[0].split()[2]) == n // k, (it[0], extra[0])
ci, ce = ranks(it), ranks(extra)
f = it[0].split()
plain = ["phase %s %d %s 1 3 0 0 %s" % (f[1], n - n // k, f[3], f[8]), "curve 0"]
for r in sorted(ci):
    plain += ["rank %d %d" % (r, len(ci[r]))] + ci[r]
g = extra[0].split()
kth = ["phase 9 %d %s 1 3 0 0 %s" % (n // k, g[3], g[8]), "curve 0"]
for r in sorted(ci):
    kth += ["rank %d %d" % (r, len(ci[r]) + len(ce[r]))] + ci[r] + ce[r]
head = [("phases 3" if l.startswith("phases ") else l) for l in head]
open(out, "w").write("\n".join(head + setup + plain + kth + ["guards 0", "end"]) + "\n")
