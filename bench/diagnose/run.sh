#!/bin/sh
# bench/diagnose: how right and how fast `augur diagnose` is (issue 3).
#   1. accuracy: every proving-ground app (apps/pg_*.c) and mode, problem ON and OFF,
#      recorded under mpiexec.mpich -n 4 and diagnosed; one row per run comparing the
#      app's "expected:" line with the top finding (accuracy.py), then "N/M pass"
#   2. throughput and memory: synthetic 4- and 16-rank halo-exchange traces of growing
#      length (augur-bench-dx-gen), `augur diagnose TRACE --json` timed R times (medians):
#      events (the JSON "events" field), wall and CPU seconds, M events/s, peak RSS
# The machine is shared and noisy: medians, and events per CPU second next to wall.
# Usage: bench/diagnose/run.sh [BUILD_DIR] [RUNS]      (BUILD_DIR default: the repo's build)
# Environment: PARTS="accuracy speed" (either or both), SIZES="1000000 4000000 16000000",
#              RANKS="4 16", ONLY="wrong_order multicast" (the accuracy rows to run),
#              MIN_SHARE (passed to diagnose --min-share; default: its own),
#              STRICT=1: exit 1 when a run fails (default 0: scripts/bench.sh runs every
#              benchmark under `set -e`, and figures are not pass/fail material).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "${1:-$HERE/../../build}" && pwd)
R=${2:-3}
PARTS=${PARTS:-accuracy speed}
SIZES=${SIZES:-1000000 4000000 16000000}
RANKS=${RANKS:-4 16}
AUGUR="$BUILD/bin/augur"
PY=/usr/bin/python3 # the system one: `python3` on PATH may be a bare pyenv
. "$HERE/../../scripts/mpi-env.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$(dirname "$0")/../lib.sh"

if [ ! -x "$AUGUR" ] || ! "$AUGUR" diagnose --help >/dev/null 2>&1; then
  echo "bench/diagnose: skipped ($AUGUR missing or without 'diagnose')"
  exit 0
fi

status=0
echo "augur bench/diagnose  ($(nproc) cores)"
for part in $PARTS; do
  case $part in
  accuracy)
    echo
    echo "accuracy: proving-ground apps, mpiexec.mpich -n 4, top finding vs the app's expected line"
    echo "(share = lost process-time / process_seconds; PASS: pattern and site equal, share within 10 %;"
    echo " OFF: no finding at or above the threshold)"
    if [ ! -x "$BUILD/apps/mpich/pg_serialization" ] && [ ! -x "$BUILD/apps/mpich/pg_late_barrier" ]; then
      echo "  skipped: no MPICH proving-ground apps in $BUILD/apps/mpich"
    else
      "$PY" "$HERE/accuracy.py" "$AUGUR" "$BUILD/apps/mpich" "$TMP/pg" ${MIN_SHARE:-} || status=1
    fi
    ;;
  speed)
    echo
    GEN="$BUILD/bin/augur-bench-dx-gen"
    TIME=/usr/bin/time
    if [ ! -x "$GEN" ]; then
      echo "speed: skipped ($GEN not built)"
      continue
    fi
    if [ ! -x "$TIME" ]; then
      echo "speed: skipped (GNU time missing: scripts/install-deps.sh installs it)"
      continue
    fi
    echo "throughput and memory: synthetic halo traces, augur diagnose --json (runs: $R, medians)"
    printf '%6s %12s %10s %10s %12s %12s %10s\n' "ranks" "events" "wall s" "CPU s" \
      "M ev/s wall" "M ev/s CPU" "peak MiB"
    for nr in $RANKS; do
      for n in $SIZES; do
        rm -rf "$TMP/syn.augur"
        "$GEN" "$TMP/syn.augur" --ranks "$nr" --events "$n" >/dev/null
        : >"$TMP/wall"; : >"$TMP/cpu"; : >"$TMP/rss"
        i=0
        while [ $i -lt "$R" ]; do
          # The JSON goes to a file (a few KiB) for its "events" field.
          t0=$(now)
          if ! "$TIME" -f "%U %S %M" -o "$TMP/time" "$AUGUR" diagnose "$TMP/syn.augur" --json \
            >"$TMP/dx.json" 2>"$TMP/err"; then
            echo "  $nr ranks, $n events: augur diagnose failed: $(tail -1 "$TMP/err")"
            status=1
            break
          fi
          t1=$(now)
          read -r tu ts kib <"$TMP/time"
          awk "BEGIN { print $t1 - $t0 }" >>"$TMP/wall"
          awk "BEGIN { print $tu + $ts }" >>"$TMP/cpu"
          awk "BEGIN { print $kib / 1024 }" >>"$TMP/rss"
          i=$((i + 1))
        done
        [ $i -eq "$R" ] || continue
        ev=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"])' "$TMP/dx.json")
        w=$(median <"$TMP/wall"); c=$(median <"$TMP/cpu"); m=$(median <"$TMP/rss")
        printf '%6s %12s %10.3f %10.3f %12.2f %12.2f %10.1f\n' "$nr" "$ev" "$w" "$c" \
          "$(awk "BEGIN { print $ev / ($w > 0.001 ? $w : 0.001) / 1e6 }")" \
          "$(awk "BEGIN { print $ev / ($c > 0.001 ? $c : 0.001) / 1e6 }")" "$m"
      done
    done
    echo "(goal: >= 10 M events/s; peak memory flat in trace length, growing with ranks only)"
    ;;
  *)
    echo "bench/diagnose: unknown part '$part' (accuracy, speed)" >&2
    exit 2
    ;;
  esac
done
[ "${STRICT:-0}" = 1 ] || status=0
exit $status
