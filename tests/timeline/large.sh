# A 10-million-event synthetic trace (augur-bench-reader --keep) is drawn in
# under 10 s (LIMIT_MS; more in a sanitizer build) into a file under 2 MB:
# aggregation, not one element per event.
# Then the same bound on 16 ranks with 1.6 million messages
# (augur-bench-timeline --keep): states aggregated, messages sampled.
# usage: large.sh BENCH_READER [BENCH_TIMELINE]
. "$(dirname "$0")/lib.sh"
bench=$1
bench_tl=${2:-}
[ -x "$bench" ] || { echo "skipped: $bench not built"; exit 77; }
N=${EVENTS:-10000000}
LIMIT=${LIMIT_MS:-10000}
t0=$(date +%s)
"$bench" --events "$N" --runs 1 --keep "$D/big.augur" >"$D/bench.out" 2>&1 ||
  { echo "skipped: could not generate the trace: $(tail -2 "$D/bench.out")"; exit 77; }
t1=$(date +%s)
if [ $((t1 - t0)) -gt 15 ]; then echo "skipped: generating took $((t1 - t0)) s"; exit 77; fi
start=$(date +%s%N)
expect 0 0 "$AUGUR" timeline "$D/big.augur" -o "$D/big.html"
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
size=$(wc -c <"$D/big.html")
echo "timeline of $N events: $ms ms, $size bytes"
[ "$ms" -lt "$LIMIT" ] || fail "took $ms ms, want < $LIMIT"
[ "$size" -lt 2000000 ] || fail "output is $size bytes, want < 2 MB"
grep -q "states: aggregated" "$D/big.html" || fail "the legend does not say states are aggregated"
"$PY" "$CHECK" html "$D/big.html" --ranks 0-0 || fail "HTML of the large trace"
# A narrow window of it draws exact intervals.
expect 0 0 "$AUGUR" timeline "$D/big.augur" -o "$D/zoom.svg" --from 2s --to 2.001s
grep -q "MPI_Waitall" "$D/zoom.svg" || fail "zoomed window has no exact calls"
rm -rf "$D/big.augur"

if [ -n "$bench_tl" ] && [ -x "$bench_tl" ]; then
  "$bench_tl" --events "$N" --ranks 16 --keep "$D/ring.augur" >"$D/bench_tl.out" 2>&1 ||
    fail "augur-bench-timeline: $(tail -2 "$D/bench_tl.out")"
  start=$(date +%s%N)
  expect 0 0 "$AUGUR" timeline "$D/ring.augur" -o "$D/ring.svg"
  end=$(date +%s%N)
  ms=$(( (end - start) / 1000000 ))
  size=$(wc -c <"$D/ring.svg")
  echo "timeline of $N events on 16 ranks: $ms ms, $size bytes"
  [ "$ms" -lt "$LIMIT" ] || fail "16 ranks: took $ms ms, want < $LIMIT"
  [ "$size" -lt 2000000 ] || fail "16 ranks: output is $size bytes, want < 2 MB"
  grep -q "messages: sampled" "$D/ring.svg" || fail "16 ranks: the legend does not say it sampled"
  "$PY" "$CHECK" svg "$D/ring.svg" --ranks 0-15 || fail "SVG of the 16-rank trace"
  rm -rf "$D/ring.augur"
fi
finish
