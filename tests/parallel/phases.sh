# `mpiexec -n M augur phases --parallel TRACE` prints the serial phases
# byte for byte (text and JSON, the three modes) at M = 1, 2, 3, on traces
# of 3 to 1,024 ranks and a recorded run of pas2p_irregular (irregular
# mode: its iteration phase of weight 30 in the output); its
# errors are the serial ones. Analysis ranks 1..M-1 decode the records
# (said on stderr, checked), analysis rank 0 builds the logical trace from
# them; errors in the middle of remote blocks are said once, as the serial
# command says them. Environment: AUGUR, DXGEN, GEN, MPIEXEC, FLAVOUR,
# MPIENV, APPS (the flavour's apps), WORK, NAME, QUICK.
. "$(dirname "$0")/../lib.sh"
. "$MPIENV"
CMD=phases
NOTE='^augur phases: --parallel: '
. "$(dirname "$0")/same.sh"
. "$(dirname "$0")/damage.sh"

gen_traces
IRR="$D/irr.augur"
"$AUGUR" record -o "$IRR" -- "$MPIEXEC" -n 4 "$APPS/pas2p_irregular" -n 30 -k 10 \
  >"$D/rec.out" 2>&1 || fail "record pas2p_irregular: $(tail -3 "$D/rec.out")"

# Open MPI's mpiexec starts slowly (seconds here): with QUICK=1 the
# recorded run and the M > N refusal; MPICH runs everything.
if [ "${QUICK:-0}" = 1 ]; then
  same "$IRR" "2 3" --irregular --json
  contains "$D/p.out" '"weight": 30'
  over_n
  finish
fi

# 1. The same bytes at every M: the recorded run (global, EPAS and
#    irregular modes; irregular: its iteration phase of weight 30), 3,
#    4, 37 (blocks of unequal size) and 1,024 ranks; text, JSON, options.
same "$IRR" "1 2 3" --json
contains "$D/p.out" '"mode": "global"'
contains "$D/p.err" "augur phases: --parallel: analysis ranks 1..2 decode the records, the phases are computed on analysis rank 0"
same "$IRR" "2 3"
same "$IRR" "2 3" --irregular
contains "$D/p.out" "characteristic communicator: MPI_COMM_WORLD"
same "$IRR" 2 --irregular --json
contains "$D/p.out" '"weight": 30'
same "$IRR" "2 3" --per-rank --json
same "$IRR" 3 --rank 2 --min-share 0.001
contains "$D/p.err" "augur phases: --parallel: analysis ranks 1..2 decode the records"
same "$D/known.augur" "1 2 3" --json
same "$D/dx4.augur" "1 2 3"
contains "$D/p.err" "augur phases: --parallel: analysis ranks 1..2 decode the records"
same "$D/dx37.augur" "2 3" --json --min-share 0.5 --volume-tol 0.2
same "$D/dx1024.augur" 2 --json
contains "$D/p.err" "augur phases: --parallel: analysis rank 1 decodes the records"
same "$D/dx1024.augur" 3 --max-period 64 --work-sim 0.5

# 2. Refusals, said once, exit 2: more analysis ranks than application
#    ranks; a usage error (the serial one); not under mpiexec.
over_n
same "$D/dx4.augur" 2 --irregular --per-rank
contains "$D/p.err" "--irregular and --per-rank/--rank are different modes"
same "$D/dx4.augur" 3 --min-share 2
outside_mpiexec

# 3. A damaged rank file (rank 3 of 4, in the second block at M = 2, its
#    damage seen at the open): the serial error and status; a missing rank
#    file: the open fails the same way.
cp -r "$D/dx4.augur" "$D/dmg.augur"
damage_half "$D/dmg.augur/rank-00003.evt"
same "$D/dmg.augur" "2 3" --json
contains "$D/p.err" "rank-00003.evt"
cp -r "$D/known.augur" "$D/missing.augur"
rm "$D/missing.augur/rank-00001.evt"
same "$D/missing.augur" 3

# 4. Errors in the middle of remote blocks (payloads damaged behind intact
#    block headers: the open does not see them, the senders' streams meet
#    them). Rank 2 (the first remote block at M = 3) fails in its 7th
#    events block, rank 5 (the second) in its 4th, earlier in time: the
#    error the serial command says is rank 5's, said once, at M = 2 and 3;
#    then rank 5's alone.
"$DXGEN" "$D/mid.augur" --ranks 6 --events 240000 >/dev/null || fail "dx-gen 6"
cp -r "$D/mid.augur" "$D/mid2.augur"
damage_payload "$D/mid.augur/rank-00005.evt" 3
damage_payload "$D/mid.augur/rank-00002.evt" 6
same "$D/mid.augur" "2 3" --json
contains "$D/p.err" "rank-00005.evt: rank 5: block at offset"
[ "$(grep -c 'rank-0000' "$D/p.err")" -eq 1 ] || fail "the error said more than once: $(cat "$D/p.err")"
damage_payload "$D/mid2.augur/rank-00005.evt" 3
same "$D/mid2.augur" "1 2 3"
contains "$D/p.err" "rank-00005.evt: rank 5: block at offset"

# 5. An order hazard (augur_logical.order_hazards): a recorded run with 300
#    communicators, past the 255 the logical trace numbers: which ones get
#    a number is the stream's order, so analysis rank 0 says so and builds
#    the logical trace again serially: the serial bytes at M = 2, 3.
cat >"$D/many_comms.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm c[300];
  for (int i = 0; i < 300; i++) MPI_Comm_dup(MPI_COMM_WORLD, &c[i]);
  for (int i = 0; i < 300; i++) MPI_Barrier(c[i]);
  for (int i = 0; i < 300; i++) MPI_Comm_free(&c[i]);
  MPI_Finalize();
  return 0;
}
C
if "$MPICC" -o "$D/many_comms" "$D/many_comms.c" >"$D/cc.out" 2>&1; then
  "$AUGUR" record -o "$D/comms.augur" -- "$MPIEXEC" -n 4 "$D/many_comms" >"$D/rec.out" 2>&1 ||
    fail "record many_comms: $(tail -3 "$D/rec.out")"
  same "$D/comms.augur" "2 3" --json
  contains "$D/p.err" "augur phases: --parallel: the logical trace depends on the interleaving"
  same "$D/comms.augur" 2 --irregular
else
  fail "$MPICC many_comms.c: $(head -3 "$D/cc.out")"
fi
finish
