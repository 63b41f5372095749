# `augur simulate` / `augur calibrate` command-line errors: one line on
# stderr, exit 2; a trace or machine file that is not there or not right:
# one line, exit 1. No MPI needed.
. "$(dirname "$0")/../lib.sh"
expect 2 1 "$AUGUR" simulate
expect 2 1 "$AUGUR" simulate "$D/a.augur" "$D/b.augur"
expect 2 1 "$AUGUR" simulate "$D/a.augur" --bogus
expect 2 1 "$AUGUR" simulate "$D/a.augur" --machine
expect 2 1 "$AUGUR" simulate "$D/a.augur" --cpu-speed 0
expect 2 1 "$AUGUR" simulate "$D/a.augur" --cpu-speed xfast
expect 2 1 "$AUGUR" simulate "$D/a.augur" --bandwidth -1
expect 2 1 "$AUGUR" simulate "$D/a.augur" --latency x
expect 2 1 "$AUGUR" simulate "$D/a.augur" --ranks-per-node 0
expect 2 1 "$AUGUR" simulate "$D/a.augur" --placement diagonal
expect 2 1 "$AUGUR" simulate "$D/a.augur" --topology hypercube
expect 2 1 "$AUGUR" simulate "$D/a.augur" --placement cyclic
expect 1 1 "$AUGUR" simulate "$D/nonexistent.augur"
contains "$D/err" "no such trace"
mkdir -p "$D/empty.augur"
echo '{' >"$D/empty.augur/trace.json"
expect 1 1 "$AUGUR" simulate "$D/empty.augur"
# Machine files: missing, a bad value, an unknown key, a line that is not
# key = value: one line naming the file (and the line).
expect 1 1 "$AUGUR" simulate "$D/empty.augur" --machine "$D/none.ini"
contains "$D/err" "none.ini"
printf '[network]\nlatency = 1e-6\nbandwidth = fast\n' >"$D/bad.ini"
expect 1 1 "$AUGUR" simulate "$D/empty.augur" --machine "$D/bad.ini"
contains "$D/err" "bad.ini:3: network.bandwidth"
printf '[network]\nlatncy = 1e-6\n' >"$D/key.ini"
expect 1 1 "$AUGUR" simulate "$D/empty.augur" --machine "$D/key.ini"
contains "$D/err" "key.ini:2: unknown key 'latncy'"
printf '[cpu]\nspeed 2\n' >"$D/line.ini"
expect 1 1 "$AUGUR" simulate "$D/empty.augur" --machine "$D/line.ini"
contains "$D/err" "line.ini:2:"
expect 0 0 "$AUGUR" simulate --help
contains "$D/out" "--machine"
contains "$D/out" "--in-memory"
# A graph file is always in memory: --in-memory is for traces.
printf 'not a graph\n' >"$D/x.graph"
expect 2 1 "$AUGUR" simulate "$D/x.graph" --in-memory
expect 0 0 "$AUGUR" help simulate
expect 2 1 "$AUGUR" calibrate --bogus
expect 2 1 "$AUGUR" calibrate --mpi lam
expect 2 1 "$AUGUR" calibrate --ranks 1
expect 0 0 "$AUGUR" calibrate --help
contains "$D/out" "--ranks"
finish
