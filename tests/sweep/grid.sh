# A 2x2 grid (workers 1,2 x threads 1,2) of sw_mw under MPICH: four rows
# with the documented columns, three iterations each, t_iter from the trace
# near the app's own median, and the derived columns right.
. "$(dirname "$0")/lib.sh"
cd "$D"
expect 0 - "$AUGUR" sweep --workers 1,2 --threads 1-2 --workload 600 --iterations 3 \
  -o runs.csv --json runs.json -- "$MPIEXEC" -n {procs} "$APP" -W {workload} -i {iterations}
[ "$(wc -l <runs.csv)" -eq 5 ] || fail "want a header and 4 rows: $(cat runs.csv)"
head -1 runs.csv | grep -q '^app,workload,workers,threads,procs,places,bind,rep,iterations,t_iter,t_iter_sd,t_app,t_comp_master,t_comp_worker,t_comm,t_wait,w1,w2,local_workload,cores_used,oversubscribed,.*,trace,status$' ||
  fail "header: $(head -1 runs.csv)"
head -1 runs.csv | grep -q ',tl2_0,' || fail "no affinity columns: $(head -1 runs.csv)"
for r in 1 2 3 4; do
  [ "$(col runs.csv status $r)" = ok ] || fail "row $r: status $(col runs.csv status $r): $(cat "$D"/runs.traces/*.log)"
  [ "$(col runs.csv iterations $r)" = 3 ] || fail "row $r: iterations $(col runs.csv iterations $r)"
  [ "$(col runs.csv app $r)" = sw_mw ] || fail "row $r: app $(col runs.csv app $r)"
  wk=$(col runs.csv workers $r) th=$(col runs.csv threads $r)
  awk -v w1="$(col runs.csv w1 $r)" -v w2="$(col runs.csv w2 $r)" -v lw="$(col runs.csv local_workload $r)" \
    -v wk="$wk" -v th="$th" 'BEGIN { e = (w1 - 600 / (wk * th))^2 + (w2 - 360000 / (wk * th))^2 + (lw - 600 / wk)^2; exit e > 1e-6 }' ||
    fail "row $r: w1/w2/local_workload wrong for workers=$wk threads=$th"
  [ "$(col runs.csv procs $r)" = $((wk + 1)) ] || fail "row $r: procs"
  # The trace's iteration (master's send..receive cycle, start to start)
  # includes what the app's own timer (send..last receive) leaves out: the
  # master's buffer fill. Loose: the machine is shared.
  ti=$(col runs.csv t_iter $r) ta=$(col runs.csv t_app $r)
  awk -v a="$ti" -v b="$ta" 'BEGIN { exit !(b > 0 && a / b > 0.7 && a / b < 1.5) }' ||
    fail "row $r: t_iter $ti vs the app's $ta"
  # Computation is a mean per iteration, t_iter a median (hence 2x); on a
  # loaded machine waiting for a CPU inside MPI makes it a small share.
  awk -v c="$(col runs.csv t_comp_worker $r)" -v t="$ti" 'BEGIN { exit !(c > 0.1 * t && c < 2 * t) }' ||
    fail "row $r: worker computation $(col runs.csv t_comp_worker $r) vs t_iter $ti"
  [ -d "$(col runs.csv trace $r)" ] || fail "row $r: no trace $(col runs.csv trace $r)"
done
# The master and one single-threaded worker fit the machine's cores (the
# tests need 2); every other row has more threads than cores.
if [ "$(nproc)" -eq 2 ]; then
  [ "$(col runs.csv oversubscribed 1)" = 0 ] || fail "workers=1 threads=1 oversubscribed: $(sed -n 2p runs.csv)"
  for r in 2 3 4; do
    [ "$(col runs.csv oversubscribed $r)" = 1 ] || fail "row $r not oversubscribed: $(sed -n $((r + 1))p runs.csv)"
  done
  contains "$D/err" "oversubscribed"
  [ "$(grep -c oversubscribed "$D/err")" -eq 1 ] || fail "oversubscription said more than once: $(cat "$D/err")"
fi
contains "$D/err" "oversubscribed"
python3 -c 'import json,sys; d=json.load(open("runs.json")); assert len(d["runs"]) == 4 and d["runs"][0]["iterations"] == 3 and d["runs"][0]["status"] == "ok", d' 2>"$D/py" ||
  fail "runs.json: $(cat "$D/py")"
finish
