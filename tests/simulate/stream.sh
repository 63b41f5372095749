# `augur simulate TRACE` streams the trace; `--in-memory` builds the whole
# graph first. On recorded runs (MPICH, 4 ranks: a stencil, a ring, and an
# app with nonblocking messages, collectives and a communicator creation)
# both must give the same JSON to the last digit (the graph's bytes apart),
# on the default model and with what-ifs that change the replay's paths
# (shared cores, a CPU quota, rendezvous, a bus, --scale of a phase and a
# call site). Not a timing test: the recordings' own times do not matter.
# usage: stream.sh MPIEXEC APPDIR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
apps=$2
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$apps/stencil" ] || [ ! -x "$apps/pas2p_irregular" ]; then
  echo "skipped: MPICH recorder or apps not built"
  exit 77
fi
expect 0 - "$AUGUR" record -o "$D/stencil.augur" -- "$mpiexec" -n 4 "$apps/stencil" -n 20
expect 0 - "$AUGUR" record -o "$D/ring.augur" -- "$mpiexec" -n 4 "$apps/ring" -n 20 -s 1024
expect 0 - "$AUGUR" record -o "$D/irregular.augur" -- "$mpiexec" -n 4 "$apps/pas2p_irregular"

same() {
  expect 0 0 "$AUGUR" simulate "$@" --json
  cp "$D/out" "$D/stream.json"
  expect 0 0 "$AUGUR" simulate "$@" --json --in-memory
  cp "$D/out" "$D/memory.json"
  "$PY" - "$D/stream.json" "$D/memory.json" <<'PYEOF' || fail "$*: streamed and in-memory differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("wall_seconds")
    d["graph"].pop("bytes")
if a != b:
    print(json.dumps(a), json.dumps(b), sep="\n")
    sys.exit(1)
PYEOF
}

for t in stencil ring irregular; do
  T="$D/$t.augur"
  same "$T"
  same "$T" --cores 1
  same "$T" --cpu-quota 1.5
  same "$T" --eager-limit 0 --topology bus --ranks-per-node 1
  same "$T" --scale phase:1=x2 --scale 2=x3
done
# The irregular app creates a communicator: the graph has one, replayed.
"$PY" - "$D/memory.json" <<'PYEOF' || fail "irregular: $(cat "$D/memory.json")"
import json, sys
g = json.load(open(sys.argv[1]))["graph"]
assert g["unmatched"] == 0 and g["collectives"] > 0 and g["messages"] > 0, g
PYEOF

# A neighbourhood collective posts several ends at one time: which end gets
# which message must not depend on the order the builder reads the ranks in
# (its slack, src/sim/graph_trace.c; 0 = strict time order).
nb="$(dirname "$AUGUR")/../tests/record/mpich/rec_neigh"
if [ -x "$nb" ]; then
  expect 0 - "$AUGUR" record -o "$D/neigh.augur" -- "$mpiexec" -n 4 "$nb"
  for s in 0 1000000 50000000; do
    AUGUR_SIM_SLACK_NS=$s expect 0 0 "$AUGUR" simulate "$D/neigh.augur" --json
    cp "$D/out" "$D/neigh.$s.json"
  done
  "$PY" - "$D"/neigh.0.json "$D"/neigh.1000000.json "$D"/neigh.50000000.json <<'PYEOF' || fail "neighbourhood collectives: the slack changes the result"
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:4])
for d in (a, b, c):
    d.pop("wall_seconds")
    d["graph"].pop("bytes")
if a != b or a != c:
    print(json.dumps(a), json.dumps(b), json.dumps(c), sep="\n")
    sys.exit(1)
PYEOF
fi
finish
