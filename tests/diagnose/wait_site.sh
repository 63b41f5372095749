# Waits completed in MPI_Wait are charged to the Wait's line, not to the
# MPI_Irecv / MPI_Issend that posted the request (issue 21 item 7): a real
# 2-rank MPICH run of dp_wait_site, whose post and wait are in different
# functions. Diagnose text, JSON and HTML, and report, must name the same line.
# Environment: AUGUR, MPIEXEC (mpiexec.mpich), APPS (build/apps/mpich), PY, SRC (apps/).
. "$(dirname "$0")/../lib.sh"

# The line after a marker: where the call is (apps/README.md, call-site markers).
line_of() {
  n=$(grep -n "@augur:dp_wait_site.$1 " "$SRC/dp_wait_site.c" | cut -d: -f1)
  echo $((n + 1))
}

check() { # MODE PATTERN WAIT POST [extra args]
  mode=$1 pattern=$2 wait=$(line_of "$3") post=$(line_of "$4")
  shift 4
  T="$D/$mode.augur"
  expect 0 - "$AUGUR" record -o "$T" -- "$MPIEXEC" -n 2 "$APPS/dp_wait_site" -n 4 -d 20000 "$@"
  [ -d "$T" ] || { fail "$mode: no trace recorded"; return; }
  expect 0 0 "$AUGUR" diagnose "$T" --json --html "$D/$mode.html"
  cp "$D/out" "$D/$mode.json"
  "$PY" - "$D/$mode.json" "$pattern" "$wait" "$post" <<'PY' || fail "$mode: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
pattern, wait, post = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
f = d["findings"][0]
assert f["pattern"] == pattern, f["pattern"]
c = f["callsites"][0]
assert c["file"].endswith("dp_wait_site.c") and c["line"] == wait, (c, "want line", wait)
assert all(x["line"] != post for x in f["callsites"]), (f["callsites"], "the post's line", post)
if pattern == "late_sender":  # named as the origin
    assert "posted at post_recv (dp_wait_site.c:%d)" % post in f["cause"], f["cause"]
PY
  expect 0 0 "$AUGUR" diagnose "$T"
  contains "$D/out" "$pattern"
  contains "$D/out" "dp_wait_site.c:$wait"
  # the findings' rows (the critical path lists the post with its own short
  # time; a late sender's cause names it as where the receives were posted)
  grep -E '^ +[0-9]+  [a-z_]+ ' "$D/out" | grep -q "dp_wait_site.c:$post" &&
    fail "$mode: a finding's row names the post's line $post: $(cat "$D/out")"
  contains "$D/$mode.html" "dp_wait_site.c:$wait"
  # report: the MPI_Wait line holds the time, as diagnose says
  expect 0 0 "$AUGUR" report "$T"
  contains "$D/out" "dp_wait_site.c:$wait"
}

check recv late_sender wait_recv irecv
check send late_receiver wait_send issend --send
finish
