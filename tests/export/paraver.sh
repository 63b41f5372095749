# augur export --format paraver: .prv header and record layout, record
# counts against `augur dump` (type-3 records = matched messages), .pcf/.row.
. "$(dirname "$0")/lib.sh"
for app in stencil ring; do
  if [ $app = stencil ]; then record $app stencil -n 6; else record $app ring -n 4 -s 256; fi
  expect 0 - "$AUGUR" export "$D/$app.augur" --format paraver -o "$D/$app"
  for ext in prv pcf row; do [ -s "$D/$app.$ext" ] || fail "no $app.$ext"; done
  [ ! -e "$D/$app.prv.tmp" ] || fail "temporary file left behind"
  "$PY" "$HERE/check.py" paraver "$D/$app" "$D/$app.dump" || fail "paraver checks for $app"
done

# A long ring (~400 k events, ~2.2 M records): more than one sorting run, so
# the merge is exercised. Sorted by time, one communication per send.
record long ring -n 100000 -s 8
expect 0 - "$AUGUR" export "$D/long.augur" --format paraver -o "$D/long"
sends=$(grep -c ' MPI_Send ' "$D/long.dump")
records=$(sed -n 's/.*-> \([0-9]*\) paraver records.*/\1/p' "$D/out")
[ "${records:-0}" -gt 1048576 ] || fail "long ring: only ${records:-0} records, want more than 2 runs"
awk -F: -v sends="$sends" -v records="$records" '
  NR > 1 { if ($6 < prev) { print "unsorted at line " NR ": " $0; bad = 1 } prev = $6; n++ }
  $1 == 3 { comm++ }
  END {
    if (comm != sends) { print "communications " comm ", sends " sends; bad = 1 }
    if (n != records) { print "records " n ", reported " records; bad = 1 }
    exit bad
  }' "$D/long.prv" || fail "long ring paraver checks"
finish
