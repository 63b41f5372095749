#%Module1.0
# Tcl modulefile for augur (Environment Modules, or Lmod; docs/install.md
# "Environment modules"). Installed as PREFIX/share/modulefiles/augur/VERSION:
# the prefix is found from this file's own place, so
# `module use PREFIX/share/modulefiles` is all a site does. Copied elsewhere,
# set prefix to the install prefix.
set prefix [file dirname [file dirname [file dirname [file dirname [file normalize $ModulesCurrentModulefile]]]]]
if {[file tail [file dirname [file dirname [file normalize $ModulesCurrentModulefile]]]] ne "modulefiles"} {
  set prefix /opt/augur
}

module-whatis "augur: performance analysis of MPI programs: record, report, diagnose, predict"
proc ModulesHelp {} {
  puts stderr "augur records MPI programs and analyses the traces (augur --help, man augur)."
  puts stderr "Sets PATH, MANPATH, and for programs using the C API (libaugur):"
  puts stderr "PKG_CONFIG_PATH (pkg-config augur), CMAKE_PREFIX_PATH (find_package(augur))"
  puts stderr "and LD_LIBRARY_PATH. Bash completion:"
  puts stderr "  . \$AUGUR_ROOT/share/bash-completion/completions/augur"
}

setenv AUGUR_ROOT $prefix
prepend-path PATH $prefix/bin
prepend-path MANPATH $prefix/share/man
prepend-path PKG_CONFIG_PATH $prefix/lib/pkgconfig
prepend-path CMAKE_PREFIX_PATH $prefix
prepend-path LD_LIBRARY_PATH $prefix/lib
prepend-path PYTHONPATH $prefix/lib/python3/dist-packages
