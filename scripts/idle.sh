#!/bin/sh
# idle.sh CMD...: runs CMD on the CPU time nothing else wants (make check
# builds the ASan and fuzz trees this way while the release tests run, which
# leave about half of the 2 cores idle: docs/design.md "The test suite").
# Its own session whose autogroup is at nice 19 (with autogrouping the kernel
# shares the CPUs between sessions first, and MPI ranks run in sessions of
# their own), then SCHED_IDLE and nice 19 inside it: a test's process that
# wakes up takes the CPU back at once. Where a step is not allowed the
# command still runs, only at a normal priority.
if [ "${AUGUR_IDLE_SESSION:-}" != 1 ]; then
  AUGUR_IDLE_SESSION=1 exec setsid -w sh "$0" "$@"
fi
echo 19 >/proc/self/autogroup 2>/dev/null
if chrt -i 0 true 2>/dev/null; then
  exec chrt -i 0 nice -n 19 "$@"
fi
exec nice -n 19 "$@"
