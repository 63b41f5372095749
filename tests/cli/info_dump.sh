# augur info and augur dump on the known trace.
. "$(dirname "$0")/lib.sh"
T="$D/known.augur"
"$GEN" "$T" || { fail "gen_trace failed"; finish; }

expect 0 0 "$AUGUR" info "$T"
for s in "augur-trace 1.6" "./augur-test-app 42" "TestMPI" "3 (complete)" "testhost" \
  "4001" "gen_trace: no counters" "world" "Damage" "none"; do
  contains "$D/out" "$s"
done

expect 0 0 "$AUGUR" dump "$T"
n=$(wc -l <"$D/out")
[ "$n" -eq 27 ] || fail "dump printed $n lines, want 1 header + 26 events"
# Sub-records are indented under their parent: 4 completions with index.
c=$(grep -c -E ' {3,}[A-Za-z_ ]*\[[01]\] ' "$D/out")
[ "$c" -eq 4 ] || fail "$c indented completion lines, want 4"
# Global time order: the first event is an MPI_Init at 0.
head -2 "$D/out" | tail -1 | grep -q "0.000000000" || fail "first event not at time 0"
contains "$D/out" "augur-test-app+0x100"

expect 0 0 "$AUGUR" dump "$T" --rank 2
n=$(wc -l <"$D/out")
[ "$n" -eq 8 ] || fail "dump --rank 2 printed $n lines, want 8"
expect 0 0 "$AUGUR" dump "$T" --limit 3
n=$(wc -l <"$D/out")
[ "$n" -eq 4 ] || fail "dump --limit 3 printed $n lines, want 4"

# Text from the trace (the command line, host names) is anyone's: printed
# with control characters escaped (issue 22, item 6), never raw.
GEN_HOSTILE=1 "$GEN" "$D/hostile.augur" || fail "gen_trace (hostile) failed"
expect 0 0 "$AUGUR" info "$D/hostile.augur"
contains "$D/out" './augur-test-app 42\x1b[2J\x0a'
contains "$D/out" 'test\x1b]0;x\x07host'
tr -d '\n' <"$D/out" | tr -d '[:print:]' | od -An -c | grep -q . &&
  fail "augur info printed control characters: $(tr -d '\n' <"$D/out" | tr -d '[:print:]' | od -An -c)"
finish
