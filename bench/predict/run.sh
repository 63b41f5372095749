#!/bin/sh
# bench/predict: PAS2P prediction quality (issue 4). For each app and
# condition: record a base trace, build its signature, then alternate full
# runs (AET: wall time of `mpiexec ... app`) and signature runs (`augur
# predict`: PET, SET), RUNS times each, so both see the same machine load.
# Prints per pair and the means: AET, PET, PETE % = |AET - PET| / AET, SET,
# SET/AET %. The machine may be shared: every figure is a wall time.
# Issue 4 step 6, "signature built once, run anywhere": the conditions marked
# [base: mpich] reuse the signature of a plain MPICH run and predict the run
# under another condition -- another placement (ranks bound to cores), fewer
# cores (taskset), a CPU quota (a cgroup), or the Open MPI build of the same
# program (the signature is then --portable: call sites differ between builds).
# Usage: bench/predict/run.sh [BUILD_DIR]
#   env: ITERS (MPICH iterations, default 1000), OMPI_ITERS (4000), RUNS (3), NP (4),
#        IRR_ITERS (pas2p_irregular iterations, 700: a full run of 20-30 s),
#        QUOTA (CPUs of the cgroup condition, 1.5),
#        ONLY (run only the conditions whose label contains it)
# The irregular app is predicted twice: from a global-mode signature and from
# an irregular-mode one (`augur signature --irregular`, docs/signature.md).
set -eu
. "$(dirname "$0")/../lib.sh"
BUILD=$(cd "${1:-build}" && pwd)
AUGUR="$BUILD/bin/augur"
ITERS=${ITERS:-1000}
OMPI_ITERS=${OMPI_ITERS:-4000}
IRR_ITERS=${IRR_ITERS:-700}
QUOTA=${QUOTA:-1.5}
RUNS=${RUNS:-3}
NP=${NP:-4}
ONLY=${ONLY:-}
[ -x "$AUGUR" ] || { echo "bench/predict: build augur first"; exit 1; }
# Open MPI as root on an oversubscribed VM (docs: common rules).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
W=$(mktemp -d "${TMPDIR:-/tmp}/augur-bench-predict.XXXXXX")
trap '[ -n "$CG" ] && rmdir "$CG" 2>/dev/null; rm -rf "$W"' EXIT

now() { python3 -c 'import time; print("%.6f" % time.monotonic())'; }

echo "augur bench/predict  ($NP ranks, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-44s %4s %9s %9s %7s %8s %8s %6s\n' app run AET_s PET_s PETE_% SET_s SET/AET% load
# condition: label | base flavour | run flavour | wrapper | mpiexec options | app arguments
# ("-" = none). The base trace is recorded by a plain run of the base flavour's
# build; the runs use the run flavour's build, under the wrapper.
cgroup_wrapper "$QUOTA" "$W"
for spec in "pas2p_solver mpich|mpich|mpich|-|-|-n $ITERS" \
  "pas2p_solver -c 40 mpich|mpich|mpich|-|-|-n $ITERS -c 40" \
  "pas2p_solver openmpi|openmpi|openmpi|-|-|-n $OMPI_ITERS" \
  "pas2p_irregular mpich|mpich|mpich|-|-|-n $IRR_ITERS" \
  "pas2p_irregular --irregular mpich|mpich|mpich|-|-|-n $IRR_ITERS" \
  "pas2p_solver bind-to core [base: mpich]|mpich|mpich|-|-bind-to core|-n $ITERS" \
  "pas2p_solver taskset 1 core [base: mpich]|mpich|mpich|taskset -c 0|-|-n $ITERS" \
  "pas2p_solver quota $QUOTA CPU [base: mpich]|mpich|mpich|${CGW:-none}|-|-n $ITERS" \
  "pas2p_solver openmpi [base: mpich]|mpich|openmpi|-|-|-n $ITERS"; do
  name=${spec%%|*}
  rest=${spec#*|}
  base=${rest%%|*}
  rest=${rest#*|}
  flavour=${rest%%|*}
  rest=${rest#*|}
  wrap=${rest%%|*}
  rest=${rest#*|}
  mopts=${rest%%|*}
  args=${rest#*|}
  [ "$wrap" = "-" ] && wrap=""
  [ "$mopts" = "-" ] && mopts=""
  case "$name" in *"$ONLY"*) ;; *) continue ;; esac
  [ "$wrap" = none ] && { echo "$name: no writable cgroup, skipped"; continue; }
  MPIEXEC=mpiexec.$flavour
  APP="$BUILD/apps/$flavour/${name%% *}"
  BASE_APP="$BUILD/apps/$base/${name%% *}"
  [ -x "$APP" ] && [ -x "$BASE_APP" ] && command -v "$MPIEXEC" >/dev/null ||
    { echo "$name: not built, skipped"; continue; }
  sigopt=""
  [ "$base" != "$flavour" ] && sigopt=--portable
  case "$name" in *--irregular*) sigopt=--irregular ;; esac
  # shellcheck disable=SC2086
  "$AUGUR" record -o "$W/base.augur" -- "mpiexec.$base" -n "$NP" "$BASE_APP" $args >/dev/null 2>&1
  "$AUGUR" signature "$W/base.augur" -o "$W/sig" $sigopt >/dev/null
  : >"$W/rows"
  i=1
  while [ "$i" -le "$RUNS" ]; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(now)
    # shellcheck disable=SC2086
    $wrap "$MPIEXEC" $mopts -n "$NP" "$APP" $args >/dev/null
    t1=$(now)
    # shellcheck disable=SC2086
    "$AUGUR" predict --json --signature "$W/sig" -- $wrap "$MPIEXEC" $mopts -n "$NP" "$APP" $args \
      2>/dev/null | grep '^{' >"$W/p.json"
    python3 - "$t0" "$t1" "$W/p.json" "$name" "$i" "$load" >>"$W/rows" <<'PY'
import json, sys
t0, t1, path, name, i, load = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
d = json.load(open(path))
aet, pet, set_ = t1 - t0, d["pet_seconds"], d["set_seconds"]
print("%s|%s|%.3f|%.3f|%.2f|%.3f|%.2f|%s" % (name, i, aet, pet, 100 * abs(aet - pet) / aet, set_, 100 * set_ / aet, load))
PY
    i=$((i + 1))
  done
  python3 - "$W/rows" <<'PY'
import sys
rows = [l.strip().split("|") for l in open(sys.argv[1]) if l.strip()]
for r in rows:
    print("%-44s %4s %9s %9s %7s %8s %8s %6s" % tuple(r))
m = lambda k: sum(float(r[k]) for r in rows) / len(rows)
print("%-44s %4s %9.3f %9.3f %7.2f %8.3f %8.2f" % (rows[0][0], "mean", m(2), m(3), m(4), m(5), m(6)))
PY
done
echo
echo "AET: wall time of the plain run; PET: augur predict's prediction of it (launch + phases x"
echo "weights + the rest); SET: wall time of the signature run; PETE: |AET - PET| / AET;"
echo "load: 1-minute load average when the pair started (other jobs share the cores)."
