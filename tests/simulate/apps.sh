# `augur simulate` on real runs (MPICH).
# 4 ranks (a stencil and a ring recorded here, this machine calibrated with
# `augur calibrate --ranks 4`): what the graph must hold (messages,
# collectives, nothing unmatched), that every rank's time adds up, that
# what-ifs move the prediction the right way. No accuracy bound there: 4
# ranks share 2 cores and message costs are the scheduler's (docs/simulate.md
# "Accuracy": -78 % to +134 % from minute to minute).
# 2 ranks, a core each, runs of 0.05-0.2 s: the prediction's error stays
# within TOL_SELF with the model calibrated from the trace itself
# (`augur calibrate --from`) and within TOLERANCE with the model of a
# separate `augur calibrate --ranks 2`. Measured here, ten runs: quiet
# machine within 16 % (separate) and 5 % (self); with another job taking a
# whole core, down to -63 % and -37 %: the bounds are for that neighbour, a
# model off by a factor of 2 or 4 still fails. Then a damaged trace: exit 1.
# usage: apps.sh MPIEXEC APPDIR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
apps=$2
TOLERANCE=${TOLERANCE:-0.75}
TOL_SELF=${TOL_SELF:-0.5}
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
cal="$(dirname "$AUGUR")/../lib/augur-calibrate-mpich"
if [ ! -f "$lib" ] || [ ! -x "$apps/stencil" ] || [ ! -x "$cal" ]; then
  echo "skipped: MPICH recorder, apps or calibration program not built"
  exit 77
fi
expect 0 - "$AUGUR" record -o "$D/stencil.augur" -- "$mpiexec" -n 4 "$apps/stencil" -n 50
expect 0 - "$AUGUR" record -o "$D/ring.augur" -- "$mpiexec" -n 4 "$apps/ring" -n 50 -s 1024
expect 0 1 "$AUGUR" calibrate --ranks 4 -o "$D/machine.ini"
contains "$D/machine.ini" "[network]"
contains "$D/machine.ini" "ring step over 4 ranks"

# stencil: 2x2 grid, 2 neighbours each: 8 messages and 1 allreduce per iteration.
# ring: 4 messages per lap, then a reduce and a barrier.
for app in stencil:400:50 ring:200:2; do
  name=${app%%:*}
  rest=${app#*:}
  msgs=${rest%%:*}
  colls=${rest#*:}
  # A core per rank (--cores 4): compute scales exactly. The calibrated
  # model itself (2 cores, ranks taking turns) must predict more.
  expect 0 0 "$AUGUR" simulate "$D/$name.augur" --machine "$D/machine.ini" --json --cores 4
  cp "$D/out" "$D/$name.json"
  expect 0 0 "$AUGUR" simulate "$D/$name.augur" --machine "$D/machine.ini" --json --cores 4 \
    --cpu-speed x2 --latency x0.25
  cp "$D/out" "$D/$name-fast.json"
  expect 0 0 "$AUGUR" simulate "$D/$name.augur" --machine "$D/machine.ini" --json --cores 1
  cp "$D/out" "$D/$name-shared.json"
  expect 0 0 "$AUGUR" simulate "$D/$name.augur" --machine "$D/machine.ini"
  contains "$D/out" "predicted time:"
  contains "$D/out" "sync_wait"
  "$PY" - "$D/$name.json" "$D/$name-fast.json" "$msgs" "$colls" "$D/$name-shared.json" <<'PYEOF' ||
import json, sys
d = json.load(open(sys.argv[1]))
fast = json.load(open(sys.argv[2]))
shared = json.load(open(sys.argv[5]))
msgs, colls = int(sys.argv[3]), int(sys.argv[4])
g = d["graph"]
assert g["messages"] == msgs and g["collectives"] == colls, g
assert g["unmatched"] == 0, g
assert len(d["ranks"]) == 4 and [r["rank"] for r in d["ranks"]] == [0, 1, 2, 3]
p, m = d["predicted_seconds"], d["measured_seconds"]
assert p > 0 and m > 0
for r in d["ranks"]:
    parts = r["compute"] + r["send_wait"] + r["recv_wait"] + r["sync_wait"] + r["mpi"]
    assert parts <= r["finish"] * (1 + 1e-6) and r["finish"] <= p * (1 + 1e-9), r  # JSON: 9 digits
# what-if: twice the CPU, a quarter of the latency: less time, exactly half the compute
assert fast["predicted_seconds"] < p, (fast["predicted_seconds"], p)
for a, b in zip(d["ranks"], fast["ranks"]):
    assert abs(b["compute"] - a["compute"] / 2) <= 1e-9 * max(1, a["compute"]), (a, b)
# 4 ranks on one core: longer
assert shared["predicted_seconds"] > p, (shared["predicted_seconds"], p)
PYEOF
    fail "$name: $(cat "$D/$name.json" | head -c 2000)"
done

# within PREDICTION.json MEASURED.json TOL LABEL: the first's predicted time
# is within TOL (a fraction) of the second's measured time.
within() {
  "$PY" - "$1" "$2" "$3" "$4" <<'PYEOF' || fail "$4: $(head -c 600 "$1")"
import json, sys
p = json.load(open(sys.argv[1]))["predicted_seconds"]
m = json.load(open(sys.argv[2]))["measured_seconds"]
tol = float(sys.argv[3])
err = (p - m) / m
print("%s: measured %.4f s, predicted %.4f s, error %+.1f %%" % (sys.argv[4], m, p, 100 * err))
assert abs(err) <= tol, "error %.1f %% beyond %.0f %%" % (100 * err, 100 * tol)
PYEOF
}

# Accuracy, 2 ranks with a core each: the separate calibration right before
# the recordings, and each recording's own.
expect 0 1 "$AUGUR" calibrate --ranks 2 -o "$D/machine2.ini"

# The eager limit is the library's, not a default: Debian's MPICH (ch4:ucx)
# hands off about 8 KiB without its receiver, and UCX_RNDV_THRESH moves it.
eager_of() { sed -n 's/^eager_limit = //p' "$1"; }
if mpichversion 2>/dev/null | grep -q "ch4:ucx"; then
  e0=$(eager_of "$D/machine2.ini")
  expect 0 1 env UCX_RNDV_THRESH=32k "$AUGUR" calibrate --ranks 2 -o "$D/machine2-rndv32k.ini"
  e1=$(eager_of "$D/machine2-rndv32k.ini")
  [ "$e0" -ge 4096 ] && [ "$e0" -lt 16384 ] || fail "eager limit $e0: expected about 8 KiB (ch4:ucx)"
  [ "$e1" -ge 32000 ] && [ "$e1" -lt 36000 ] || fail "eager limit $e1 with UCX_RNDV_THRESH=32k"
  contains "$D/machine2.ini" "returned before its receiver posted"
fi
# The reference is the run's own measured time, which holds the waits of a
# busy host: recorded without run-delay (--counters none), the bursts keep
# them too (docs/simulate.md "A busy host": with run-delay simulate predicts
# the host without the other load).
for spec in "stencil -n 20000" "ring -n 20000 -s 1024"; do
  name=${spec%% *}2
  # shellcheck disable=SC2086
  expect 0 - "$AUGUR" record --counters none -o "$D/$name.augur" -- "$mpiexec" -n 2 "$apps/"$spec
  expect 0 1 "$AUGUR" calibrate --from "$D/$name.augur" --machine "$D/machine2.ini" -o "$D/$name.ini"
  contains "$D/$name.ini" "messages whose receiver waited"
  for model in machine2 "$name"; do
    tol=$TOLERANCE
    [ "$model" = "$name" ] && tol=$TOL_SELF
    expect 0 0 "$AUGUR" simulate "$D/$name.augur" --machine "$D/$model.ini" --json
    cp "$D/out" "$D/$name-$model.json"
    within "$D/$name-$model.json" "$D/$name-$model.json" "$tol" "$name on $model.ini"
  done
done

# Another placement: the 2-rank stencil recorded with a core per rank,
# predicted with both ranks on one core (--cores 1: they take turns of the
# time slice `augur calibrate` measured), against the same program run under
# `taskset -c 0` (8 ms an iteration here: two time slices).
expect 0 - "$AUGUR" record -o "$D/free.augur" -- "$mpiexec" -n 2 "$apps/stencil" -n 50
expect 0 - "$AUGUR" record -o "$D/pinned.augur" -- taskset -c 0 "$mpiexec" -n 2 "$apps/stencil" -n 50
contains "$D/machine2.ini" "quantum = 0.0"
expect 0 0 "$AUGUR" simulate "$D/pinned.augur" --json
cp "$D/out" "$D/pinned.json"
# The pinned run's other work (its run-delay: the simulate above says it)
# is the model's background load: the free run cannot know it, and the
# slice calibrate measures no longer holds it (docs/simulate.md "CPU").
b=$("$PY" -c 'import json, re, sys
n = json.load(open(sys.argv[1])).get("notes", [])
print(([x for t in n for x in re.findall(r"background_load ([0-9.]+)", t)] + ["0"])[0])' "$D/pinned.json")
sed "s/^background_load = .*/background_load = $b/" "$D/machine2.ini" >"$D/machine2-pinned.ini"
expect 0 0 "$AUGUR" simulate "$D/free.augur" --machine "$D/machine2-pinned.ini" --cores 1 --json
cp "$D/out" "$D/one-core.json"
within "$D/one-core.json" "$D/pinned.json" "$TOL_SELF" "both ranks on one core"

# Compute that sleeps: pg_imbalance's bursts (20-26 ms) sleep all but their
# last millisecond. Recorded with a core per rank and their CPU time
# (--counters task-clock), predicted for one core: the sleeping ranks do not
# compete for it, as in the run under `taskset -c 0`. Without the CPU times
# every burst counts as CPU work and the shared core doubles them.
pgi="$apps/pg_imbalance"
expect 0 - "$AUGUR" record --counters task-clock -o "$D/sleep.augur" -- "$mpiexec" -n 2 "$pgi" -n 5 -b 20000
expect 0 - "$AUGUR" record -o "$D/sleep-pinned.augur" -- taskset -c 0 "$mpiexec" -n 2 "$pgi" -n 5 -b 20000
expect 0 0 "$AUGUR" simulate "$D/sleep-pinned.augur" --json
cp "$D/out" "$D/sleep-pinned.json"
expect 0 0 "$AUGUR" simulate "$D/sleep.augur" --machine "$D/machine2.ini" --cores 1 --json
cp "$D/out" "$D/sleep-one-core.json"
within "$D/sleep-one-core.json" "$D/sleep-pinned.json" 0.1 "sleeping compute on one core"
expect 0 - "$AUGUR" record -o "$D/sleep-nocpu.augur" -- "$mpiexec" -n 2 "$pgi" -n 5 -b 20000
expect 0 0 "$AUGUR" simulate "$D/sleep-nocpu.augur" --machine "$D/machine2.ini" --cores 1 --json
cp "$D/out" "$D/sleep-nocpu.json"
"$PY" - "$D/sleep-one-core.json" "$D/sleep-nocpu.json" <<'PYEOF' ||
import json, sys
a, b = (json.load(open(p))["predicted_seconds"] for p in sys.argv[1:3])
assert b > 1.5 * a, (a, b)
PYEOF
  fail "without CPU times the sleeping bursts should count as CPU work"

# The phase what-if: the stencil's iteration (the phase of weight 50) made
# twice as fast lowers every rank's compute; unknown or malformed phases
# are refused in one line.
expect 0 0 "$AUGUR" phases "$D/stencil.augur" --json
cp "$D/out" "$D/phases.json"
pid=$("$PY" -c 'import json,sys; print([p["id"] for p in json.load(open(sys.argv[1]))["phases"] if p["weight"] == 50][0])' "$D/phases.json")
# A core per rank (--cores 4): the 4 ranks recorded on 2 CPUs would otherwise
# share the recorded CPUs, and a shared CPU's compute is not the arithmetic.
expect 0 0 "$AUGUR" simulate "$D/stencil.augur" --json --cores 4
cp "$D/out" "$D/plain.json"
expect 0 0 "$AUGUR" simulate "$D/stencil.augur" --json --cores 4 --scale "phase:$pid=x2"
cp "$D/out" "$D/fast.json"
# The mean drop of a rank's compute is half the phase's compute per rank
# (work_per_rank x weight, mean over ranks), up to the bursts at the phase's
# edges that the two conventions may place differently.
"$PY" - "$D/plain.json" "$D/fast.json" "$D/phases.json" <<'PYEOF' ||
import json, sys
a, b, ph = (json.load(open(p)) for p in sys.argv[1:4])
p = [p for p in ph["phases"] if p["weight"] == 50][0]
half = 0.5 * p["work_per_rank"] * p["weight"] * 1e-9
drops = [ra["compute"] - rb["compute"] for ra, rb in zip(a["ranks"], b["ranks"])]
assert all(d > 0 for d in drops), drops
mean = sum(drops) / len(drops)
assert 0.8 * half <= mean <= 1.2 * half, (mean, half, drops)
PYEOF
  fail "--scale phase:$pid=x2: $(cat "$D/fast.json")"
expect 1 1 "$AUGUR" simulate "$D/stencil.augur" --scale phase:99=x2
contains "$D/err" "no phase 99"
expect 2 1 "$AUGUR" simulate "$D/stencil.augur" --scale phase:x=x2

# A damaged trace: exit 1, one line naming the rank file; nothing printed.
cp -r "$D/stencil.augur" "$D/damaged.augur"
f="$D/damaged.augur/rank-00002.evt"
truncate -s $(($(wc -c <"$f") / 2)) "$f"
expect 1 1 "$AUGUR" simulate "$D/damaged.augur"
contains "$D/err" "rank-00002.evt"
[ ! -s "$D/out" ] || fail "a damaged trace printed a prediction: $(cat "$D/out")"
finish
