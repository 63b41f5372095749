#!/bin/sh
# make deb: a Debian package of a built tree (docs/install.md), from a staged
# `cmake --install BUILD --prefix /usr`, with dpkg-deb.
#
#   make-deb.sh BUILD [OUTDIR]     writes OUTDIR/augur_VERSION_ARCH.deb (OUTDIR: BUILD)
#
# Depends: the shared libraries the programs and libaugur need (augur,
# augurd, libaugur, the non-MPI profile library), as dpkg-shlibdeps finds
# them (libzstd1, libjansson4, libdw1, libhwloc15, ...). Recommends: what only
# the MPI parts need besides (the recorders, the MPI profile libraries, the
# calibration programs: the MPI runtimes, PAPI): without them augur reads and
# analyses traces but records nothing. Man pages are gzipped and debug info
# stripped (Debian policy).
set -eu
build=${1:?usage: make-deb.sh BUILD [OUTDIR]}
out=${2:-$build}
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v $tool >/dev/null || { echo "make-deb.sh: $tool not found (apt-get install dpkg-dev)" >&2; exit 1; }
done
build=$(cd "$build" && pwd)
augur=$build/bin/augur
[ -x "$augur" ] || { echo "make-deb.sh: no $augur: build first (make)" >&2; exit 1; }
version=$("$augur" --version | awk '{ print $2 }')
arch=$(dpkg --print-architecture)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
cmake --install "$build" --prefix "$root/usr" >"$tmp/install.out" 2>&1 ||
  { cat "$tmp/install.out" >&2; exit 1; }
find "$root/usr/share/man" -name '*.[0-9]' -exec gzip -9n {} +
# Debug info out, as Debian's dh_strip does (augur reads the debug info of the
# programs it records, never its own); symbols stay.
find "$root/usr/bin" "$root/usr/lib" -type f | while read -r f; do
  if head -c 4 "$f" | grep -q ELF; then strip --strip-debug "$f"; fi
done

# dpkg-shlibdeps wants a source package around; it reads nothing from it.
mkdir -p "$tmp/src/debian"
printf 'Source: augur\n\nPackage: augur\nArchitecture: any\n' >"$tmp/src/debian/control"
shlibdeps() { # ELF files -> "libx1 (>= v), liby2, ..."
  (cd "$tmp/src" && dpkg-shlibdeps -O $(for f in "$@"; do printf -- '-e%s ' "$f"; done) 2>"$tmp/shlibdeps.err") |
    sed -n 's/^shlibs:Depends=//p'
}
u=$root/usr
core=""
mpi=""
for f in "$u"/bin/* "$u"/lib/*.so* "$u"/lib/augur/*.so "$u"/lib/augur-calibrate-*; do
  [ -f "$f" ] && [ ! -L "$f" ] && head -c 4 "$f" | grep -q ELF || continue
  case ${f##*/} in
  libaugur-mpi* | libaugur-profile-* | augur-calibrate-*) mpi="$mpi $f" ;;
  *) core="$core $f" ;;
  esac
done
# shellcheck disable=SC2086 # lists of files
depends=$(shlibdeps $core) || { cat "$tmp/shlibdeps.err" >&2; exit 1; }
[ -n "$depends" ] || { echo "make-deb.sh: dpkg-shlibdeps found no dependency" >&2; cat "$tmp/shlibdeps.err" >&2; exit 1; }
recommends=""
if [ -n "$mpi" ]; then
  # shellcheck disable=SC2086
  all=$(shlibdeps $mpi) || { cat "$tmp/shlibdeps.err" >&2; exit 1; }
  # What the MPI parts need that Depends does not name (by package name).
  names=$(echo "$depends" | tr ',' '\n' | sed 's/^ *//; s/[ (].*//')
  recommends=$(echo "$all" | tr ',' '\n' | sed 's/^ *//' |
    awk -v names="$names" 'BEGIN { n = split(names, a, "\n"); for (i = 1; i <= n; i++) d[a[i]] = 1 }
      { p = $1; sub(/[ (].*/, "", p); if (!(p in d)) print }' | paste -sd, - | sed 's/,/, /g')
fi

mkdir -p "$root/DEBIAN"
{
  echo "Package: augur"
  echo "Version: $version"
  echo "Architecture: $arch"
  echo "Maintainer: augur developers <augur@localhost>"
  echo "Installed-Size: $(du -sk "$u" | cut -f1)"
  echo "Depends: $depends"
  # The Python package (lib/python3/dist-packages/augur) needs cffi and numpy
  # (Recommends: apt installs them, `dpkg -i` does not); pandas only for
  # to_pandas().
  echo "Recommends: ${recommends:+$recommends, }python3-cffi, python3-numpy"
  echo "Suggests: libjansson-dev, pkgconf, python3-pandas"
  echo "Section: devel"
  echo "Priority: optional"
  echo "Description: performance analysis of MPI programs"
  echo " augur records MPI programs (PMPI interposition, LD_PRELOAD) and analyses"
  echo " the traces: report, diagnose (KappaPi), phases, signature and predict"
  echo " (PAS2P), simulate. Also the C API (libaugur, headers, pkg-config and CMake"
  echo " files), man pages and bash completion."
} >"$root/DEBIAN/control"
mkdir -p "$out"
deb=$out/augur_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
