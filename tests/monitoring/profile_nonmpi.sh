#!/bin/sh
# Profile mode on a non-MPI job: a shell pipeline (fork, exec, _exit) plus a
# program with threads. One JSON job record, every process in it, I/O and
# CPU attributed to the right processes; level 0 runs the command untouched.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
seq 1 20000 >"$D/in.txt"

expect 0 1 "$AUGUR" profile -o "$D/job.json" --level 2 -- sh -c "cat '$D/in.txt' | wc -l >'$D/count'"
contains "$D/err" "job record"
[ "$(cat "$D/count")" = 20000 ] || fail "the pipeline's output changed under profile mode"
python3 - "$D/job.json" <<'PY' || fail "job record content (see above)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "augur-job-record" and d["version"] == 1, d.get("format")
assert d["level"] == 2 and d["exit_status"] == 0
progs = [p["program"].rsplit("/", 1)[-1] for p in d["processes"]]
for want in ("dash", "cat", "wc"):
    assert any(p == want or p == "sh" and want == "dash" for p in progs), (want, progs)
cat = [p for p in d["processes"] if p["program"].endswith("/cat")][0]
wc = [p for p in d["processes"] if p["program"].endswith("/wc")][0]
size = 108894  # bytes of `seq 1 20000`
assert cat["io"]["bytes_read"] >= size, cat["io"]
assert cat["io"]["bytes_written"] >= size, cat["io"]
assert wc["io"]["bytes_read"] >= size, wc["io"]
for p in d["processes"]:
    assert p["end_ns"] >= p["start_ns"] > 0
    assert p["nthreads"] >= 1 and len(p["threads"]) >= 1
    # No PMU on many VMs: each counter is a number or null with a reason.
    if p["counters"]["cycles"] is None:
        assert "cycles" in p["counter_note"], p["counter_note"]
print("ok", len(d["processes"]), "processes")
PY

# Threads: 20 of them plus the main one; 8 slots, the last sums the rest.
expect 0 - "$AUGUR" profile -o "$D/threads.json" -- python3 -c "
import threading
ts = [threading.Thread(target=lambda: sum(range(200000))) for _ in range(20)]
[t.start() for t in ts]
[t.join() for t in ts]"
python3 - "$D/threads.json" <<'PY' || fail "thread summaries (see above)"
import json, sys
d = json.load(open(sys.argv[1]))
py = [p for p in d["processes"] if "python" in p["program"].rsplit("/", 1)[-1]]
assert py, [p["program"] for p in d["processes"]]
p = py[-1]
assert p["nthreads"] == 21, p["nthreads"]
assert len(p["threads"]) == 8, len(p["threads"])
assert p["threads"][7]["folded"] == 13, p["threads"][7]
# slot 0 is the initial thread, never folded (a rank's POP figures need it)
assert p["threads"][0]["tid"] == p["pid"] and p["threads"][0]["folded"] == 0, p["threads"][0]
assert sum(t["cpu_ns"] for t in p["threads"]) > 0
PY

# Level 0: no preload, no record.
expect 0 - "$AUGUR" profile -o "$D/off.json" --level 0 -- true
[ -e "$D/off.json" ] && fail "level 0 wrote a record"

# A failing command keeps its status, and still gets its record.
expect 3 - "$AUGUR" profile -o "$D/fail.json" -- sh -c 'exit 3'
python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['exit_status']==3" "$D/fail.json" ||
  fail "exit status not recorded"

# Usage errors.
expect 2 1 "$AUGUR" profile --level 7 -- true
expect 2 1 "$AUGUR" profile -- 
expect 127 1 "$AUGUR" profile -o "$D/x.json" -- /no/such/program
finish
