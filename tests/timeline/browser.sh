# Renders the HTML page and the SVG in headless Chromium: screenshot of the
# requested size that is not blank, and the DOM after load has the rows.
. "$(dirname "$0")/lib.sh"
need_trace
need_chromium
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
