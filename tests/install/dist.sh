#!/bin/sh
# dist/: the Spack recipe matches the build it packages (spack.py), and the
# installed modulefiles, loaded by Lmod (the Lua one, and the Tcl one, which
# Lmod reads too), put the install tree on PATH, MANPATH, PKG_CONFIG_PATH,
# CMAKE_PREFIX_PATH and LD_LIBRARY_PATH, from wherever the tree is.
# Environment from CTest: CMAKE, BUILD, AUGUR, SRC (the source tree), WORK, NAME.
. "$(dirname "$0")/lib.sh"
python3 "$SRC/tests/install/spack.py" "$SRC" >"$D/spack.out" 2>&1 || fail "$(cat "$D/spack.out")"

lmod=${LMOD:-/usr/share/lmod/lmod/libexec/lmod}
[ "$failures" -eq 0 ] || finish
[ -x "$lmod" ] || { echo "skipped (Spack checked): no Lmod ($lmod; Debian lmod)"; exit 77; }
p=$D/prefix
install_to "$p"
v=$("$AUGUR" --version | awk '{ print $2 }')
for dir in share/lmod/modulefiles share/modulefiles; do
  [ -d "$p/$dir/augur" ] || { fail "no $p/$dir/augur"; continue; }
  # A clean environment, then `module load augur` as sh code, evaluated.
  env -i HOME="$D" PATH=/usr/bin:/bin MODULEPATH="$p/$dir" LMOD_REDIRECT=no sh -c '
    eval "$("$1" sh load augur)" || exit 1
    printf "%s\n" "PATH=$PATH" "MANPATH=${MANPATH:-}" "PKG_CONFIG_PATH=${PKG_CONFIG_PATH:-}" \
      "CMAKE_PREFIX_PATH=${CMAKE_PREFIX_PATH:-}" "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}" \
      "AUGUR_ROOT=${AUGUR_ROOT:-}" "LOADED=${LOADEDMODULES:-}" "PYTHONPATH=${PYTHONPATH:-}"
    echo "py=$(python3 -c "import augur; print(augur.__file__)" 2>&1)"
    echo "version=$(augur --version)"
    echo "man=$(man -w augur-diagnose 2>&1)"
    echo "pc=$(pkg-config --modversion augur 2>&1)"' sh "$lmod" >"$D/env.out" 2>"$D/env.err" ||
    { fail "$dir: module load augur: $(head -5 "$D/env.err")"; continue; }
  get() { sed -n "s/^$1=//p" "$D/env.out"; }
  [ "$(get LOADED)" = "augur/$v" ] || fail "$dir: loaded '$(get LOADED)', want augur/$v: $(head -3 "$D/env.err")"
  case "$(get PATH)" in "$p/bin:"*) ;; *) fail "$dir: PATH=$(get PATH)" ;; esac
  [ "$(get MANPATH | cut -d: -f1)" = "$p/share/man" ] || fail "$dir: MANPATH=$(get MANPATH)"
  [ "$(get PKG_CONFIG_PATH)" = "$p/lib/pkgconfig" ] || fail "$dir: PKG_CONFIG_PATH=$(get PKG_CONFIG_PATH)"
  [ "$(get CMAKE_PREFIX_PATH)" = "$p" ] || fail "$dir: CMAKE_PREFIX_PATH=$(get CMAKE_PREFIX_PATH)"
  [ "$(get LD_LIBRARY_PATH)" = "$p/lib" ] || fail "$dir: LD_LIBRARY_PATH=$(get LD_LIBRARY_PATH)"
  [ "$(get AUGUR_ROOT)" = "$p" ] || fail "$dir: AUGUR_ROOT=$(get AUGUR_ROOT)"
  [ "$(get PYTHONPATH)" = "$p/lib/python3/dist-packages" ] || fail "$dir: PYTHONPATH=$(get PYTHONPATH)"
  if [ -d "$p/lib/python3/dist-packages/augur" ]; then
    [ "$(get py)" = "$p/lib/python3/dist-packages/augur/__init__.py" ] ||
      fail "$dir: import augur after load: $(get py)"
  fi
  # ... and what they point to is there and works.
  [ "$(get version)" = "augur $v" ] || fail "$dir: augur --version after load: $(get version)"
  [ "$(get man)" = "$p/share/man/man1/augur-diagnose.1" ] || fail "$dir: man -w augur-diagnose: $(get man)"
  [ "$(get pc)" = "$v" ] || fail "$dir: pkg-config --modversion augur: $(get pc)"
  [ -f "$(get CMAKE_PREFIX_PATH)/lib/cmake/augur/augurConfig.cmake" ] || fail "$dir: no augurConfig.cmake"
done
finish
