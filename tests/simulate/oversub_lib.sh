# Shared by oversub.sh and oversub_rndv.sh (4 ranks on 2 CPUs, MPICH):
# sources ../lib.sh, sets mpiexec, apps and quiet (quiet_rank.sh), skips
# (77) without the calibration program or CPUs 0-1, and calibrates
# $D/machine.ini with 2 ranks on CPUs 0-1.
# check_trace TOL LABEL NEED_B: $D/out (simulate --json) within TOL of the
# measured time, simulated on the 2 CPUs; prints the figures; NEED_B 1
# also demands the recorded other work (run-delay).
. "$(dirname "$0")/../lib.sh"
# shellcheck disable=SC2034 # used by the scripts that source this
mpiexec=$1
# shellcheck disable=SC2034
apps=$2
# shellcheck disable=SC2034
quiet="$(dirname "$0")/quiet_rank.sh"
cal="$(dirname "$AUGUR")/../lib/augur-calibrate-mpich"
[ -x "$cal" ] || { echo "skipped: no MPICH calibration program"; exit 77; }
taskset -c 0,1 true 2>/dev/null || { echo "skipped: cannot run on CPUs 0 and 1"; exit 77; }
expect 0 1 taskset -c 0,1 "$AUGUR" calibrate --ranks 2 -o "$D/machine.ini"
grep -q "^quantum = " "$D/machine.ini" || fail "no time slice: $(grep -v '^#' "$D/machine.ini")"

check_trace() {
  "$PY" - "$D/out" "$1" "$2" "$(cut -d' ' -f1 /proc/loadavg)" "$3" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
tol = float(sys.argv[2])
p, m = d["predicted_seconds"], d["measured_seconds"]
notes = d.get("notes", [])
other = [float(x) for n in notes for x in re.findall(r"other work took (\d+) %", n)]
print("%s, 4 ranks on 2 CPUs, load %s: measured %.3f s, predicted %.3f s (%+.1f %%), "
      "other work %s %%" % (sys.argv[3], sys.argv[4], m, p, 100 * (p - m) / m, other))
assert any("simulating 2 cores" in n for n in notes), "not simulated on the 2 CPUs"
assert other or sys.argv[5] == "0", "no other-work estimate (run-delay): %s" % notes
assert abs(p - m) / m < tol, "predicted %.3f s, measured %.3f s: beyond %.0f %%" % (p, m, 100 * tol)
PY
}
