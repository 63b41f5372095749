# Renders the diagnosis page (written by the cmocka test's --write mode) in
# headless Chromium: a screenshot that is not blank, and the DOM after load
# has the finding rows, both drawings, the marks and the table of figures.
# Usage: browser.sh WRITER (environment: WORK, NAME, PY, CHECK, CHECK_PNG).
. "$(dirname "$0")/../lib.sh"
WRITER=$1
need_chromium
# the writer builds its small trace under TMPDIR
TMPDIR=$D
export TMPDIR
expect 0 0 "$WRITER" --write "$D/page.html"
[ -s "$D/page.html" ] || { fail "no page written"; finish; }
"$PY" "$CHECK" page "$D/page.html" 3 || fail "the page as written"
chrome shot --screenshot="$D/page.png" --window-size=1600,1000 "file://$D/page.html"
chrome dom --dump-dom "file://$D/page.html"
wait
ok shot && { "$PY" "$CHECK_PNG" png "$D/page.png" 1600 1000 8 || fail "screenshot"; }
ok dom && { "$PY" "$CHECK" page "$D/dom.out" 3 || fail "DOM of the page"; }
# the table of figures, as the browser reads it (the writer's hand-filled one)
ok dom && { "$PY" "$CHECK" figures "$D/dom.out" efficiencies parallel=0.5 load_balance=2/3 \
  communication=0.75 serialisation=unknown transfer=unknown || fail "figures in the DOM"; }
ok dom && { "$PY" "$CHECK" warnings "$D/dom.out" 1 "oversubscribed: 3 ranks on 1 CPU (host <h&1>)" ||
  fail "warnings in the DOM"; }
rm -rf "$D"/profile-*
finish
