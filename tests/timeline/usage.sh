# Wrong command lines: one line on stderr, exit 2; a bad trace: exit 1; no
# output file left behind by a failure.
. "$(dirname "$0")/lib.sh"
need_trace
T="$TRACE"
expect 2 1 "$AUGUR" timeline
expect 2 1 "$AUGUR" timeline "$T"
expect 2 1 "$AUGUR" timeline "$T" -o "$D/x.png"
expect 2 1 "$AUGUR" timeline "$T" -o "$D/x.svg" --from 1h
expect 2 1 "$AUGUR" timeline "$T" -o "$D/x.svg" --from abc
expect 2 1 "$AUGUR" timeline "$T" -o "$D/x.svg" --from -1
expect 2 1 "$AUGUR" timeline "$T" -o "$D/x.svg" --from 2s --to 1s
expect 2 1 "$AUGUR" timeline "$T" -o "$D/x.svg" --ranks 3-1
expect 2 1 "$AUGUR" timeline "$T" -o "$D/x.svg" --ranks 0-4
expect 2 1 "$AUGUR" timeline "$T" -o "$D/x.svg" --ranks x
expect 2 1 "$AUGUR" timeline "$T" -o "$D/x.svg" --width 5
expect 2 1 "$AUGUR" timeline "$T" -o "$D/x.svg" --bogus
expect 2 1 "$AUGUR" timeline "$T" -o
expect 1 1 "$AUGUR" timeline "$D/nonexistent.augur" -o "$D/x.svg"
grep -q "no such trace" "$D/err" || fail "missing trace message: $(cat "$D/err")"
expect 1 1 "$AUGUR" timeline "$T" -o "$D/no/such/dir/x.svg"
# A damaged trace: the reader's one-line message, exit 1, no picture.
cp -r "$T" "$D/damaged.augur"
f="$D/damaged.augur/rank-00001.evt"
truncate -s $(( $(wc -c <"$f") / 2 )) "$f"
expect 1 1 "$AUGUR" timeline "$D/damaged.augur" -o "$D/x.svg"
grep -q "rank-00001.evt" "$D/err" || fail "damage message does not name the file: $(cat "$D/err")"
# A window after the end of the run is drawn (empty), not an error.
expect 0 0 "$AUGUR" timeline "$T" -o "$D/late.svg" --from 1000s --to 1001s
[ ! -e "$D/x.svg" ] || fail "a failed run left $D/x.svg"
ls "$D" | grep -q tmp && fail "temporary file left in $D: $(ls "$D")"
expect 0 - "$AUGUR" timeline --help
grep -q -- "--ranks" "$D/out" || fail "--help does not mention --ranks"
finish
