#!/bin/sh
# The preloaded libraries hide themselves (issue 23, docs/design.md "Symbol
# visibility"): every symbol libaugur-mpi*.so and libaugur-profile*.so add to
# a traced process's dynamic symbol table is an entry point they interpose on
# purpose, so none of augur's own functions or data can clash with the
# application's or be called by it. Allowed:
#   - MPI entry points: functions named MPI_*, PMPI_* (C, and the upper-case
#     Fortran spelling MPI_SEND) or mpi_*, pmpi_* (the other Fortran ones);
#   - tool hooks: ompt_start_tool;
#   - functions of the C library the library is linked against, by the same
#     name: interposition (kill, open, execve, ...).
# Anything else fails the test, named.
#
#   exports.sh [--require NAME]... LIB...
#     --require NAME  NAME must be exported by every LIB that follows
set -u
failures=0
require=""
while [ $# -gt 0 ]; do
  case $1 in
  --require) require="$require $2"; shift 2 ;;
  *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: exports.sh [--require NAME]... LIB..." >&2; exit 2; }
command -v nm >/dev/null || { echo "exports.sh: nm not found (binutils)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

for lib in "$@"; do
  [ -f "$lib" ] || { echo "FAIL: $lib: no such library"; failures=$((failures + 1)); continue; }
  libc=$(ldd "$lib" | awk '$1 ~ /^libc\.so/ { print $3 }')
  [ -f "$libc" ] || { echo "FAIL: $lib: cannot find its C library (ldd)"; failures=$((failures + 1)); continue; }
  # "ADDRESS TYPE NAME", NAME possibly with @VERSION.
  nm -D --defined-only "$lib" | awk 'NF == 3 { sub(/@.*/, "", $3); print $2, $3 }' | sort -u >"$tmp/exports" ||
    { echo "FAIL: $lib: nm failed"; failures=$((failures + 1)); continue; }
  if [ "$libc" != "${libc_done:-}" ]; then # the same C library for every LIB, usually
    nm -D --defined-only "$libc" | awk 'NF == 3 && $2 ~ /^[TWi]$/ { sub(/@.*/, "", $3); print $3 }' |
      sort -u >"$tmp/libc"
    libc_done=$libc
  fi
  bad=$(awk -v libc="$tmp/libc" '
    BEGIN { while ((getline n < libc) > 0) fn[n] = 1 }
    {
      func_ = ($1 ~ /^[TWi]$/)
      if (func_ && ($2 ~ /^P?MPI_[A-Za-z0-9_]+$/ || $2 ~ /^p?mpi_[a-z0-9_]+$/)) next
      if (func_ && $2 == "ompt_start_tool") next
      if (func_ && ($2 in fn)) next
      printf " %s(%s)", $2, $1
    }' "$tmp/exports")
  n=$(wc -l <"$tmp/exports")
  if [ -n "$bad" ]; then
    echo "FAIL: $lib exports $(echo $bad | wc -w) symbol(s) that are not MPI entry points, tool hooks or interposed C library functions:$bad"
    failures=$((failures + 1))
  fi
  for name in $require; do
    grep -q " $name\$" "$tmp/exports" || {
      echo "FAIL: $lib does not export $name (hidden by visibility or the version script?)"
      failures=$((failures + 1))
    }
  done
  [ -z "$bad" ] && echo "$lib: $n exported symbols, all entry points"
done
[ "$failures" -eq 0 ] || exit 1
echo "exports: ok"
