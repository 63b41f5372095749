# Simulate of oversubscribed runs (issue 21: NPB BT S -55 %, SP S -41 % with
# 4 ranks on 2 CPUs). sim_halo2d (a 2-D Isend/Irecv/Waitall halo exchange
# with computation, BT/SP's faces) runs with 4 ranks on 2 CPUs (taskset),
# each configuration twice: quiet (quiet_rank.sh: the ranks' sessions at
# autogroup nice -20, so other jobs take a few percent of the CPUs) and as
# the machine is (on the shared VM: other work 50-65 % of the CPUs). Each
# trace is simulated on the detected 2 cores with one fresh calibration,
# within TOL, for a short and a longer compute step and two eager message
# sizes (docs/simulate.md "CPU", "Other work and the order of turns").
# Before (integ's model, its calibration): quiet +111 to +154 % (the time
# slice measured as a half round trip holds the other jobs' turns), as is
# -4 to -41 %; the first attempt (every cycle's order drawn anew) quiet
# +18 to +20 % for -w 200.
# usage: oversub.sh MPIEXEC APPDIR
. "$(dirname "$0")/oversub_lib.sh"
# The bound: the model's turn order is drawn (it stands for the kernel's,
# which changes run by run) and the prediction scales with the calibrated
# slice; in 3 runs of this test at load 11-15 the errors were -10.0 to
# +8.4 % quiet (other work 2-4 %) and -5.3 to +9.1 % as is (59-64 %); at
# load 7.6 -0.5, -7.5 % quiet, +3.9, -3.0 % as is (43-44 %).
TOL=${TOL:-0.15}

for how in quiet loaded; do
  wrap=""
  [ "$how" = quiet ] && wrap="sh $quiet"
  for cfg in "-w 200 -s 4096" "-w 1000 -s 1024"; do
    T="$D/halo.augur"
    # shellcheck disable=SC2086 # cfg is the app's options, wrap the quiet wrapper
    expect 0 - "$AUGUR" record -o "$T" -- taskset -c 0,1 "$mpiexec" -n 4 $wrap "$apps/sim_halo2d" -n 150 $cfg
    expect 0 0 "$AUGUR" simulate "$T" --machine "$D/machine.ini" --json
    check_trace "$TOL" "sim_halo2d $how $cfg" 1 || fail "sim_halo2d $how $cfg, 4 ranks on 2 CPUs"
  done
done
# The default model has no time slice, so the ranks' turns are not simulated: the output says
# so (NPB CG A at 4 ranks on 2 cores was -93 % without a word); a calibrated model has one.
! grep -q "has no time slice" "$D/out" || fail "calibrated model: says it has no time slice"
expect 0 0 "$AUGUR" simulate "$T" --json
contains "$D/out" "the machine model has no time slice (cpu.quantum)"
finish
