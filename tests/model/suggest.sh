# augur model suggest (docs/model.md, "Suggested runs"): on data by a known
# law (tests/model/law.awk) with one region of the grid not run (workloads
# 3000 and 4000 with 3 or 4 workers), the first suggestions lie in that
# region; on the full grid they do not. Text and JSON, ready-to-run sweep
# arguments; bad use and data: one line. Environment from CTest: AUGUR, FIX,
# WORK, NAME.
. "$(dirname "$0")/../lib.sh"
LAW="$(dirname "$0")/law.awk"
F='t_iter ~ 1 | workload + workers + threads'
in_gap='$1 >= 2500 && $1 <= 5000 && $2 >= 3'

awk -v NOISE=0.01 -v SKIP='^(3000|4000),(3|4),' -f "$LAW" >"$D/gap.csv"
awk -v NOISE=0.01 -f "$LAW" >"$D/full.csv"
for d in gap full; do
  expect 0 0 "$AUGUR" model fit "$D/$d.csv" --formula "$F" --terms auto -o "$D/$d.json"
  for thr in 1,2,4 ""; do
    expect 0 - "$AUGUR" model suggest "$D/$d.json" --data "$D/$d.csv" --cores 16 --count 3 ${thr:+--threads $thr} --json
    cp "$D/out" "$D/$d$thr.sj"
    # workload, workers of each suggestion
    sed -n 's/^   "\(workload\|workers\)": \([0-9.]*\),*$/\2/p' "$D/out" | paste -d' ' - - >"$D/$d$thr.sugg"
    [ "$(wc -l <"$D/$d$thr.sugg")" -eq 3 ] || fail "$d $thr: not 3 suggestions: $(cat "$D/out")"
    n=$(awk "$in_gap" "$D/$d$thr.sugg" | wc -l)
    if [ $d = gap ]; then
      [ "$n" -eq 3 ] || fail "gap, threads '$thr': suggestions outside the missing region: $(cat "$D/$d$thr.sugg")"
    else
      [ "$n" -eq 0 ] || fail "full grid, threads '$thr': suggestions in the region, which was run: $(cat "$D/$d$thr.sugg")"
    fi
  done
done
contains "$D/gap1,2,4.sj" '"sweep_args": "--workers 4 --threads 4 --workload 3500 --places none --bind none"'
# text: the table with the sweep arguments
expect 0 0 "$AUGUR" model suggest "$D/gap.json" --data "$D/gap.csv" --cores 16 --count 2 --threads 1,2,4
contains "$D/out" "runs to add where the model is least sure: 2 of"
contains "$D/out" "augur sweep arguments"
contains "$D/out" "  --workers 4 --threads 4 --workload 3500"
# a hand-written formula works as well
expect 0 0 "$AUGUR" model fit "$D/gap.csv" --formula 't_iter ~ workload + workers | workload + workers + threads' -o "$D/proto.json"
expect 0 - "$AUGUR" model suggest "$D/proto.json" --data "$D/gap.csv" --cores 16 --count 1 --threads 1,2,4
# bad use and data: one line
expect 2 - "$AUGUR" model suggest "$D/gap.json" --cores 16
contains "$D/err" "missing --data DATA"
cut -d, -f2- "$D/gap.csv" >"$D/nowl.csv"
expect 1 1 "$AUGUR" model suggest "$D/gap.json" --data "$D/nowl.csv" --cores 16
head -40 "$D/gap.csv" >"$D/part.csv"
expect 1 1 "$AUGUR" model suggest "$D/gap.json" --data "$D/part.csv" --cores 16
contains "$D/err" "not the model's training data"
expect 2 - "$AUGUR" model suggest "$D/gap.json" --data "$D/gap.csv" --count 0
finish
