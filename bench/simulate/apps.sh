#!/bin/sh
# bench/simulate/apps.sh: every program in apps/ (those NP ranks can run),
# recorded here with MPICH twice -- with the bursts' CPU time (`augur record
# --counters task-clock`) and without counters -- and each recording
# predicted by `augur simulate` on the calibrated model of this machine
# (`augur calibrate --ranks NP`). Prints the measured time and the error of
# both predictions (issue 5: "within 5 % for the apps in apps/").
# REPS=N records and predicts each app N times (default 1) and prints the
# medians, with the range of the errors: one short run on a shared machine
# varies by more than the 5 % goal.
# Usage: [NP=2] [REPS=1] bench/simulate/apps.sh [BUILD_DIR]
set -eu
BUILD=$(cd "${1:-build}" && pwd)
NP=${NP:-2}
REPS=${REPS:-1}
AUGUR="$BUILD/bin/augur"
APPS="$BUILD/apps/mpich"
[ -x "$AUGUR" ] && [ -x "$APPS/ring" ] || { echo "bench/simulate/apps.sh: build augur and the apps first"; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
"$AUGUR" calibrate --ranks "$NP" -o "$W/machine.ini" 2>/dev/null
echo "augur bench/simulate/apps.sh  ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg), MPICH, $NP ranks, $REPS run(s) each)"
echo "model: cores $(sed -n 's/^cores = //p' "$W/machine.ini"), quantum $(sed -n 's/^quantum = //p' "$W/machine.ini") s"
echo
printf '%-34s %10s %10s %15s %10s %10s %15s\n' app "measured" "cpu-time" "range" "measured" "no ctrs" "range"
# ring and stencil: long enough with a core per rank; with more ranks than
# cores every iteration costs time slices, so fewer iterations.
if [ "$NP" -le "$(nproc)" ]; then
  LIST='ring -n 20000 -s 1024|stencil -n 20000|stencil_f -n 20000'
else
  LIST='ring -n 100 -s 1024|stencil -n 100|stencil_f -n 100'
fi
LIST="$LIST|pg_late_barrier -n 20|pg_imbalance -n 50|pg_late_receiver -n 20|pg_wrong_order -n 20"
LIST="$LIST|pg_slow_comm -n 20|pg_late_bcast -n 20|pg_early_reduce -n 20|pg_multicast -n 20"
LIST="$LIST|pg_master_worker|pas2p_irregular -n 100"
[ "$NP" -ge 3 ] && LIST="$LIST|pg_blocked_sender -n 20|pg_serialization -n 20"
[ "$NP" -ge 4 ] && LIST="$LIST|pas2p_solver -n 100"
# One prediction: "<measured s> <error %>", or "- -" when the run failed.
predict() {
  rm -rf "$W/t.augur"
  # shellcheck disable=SC2086
  if ! "$AUGUR" record $1 -o "$W/t.augur" -- mpiexec.mpich -n "$NP" "$APPS"/$2 >"$W/rec.log" 2>&1 </dev/null; then
    echo "- -"
    return
  fi
  "$AUGUR" simulate "$W/t.augur" --machine "$W/machine.ini" --json </dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
m, p = d["measured_seconds"], d["predicted_seconds"]
print("%.3f %+.1f%%" % (m, 100 * (p - m) / m))'
}
IFS_SAVE=$IFS
IFS='|'
set -- $LIST
IFS=$IFS_SAVE
# Medians of REPS predictions ("<measured s> <error %>" lines, failed runs
# left out): "<measured s> <error %> <min..max error>".
medians() {
  python3 -c '
import statistics as st, sys
rows = [l.split() for l in sys.stdin if l.strip() and not l.startswith("-")]
if not rows:
    print("- - -")
else:
    m = st.median(float(r[0]) for r in rows)
    e = [float(r[1].rstrip("%")) for r in rows]
    print("%.3f %+.1f%% %s" % (m, st.median(e), "%+.1f..%+.1f" % (min(e), max(e)) if len(e) > 1 else "-"))'
}
for spec in "$@"; do
  with="" without=""
  i=0
  while [ "$i" -lt "$REPS" ]; do
    with="$with$(predict "--counters task-clock" "$spec")
"
    without="$without$(predict "--counters none" "$spec")
"
    i=$((i + 1))
  done
  # shellcheck disable=SC2046
  printf '%-34s %10s %10s %15s %10s %10s %15s\n' "$spec" $(printf '%s' "$with" | medians) \
    $(printf '%s' "$without" | medians)
done
echo
echo "cpu-time: recorded with --counters task-clock (each burst's CPU time: the rest of it"
echo "passes off the CPU in the model); no ctrs: --counters none (every burst is CPU work)."
echo "Each column pair is its own run; with REPS > 1, the medians of REPS runs and the"
echo "range of the errors. The pg_* apps' compute sleeps all but its last ms."
