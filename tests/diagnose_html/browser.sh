# Renders the diagnosis page (written by the cmocka test's --write mode) in
# headless Chromium: a screenshot that is not blank, and the DOM after load
# has the finding rows, both drawings and the marks.
# Usage: browser.sh WRITER (environment: WORK, NAME, PY, CHECK, CHECK_PNG).
. "$(dirname "$0")/../lib.sh"
WRITER=$1
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || { echo "skipped: no $CHROMIUM"; exit 77; }
# chrome NAME ARGS...: one Chromium run in the background with its own
# profile (the two runs go in parallel: start-up dominates), output in
# $D/NAME.out, status in $D/NAME.rc.
chrome() {
  name=$1
  shift
  (
    timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync \
      --user-data-dir="$D/profile-$name" "$@" >"$D/$name.out" 2>"$D/$name.err"
    echo $? >"$D/$name.rc"
  ) &
}
ok() { [ "$(cat "$D/$1.rc" 2>/dev/null)" = 0 ] || fail "chromium $1: $(tail -3 "$D/$1.err")"; }
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
rm -rf "$D"/profile-*
finish
