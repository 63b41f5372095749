# On a terminal (script(1) gives one) simulate shows how far it is: "simulating N of M
# records (P %)", then "about T left" once a second has passed, N rising to M with the
# operations simulated (not with the records read, which run ahead by the builder's
# window); the line is erased at the end. Without a terminal, nothing on stderr. The trace:
# MPI_Alltoall on 256 ranks, much simulation for few records (augur-bench-dx-gen).
# Environment: AUGUR, DXGEN, WORK, NAME.
. "$(dirname "$0")/../lib.sh"
command -v script >/dev/null 2>&1 || { echo "skipped: no script(1)"; exit 77; }
"$DXGEN" "$D/a.augur" --ranks 256 --events 400000 --pattern alltoall --truth "$D/truth" \
  >/dev/null || fail "dx-gen"
records=$(sed 's/.*"records":\([0-9]*\).*/\1/' "$D/truth")
t0=$(date +%s%N)
script -qec "'$AUGUR' simulate '$D/a.augur'" /dev/null >"$D/tty" 2>&1 || fail "simulate on a terminal"
t1=$(date +%s%N)
tr '\r' '\n' <"$D/tty" | grep -a 'simulating' >"$D/lines"
grep -q 'predicted' "$D/tty" || fail "no result on the terminal: $(cat "$D/tty")"
# every line: N of RECORDS records (P %), N and P rising, P = N * 100 / RECORDS
awk -v total="$records" '
  { if (!match($0, /simulating [0-9]+ of [0-9]+ records \([0-9]+ %\)/)) { print "bad: " $0; bad++; next }
    split(substr($0, RSTART, RLENGTH), w, /[ ()]+/)
    n = w[2] + 0; of = w[4] + 0; p = w[6] + 0
    if (of != total) { print "total " of " != " total; bad++ }
    if (n <= last || n > total) { print "not rising: " n " after " last; bad++ }
    if (p != int(n * 100 / total)) { print "percent " p " of " n; bad++ }
    last = n; lines++ }
  END { if (lines < 2) { print lines " progress lines"; bad++ } exit bad > 0 }' "$D/lines" >"$D/why" ||
  fail "progress lines: $(cat "$D/why")"
# a run of two seconds or more has said the time left
if [ $(((t1 - t0) / 1000000)) -ge 2000 ]; then
  grep -q 'about [0-9.]* s left' "$D/lines" || fail "no time left in: $(tail -3 "$D/lines")"
fi
# erased at the end: the last progress line is followed by the erase, then the output
tr '\r' '\n' <"$D/tty" | grep -a -A1 'simulating' | tail -1 | grep -q 'simulating' &&
  fail "the progress line was not erased"
expect 0 0 "$AUGUR" simulate "$D/a.augur"
finish
