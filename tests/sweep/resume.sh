# An interrupted sweep resumes: kill it (SIGTERM) once its first row is
# written, cut its CSV in the middle of a row, rerun with the same -o: the
# finished rows are kept and not rerun, the rest are done, no row twice.
. "$(dirname "$0")/lib.sh"
cd "$D"
sweep() {
  "$AUGUR" sweep --workload 200,300,400,500 --iterations 2 -o runs.csv -- \
    "$MPIEXEC" -n {procs} "$APP" -W {workload} -i {iterations}
}
# augur itself in the background ($! is its pid), not a subshell
"$AUGUR" sweep --workload 200,300,400,500 --iterations 2 -o runs.csv -- \
  "$MPIEXEC" -n {procs} "$APP" -W {workload} -i {iterations} >out1 2>err1 &
pid=$!
i=0
while [ "$(cat runs.csv 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 600 ]; do
  sleep 0.1
  i=$((i + 1))
done
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "killed sweep exited $rc, want 143: $(cat err1)"
contains err1 "interrupted"
n1=$(($(wc -l <runs.csv) - 1))
[ "$n1" -ge 1 ] && [ "$n1" -lt 4 ] || fail "killed sweep wrote $n1 rows, want 1..3: $(cat runs.csv)"
first=$(col runs.csv trace 1)
log1=${first%.augur}.log
sum1=$(cksum <"$log1")
ls -i "$log1" >inode1
printf 'sw_mw,400,1,1,2,none,none,1,2,0.0' >>runs.csv # a row cut short by the kill
sleep 1
expect 0 - sweep
[ "$(wc -l <runs.csv)" -eq 5 ] || fail "resumed sweep: want 4 rows: $(cat runs.csv)"
[ "$(cut -d, -f2 runs.csv | sort | uniq -d)" = "" ] || fail "a workload twice: $(cat runs.csv)"
[ "$(cksum <"$log1")" = "$sum1" ] && ls -i "$log1" | cmp -s - inode1 || fail "the finished run was redone"
contains "$D/err" "already there"
for r in 1 2 3 4; do
  [ "$(col runs.csv status $r)" = ok ] || fail "row $r: $(sed -n $((r + 1))p runs.csv)"
done
# Everything done: a third run runs nothing.
expect 0 1 sweep
contains "$D/err" "0 runs written to runs.csv (4 already there)"
finish
