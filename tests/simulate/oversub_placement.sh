# Oversubscribed runs where the model must know more than the CPUs' count
# (issue 21). Which ranks share a CPU: NPB CG A at 4 ranks on 2 CPUs ran
# 4.6-7.9 s by where the kernel put its ranks, and the model's mean over
# the deals of ranks to cores was +14..+17 % against runs in the good
# placements, -25 % in the bad one. The recorder notes each rank's CPU
# changes and simulate replays the recorded placements (docs/simulate.md
# "Recorded placement"). sim_pairs (partners r and r ^ 1 swap 16 KiB after
# 1 ms of compute) runs with 4 ranks pinned to 2 CPUs, quiet: partners on
# one CPU (together), then on two (apart); each trace is simulated on the
# detected 2 cores with one fresh calibration. Before: together -30.8 to
# -39.1 %, apart +38.6 to +88.3 % (both placements predicted alike).
# usage: oversub_placement.sh MPIEXEC APPDIR
. "$(dirname "$0")/oversub_lib.sh"
# The bounds: together +1.4, +1.9, +3.1, +4.0 % in four runs (load 14-16,
# other work 1-2 %), +17.0 % once with other work 21 % (other sessions at
# nice -20 too), +0.3 / +0.4 % on a quiet machine (a fresh-clone check); the
# all-to-all -1.0 .. +1.6 %. Apart has no accuracy bound: the model's mean
# over the 4 orders of turns of two pairs, half of which never run partners
# together, was -2.3 .. -26.9 % under load but +52.0 / +81.8 % on a quiet
# machine (runs of 0.55-0.65 s: MPICH's waiting ranks yield, and the kernel
# then runs the two partners together more often than the mean order says;
# docs/simulate.md). It is still asserted that the placements are told
# apart (below), which they were not before.
TOL=${TOL:-0.2}
TOL_APART=${TOL_APART:-}
pair="$(dirname "$0")/pair_rank.sh"

for how in together apart; do
  T="$D/$how.augur"
  expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 4 sh "$pair" "$how" "$apps/sim_pairs" -n 200
  expect 0 0 "$AUGUR" simulate "$T" --machine "$D/machine.ini" --json
  cp "$D/out" "$D/$how.json"
  if [ "$how" = together ] || [ -n "$TOL_APART" ]; then
    tol=$TOL
    [ "$how" = apart ] && tol=$TOL_APART
    check_trace "$tol" "sim_pairs $how" 0 || fail "sim_pairs $how, 4 ranks on 2 CPUs"
  fi
done
want_together='{0,1}{2,3} 100 %'
want_apart='{0,2}{1,3} 100 %'
contains "$D/together.json" "$want_together"
contains "$D/apart.json" "$want_apart"
# The placements apart: the model must tell them apart, as the runs do (2.4 s against 1.0 s).
"$PY" - "$D/together.json" "$D/apart.json" <<'PY' || fail "the two placements predicted alike"
import json, sys
t, a = (json.load(open(p))["predicted_seconds"] for p in sys.argv[1:3])
print("predicted together %.3f s, apart %.3f s" % (t, a))
assert t > 1.5 * a, "together %.3f s is not 1.5 x apart %.3f s" % (t, a)
PY
# MPICH's all-to-all moves every block at once (Isend/Irecv to all, then
# Waitall: "scattered", Alltoallv always, Alltoall up to 32 KiB a peer), so
# under time slices a rank exchanges with whichever partner runs; the model
# took the pairwise steps one after the other, each waiting for its
# partner's turn (NPB IS A +20 %). dx_alltoall --v, 256 KiB a peer, 1 ms of
# compute, 4 ranks on 2 CPUs, quiet. Before: +97.5, +101.8 %; after +1.6,
# -1.0 % (load 20).
T="$D/alltoallv.augur"
expect 0 - "$AUGUR" record -o "$T" -- taskset -c 0,1 "$mpiexec" -n 4 sh "$quiet" "$apps/dx_alltoall" --v --touch -n 120 -w 1000 -s 262144
expect 0 0 "$AUGUR" simulate "$T" --machine "$D/machine.ini" --json
check_trace "$TOL" "dx_alltoall --v -s 262144" 0 || fail "dx_alltoall --v, 4 ranks on 2 CPUs"
finish
