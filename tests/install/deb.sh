#!/bin/sh
# make deb (scripts/make-deb.sh): the package's control names the runtime
# libraries as Depends and the MPI ones as Recommends; it holds bin/augur,
# libaugur, the headers, augur.pc, the CMake files, man pages, completion;
# unpacked into a scratch root (dpkg -x, never installed on this machine) its
# augur runs, reads a trace, and builds a C program with its pkg-config file.
# Environment from CTest: BUILD, SRC, GEN, CC, WORK, NAME.
. "$(dirname "$0")/lib.sh"
command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null ||
  { echo "skipped: no dpkg-deb/dpkg-shlibdeps (dpkg-dev)"; exit 77; }
deb=$(sh "$SRC/scripts/make-deb.sh" "$BUILD" "$D" 2>"$D/make.err") ||
  { fail "make-deb.sh: $(tail -5 "$D/make.err")"; finish; }
v=$("$BUILD/bin/augur" --version | awk '{ print $2 }')
[ "$deb" = "$D/augur_${v}_$(dpkg --print-architecture).deb" ] || fail "make-deb.sh wrote '$deb'"

dpkg-deb -f "$deb" Depends >"$D/depends"
dpkg-deb -f "$deb" Recommends >"$D/recommends"
for lib in libc6 libzstd1 libxxhash0 libjansson4 libdw1 libhwloc15 libinih1 libsqlite3-0; do
  grep -q -E "(^|, )$lib( |,|\$)" "$D/depends" || fail "Depends lacks $lib: $(cat "$D/depends")"
done
grep -q -E "libmpich12|libopenmpi3" "$D/depends" && fail "an MPI library is in Depends: $(cat "$D/depends")"
grep -q -E "libmpich12|libopenmpi3" "$D/recommends" ||
  fail "Recommends names no MPI runtime: $(cat "$D/recommends")"
# The Python package's imports (python/augur: cffi, numpy).
for p in python3-cffi python3-numpy; do
  grep -q -E "(^|, )$p( |,|\$)" "$D/recommends" || fail "Recommends lacks $p: $(cat "$D/recommends")"
done
# "perms owner size date time NAME" or "... NAME -> TARGET" for a link.
dpkg-deb -c "$deb" | awk '{ print ($(NF - 1) == "->") ? $(NF - 2) : $NF }' >"$D/files"
for f in ./usr/bin/augur ./usr/bin/augurd ./usr/lib/libaugur.so.$v ./usr/lib/libaugur.so \
  ./usr/lib/libaugur-mpi.so ./usr/include/augur/reader.h ./usr/include/augur/api.h \
  ./usr/lib/pkgconfig/augur.pc ./usr/lib/cmake/augur/augurConfig.cmake \
  ./usr/share/man/man1/augur.1.gz ./usr/share/man/man1/augur-diagnose.1.gz \
  ./usr/share/bash-completion/completions/augur; do
  grep -q -x -F "$f" "$D/files" || fail "the package lacks $f"
done
# Owned by root, not by whoever built it.
dpkg-deb -c "$deb" | awk '$2 != "root/root" { print; exit 1 }' >"$D/owners" ||
  fail "files not owned by root/root: $(cat "$D/owners")"

# Unpacked into a scratch root, the tree works on its own.
r=$D/root
dpkg-deb -x "$deb" "$r" || { fail "dpkg-deb -x failed"; finish; }
[ "$("$r/usr/bin/augur" --version)" = "augur $v" ] || fail "unpacked augur --version: $("$r/usr/bin/augur" --version 2>&1)"
T=$D/known.augur
"$GEN" "$T" || fail "gen_trace failed"
expect 0 0 "$r/usr/bin/augur" info "$T"
contains "$D/out" "(complete)"
flags=$(PKG_CONFIG_PATH="$r/usr/lib/pkgconfig" pkg-config --cflags --libs augur) ||
  fail "the package's augur.pc: pkg-config failed"
# shellcheck disable=SC2086
"$CC" -std=c11 -Wall -Wextra -Werror -o "$D/count" "$SRC/tests/install/count_events.c" $flags 2>"$D/cc.err" ||
  fail "cc with the package's pkg-config flags: $(head -3 "$D/cc.err")"
[ -x "$D/count" ] && { LD_LIBRARY_PATH="$r/usr/lib" "$D/count" "$T" | grep -q '^total [1-9]' ||
  fail "count_events with the package's libaugur read nothing"; }
zcat "$r/usr/share/man/man1/augur-diagnose.1.gz" | grep -q 'min\\-share' ||
  fail "the packaged augur-diagnose.1.gz lacks --min-share"
finish
