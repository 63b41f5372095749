#!/bin/sh
# Bash completion (docs/install.md): the installed
# PREFIX/share/bash-completion/completions/augur, loaded into bash, registers
# _augur for augur, which offers the commands, each command's options as its
# --help lists them, model's subcommands and their options, an option's
# choices (--mpi mpich|openmpi), and leaves file names and the program after
# `--` to bash.
# Environment from CTest: CMAKE, BUILD, AUGUR (the build's), WORK, NAME.
. "$(dirname "$0")/lib.sh"
command -v bash >/dev/null || { echo "skipped: no bash"; exit 77; }
p=$D/prefix
install_to "$p"
comp=$p/share/bash-completion/completions/augur
[ -f "$comp" ] || { fail "no $comp"; finish; }

# complete WORD...: what _augur offers for the last WORD (sorted, one line).
complete_words() {
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
           _augur augur "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
           printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' sh "$comp" augur "$@" 2>&1
}
check() { # check WANT WORD...
  want=$1
  shift
  got=$(complete_words "$@")
  [ "$got" = "$want" ] || fail "augur $*<TAB>: '$got', want '$want'"
}
reg=$(bash -c '. "$1"; complete -p augur' sh "$comp" 2>&1)
[ "$reg" = "complete -o default -F _augur augur" ] || fail "complete -p augur: '$reg'"
check "diagnose " diag
check "model " mod
check "--version " --vers
check "record report " re
check "--min-share " diagnose --min
check "mpich openmpi " record --mpi ""
check "openmpi " predict -o x --mpi o
check "fit " model f
check "--formula " model fit --form
check " " diagnose --html "" # a file name: bash's own
check " " record -- mpiexec -n   # the program's own words
check "--json " model fit data.csv --js

# Every command's options, as its --help lists them.
cmds=$(commands)
[ -n "$cmds" ] || fail "augur --help lists no command"
all=$(complete_words "")
for c in $cmds; do
  case " $all" in *" $c "*) ;; *) fail "augur <TAB> does not offer $c: $all" ;; esac
  want=$(option_names "$c" | sort | tr '\n' ' ')
  check "$want" "$c" -
done
finish
