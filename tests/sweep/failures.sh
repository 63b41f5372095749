# A run that fails is a row with status failed and empty times, one line on
# stderr, and the sweep goes on; a run that hangs is killed after --timeout
# and its row says timeout. Exit 1: some runs failed.
. "$(dirname "$0")/lib.sh"
cd "$D"
# -W 0: sw_mw refuses it (MPI_Abort); -W 3000000 does not end within 3 s.
expect 1 - "$AUGUR" sweep --workload 0.5,200,3000000 --iterations 2 --timeout 3 -o runs.csv -- \
  "$MPIEXEC" -n {procs} "$APP" -W {workload} -i {iterations}
[ "$(wc -l <runs.csv)" -eq 4 ] || fail "want 3 rows: $(cat runs.csv)"
[ "$(col runs.csv status 1)" = failed ] || fail "row 1: $(sed -n 2p runs.csv)"
[ "$(col runs.csv t_iter 1)" = "" ] || fail "failed row has a t_iter: $(sed -n 2p runs.csv)"
[ "$(col runs.csv status 2)" = ok ] || fail "row 2: $(sed -n 3p runs.csv)"
[ "$(col runs.csv status 3)" = timeout ] || fail "row 3: $(sed -n 4p runs.csv)"
contains "$D/err" "run 1/3 (workers=1 threads=1 workload=0.5) failed"
contains "$D/err" "run 3/3 (workers=1 threads=1 workload=3000000) timed out"
# One iteration is no repeated cycle: a row saying no_cycle, no t_iter.
expect 1 - "$AUGUR" sweep --workload 200 --iterations 1 -o one.csv -- \
  "$MPIEXEC" -n {procs} "$APP" -W {workload} -i {iterations}
[ "$(col one.csv status 1)" = no_cycle ] || fail "one iteration: $(cat one.csv)"
[ "$(col one.csv t_iter 1)" = "" ] || fail "one iteration has a t_iter: $(cat one.csv)"
[ "$(col one.csv t_app 1)" != "" ] || fail "one iteration lost the app's own time: $(cat one.csv)"
contains "$D/err" "no_cycle: fewer than 2 master->workers->master cycles"
finish
