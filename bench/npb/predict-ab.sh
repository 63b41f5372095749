#!/bin/sh
# bench/npb/predict-ab.sh: `augur predict` of two augur builds on one NPB
# binary, pair by pair on the same machine load (docs/signature.md,
# "Measured": the stop by nonblocking report).
#   bench/npb/predict-ab.sh MPI BINARY NP [RUNS]
#   env: A (default build/bin/augur): the build compared; B: the reference
#   build's augur binary (its recorder lib next to it, ../lib); OUT (default
#   ./predict-ab/MPI.BINARY).
# Records once with A, makes the signature, then RUNS times (default 3): the
# plain run (AET), B's predict, A's predict. Prints per build AET, PETE and
# SET/AET per pair and their medians, with the 1-minute load at each pair.
set -u
mpi=$1 bin=$2 np=$3 runs=${4:-3}
A=${A:-build/bin/augur}
B=${B:?set B to the reference augur binary}
. "$(dirname "$0")/../../scripts/mpi-env.sh"
OUT=${OUT:-./predict-ab/$mpi.$(basename "$bin")}
rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
ms() { date +%s%N | cut -c1-13; }
"$A" record -o "$OUT/rec.augur" -- "mpiexec.$mpi" -n "$np" "$bin" >"$OUT/rec.out" 2>&1 ||
  { echo "record failed: $OUT/rec.out"; exit 1; }
"$A" signature "$OUT/rec.augur" -o "$OUT/sig" >"$OUT/sig.out" 2>&1 ||
  { echo "signature failed: $OUT/sig.out"; exit 1; }
rm -rf "$OUT/rec.augur"
for i in $(seq 1 "$runs"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(ms)
  "mpiexec.$mpi" -n "$np" "$bin" >"$OUT/plain.$i.out" 2>&1
  t1=$(ms)
  "$B" predict --json --signature "$OUT/sig" -- "mpiexec.$mpi" -n "$np" "$bin" \
    >"$OUT/B.$i.out" 2>"$OUT/B.$i.err"
  "$A" predict --json --signature "$OUT/sig" -- "mpiexec.$mpi" -n "$np" "$bin" \
    >"$OUT/A.$i.out" 2>"$OUT/A.$i.err"
  echo "$i $load $t0 $t1" >>"$OUT/pairs"
done
python3 - "$OUT" "$mpi $(basename "$bin")" <<'PY'
import json, statistics as S, sys
out, name = sys.argv[1], sys.argv[2]
pairs = [l.split() for l in open(out + "/pairs")]
for k in ("B", "A"):
    rows = []
    for i, load, t0, t1 in pairs:
        aet = (int(t1) - int(t0)) / 1000
        try:
            d = [json.loads(l) for l in open("%s/%s.%s.out" % (out, k, i)) if l.startswith("{")][0]
        except (IndexError, OSError, ValueError):
            rows.append((aet, float("nan"), float("nan"), None, load))
            continue
        rows.append((aet, 100 * abs(d["pet_seconds"] - aet) / aet, 100 * d["set_seconds"] / aet,
                     d["stopped_early"], load))
    print("%-16s %s  AET %s  PETE%% %s (median %.1f)  SET/AET%% %s (median %.1f)  stopped %s  load %s"
          % (name, k, [round(r[0], 2) for r in rows], [round(r[1], 1) for r in rows],
             S.median(r[1] for r in rows), [round(r[2], 1) for r in rows],
             S.median(r[2] for r in rows), [r[3] for r in rows], [r[4] for r in rows]))
PY
