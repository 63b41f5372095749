#!/bin/sh
# libaugur.so, the C API as a shared library (src/libaugur, docs/install.md):
#   - its SONAME is libaugur.so.MAJOR and the link chain libaugur.so ->
#     libaugur.so.MAJOR -> libaugur.so.MAJOR.MINOR.PATCH is there;
#   - it exports exactly the names include/augur/*.h mark AUGUR_API
#     (api_names.py), each a defined function or object, nothing else;
#   - a program outside augur (count_events.c), compiled against the
#     headers with -laugur from the BUILD tree, reads a trace recorded here
#     and counts what `augur dump` prints, rank by rank.
#
#   libaugur.sh CC LIBDIR INCLUDEDIR MPIEXEC PROG
# Environment from CTest: AUGUR (the CLI), WORK, NAME, VERSION (x.y.z).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
cc=$1 libdir=$2 incdir=$3 mpiexec=$4 prog=$5
major=${VERSION%%.*}
lib=$libdir/libaugur.so.$VERSION

# The files and the SONAME.
[ -f "$lib" ] || { fail "no $lib"; finish; }
[ "$(readlink "$libdir/libaugur.so.$major")" = "libaugur.so.$VERSION" ] ||
  fail "libaugur.so.$major does not link to libaugur.so.$VERSION"
[ "$(readlink "$libdir/libaugur.so")" = "libaugur.so.$major" ] ||
  fail "libaugur.so does not link to libaugur.so.$major"
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libaugur.so.$major" ] || fail "SONAME '$soname', want libaugur.so.$major"
# No RUNPATH with empty entries (= the current directory) or build paths.
readelf -d "$lib" | grep -q -E '\((RPATH|RUNPATH)\)' &&
  fail "libaugur.so has a search path: $(readelf -d "$lib" | grep -E 'RPATH|RUNPATH')"

# Exports: exactly the AUGUR_API declarations.
python3 "$here/api_names.py" "$incdir/augur" >"$D/api" || { fail "api_names.py failed"; finish; }
nm -D --defined-only "$lib" | awk 'NF == 3 { sub(/@.*/, "", $3); print $3 }' | sort -u >"$D/exports"
[ -s "$D/api" ] && [ -s "$D/exports" ] || fail "no API names ($(wc -l <"$D/api")) or exports"
extra=$(comm -13 "$D/api" "$D/exports" | tr '\n' ' ')
missing=$(comm -23 "$D/api" "$D/exports" | tr '\n' ' ')
[ -z "$extra" ] || fail "libaugur.so exports names no header marks AUGUR_API: $extra"
[ -z "$missing" ] || fail "AUGUR_API names libaugur.so does not define: $missing"

# A program of someone else's, built against the build tree's library.
"$cc" -std=c11 -Wall -Wextra -Werror -I "$incdir" -o "$D/count_events" "$here/count_events.c" \
  -L "$libdir" -laugur -Wl,-rpath,"$libdir" 2>"$D/cc.err" ||
  { fail "count_events.c does not build against libaugur: $(head -5 "$D/cc.err")"; finish; }
ldd "$D/count_events" | grep -q "libaugur.so.$major => $libdir/libaugur.so.$major" ||
  fail "count_events does not load $libdir/libaugur.so.$major: $(ldd "$D/count_events" | grep augur)"

# ... on a trace recorded here, against augur dump.
. "$here/../../scripts/mpi-env.sh"
T=$D/t.augur
timeout 120 "$AUGUR" record -o "$T" -- "$mpiexec" -n 2 "$prog" >"$D/record.out" 2>&1 ||
  { fail "augur record: $(tail -5 "$D/record.out")"; finish; }
expect 0 0 "$D/count_events" "$T"
cp "$D/out" "$D/counts"
sum=0
for r in 0 1; do
  "$AUGUR" dump "$T" --rank $r >"$D/dump$r" 2>&1 || fail "augur dump --rank $r: $(tail -3 "$D/dump$r")"
  want=$(($(wc -l <"$D/dump$r") - 1)) # a header line, then one line an event
  got=$(sed -n "s/^rank $r //p" "$D/counts")
  [ "$want" -gt 10 ] || fail "rank $r: augur dump shows $want events, want more than 10"
  [ "$got" = "$want" ] || fail "rank $r: count_events counts '$got' events, augur dump $want"
  sum=$((sum + want))
done
"$AUGUR" dump "$T" >"$D/dump" 2>&1 || fail "augur dump: $(tail -3 "$D/dump")"
[ "$(($(wc -l <"$D/dump") - 1))" -eq "$sum" ] || fail "augur dump's ranks do not add up to it"
grep -q "^total $sum\$" "$D/counts" || fail "count_events: total not $sum: $(cat "$D/counts")"

# A damaged input is the library's clear error, not a crash.
expect 1 1 "$D/count_events" "$D/no-such.augur"
finish
