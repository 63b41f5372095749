#!/bin/sh
# A damaged trace must give a clear error naming the damaged file, exit
# status 1, and no crash or hang, from both `augur dump` and `augur report`.
# Damage: a byte flipped in the middle of rank-00001.evt, the file cut in
# half, the file deleted.
#
# usage: damage.sh AUGUR MPIEXEC APP WORKDIR     (APP: a ring binary)
set -u
[ $# -eq 4 ] || { echo "usage: $0 AUGUR MPIEXEC APP WORKDIR" >&2; exit 2; }
AUGUR=$1 MPIEXEC=$2 APP=$3 WORK=$4
VICTIM=rank-00001.evt
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

for f in "$AUGUR" "$APP"; do
  [ -x "$f" ] || { echo "FAIL: $f is not built" >&2; exit 1; }
done
rm -rf "$WORK"
mkdir -p "$WORK"
GOOD=$WORK/good.augur
"$AUGUR" record -o "$GOOD" -- "$MPIEXEC" -n 2 "$APP" -n 200 -s 64 >"$WORK/record.out" 2>&1 ||
  { cat "$WORK/record.out"; echo "FAIL: augur record failed" >&2; exit 1; }
[ -f "$GOOD/$VICTIM" ] || { echo "FAIL: $GOOD/$VICTIM was not written" >&2; exit 1; }

# The intact trace must read cleanly, or the checks below prove nothing.
for cmd in dump report; do
  "$AUGUR" $cmd "$GOOD" >"$WORK/good.$cmd.out" 2>&1 ||
    { cat "$WORK/good.$cmd.out"; fail "augur $cmd on the intact trace exited $?"; }
done

flip_middle() { # xor 0xff into the byte in the middle of $1
  size=$(wc -c <"$1")
  off=$((size / 2))
  byte=$(od -An -tu1 -j "$off" -N1 "$1" | tr -d ' ')
  # shellcheck disable=SC2059 # the format is the octal escape we build
  printf "$(printf '\\%03o' $((byte ^ 255)))" | dd of="$1" bs=1 seek="$off" conv=notrunc 2>/dev/null
  echo "flipped byte $off of $size ($byte -> $((byte ^ 255)))"
}
truncate_half() {
  size=$(wc -c <"$1")
  truncate -s $((size / 2)) "$1"
  echo "truncated from $size to $((size / 2)) bytes"
}

for kind in flip truncate delete; do
  T=$WORK/$kind.augur
  cp -r "$GOOD" "$T"
  case $kind in
    flip) flip_middle "$T/$VICTIM" ;;
    truncate) truncate_half "$T/$VICTIM" ;;
    delete) rm "$T/$VICTIM"; echo "deleted $VICTIM" ;;
  esac
  for cmd in dump report; do
    timeout 30 "$AUGUR" $cmd "$T" >"$WORK/$kind.$cmd.out" 2>"$WORK/$kind.$cmd.err"
    rc=$?
    echo "$kind / augur $cmd: exit $rc: $(tail -n 1 "$WORK/$kind.$cmd.err")"
    if [ $rc -eq 124 ]; then
      fail "$kind: augur $cmd hung (killed after 30 s)"
    elif [ $rc -ge 128 ]; then
      fail "$kind: augur $cmd died from signal $((rc - 128))"
    elif [ $rc -ne 1 ]; then
      fail "$kind: augur $cmd exited $rc, want 1"
    fi
    grep -q "$VICTIM" "$WORK/$kind.$cmd.err" ||
      fail "$kind: augur $cmd's error does not name $VICTIM: $(cat "$WORK/$kind.$cmd.err")"
    if grep -q -e 'Sanitizer' -e 'Segmentation' "$WORK/$kind.$cmd.err"; then
      fail "$kind: augur $cmd crashed"
    fi
  done
done

[ $fails -eq 0 ] || { echo "FAIL: $fails damage check(s) failed" >&2; exit 1; }
echo "ok: damaged traces give clear errors"
