#!/bin/sh
# Every AUG_PREFETCH of the sources is in the optimised binary (issue 27, bench/scale/README.md
# stop 45): GCC's IPA judged a static helper whose only effect was __builtin_prefetch pure and
# deleted its calls as dead code, so the merged stream's "prefetch the next winner" and the
# simulator's ready_prefetch were no-ops for weeks while their comments said otherwise (once
# alive, ready_prefetch made simulate slower and was deleted).
# src/core/prefetch.h now adds an empty volatile asm. Checks that each function below, in the
# augur binary given, holds at least one prefetch instruction.
#
#   prefetch.sh AUGUR_BINARY
set -u
command -v objdump >/dev/null || { echo "prefetch.sh: objdump not found (binutils)"; exit 1; }
FUNCS="augur_stream_next augur_diagnose"
dis=$(objdump -d --no-show-raw-insn "$1")
failures=0
for f in $FUNCS; do
  n=$(printf '%s\n' "$dis" | awk -v f="<$f>:" '$2 == f { on = 1; next } on && /^$/ { exit } on && /prefetch/ { n++ } END { print n + 0 }')
  if [ "$n" -eq 0 ]; then
    echo "FAIL $f: no prefetch instruction (its AUG_PREFETCH calls were optimised away)"
    failures=$((failures + 1))
  else
    echo "ok   $f: $n prefetch instructions"
  fi
done
# the simulator's loop (sim_run, or its outlined part): the next event's slot, and its receiver's
# state through the helper rrun_prefetch (a helper of prefetches only, the case GCC deleted)
n=$(printf '%s\n' "$dis" | awk '/^[0-9a-f]+ <sim_run[.>]/ { on = 1; next } on && /^$/ { on = 0 } on && /prefetch/ { n++ } END { print n + 0 }')
if [ "$n" -lt 2 ]; then
  echo "FAIL sim_run: $n prefetch instructions, want at least 2 (the next event's slot and rank)"
  failures=$((failures + 1))
else
  echo "ok   sim_run: $n prefetch instructions"
fi
exit $failures
