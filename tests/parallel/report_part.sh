# Runs test_report_part.c on the hand-built traces, a 37-rank synthetic one,
# and one with a damaged rank file (the first error by rank must win).
. "$(dirname "$0")/../lib.sh"
"$GEN" "$D/known.augur" >/dev/null || fail "gen_trace"
"$GEN" "$D/threads.augur" threads >/dev/null || fail "gen_trace threads"
"$DXGEN" "$D/dx37.augur" --ranks 37 --events 8000 >/dev/null || fail "dx-gen 37"
# every rank of the synthetic trace finalizes (its rank definition says so)
"$AUGUR" report "$D/dx37.augur" >"$D/dx37.txt" 2>&1 || fail "report dx37"
grep -q "incomplete" "$D/dx37.txt" && fail "dx-gen trace reported incomplete: $(grep incomplete "$D/dx37.txt")"
cp -r "$D/dx37.augur" "$D/dmg.augur"
for r in 05 20; do
  python3 - "$D/dmg.augur/rank-000$r.evt" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for off in range(len(b) // 2, len(b), 97):
    b[off] ^= 0x5A
open(p, "wb").write(bytes(b))
PY
done
"$PART" "$D/known.augur" "$D/threads.augur" "$D/dx37.augur" "$D/dmg.augur" ||
  fail "test_report_part"
finish
