#!/bin/sh
# bench/recorder/cost.sh: the recorder's cost per intercepted call and its breakdown, one
# command (issue 28 item 4; method in bench/recorder/README.md).
#
# usage: bench/recorder/cost.sh [BUILD] [RUNS] [BASE_BUILD]     (build, 7)
#
# For each MPI flavour built, at 1 and 2 ranks, RUNS rounds; a round runs
# augur-bench-overhead-<flavour> (CALLS calls per loop, default 2000000) plainly, then with
# BUILD's recorder preloaded (then with BASE_BUILD's, if given), back to back. Per call and
# round: overhead = recorded - plain of that round; printed: the medians over the rounds.
# Then augur-bench-recorder-breakdown (the recorder linked in, one rank): where the time goes.
# The load average is printed at the start and the end: ns figures under load are not the
# quiet machine's (each rank competes for the cores).
#
# On a shared machine, LOCK=/work/quiet.lock takes that lock (flock) for each round (its plain
# and recorded runs, one flavour and rank count) and for the breakdown, never longer, and runs
# every rank at autogroup nice -20 (tests/simulate/quiet_rank.sh): the other jobs that honour
# the lock wait, the rest get a few percent of the CPUs.
set -eu
BUILD=$(cd "${1:-build}" && pwd)
R=${2:-7}
BASE=""
[ $# -ge 3 ] && BASE=$(cd "$3" && pwd)
. "$(dirname "$0")/../../scripts/mpi-env.sh"
. "$(dirname "$0")/../lib.sh"
QUIET=""
if [ -n "${LOCK:-}" ]; then
  command -v flock >/dev/null || { echo "cost.sh: LOCK given but flock is missing" >&2; exit 2; }
  # setsid: each rank leads its own session, which quiet_rank.sh needs (hydra does that
  # already, Open MPI's launcher does not)
  QUIET="setsid -w sh $(cd "$(dirname "$0")/../../tests/simulate" && pwd)/quiet_rank.sh"
fi
# lock / unlock: LOCK held on descriptor 9 (nothing without LOCK)
lock() { [ -z "${LOCK:-}" ] || { exec 9>>"$LOCK" && flock 9; }; }
unlock() { [ -z "${LOCK:-}" ] || exec 9>&-; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
jget() { sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p"; }
CALLS=${CALLS:-2000000}
LOOPS="iprobe test_null test_pending"

# run FLAVOUR RANKS LIBDIR|-: one run, its three ns-per-call figures to $TMP/<cfg>.<loop>
run() {
  cfg=$4
  rm -rf "$TMP/ov.augur"
  if [ "$3" = - ]; then
    out=$("mpiexec.$1" -n "$2" $QUIET "$BUILD/bin/augur-bench-overhead-$1" -n "$CALLS" --json)
  else
    out=$(env AUGUR_TRACE_DIR="$TMP/ov.augur" LD_PRELOAD="$3/lib/libaugur-mpi-$1.so" \
      "mpiexec.$1" -n "$2" $QUIET "$BUILD/bin/augur-bench-overhead-$1" -n "$CALLS" --json)
  fi
  for l in $LOOPS; do
    echo "$out" | jget "${l}_ns_per_call" >>"$TMP/$cfg.$l"
  done
}

echo "augur bench/recorder/cost.sh: $R rounds, $CALLS calls per loop, $(nproc) cores"
echo "  build $BUILD${BASE:+
  base  $BASE}"
echo "  load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
if [ -n "$BASE" ]; then
  printf '%-8s %5s  %-14s %8s %9s %9s %9s\n' mpi ranks call "plain" recorded overhead "base ovh"
else
  printf '%-8s %5s  %-14s %8s %9s %9s\n' mpi ranks call "plain" recorded overhead
fi
for F in mpich openmpi; do
  [ -x "$BUILD/bin/augur-bench-overhead-$F" ] || continue
  for N in 1 2; do
    rm -f "$TMP"/p.* "$TMP"/r.* "$TMP"/b.*
    i=0
    while [ "$i" -lt "$R" ]; do
      lock
      run "$F" "$N" - p
      run "$F" "$N" "$BUILD" r
      [ -z "$BASE" ] || run "$F" "$N" "$BASE" b
      unlock
      i=$((i + 1))
    done
    for l in $LOOPS; do
      paste "$TMP/r.$l" "$TMP/p.$l" | awk '{ print $1 - $2 }' >"$TMP/d.$l"
      line=$(printf '%-8s %5s  %-14s %8.1f %9.1f %+9.1f' "$F" "$N" "$l" \
        "$(median <"$TMP/p.$l")" "$(median <"$TMP/r.$l")" "$(median <"$TMP/d.$l")")
      if [ -n "$BASE" ]; then
        paste "$TMP/b.$l" "$TMP/p.$l" | awk '{ print $1 - $2 }' >"$TMP/e.$l"
        line="$line $(printf '%+9.1f' "$(median <"$TMP/e.$l")")"
      fi
      echo "$line"
    done
  done
done
echo "(overhead: median over rounds of recorded - plain ns per call; goal <= 35 ns)"
echo
if [ -x "$BUILD/bin/augur-bench-recorder-breakdown" ]; then
  rm -rf "$TMP/bd.augur"
  lock
  AUGUR_TRACE_DIR="$TMP/bd.augur" $QUIET \
    "$BUILD/bin/augur-bench-recorder-breakdown" -r "$R" \
    -n "$((CALLS / 4))"
  unlock
fi
echo
echo "  load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
