#!/bin/sh
# Programs use an installed augur the two usual ways (docs/install.md): after
# `cmake --install BUILD --prefix P`,
#   - PKG_CONFIG_PATH=P/lib/pkgconfig cc $(pkg-config --cflags --libs augur)
#     builds count_events.c, which reads a trace;
#   - a 5-line CMakeLists.txt with find_package(augur) and augur::augur
#     builds the same program;
# and both count what `augur dump` of the installed augur prints.
#
#   dev.sh CMAKE BUILD CC
# Environment from CTest: GEN (tests/cli's trace writer), WORK, NAME, VERSION.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
cmake=$1 build=$2 cc=$3
p=$D/prefix
"$cmake" --install "$build" --prefix "$p" >"$D/install.out" 2>&1 ||
  { fail "cmake --install: $(tail -5 "$D/install.out")"; finish; }
T=$D/known.augur
"$GEN" "$T" || { fail "gen_trace failed"; finish; }
"$p/bin/augur" dump "$T" >"$D/dump" || fail "installed augur dump failed"
want=$(($(wc -l <"$D/dump") - 1)) # a header line, then one line an event
[ "$want" -gt 0 ] || fail "augur dump shows no events"

# pkg-config, from the install tree only (never the build tree).
export PKG_CONFIG_PATH="$p/lib/pkgconfig"
[ "$(pkg-config --modversion augur 2>&1)" = "$VERSION" ] ||
  fail "pkg-config --modversion augur: '$(pkg-config --modversion augur 2>&1)', want $VERSION"
flags=$(pkg-config --cflags --libs augur) || fail "pkg-config --cflags --libs augur failed"
case " $flags " in *" -L$p/lib "* | *" -L$p/lib/pkgconfig/../../lib "*) ;;
  *) fail "pkg-config --libs augur does not point into the prefix: $flags" ;; esac
pkg-config --static --libs augur >/dev/null 2>"$D/static.err" ||
  fail "pkg-config --static --libs augur: $(cat "$D/static.err")"
# shellcheck disable=SC2086 # the flags are words
"$cc" -std=c11 -Wall -Wextra -Werror -o "$D/count_pc" "$here/count_events.c" $flags 2>"$D/cc.err" ||
  fail "cc \$(pkg-config --cflags --libs augur) count_events.c: $(head -5 "$D/cc.err")"
if [ -x "$D/count_pc" ]; then
  LD_LIBRARY_PATH="$p/lib" "$D/count_pc" "$T" >"$D/pc.out" 2>&1 || fail "count_pc: $(cat "$D/pc.out")"
  grep -q "^total $want\$" "$D/pc.out" || fail "pkg-config build counts $(tail -1 "$D/pc.out"), augur dump $want"
  LD_LIBRARY_PATH="$p/lib" ldd "$D/count_pc" | grep -q "libaugur.so.${VERSION%%.*} => $p/lib/" ||
    fail "count_pc does not load the installed libaugur: $(LD_LIBRARY_PATH="$p/lib" ldd "$D/count_pc" | grep augur)"
fi

# find_package(augur) -> augur::augur.
mkdir -p "$D/proj"
cp "$here/count_events.c" "$D/proj/"
cat >"$D/proj/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(count LANGUAGES C)
find_package(augur REQUIRED)
add_executable(count_events count_events.c)
target_link_libraries(count_events PRIVATE augur::augur)
CM
"$cmake" -S "$D/proj" -B "$D/proj/build" -DCMAKE_PREFIX_PATH="$p" -DCMAKE_C_COMPILER="$cc" \
  >"$D/cmake.out" 2>&1 || fail "find_package(augur): $(grep -A5 -i error "$D/cmake.out" | head -8)"
grep -q "^augur_DIR:PATH=$p/lib/cmake/augur\$" "$D/proj/build/CMakeCache.txt" 2>/dev/null ||
  fail "find_package(augur) did not find the prefix's: $(grep augur_DIR "$D/proj/build/CMakeCache.txt")"
"$cmake" --build "$D/proj/build" >"$D/build.out" 2>&1 || fail "CMake build: $(tail -5 "$D/build.out")"
if [ -x "$D/proj/build/count_events" ]; then # CMake gives it the library's directory as RUNPATH
  "$D/proj/build/count_events" "$T" >"$D/cm.out" 2>&1 || fail "CMake's count_events: $(cat "$D/cm.out")"
  grep -q "^total $want\$" "$D/cm.out" || fail "CMake build counts $(tail -1 "$D/cm.out"), augur dump $want"
fi
# A version the package does not promise is refused (0.x: same MAJOR.MINOR only).
sed -i 's/find_package(augur REQUIRED)/find_package(augur 9.0 REQUIRED)/' "$D/proj/CMakeLists.txt"
"$cmake" -S "$D/proj" -B "$D/proj/build9" -DCMAKE_PREFIX_PATH="$p" >"$D/cmake9.out" 2>&1 &&
  fail "find_package(augur 9.0) accepted version $VERSION"
finish
