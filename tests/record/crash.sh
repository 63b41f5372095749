#!/bin/sh
# Issue 22 item 10: what a recorded run keeps when it crashes or is killed,
# checked against what apps/cr_crash did (N ping-pong messages: MPI_Init plus
# N MPI_Send and N MPI_Recv on each of ranks 0 and 1 = 1 + 2N events).
#
#   crash.sh MPIEXEC APP AUGUR OUT
#
# 1. rank 1 segfaults after N messages: every completed call of both ranks is
#    kept (1 + 2N each; rank 0's last MPI_Recv never completes). Rank 1's
#    SIGSEGV handler writes its buffer; rank 0 is killed by the launcher
#    (MPICH's hydra sends SIGKILL, preceded by a SIGTERM by the recorder
#    preloaded into it), and its SIGTERM handler writes it.
# 2. the same with SIGFPE.
# 3. SIGTERM to mpiexec, with the age bound off (AUGUR_FLUSH_SECONDS=0) and
#    buffers larger than the run: only the signal path can have written
#    events, and both ranks keep all but their last call or two.
# 4. SIGKILL to `augur record`: the ranks are gone within 5 s.
# Every analysis states how much of each rank survived.
set -u
mpiexec=$1 app=$2 augur=$3 out=$4
. "$(dirname "$0")/lib.sh"
export AUGUR_COUNTERS=none
mkdir -p "$out"

started() { # started TRACE: waits (<= 60 s) until both ranks opened their files, then 1 s more
  i=0
  while { [ ! -e "$1/rank-00000.evt" ] || [ ! -e "$1/rank-00001.evt" ]; } && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  [ $i -lt 600 ] || fail "$1: the ranks did not start in 60 s"
  sleep 1
}

events() { # events TRACE: "e0 e1" (report --json)
  "$augur" report "$1" --json 2>"$1.rerr" |
    python3 -c 'import json,sys; print(" ".join(str(r["events"]) for r in json.load(sys.stdin)["ranks"]))'
}

# 1, 2: a crash after N messages.
n=1000
for fault in 1 2; do
  t="$out/crash-f$fault.augur"
  rm -rf "$t"
  timeout 100 "$augur" record -o "$t" -- "$mpiexec" -n 2 "$app" -n $n -w 50 -f $fault \
    >"$t.out" 2>&1
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "fault $fault: record exited $rc: $(tail -3 "$t.out")"
  got=$(events "$t")
  want="$((1 + 2 * n)) $((1 + 2 * n))"
  [ "$got" = "$want" ] || fail "fault $fault: events per rank $got, the program completed $want"
  for a in report diagnose phases simulate; do
    "$augur" $a "$t" --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
s, e = d["incomplete"], int(sys.argv[1])
assert "kept: rank 0 %d events to " % e in s and ", rank 1 %d events to " % e in s, s
kept = d["kept"]
assert [(k["rank"], k["events"], k["finalized"]) for k in kept] == [(0, e, False), (1, e, False)], kept
assert all(k["last_s"] > 0 for k in kept), kept
' $((1 + 2 * n)) || fail "fault $fault: $a --json does not say what each rank kept"
    "$augur" $a "$t" 2>/dev/null | head -1 | grep -q "kept: rank 0 $((1 + 2 * n)) events to" ||
      fail "fault $fault: $a text does not say what each rank kept"
  done
  "$augur" info "$t" | grep -q "^ *1  .* $((1 + 2 * n)) *[0-9.]* .*no MPI_Finalize" ||
    fail "fault $fault: info's rank table: $("$augur" info "$t" | sed -n '/^Ranks/,/total/p')"
  n=200
done

# 3. SIGTERM to mpiexec.
t="$out/crash-term.augur"
rm -rf "$t"
AUGUR_FLUSH_SECONDS=0 AUGUR_BUFFER_EVENTS=1000000 "$augur" record -o "$t" -- \
  "$mpiexec" -n 2 "$app" -f 0 -t 60001 >"$t.out" 2>&1 &
rec=$!
started "$t"
launcher=$(pgrep -P $rec)
[ -n "$launcher" ] && kill -TERM $launcher
wait $rec
got=$(events "$t")
set -- $got
if [ $# -ne 2 ] || [ "$1" -lt 3 ] || [ "$2" -lt 3 ] || [ $(($1 - $2)) -gt 2 ] || [ $(($2 - $1)) -gt 2 ]; then
  fail "SIGTERM to mpiexec: events per rank '$got' (want both > 2, within 2 of each other)"
fi

# 4. SIGKILL to augur record.
t="$out/crash-kill.augur"
rm -rf "$t"
"$augur" record -o "$t" -- "$mpiexec" -n 2 "$app" -f 0 -t 60002 >"$t.out" 2>&1 &
rec=$!
started "$t"
kill -KILL $rec
wait $rec 2>/dev/null
i=0
while pgrep -f "$app -f 0 -t 60002" >/dev/null && [ $i -lt 50 ]; do
  sleep 0.1
  i=$((i + 1))
done
if pgrep -f "$app -f 0 -t 60002" >/dev/null; then
  fail "SIGKILL to augur record: the job still runs 5 s later"
  pkill -KILL -f "$app -f 0 -t 60002"
  pkill -KILL -f "$mpiexec -n 2 $app -f 0 -t 60002"
else
  echo "SIGKILL to augur record: the ranks were gone after $i x 0.1 s"
fi
[ $fails -eq 0 ] || exit 1
echo "crash salvage: ok"
