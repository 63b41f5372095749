# augur model analytic: the seed's eq. 3.1 on a hand-made machine model
# (lib.sh) against values computed by hand, and the machine file with its
# [microbench] section is still a machine model for augur simulate.
. "$(dirname "$0")/lib.sh"
A="$AUGUR model analytic $D/m.ini --data $D/runs.csv --send 32*W --reply 48*W/workers --work w2"
# Work per element: x = W^2/(K T) = 1e6 at the calibration run, so
# (0.0100015 - 1.5e-6) / 1e6 = 1e-8 s. The master: the run's T_iter 0.0103
# minus its other terms (sends 32000 bytes 33e-6, worker 0.0100015, reply
# 48000 bytes 49e-6) = 2.165e-4 s.
# At W = 2000, 2 workers x 2 threads: x = 4e6 / 4 = 1e6 -> compute 0.01;
# OpenMP 3e-6 + 1e-6; send 64000 bytes = 2e-6 + 63000 ns = 65e-6, twice;
# reply 48000 bytes = 49e-6; master 2.165e-4:
# T_iter = 2.165e-4 + 130e-6 + 0.01 + 4e-6 + 49e-6 = 0.0103995.
expect 0 0 $A --at workload=2000,workers=2,threads=2
v=$(sed -n 's/^t_iter = \([^ ]*\)  (analytic)$/\1/p' "$D/out")
near "$v" 0.0103995 || fail "t_iter at 2000/2/2: $v, by hand 0.0103995"
grep -q '^  sends *0.00013$' "$D/out" || fail "sends term: $(cat "$D/out")"
expect 0 0 $A --at workload=2000,workers=2,threads=2 --cores 8 --json
python3 - "$D/out" <<'PY' || fail "JSON at 2000/2/2: $(cat "$D/out")"
import json, sys
j = json.load(open(sys.argv[1]))
t = j["terms"]
near = lambda a, b: abs(a - b) <= 1e-9 * abs(b)
assert j["response"] == "t_iter" and j["node"] is None
assert near(j["prediction"], 0.0103995), j["prediction"]
assert near(t["sends"], 130e-6) and near(t["reply"], 49e-6) and near(t["openmp"], 4e-6)
assert near(t["compute"], 0.01) and near(t["master"], 2.165e-4)
assert near(j["calibration"]["per_element"], 1e-8) and j["calibration"]["runs"] == 1
assert len(j["statements"]) == 1 and "100 %" in j["statements"][0]
PY
# Beyond the largest measured size (101000 bytes), at the slope of the last
# two: W = 4000, 1 x 1 sends 128000 bytes = 102e-6 + 27000 ns = 129e-6 s.
expect 0 0 $A --at workload=4000,workers=1,threads=1 --cores 8 --json
python3 - "$D/out" <<'PY' || fail "extrapolated message cost: $(cat "$D/out")"
import json, sys
t = json.load(open(sys.argv[1]))["terms"]
assert abs(t["sends"] - 129e-6) <= 1e-15, t
PY
# The ranking at W = 2000 on 2 cores (by hand):
#   1 x 2: 2.165e-4 + 65e-6 + 0.02 + 4e-6 + 97e-6    = 0.0203825
#   2 x 1: 2.165e-4 + 130e-6 + 0.02 + 1.5e-6 + 49e-6 = 0.020397
#   1 x 1: 2.165e-4 + 65e-6 + 0.04 + 1.5e-6 + 97e-6  = 0.04038
expect 0 0 $A --workload 2000 --cores 2 --json
python3 - "$D/out" <<'PY' || fail "ranking at 2000: $(cat "$D/out")"
import json, sys
j = json.load(open(sys.argv[1]))
# 1 x 2 and 2 x 1 share the 2 cores with the polling master: said.
assert any(s.startswith("2 configurations with workers x threads + 1 > 2 cores: if the master's "
                        "receive polls") for s in j["statements"]), j["statements"]
got = [(c["workers"], c["threads"], c["t_iter"]) for c in j["configurations"]]
want = [(1, 2, 0.0203825), (2, 1, 0.020397), (1, 1, 0.04038)]
assert len(got) == 3, got
for g, w in zip(got, want):
    assert g[:2] == w[:2] and abs(g[2] - w[2]) <= 1e-9 * w[2], (got, want)
assert (j["best"]["workers"], j["best"]["threads"]) == (1, 2)
assert j["evaluated"] == 3 and j["skipped"] == 0
PY
expect 0 0 $A --workload 2000 --cores 2
grep -q '^best: 1 worker x 2 threads: T_iter 0.02038 s$' "$D/out" || fail "text best: $(cat "$D/out")"
# Oversubscribed: 2 x 2 (0.0103995) first, said; 3 threads have no figures.
expect 0 0 $A --workload 2000 --cores 2 --oversubscribe --threads 1,2,3
grep -q '^   1       2       2 .*oversubscribed$' "$D/out" || fail "oversubscribed: $(cat "$D/out")"
grep -q 'note: 2 configurations not evaluated: no OpenMP figures' "$D/out" || fail "skipped note"
# At the calibration workload no note about the seed's 10-15 %.
expect 0 0 $A --at workload=1050,workers=1,threads=1 --cores 2
grep -q '^note:' "$D/out" && fail "a note within 5 % of the calibration workload, 1 x 1 on 2 cores"
expect 0 0 $A --at workload=1050,workers=1,threads=2 --cores 2
grep -q "^note: 1 configuration with workers x threads + 1 > 2 cores: if the master's receive polls (MPICH's blocking MPI_Recv) it shares the cores with it, which the formula ignores$" "$D/out" ||
  fail "1 x 2 on 2 cores: no contention note: $(cat "$D/out")"
# The simulator reads the same file (the [microbench] section is skipped).
expect 0 - "$AUGUR" simulate "$GRAPHS/master-worker.graph" --machine "$D/m.ini"
finish
