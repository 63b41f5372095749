# augur calibrate --openmp on this machine: the [microbench] section has a
# positive figure for every thread count 1..cores, each construct below
# 1 ms, no fork of T threads cheaper than half the one-thread fork (the
# master does the one-thread work in every fork; with spinning workers on
# an idle 2-CPU host the 2-thread fork measured 0.35 us against 0.38 us
# for one thread, so "grows with the threads" is not a property of the
# machine), the memory figures are there, and both readers
# take the file (the simulator skips the section; the analytic model uses
# it). Timing-sensitive (label proving): the figures are the least of 21
# samples, but a machine shared with other jobs can still upset them.
. "$(dirname "$0")/lib.sh"
expect 0 1 "$AUGUR" calibrate --openmp --mpi "$MPI" -o "$D/me.ini"
python3 - "$D/me.ini" "$(nproc)" <<'PY' || fail "the [microbench] section: $(sed -n '/microbench/,$p' "$D/me.ini")"
import configparser, sys
c = configparser.ConfigParser(inline_comment_prefixes=(";",))
c.read(sys.argv[1])
s = c["microbench"]
n = int(sys.argv[2])
for t in range(1, n + 1):
    for k in ("parallel", "barrier", "for", "bandwidth"):
        v = float(s["%s_%d" % (k, t)])
        assert v > 0, (k, t, v)
        assert k == "bandwidth" or v < 1e-3, (k, t, v)
par = [float(s["parallel_%d" % t]) for t in range(1, n + 1)]
assert all(p >= 0.5 * par[0] for p in par), par
assert float(s["mem_latency"]) > 0
msgs = sorted((int(k[4:]), float(v)) for k, v in s.items() if k.startswith("msg_"))
assert len(msgs) >= 10 and msgs[-1][0] >= 1 << 22 and all(v > 0 for _, v in msgs), msgs
PY
expect 0 - "$AUGUR" simulate "$GRAPHS/master-worker.graph" --machine "$D/me.ini"
expect 0 0 "$AUGUR" model analytic "$D/me.ini" --data "$D/runs.csv" --send 32*W \
  --reply 48*W/workers --work w2 --at workload=1000,workers=1,threads=1
finish
