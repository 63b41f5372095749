# augur model analytic: bad input gets one line on stderr and exit 2 (a wrong
# command line) or 1 (bad files), never a crash.
. "$(dirname "$0")/lib.sh"
M="$D/m.ini"
ok="--send 32*W --reply 48*W/workers --work w2"
A="$AUGUR model analytic"
expect 2 1 $A
expect 2 1 $A "$M" $ok --at workload=2000,workers=2,threads=2
contains "$D/err" "missing --data"
expect 2 1 $A "$M" --data "$D/runs.csv" --work w2 --at workload=2000,workers=2,threads=2
contains "$D/err" "missing --send"
expect 2 1 $A "$M" --data "$D/runs.csv" $ok
contains "$D/err" "give one of --at"
expect 2 1 $A "$M" --data "$D/runs.csv" $ok --workload 100 --at workload=2000,workers=2,threads=2
expect 2 1 $A "$M" --data "$D/runs.csv" $ok --at workload=2000,workers=2
contains "$D/err" "expected 'workload=W,workers=K,threads=T'"
expect 2 1 $A "$M" --data "$D/runs.csv" $ok --at workload=-1,workers=2,threads=2
expect 2 1 $A "$M" --data "$D/runs.csv" $ok --at workload=1e400,workers=2,threads=2
expect 2 1 $A "$M" --data "$D/runs.csv" $ok --at workload=2000,workers=1.5,threads=2
expect 2 1 $A "$M" --data "$D/runs.csv" $ok --at workload=2000,workers=2,threads=0,x=1
expect 2 1 $A "$M" --data "$D/runs.csv" --send lots --reply 8 --work w1 --workload 10
contains "$D/err" "--send: expected bytes"
expect 2 1 $A "$M" --data "$D/runs.csv" --send 8 --reply -8 --work w1 --workload 10
expect 2 1 $A "$M" --data "$D/runs.csv" --send '8*W+' --reply 8 --work w1 --workload 10
expect 2 1 $A "$M" --data "$D/runs.csv" --send 8 --reply 8 --work w3 --workload 10
expect 2 1 $A "$M" --data "$D/runs.csv" $ok --workload 0
expect 2 1 $A "$M" --data "$D/runs.csv" $ok --workload 10 --cores 0
expect 2 1 $A "$M" --data "$D/runs.csv" $ok --workload 10 --threads 0
expect 1 1 $A "$M" --data "$D/runs.csv" $ok --workload 10 --cores 1000000
contains "$D/err" "more than 10^7"
# Threads the machine model has no figures for.
expect 1 1 $A "$M" --data "$D/runs.csv" $ok --at workload=2000,workers=1,threads=3
contains "$D/err" "3 threads: the machine model's [microbench] has no OpenMP figures"
# Machine files: missing, no section, half a thread count, bad values.
expect 1 1 $A "$D/none.ini" --data "$D/runs.csv" $ok --workload 10
printf '[machine]\nname = old\n[cpu]\nspeed = 1\n' >"$D/old.ini"
expect 1 1 $A "$D/old.ini" --data "$D/runs.csv" $ok --workload 10
contains "$D/err" "no [microbench] section (write one with \`augur calibrate --openmp\`)"
printf '[microbench]\nmsg_0 = 1e-6\nmsg_8 = 2e-6\nparallel_1 = 1e-6\n' >"$D/half.ini"
expect 1 1 $A "$D/half.ini" --data "$D/runs.csv" $ok --workload 10
contains "$D/err" "has parallel_1 but no for_1"
printf '[microbench]\nmsg_0 = 1e-6\nparallel_1 = 1e-6\nfor_1 = 1e-6\n' >"$D/onesize.ini"
expect 1 1 $A "$D/onesize.ini" --data "$D/runs.csv" $ok --workload 10
contains "$D/err" "at least 2 sizes"
printf '[microbench]\nmsg_0 = 1e-6\nparallel_1 = fast\n' >"$D/bad.ini"
expect 1 1 $A "$D/bad.ini" --data "$D/runs.csv" $ok --workload 10
contains "$D/err" "bad.ini:3: microbench.parallel_1: expected a number >= 0, got 'fast'"
printf '[microbench]\nmsg_0 = 1e-6\nparallel_0 = 1e-6\n' >"$D/zero.ini"
expect 1 1 $A "$D/zero.ini" --data "$D/runs.csv" $ok --workload 10
contains "$D/err" "unknown key 'parallel_0'"
printf '[microbench]\nmsg_0 = -1\n' >"$D/neg.ini"
expect 1 1 $A "$D/neg.ini" --data "$D/runs.csv" $ok --workload 10
# Data sets: missing, no such column, no such configuration, two
# configurations and no --calib, a worker computation below the overhead.
expect 1 1 $A "$M" --data "$D/none.csv" $ok --workload 10
printf 'workload,workers,threads,t_iter\n1,1,1,0.1\n' >"$D/nocol.csv"
expect 1 1 $A "$M" --data "$D/nocol.csv" $ok --workload 10
contains "$D/err" "no numeric column 't_comp_worker'"
expect 1 1 $A "$M" --data "$D/runs.csv" --calib workload=5,workers=1,threads=1 $ok --workload 10
contains "$D/err" "no complete run"
{ cat "$D/runs.csv"; echo "sw,2000,1,1,0.02,0.0002,0.02,0,ok"; } >"$D/two.csv"
expect 2 1 $A "$M" --data "$D/two.csv" $ok --workload 10
contains "$D/err" "choose the calibration run with --calib"
expect 0 0 $A "$M" --data "$D/two.csv" --calib workload=2000,workers=1,threads=1 $ok --workload 10
printf 'workload,workers,threads,t_iter,t_comp_worker\n1,1,1,0.1,1e-6\n' >"$D/tiny.csv"
expect 1 1 $A "$M" --data "$D/tiny.csv" $ok --workload 10
contains "$D/err" "is not more than the OpenMP overhead"
# calibrate: --openmp measures this machine, not a trace.
expect 2 1 "$AUGUR" calibrate --openmp --from "$D/none.augur"
finish
