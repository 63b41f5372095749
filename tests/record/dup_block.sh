#!/bin/sh
# Issue 22 item 11: an events block written twice keeps valid checksums. The
# reader must drop the copy and say so: `augur info` lists the damage (exit
# 1), the event counts are the recorded ones, and the OTF2 export (which
# needs time order) works.
#
#   dup_block.sh MPIEXEC PROG AUGUR OUT
set -u
mpiexec=$1 prog=$2 augur=$3 out=$4
. "$(dirname "$0")/lib.sh"
t="$out/dup-orig.augur"
rm -rf "$t" "$out"/dup-*.augur "$out"/dup-*.otf2
# Tiny buffers: many events blocks per rank.
AUGUR_BUFFER_EVENTS=16 AUGUR_COUNTERS=none timeout 120 "$augur" record -o "$t" -- \
  "$mpiexec" -n 2 "$prog" >"$out/dup-record.out" 2>&1 || {
  echo "FAIL: record: $(cat "$out/dup-record.out")"; exit 1; }

# copy_block FILE K WHERE: a copy of the K-th events block, right after it
# (WHERE=next) or at the end of the file (WHERE=end).
copy_block() {
  python3 - "$@" <<'PY'
import struct, sys
path, k, where = sys.argv[1], int(sys.argv[2]), sys.argv[3]
b = open(path, "rb").read()
off, n = 32, 0  # past the file header
while off < len(b):
    stored = struct.unpack_from("<I", b, off + 20)[0]
    end = off + 56 + stored
    if b[off + 4] == 1:  # events
        if n == k:
            blk = b[off:end]
            b = b[:end] + blk + b[end:] if where == "next" else b + blk
            break
        n += 1
    off = end
else:
    sys.exit("no events block %d in %s" % (k, path))
open(path, "wb").write(b)
PY
}

events() { # events TRACE: "e0 e1" from report --json
  "$augur" report "$1" --json 2>/dev/null |
    python3 -c 'import json,sys; print(" ".join(str(r["events"]) for r in json.load(sys.stdin)["ranks"]))'
}
want=$(events "$t")
[ -n "$want" ] || fail "no events in the original trace"

for where in next end; do
  d="$out/dup-$where.augur"
  cp -r "$t" "$d"
  copy_block "$d/rank-00001.evt" 2 "$where" || { fail "copying a block"; continue; }
  "$augur" info "$d" >"$d.info" 2>"$d.err"
  rc=$?
  [ $rc -eq 1 ] || fail "$where: info exited $rc, want 1 (damaged)"
  grep -q "rank-00001.evt: rank 1: block at offset [0-9]*: repeats the events block at offset" \
    "$d.info" || fail "$where: info does not name the repeated block: $(sed -n '/^Damage/,$p' "$d.info")"
  for a in report diagnose phases simulate; do
    "$augur" $a "$d" 2>/dev/null | head -1 | grep -q "^trace damaged: 1 events block dropped" ||
      fail "$where: $a text does not say a block was dropped"
    "$augur" $a "$d" --json 2>/dev/null | python3 -c '
import json, sys
assert json.load(sys.stdin)["incomplete"].startswith("trace damaged: 1 events block dropped")
' || fail "$where: $a --json does not say a block was dropped"
  done
  got=$(events "$d")
  [ "$got" = "$want" ] || fail "$where: events per rank $got, recorded $want"
  "$augur" export "$d" --format otf2 -o "$out/dup-$where.otf2" >"$d.exp" 2>&1
  rc=$?
  if grep -q "built without" "$d.exp"; then
    echo "otf2 export not built: skipped"
  elif [ $rc -ne 0 ]; then
    fail "$where: otf2 export exited $rc: $(cat "$d.exp")"
  fi
done
# The original is intact.
"$augur" info "$t" >/dev/null 2>&1 || fail "info says the original trace is damaged"
[ $fails -eq 0 ] || exit 1
echo "duplicated blocks: ok (events per rank $want)"
