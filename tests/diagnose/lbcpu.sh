# Load imbalance net of the wait for a CPU (issue 21, item 8; docs/diagnose.md
# "Load imbalance on a busy host"). 2 MPICH ranks of sim_cpu do the same CPU
# work (CLOCK_THREAD_CPUTIME_ID) before each MPI_Allreduce; rank 0 is pinned
# to CPU 0 with a CPU-bound process beside it (its own session, as another
# user's job), rank 1 alone on CPU 1. Recorded with the run-delay counters,
# rank 0's bursts last about twice as long, and the rest is its wait for a CPU.
# Before, diagnose compared wall-clock computation and said load_imbalance
# "Balance the computation"; now the computation compared is net of
# run-delay: the finding names the CPU wait and does not advise balancing.
# Then the same program without the CPU-bound process must not be blamed on
# the CPU, and pg_imbalance (real uneven work) must keep the balance advice.
# Environment: AUGUR, MPIEXEC (mpiexec.mpich), APPS (build/apps/mpich), PY.
. "$(dirname "$0")/../lib.sh"

# Each rank (MPICH starts each in its own session) and the hog run with their
# session's autogroup at nice -20 (tests/simulate/quiet_rank.sh; root): the
# other jobs on this shared machine then take a few percent, and rank 0 and
# the hog share CPU 0 half and half. Not root: as they are (the no-hog check
# then asks only on a quiet run).
CTR="--counters run-delay,run-delay-mpi"
quiet="$(cd "$(dirname "$0")/../simulate" && pwd)/quiet_rank.sh"
printf 'exec taskset -c "$PMI_RANK" sh %s "$@"\n' "$quiet" >"$D/pin.sh"
hog=""
trap 'kill $hog 2>/dev/null' EXIT
# a CPU-bound loop on CPU 0 in its own session (at nice -20 too), until hog_off
hog_on() {
  setsid sh -c 'echo -20 >/proc/self/autogroup 2>/dev/null; exec taskset -c 0 sh -c "while :; do :; done"' &
  hog=$!
}
hog_off() {
  kill $hog 2>/dev/null
  hog=""
}
hog_on
T="$D/hog.augur"
expect 0 - "$AUGUR" record $CTR -o "$T" -- "$MPIEXEC" -n 2 sh "$D/pin.sh" "$APPS/sim_cpu" \
  -n 30 -w 20000
hog_off
[ -d "$T" ] || { fail "no trace recorded"; finish; }
expect 0 0 "$AUGUR" diagnose "$T" --json
"$PY" - "$D/out" <<'PY' || fail "equal work beside a CPU hog: $(cat "$D/out")"
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["pattern"] in ("load_imbalance", "wait_at_collective")]
assert f, [x["pattern"] for x in d["findings"]]
print("hog:", f[0]["pattern"], f[0]["cause"], f[0]["recommendation"])
for x in f:
    assert x["pattern"] != "load_imbalance", x
    assert "Balance the computation" not in x["recommendation"], x
assert "waited for a CPU" in f[0]["cause"], f[0]["cause"]
assert "on a CPU: the rest it waited for one" in f[0]["cause"], f[0]["cause"]
assert "waiting for a CPU" in f[0]["recommendation"], f[0]["recommendation"]
# more work or slower execution is no question where the fix is not to balance the work
# (before, "the trace has no instruction counters" whenever the extra was above 0 ns)
for x in f:
    if "Balance the computation" not in x["recommendation"]:
        assert not x["undecided"], x
PY

# the same beside the hog, recorded without counters (--counters none: no
# per-call CPU waits; only the busy-host totals of MPI_Finalize): diagnose
# cannot take the CPU wait out, so a load_imbalance may stay, but its fix must
# say that the host was busy and how to tell (before: "Balance the
# computation" alone, NPB EP B beside other jobs)
hog_on
T="$D/hognone.augur"
expect 0 - "$AUGUR" record --counters none -o "$T" -- "$MPIEXEC" -n 2 sh "$D/pin.sh" \
  "$APPS/sim_cpu" -n 30 -w 20000
hog_off
[ -d "$T" ] || { fail "no trace recorded"; finish; }
expect 0 0 "$AUGUR" diagnose "$T" --json
"$PY" - "$D/out" <<'PY' || fail "beside a CPU hog without counters: $(cat "$D/out")"
import json, sys
d = json.load(open(sys.argv[1]))
print("hog, no counters: run-delay %.3f s;" % d["placement"]["run_delay_seconds"],
      [(x["pattern"], x["share"]) for x in d["findings"]])
for x in d["findings"]:
    if "Balance the computation" in x["recommendation"]:
        assert "The host was busy" in x["recommendation"], x
        assert "--counters run-delay" in x["recommendation"], x
PY

# the same without the hog: equal work is no load imbalance, and the CPU is
# named only where the run-delay measured is at least half the lateness (on
# this shared machine the ranks may still wait a little for a CPU; with
# quiet_rank.sh 1.8-3 % of the run)
T="$D/nohog.augur"
expect 0 - "$AUGUR" record $CTR -o "$T" -- "$MPIEXEC" -n 2 sh "$D/pin.sh" "$APPS/sim_cpu" \
  -n 30 -w 20000
[ -d "$T" ] || { fail "no trace recorded"; finish; }
expect 0 0 "$AUGUR" diagnose "$T" --json
"$PY" - "$D/out" <<'PY' || fail "equal work, no hog: $(cat "$D/out")"
import json, re, sys
d = json.load(open(sys.argv[1]))
share = d["placement"]["run_delay_share"]
print("no hog: run-delay share %.3f;" % share, [(x["pattern"], x["share"]) for x in d["findings"]])
for x in d["findings"]:
    # equal CPU work: no rank persistently late. A late rank that changes from one
    # collective to the next is the machine's noise (fresh-clone check of e1393a3:
    # 2.8 %, 1.8 ms per 20 ms burst, run-delay share 0.6 %), not this test's subject
    assert x["pattern"] != "load_imbalance" or "a different rank each time" in x["cause"], x
    if "waiting for a CPU" in x["recommendation"]:
        late = float(re.search(r"arrives ([0-9.]+) s late", x["cause"]).group(1))
        cpu = float(re.search(r"up to ([0-9.]+) s of the lateness it waited for a CPU",
                              x["cause"]).group(1))
        assert cpu * 2 >= late, x
PY

# real uneven work, run-delay recorded: still load_imbalance with the balance advice
T="$D/imb.augur"
expect 0 - "$AUGUR" record $CTR -o "$T" -- "$MPIEXEC" -n 2 sh "$D/pin.sh" "$APPS/pg_imbalance" \
  -n 20 -b 10000 -k 100
[ -d "$T" ] || { fail "no trace recorded"; finish; }
expect 0 0 "$AUGUR" diagnose "$T" --json
"$PY" - "$D/out" <<'PY' || fail "uneven work with run-delay: $(cat "$D/out")"
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["pattern"] == "load_imbalance"]
assert f, [x["pattern"] for x in d["findings"]]
assert f[0]["recommendation"].startswith("Balance the computation"), f[0]
assert "on a CPU: the rest it waited for one" in f[0]["cause"], f[0]["cause"]
assert "no instruction counters" in f[0]["undecided"], f[0]
PY

# wrong order beside the hog: the sender (rank 0, CPU 0 with the hog) computes
# the late message with PG_SPIN=1 (spinning, so off the CPU half the time);
# the cause says how much of the wait the sender waited for a CPU, as for late
# senders (absent before)
hog_on
T="$D/wo.augur"
expect 0 - env PG_SPIN=1 "$AUGUR" record $CTR -o "$T" -- "$MPIEXEC" -n 2 sh "$D/pin.sh" \
  "$APPS/pg_wrong_order" -n 20 -d 10000
hog_off
[ -d "$T" ] || { fail "no trace recorded"; finish; }
expect 0 0 "$AUGUR" diagnose "$T" --json
"$PY" - "$D/out" <<'PY' || fail "wrong order beside a CPU hog: $(cat "$D/out")"
import json, re, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["pattern"] == "wrong_order"]
assert f, [x["pattern"] for x in d["findings"]]
m = re.search(r"Up to ([0-9.]+) s of the ([0-9.]+) s waited, the senders were waiting for a CPU",
              f[0]["cause"])
assert m, f[0]["cause"]
print("wrong order beside a hog: %s s of %s s waiting for a CPU" % (m.group(1), m.group(2)))
assert 0 < float(m.group(1)) <= float(m.group(2)), m.group(0)
PY
finish
