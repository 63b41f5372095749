#!/bin/sh
# Man pages (docs/install.md): after `cmake --install`, every command and
# subcommand has its page in PREFIX/share/man/man1, found by man through
# MANPATH, naming every option its --help lists; augur(1) points to them;
# groff formats every page without a warning.
# Environment from CTest: CMAKE, BUILD, AUGUR (the build's), WORK, NAME.
. "$(dirname "$0")/lib.sh"
p=$D/prefix
install_to "$p"
export MANPATH="$p/share/man" LC_ALL=C.UTF-8 MANWIDTH=100
cmds=$(commands)
[ -n "$cmds" ] || fail "augur --help lists no command"
[ "$(man -w augur-diagnose 2>&1)" = "$p/share/man/man1/augur-diagnose.1" ] ||
  fail "man -w augur-diagnose: $(man -w augur-diagnose 2>&1)"
man augur-diagnose >"$D/diagnose.txt" 2>"$D/man.err" || fail "man augur-diagnose: $(cat "$D/man.err")"
grep -q -- '--min-share F' "$D/diagnose.txt" || fail "man augur-diagnose has no '--min-share F'"
grep -q '^NAME' "$D/diagnose.txt" && grep -q 'augur-diagnose - find where the run loses time' "$D/diagnose.txt" ||
  fail "man augur-diagnose: no NAME line: $(head -5 "$D/diagnose.txt")"
pages=0
for c in $cmds; do
  subs=$("$AUGUR" "$c" --help | sed -n '/^subcommands:/,/^$/p' | awk 'NF > 1 && $1 != "subcommands:" { print $1 }')
  for w in "$c" $(for s in $subs; do echo "$c-$s"; done); do
    words=$(echo "$w" | tr '-' ' ')
    page=augur-$w
    f=$(man -w "$page" 2>/dev/null)
    [ "$f" = "$p/share/man/man1/$page.1" ] || { fail "no man page $page (man -w: '$f')"; continue; }
    pages=$((pages + 1))
    # groff as man runs it, warnings on (man itself takes seconds a page).
    groff -man -Tutf8 -ww "$f" 2>"$D/man.err" | col -b >"$D/$page.txt" || fail "groff $page failed"
    [ -s "$D/man.err" ] && fail "groff warns on $page: $(head -3 "$D/man.err")"
    grep -q "^SYNOPSIS" "$D/$page.txt" || fail "man $page: no SYNOPSIS"
    grep -q "augur $words" "$D/$page.txt" || fail "man $page: no 'augur $words' usage"
    option_names "$words" | sort -u >"$D/opts"
    grep -o -E -- '-[-A-Za-z0-9]+' "$D/$page.txt" | sort -u >"$D/seen"
    missing=$(comm -23 "$D/opts" "$D/seen" | tr '\n' ' ')
    [ -z "$missing" ] || fail "man $page does not name option(s) $missing"
    parent="augur(1)"
    [ "$w" = "$c" ] || parent="augur-$c(1)"
    sed -n '/^SEE ALSO/,$p' "$D/$page.txt" | grep -q -F "$parent" || fail "man $page: SEE ALSO lacks $parent"
  done
done
man augur >"$D/augur.txt" 2>&1 || fail "man augur: $(head -3 "$D/augur.txt")"
for c in $cmds; do
  grep -q "augur-$c(1)" "$D/augur.txt" || fail "man augur: SEE ALSO lacks augur-$c(1)"
done
# Nothing beyond the pages of the commands (a stale page of a removed one).
n=$(ls "$p/share/man/man1" | wc -l)
[ "$n" -eq $((pages + 1)) ] || fail "$n files in share/man/man1, want $((pages + 1)): $(ls "$p/share/man/man1")"
[ "$pages" -gt 15 ] || fail "only $pages command pages"
finish
