# A busy host (docs/diagnose.md, "A busy host"): four CPU-bound processes
# share the CPUs with 2 MPICH ranks (no more ranks than CPUs). The recorder
# writes each rank's time runnable without a CPU (schedstat) at
# MPI_Finalize; augur info shows it, and diagnose says first (text and
# JSON) that the waits include time the ranks were ready but not running.
# Each CPU-bound process runs in its own session, as another user's job
# would: the kernel shares the CPUs between sessions (autogroup), so the
# rank that computes gets 2/5 of a CPU or so, and the one that waits sleeps
# in MPICH's MPI_Wait. Measured on the idle machine: 4 hogs, 31-33 % of the
# ranks' windows waiting for a CPU (2 hogs in the test's own session: 6-10 %,
# since that session then counts as one). The check asks for 5 %, the
# warning's threshold being 2 %.
# Environment: AUGUR, MPIEXEC (mpiexec.mpich), APPS (build/apps/mpich), PY.
. "$(dirname "$0")/../lib.sh"

hogs=""
trap 'kill $hogs 2>/dev/null' EXIT
for i in 1 2 3 4; do
  setsid sh -c 'while :; do :; done' &
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
assert p["run_delay_share"] >= 0.05 and p["run_delay_seconds"] > 0, p
assert p["warning"].startswith("busy host"), p
PY
finish
