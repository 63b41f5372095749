# Rendezvous under time slices (issue 21: NPB CG A -57 %, MG A -31 %, BT S
# -33 % with 4 ranks on 2 CPUs, quiet). A message above the eager limit
# moves only when its receiver is in MPI on a CPU (MPICH with UCX: the
# sender's MPI_Send waits 2 ms for a receiver that enters MPI 2 ms late,
# from 8256 bytes on); the model started it once both ends were posted,
# whether the receiver ran or not. sim_halo2d with 16 KiB faces and 1 ms
# of compute runs with 4 ranks on 2 CPUs, quiet (quiet_rank.sh), and is
# simulated on the detected 2 cores within TOL (docs/simulate.md
# "Rendezvous under time slices"). Before: -48 %.
# usage: oversub_rndv.sh MPIEXEC APPDIR
. "$(dirname "$0")/oversub_lib.sh"
# The bound: every deal of the ranks to the 2 cores predicts within 3 %
# of the others here (the placement does not matter for this grid); this
# test gave +4.3 % at load 22 (other work 2 %) and the same configuration
# +0.5 % at load 14; the calibrated slice moves by a few percent between
# calibrations, and recordings with much other work by more.
TOL=${TOL:-0.15}

T="$D/halo.augur"
expect 0 - "$AUGUR" record -o "$T" -- taskset -c 0,1 "$mpiexec" -n 4 sh "$quiet" "$apps/sim_halo2d" -n 150 -w 1000 -s 16384
expect 0 0 "$AUGUR" simulate "$T" --machine "$D/machine.ini" --json
check_trace "$TOL" "sim_halo2d -w 1000 -s 16384 (rendezvous)" 0 || fail "sim_halo2d -w 1000 -s 16384, 4 ranks on 2 CPUs"
finish
