# `augur phases` command-line errors: one line on stderr, exit 2; a trace
# that is not there or not a trace: one line, exit 1. No MPI needed.
. "$(dirname "$0")/../lib.sh"
expect 2 1 "$AUGUR" phases
expect 2 1 "$AUGUR" phases "$D/a.augur" "$D/b.augur"
expect 2 1 "$AUGUR" phases "$D/a.augur" --bogus
expect 2 1 "$AUGUR" phases "$D/a.augur" --min-share
expect 2 1 "$AUGUR" phases "$D/a.augur" --min-share 2
expect 2 1 "$AUGUR" phases "$D/a.augur" --min-share x
expect 2 1 "$AUGUR" phases "$D/a.augur" --volume-tol -0.1
expect 2 1 "$AUGUR" phases "$D/a.augur" --max-period 0
expect 2 1 "$AUGUR" phases "$D/a.augur" --rank -1
expect 2 1 "$AUGUR" phases "$D/a.augur" --irregular --per-rank
expect 2 1 "$AUGUR" phases "$D/a.augur" --rank 1 --irregular
expect 1 1 "$AUGUR" phases "$D/nonexistent.augur"
contains "$D/err" "no such trace"
mkdir -p "$D/empty.augur"
echo '{' >"$D/empty.augur/trace.json"
expect 1 1 "$AUGUR" phases "$D/empty.augur"
expect 0 0 "$AUGUR" phases --help
contains "$D/out" "--min-share"
contains "$D/out" "--irregular"
expect 0 0 "$AUGUR" help phases
finish
