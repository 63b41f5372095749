# Runs test_report_api (cmocka) on a fresh known trace and a damaged copy.
. "$(dirname "$0")/lib.sh"
"$GEN" "$D/known.augur" || { fail "gen_trace failed"; finish; }
cp -r "$D/known.augur" "$D/damaged.augur"
F=rank-00001.evt
size=$(wc -c <"$D/known.augur/$F")
head -c $((size - 7)) "$D/known.augur/$F" >"$D/damaged.augur/$F"
"$API" "$D/known.augur" "$D/damaged.augur" || fail "test_report_api failed"
finish
