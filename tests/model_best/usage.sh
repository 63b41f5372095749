# `augur model best` / `augur model weights` command-line errors: one line on
# stderr and exit 2 (a wrong command line) or 1 (bad input), never a crash.
. "$(dirname "$0")/../lib.sh"
S="$(dirname "$0")/synth.py"
"$PY" "$S" data "$D/runs.csv" || fail "synth.py failed"
expect 0 - "$AUGUR" model fit "$D/runs.csv" -o "$D/m.json" \
  --formula 't_iter ~ w1 + workers + threads | workload + workers + threads'
M="$D/m.json"
expect 2 1 "$AUGUR" model best
expect 2 1 "$AUGUR" model best "$M"
contains "$D/err" "missing --workload"
expect 2 1 "$AUGUR" model best "$M" --workload 0
expect 2 1 "$AUGUR" model best "$M" --workload -5
expect 2 1 "$AUGUR" model best "$M" --workload lots
expect 2 1 "$AUGUR" model best "$M" --workload nan
expect 2 1 "$AUGUR" model best "$M" --workload 3000 --cores 0
expect 2 1 "$AUGUR" model best "$M" --workload 3000 --max-workers 0
expect 2 1 "$AUGUR" model best "$M" --workload 3000 --threads 1,0
expect 2 1 "$AUGUR" model best "$M" --workload 3000 --threads 1,,2
expect 2 1 "$AUGUR" model best "$M" --workload 3000 --objective speed
contains "$D/err" "expected time or eindex"
expect 2 1 "$AUGUR" model best "$M" --workload 3000 --objective eindex
contains "$D/err" "--tc-model"
expect 2 1 "$AUGUR" model best "$M" --workload 3000 --level 1
# Too many configurations: refused at once, not enumerated for minutes.
expect 1 1 "$AUGUR" model best "$M" --workload 3000 --cores 1000000
contains "$D/err" "configurations to evaluate"
expect 2 1 "$AUGUR" model best "$M" "$M" --workload 3000
expect 1 1 "$AUGUR" model best "$D/missing.json" --workload 3000
expect 1 1 "$AUGUR" model best "$D/runs.csv" --workload 3000
expect 1 1 "$AUGUR" model best "$M" --workload 3000 --objective eindex --tc-model "$D/missing.json"
expect 1 1 "$AUGUR" model best "$M" --workload 3000 --data "$D/missing.csv"
# Data that is not the model's training data.
head -40 "$D/runs.csv" >"$D/part.csv"
expect 1 1 "$AUGUR" model best "$M" --workload 3000 --data "$D/part.csv"
contains "$D/err" "not the model's training data"
# A model that reads a column best cannot choose (measured per run).
expect 0 - "$AUGUR" model fit "$D/runs.csv" -o "$D/comm.json" \
  --formula 't_iter ~ w1 + t_comp_worker | workload + workers'
expect 1 1 "$AUGUR" model best "$D/comm.json" --workload 3000 --data "$D/runs.csv"
contains "$D/err" "measured per run"
expect 0 0 "$AUGUR" model best --help
contains "$D/out" "--objective"

expect 2 1 "$AUGUR" model weights
expect 2 1 "$AUGUR" model weights "$D/runs.csv" -o "$D/w.csv"
expect 2 1 "$AUGUR" model weights "$D/runs.csv" --scheme magic -o "$D/w.csv"
expect 2 1 "$AUGUR" model weights "$D/runs.csv" --scheme seed
expect 1 1 "$AUGUR" model weights "$D/runs.csv" --scheme seed -o "$D/w.csv" --response app
expect 1 1 "$AUGUR" model weights "$D/runs.csv" --scheme seed -o "$D/w.csv" --name workers
printf 'workload,workers,threads,t_iter\n1000,1,1,0.5\n1000,1,1,0\n' >"$D/zero.csv"
expect 1 1 "$AUGUR" model weights "$D/zero.csv" --scheme seed -o "$D/w.csv"
contains "$D/err" "row 2"
# relative weights (1 / T_iter^2): a time <= 0 or one whose square underflows, one line
expect 1 1 "$AUGUR" model weights "$D/zero.csv" --scheme relative -o "$D/w.csv"
contains "$D/err" "row 2: relative weights need a time > 0, got 0"
expect 1 1 "$AUGUR" model fit "$D/zero.csv" --formula 't_iter ~ workers | threads' --weights relative
contains "$D/err" "row 2: relative weights need a time > 0"
printf 'workload,workers,threads,t_iter\n1000,1,1,0.5\n1000,1,1,1e-200\n' >"$D/tiny.csv"
expect 1 1 "$AUGUR" model weights "$D/tiny.csv" --scheme relative -o "$D/w.csv"
contains "$D/err" "a time too close to 0"
printf 'workload,workers,threads,t_iter\n1000,1,1,0.5\n2000,1,1,\n' >"$D/gap.csv"
expect 0 0 "$AUGUR" model weights "$D/gap.csv" --scheme relative -o "$D/w.csv"
contains "$D/out" "1 rows weighted (relative), weights 1..1, 1 rows without t_iter left unweighted"
# One run per configuration and no t_iter_sd: variance weights cannot be had.
printf 'workload,workers,threads,t_iter\n1000,1,1,0.5\n1000,2,1,0.3\n' >"$D/once.csv"
expect 1 1 "$AUGUR" model weights "$D/once.csv" --scheme variance -o "$D/w.csv"
contains "$D/err" "repetitions or t_iter_sd"
# ... nor through fit --weights variance.
expect 1 1 "$AUGUR" model fit "$D/once.csv" --formula 't_iter ~ workers | threads' \
  --weights variance
contains "$D/err" "repetitions or t_iter_sd"
finish
