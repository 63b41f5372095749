# Shared by the shell tests under tests/*/ (each folder's lib.sh sources this
# first). Environment from CTest: WORK (scratch root), NAME (test name).
# Gives: $D (a fresh scratch folder for this test), fail, finish, expect, contains.
set -u
D="$WORK/$NAME"
rm -rf "$D"
mkdir -p "$D"
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$NAME: $failures failure(s)" >&2
    exit 1
  fi
  echo "$NAME: ok"
  exit 0
}

# expect CODE LINES CMD...: runs CMD with stdout/stderr in $D/out, $D/err and
# checks the exit status, that it did not crash (status < 128), and (if LINES
# is not '-') that stderr has exactly LINES lines.
expect() {
  want=$1
  lines=$2
  shift 2
  "$@" >"$D/out" 2>"$D/err"
  got=$?
  if [ "$got" -ne "$want" ]; then
    fail "'$*' exited $got, want $want; stderr: $(cat "$D/err")"
  fi
  if [ "$lines" != "-" ]; then
    n=$(wc -l <"$D/err")
    if [ "$n" -ne "$lines" ]; then fail "'$*' wrote $n stderr lines, want $lines: $(cat "$D/err")"; fi
  fi
  return 0
}

# contains FILE TEXT
contains() {
  grep -F -q -- "$2" "$1" || fail "$1 does not contain '$2': $(head -c 2000 "$1")"
}

# need_chromium: exits 77 (skipped) without Debian's chromium; then
# chrome NAME ARGS... runs one headless Chromium in the background with its
# own profile (runs go in parallel: start-up dominates), output in
# $D/NAME.out, status in $D/NAME.rc; after `wait`, ok NAME checks it ran.
need_chromium() {
  CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
  [ -x "$CHROMIUM" ] || { echo "skipped: no $CHROMIUM"; exit 77; }
}
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
