# Sourced by the bench/*/ scripts: small helpers for figures from one run.
# median: the median of the numbers on stdin, one per line.
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
# now: wall-clock seconds with nanoseconds.
now() { date +%s.%N; }
# calc EXPR: awk arithmetic, e.g. calc "($b - $a) * 1000".
calc() { awk "BEGIN { print $1 }"; }
# cgroup_wrapper QUOTA DIR: a cgroup with a CPU quota of QUOTA CPUs per
# 0.1 s period (v1 cpu controller, else v2) in CG, and DIR/incgroup, a
# wrapper that enters it and runs its arguments, in CGW (CG and CGW stay
# empty when this machine gives no writable cgroup). The caller removes
# CG when done (rmdir).
CG=""
CGW=""
cgroup_wrapper() {
  quota=$(awk "BEGIN { printf \"%d\", $1 * 100000 }")
  if [ -d /sys/fs/cgroup/cpu ] && mkdir "/sys/fs/cgroup/cpu/augur-bench-$$" 2>/dev/null; then
    CG="/sys/fs/cgroup/cpu/augur-bench-$$"
    { echo 100000 >"$CG/cpu.cfs_period_us" && echo "$quota" >"$CG/cpu.cfs_quota_us"; } 2>/dev/null ||
      return 0
  elif grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null &&
    mkdir "/sys/fs/cgroup/augur-bench-$$" 2>/dev/null; then
    CG="/sys/fs/cgroup/augur-bench-$$"
    echo "$quota 100000" >"$CG/cpu.max" 2>/dev/null || return 0
  else
    return 0
  fi
  printf '#!/bin/sh\necho $$ >"%s/cgroup.procs" && exec "$@"\n' "$CG" >"$2/incgroup"
  chmod +x "$2/incgroup"
  CGW="$2/incgroup"
}
