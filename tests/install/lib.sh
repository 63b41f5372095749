# Shared by the tests/install/*.sh tests: lib.sh of tests/, and
#   install_to P   `cmake --install $BUILD --prefix P` (BUILD, CMAKE from CTest)
#   commands       the commands `augur --help` lists, one a line ($AUGUR)
#   option_names C the option spellings `augur C --help` lists (C may be
#                  "model fit"), one a line: "-o, --output FILE" -> -o, --output
. "$(dirname "$0")/../lib.sh"
install_to() {
  "$CMAKE" --install "$BUILD" --prefix "$1" >"$D/install.out" 2>&1 ||
    { fail "cmake --install: $(tail -5 "$D/install.out")"; finish; }
}
commands() {
  "$AUGUR" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 && $1 != "commands:" { print $1 }'
}
option_names() {
  # shellcheck disable=SC2086 # "model fit" is two words
  "$AUGUR" $1 --help | sed -n '/^options:/,/^$/p' | grep -E '^  -' |
    sed -E 's/^  ([^ ]+( [^ ]+)*)  .*/\1/' | tr -d ',' | tr ' ' '\n' | grep -E '^-'
}
