# Placement is read back, not assumed: sw_mw's threads report their CPU sets
# through OMP_DISPLAY_AFFINITY. Bound (MPICH -bind-to core, OMP_PROC_BIND
# close on cores): each of the worker's 2 threads is on one core, so it
# counts in exactly one L2, one L3 and one package. Unbound: a thread may
# run anywhere, so on a machine with several L2 caches it is in none.
. "$(dirname "$0")/lib.sh"
cd "$D"
sumcols() { # FILE PREFIX ROW: the sum of the columns PREFIX0, PREFIX1, ...
  awk -F, -v p="$2" -v row="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if (index($i, p) == 1) c[i] = 1 }
    NR == row + 1 { for (i in c) s += $i; print s + 0 }' "$1"
}
expect 0 - "$AUGUR" sweep --threads 2 --workload 200 --iterations 2 --places cores --bind close \
  -o bound.csv -- "$MPIEXEC" -bind-to core -n {procs} "$APP" -W {workload} -i {iterations}
for p in tl2_ tl3_ ts_; do
  [ "$(sumcols bound.csv $p 1)" = 2 ] || fail "bound: $p* sum $(sumcols bound.csv $p 1), want 2: $(cat bound.csv)"
done
for p in pl2_ pl3_ ps_; do
  [ "$(sumcols bound.csv $p 1)" = 1 ] || fail "bound: $p* sum $(sumcols bound.csv $p 1), want 1: $(cat bound.csv)"
done
[ "$(col bound.csv cores_used 1)" = 1 ] || fail "bound: cores_used $(col bound.csv cores_used 1), want 1"
grep -q "augur-affinity" bound.traces/*.log || fail "no affinity lines in the run's log"
expect 0 - "$AUGUR" sweep --threads 2 --workload 200 --iterations 2 -o free.csv -- \
  "$MPIEXEC" -n {procs} "$APP" -W {workload} -i {iterations}
if head -1 free.csv | grep -q ',tl2_1,'; then
  [ "$(sumcols free.csv tl2_ 1)" = 0 ] || fail "unbound threads counted in an L2: $(cat free.csv)"
  [ "$(col free.csv cores_used 1)" -ge 2 ] || fail "unbound: cores_used $(col free.csv cores_used 1)"
fi
finish
