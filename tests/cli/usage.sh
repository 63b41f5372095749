# Usage errors: one line on stderr, exit 2; failures exit 1; never a crash.
. "$(dirname "$0")/lib.sh"
T="$D/known.augur"
"$GEN" "$T" || { fail "gen_trace failed"; finish; }

expect 0 0 "$AUGUR" --help
contains "$D/out" "record"
expect 0 0 "$AUGUR" --version
contains "$D/out" "augur "
for c in record report info dump; do
  expect 0 0 "$AUGUR" $c --help
  contains "$D/out" "usage: augur $c"
  expect 0 0 "$AUGUR" help $c
done
expect 2 - "$AUGUR"
expect 2 1 "$AUGUR" frobnicate
contains "$D/err" "unknown command 'frobnicate'"
expect 2 1 "$AUGUR" --frobnicate
expect 2 1 "$AUGUR" report
contains "$D/err" "missing TRACE"
expect 2 1 "$AUGUR" report "$T" --frob
contains "$D/err" "unknown option '--frob'"
expect 2 1 "$AUGUR" report "$T" "$T"
expect 1 1 "$AUGUR" report "$D/nope.augur"
contains "$D/err" "augur report: no such trace: $D/nope.augur"
expect 1 1 "$AUGUR" info /etc/passwd
expect 2 1 "$AUGUR" report "$T" --top -5
contains "$D/err" "--top"
expect 2 1 "$AUGUR" report "$T" --top 0
expect 2 1 "$AUGUR" report "$T" --top abc
expect 2 1 "$AUGUR" report "$T" --top
expect 2 1 "$AUGUR" report "$T" --top=99999999999999999999
expect 0 0 "$AUGUR" report "$T" --top=3
expect 2 1 "$AUGUR" info
expect 2 1 "$AUGUR" dump
expect 2 1 "$AUGUR" dump "$T" --rank 3
expect 2 1 "$AUGUR" dump "$T" --rank -1
expect 2 1 "$AUGUR" dump "$T" --limit -1
expect 2 1 "$AUGUR" record /bin/true
contains "$D/err" "--"
expect 2 1 "$AUGUR" record
expect 2 1 "$AUGUR" record --
expect 2 1 "$AUGUR" record -o
expect 2 1 "$AUGUR" record --mpi lam -- /bin/true
expect 2 1 "$AUGUR" record --bogus -- /bin/true
# A recorder that is not installed next to augur (../lib): fail before running.
mkdir -p "$D/prefix/bin"
cp "$AUGUR" "$D/prefix/bin/augur"
expect 1 1 "$D/prefix/bin/augur" record -o "$D/never.augur" -- /bin/true
contains "$D/err" "recorder is not installed"
expect 1 1 "$D/prefix/bin/augur" record --mpi mpich -- /bin/true
contains "$D/err" "libaugur-mpi-mpich.so"
# -o naming a file.
: >"$D/afile"
expect 1 - "$AUGUR" record -o "$D/afile" -- /bin/true
# An empty directory is not a trace: the reader's one line, exit 1.
mkdir -p "$D/empty.augur"
expect 1 1 "$AUGUR" report "$D/empty.augur"
expect 1 1 "$AUGUR" info "$D/empty.augur"
expect 1 1 "$AUGUR" dump "$D/empty.augur"
# Garbage trace.json.
mkdir -p "$D/garbage.augur"
echo '{"format": "augur-trace", "version": [1' >"$D/garbage.augur/trace.json"
expect 1 1 "$AUGUR" report "$D/garbage.augur"
finish
