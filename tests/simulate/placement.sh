# The trace's recorded CPUs in simulate and calibrate (issue 21 item 8c, 8d).
# calibrate: the model's cores are the CPUs its ranks could use (under
# `taskset -c 0`: 1), on one node. simulate: a run recorded with more ranks
# than CPUs (2 ranks under `taskset -c 0`) is simulated on the recorded CPUs
# by default and says so (text line 1, JSON notes); a model whose cores
# differ from the recorded ones is warned about; --cores still decides.
# Recorded with more ranks than CPUs, every compute burst carries its wait
# for a CPU (counter run-delay) and simulate removes it before sharing the
# cores again: pure computation of known CPU time (sim_cpu) is predicted
# at that time, not at twice it (issue 21: NPB EP +98 % oversubscribed).
# usage: placement.sh MPIEXEC APPDIR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
apps=$2
cal="$(dirname "$AUGUR")/../lib/augur-calibrate-mpich"
[ -x "$cal" ] || { echo "skipped: no MPICH calibration program"; exit 77; }

line() { grep -qx "$2" "$1" || fail "$1: no line '$2': $(grep -v '^#' "$1" | head -20)"; }
expect 0 1 taskset -c 0 "$AUGUR" calibrate --ranks 2 -o "$D/one.ini"
line "$D/one.ini" "nodes = 1"
line "$D/one.ini" "cores_per_node = 1"
line "$D/one.ini" "cores = 1"
expect 0 1 "$AUGUR" calibrate --ranks 2 -o "$D/all.ini"
line "$D/all.ini" "cores_per_node = $(nproc)"
line "$D/all.ini" "cores = $(nproc)"

T="$D/pinned.augur"
expect 0 - "$AUGUR" record -o "$T" -- taskset -c 0 "$mpiexec" -n 2 "$apps/dp_wait_site" -n 3 -d 5000
expect 0 0 "$AUGUR" simulate "$T"
sed -n 1p "$D/out" | grep -q "^note: recorded with 2 ranks on 1 core (host .*): simulating 1 core " ||
  fail "line 1 does not say the recorded placement: $(cat "$D/out")"
expect 0 0 "$AUGUR" simulate "$T" --json
cp "$D/out" "$D/default.json"
expect 0 0 "$AUGUR" simulate "$T" --json --cores 1
cp "$D/out" "$D/one-core.json"
expect 0 0 "$AUGUR" simulate "$T" --json --cores 2
cp "$D/out" "$D/two-cores.json"
"$PY" - "$D/default.json" "$D/one-core.json" "$D/two-cores.json" <<'PY' || fail "simulate JSON"
import json, sys
d, one, two = (json.load(open(f)) for f in sys.argv[1:4])
assert d["notes"] and d["notes"][0].startswith("note: recorded with 2 ranks on 1 core"), d["notes"]
assert d["predicted_seconds"] == one["predicted_seconds"], (d["predicted_seconds"], one)
assert any(n.startswith("warning: the model has 2 cores") for n in two["notes"]), two["notes"]
PY
# Known CPU work: 2 ranks x 4 x 0.1 s on one CPU take 0.8 s. The burst wall
# times hold the turns (about 2 x 0.4 s each): sharing them again gave 1.6 s
# and more. With a model that sets its own background load (0.001: about
# none) the prediction is the CPU work plus 8 Allreduces, whatever else
# loaded the machine: within 10 %. By default simulate also takes the share
# of the CPU other work took during the recording from the bursts'
# run-delay (the recorded run's span grows with it, the CPU work does not):
# then it predicts the recorded run, within 10 % (measured -0.0 to -7 % at
# load 1-9).
T="$D/cpu.augur"
expect 0 - "$AUGUR" record -o "$T" -- taskset -c 0 "$mpiexec" -n 2 "$apps/sim_cpu" -n 4 -w 100000
expect 0 0 "$AUGUR" info "$T"
grep -q "run-delay *schedstat" "$D/out" || fail "no run-delay counter: $(grep -A3 Counters "$D/out")"
# run-delay is no measure of work: diagnose still says the trace has no
# work counters, phases still compares compute time
expect 0 - "$AUGUR" diagnose "$T"
contains "$D/out" "no hardware counters"
expect 0 0 "$AUGUR" phases "$T"
contains "$D/out" "work: compute time"
printf '[cpu]\nbackground_load = 0.001\n' >"$D/idle.ini"
expect 0 0 "$AUGUR" simulate "$T" --json --machine "$D/idle.ini"
cp "$D/out" "$D/cpu-idle.json"
expect 0 0 "$AUGUR" simulate "$T" --json
"$PY" - "$D/cpu-idle.json" "$D/out" <<'PY' || fail "sim_cpu on 1 core: $(cat "$D/cpu-idle.json" "$D/out")"
import json, sys
idle, d = (json.load(open(f)) for f in sys.argv[1:3])
p = idle["predicted_seconds"]
assert abs(p - 0.8) / 0.8 < 0.10, ("predicted %.3f s for 0.8 s of CPU work on 1 core" % p, idle["ranks"])
assert not any("other work took" in n for n in idle["notes"]), idle["notes"]
p, m = d["predicted_seconds"], d["measured_seconds"]
print("sim_cpu: measured %.3f s, predicted %.3f s (%+.1f %%), %s" % (m, p, 100 * (p - m) / m, d["notes"]))
assert any(n.startswith("note: other work took") for n in d["notes"]), d["notes"]
assert abs(p - m) / m < 0.10, "predicted %.3f s, measured %.3f s" % (p, m)
PY
# a model with this machine's cores: the recorded single CPU wins, with a warning
if [ "$(nproc)" -ge 2 ]; then
  expect 0 0 "$AUGUR" simulate "$T" --machine "$D/all.ini"
  contains "$D/out" "note: recorded with 2 ranks on 1 core"
  contains "$D/out" "warning: the model has $(nproc) cores per node"
  # not oversubscribed: nothing said, unless other jobs took the CPUs (a
  # busy host: make check runs two tests at once)
  expect 0 - "$AUGUR" record -o "$D/free.augur" -- "$mpiexec" -n 2 "$apps/dp_wait_site" -n 3 -d 5000
  expect 0 0 "$AUGUR" simulate "$D/free.augur" --json
  "$PY" -c "import json,sys; n=json.load(open(sys.argv[1]))['notes']; assert [x for x in n if not x.startswith('note: busy host: ')] == [], n" "$D/out" ||
    fail "notes on a run with a CPU per rank"
  # a CPU per rank: no run-delay counter (its read costs a few us per MPI
  # call), unless other jobs took the CPUs during MPI_Init (a busy host: the
  # note says so; tests/simulate/busyhost.sh)
  expect 0 0 "$AUGUR" info "$D/free.augur"
  if grep -q "run-delay" "$D/out" && ! grep -q "run-delay added: busy host at MPI_Init" "$D/out"; then
    fail "run-delay recorded with a CPU per rank"
  fi
fi
finish
