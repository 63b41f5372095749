# augur export --format chrome: trace-event fields, a track per rank, one
# slice per MPI call, one flow per matched message (checked against `augur
# dump`), and the file parses in headless Chromium's JSON parser.
. "$(dirname "$0")/lib.sh"
for app in stencil ring; do
  if [ $app = stencil ]; then record $app stencil -n 6; else record $app ring -n 4 -s 256; fi
  expect 0 - "$AUGUR" export "$D/$app.augur" --format chrome -o "$D/$app.json"
  contains "$D/out" "chrome records"
  "$PY" "$HERE/check.py" chrome "$D/$app.json" "$D/$app.dump" || fail "chrome checks for $app"
done

# Chromium: the JSON embedded in a page, parsed by the browser, the event
# count written into the DOM and read back with --dump-dom.
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then
  want=$("$PY" -c "import json,sys; print(len(json.load(open(sys.argv[1]))['traceEvents']))" "$D/stencil.json")
  {
    printf '<!DOCTYPE html><html><body><script type="application/json" id="trace">'
    cat "$D/stencil.json"
    printf '</script><script>\n'
    printf 'var n = -1; try { n = JSON.parse(document.getElementById("trace").textContent).traceEvents.length; } catch (e) { n = "error " + e; }\n'
    printf 'var p = document.createElement("p"); p.id = "count"; p.textContent = "events=" + n; document.body.appendChild(p);\n'
    printf '</script></body></html>\n'
  } >"$D/page.html"
  prof=$(mktemp -d)
  timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$prof" --dump-dom "file://$D/page.html" >"$D/dom.html" 2>"$D/chromium.err"
  rm -rf "$prof"
  grep -q "events=$want<" "$D/dom.html" || fail "Chromium did not parse the JSON (want events=$want): $(grep -o 'events=[^<]*' "$D/dom.html") $(tail -3 "$D/chromium.err")"
else
  echo "note: $CHROMIUM not installed, browser parse skipped"
fi
finish
