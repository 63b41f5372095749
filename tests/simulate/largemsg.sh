# Messages larger than the caches (issue 21: NPB IS B simulated -10 %, its
# MPI_Alltoallv moves 32 MiB to the peer per call). The copy bandwidth of
# a 16-64 MiB message is a fraction of what 1-4 MiB ping-pongs show (here
# 2.5-3 GB/s against 13-16 GB/s), so calibrate goes on to 64 MiB and the
# model moves the bytes beyond shm.large_from at shm.large_bandwidth
# (docs/simulate.md "Large messages"). dx_alltoall --v at 2 ranks, 32 MiB per
# peer, a few iterations with some computation, is simulated on a fresh
# calibration within TOLERANCE of its recorded run (before: -23 to -25 %),
# recorded without run-delay (--counters none: the reference is the run's own
# time, waits of a busy host included; docs/simulate.md "A busy host").
# The same at 4 ranks on the detected cores (oversubscribed where the host
# has fewer than 4 CPUs; 16 MiB per peer): within TOL_OVER (before: -27
# to -30 % at load 11-14, after -0.4 to -3.8 %, +21.8 % on a poor calibration).
# usage: largemsg.sh MPIEXEC APPDIR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
apps=$2
cal="$(dirname "$AUGUR")/../lib/augur-calibrate-mpich"
[ -x "$cal" ] || { echo "skipped: no MPICH calibration program"; exit 77; }
# 10 % on the VMs of stops 34-36; on stop 37's VM the 2-rank runs measured
# 18-26 % above the prediction with the builds before and after that stop
# alike (0.35-0.42 s against 0.31-0.33 s: both ranks copy 32 MiB at once and
# share the memory bandwidth, calibrate's ping-pong copies one at a time; a
# known gap, docs/simulate.md "Large messages"), hence 30 %, and a second
# check that keeps what the test was made for: the large-message keys must
# move the prediction by at least 10 % (+17 % there; 0 before them). That
# holds where calibrate finds large messages at most half as fast as the
# 1-4 MiB ones ([shm] large_bandwidth / bandwidth <= 0.5; 2.5-3 against
# 13-16 GB/s on those VMs). Stop 46's VM copies 32 MiB at 0.74-0.80 of the
# ping-pong's bandwidth (6.1-6.7 against 8.3 GB/s): there the keys add what
# that small drop gives (+1.7 to +6.1 %, predictions within 10 % of the
# runs), so on such a machine they must only add time.
TOLERANCE=${TOLERANCE:-0.30}
# 4 ranks on 2 CPUs: the same model, its calibration run at 2 ranks with
# other jobs' turns in its 1-4 MiB ping-pongs (one calibration at load 15
# gave 0.32 GB/s instead of 4-7 GB/s: +22 % here), hence wider.
TOL_OVER=${TOL_OVER:-0.25}

expect 0 1 "$AUGUR" calibrate --ranks 2 -o "$D/machine.ini"
grep -q "^#     67108864 bytes: median" "$D/machine.ini" || fail "no 64 MiB ping-pong: $(head -20 "$D/machine.ini")"
T="$D/a2a.augur"
expect 0 - "$AUGUR" record --counters none -o "$T" -- "$mpiexec" -n 2 "$apps/dx_alltoall" --v --touch -n 6 -w 20000 -s 33554432
grep -v '^large_' "$D/machine.ini" >"$D/nolarge.ini"
expect 0 0 "$AUGUR" simulate "$T" --machine "$D/nolarge.ini" --json
cp "$D/out" "$D/nolarge.json"
expect 0 0 "$AUGUR" simulate "$T" --machine "$D/machine.ini" --json
"$PY" - "$D/out" "$D/nolarge.json" "$D/machine.ini" <<'PY' || fail "dx_alltoall --v: the large-message keys change nothing"
import configparser, json, sys
p = json.load(open(sys.argv[1]))["predicted_seconds"]
p0 = json.load(open(sys.argv[2]))["predicted_seconds"]
ini = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
ini.read(sys.argv[3])
large = ini.getfloat("shm", "large_bandwidth", fallback=0)
drop = large / ini.getfloat("shm", "bandwidth")
print("dx_alltoall --v -s 32M: predicted %.3f s, without the large-message keys %.3f s (%+.1f %%);"
      " large messages at %.2f of the ping-pong's bandwidth" % (p, p0, 100 * (p - p0) / p0, drop))
if not large:  # calibrate writes the keys only where 16-64 MiB copies are slower
    print("no large-message keys on this machine: nothing to compare")
    sys.exit(0)
want = 1.10 if drop <= 0.5 else 1.0
assert p > want * p0, "the large-message keys add %.1f %%, want > %.0f %%" % (
    100 * (p - p0) / p0, 100 * (want - 1))
PY
"$PY" - "$D/out" "$D/machine.ini" "$TOLERANCE" <<'PY' || fail "dx_alltoall --v, 32 MiB per peer"
import json, sys
d = json.load(open(sys.argv[1]))
tol = float(sys.argv[3])
large = [l.strip() for l in open(sys.argv[2]) if l.startswith(("bandwidth", "large_"))]
p, m = d["predicted_seconds"], d["measured_seconds"]
print("dx_alltoall --v -s 32M: measured %.3f s, predicted %.3f s (%+.1f %%), model %s"
      % (m, p, 100 * (p - m) / m, large))
assert abs(p - m) / m < tol, "predicted %.3f s, measured %.3f s: beyond %.0f %%" % (p, m, 100 * tol)
PY
# The same with every call's blocks a little longer (--grow: its receive
# reaches further into the same buffer, as NPB IS's does): only the first
# call is a new buffer (before the recorder grew its remembered span, each
# call was charged again).
T="$D/a2a-grow.augur"
expect 0 - "$AUGUR" record --counters none -o "$T" -- "$mpiexec" -n 2 "$apps/dx_alltoall" --v --touch --grow -n 6 -w 20000 -s 33554432
expect 0 0 "$AUGUR" simulate "$T" --machine "$D/machine.ini" --json
"$PY" - "$D/out" "$TOLERANCE" <<'PY' || fail "dx_alltoall --v --grow, up to 32 MiB per peer"
import json, sys
d = json.load(open(sys.argv[1]))
tol = float(sys.argv[2])
p, m = d["predicted_seconds"], d["measured_seconds"]
print("dx_alltoall --v --grow -s 32M: measured %.3f s, predicted %.3f s (%+.1f %%)" % (m, p, 100 * (p - m) / m))
assert abs(p - m) / m < tol, "predicted %.3f s, measured %.3f s: beyond %.0f %%" % (p, m, 100 * tol)
PY

T="$D/a2a4.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 4 "$apps/dx_alltoall" --v --touch -n 6 -w 20000 -s 16777216
expect 0 0 "$AUGUR" simulate "$T" --machine "$D/machine.ini" --json
"$PY" - "$D/out" "$TOL_OVER" <<'PY' || fail "dx_alltoall --v at 4 ranks, 16 MiB per peer"
import json, sys
d = json.load(open(sys.argv[1]))
tol = float(sys.argv[2])
p, m = d["predicted_seconds"], d["measured_seconds"]
print("dx_alltoall --v -s 16M, 4 ranks: measured %.3f s, predicted %.3f s (%+.1f %%), %s"
      % (m, p, 100 * (p - m) / m, d["notes"]))
assert abs(p - m) / m < tol, "predicted %.3f s, measured %.3f s: beyond %.0f %%" % (p, m, 100 * tol)
PY
finish
