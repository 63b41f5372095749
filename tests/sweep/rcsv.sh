# R reads the data set as is (docs/model.md): read.csv gives the columns
# with numbers as numbers and missing cells as NA. Skipped without Rscript.
. "$(dirname "$0")/lib.sh"
command -v Rscript >/dev/null 2>&1 || { echo "skipped: no Rscript"; exit 77; }
cd "$D"
expect 0 - "$AUGUR" sweep --workers 1 --workload 200,300 --iterations 2 -o runs.csv -- \
  "$MPIEXEC" -n {procs} "$APP" -W {workload} -i {iterations}
Rscript -e 'd <- read.csv("runs.csv"); stopifnot(nrow(d) == 2, is.numeric(d$t_iter), is.numeric(d$w2),
  all(d$iterations == 2), all(d$status == "ok"), all(d$t_iter > 0), is.numeric(d$tl2_0))' >"$D/r" 2>&1 ||
  fail "R: $(cat "$D/r")"
finish
