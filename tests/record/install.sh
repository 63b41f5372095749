#!/bin/sh
# `make install` gives a tree that works on its own (issue 23): the C API's
# headers each compile alone from PREFIX/include, the installed preloaded
# libraries still hide themselves, and the installed `augur record` (which
# finds its recorder in ../lib) records an MPI program that `augur info`
# then reads.
#
#   install.sh CMAKE BUILD CC MPIEXEC PROG
set -u
cmake=$1 build=$2 cc=$3 mpiexec=$4 prog=$5
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
p=$tmp/prefix

"$cmake" --install "$build" --prefix "$p" >"$tmp/install.out" 2>&1 ||
  { echo "FAIL: cmake --install:"; cat "$tmp/install.out"; exit 1; }

# Every header on its own (jansson's for text.h), warnings as errors.
[ -f "$p/include/augur/api.h" ] || fail "no PREFIX/include/augur/api.h"
for h in "$here"/../../include/augur/*.h; do
  h=$(basename "$h")
  [ -f "$p/include/augur/$h" ] || { fail "$h not installed"; continue; }
  printf '#include <augur/%s>\n' "$h" | "$cc" -std=c11 -Wall -Wextra -Werror -fsyntax-only \
    -I "$p/include" $(pkg-config --cflags jansson 2>/dev/null) -x c - 2>"$tmp/cc.err" ||
    fail "installed augur/$h does not compile alone: $(head -3 "$tmp/cc.err")"
done
# The installed version macros are the installed CLI's version.
printf '#include <stdio.h>\n#include <augur/api.h>\nint main(void) { puts("augur " AUGUR_VERSION_STRING); return 0; }\n' |
  "$cc" -std=c11 -I "$p/include" -x c - -o "$tmp/version" || fail "cannot compile against api.h"
[ "$("$tmp/version")" = "$("$p/bin/augur" --version)" ] ||
  fail "api.h says '$("$tmp/version")', the installed augur '$("$p/bin/augur" --version)'"

# The installed libraries are the ones the exports test checks in the build.
sh "$here/exports.sh" "$p"/lib/libaugur-*.so >"$tmp/exports.out" 2>&1 ||
  fail "installed libraries: $(grep FAIL "$tmp/exports.out" | cut -c1-400)"

# An installed augur record of an MPI program, read back.
t=$tmp/trace.augur
timeout 120 "$p/bin/augur" record -o "$t" -- "$mpiexec" -n 2 "$prog" >"$tmp/record.out" 2>&1 ||
  fail "installed augur record: $(tail -5 "$tmp/record.out")"
"$p/bin/augur" info "$t" >"$tmp/info.out" 2>&1 || fail "augur info: $(tail -5 "$tmp/info.out")"
grep -q '^ranks  *2 (complete)' "$tmp/info.out" ||
  fail "augur info of the installed recording: not 2 complete ranks: $(cat "$tmp/info.out")"
grep -q "^recorder  *$("$p/bin/augur" --version)\$" "$tmp/info.out" ||
  fail "the trace's recorder is not the installed one: $(grep recorder "$tmp/info.out")"

[ "$fails" -eq 0 ] || exit 1
echo "install: ok"
