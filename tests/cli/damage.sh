# Damaged traces: print what could be read, then the reader's error line
# (naming the file), exit 1, never crash.
. "$(dirname "$0")/lib.sh"
T="$D/known.augur"
"$GEN" "$T" || { fail "gen_trace failed"; finish; }
F=rank-00001.evt
size=$(wc -c <"$T/$F")

# 1. Truncated: the last block of rank 1 is cut short.
cp -r "$T" "$D/trunc.augur"
head -c $((size - 7)) "$T/$F" >"$D/trunc.augur/$F"
for cmd in report info dump; do
  expect 1 - "$AUGUR" $cmd "$D/trunc.augur"
  contains "$D/err" "$F"
  [ -s "$D/out" ] || fail "$cmd printed nothing for a truncated trace"
done
expect 1 - "$AUGUR" report "$D/trunc.augur" --json
python3 - "$D/out" <<'PY' || fail "partial report JSON"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["complete"] is False
assert r["error"] and "rank-00001.evt" in r["error"], r["error"]
ranks = r["ranks"]
assert ranks[0]["compute_ns"] == 3700 and ranks[2]["compute_ns"] == 2240, ranks
assert ranks[1]["damaged"] is True
PY

# 2. A flipped byte in the middle of every block payload of rank 1.
cp -r "$T" "$D/flip.augur"
python3 - "$D/flip.augur/$F" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for off in range(48, len(b), 97):  # past the 32-byte file header
    b[off] ^= 0x5A
open(p, "wb").write(bytes(b))
PY
for cmd in report dump; do
  expect 1 - "$AUGUR" $cmd "$D/flip.augur"
  contains "$D/err" "$F"
done
expect 1 - "$AUGUR" dump "$D/flip.augur" --rank 1
expect 0 0 "$AUGUR" dump "$D/flip.augur" --rank 0

# 3. A rank file missing: open fails, one line naming it.
cp -r "$T" "$D/missing.augur"
rm "$D/missing.augur/$F"
expect 1 1 "$AUGUR" report "$D/missing.augur"
contains "$D/err" "$F"

# 4. Random garbage in place of the rank file, several seeds: never a crash.
for seed in 1 2 3 4 5; do
  cp -r "$T" "$D/rand$seed.augur"
  python3 -c "import random,sys; random.seed($seed); sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range($size)))" >"$D/rand$seed.augur/$F"
  for cmd in report info dump; do
    "$AUGUR" $cmd "$D/rand$seed.augur" >/dev/null 2>&1
    rc=$?
    [ $rc -eq 1 ] || fail "$cmd on random rank file (seed $seed) exited $rc, want 1"
  done
done
finish
