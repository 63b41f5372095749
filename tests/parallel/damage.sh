# Sourced by the --parallel tests (after ../lib.sh): damage that the open
# of a trace sees, and damage that only a stream meets.
#   damage_half FILE: flips bytes through the second half of a rank file
#     (the open refuses the rank);
#   damage_payload FILE I: flips bytes in the payload of the file's events
#     block I behind its intact header (the open does not see it; a stream
#     meets it at that block).
damage_half() {
  python3 - "$1" <<'PY' || fail "damage_half $1"
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for off in range(len(b) // 2, len(b), 97):  # the second half of the file
    b[off] ^= 0x5A
open(p, "wb").write(bytes(b))
PY
}

damage_payload() {
  python3 - "$1" "$2" <<'PY' || fail "damage_payload $1 $2"
import struct, sys
p, which = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read())
off, blocks = 32, []
while off + 56 <= len(b):
    kind, stored = b[off + 4], struct.unpack_from("<I", b, off + 20)[0]
    if kind == 1:
        blocks.append((off + 56, stored))
    off += 56 + stored
assert len(blocks) > which + 1, "%s: %d events blocks" % (p, len(blocks))
at, n = blocks[which]
for i in range(n // 3, n, 7):
    b[at + i] ^= 0x5A
open(p, "wb").write(bytes(b))
PY
}
