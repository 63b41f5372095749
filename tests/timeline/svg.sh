# SVG and HTML of the recorded stencil: structure, rows, legend, axis, and
# arrows = matched messages of the window (counted from `augur dump`).
. "$(dirname "$0")/lib.sh"
need_trace
DUMP="$WORK/stencil.dump"

# Whole run, all ranks.
expect 0 0 "$AUGUR" timeline "$TRACE" -o "$D/all.svg"
"$PY" "$CHECK" svg "$D/all.svg" --ranks 0-3 --dump "$DUMP" --from 0 --to 1e12 --min-arrows 1 ||
  fail "whole-run SVG"
[ -s "$D/out" ] && fail "timeline printed on stdout: $(cat "$D/out")"

# HTML of the same.
expect 0 0 "$AUGUR" timeline "$TRACE" -o "$D/all.html"
"$PY" "$CHECK" html "$D/all.html" --ranks 0-3 || fail "whole-run HTML"

# A window around the middle of the iterations (found from the dump: the
# first and last Allreduce), ranks 0-1 only (neighbours in the 2x2 grid).
set -- $(awk '/MPI_Allreduce/ { if (!f) f = $1; l = $1 } END { print f, l }' "$DUMP")
[ $# -eq 2 ] || fail "no Allreduce in the dump"
from=$(awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (a + (b - a) * 0.3) * 1e9 }')
to=$(awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (a + (b - a) * 0.7) * 1e9 }')
expect 0 0 "$AUGUR" timeline "$TRACE" -o "$D/win.svg" --from "${from}ns" --to "$((to / 1000))us" \
  --ranks 0-1 --width 800
to=$(( (to / 1000) * 1000 ))
"$PY" "$CHECK" svg "$D/win.svg" --ranks 0-1 --dump "$DUMP" --from "$from" --to "$to" ||
  fail "window SVG"
n_all=$(grep -c 'class="msg"' "$D/all.svg")
n_win=$(grep -c 'class="msg"' "$D/win.svg")
[ "$n_win" -lt "$n_all" ] || fail "window drew $n_win arrows, the whole run $n_all"
grep -q "<clipPath id=\"plot-clip\"><rect [^>]*width=\"800.0\"" "$D/win.svg" || fail "--width 800 did not give an 800 px plot"

# One rank only: no arrows (a message needs both ends in range).
expect 0 0 "$AUGUR" timeline "$TRACE" -o "$D/r2.svg" --ranks 2
"$PY" "$CHECK" svg "$D/r2.svg" --ranks 2-2 --dump "$DUMP" --from 0 --to 1e12 || fail "rank 2 SVG"

# Message cap: a sample, and the legend says so.
expect 0 0 "$AUGUR" timeline "$TRACE" -o "$D/cap.svg" --max-messages 10
n=$(grep -c 'class="msg"' "$D/cap.svg")
[ "$n" -le 10 ] && [ "$n" -ge 5 ] || fail "--max-messages 10 drew $n arrows"
grep -q "sampled, $n of $n_all matched messages" "$D/cap.svg" || fail "legend does not say it sampled"

# Same input, same output.
"$AUGUR" timeline "$TRACE" -o "$D/again.svg" && cmp -s "$D/all.svg" "$D/again.svg" ||
  fail "two runs gave different SVG"
finish
