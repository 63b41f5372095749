# `mpiexec -n M augur report --parallel TRACE` prints the serial report byte
# for byte (text and JSON) at M = 1, 2, 3, on traces of 3 to 1,024 ranks; its
# errors are the serial ones: M > N, not under mpiexec, a damaged rank file
# in one block. Environment: AUGUR, DXGEN (bench/diagnose's generator), GEN
# (tests/cli's hand-built traces), MPIEXEC, FLAVOUR, MPIENV, WORK, NAME.
. "$(dirname "$0")/../lib.sh"
. "$MPIENV"
CMD=report
NOTE='^augur report: --parallel: the trace has'
. "$(dirname "$0")/same.sh"

"$GEN" "$D/known.augur" >/dev/null || fail "gen_trace"
"$GEN" "$D/threads.augur" threads >/dev/null || fail "gen_trace threads"
"$DXGEN" "$D/dx4.augur" --ranks 4 --events 8000 >/dev/null || fail "dx-gen 4"
"$DXGEN" "$D/dx37.augur" --ranks 37 --events 20000 >/dev/null || fail "dx-gen 37"
"$DXGEN" "$D/dx1024.augur" --ranks 1024 --events 30000 >/dev/null || fail "dx-gen 1024"

# Open MPI's mpiexec starts slowly (seconds here): with QUICK=1 only one
# comparison and the M > N refusal run for it; MPICH runs everything.
if [ "${QUICK:-0}" = 1 ]; then
  same "$D/dx37.augur" 3 --json --no-ideal
  expect 2 - par 4 "$D/known.augur"
  contains "$D/err" "augur report: --parallel: 4 analysis ranks for a trace of 3 ranks"
  finish
fi

# 1. The same bytes: every M on the hand-built 3-rank trace (call sites,
#    messages, collectives with known figures); 37 ranks (blocks of unequal
#    size, a tree with an odd rank out) and 1,024 ranks; text and JSON.
same "$D/known.augur" "1 2 3" --json
same "$D/known.augur" 2
same "$D/threads.augur" 2
same "$D/dx37.augur" 3 --json --no-ideal
same "$D/dx37.augur" 2 --top 3
same "$D/dx1024.augur" 2 --json --no-ideal
grep -q 'the trace has' "$D/p.err" && fail "MPI-only trace: a part was computed serially: $(cat "$D/p.err")"

# OpenMP records: their thread states are not merged yet; the efficiencies
# are computed serially on analysis rank 0, the output is the same and
# stderr says so.
GEN_OMP=1 "$GEN" "$D/omp.augur" >/dev/null || fail "gen_trace GEN_OMP=1"
same "$D/omp.augur" 2 --json
contains "$D/p.err" "augur report: --parallel: the trace has OpenMP records"

# 2. More analysis ranks than application ranks: refused, said once, exit 2.
expect 2 - par 4 "$D/known.augur"
contains "$D/err" "augur report: --parallel: 4 analysis ranks for a trace of 3 ranks"
[ "$(grep -c 'analysis ranks for a trace' "$D/err")" -eq 1 ] ||
  fail "M > N said $(grep -c 'analysis ranks for a trace' "$D/err") times: $(cat "$D/err")"
[ -s "$D/out" ] && fail "M > N printed a report: $(head -3 "$D/out")"

# 3. Not under mpiexec: refused with how to run it, exit 2, one line.
env -u PMI_RANK -u PMI_SIZE -u OMPI_COMM_WORLD_SIZE \
  "$AUGUR" report --parallel "$D/known.augur" >"$D/out" 2>"$D/err"
[ $? -eq 2 ] || fail "--parallel outside mpiexec: exit $?, want 2"
[ "$(wc -l <"$D/err")" -eq 1 ] || fail "--parallel outside mpiexec: $(cat "$D/err")"
contains "$D/err" "augur report: --parallel runs as an MPI job, started by mpiexec"
contains "$D/err" "mpiexec -n M augur report --parallel TRACE"

# 3b. simulate has no parallel version: said once (by launcher rank 0), with what to run
#     instead, exit 2; alone, the same line.
expect 2 1 "$MPIEXEC" -n 2 "$AUGUR" simulate --parallel "$D/known.augur"
contains "$D/err" "augur simulate: --parallel: simulate has no parallel version yet"
expect 2 1 env -u PMI_RANK -u PMI_SIZE -u OMPI_COMM_WORLD_SIZE \
  "$AUGUR" simulate "$D/known.augur" --parallel
contains "$D/err" "run 'augur simulate TRACE' alone"

# 4. A damaged rank file in the second block (rank 3 of 4, M = 2) and in the
#    first (rank 0): what could be read, the same damage statement and
#    exit 1 as the serial report. A missing rank file: the open fails the
#    same way, said once.
for r in 3 0; do
  cp -r "$D/dx4.augur" "$D/dmg$r.augur"
  F="$D/dmg$r.augur/rank-0000$r.evt"
  python3 - "$F" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for off in range(len(b) // 2, len(b), 97):  # the second half of the file
    b[off] ^= 0x5A
open(p, "wb").write(bytes(b))
PY
  if [ $r = 3 ]; then same "$D/dmg$r.augur" 2; else same "$D/dmg$r.augur" 2 --json; fi
  contains "$D/p.err" "rank-0000$r.evt"
  [ -s "$D/p.out" ] || fail "damaged rank $r: no report printed"
done
cp -r "$D/known.augur" "$D/missing.augur"
rm "$D/missing.augur/rank-00001.evt"
same "$D/missing.augur" 3
finish
