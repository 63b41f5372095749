# Renders the HTML page and the SVG in headless Chromium: screenshot of the
# requested size that is not blank, and the DOM after load has the rows.
. "$(dirname "$0")/lib.sh"
need_trace
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || { echo "skipped: no $CHROMIUM"; exit 77; }
# chrome NAME ARGS...: one Chromium run in the background with its own
# profile (the three runs go in parallel: start-up dominates), output in
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
expect 0 0 "$AUGUR" timeline "$TRACE" -o "$D/t.html" --width 1000
expect 0 0 "$AUGUR" timeline "$TRACE" -o "$D/t.svg" --width 1000 --ranks 1-3
chrome html --screenshot="$D/html.png" --window-size=1200,700 "file://$D/t.html"
chrome svg --screenshot="$D/svg.png" --window-size=1200,400 "file://$D/t.svg"
chrome dom --dump-dom "file://$D/t.html"
wait
ok html && { "$PY" "$CHECK" png "$D/html.png" 1200 700 8 || fail "HTML screenshot"; }
ok svg && { "$PY" "$CHECK" png "$D/svg.png" 1200 400 8 || fail "SVG screenshot"; }
ok dom && { "$PY" "$CHECK" dom "$D/dom.out" --ranks 0-3 || fail "DOM of the HTML page"; }
rm -rf "$D"/profile-*
finish
