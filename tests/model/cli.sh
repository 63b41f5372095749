# augur model fit -> show -> predict on the R fixtures, and bad data: each
# bad case gives one clear line on stderr and exit 1 (bad usage: 2), never a
# crash. Environment from CTest: AUGUR, FIX (fixtures), WORK, NAME.
. "$(dirname "$0")/../lib.sh"

# 1. fit, show and predict agree with R (fixtures/*.print, *.expect)
for c in cars mtcars iris synth synth_weights synth_fracweights prune_aic singular_leaf; do
  f=$(sed -n 's/^formula //p' "$FIX/$c.expect")
  opts=$(awk '$1 == "option" { v = $3; if ($2 == "prune") v = tolower(v); printf "--%s %s ", $2, v }' "$FIX/$c.expect")
  expect 0 0 "$AUGUR" model fit "$FIX/$c.csv" --formula "$f" $opts -o "$D/$c.json"
  [ -s "$D/$c.json" ] || fail "$c: no model file"
  expect 0 0 "$AUGUR" model show "$D/$c.json"
  sed 's/ *$//' "$D/out" | grep -v '^(.* rows with a missing value dropped)$' >"$D/$c.show"
  diff "$D/$c.show" "$FIX/$c.print" >"$D/$c.diff" || fail "$c: show differs from R's print: $(head -20 "$D/$c.diff")"
  # every pred line of the fixture, through the CLI on the saved model
  grep '^pred ' "$FIX/$c.expect" | while read -r _ row node value; do
    at=$(awk -F, -v r="$row" -v vars="$(sed -n 's/^formula //p' "$FIX/$c.expect" | tr -c 'A-Za-z0-9_.\n' ' ')" '
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; n = split(vars, v, " "); next }
      NR == r + 1 { s = ""; for (i = 2; i <= n; i++) if (v[i] in col && !(v[i] in done)) { done[v[i]] = 1; s = s (s ? "," : "") v[i] "=" $(col[v[i]]) } print s }' "$FIX/$c.csv")
    "$AUGUR" model predict "$D/$c.json" --at "$at" --json >"$D/pred" 2>"$D/err" || { echo "FAIL: $c predict --at $at: $(cat "$D/err")" >&2; exit 1; }
    awk -v n="$node" -v v="$value" '{
      match($0, /"prediction": [^,}]*/); p = substr($0, RSTART + 14, RLENGTH - 14) + 0
      match($0, /"node": [0-9]+/); k = substr($0, RSTART + 8, RLENGTH - 8) + 0
      d = p - v; if (d < 0) d = -d; a = v < 0 ? -v : v
      exit !(k == n && d <= 1e-6 * a + 1e-9) }' "$D/pred" || { echo "FAIL: $c row $row: $(cat "$D/pred"), R node $node value $value" >&2; exit 1; }
  done || fail "$c: predictions differ from R"
done
# --json of fit is the model file's content
expect 0 0 "$AUGUR" model fit "$FIX/cars.csv" --formula 'dist ~ speed | speed' --minsize 10 --json
contains "$D/out" '"augur_model": 1'
# the dropped rows are said (stderr note, show's last line, JSON rows.dropped)
expect 0 1 "$AUGUR" model fit "$FIX/airquality.csv" --formula 'Ozone ~ Temp | Wind + Solar.R + Month + Day' -o "$D/aq.json"
contains "$D/err" "42 of 153 rows dropped"
contains "$D/out" "(42 rows with a missing value dropped)"
contains "$D/aq.json" '"dropped": 42'

# 2. bad data and bad use: one line, nonzero exit, no crash
printf 'y,x,z\n1,2,3\n4,5\n' >"$D/ragged.csv"
expect 1 1 "$AUGUR" model fit "$D/ragged.csv" --formula 'y ~ x | z'
contains "$D/err" "ragged.csv:3: 2 cells, the header has 3"
printf 'y,x,z\n1,2,3\n4,NaN,6\n' >"$D/nan.csv"
expect 1 1 "$AUGUR" model fit "$D/nan.csv" --formula 'y ~ x | z'
contains "$D/err" "nan.csv:3: column 'x': 'NaN' is not a finite number"
printf 'y,x,z\n1,2,a\n2,3,\377\n' >"$D/utf8.csv"
expect 1 1 "$AUGUR" model fit "$D/utf8.csv" --formula 'y ~ x | z'
contains "$D/err" "utf8.csv:3: column 'z': a cell is not UTF-8 text"
printf 'y,x,y\n1,2,3\n' >"$D/dup.csv"
expect 1 1 "$AUGUR" model fit "$D/dup.csv" --formula 'y ~ x | y'
contains "$D/err" "column name 'y' given twice"
printf 'y,x,z\n' >"$D/norows.csv"
expect 1 1 "$AUGUR" model fit "$D/norows.csv" --formula 'y ~ x | z'
contains "$D/err" "no data rows"
expect 1 1 "$AUGUR" model fit "$FIX/cars.csv" --formula 'dist ~ speed | nosuch'
contains "$D/err" "no column 'nosuch' in the data"
expect 1 1 "$AUGUR" model fit "$FIX/cars.csv" --formula 'dist ~ speed'
contains "$D/err" "no '|'"
# too few rows for the coefficients
printf 'y,x1,x2,z\n1,2,3,1\n2,3,5,2\n' >"$D/few.csv"
expect 1 1 "$AUGUR" model fit "$D/few.csv" --formula 'y ~ x1 + x2 | z'
contains "$D/err" "2 rows for 3 coefficients"
# a constant partitioning variable: not testable, the root is the tree
awk -F, 'BEGIN { OFS = "," } NR == 1 { print $0, "k"; next } { print $0, 7 }' "$FIX/cars.csv" >"$D/const.csv"
expect 0 0 "$AUGUR" model fit "$D/const.csv" --formula 'dist ~ speed | k' --json
contains "$D/out" '"p_value": null'
# a singular (aliased) regressor: NA coefficient kept, as R
awk -F, 'BEGIN { OFS = "," } NR == 1 { print $0, "s2"; next } { print $0, 2 * $1 }' "$FIX/cars.csv" >"$D/alias.csv"
expect 0 0 "$AUGUR" model fit "$D/alias.csv" --formula 'dist ~ speed + s2 | speed' --minsize 10
contains "$D/out" "NA"
# a response column every value of which is missing
awk -F, 'BEGIN { OFS = "," } NR == 1 { print $0; next } { $1 = ""; print }' "$FIX/cars.csv" >"$D/allna.csv"
expect 1 1 "$AUGUR" model fit "$D/allna.csv" --formula 'dist ~ speed | speed'
contains "$D/err" "no rows left (50 dropped for a missing value)"
# a factor with too many levels for the exhaustive split search (17)
awk -F, 'BEGIN { OFS = "," } NR == 1 { print $0, "f"; next } { print $0, "L" (NR % 17) }' "$FIX/cars.csv" >"$D/levels.csv"
expect 1 1 "$AUGUR" model fit "$D/levels.csv" --formula 'dist ~ speed | f'
contains "$D/err" "factor 'f' has 17 levels"
# too few rows to test anything: said
head -15 "$FIX/cars.csv" >"$D/small.csv"
expect 0 0 "$AUGUR" model fit "$D/small.csv" --formula 'dist ~ speed | speed'
contains "$D/out" "(no instability tests: the data weigh 14, fewer than 2 x minsize = 2 x 20"
# a negative weight
awk -F, 'BEGIN { OFS = "," } NR == 1 { print $0, "w"; next } { print $0, (NR == 5 ? -1 : 1) }' "$FIX/cars.csv" >"$D/negw.csv"
expect 1 1 "$AUGUR" model fit "$D/negw.csv" --formula 'dist ~ speed | speed' --weights w
contains "$D/err" "negative"
# predict: blanks around names and values are allowed
expect 0 0 "$AUGUR" model predict "$D/synth.json" --at 'x = 0.5, z1 = 0.2, z2 = 1, g = a'
contains "$D/out" "(node 6)"
# predict: a variable missing, unknown, not a number; damaged model files
expect 1 1 "$AUGUR" model predict "$D/synth.json" --at 'x=0.5,z1=0.2'
contains "$D/err" "no value for 'z2'"
expect 1 1 "$AUGUR" model predict "$D/synth.json" --at 'x=0.5,z1=0.2,z2=1,g=q'
contains "$D/err" "'q' is not a level of 'g'"
expect 1 1 "$AUGUR" model predict "$D/synth.json" --at 'x=abc,z1=0.2,z2=1,g=a'
contains "$D/err" "'x=abc' is not a finite number"
expect 1 1 "$AUGUR" model predict "$D/synth.json" --at 'x=1,z1=0.2,z2=1,g=a,zz=3'
contains "$D/err" "no variable 'zz'"
head -c 300 "$D/synth.json" >"$D/trunc.json"
expect 1 1 "$AUGUR" model show "$D/trunc.json"
contains "$D/err" "trunc.json"
sed 's/"augur_model": 1/"augur_model": 99/' "$D/synth.json" >"$D/v99.json"
expect 1 1 "$AUGUR" model show "$D/v99.json"
contains "$D/err" "model file version 99"
sed '0,/"left": 2/s//"left": 1/' "$D/synth.json" >"$D/cycle.json"
expect 1 1 "$AUGUR" model show "$D/cycle.json"
contains "$D/err" "children"
expect 1 1 "$AUGUR" model show "$D/nosuch.json"
expect 2 1 "$AUGUR" model fit "$FIX/cars.csv"
contains "$D/err" "missing --formula"
expect 2 1 "$AUGUR" model frobnicate
finish
