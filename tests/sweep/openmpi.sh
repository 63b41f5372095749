# augur sweep with Open MPI's mpiexec: the recorder of the app's MPI is
# chosen per run, the cycle and the app's own time are found as with MPICH.
. "$(dirname "$0")/lib.sh"
cd "$D"
expect 0 - "$AUGUR" sweep --workers 1,2 --workload 300 --iterations 3 -o runs.csv -- \
  "$MPIEXEC" --oversubscribe -n {procs} "$APP" -W {workload} -i {iterations}
[ "$(wc -l <runs.csv)" -eq 3 ] || fail "want 2 rows: $(cat runs.csv)"
for r in 1 2; do
  [ "$(col runs.csv status $r)" = ok ] || fail "row $r: $(sed -n $((r + 1))p runs.csv); $(cat runs.traces/*.log)"
  [ "$(col runs.csv iterations $r)" = 3 ] || fail "row $r: iterations $(col runs.csv iterations $r)"
  ti=$(col runs.csv t_iter $r) ta=$(col runs.csv t_app $r)
  awk -v a="$ti" -v b="$ta" 'BEGIN { exit !(b > 0 && a / b > 0.7 && a / b < 1.5) }' ||
    fail "row $r: t_iter $ti vs the app's $ta"
done
finish
