# Every command states its options once (src/cli/options.c): each option its
# --help lists is accepted (long and short spellings), and a flag given a
# value, a value option without its value and an unknown option are refused
# the same way by every command: one line on stderr, exit 2.
. "$(dirname "$0")/lib.sh"
cmds=$("$AUGUR" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 && $1 != "commands:" { print $1 }')
[ -n "$cmds" ] || fail "augur --help lists no command"
count=0
for c in $cmds; do
  expect 0 0 "$AUGUR" "$c" --help
  contains "$D/out" "usage: augur $c"
  contains "$D/out" "-h, --help"
  # The option labels: "  -o, --output FILE  help..." -> "-o, --output FILE".
  sed -n '/^options:/,/^$/p' "$D/out" | grep -E '^  -' |
    sed -E 's/^  ([^ ]+( [^ ]+)*)  .*/\1/' >"$D/labels-$c"
  [ -s "$D/labels-$c" ] || fail "augur $c --help lists no option"
  flags=
  valued=
  while read -r label; do
    set -- $label
    short=
    case $1 in *,) short=${1%,}; shift ;; esac
    name=$1
    [ "$name" = --help ] && continue
    count=$((count + 1))
    if [ -z "${2:-}" ]; then
      flags="$flags $name $short"
      last_flag=$name
      continue
    fi
    valued=$name
    # A value option: "1" is accepted (--help comes next) or refused by the
    # option's own check, which names the option; never "unknown option".
    for o in "$name" $short; do
      "$AUGUR" "$c" "$o" 1 --help >"$D/out" 2>"$D/err"
      got=$?
      [ "$got" -eq 0 ] && continue
      [ "$got" -eq 2 ] || fail "augur $c $o 1 exited $got"
      [ "$(wc -l <"$D/err")" -eq 1 ] || fail "augur $c $o 1: $(cat "$D/err")"
      if grep -q "unknown option" "$D/err" || ! grep -q -e "$name" ${short:+-e "$short"} "$D/err"; then
        fail "augur $c $o 1: refused without naming the option: $(cat "$D/err")"
      fi
    done
  done <"$D/labels-$c"
  if [ -n "$flags" ]; then
    # Every flag at once: all accepted, so the --help after them is reached.
    expect 0 0 "$AUGUR" "$c" $flags --help
    contains "$D/out" "usage: augur $c"
    expect 2 1 "$AUGUR" "$c" "$last_flag=1"
    contains "$D/err" "augur $c: option $last_flag takes no value (see 'augur $c --help')"
  fi
  if [ -n "$valued" ]; then
    expect 2 1 "$AUGUR" "$c" "$valued"
    contains "$D/err" "augur $c: option $valued needs a value (see 'augur $c --help')"
  fi
  expect 2 1 "$AUGUR" "$c" --no-such-option
  contains "$D/err" "augur $c: unknown option '--no-such-option' (see 'augur $c --help')"
  # A command whose usage starts with its operand (augur report TRACE ...)
  # says, in one line, that it is missing and how the command is used.
  first=$("$AUGUR" "$c" --help | sed -n '1s/^usage: augur [a-z]* \([A-Z][A-Za-z.0-9]*\).*/\1/p')
  if [ -n "$first" ]; then
    expect 2 1 "$AUGUR" "$c"
    contains "$D/err" "augur $c: missing $first (usage: augur $c $first"
  fi
done
[ "$count" -ge 60 ] || fail "only $count options in the commands' --help"
finish
