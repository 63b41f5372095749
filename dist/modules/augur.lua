-- Lmod modulefile for augur (docs/install.md "Environment modules").
-- Installed as PREFIX/share/lmod/modulefiles/augur/VERSION.lua: the prefix is
-- found from this file's own place, so `module use PREFIX/share/lmod/modulefiles`
-- is all a site does. Copied elsewhere, set prefix to the install prefix.
local prefix = pathJoin(myFileName():match("(.*)/share/lmod/modulefiles/[^/]+/[^/]+$") or "/opt/augur")

whatis("Name: augur")
whatis("Version: " .. myModuleVersion())
whatis("Description: performance analysis of MPI programs: record, report, diagnose, predict")
help([[
augur records MPI programs and analyses the traces (augur --help, man augur).
Sets PATH, MANPATH, and for programs using the C API (libaugur):
PKG_CONFIG_PATH (pkg-config augur), CMAKE_PREFIX_PATH (find_package(augur))
and LD_LIBRARY_PATH. Bash completion:
  . $AUGUR_ROOT/share/bash-completion/completions/augur
]])

setenv("AUGUR_ROOT", prefix)
prepend_path("PATH", pathJoin(prefix, "bin"))
prepend_path("MANPATH", pathJoin(prefix, "share/man"))
prepend_path("PKG_CONFIG_PATH", pathJoin(prefix, "lib/pkgconfig"))
prepend_path("CMAKE_PREFIX_PATH", prefix)
prepend_path("LD_LIBRARY_PATH", pathJoin(prefix, "lib"))
prepend_path("PYTHONPATH", pathJoin(prefix, "lib/python3/dist-packages"))
