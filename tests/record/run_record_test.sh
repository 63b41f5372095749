#!/bin/sh
# Runs one recorder test: records PROG under the recorder LIB with MPIEXEC on
# N ranks into TRACE, then runs the checker on the trace.
#
#   run_record_test.sh MPIEXEC N LIB PROG TRACE EXIT CHECKER ARGS...
#
# EXIT: "ok" = the MPI job must succeed, "abort" = it must fail (MPI_Abort),
# "any" = either (a job without MPI_Finalize: Open MPI's mpiexec fails it).
# Extra recorder settings (AUGUR_COUNTERS, ...) come from the environment.
# A finished run (EXIT ok) must have compressed rank files (codecs.py).
# An argument @EXSCAN_LINE@ is replaced by the line of AUGUR_MARK_EXSCAN in
# rec_basic.c (next to this script).
set -u
mpiexec=$1 n=$2 lib=$3 prog=$4 trace=$5 want=$6
shift 6
here=$(cd "$(dirname "$0")" && pwd)
line=$(grep -n AUGUR_MARK_EXSCAN "$here/rec_basic.c" | cut -d: -f1)

# Open MPI as root, 4 ranks on 2 cores, containers without CMA.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none

rm -rf "$trace"
timeout 120 env LD_PRELOAD="$lib" AUGUR_TRACE_DIR="$trace" "$mpiexec" -n "$n" "$prog" \
  >"$trace.out" 2>&1
rc=$?
if [ "$want" = ok ] && [ $rc -ne 0 ]; then
  echo "FAIL: $prog exited with $rc:"; cat "$trace.out"; exit 1
fi
if [ "$want" = abort ] && [ $rc -eq 0 ]; then
  echo "FAIL: $prog should have aborted"; cat "$trace.out"; exit 1
fi
if [ $rc -eq 124 ]; then
  echo "FAIL: $prog timed out"; cat "$trace.out"; exit 1
fi

# A finished run's rank files were compressed at close (codecs.py).
if [ "$want" = ok ]; then
  python3 "$here/codecs.py" "$trace" zstd || exit 1
fi

checker=$1
shift
set -- "$@"
args=""
for a in "$@"; do
  [ "$a" = "@EXSCAN_LINE@" ] && a=$line
  args="$args $a"
done
# shellcheck disable=SC2086
exec "$checker" $args
