# augur export --format simgrid: per-rank time-independent action files and
# index, action counts against `augur dump`, and (when SimGrid's smpirun is
# installed) a replay of both traces on a generated 4-host platform.
. "$(dirname "$0")/lib.sh"
cat >"$D/platform.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" radical="0-3" suffix="" speed="1Gf" bw="1GBps" lat="1us"/>
</platform>
XML
printf 'node-0\nnode-1\nnode-2\nnode-3\n' >"$D/hosts"
SMPIRUN=${SMPIRUN:-$(command -v smpirun)}
for app in stencil ring; do
  if [ $app = stencil ]; then record $app stencil -n 6; else record $app ring -n 4 -s 256; fi
  expect 0 - "$AUGUR" export "$D/$app.augur" --format simgrid -o "$D/$app.ti" --flops 2e9
  "$PY" "$HERE/check.py" simgrid "$D/$app.ti" "$D/$app.dump" || fail "simgrid checks for $app"
  if [ -n "$SMPIRUN" ]; then
    (cd "$D/$app.ti" && timeout 60 "$SMPIRUN" -np 2 -platform "$D/platform.xml" \
      -hostfile "$D/hosts" -replay index.txt >"$D/$app.replay" 2>&1) ||
      fail "smpirun replay of $app failed: $(tail -5 "$D/$app.replay")"
    grep -q "Simulation time" "$D/$app.replay" || fail "no simulation time for $app: $(tail -5 "$D/$app.replay")"
  fi
done
[ -n "$SMPIRUN" ] || echo "note: smpirun not installed, replay skipped"
# The rate scales compute actions: 1e9 gives half of 2e9's flops.
expect 0 - "$AUGUR" export "$D/ring.augur" --format simgrid -o "$D/ring1.ti"
"$PY" - "$D/ring.ti/rank-0.txt" "$D/ring1.ti/rank-0.txt" <<'PY' || fail "--flops does not scale compute"
import sys
def flops(p):
    return [float(l.split()[2]) for l in open(p) if l.split()[1] == "compute"]
a, b = flops(sys.argv[1]), flops(sys.argv[2])
assert a and len(a) == len(b) and all(abs(x - 2 * y) <= 1 for x, y in zip(a, b)), (a, b)
PY
finish
