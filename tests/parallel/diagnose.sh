# `mpiexec -n M augur diagnose --parallel TRACE` prints the serial diagnosis
# byte for byte (text, JSON and the --html page) at M = 1, 2, 3, on traces
# of 3 to 1,024 ranks and a recorded proving-ground run with a known finding
# (pg_blocked_sender: a chain of late senders); its errors are the serial
# ones. The diagnosis itself is computed on analysis rank 0 in this step
# (said on stderr, checked): without --html the other analysis ranks decode
# the records (their errors in the middle of a block said as the serial
# command says them); with --html the efficiencies come from them. Environment: AUGUR, DXGEN, GEN, MPIEXEC,
# FLAVOUR, MPIENV, APPS (the flavour's proving-ground programs), WORK, NAME,
# QUICK.
. "$(dirname "$0")/../lib.sh"
. "$MPIENV"
CMD=diagnose
NOTE='^augur diagnose: --parallel: '
. "$(dirname "$0")/same.sh"
. "$(dirname "$0")/damage.sh"

gen_traces
PG="$D/chain.augur"
"$AUGUR" record -o "$PG" -- "$MPIEXEC" -n 4 "$APPS/pg_blocked_sender" -n 10 -d 20000 \
  >"$D/rec.out" 2>&1 || fail "record pg_blocked_sender: $(tail -3 "$D/rec.out")"

# Open MPI's mpiexec starts slowly (seconds here): with QUICK=1 the
# recorded run, one page and the M > N refusal; MPICH runs everything.
if [ "${QUICK:-0}" = 1 ]; then
  same "$PG" "2 3" --json
  contains "$D/p.out" '"pattern": "blocked_sender"'
  same "$D/dx37.augur" 2 --html "$D/p.html" --no-ideal
  over_n
  finish
fi

# 1. The same bytes at every M: the recorded run (its known finding in it),
#    3, 4, 37 (blocks of unequal size, a tree with an odd rank out) and
#    1,024 ranks; text, JSON, the options passed through.
same "$PG" "1 2 3" --json
contains "$D/p.out" '"pattern": "blocked_sender"'
same "$PG" 2
contains "$D/p.out" "blocked_sender"
contains "$D/p.err" "augur diagnose: --parallel: analysis rank 1 decodes the records, the diagnosis runs on analysis rank 0"
same "$D/known.augur" 3 --json
same "$D/dx4.augur" "1 2 3"
same "$D/dx37.augur" "2 3" --json --min-share 0.5%
same "$D/dx1024.augur" 2 --json
same "$D/dx1024.augur" 3 --eager-limit 1

# 2. --html: the efficiencies from analysis ranks 1..M-1 (the ideal replay
#    on analysis rank 1), the same page; not said as serial for an MPI-only
#    trace. With OpenMP records they are computed serially, and said.
same "$PG" "1 2 3" --html "$D/p.html"
grep -q 'efficiencies are computed serially' "$D/p.err" &&
  fail "MPI-only trace: the efficiencies were computed serially: $(cat "$D/p.err")"
same "$D/dx37.augur" 3 --html "$D/p.html" --no-ideal --json
GEN_OMP=1 "$GEN" "$D/omp.augur" >/dev/null || fail "gen_trace GEN_OMP=1"
same "$D/omp.augur" 2 --html "$D/p.html"
contains "$D/p.err" "augur diagnose: --parallel: the trace has OpenMP records"

# 3. Refusals, said once, exit 2: more analysis ranks than application
#    ranks; a usage error; not under mpiexec.
over_n
same "$D/dx4.augur" 2 --no-ideal
contains "$D/p.err" "--no-ideal goes with --html FILE"
# a page that cannot be written: the diagnosis printed, then the serial error, exit 1
same "$D/dx4.augur" 3 --html "$D/no/such/dir/x.html"
contains "$D/p.err" "cannot write $D/no/such/dir/x.html"
outside_mpiexec

# 4. A damaged rank file (rank 3 of 4, in the second block at M = 2): the
#    serial error and exit status; a missing rank file: the open fails the
#    same way.
cp -r "$D/dx4.augur" "$D/dmg.augur"
damage_half "$D/dmg.augur/rank-00003.evt"
same "$D/dmg.augur" 2 --json
contains "$D/p.err" "rank-00003.evt"
same "$D/dmg.augur" 2 --html "$D/p.html"
cp -r "$D/known.augur" "$D/missing.augur"
rm "$D/missing.augur/rank-00001.evt"
same "$D/missing.augur" 3

# 5. Errors in the middle of remote blocks (analysis ranks 1..M-1 decode
#    the records without --html): a payload damaged behind an intact block
#    header, which the open does not see and the stream meets (not the last
#    block: the run's extent reads it before the stream). Rank 2 (the first
#    remote block at M = 3) fails in its 7th events block, rank 5 (the
#    second) in its 4th, earlier in time: the error the serial command says
#    is rank 5's, said once, at M = 2 and 3; then rank 5's alone.
"$DXGEN" "$D/mid.augur" --ranks 6 --events 240000 >/dev/null || fail "dx-gen 6"
cp -r "$D/mid.augur" "$D/mid2.augur"
damage_payload "$D/mid.augur/rank-00005.evt" 3
damage_payload "$D/mid.augur/rank-00002.evt" 6
same "$D/mid.augur" "2 3" --json
contains "$D/p.err" "rank-00005.evt: rank 5: block at offset"
damage_payload "$D/mid2.augur/rank-00005.evt" 3
same "$D/mid2.augur" "1 2 3"
contains "$D/p.err" "rank-00005.evt: rank 5: block at offset"
finish
