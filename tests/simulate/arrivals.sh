# simulate delivers an arrival when its transfer starts, if nothing is
# shared on the way (src/sim/sim.c deliver): the ends it completes are set
# then and their ranks woken at once, ahead of the event queue's clock,
# instead of an event at the arrival's time. The result must be the
# queue's (AUGUR_SIM_ARRIVALS=queue) to the last digit, the graph's bytes
# apart: streamed and in memory, eager and rendezvous, ranks on one node,
# collectives run all at once and as messages (AUGUR_SIM_COLL_MESSAGES=1),
# on traces whose ranks are in step (augur-bench-dx-gen halo, 37 and 300
# ranks), with persistent requests and a second thread (gen_trace).
# Environment: AUGUR, DXGEN, GEN, PY, WORK, NAME.
. "$(dirname "$0")/../lib.sh"
"$DXGEN" "$D/dx37.augur" --ranks 37 --events 40000 >/dev/null || fail "dx-gen 37"
"$DXGEN" "$D/dx300.augur" --ranks 300 --events 60000 --seed 5 >/dev/null || fail "dx-gen 300"
"$GEN" "$D/known.augur" >/dev/null || fail "gen_trace"
"$GEN" "$D/threads.augur" threads >/dev/null || fail "gen_trace threads"

# json MODE FILE ARGS...: simulate --json with AUGUR_SIM_ARRIVALS=MODE ("" =
# the default) into FILE.
json() {
  mode=$1
  out=$2
  shift 2
  if [ -n "$mode" ]; then
    AUGUR_SIM_ARRIVALS=$mode expect 0 0 "$AUGUR" simulate "$@" --json
  else
    expect 0 0 "$AUGUR" simulate "$@" --json
  fi
  cp "$D/out" "$out"
}

# run N ARGS...: both ways' JSON as $D/N.{queue,deliver}.json
run() {
  run_name=$1
  shift
  json queue "$D/$run_name.queue.json" "$@"
  json "" "$D/$run_name.deliver.json" "$@"
  echo "$run_name $*" >>"$D/runs"
}

: >"$D/runs"
for t in dx37 dx300 known threads; do
  T="$D/$t.augur"
  run $t.1 "$T"
  run $t.2 "$T" --in-memory
  run $t.3 "$T" --eager-limit 0
  run $t.4 "$T" --ranks-per-node 4 --eager-limit 1000
  run $t.5 "$T" --latency x20 --bandwidth x0.01 --eager-limit 0 --in-memory
  export AUGUR_SIM_COLL_MESSAGES=1
  run $t.6 "$T"
  run $t.7 "$T" --eager-limit 0
  unset AUGUR_SIM_COLL_MESSAGES
done
"$PY" - "$D" <<'PYEOF' || fail "delivering arrivals changes the result"
import json, sys
d = sys.argv[1]
bad = 0
for line in open(d + "/runs"):
    n, args = line.split(" ", 1)
    a, b = (json.load(open("%s/%s.%s.json" % (d, n, k))) for k in ("queue", "deliver"))
    for x in (a, b):
        x.pop("wall_seconds")
        x["graph"].pop("bytes")
    if a != b:
        print(args.strip(), json.dumps(a)[:1000], json.dumps(b)[:1000], sep="\n")
        bad += 1
    elif a["graph"]["messages"] == 0 or a["predicted_seconds"] <= 0:
        print(args.strip(), "nothing simulated:", json.dumps(a)[:1000])
        bad += 1
sys.exit(1 if bad else 0)
PYEOF
finish
