#!/bin/sh
# bench/ab.sh: is build B slower than build A? (issue 23: "no slowdown")
#
# usage: bench/ab.sh BUILD_A BUILD_B [RUNS]      (RUNS default 5)
#
# Alternates A and B, RUNS times, on the same inputs, and prints per figure the median
# of each and B/A. The figures (what the per-area benches measure, shortened):
#   reader     augur-bench-reader --events 4000000: reader events/s
#   phases     augur-bench-phases --ranks 16 --iters 25000: records/s (end to end)
#   simulate   augur-bench-sim (4 ranks, 100000 iterations): operations/s
#   diagnose   augur diagnose --json of a 16-rank halo trace (augur-bench-dx-gen,
#              4 M events): CPU seconds (user + system)
#   sim-trace  augur simulate --json of the same trace: CPU seconds
#   rec-iprobe, rec-test   the recorder: ns per MPI_Iprobe / MPI_Test(NULL) call of
#              augur-bench-overhead-mpich -n 1000000, 2 ranks, under each build's recorder
# Rates: higher is better; seconds and ns: lower is better. The machine is shared and
# noisy: read a B/A within a few per cent as "the same", and say the load (uptime).
set -eu
[ $# -ge 2 ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
A=$(cd "$1" && pwd)
B=$(cd "$2" && pwd)
R=${3:-5}
. "$(dirname "$0")/lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
jget() { sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | tail -n 1; }
cpu() { # seconds of user + system CPU of a command
  /usr/bin/time -f '%U %S' -o "$TMP/time" "$@" >/dev/null 2>&1
  awk '{ print $1 + $2 }' "$TMP/time"
}

"$A/bin/augur-bench-dx-gen" "$TMP/halo.augur" --ranks 16 --events 4000000 --seed 3 >/dev/null
echo "bench/ab: A = $A"
echo "          B = $B"
echo "          $R runs each, alternating; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$R" ]; do
  for side in A B; do
    if [ "$side" = A ]; then D=$A; else D=$B; fi
    "$D/bin/augur-bench-reader" --events 4000000 --runs 1 --json | jget reader_events_per_s >>"$TMP/$side.reader"
    "$D/bin/augur-bench-phases" --ranks 16 --iters 25000 --json | jget records_per_s >>"$TMP/$side.phases"
    "$D/bin/augur-bench-sim" | jget ops_per_s >>"$TMP/$side.simulate"
    cpu "$D/bin/augur" diagnose "$TMP/halo.augur" --json >>"$TMP/$side.diagnose"
    cpu "$D/bin/augur" simulate "$TMP/halo.augur" --json >>"$TMP/$side.sim-trace"
    if [ -x "$D/bin/augur-bench-overhead-mpich" ]; then
      rm -rf "$TMP/ov.augur"
      out=$(env AUGUR_TRACE_DIR="$TMP/ov.augur" LD_PRELOAD="$D/lib/libaugur-mpi-mpich.so" \
        mpiexec.mpich -n 2 "$D/bin/augur-bench-overhead-mpich" -n 1000000 --json)
      echo "$out" | jget iprobe_ns_per_call >>"$TMP/$side.rec-iprobe"
      echo "$out" | jget test_null_ns_per_call >>"$TMP/$side.rec-test"
    fi
  done
  i=$((i + 1))
done
printf '\n%-11s %14s %14s %7s  %s\n' figure "A (median)" "B (median)" "B/A" "better"
for f in reader phases simulate diagnose sim-trace rec-iprobe rec-test; do
  [ -s "$TMP/A.$f" ] || continue
  a=$(median <"$TMP/A.$f")
  b=$(median <"$TMP/B.$f")
  case $f in reader | phases | simulate) better=higher ;; *) better=lower ;; esac
  printf '%-11s %14.4g %14.4g %7.3f  %s\n' "$f" "$a" "$b" "$(calc "$b / $a")" "$better"
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
