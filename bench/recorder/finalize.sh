#!/bin/sh
# bench/recorder/finalize.sh: what a recorded run spends outside its calls (MPI_Init,
# MPI_Finalize: the compression at close, bench/recorder/README.md "Sixth round"), BUILD's
# recorder against BASE_BUILD's, alternated, MPICH at 1 and 2 ranks.
#
# usage: bench/recorder/finalize.sh BUILD BASE_BUILD [RUNS]     (RUNS 5, CALLS 2000000)
#
# A run is augur-bench-overhead-mpich (three loops of CALLS calls, so 3 x CALLS records a rank)
# recorded; its wall time minus its loops' time (the JSON's ns per call x CALLS) is the rest:
# start-up, MPI_Finalize and the recorder's work there. Printed: the median over RUNS of that
# rest and of the trace's bytes. LOCK=/work/quiet.lock: each run under that lock (flock).
set -eu
BUILD=$(cd "$1" && pwd)
BASE=$(cd "$2" && pwd)
R=${3:-5}
CALLS=${CALLS:-2000000}
. "$(dirname "$0")/../../scripts/mpi-env.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
run() { # LIBDIR RANKS: one line "rest_s bytes"
  rm -rf "$TMP/t.augur"
  s=$(date +%s%N)
  ${LOCK:+flock "$LOCK"} env AUGUR_TRACE_DIR="$TMP/t.augur" \
    LD_PRELOAD="$1/lib/libaugur-mpi-mpich.so" mpiexec.mpich -n "$2" \
    "$BUILD/bin/augur-bench-overhead-mpich" -n "$CALLS" --json >"$TMP/out.json"
  e=$(date +%s%N)
  python3 - "$TMP/out.json" "$s" "$e" "$CALLS" "$TMP/t.augur" <<'PY'
import glob, json, os, sys
d = json.load(open(sys.argv[1]))
loops = sum(v for k, v in d.items() if k.endswith("_ns_per_call")) * int(sys.argv[4])
rest = (int(sys.argv[3]) - int(sys.argv[2]) - loops) / 1e9
size = sum(os.path.getsize(f) for f in glob.glob(sys.argv[5] + "/rank-*.evt"))
print("%.4f %d" % (rest, size))
PY
}
echo "augur bench/recorder/finalize.sh: $R runs, $((3 * CALLS)) records a rank, load $(cut -d' ' -f1 /proc/loadavg)"
for n in 1 2; do
  : >"$TMP/new.$n"
  : >"$TMP/base.$n"
  for i in $(seq "$R"); do
    run "$BUILD" "$n" >>"$TMP/new.$n"
    run "$BASE" "$n" >>"$TMP/base.$n"
  done
done
python3 - "$TMP" <<'PY'
import statistics as st, sys
t = sys.argv[1]
print("%-6s %-6s %12s %12s" % ("ranks", "build", "rest s", "trace MB"))
for n in (1, 2):
    for b in ("new", "base"):
        rows = [l.split() for l in open("%s/%s.%d" % (t, b, n))]
        print("%-6d %-6s %12.3f %12.2f" % (n, "build" if b == "new" else "base",
              st.median(float(r[0]) for r in rows), st.median(int(r[1]) for r in rows) / 1e6))
PY
echo "load at end: $(cut -d' ' -f1 /proc/loadavg)"
