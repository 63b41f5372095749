# A busy host (docs/diagnose.md, "A busy host"): two CPU-bound processes
# share the CPUs with 2 MPICH ranks (no more ranks than CPUs). The recorder
# writes each rank's time runnable without a CPU (schedstat) at
# MPI_Finalize; augur info shows it, and diagnose says first (text and
# JSON) that the waits include time the ranks were ready but not running.
# Four runnable threads on at most 2 CPUs: each rank waits about half its
# time (more if other tests run too); the check asks for 10 %.
# Environment: AUGUR, MPIEXEC (mpiexec.mpich), APPS (build/apps/mpich), PY.
. "$(dirname "$0")/../lib.sh"

hogs=""
trap 'kill $hogs 2>/dev/null' EXIT
for i in 1 2; do
  sh -c 'while :; do :; done' &
  hogs="$hogs $!"
done
T="$D/busy.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$MPIEXEC" -n 2 "$APPS/dp_wait_site" -n 100 -d 10000
kill $hogs 2>/dev/null
[ -d "$T" ] || { fail "no trace recorded"; finish; }
expect 0 0 "$AUGUR" info "$T"
grep -q "^CPU wait     the ranks waited [0-9.]* s for a CPU" "$D/out" ||
  fail "info does not show the CPU wait: $(cat "$D/out")"
expect 0 0 "$AUGUR" diagnose "$T"
sed -n 2p "$D/out" | grep -q "^warning: busy host: the ranks waited " ||
  fail "line 2 is not the busy-host warning: $(cat "$D/out")"
expect 0 0 "$AUGUR" diagnose "$T" --json
"$PY" - "$D/out" <<'PY' || fail "JSON placement of the busy run: $(cat "$D/out")"
import json, sys
p = json.load(open(sys.argv[1]))["placement"]
assert p["oversubscribed_hosts"] == 0 and p["busiest_ranks"] == 2, p
assert p["run_delay_share"] >= 0.10 and p["run_delay_seconds"] > 0, p
assert p["warning"].startswith("busy host"), p
PY
finish
