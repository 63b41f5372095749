#!/bin/sh
# The POP efficiencies profile mode gives each job (docs/monitoring.md,
# "Efficiencies") against what apps/pop_check's own timers measure, while
# varying what the figures could depend on: rank count, computing time,
# imbalance, message size, iteration structure. One line per run: the
# parameters, the profile's LB and PE, the timers', the relative errors,
# and whether the job is flagged below the default 60 % (and why).
# usage: pop_accuracy.sh [BUILD]   (MPICH; BUILD default ./build)
B=$(cd "${1:-build}" && pwd)
AUGUR=$B/bin/augur
APP=$B/apps/mpich/pop_check
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '%-5s %-34s %7s %7s %7s %7s %8s %8s  %s\n' ranks args lb tim_lb pe tim_pe err_lb err_pe flag
for conf in "2:-n 20 -b 2000 -k 900 -m 1024" "2:-n 20 -b 10000 -k 0 -m 1024" \
  "2:-n 20 -b 10000 -k 100 -m 1024" "2:-n 20 -b 10000 -k 100 -m 1048576" \
  "2:-n 200 -b 1000 -k 100 -m 1024" "2:-n 10 -b 50000 -k 50 -m 4194304" \
  "3:-n 20 -b 5000 -k 100 -m 1024" "3:-n 20 -b 5000 -k 0 -m 65536" \
  "4:-n 20 -b 5000 -k 100 -m 1024" "4:-n 20 -b 5000 -k 0 -m 1024"; do
  n=${conf%%:*}
  args=${conf#*:}
  # shellcheck disable=SC2086 # ARGS are the app's options
  "$AUGUR" profile -o "$T/rec.json" -- mpiexec.mpich -n "$n" "$APP" $args >"$T/out" 2>"$T/err" ||
    { echo "run failed: $(cat "$T/err")"; continue; }
  python3 - "$T/out" "$T/rec.json" "$n" "$args" <<'PY'
import json, sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith("pop_check: rank")]
u = [int(r[4]) for r in rows]
lb = sum(u) / len(u) / max(u)
pe = sum(u) / len(u) / (max(int(r[8]) for r in rows) - min(int(r[6]) for r in rows))
e = json.load(open(sys.argv[2]))["efficiencies"]
flag = ""
if e["parallel"] < 0.6:
    flag = "load balance" if e["load_balance"] <= e["communication"] else "communication"
print("%-5s %-34s %7.4f %7.4f %7.4f %7.4f %+7.2f%% %+7.2f%%  %s" % (
    sys.argv[3], sys.argv[4], e["load_balance"], lb, e["parallel"], pe,
    100 * (e["load_balance"] - lb) / lb, 100 * (e["parallel"] - pe) / pe, flag))
PY
done
