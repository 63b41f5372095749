# Runs test_merged_sources.c: augur_stream_merged_sources over every cut of
# the hand-built traces (threads, sub-records), a synthetic one, and one
# with payloads damaged behind intact block headers in two ranks (errors in
# the middle of the stream, each at its key) gives augur_stream_merged's
# sequence, record for record and error for error.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/damage.sh"
"$GEN" "$D/known.augur" >/dev/null || fail "gen_trace"
"$GEN" "$D/threads.augur" threads >/dev/null || fail "gen_trace threads"
"$DXGEN" "$D/dx6.augur" --ranks 6 --events 120000 >/dev/null || fail "dx-gen 6"
cp -r "$D/dx6.augur" "$D/mid.augur"
for rb in 5:1 2:3 3:2; do # rank:events block, payload damaged
  damage_payload "$D/mid.augur/rank-0000${rb%:*}.evt" "${rb#*:}"
done
"$TEST" "$D/known.augur" "$D/threads.augur" "$D/dx6.augur" "$D/mid.augur" >"$D/out" 2>&1 ||
  fail "test_merged_sources: $(head -5 "$D/out")"
grep -q "mid.augur: .*(3 errors), every cut the same" "$D/out" ||
  fail "the damaged trace's three errors were not all met: $(cat "$D/out")"
# The logical trace of `phases --parallel` over the same cuts (the build's
# slack on the blocks: another interleaving than the serial stream's): the
# serial phases' JSON in the three modes, or the serial error.
"$DXGEN" "$D/dx37.augur" --ranks 37 --events 20000 >/dev/null || fail "dx-gen 37"
"$TEST" --logical "$D/known.augur" "$D/threads.augur" "$D/dx6.augur" "$D/dx37.augur" \
  "$D/mid.augur" >"$D/out" 2>&1 || fail "test_merged_sources --logical: $(head -5 "$D/out")"
[ "$(grep -c 'the phases the same over every cut' "$D/out")" -eq 5 ] ||
  fail "test_merged_sources --logical: $(cat "$D/out")"
finish
