#!/bin/sh
# The recorder's writer thread (AUGUR_FLUSH; src/record/rec_thread.c, docs/design.md
# "Recorder cost"): full buffers written off the calling thread lose nothing and change
# nothing, and the auto mode uses the thread only where a CPU is to spare.
#
#   flush_thread.sh MPICC MPIEXEC LIB AUGUR OUT PROGDIR CHECKER
#
# 1. rec_flushmode.c (Iprobe loop) at 2 ranks with 16-record buffers: AUGUR_FLUSH=thread
#    has the "augur-writer" thread before MPI_Finalize and none after, and its trace
#    equals (augur dump, times cut off) the one AUGUR_FLUSH=inline writes, which has no
#    writer thread; auto has none with as many ranks as CPUs, and one at 1 rank when the
#    rank may run on more than 1 CPU; a bad value is said in one line and taken as auto.
# 2. rec_basic (payload hashing), rec_more and rec_threads (4 threads) with the writer
#    thread forced and 16-record buffers: their checkers' exact expectations; rec_basic's and
#    rec_more's dumps hold the same records as the inline recordings' (see dumped).
set -u
mpicc=$1 mpiexec=$2 lib=$3 augur=$4 out=$5 progs=$6 chk=$7
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
export AUGUR_COUNTERS=none AUGUR_BUFFER_EVENTS=16
d="$out/flush"
rm -rf "$d" && mkdir -p "$d"
prog="$d/rec_flushmode"
"$mpicc" -std=c11 -g -O0 -Wall -o "$prog" "$here/rec_flushmode.c" || {
  echo "FAIL: $mpicc rec_flushmode.c"; exit 1; }

# rec NAME N MODE PROG ARGS...: records into $d/NAME.augur, output in $d/NAME.out
rec() {
  name=$1 n=$2 mode=$3 p=$4
  shift 4
  rm -rf "$d/$name.augur"
  env AUGUR_FLUSH="$mode" AUGUR_TRACE_DIR="$d/$name.augur" LD_PRELOAD="$lib" \
    timeout 120 "$mpiexec" -n "$n" "$p" "$@" >"$d/$name.out" 2>"$d/$name.err" || {
    fail "$name: the program failed: $(cat "$d/$name.out" "$d/$name.err")"; return 1; }
}
# dumped NAME [set]: the trace's records without their times (the parents' first three fields,
# time and duration with its unit; the sub-records' first, time), rank 0's then rank 1's, each
# in its order with repeated lines once (polling loops poll as often as their timing makes
# them); with "set", each rank's distinct records sorted, request ids masked, polling calls
# left out (not their completions): which request a Waitany completes first, how often a
# probe or test finds nothing and Open MPI's request ids (addresses) change from run to run
# (the checkers check those records exactly).
dumped() {
  for r in 0 1; do
    "$augur" dump "$d/$1.augur" --rank $r 2>"$d/$1.dumperr" |
      awk -v set="${2:-}" '/^ *time/ { next }
           set && $6 ~ /^MPI_(Iprobe|Improbe|Test|Testany|Testall|Testsome)$/ { next }
           $3 ~ /^(ns|us|ms|s)$/ { $1 = $2 = $3 = ""; if (set) $12 = "-"; print; next }
           { $1 = ""; if (set) $10 = "-"; print }' >"$d/$1.dump.$r"
    if [ -n "${2:-}" ]; then sort -u "$d/$1.dump.$r"; else uniq "$d/$1.dump.$r"; fi
  done >"$d/$1.dump"
  [ -s "$d/$1.dump" ] || fail "$1: augur dump printed nothing: $(cat "$d/$1.dumperr")"
}
writers() { # writers NAME: "W/A" per rank, sorted (writer after Init / after Finalize)
  awk '$1 == "rank" { print $6 "/" $8 }' "$d/$1.out" | sort | tr '\n' ' '
}

# 1. the Iprobe loop
rec thread 2 thread "$prog" 20000 && rec inline 2 inline "$prog" 20000 && {
  [ "$(writers thread)" = "1/0 1/0 " ] || fail "thread: writer threads '$(writers thread)', want '1/0 1/0'"
  [ "$(writers inline)" = "0/0 0/0 " ] || fail "inline: writer threads '$(writers inline)', want '0/0 0/0'"
  dumped thread
  dumped inline
  cmp -s "$d/thread.dump" "$d/inline.dump" ||
    fail "thread and inline traces differ: $(diff "$d/thread.dump" "$d/inline.dump" | head -5)"
  probes=$("$augur" dump "$d/thread.augur" | grep -c "MPI_Iprobe")
  [ "$probes" -eq 40000 ] || fail "thread: $probes MPI_Iprobe records, want 40000"
}
ncpu=$(nproc)
rec auto_full "$ncpu" auto "$prog" 2000 && {
  w=$(writers auto_full | tr ' ' '\n' | grep -c '^1/')
  [ "$w" -eq 0 ] || fail "auto with $ncpu ranks on $ncpu CPUs: $w writer threads, want none"
}
rec auto_one 1 auto "$prog" 2000 && {
  cpus=$(awk '$1 == "rank" { print $4 }' "$d/auto_one.out")
  want="0/0 "
  [ "${cpus:-0}" -gt 1 ] && want="1/0 "
  [ "$(writers auto_one)" = "$want" ] ||
    fail "auto, 1 rank on $cpus CPUs: writer threads '$(writers auto_one)', want '$want'"
}
rec bad 1 sideways "$prog" 2000 && {
  grep -q "^augur: AUGUR_FLUSH=sideways: expected thread, inline or auto, using auto$" "$d/bad.err" ||
    fail "AUGUR_FLUSH=sideways: no one-line error: $(cat "$d/bad.err")"
  [ "$(writers bad)" = "$(writers auto_one)" ] || fail "AUGUR_FLUSH=sideways: not taken as auto"
}

# 2. the record tests' programs, exact, with the writer thread forced
line=$(grep -n AUGUR_MARK_EXSCAN "$here/rec_basic.c" | cut -d: -f1)
same() { # same NAME: its trace and NAME_inline's hold the same records (dumped set)
  dumped "$1" set
  dumped "$1_inline" set
  cmp -s "$d/$1.dump" "$d/$1_inline.dump" ||
    fail "$1: thread and inline traces differ: $(diff "$d/$1.dump" "$d/$1_inline.dump" | head -5)"
}
AUGUR_PAYLOAD_HASH=1 rec basic 2 thread "$progs/rec_basic" &&
  { "$chk" basic "$d/basic.augur" 2 "$line" --hash >"$d/basic.chk" 2>&1 ||
    fail "rec_basic: $(tail -5 "$d/basic.chk")"; }
AUGUR_PAYLOAD_HASH=1 rec basic_inline 2 inline "$progs/rec_basic" && same basic
rec more 2 thread "$progs/rec_more" &&
  { "$chk" more "$d/more.augur" 2 >"$d/more.chk" 2>&1 || fail "rec_more: $(tail -5 "$d/more.chk")"; }
rec more_inline 2 inline "$progs/rec_more" && same more
rec threads 2 thread "$progs/rec_threads" &&
  { "$chk" threads "$d/threads.augur" 2 >"$d/threads.chk" 2>&1 ||
    fail "rec_threads: $(tail -5 "$d/threads.chk")"; }
[ "$fails" -eq 0 ] && echo "flush_thread: the writer thread's traces are whole and equal the inline ones"
[ "$fails" -eq 0 ]
