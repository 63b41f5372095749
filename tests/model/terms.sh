# augur model fit --terms auto (docs/model.md, "Leaf terms chosen
# automatically"): data made by a known law (tests/model/law.awk, a fixed
# pseudo-random noise) gets that law's terms; the chosen formula is in the
# model file and show, predict, best work on it; a bench/model sweep
# (fixtures/terms_nbody.csv: mw_nbody's training sweep of bench/model/run.sh
# on the 2-core VM, 40 runs, workloads 700..3000, workers and threads 1..2)
# gets a W^2 term, as n-body's O(W^2) work says; bad data: one line.
# Environment from CTest: AUGUR, FIX, WORK, NAME.
. "$(dirname "$0")/../lib.sh"
LAW="$(dirname "$0")/law.awk"
F='t_iter ~ 1 | workload + workers + threads'

# 1. t = 2e-3 + 5e-9 W^2 / (workers threads), 1 % noise: w2 alone, also
#    when more terms are allowed and when the noise is 3 %, and without noise
#    (where extra terms only fit the CSV's rounding).
for case in "0.01 3" "0.01 4" "0.03 3" "0 3"; do
  set -- $case
  awk -v NOISE="$1" -f "$LAW" >"$D/law.csv"
  expect 0 0 "$AUGUR" model fit "$D/law.csv" --formula "$F" --terms auto --max-terms "$2" -o "$D/law.json"
  contains "$D/out" "formula: t_iter ~ w2 | workload + workers + threads"
done
contains "$D/law.json" '"formula": "t_iter ~ w2 | workload + workers + threads"'
# 2. a second term, W log2 W (2e-7 s per W log2 W): both found.
awk -v NOISE=0.01 -v C=2e-7 -f "$LAW" >"$D/law2.csv"
expect 0 0 "$AUGUR" model fit "$D/law2.csv" --formula "$F" --terms auto -o "$D/law2.json"
contains "$D/out" "formula: t_iter ~ W1_log2W + w2 | workload + workers + threads"
# 2b. the master's serial cost per worker (+ 2e-3 s per worker: the family's
#    Wk, named workers as in the data set), work shared by the workers but not
#    by their threads (+ 2e-9 W^2 / workers: W2_perWk), and both: found (the
#    family without these terms chose perWT + w2, W2 + w2 and
#    W1.5_log2W + W2_log2W_perWT).
for law in "D=2e-3:w2 + workers" "E=2e-9:w2 + W2_perWk" "D=2e-3 E=2e-9:w2 + W2_perWk + workers"; do
  set -- $(echo "${law%%:*}" | sed 's/\([DE]\)=/-v \1=/g')
  awk -v NOISE=0.01 "$@" -f "$LAW" >"$D/law3.csv"
  expect 0 0 "$AUGUR" model fit "$D/law3.csv" --formula "$F" --terms auto -o "$D/law3.json"
  contains "$D/out" "formula: t_iter ~ ${law#*:} | workload + workers + threads"
done
# predict computes W2_perWk from workload and workers; workers is given.
# the law: 2e-3 + 5e-9 * 5000^2 / 4 + 2e-3 * 2 + 2e-9 * 5000^2 / 2 = 0.06225
expect 0 0 "$AUGUR" model predict "$D/law3.json" --at 'workload=5000,workers=2,threads=2' --json
awk '{ match($0, /"prediction": [^,}]*/); p = substr($0, RSTART + 14, RLENGTH - 14) + 0
       exit !(p > 0.06225 * 0.98 && p < 0.06225 * 1.02) }' "$D/out" ||
  fail "predict at W=5000, 2x2: $(cat "$D/out"), the law says 0.06225"
# show, predict (the terms computed from workload, workers, threads), best
expect 0 0 "$AUGUR" model show "$D/law2.json"
contains "$D/out" "t_iter ~ W1_log2W + w2 | workload + workers + threads"
expect 0 0 "$AUGUR" model predict "$D/law2.json" --at 'workload=5000,workers=2,threads=2' --json
# the law: 2e-3 + 5e-9 * 5000^2 / 4 + 2e-7 * 5000 * log2(5000) = 0.045532
awk '{ match($0, /"prediction": [^,}]*/); p = substr($0, RSTART + 14, RLENGTH - 14) + 0
       exit !(p > 0.045532 * 0.98 && p < 0.045532 * 1.02) }' "$D/out" ||
  fail "predict at W=5000, 2x2: $(cat "$D/out"), the law says 0.045532"
# a model that reads neither workers nor threads: predict takes them for its terms
expect 0 0 "$AUGUR" model fit "$D/law2.csv" --formula 't_iter ~ 1 | workload' --terms auto -o "$D/law2w.json"
expect 0 0 "$AUGUR" model predict "$D/law2w.json" --at 'workload=5000,workers=2,threads=2'
expect 1 1 "$AUGUR" model predict "$D/law2w.json" --at 'workload=5000,workers=2'
contains "$D/err" "no value for 'W1_log2W' (the model uses it; pass it with --at, or workload, workers and threads to compute it)"
expect 1 1 "$AUGUR" model predict "$D/law2w.json" --at 'workload=5000,workers=2,threads=2,workers=3'
contains "$D/err" "'workers' given twice"
expect 0 0 "$AUGUR" model best "$D/law2.json" --workload 5000 --data "$D/law2.csv" --cores 16 --json
contains "$D/out" '"workers": 4,'
contains "$D/out" '"threads": 4,'
# 3. bench/model's nbody sweep: a W^2 term (w2, W2, W2_log2W...), and best works.
expect 0 0 "$AUGUR" model fit "$FIX/terms_nbody.csv" --formula "$F" --terms auto --minsize 25 -o "$D/nb.json"
grep -q '^formula: t_iter ~ .*[wW]2' "$D/out" || fail "nbody: no W^2 term: $(grep '^formula' "$D/out")"
expect 0 0 "$AUGUR" model best "$D/nb.json" --workload 2000 --data "$FIX/terms_nbody.csv" --cores 2
contains "$D/out" "best: "

# 4. bad data and use: one line
awk -v NOISE=0.01 -v WL=4000 -f "$LAW" >"$D/onew.csv"
expect 1 1 "$AUGUR" model fit "$D/onew.csv" --formula "$F" --terms auto
contains "$D/err" "workload is 4000 in every usable row"
head -3 "$D/law.csv" >"$D/few.csv"
expect 1 1 "$AUGUR" model fit "$D/few.csv" --formula "$F" --terms auto
contains "$D/err" "2 usable rows: too few to choose terms"
awk -F, -v OFS=, 'NR > 1 { $7 = 0.5 } 1' "$D/law.csv" >"$D/flat.csv"
expect 1 1 "$AUGUR" model fit "$D/flat.csv" --formula "$F" --terms auto
contains "$D/err" "t_iter is 0.5 in every usable row: nothing to model"
cut -d, -f1,3- "$D/law.csv" >"$D/noworkers.csv"
expect 1 1 "$AUGUR" model fit "$D/noworkers.csv" --formula 't_iter ~ 1 | workload + threads' --terms auto
contains "$D/err" "no column 'workers' in the data"
awk -F, -v OFS=, 'NR == 5 { $1 = 0 } 1' "$D/law.csv" >"$D/zero.csv"
expect 1 1 "$AUGUR" model fit "$D/zero.csv" --formula "$F" --terms auto
contains "$D/err" "row 4: workload 0"
awk -v NOISE=0.01 -v C=0 -f "$LAW" | awk -F, -v OFS=, 'NR == 1 { print $0 ",w2"; next } { print $0 ",7" }' >"$D/badw2.csv"
expect 1 1 "$AUGUR" model fit "$D/badw2.csv" --formula "$F" --terms auto
contains "$D/err" "column 'w2' is 7, not the term's"
expect 1 1 "$AUGUR" model fit "$D/law.csv" --formula 't_iter ~ workers | workload' --terms auto
contains "$D/err" "--terms auto chooses the regressors"
# workloads whose W^2 overflows: those terms are not estimable, the rest are tried
printf 'workload,workers,threads,t_iter\n1e300,1,1,1\n2e300,1,1,2\n3e300,1,1,3\n1,1,1,1\n' >"$D/huge.csv"
expect 0 0 "$AUGUR" model fit "$D/huge.csv" --formula 't_iter ~ 1 | workload' --terms auto
expect 2 - "$AUGUR" model fit "$D/law.csv" --formula "$F" --terms auto --max-terms 9
expect 2 - "$AUGUR" model fit "$D/law.csv" --formula "$F" --terms manual
finish
