# Issue 22 item 4: a trace whose path is not UTF-8 (Linux allows any byte):
# the JSON outputs keep the path, with U+FFFD for the bad byte, and stay
# valid JSON (jansson refused the string: the key vanished; the Chrome export
# wrote the raw byte: a file no JSON parser reads).
. "$(dirname "$0")/lib.sh"
T="$D/t$(printf 'a\377b').augur"
"$GEN" "$T" || { fail "gen_trace failed"; finish; }
for a in report phases; do
  expect 0 0 "$AUGUR" $a "$T" --json
  python3 - "$D/out" <<'PY' || fail "$a --json lost the trace path (see above)"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d.get("trace", "").endswith("/ta\ufffdb.augur"), d.get("trace")
PY
done
expect 0 - "$AUGUR" export "$T" --format chrome -o "$D/chrome.json"
python3 - "$D/chrome.json" <<'PY' || fail "the Chrome export is not valid UTF-8 JSON (see above)"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["otherData"]["trace"].endswith("/ta\ufffdb.augur"), d["otherData"]["trace"]
PY
finish
