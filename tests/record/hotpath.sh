#!/bin/sh
# The recorder's per-call functions stay free of string instructions and of
# calls to memset/memcpy (issue 28 item 4, bench/recorder/README.md): GCC -O2
# compiled aug_rec_enter's memset of the event into `rep stos`, whose start-up
# (~30 cycles on AMD Zen) cost more than the rest of the event fill. Checks
# the disassembly of each function below in every LIB given.
#
# And the C wrappers in WRAPPERS run the recorder's common case inline (third
# round, rec_internal.h aug_rec_begin ...): their fall-through path, from the
# entry to the first `ret` (GCC lays the unlikely branches out after it),
# calls none of aug_rec_enter/exit/commit (before, each wrapper called the
# three, each reloading the thread state), holds no string instruction, and
# loads no 16-byte vector from its stack frame: the record is filled in the
# thread buffer's next slot, not staged on the stack and copied at commit.
# MPI_Iprobe's fall-through path calls PMPI_Iprobe and nothing else (the fill
# of a record on MPI_COMM_WORLD is inline too: aug_fill_p2p_dir).
#
#   hotpath.sh LIB...
set -u
FUNCS="aug_rec_enter aug_rec_exit aug_rec_commit"
WRAPPERS="MPI_Iprobe MPI_Test MPI_Send MPI_Irecv MPI_Allreduce"
command -v objdump >/dev/null || { echo "hotpath.sh: objdump not found (binutils)"; exit 1; }
failures=0
for lib in "$@"; do
  dis=$(objdump -d --no-show-raw-insn "$lib")
  for f in $FUNCS; do
    body=$(printf '%s\n' "$dis" | awk -v f="<$f>:" '$2 == f { on = 1; next } on && /^$/ { exit } on')
    if [ -z "$body" ]; then
      echo "FAIL $lib: $f not found in the disassembly"
      failures=$((failures + 1))
      continue
    fi
    bad=$(printf '%s\n' "$body" | grep -E 'rep[a-z]* +(stos|movs)|call.*<(memset|memcpy|memmove)' || true)
    if [ -n "$bad" ]; then
      echo "FAIL $lib: $f:"
      printf '%s\n' "$bad" | sed 's/^/  /'
      failures=$((failures + 1))
    fi
  done
  for f in $WRAPPERS; do
    path=$(printf '%s\n' "$dis" |
      awk -v f="<$f>:" '$2 == f { on = 1; next } on && /^$/ { exit } on { print } on && $2 ~ /^ret/ { exit }')
    if [ -z "$path" ]; then
      echo "FAIL $lib: $f not found in the disassembly"
      failures=$((failures + 1))
      continue
    fi
    bad=$(printf '%s\n' "$path" |
      grep -E 'rep[a-z]* +(stos|movs)|call.*<(memset|memcpy|memmove|aug_rec_enter|aug_rec_exit|aug_rec_commit)[@>]|mov[a-z]* +(0x[0-9a-f]+)?\(%rsp\),%xmm' ||
      true)
    if [ -n "$bad" ]; then
      echo "FAIL $lib: $f (fall-through path):"
      printf '%s\n' "$bad" | sed 's/^/  /'
      failures=$((failures + 1))
    fi
  done
  calls=$(printf '%s\n' "$dis" |
    awk '$2 == "<MPI_Iprobe>:" { on = 1; next } on && /^$/ { exit } on { print } on && $2 ~ /^ret/ { exit }' |
    grep -E '\<call' | grep -v '<PMPI_Iprobe@plt>' || true)
  if [ -n "$calls" ]; then
    echo "FAIL $lib: MPI_Iprobe (fall-through path) calls more than PMPI_Iprobe:"
    printf '%s\n' "$calls" | sed 's/^/  /'
    failures=$((failures + 1))
  fi
done
[ "$failures" -eq 0 ] && echo "hotpath: $FUNCS clean, $WRAPPERS inline in $# libraries"
[ "$failures" -eq 0 ]
