#!/bin/sh
# bench/export: export throughput per format (issue 6).
# Records a 2-rank MPICH ring of about 1 M events (-s 8: small messages, so the
# trace is all MPI calls), exports it to every format R times and prints per
# format the median events/s, both per wall-clock second (as printed by
# `augur export`) and per CPU second (user + system of the whole command: the
# figure to trust on a shared, loaded machine), and output bytes per event. OTF2 is included when augur was
# built with libotf2.
# Usage: bench/export/run.sh [BUILD_DIR] [RUNS] [ITERATIONS]
set -eu
BUILD=$(cd "${1:-build}" && pwd)
R=${2:-3}
ITER=${3:-250000}
AUGUR="$BUILD/bin/augur"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$(dirname "$0")/../lib.sh"

"$AUGUR" record -o "$TMP/ring.augur" -- mpiexec.mpich -n 2 "$BUILD/apps/mpich/ring" -n "$ITER" -s 8 \
  >"$TMP/rec.log" 2>&1 || { cat "$TMP/rec.log"; exit 1; }
events=$(sed -n 's/.* \([0-9]*\) events.*/\1/p' "$TMP/rec.log" | tail -1)
echo "augur bench/export  (2-rank MPICH ring, $events events; runs per format: $R, medians; $(nproc) cores)"
echo
printf '%-8s %14s %14s %12s %14s\n' "format" "events/s wall" "events/s CPU" "bytes/event" "records/event"
for fmt in chrome paraver simgrid otf2; do
  : >"$TMP/rates"
  : >"$TMP/cpu"
  ok=1
  i=0
  while [ $i -lt "$R" ]; do
    rm -rf "$TMP/out"*
    if ! /usr/bin/time -f "%U %S" -o "$TMP/time" "$AUGUR" export "$TMP/ring.augur" --format $fmt \
      -o "$TMP/out" >"$TMP/line" 2>"$TMP/err"; then
      ok=0
      break
    fi
    sed -n 's/.*(\([0-9]*\) events\/s).*/\1/p' "$TMP/line" >>"$TMP/rates"
    awk -v e="$events" '{ s = $1 + $2; if (s < 0.001) s = 0.001; print e / s }' "$TMP/time" >>"$TMP/cpu"
    i=$((i + 1))
  done
  if [ $ok -eq 0 ]; then
    printf '%-8s %s\n' $fmt "not available: $(head -1 "$TMP/err")"
    continue
  fi
  bytes=$(sed -n 's/.* records, \([0-9]*\) bytes.*/\1/p' "$TMP/line")
  records=$(sed -n 's/.*-> \([0-9]*\) .*/\1/p' "$TMP/line")
  printf '%-8s %14.0f %14.0f %12.1f %14.2f\n' $fmt "$(median <"$TMP/rates")" "$(median <"$TMP/cpu")" \
    "$(awk "BEGIN { print $bytes / $events }")" "$(awk "BEGIN { print $records / $events }")"
done
