# Sourced by report.sh and diagnose.sh (after ../lib.sh) with CMD (report,
# diagnose) and NOTE (a grep pattern of the stderr notes of what analysis
# rank 0 computed serially). Gives:
#   par M ARGS...: augur CMD --parallel ARGS with M analysis ranks;
#   same TRACE "M..." ARGS...: for each M, the parallel stdout, stderr (less
#     the NOTE lines) and exit status are the serial ones; with --html
#     $D/p.html among ARGS the pages are the same bytes too (or neither is
#     written);
#   gen_traces: $D/known.augur (3 ranks), dx4, dx37, dx1024.augur (dx-gen);
#   over_n: 4 analysis ranks for known.augur's 3 refused, said once, exit 2,
#     nothing printed;
#   outside_mpiexec: --parallel without mpiexec refused in one line, exit 2.
par() {
  m=$1
  shift
  "$MPIEXEC" -n "$m" "$AUGUR" "$CMD" --parallel "$@"
}

same() {
  tr=$1
  ms=$2
  shift 2
  html=
  for a in "$@"; do [ "$a" = "$D/p.html" ] && html=1; done
  rm -f "$D/s.html" "$D/p.html"
  "$AUGUR" "$CMD" "$tr" "$@" >"$D/s.out" 2>"$D/s.err"
  s=$?
  [ -n "$html" ] && [ -f "$D/p.html" ] && mv "$D/p.html" "$D/s.html"
  for m in $ms; do
    rm -f "$D/p.html"
    par "$m" "$tr" "$@" >"$D/p.out" 2>"$D/p.err"
    p=$?
    [ "$s" -eq "$p" ] || fail "$(basename "$tr") M=$m $*: exit $p, serial $s; $(head -5 "$D/p.err")"
    cmp -s "$D/s.out" "$D/p.out" ||
      fail "$(basename "$tr") M=$m $*: output differs: $(diff "$D/s.out" "$D/p.out" | head -10)"
    if [ -n "$html" ] && [ -f "$D/s.html" ]; then
      cmp -s "$D/s.html" "$D/p.html" || fail "$(basename "$tr") M=$m $*: the pages differ"
    elif [ -n "$html" ] && [ -f "$D/p.html" ]; then
      fail "$(basename "$tr") M=$m $*: a page written where the serial command wrote none"
    fi
    # augur's lines (less the notes, checked by the callers); Open MPI's
    # mpiexec adds its own after them when the job exits non-zero (MPICH's
    # says nothing).
    grep -v "$NOTE" "$D/p.err" >"$D/p.err2"
    head -n "$(wc -l <"$D/s.err")" "$D/p.err2" | cmp -s "$D/s.err" - ||
      fail "$(basename "$tr") M=$m $*: stderr differs: $(diff "$D/s.err" "$D/p.err" | head -5)"
    [ "$(grep -c '^augur' "$D/p.err2")" -eq "$(grep -c '^augur' "$D/s.err")" ] ||
      fail "$(basename "$tr") M=$m $*: augur's stderr lines: $(cat "$D/p.err")"
  done
}

gen_traces() {
  "$GEN" "$D/known.augur" >/dev/null || fail "gen_trace"
  "$DXGEN" "$D/dx4.augur" --ranks 4 --events 8000 >/dev/null || fail "dx-gen 4"
  "$DXGEN" "$D/dx37.augur" --ranks 37 --events 20000 >/dev/null || fail "dx-gen 37"
  "$DXGEN" "$D/dx1024.augur" --ranks 1024 --events 30000 >/dev/null || fail "dx-gen 1024"
}

over_n() {
  expect 2 - par 4 "$D/known.augur"
  contains "$D/err" "augur $CMD: --parallel: 4 analysis ranks for a trace of 3 ranks"
  [ "$(grep -c 'analysis ranks for a trace' "$D/err")" -eq 1 ] ||
    fail "M > N said $(grep -c 'analysis ranks for a trace' "$D/err") times: $(cat "$D/err")"
  [ -s "$D/out" ] && fail "M > N printed: $(head -3 "$D/out")"
}

outside_mpiexec() {
  env -u PMI_RANK -u PMI_SIZE -u OMPI_COMM_WORLD_SIZE \
    "$AUGUR" "$CMD" --parallel "$D/known.augur" >"$D/out" 2>"$D/err"
  [ $? -eq 2 ] || fail "--parallel outside mpiexec: exit $?, want 2"
  [ "$(wc -l <"$D/err")" -eq 1 ] || fail "--parallel outside mpiexec: $(cat "$D/err")"
  contains "$D/err" "mpiexec -n M augur $CMD --parallel TRACE"
}
