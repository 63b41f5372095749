#!/bin/sh
# bench/phases: PAS2P analysis (augur phases) throughput on one core and peak
# memory on synthetic ring/halo traces of growing length (issue 4).
# Each size runs in its own process so its peak RSS is its own. Figures are
# CPU seconds of the analysing thread: the machine may be shared.
# Usage: bench/phases/run.sh [BUILD_DIR]
set -eu
BUILD=$(cd "${1:-build}" && pwd)
BIN="$BUILD/bin/augur-bench-phases"
[ -x "$BIN" ] || { echo "bench/phases: $BIN not built"; exit 1; }
echo "augur bench/phases  (synthetic halo exchange + Allreduce, a Bcast every 100th iteration;"
echo "10 records = 6 calls per rank and iteration; CPU seconds of one thread; $(nproc) cores)"
echo
printf '%6s %8s %10s %8s %8s %8s %8s %10s %10s %7s %10s %9s %9s %7s %7s  %s\n' ranks iters records \
  read_s match_s build_s detect_s "rec/s e2e" "rec/s own" sys_s "rec/s usr" "RSS MiB" "B/call" \
  weight irr_s "e2e M/s, all runs"
# Each size runs REPS times (default 3), each in its own process; the row is
# the run with the median e2e figure (the VM's page-fault cost swings ~10x).
REPS=${REPS:-3}
for spec in "4 10000" "4 100000" "4 250000" "16 25000" "64 5000"; do
  set -- $spec
  i=0
  while [ "$i" -lt "$REPS" ]; do
    "$BIN" --ranks "$1" --iters "$2" --json
    i=$((i + 1))
  done | python3 -c '
import json, sys
runs = sorted((json.loads(l) for l in sys.stdin if l.startswith("{")), key=lambda d: d["records_per_s"])
d = runs[len(runs) // 2]
print("%6d %8d %10d %8.3f %8.3f %8.3f %8.3f %9.1fM %9.1fM %7.3f %9.1fM %9.1f %9.1f %7d %7.3f  %s" % (
    d["ranks"], d["iterations"], d["records"], d["read_s"], d["match_s"], d["build_s"],
    d["detect_s"], d["records_per_s"] / 1e6, d["own_records_per_s"] / 1e6, d["sys_s"],
    d["user_records_per_s"] / 1e6, d["peak_rss_kib"] / 1024, d["rss_bytes_per_call"],
    d["main_weight"], d["irregular_s"],
    "/".join("%.1f" % (r["records_per_s"] / 1e6) for r in runs)))'
done
echo
echo "read = merged stream alone; match = reader + shared matcher; build = augur_logical_build"
echo "(read + match + logical time); detect = global phase detection. rec/s e2e = records /"
echo "(build + detect); rec/s own = records / (build - match + detect), the analysis' own work."
echo "sys_s: of build + detect, CPU s in the kernel: first touches of fresh pages (on this VM"
echo "their cost varies ~10x from run to run with the host's state). rec/s usr = records /"
echo "(build + detect - sys_s): end to end without those page faults."
echo "irr_s: CPU s of irregular-mode detection (augur phases --irregular) on the same logical"
echo "trace, not in the rec/s figures. Each row is the median of REPS runs by rec/s e2e; the"
echo "last column lists every run's rec/s e2e."
