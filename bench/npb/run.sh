#!/bin/sh
# bench/npb: the NAS Parallel Benchmarks (NPB 3.3/3.3.1/3.4 MPI) as augur's
# public validation suite (issue 21). Builds the kernels from a source tree
# the user points at (never copied into this repository; e.g. the public
# mirror github.com/mbdevpl/nas-parallel-benchmarks) with MPICH and Open MPI,
# then for each kernel and MPI:
#   - a plain run (AET, and NPB's own verification);
#   - two recordings of the same run (augur record; NPB must still verify);
#   - report, diagnose (its top finding), phases of recording 1;
#   - a signature of each recording: identical in phases and weights? (y/n);
#   - RUNS pairs of a full run (AET) and a signature run (augur predict: PET,
#     SET): PETE = |PET - AET| / AET and SET / AET, means over the pairs;
#   - calibrate (once per MPI, CORES ranks) + simulate of recording 1: error
#     against the recorded run; and a recording with 2 x CORES ranks
#     (oversubscribed) simulated with --cores CORES (the detected cores) and
#     without (what the model says by itself);
#   - the exports (otf2, chrome, paraver, simgrid): exit status and size.
# Every command runs under a watchdog (timeout): a hang is HANG in the table.
# Prints one table (a row per kernel and MPI) and writes it to OUT/npb.csv and
# OUT/npb.md; each step's output stays in OUT/MPI/KERNEL.CLASS.NP/.
#
# Usage: bench/npb/run.sh NPB_DIR [--quick] [AUGUR_BUILD_DIR]
#   NPB_DIR  the NPB MPI tree (NPB3.3-MPI, ...) or a checkout holding one.
#   --quick  smoke run: class S everywhere, RUNS=1 (a few minutes).
#   env: NPB_BUILD (where NPB is built, default /tmp/augur-npb-build),
#        OUT (results, default ./npb-results), MPIS ("mpich openmpi"),
#        KERNELS ("cg mg lu ft is ep bt sp"; optional: btio-full btio-simple,
#        BT with MPI-IO output, collective / independent), RUNS (3),
#        CLASSES (per-kernel class overrides, e.g. "cg=A lu=B"),
#        NP (per-kernel rank counts, e.g. "cg=4"; default 2, LU/BT/SP 4),
#        TIMEOUT (seconds for the first plain run of a kernel, default 1800;
#        later commands get max(120, 6 x that run's time)),
#        SKIP (steps to skip: any of "predict simulate over export"),
#        QUIET (a lock file, e.g. /work/quiet.lock: every run whose time is
#        a figure - plain runs, recordings, signature runs - waits for it
#        (flock, one run per hold, the wait not timed) and runs its ranks at
#        autogroup nice -20: tests/simulate/quiet_rank.sh per MPICH rank,
#        the whole mpirun session with Open MPI).
set -u
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { sed -n '21,35p' "$0"; exit 2; }
NPB_DIR=$1
shift
QUICK=0
if [ "${1:-}" = --quick ]; then
  QUICK=1
  shift
fi
BUILD=$(cd "${1:-build}" && pwd) || exit 2
AUGUR="$BUILD/bin/augur"
[ -x "$AUGUR" ] || { echo "bench/npb: build augur first ($AUGUR)"; exit 1; }
NPB_BUILD=${NPB_BUILD:-/tmp/augur-npb-build}
OUT=${OUT:-npb-results}
MPIS=${MPIS:-mpich openmpi}
KERNELS=${KERNELS:-cg mg lu ft is ep bt sp}
SKIP=${SKIP:-}
TIMEOUT=${TIMEOUT:-1800}
QUIET=${QUIET:-}
CORES=$(nproc)
if [ "$QUICK" = 1 ]; then
  RUNS=${RUNS:-1}
  DEFAULT_CLASSES="cg=S mg=S lu=S ft=S is=S ep=S bt=S sp=S"
else
  RUNS=${RUNS:-3}
  # Class A: 10-60 s runs on the shared 2-core VM (bench/npb/README.md); on
  # an idle machine CG, MG, IS and FT need class B for runs >= 10 s (CLASSES).
  DEFAULT_CLASSES="cg=A mg=A lu=A ft=A is=A ep=A bt=A sp=A"
fi
DEFAULT_NP="cg=2 mg=2 lu=4 ft=2 is=2 ep=2 bt=4 sp=4 btio-full=4 btio-simple=4"
mkdir -p "$OUT" "$NPB_BUILD"
OUT=$(cd "$OUT" && pwd)
# Open MPI as root on an oversubscribed VM (docs: common rules).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
skipped() { case " $SKIP " in *" $1 "*) return 0 ;; esac; return 1; }

# lookup KEY "k=v k=v" DEFAULT: the value of KEY in the list.
lookup() {
  for kv in $2; do
    [ "${kv%%=*}" = "$1" ] && { echo "${kv#*=}"; return; }
  done
  echo "$3"
}

# wd SECONDS LOG CMD...: CMD under a watchdog, stdout and stderr to LOG.
# Sets ST (ok, HANG when the watchdog ended it, FAIL(rc)) and ELAPSED (s).
wd() {
  _t=$1 _log=$2
  shift 2
  _t0=$(now)
  timeout -k 10 "$_t" "$@" >"$_log" 2>&1 </dev/null
  _rc=$?
  ELAPSED=$(calc "$(now) - $_t0")
  case $_rc in
    0) ST=ok ;;
    124 | 137) ST=HANG ;;
    *) ST="FAIL($_rc)" ;;
  esac
}

# qwd SECONDS LOG CMD...: wd, and with QUIET the run waits for the lock
# first (not timed) and holds it for this one run only.
qwd() {
  if [ -z "$QUIET" ]; then
    wd "$@"
    return
  fi
  exec 9>>"$QUIET"
  flock 9
  wd "$@" 9>&-
  flock -u 9
  exec 9>&-
}

# The wrappers with QUIET for MPI $1: RANKW before each MPICH rank, SESSW
# (a script in OUT) before the whole command with Open MPI.
quiet_wrappers() {
  RANKW="" SESSW=""
  [ -n "$QUIET" ] || return 0
  case $1 in
    mpich) RANKW="sh $HERE/../../tests/simulate/quiet_rank.sh" ;;
    *)
      SESSW="$OUT/quiet_session.sh"
      printf '#!/bin/sh\nexec setsid -w sh -c '"'"'echo -20 >/proc/self/autogroup 2>/dev/null; exec "$@"'"'"' quiet "$@"\n' >"$SESSW"
      chmod +x "$SESSW"
      ;;
  esac
}

# verified LOG: y when NPB printed its successful verification, else n.
verified() { grep -q 'Verification *= *SUCCESSFUL' "$1" && echo y || echo n; }

# json FILE EXPR: a field of the JSON object on FILE's last line starting
# with "{" (python expression over d), or "-" when there is none.
json() {
  python3 - "$1" "$2" <<'PY'
import json, sys
try:
    line = [l for l in open(sys.argv[1]) if l.startswith("{")][-1]
    d = json.loads(line)
    v = eval(sys.argv[2], {"d": d})
    print("-" if v is None else v)
except Exception:
    print("-")
PY
}

CSV="$OUT/npb.csv"
# row FIELDS: one CSV row for the current MPI and kernel.
row() { echo "$f,$k,$cls,$np,$1" >>"$CSV"; }
echo "mpi,kernel,class,ranks,aet_s,pet_s,pete_pct,set_aet_pct,verified,record,same_phases,sim_pct,sim_aet_pct,over_ranks,sim_over_cores_pct,sim_over_model_pct,diagnose_top,report,phases,nphases,predict,exports" >"$CSV"
echo "augur bench/npb  ($CORES cores, load $(cut -d' ' -f1-3 /proc/loadavg), RUNS=$RUNS, $( [ "$QUICK" = 1 ] && echo quick || echo full)${QUIET:+, quiet: $QUIET})"

for f in $MPIS; do
  command -v "mpiexec.$f" >/dev/null || { echo "$f: mpiexec.$f not found, skipped"; continue; }
  # The machine model: one rank per core.
  MODEL="$OUT/machine.$f.ini"
  rm -f "$MODEL"
  if ! skipped simulate; then
    wd 600 "$OUT/calibrate.$f.log" "$AUGUR" calibrate --mpi "$f" --ranks "$CORES" -o "$MODEL"
    [ "$ST" = ok ] || echo "$f: calibrate $ST (log: $OUT/calibrate.$f.log)"
  fi
  quiet_wrappers "$f"
  for k in $KERNELS; do
    cls=$(lookup "$k" "${CLASSES:-} $DEFAULT_CLASSES" S)
    np=$(lookup "$k" "${NP:-} $DEFAULT_NP" 2)
    name="$k.$cls.$np"
    D="$OUT/$f/$name"
    rm -rf "$D"
    mkdir -p "$D"
    M="mpiexec.$f"
    BIN="$NPB_BUILD/bin-$f/$name"
    over=$((2 * CORES))
    [ "$np" -gt "$CORES" ] && over=-
    [ "$over" != - ] && skipped over && over=skipped
    specs="$k:$cls:$np"
    [ "$over" != - ] && [ "$over" != skipped ] && specs="$specs $k:$cls:$over"
    # shellcheck disable=SC2086
    "$HERE/build.sh" "$NPB_DIR" "$f" "$NPB_BUILD/bin-$f" $specs >"$D/build.log" 2>&1
    if [ ! -x "$BIN" ]; then
      echo "$f $name: build failed ($D/build.log)"
      row "-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,build failed"
      continue
    fi
    # 1. Plain run: AET, NPB verifies its own answer.
    qwd "$TIMEOUT" "$D/plain.out" $SESSW "$M" -n "$np" $RANKW "$BIN"
    aets="$ELAPSED"
    verif=$(verified "$D/plain.out")
    [ "$ST" = ok ] || verif="$ST"
    T=$(calc "($ELAPSED * 6 > 120) ? $ELAPSED * 6 : 120" | cut -d. -f1)
    echo "$f $name: plain run $ST in ${ELAPSED%???} s, verification $verif; watchdog ${T} s"
    # 2. Two recordings of the same run.
    qwd "$T" "$D/record1.log" $SESSW "$AUGUR" record -o "$D/r1.augur" -- "$M" -n "$np" $RANKW "$BIN"
    rec="$ST"
    rv=$(verified "$D/record1.log")
    qwd "$T" "$D/record2.log" $SESSW "$AUGUR" record -o "$D/r2.augur" -- "$M" -n "$np" $RANKW "$BIN"
    [ "$ST" = ok ] || rec="$rec/$ST"
    [ "$rv" = y ] && [ "$(verified "$D/record2.log")" = y ] || verif="$verif/rec:n"
    R1="$D/r1.augur"
    # 3. Report, diagnose, phases.
    wd "$T" "$D/report.json" "$AUGUR" report "$R1" --json
    rep="$ST"
    wd "$T" "$D/diagnose.txt" "$AUGUR" diagnose "$R1"
    wd "$T" "$D/diagnose.json" "$AUGUR" diagnose "$R1" --json
    if [ "$ST" = ok ]; then
      top=$(python3 - "$D/diagnose.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d.get("findings") or []
print("%s %.1f%%" % (f[0]["pattern"], 100 * f[0]["share"]) if f else
      "none (%s below)" % d.get("below_threshold", "?"))
PY
)
    else
      top="$ST"
    fi
    wd "$T" "$D/phases.json" "$AUGUR" phases "$R1" --json
    pha="$ST"
    # Recording 2's phases too: which phases were relevant by share, by loop.
    wd "$T" "$D/phases2.json" "$AUGUR" phases "$D/r2.augur" --json
    nph=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%d/%d" % (d["nrelevant"], d["nphases"]))' "$D/phases.json" 2>/dev/null || echo -)
    # 4. Signatures of both recordings: the same phases and weights?
    wd "$T" "$D/sig1.log" "$AUGUR" signature "$R1" -o "$D/r1.sig"
    s1="$ST"
    wd "$T" "$D/sig2.log" "$AUGUR" signature "$D/r2.augur" -o "$D/r2.sig"
    same=n
    if [ "$s1" = ok ] && [ "$ST" = ok ]; then
      python3 "$HERE/sigcmp.py" "$D/r1.sig" "$D/r2.sig" >"$D/sigcmp.txt" 2>&1 && same=y
    else
      same="sig:$s1/$ST"
    fi
    # 5. RUNS pairs of a full run and a signature run.
    pst=-
    : >"$D/pairs"
    : >"$D/loads"
    if [ "$s1" = ok ] && ! skipped predict; then
      pst=ok
      i=1
      while [ "$i" -le "$RUNS" ]; do
        echo "$i $(cut -d' ' -f1-3 /proc/loadavg) $(date -u +%H:%M:%S)" >>"$D/loads"
        qwd "$T" "$D/aet.$i.out" $SESSW "$M" -n "$np" $RANKW "$BIN"
        aet=$ELAPSED
        [ "$ST" = ok ] || pst="aet:$ST"
        aets="$aets $aet"
        qwd "$T" "$D/predict.$i.out" $SESSW "$AUGUR" predict --json --signature "$D/r1.sig" -- "$M" -n "$np" $RANKW "$BIN"
        if [ "$ST" = ok ]; then
          echo "$aet $(json "$D/predict.$i.out" 'd["pet_seconds"]') $(json "$D/predict.$i.out" 'd["set_seconds"]')" >>"$D/pairs"
        else
          pst="$ST"
        fi
        i=$((i + 1))
      done
    fi
    # 6. Simulate recording 1 on the model; the oversubscribed recording with
    #    the detected cores (--cores) and with the model alone.
    sim=- sima=- simo=- simm=-
    if [ -f "$MODEL" ] && ! skipped simulate; then
      wd "$T" "$D/simulate.json" "$AUGUR" simulate "$R1" --machine "$MODEL" --json
      if [ "$ST" = ok ]; then
        sim=$(json "$D/simulate.json" '"%+.1f" % (100 * (d["predicted_seconds"] - d["measured_seconds"]) / d["measured_seconds"])')
        aetm=$(echo "$aets" | tr ' ' '\n' | median)
        sima=$(json "$D/simulate.json" '"%+.1f" % (100 * (d["predicted_seconds"] - '"$aetm"') / '"$aetm"')')
      else
        sim="$ST"
      fi
      OBIN="$NPB_BUILD/bin-$f/$k.$cls.$over"
      if [ "$over" != - ] && [ -x "$OBIN" ]; then
        wd "$((T * 4))" "$D/record-over.log" "$AUGUR" record -o "$D/over.augur" -- "$M" -n "$over" "$OBIN"
        if [ "$ST" = ok ]; then
          wd "$T" "$D/simulate-over.json" "$AUGUR" simulate "$D/over.augur" --machine "$MODEL" --cores "$CORES" --json
          simo=$(json "$D/simulate-over.json" '"%+.1f" % (100 * (d["predicted_seconds"] - d["measured_seconds"]) / d["measured_seconds"])')
          [ "$ST" = ok ] || simo="$ST"
          wd "$T" "$D/simulate-over-model.json" "$AUGUR" simulate "$D/over.augur" --machine "$MODEL" --json
          simm=$(json "$D/simulate-over-model.json" '"%+.1f" % (100 * (d["predicted_seconds"] - d["measured_seconds"]) / d["measured_seconds"])')
          [ "$ST" = ok ] || simm="$ST"
          rm -rf "$D/over.augur"
        else
          simo="rec:$ST"
        fi
      elif [ "$over" = - ]; then
        # More ranks than cores already: recording 1 is the oversubscribed case.
        over=$np
        simm=$sim
        wd "$T" "$D/simulate-over.json" "$AUGUR" simulate "$R1" --machine "$MODEL" --cores "$CORES" --json
        simo=$(json "$D/simulate-over.json" '"%+.1f" % (100 * (d["predicted_seconds"] - d["measured_seconds"]) / d["measured_seconds"])')
        [ "$ST" = ok ] || simo="$ST"
      fi
    fi
    # 7. Exports: status and size.
    exp=""
    if ! skipped export; then
      for fmt in otf2 chrome paraver simgrid; do
        wd "$T" "$D/$fmt-export.log" "$AUGUR" export "$R1" --format "$fmt" -o "$D/export.$fmt"
        if [ "$ST" = ok ]; then
          # Paraver writes OUT.prv, OUT.pcf, OUT.row: the size of all of them.
          exp="$exp $fmt:$(du -csh "$D/export.$fmt"* | tail -1 | cut -f1)"
        else
          exp="$exp $fmt:$ST"
        fi
        rm -rf "$D/export.$fmt" "$D/export.$fmt".*
      done
    fi
    # The traces are large: keep the signatures and logs only.
    rm -rf "$D/r1.augur" "$D/r2.augur"
    stats=$(python3 - "$D/pairs" <<'PY'
import sys
rows = []
for l in open(sys.argv[1]):
    try:
        a, p, s = (float(x) for x in l.split())
        rows.append((a, p, s))
    except ValueError:
        pass
if not rows:
    print("-,-,-,-")
else:
    n = len(rows)
    print("%.2f,%.2f,%.1f,%.1f" % (sum(r[0] for r in rows) / n, sum(r[1] for r in rows) / n,
          sum(100 * abs(r[1] - r[0]) / r[0] for r in rows) / n,
          sum(100 * r[2] / r[0] for r in rows) / n))
PY
)
    row "$stats,$verif,$rec,$same,$sim,$sima,$over,$simo,$simm,$top,$rep,$pha,$nph,$pst,${exp# }"
    echo "$f $name: $stats | phases same $same | sim $sim% over $simo% | $top | predict $pst | ${exp# }"
  done
done
echo
python3 "$HERE/table.py" "$CSV" "$OUT/npb.md"
echo
echo "AET: wall time of the plain run (mean of the RUNS full runs); PET: augur predict's"
echo "prediction; PETE: |PET - AET| / AET, mean over RUNS pairs; SET/AET: the signature run's"
echo "wall time over the full run's. verif: NPB's own verification (plain run/recordings)."
echo "same: the signatures of two recordings have the same phases and weights. sim: simulate"
echo "against the recorded run, one rank per core on the calibrated model; over: the 2xCORES-"
echo "rank recording with --cores CORES. The machine may be shared: every figure is a wall time."
echo "Full results: $OUT/npb.csv, $OUT/npb.md, logs in $OUT/MPI/KERNEL.CLASS.NP/"
