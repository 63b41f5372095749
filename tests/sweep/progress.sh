# On a terminal (script(1) gives one) the sweep shows "[k/N] workers=...
# threads=... workload=... t_iter=..." after each run; without one, nothing
# but the final line.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null 2>&1 || { echo "skipped: no script(1)"; exit 77; }
cd "$D"
script -qec "'$AUGUR' sweep --workload 200,300 --iterations 2 -o tty.csv -- '$MPIEXEC' -n {procs} '$APP' -W {workload} -i {iterations}" /dev/null >tty.out 2>&1
contains tty.out "[1/2] workers=1 threads=1 workload=200 running"
contains tty.out "[2/2] workers=1 threads=1 workload=300 t_iter=0."
expect 0 - "$AUGUR" sweep --workload 200 --iterations 2 -o plain.csv -- \
  "$MPIEXEC" -n {procs} "$APP" -W {workload} -i {iterations}
contains "$D/err" "1 run written to plain.csv"
grep -q '\[1/1\]' "$D/err" && fail "progress without a terminal: $(cat "$D/err")"
finish
