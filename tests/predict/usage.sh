# `augur signature` / `augur predict` command-line errors and bad files: one
# line on stderr, exit 2 (command line) or 1 (bad input). No MPI needed.
. "$(dirname "$0")/../lib.sh"
expect 2 1 "$AUGUR" signature
expect 2 1 "$AUGUR" signature "$D/a.augur"
expect 2 1 "$AUGUR" signature "$D/a.augur" -o
expect 2 1 "$AUGUR" signature "$D/a.augur" -o "$D/s" --measure 0
expect 2 1 "$AUGUR" signature "$D/a.augur" -o "$D/s" --bogus
expect 1 1 "$AUGUR" signature "$D/nonexistent.augur" -o "$D/s"
contains "$D/err" "no such trace"
[ -e "$D/s" ] && fail "a signature was written for a missing trace"
expect 0 0 "$AUGUR" signature --help
contains "$D/out" "--measure"

expect 2 1 "$AUGUR" predict
expect 2 1 "$AUGUR" predict --signature "$D/s"
expect 2 1 "$AUGUR" predict --signature "$D/s" --
expect 2 1 "$AUGUR" predict -- true
expect 2 1 "$AUGUR" predict --signature "$D/s" --measure x -- true
expect 2 1 "$AUGUR" predict --signature "$D/s" --mpi lam -- true
expect 2 1 "$AUGUR" predict --signature "$D/s" true
expect 2 1 "$AUGUR" predict --signature "$D/s" --stall 0.1 -- true
expect 2 1 "$AUGUR" predict --signature "$D/s" --stall soon -- true
# Bad signature files: refused before anything runs (the command would
# create a file if it ran).
expect 1 1 "$AUGUR" predict --signature "$D/missing.sig" -- touch "$D/ran"
contains "$D/err" "missing.sig"
printf 'augur-signature 1\nranks 4\nbase 1 0 0\nmodules 0\nphases 1\nphase 1 0 0.1 0 1 0 0\n' \
  >"$D/bad.sig"
expect 1 1 "$AUGUR" predict --signature "$D/bad.sig" -- touch "$D/ran"
contains "$D/err" "bad.sig:6: expected a weight >= 1"
printf 'hello\n' >"$D/hello.sig"
expect 1 1 "$AUGUR" predict --signature "$D/hello.sig" -- touch "$D/ran"
contains "$D/err" "not an augur signature"
[ -e "$D/ran" ] && fail "the command ran with a bad signature"
expect 0 0 "$AUGUR" predict --help
contains "$D/out" "--signature"
contains "$D/out" "--stall SECONDS"
contains "$D/out" "--force"
finish
