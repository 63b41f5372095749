# Simulate of oversubscribed runs (issue 21: NPB BT S -55 %, SP S -41 % with
# 4 ranks on 2 CPUs). sim_halo2d (a 2-D Isend/Irecv/Waitall halo exchange
# with computation, BT/SP's faces) runs with 4 ranks on 2 CPUs (taskset),
# each configuration twice: quiet (quiet_rank.sh: the ranks' sessions at
# autogroup nice -20, so other jobs take a few percent of the CPUs) and as
# the machine is (on the shared VM: other work 50-65 % of the CPUs). Each
# trace is simulated on the detected 2 cores with one fresh calibration,
# within TOL, for a short and a longer compute step and two eager message
# sizes (docs/simulate.md "CPU", "Other work and the order of turns").
# Before (integ's model, its calibration): quiet +111 to +154 % (the time
# slice measured as a half round trip holds the other jobs' turns), as is
# -4 to -41 %; the first attempt (every cycle's order drawn anew) quiet
# +18 to +20 % for -w 200.
# usage: oversub.sh MPIEXEC APPDIR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
apps=$2
quiet="$(dirname "$0")/quiet_rank.sh"
cal="$(dirname "$AUGUR")/../lib/augur-calibrate-mpich"
[ -x "$cal" ] || { echo "skipped: no MPICH calibration program"; exit 77; }
taskset -c 0,1 true 2>/dev/null || { echo "skipped: cannot run on CPUs 0 and 1"; exit 77; }
# The bound: the model's turn order is drawn (it stands for the kernel's,
# which changes run by run) and the prediction scales with the calibrated
# slice; in 3 runs of this test at load 11-15 the errors were -10.0 to
# +8.4 % quiet (other work 2-4 %) and -5.3 to +9.1 % as is (59-64 %); at
# load 7.6 -0.5, -7.5 % quiet, +3.9, -3.0 % as is (43-44 %).
TOL=${TOL:-0.15}

expect 0 1 taskset -c 0,1 "$AUGUR" calibrate --ranks 2 -o "$D/machine.ini"
grep -q "^quantum = " "$D/machine.ini" || fail "no time slice: $(grep -v '^#' "$D/machine.ini")"
for how in quiet loaded; do
  wrap=""
  [ "$how" = quiet ] && wrap="sh $quiet"
  for cfg in "-w 200 -s 4096" "-w 1000 -s 1024"; do
    T="$D/halo.augur"
    # shellcheck disable=SC2086 # cfg is the app's options, wrap the quiet wrapper
    expect 0 - "$AUGUR" record -o "$T" -- taskset -c 0,1 "$mpiexec" -n 4 $wrap "$apps/sim_halo2d" -n 150 $cfg
    expect 0 0 "$AUGUR" simulate "$T" --machine "$D/machine.ini" --json
    "$PY" - "$D/out" "$TOL" "$how $cfg" "$(cut -d' ' -f1 /proc/loadavg)" <<'PY' || fail "sim_halo2d $how $cfg, 4 ranks on 2 CPUs"
import json, re, sys
d = json.load(open(sys.argv[1]))
tol = float(sys.argv[2])
p, m = d["predicted_seconds"], d["measured_seconds"]
notes = d.get("notes", [])
other = [float(x) for n in notes for x in re.findall(r"other work took (\d+) %", n)]
print("sim_halo2d %s, 4 ranks on 2 CPUs, load %s: measured %.3f s, predicted %.3f s (%+.1f %%), "
      "other work %s %%" % (sys.argv[3], sys.argv[4], m, p, 100 * (p - m) / m, other))
assert any("simulating 2 cores" in n for n in notes), "not simulated on the 2 CPUs"
assert other, "no other-work estimate (run-delay): %s" % notes
assert abs(p - m) / m < tol, "predicted %.3f s, measured %.3f s: beyond %.0f %%" % (p, m, 100 * tol)
PY
  done
done
finish
