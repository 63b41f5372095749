# On a terminal (script(1) gives one) simulate, phases, signature, diagnose, report and
# summary show how far they are:
# "VERB N of M UNIT (P %)", then "about T left" once a second has passed, N rising to at
# most M; the line is erased at the end. Without a terminal, nothing on stderr.
# simulate counts the records behind the operations it simulated (not those it read,
# which run ahead by the builder's window): an MPI_Alltoall on 512 ranks, much simulation
# for few records, would otherwise show one line at 100 %. phases, diagnose, report: a 16-rank
# halo of 16 M records, summary 6 M (augur-bench-dx-gen). Environment: AUGUR, DXGEN, WORK,
# NAME, SHRINK (the records divided by it: 8 in sanitizer builds).
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null 2>&1 || { echo "skipped: no script(1)"; exit 77; }
"$DXGEN" "$D/a2a.augur" --ranks 512 --events $((400000 / SHRINK)) --pattern alltoall --truth "$D/a2a.truth" \
  >/dev/null || fail "dx-gen alltoall"
"$DXGEN" "$D/halo.augur" --ranks 16 --events $((16000000 / SHRINK)) --truth "$D/halo.truth" >/dev/null ||
  fail "dx-gen halo"

# check NAME TRACE VERB UNIT RESULT ARGS...: `augur ARGS` on a terminal shows progress lines
# "VERB N of TOTAL UNIT (P %)" (TOTAL: the trace's records), at least two, N rising, P = N
# * 100 / TOTAL, the time left once it ran two seconds, erased before RESULT (a word of
# the output); without a terminal, stderr is empty. SEVERAL=1: the command runs several
# analyses in turn, the time left is not asked of the one checked (its own time is the
# command's minus the others').
check() {
  name=$1 trace=$2 verb=$3 unit=$4 result=$5
  shift 5
  total=$(sed 's/.*"records":\([0-9]*\).*/\1/' "$trace.truth")
  t0=$(date +%s%N)
  script -qec "'$AUGUR' $* '$trace.augur'" /dev/null >"$D/$name.tty" 2>&1 ||
    fail "$name on a terminal"
  t1=$(date +%s%N)
  tr '\r' '\n' <"$D/$name.tty" | grep -a "$verb [0-9]" >"$D/$name.lines"
  grep -q "$result" "$D/$name.tty" || fail "$name: no result on the terminal: $(cat "$D/$name.tty")"
  awk -v total="$total" -v verb="$verb" -v unit="$unit" '
    { if (!match($0, verb " [0-9]+ of [0-9]+ " unit " \\([0-9]+ %\\)")) { print "bad: " $0; bad++; next }
      m = substr($0, RSTART + length(verb) + 1, RLENGTH - length(verb) - 1)
      split(m, w, /[ ()]+/)
      n = w[1] + 0; of = w[3] + 0; p = w[5] + 0
      if (of != total) { print "total " of " != " total; bad++ }
      if (n <= last || n > total) { print "not rising: " n " after " last; bad++ }
      if (p != int(n * 100 / total)) { print "percent " p " of " n; bad++ }
      last = n; lines++ }
    END { if (lines < 2) { print lines " progress lines"; bad++ } exit bad > 0 }' \
    "$D/$name.lines" >"$D/$name.why" || fail "$name: progress lines: $(cat "$D/$name.why")"
  if [ -z "${SEVERAL:-}" ] && [ $(((t1 - t0) / 1000000)) -ge 2000 ]; then
    grep -q 'about [0-9.]* s left' "$D/$name.lines" ||
      fail "$name: no time left in: $(tail -3 "$D/$name.lines")"
  fi
  tr '\r' '\n' <"$D/$name.tty" | grep -a -A1 "$verb [0-9]" | tail -1 | grep -q "$verb [0-9]" &&
    fail "$name: the progress line was not erased"
  expect 0 0 "$AUGUR" "$@" "$trace.augur"
}
check simulate "$D/a2a" simulating records predicted simulate
check phases "$D/halo" reading records PhaseET phases
check signature "$D/halo" reading records "relevant phases" signature -o "$D/halo.sig"
check diagnose "$D/halo" diagnosing events "findings above" diagnose
# report: the replay on the ideal network (its longest part; the reading before it counts
# ranks)
check report "$D/halo" "the ideal network" records "Efficiencies (POP)" report
# summary: each analysis it gathers shows its own line (the diagnosis checked here)
# (6 M records: it runs report, diagnose and phases in turn)
"$DXGEN" "$D/small.augur" --ranks 16 --events $((6000000 / SHRINK)) --truth "$D/small.truth" \
  >/dev/null || fail "dx-gen small"
SEVERAL=1 check summary "$D/small" diagnosing events "program " summary -o "$D/summary.html"
finish
