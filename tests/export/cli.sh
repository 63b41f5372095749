# augur export's command line: usage errors exit 2, damaged or missing traces
# exit 1 with a clear message and leave no output behind, --help is complete.
. "$(dirname "$0")/lib.sh"
record ring ring -n 2
T="$D/ring.augur"
expect 0 - "$AUGUR" export --help
for w in chrome paraver simgrid otf2 --format -o --flops; do contains "$D/out" "$w"; done
expect 2 - "$AUGUR" export "$T" --format chrome
contains "$D/err" "missing -o"
expect 2 - "$AUGUR" export "$T" -o "$D/x"
contains "$D/err" "missing --format"
expect 2 - "$AUGUR" export "$T" --format vampir -o "$D/x"
contains "$D/err" "unknown format 'vampir'"
expect 2 - "$AUGUR" export "$T" --format chrome -o "$D/x" --bogus
expect 2 - "$AUGUR" export --format chrome -o "$D/x"
expect 2 - "$AUGUR" export "$T" --format chrome -o "$D/x" --flops 1e9
expect 2 - "$AUGUR" export "$T" --format simgrid -o "$D/x" --flops -3
expect 1 - "$AUGUR" export "$D/nosuch.augur" --format chrome -o "$D/x.json"
[ ! -e "$D/x.json" ] || fail "output written for a missing trace"
# An unwritable output: a clear error naming it.
expect 1 - "$AUGUR" export "$T" --format chrome -o "$D/no/such/dir/x.json"
contains "$D/err" "$D/no/such/dir/x.json"

# Damage 1: rank 1's file cut short (the reader's index stops early).
F=rank-00001.evt
cp -r "$T" "$D/trunc.augur"
size=$(wc -c <"$T/$F")
head -c $((size - 7)) "$T/$F" >"$D/trunc.augur/$F"
# Damage 2: a flipped byte inside a definitions block (found at open).
cp -r "$T" "$D/flip.augur"
"$PY" - "$D/flip.augur/$F" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
i = len(b) * 2 // 3
b[i] ^= 0xFF
open(p, "wb").write(b)
PY
# Damage 3: a flipped byte in an events payload, which only streaming finds:
# the first offset from the end where `augur info` sees an intact trace but
# `augur dump` fails.
found=0
size=$(wc -c <"$T/$F")
off=$((size - 3))
while [ $off -gt 64 ] && [ $found -eq 0 ]; do
  rm -rf "$D/payload.augur"
  cp -r "$T" "$D/payload.augur"
  "$PY" -c "import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); b[int(sys.argv[2])]^=0x5A; open(p,'wb').write(b)" "$D/payload.augur/$F" $off
  if "$AUGUR" info "$D/payload.augur" >/dev/null 2>&1 && ! "$AUGUR" dump "$D/payload.augur" >/dev/null 2>&1; then
    found=1
  fi
  off=$((off - 5))
done
[ $found -eq 1 ] || fail "no offset damages only an events payload"
for dmg in trunc flip payload; do
  for fmt in chrome paraver simgrid; do
    expect 1 - "$AUGUR" export "$D/$dmg.augur" --format $fmt -o "$D/$dmg-$fmt.out"
    contains "$D/err" "$F"
    n=$(wc -l <"$D/err")
    [ "$n" -eq 1 ] || fail "$dmg/$fmt: $n stderr lines, want 1: $(cat "$D/err")"
    ls "$D" | grep -q "^$dmg-$fmt" && fail "$dmg/$fmt: partial output left: $(ls "$D" | grep "^$dmg-$fmt")"
  done
done
finish
