# OpenMP thread imbalance where the threads may have waited for a CPU (issue
# 21, item 8; docs/diagnose.md "OpenMP imbalance on a busy host"). OpenMP
# records carry no counters (docs/openmp.md "Records"), so the trace cannot
# say how long a thread was ready but not running: with more threads than
# CPUs the omp_load_imbalance finding must say so in its cause and put the
# placement before balancing the threads' work, which it keeps. Before, the
# cause and the fix were the same as on CPUs of the program's own.
# 1 MPICH rank of pg_omp_imbalance (thread t computes (t+1) x BASE: a real
# imbalance) with 3 threads pinned to one CPU, then 2 threads on 2 CPUs.
# Environment: AUGUR, MPIEXEC (mpiexec.mpich), APPS (build/apps/mpich), PY.
. "$(dirname "$0")/../lib.sh"

APP="$APPS/pg_omp_imbalance.gcc"
[ -x "$APP" ] || { echo "skipped: no $APP"; exit 77; }
quiet="$(cd "$(dirname "$0")/../simulate" && pwd)/quiet_rank.sh"
OMP_WAIT_POLICY=passive
export OMP_WAIT_POLICY

T="$D/one.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$MPIEXEC" -n 1 taskset -c 0 sh "$quiet" "$APP" \
  -t 3 -n 6 -b 20000
[ -d "$T" ] || { fail "no trace recorded"; finish; }
expect 0 0 "$AUGUR" diagnose "$T" --json
"$PY" - "$D/out" <<'PY' || fail "3 threads on one CPU: $(cat "$D/out")"
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["pattern"] == "omp_load_imbalance"]
assert f, [x["pattern"] for x in d["findings"]]
cause, rec = f[0]["cause"], f[0]["recommendation"]
print("3 threads on 1 CPU:", cause, rec)
assert "3 threads share 1 CPU on host" in cause, cause
assert "the trace cannot tell how much" in cause, cause
assert rec.startswith("Part of the wait may be threads waiting for a CPU"), rec
assert "at most one thread per CPU" in rec, rec
assert "Balance the work of the region's threads" in rec, rec
PY

# the same imbalance with a CPU per thread: the balance advice alone (first,
# unless the host was busy: then after the placement)
T="$D/two.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$MPIEXEC" -n 1 sh "$quiet" "$APP" -t 2 -n 6 -b 20000
[ -d "$T" ] || { fail "no trace recorded"; finish; }
expect 0 0 "$AUGUR" diagnose "$T" --json
"$PY" - "$D/out" <<'PY' || fail "2 threads on 2 CPUs: $(cat "$D/out")"
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["pattern"] == "omp_load_imbalance"]
assert f, [x["pattern"] for x in d["findings"]]
cause, rec = f[0]["cause"], f[0]["recommendation"]
busy = d["placement"].get("warning") or ""
print("2 threads on 2 CPUs:", busy, cause, rec)
assert "threads share" not in cause, cause
if not busy:
    assert rec.startswith("Balance the work of the region's threads"), rec
    assert "the trace cannot tell how much" not in cause, cause
else:
    assert "If the wait stays: Balance the work of the region's threads" in rec, rec
PY
finish
