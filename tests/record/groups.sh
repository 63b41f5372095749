#!/bin/sh
# Parents with more sub-records than the thread buffer holds (issue 28 item 4,
# third round): tests/record/rec_groups.c recorded with 16-record buffers
# (room for 80 records), on 2 ranks. Each rank's trace must hold its 12
# Waitalls with 2 k COMPLETION sub-records each (k = 30 + 20 i, so 60 .. 500),
# k of them receives of 4 bytes with tag i, and the 30 + 20 i Irecv and
# Isend of round i before them.
#
#   groups.sh MPICC MPIEXEC LIB AUGUR OUT
set -u
mpicc=$1 mpiexec=$2 lib=$3 augur=$4 out=$5
. "$(dirname "$0")/lib.sh"
prog="$out/rec_groups"
t="$out/groups.augur"
rm -rf "$t"
"$mpicc" -std=c11 -g -O0 -Wall -o "$prog" "$(dirname "$0")/rec_groups.c" || {
  echo "FAIL: $mpicc rec_groups.c"; exit 1; }
AUGUR_BUFFER_EVENTS=16 AUGUR_COUNTERS=none AUGUR_TRACE_DIR="$t" LD_PRELOAD="$lib" \
  timeout 120 "$mpiexec" -n 2 "$prog" >"$out/groups.out" 2>&1 || {
  echo "FAIL: record: $(cat "$out/groups.out")"; exit 1; }
"$augur" dump "$t" >"$out/groups.dump" 2>"$out/groups.err" || {
  echo "FAIL: augur dump: $(cat "$out/groups.err")"; exit 1; }
for r in 0 1; do
  # parents: time dur unit rank thr call ...; sub-records: time rank thr COMPLETION[j] comm peer tag bytes bytes_recv req
  got=$(awk -v r="$r" '
    $6 == "MPI_Waitall" { on = ($4 == r); if (on) { w++; c[w] = 0; rv[w] = 0 } next }
    $4 ~ /^COMPLETION\[/ { if (on && $2 == r) { c[w]++; if ($7 == w - 1 && $9 == 4) rv[w]++ } next }
    $6 ~ /^MPI_I(recv|send)$/ && $4 == r { if ($9 == w) p[w + 1]++ }
    { on = 0 }
    END { for (i = 1; i <= w; i++) printf "%d/%d/%d ", c[i], rv[i], p[i]; print "" }' "$out/groups.dump")
  want=$(awk 'BEGIN { for (i = 0; i < 12; i++) printf "%d/%d/%d ", 2 * (30 + 20 * i), 30 + 20 * i, 2 * (30 + 20 * i); print "" }')
  [ "$got" = "$want" ] || fail "rank $r: Waitall completions/receives of tag i/Irecv+Isend of round i:
  got  $got
  want $want"
done
[ "$fails" -eq 0 ] && echo "groups: 12 Waitalls of 60..500 requests whole on 2 ranks (16-record buffers)"
[ "$fails" -eq 0 ]
