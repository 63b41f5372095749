# augur sweep: every bad command line is one clear line and exit 2, before
# anything runs.
. "$(dirname "$0")/lib.sh"
cd "$D"
T="-- mpiexec -n {procs} ./app -W {workload}"
expect 2 1 "$AUGUR" sweep --workload 10
contains "$D/err" "missing '-- COMMAND TEMPLATE'"
expect 2 1 "$AUGUR" sweep --workload 10 --
contains "$D/err" "missing COMMAND TEMPLATE"
expect 2 1 "$AUGUR" sweep $T
contains "$D/err" "missing --workload"
expect 2 1 "$AUGUR" sweep --workload "" $T
contains "$D/err" "--workload: empty list"
expect 2 1 "$AUGUR" sweep --workload 10 --workers 0 $T
contains "$D/err" "bad item '0'"
expect 2 1 "$AUGUR" sweep --workload 10 --workers 1,,2 $T
expect 2 1 "$AUGUR" sweep --workload 10 --threads 4-2 $T
expect 2 1 "$AUGUR" sweep --workload -5 $T
expect 2 1 "$AUGUR" sweep --workload 10 --places "a b" $T
expect 2 1 "$AUGUR" sweep --workload 10 --reps 0 $T
expect 2 1 "$AUGUR" sweep --workload 10 -- mpiexec -n {procs} ./app -W {load}
contains "$D/err" "unknown placeholder '{load}'"
expect 2 1 "$AUGUR" sweep --workload 10 -- ./app {workers
contains "$D/err" "unknown placeholder '{workers'"
expect 2 1 "$AUGUR" sweep --workload 10 --dir "a,b" $T
contains "$D/err" "--dir: 'a,b' has a comma"
expect 0 0 "$AUGUR" sweep --help
contains "$D/out" "{procs}"
[ ! -e runs.csv ] || fail "a bad command line wrote runs.csv"
finish
