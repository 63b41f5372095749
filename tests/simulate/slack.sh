# simulate's builder reads the merged stream with a slack (a rank's records
# in runs of up to 1 ms, src/sim/graph_trace.c SIM_SLACK_NS): the result must
# be the one of strict time order (AUGUR_SIM_SLACK_NS=0) to the last digit,
# the graph's bytes (what was held in flight) apart: streamed and in memory,
# on the default model and with what-ifs that change the replay's paths
# (rendezvous, shared cores, a bus), on traces whose ranks are in step
# (augur-bench-dx-gen halo, 37 and 300 ranks), persistent requests and a
# second thread (gen_trace threads), and with a slack of 50 ms (a rank's
# whole run at once).
# The same runs check that delivering an arrival when its transfer starts
# (src/sim/sim.c deliver: the ends it completes set then and their ranks
# woken at once, ahead of the event queue's clock) gives the result of
# queued arrivals (AUGUR_SIM_ARRIVALS=queue), also with ranks on one node and
# rendezvous, collectives run all at once and as messages
# (AUGUR_SIM_COLL_MESSAGES=1). Environment: AUGUR, DXGEN, GEN, PY, WORK, NAME.
. "$(dirname "$0")/../lib.sh"
"$DXGEN" "$D/dx37.augur" --ranks 37 --events 40000 >/dev/null || fail "dx-gen 37"
"$DXGEN" "$D/dx300.augur" --ranks 300 --events 60000 --seed 5 >/dev/null || fail "dx-gen 300"
"$GEN" "$D/known.augur" >/dev/null || fail "gen_trace"
"$GEN" "$D/threads.augur" threads >/dev/null || fail "gen_trace threads"

# json VAR=VALUE FILE ARGS...: simulate --json with VAR=VALUE in the
# environment ("" = the defaults) into FILE.
json() {
  set_var=$1
  out=$2
  shift 2
  if [ -n "$set_var" ]; then
    expect 0 0 env "$set_var" "$AUGUR" simulate "$@" --json
  else
    expect 0 0 "$AUGUR" simulate "$@" --json
  fi
  cp "$D/out" "$out"
}

# run N ARGS...: the three slacks' JSON as $D/N.{strict,default,long}.json,
# queued arrivals' as $D/N.queue.json
run() {
  run_name=$1
  shift
  json AUGUR_SIM_SLACK_NS=0 "$D/$run_name.strict.json" "$@"
  json "" "$D/$run_name.default.json" "$@"
  json AUGUR_SIM_SLACK_NS=50000000 "$D/$run_name.long.json" "$@"
  json AUGUR_SIM_ARRIVALS=queue "$D/$run_name.queue.json" "$@"
  echo "$run_name $*" >>"$D/runs"
}

: >"$D/runs"
for t in dx37 dx300; do
  T="$D/$t.augur"
  run $t.1 "$T"
  run $t.2 "$T" --in-memory
  run $t.3 "$T" --eager-limit 0
  run $t.4 "$T" --cores 1 --ranks-per-node 2
  run $t.5 "$T" --topology bus --ranks-per-node 1
  run $t.6 "$T" --ranks-per-node 4 --eager-limit 1000
  export AUGUR_SIM_COLL_MESSAGES=1
  run $t.7 "$T" --eager-limit 0
  unset AUGUR_SIM_COLL_MESSAGES
done
for t in known threads; do
  run $t.1 "$D/$t.augur"
  run $t.2 "$D/$t.augur" --in-memory
  run $t.3 "$D/$t.augur" --eager-limit 0 --latency x20
  export AUGUR_SIM_COLL_MESSAGES=1
  run $t.4 "$D/$t.augur"
  unset AUGUR_SIM_COLL_MESSAGES
done
"$PY" - "$D" <<'PYEOF' || fail "a slack or queued arrivals change the result"
import json, sys
d = sys.argv[1]
bad = 0
for line in open(d + "/runs"):
    n, args = line.split(" ", 1)
    a, b, c, q = (json.load(open("%s/%s.%s.json" % (d, n, k)))
                  for k in ("strict", "default", "long", "queue"))
    for x in (a, b, c, q):
        x.pop("wall_seconds")
        x["graph"].pop("bytes")
    if a != b or a != c or a != q:
        print(args.strip(), *(json.dumps(x)[:1000] for x in (a, b, c, q)), sep="\n")
        bad += 1
    elif a["graph"]["messages"] == 0 or a["predicted_seconds"] <= 0:
        print(args.strip(), "nothing simulated:", json.dumps(a)[:1000])
        bad += 1
sys.exit(1 if bad else 0)
PYEOF
# A slack that is no number of nanoseconds: one line, no run.
AUGUR_SIM_SLACK_NS=1ms expect 1 1 "$AUGUR" simulate "$D/dx37.augur" --json
contains "$D/err" "AUGUR_SIM_SLACK_NS=1ms: not a number of nanoseconds"
finish
