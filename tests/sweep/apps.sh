# The seed's apps (apps/mw_heat.c): a sweep row of mw_heat has the app's
# iterations, t_iter near its own t_iter_median, and the placement the app
# says its threads ran on ("cpus rank R: ..." lines, sched_getcpu), which
# wins over the OpenMP runtime's affinity: unbound threads still ran on one
# CPU each, so each counts in one L2 cache.
. "$(dirname "$0")/lib.sh"
[ -x "$HEAT" ] || { echo "skipped: no $HEAT"; exit 77; }
cd "$D"
expect 0 - "$AUGUR" sweep --threads 2 --workload 128 --iterations 3 -o heat.csv -- \
  "$MPIEXEC" -n {procs} "$HEAT" -W {workload} -i {iterations}
[ "$(col heat.csv status 1)" = ok ] || fail "status: $(cat heat.csv)"
[ "$(col heat.csv iterations 1)" = 3 ] || fail "iterations: $(cat heat.csv)"
ti=$(col heat.csv t_iter 1) ta=$(col heat.csv t_app 1)
awk -v a="$ti" -v b="$ta" 'BEGIN { exit !(b > 0 && a / b > 0.7 && a / b < 1.5) }' ||
  fail "t_iter $ti vs the app's $ta"
grep -q "^cpus rank 1: " heat.traces/*.log || fail "mw_heat printed no cpus line"
# L2 caches when the machine has several (an unbound thread's CPU set spans
# them, so only the app's own CPUs put it in one), else packages.
lv=ts_
head -1 heat.csv | grep -q ',tl2_1,' && lv=tl2_
n=$(awk -F, -v p=$lv 'NR == 1 { for (i = 1; i <= NF; i++) if (index($i, p) == 1) c[i] = 1 }
  NR == 2 { for (i in c) s += $i; print s + 0 }' heat.csv)
[ "$n" = 2 ] || fail "the worker's 2 threads count $n times in $lv*, want 2: $(cat heat.csv)"
finish
