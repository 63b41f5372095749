# Runs test_merged_sources.c: augur_stream_merged_sources over every cut of
# the hand-built traces (threads, sub-records), a synthetic one, and one
# with payloads damaged behind intact block headers in two ranks (errors in
# the middle of the stream, each at its key) gives augur_stream_merged's
# sequence, record for record and error for error.
. "$(dirname "$0")/../lib.sh"
"$GEN" "$D/known.augur" >/dev/null || fail "gen_trace"
"$GEN" "$D/threads.augur" threads >/dev/null || fail "gen_trace threads"
"$DXGEN" "$D/dx6.augur" --ranks 6 --events 120000 >/dev/null || fail "dx-gen 6"
cp -r "$D/dx6.augur" "$D/mid.augur"
for rb in 5:1 2:3 3:2; do # rank:events block, payload damaged
  python3 - "$D/mid.augur/rank-0000${rb%:*}.evt" "${rb#*:}" <<'PY' || fail "damage $rb"
import struct, sys
p, which = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read())
off, blocks = 32, []
while off + 56 <= len(b):
    kind, stored = b[off + 4], struct.unpack_from("<I", b, off + 20)[0]
    if kind == 1:
        blocks.append((off + 56, stored))
    off += 56 + stored
at, n = blocks[which]
for i in range(n // 3, n, 7):
    b[at + i] ^= 0x5A
open(p, "wb").write(bytes(b))
PY
done
"$TEST" "$D/known.augur" "$D/threads.augur" "$D/dx6.augur" "$D/mid.augur" >"$D/out" 2>&1 ||
  fail "test_merged_sources: $(head -5 "$D/out")"
grep -q "mid.augur: .*(3 errors), every cut the same" "$D/out" ||
  fail "the damaged trace's three errors were not all met: $(cat "$D/out")"
finish
