# Wrong order with the receives already posted (found on LULESH 2.0: MPI_Irecv
# for every neighbour in CommRecv, then one MPI_Wait each in a fixed order):
# the fix is to complete them as they arrive (MPI_Waitany), not "receive in
# the order the messages are sent (or post MPI_Irecv for all of them ...)",
# which the program already does. pg_wrong_order --irecv: the odd rank posts
# both receives, then waits for B (sent after D of work) before A (sent at
# once); the blocking form (no --irecv) keeps the old advice.
# Environment: AUGUR, MPIEXEC (mpiexec.mpich), APPS (build/apps/mpich), PY, SRC (apps/).
. "$(dirname "$0")/../lib.sh"

line() { grep -n "@augur:pg_wrong_order.$1 \*/" "$SRC/pg_wrong_order.c" | cut -d: -f1; }
for mode in irecv recv; do
  T="$D/$mode.augur"
  flag=""
  [ "$mode" = irecv ] && flag=--irecv
  # shellcheck disable=SC2086
  expect 0 - "$AUGUR" record -o "$T" -- "$MPIEXEC" -n 2 "$APPS/pg_wrong_order" -n 5 -d 20000 $flag
  [ -d "$T" ] || { fail "no trace recorded ($mode)"; continue; }
  expect 0 0 "$AUGUR" diagnose "$T" --json
  MODE=$mode WAIT=$(($(line rwait_b) + 1)) POST=$(($(line post_b) + 1)) RECV=$(($(line recv_b) + 1)) \
    "$PY" - "$D/out" <<'PY' || fail "wrong order, $mode: $(cat "$D/out")"
import json, os, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["pattern"] == "wrong_order"]
assert f, [x["pattern"] for x in d["findings"]]
f = f[0]
rec, line = f["recommendation"], f["callsites"][0]["line"]
if os.environ["MODE"] == "irecv":
    assert line == int(os.environ["WAIT"]), (line, os.environ["WAIT"])
    assert rec.startswith("The receives are already posted"), rec
    assert "MPI_Waitany" in rec and "pg_wrong_order.c:%s" % os.environ["POST"] in rec, rec
else:
    assert line == int(os.environ["RECV"]), (line, os.environ["RECV"])
    assert rec.startswith("Receive in the order the messages are sent"), rec
PY
done
finish
