# More ranks than CPUs (issue 21 item 8b): the recorder notes each rank's
# host and CPUs, and diagnose says first (text and JSON) that the run was
# oversubscribed, and does not advise moving ranks that already share a
# node. 2 MPICH ranks of pg_slow_comm pinned to one CPU (taskset), so the
# condition holds on any machine; then 2 ranks on the machine's CPUs.
# Environment: AUGUR, MPIEXEC (mpiexec.mpich), APPS (build/apps/mpich), PY.
. "$(dirname "$0")/../lib.sh"

T="$D/one.augur"
expect 0 - "$AUGUR" record -o "$T" -- taskset -c 0 "$MPIEXEC" -n 2 "$APPS/pg_slow_comm"
[ -d "$T" ] || { fail "no trace recorded"; finish; }
expect 0 0 "$AUGUR" diagnose "$T"
sed -n 2p "$D/out" | grep -q "^warning: oversubscribed: 2 ranks on 1 CPU " ||
  fail "line 2 is not the oversubscription warning: $(cat "$D/out")"
contains "$D/out" "slow_communication"
grep -q "Place the communicating ranks closer" "$D/out" &&
  fail "advises moving ranks that share a node: $(cat "$D/out")"
contains "$D/out" "already share a node"
expect 0 0 "$AUGUR" diagnose "$T" --json
"$PY" - "$D/out" <<'PY' || fail "JSON placement of the pinned run"
import json, sys
d = json.load(open(sys.argv[1]))
keys = list(d)
assert keys.index("placement") < keys.index("findings"), keys
p = d["placement"]
assert p["hosts"] == 1 and p["known"] and p["oversubscribed_hosts"] == 1, p
assert p["busiest_ranks"] == 2 and p["busiest_cores"] == 1, p
assert p["warning"].startswith("oversubscribed"), p
assert not any("closer" in f["recommendation"] for f in d["findings"]), d["findings"]
PY

if [ "$(nproc)" -ge 2 ]; then
  T="$D/two.augur"
  expect 0 - "$AUGUR" record -o "$T" -- "$MPIEXEC" -n 2 "$APPS/dp_wait_site" -n 2 -d 1000
  expect 0 0 "$AUGUR" diagnose "$T" --json
  "$PY" - "$D/out" <<'PY' || fail "JSON placement of the 2-CPU run"
import json, sys
p = json.load(open(sys.argv[1]))["placement"]
assert p["known"] and p["oversubscribed_hosts"] == 0, p
# other jobs on the CPUs (a busy host, tests/diagnose/busyhost.sh) is the
# one reason for a warning here: then the ranks' run-delay says so
assert p["run_delay_share"] is not None, p
assert (p["warning"] is None) == (p["run_delay_share"] < 0.02), p
assert p["warning"] is None or p["warning"].startswith("busy host"), p
PY
fi
finish
