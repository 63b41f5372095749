# Disturbed repetitions of the base run (docs/signature.md): a stretch of a
# recording slowed by another job is not the program's, and must not be in
# every prediction made from the signature (the repetitions to come count
# their base time, the curve, x the speed). apps/ph_periodic -x 4: iterations
# 40-43 of 80 compute 3 x, the others alike. In a phase whose repetitions are
# alike (upper quartile <= 1.5 x the lower), repetitions above 2 x the median
# count the median: the signature's base PhaseET is below `augur phases`'
# mean (about 9 %; before: equal, the slow iterations in it) and its curve
# ends at base x W. On a machine so busy that the iterations are not alike
# (CV above 0.5 and the rule did not apply), it records again, and after 3
# tries skips (77).
# usage: disturbed.sh MPIEXEC APPDIR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
app=$2/ph_periodic
[ -x "$app" ] || { echo "skipped: ph_periodic not built"; exit 77; }

T="$D/d.augur"
for try in 1 2 3; do
  expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 2 "$app" -n 80 -k 100000 -w 600 -x 4
  expect 0 0 "$AUGUR" phases "$T" --json
  cp "$D/out" "$D/ph.json"
  expect 0 0 "$AUGUR" signature "$T" -o "$D/sig"
  "$PY" - "$D/sig" "$D/ph.json" >"$D/check" 2>&1 <<'PYEOF'
import json, sys
ph = [p for p in json.load(open(sys.argv[2]))["phases"] if p["weight"] == 80][0]
lines = [l.split() for l in open(sys.argv[1])]
at = [i for i, l in enumerate(lines) if l[:3] == ["phase", str(ph["id"]), "80"]][0]
base = float(lines[at][3])
n = int(lines[at + 1][1])  # curve N
end = float(lines[at + 1 + n][2])
print("iteration: phases mean %.6f s, cv %.2f; signature base %.6f s (%.1f %%), curve end %.6f s"
      % (ph["phase_seconds"], ph["cv"], base, 100 * (base / ph["phase_seconds"] - 1), end))
assert abs(end - base * 80) <= 1e-6 * end, "the curve does not end at base x W"
if base > 0.95 * ph["phase_seconds"]:
    # A machine so busy that no two iterations are alike (CV above 0.5):
    # the rule does not apply; record again (exit 3).
    sys.exit(3 if ph["cv"] > 0.5 else "the slow stretch is in the base PhaseET")
PYEOF
  rc=$?
  cat "$D/check"
  [ "$rc" = 3 ] || break
  echo "try $try: the iterations are not alike on this machine now: recording again"
done
if [ "$rc" = 3 ]; then
  echo "skipped: the machine was too busy for alike iterations in 3 recordings"
  exit 77
fi
[ "$rc" = 0 ] || fail "disturbed: $(grep '^phase' "$D/sig")"
finish
