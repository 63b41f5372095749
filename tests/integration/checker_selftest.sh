#!/bin/sh
# The checker must catch a wrong trace, not just bless a right one: run it on
# a good ring trace (recorded by the integration.*.ring.np2 test) with
# expectations that are off by a little, and require a failure that names
# the difference.
#
# usage: checker_selftest.sh CHECKER TRACE RING_SRC WRONG_SRC
set -u
[ $# -eq 4 ] || { echo "usage: $0 CHECKER TRACE RING_SRC WRONG_SRC" >&2; exit 2; }
CHECK=$1 TRACE=$2 SRC=$3 WRONG_SRC=$4
fails=0

# expect RC PATTERN ARGS...: the checker exits RC and its output contains PATTERN.
expect() {
  want_rc=$1 pattern=$2
  shift 2
  out=$("$CHECK" --app ring --trace "$TRACE" "$@" 2>&1)
  rc=$?
  if [ $rc -ne "$want_rc" ] || ! printf '%s\n' "$out" | grep -q -e "$pattern"; then
    echo "FAIL: checker $* exited $rc (want $want_rc) without '$pattern':" >&2
    printf '%s\n' "$out" | head -5 >&2
    fails=$((fails + 1))
  else
    echo "ok: $* -> exit $rc, '$pattern'"
  fi
}

expect 0 "match the expected trace" --src "$SRC" --np 2 --iter 5 --bytes 1000
expect 1 "bytes = 1000, want 999" --src "$SRC" --np 2 --iter 5 --bytes 999
expect 1 "MPI_Send records, want 6" --src "$SRC" --np 2 --iter 6 --bytes 1000
expect 1 "nranks = 2, want 3" --src "$SRC" --np 3 --iter 5 --bytes 1000
expect 1 "no marker @augur:ring.init" --src "$WRONG_SRC" --np 2 --iter 5 --bytes 1000
expect 1 "cannot open" --src "$SRC" --np 2 --iter 5 --bytes 1000 --trace "$TRACE.nonexistent"

[ $fails -eq 0 ] || exit 1
