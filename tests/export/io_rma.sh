# MPI-IO, one-sided and neighbourhood calls in the exports (docs/export.md,
# docs/otf2.md): exp_io_rma (EXP_IO_RMA, built with MPICH's mpicc) recorded at
# 2 ranks, exported to Chrome, Paraver and OTF2; check_io_rma.py checks each
# output's records, counts, bytes, files, targets and windows against what the
# program does (its header comment), not against a golden file. The OTF2
# archive reads back with otf2-print without warnings and `augur import` gives
# the same trace (augur-test-compare-traces: every field and definition; dump;
# the report's MPI-IO files).
. "$(dirname "$0")/lib.sh"
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
if [ ! -f "$lib" ] || [ ! -x "$EXP_IO_RMA" ]; then
  echo "skipped: $lib or $EXP_IO_RMA not built"
  exit 77
fi
"$AUGUR" record -o "$D/x.augur" -- "$MPIEXEC" -n 2 "$EXP_IO_RMA" >"$D/rec.out" 2>&1 ||
  { fail "record: $(cat "$D/rec.out")"; finish; }
expect 0 - "$AUGUR" export "$D/x.augur" --format chrome -o "$D/x.json"
"$PY" "$HERE/check_io_rma.py" chrome "$D/x.json" 2 || fail "chrome: MPI-IO / one-sided records"
expect 0 - "$AUGUR" export "$D/x.augur" --format paraver -o "$D/x"
"$PY" "$HERE/check_io_rma.py" paraver "$D/x" 2 || fail "paraver: MPI-IO / one-sided records"
# SimGrid's time-independent actions have none for these calls: their time is
# written as compute (it was dropped), and the export says how many calls.
expect 0 - "$AUGUR" export "$D/x.augur" --format simgrid -o "$D/x.sg"
cp "$D/out" "$D/sg.out"
"$AUGUR" report "$D/x.augur" --json --top 1000 >"$D/x.report.json" || fail "report --json"
"$PY" - "$D/x.report.json" "$D/x.sg" "$D/sg.out" <<'PY' || fail "simgrid: MPI-IO / one-sided time"
import glob, json, re, sys
d = json.load(open(sys.argv[1]))
fam = [c for c in d["calls"] if c["type"] >= 128]  # I/O, one-sided, neighbourhood, process
n, t = sum(c["count"] for c in fam), sum(c["time_ns"] for c in fam)
m = re.search(r"note: (\d+) MPI-IO, one-sided, neighbourhood or process calls written as compute",
              open(sys.argv[3]).read())
assert m and int(m.group(1)) == n, (m and m.group(0), n)
# default rate 1e9 flop/s: one flop per ns
sg = sum(float(w[2]) for f in glob.glob(sys.argv[2] + "/rank-*.txt")
         for w in (l.split() for l in open(f)) if w[1] == "compute")
want = d["compute_ns"] + t
assert abs(sg - want) <= 0.01 * want, (sg, d["compute_ns"], t)
print("simgrid: %d calls as compute, %.3f ms of compute for %.3f + %.3f ms" %
      (n, sg * 1e-6, d["compute_ns"] * 1e-6, t * 1e-6))
PY
if command -v otf2-print >/dev/null 2>&1; then
  expect 0 - "$AUGUR" export "$D/x.augur" --format otf2 -o "$D/x.otf2"
  otf2-print "$D/x.otf2/traces.otf2" >"$D/print.txt" 2>"$D/print.err" ||
    fail "otf2-print: $(head -5 "$D/print.err")"
  [ -s "$D/print.err" ] && fail "otf2-print warns: $(head -5 "$D/print.err")"
  otf2-print -G "$D/x.otf2/traces.otf2" >"$D/defs.txt" 2>&1 || fail "otf2-print -G"
  "$PY" "$HERE/check_io_rma.py" otf2 "$D/print.txt" 2 "$D/defs.txt" ||
    fail "otf2: MPI-IO / one-sided records"
  expect 0 - "$AUGUR" import "$D/x.otf2" -o "$D/back.augur"
  "$AUGUR" dump "$D/x.augur" >"$D/a.dump" && "$AUGUR" dump "$D/back.augur" >"$D/b.dump" &&
    cmp -s "$D/a.dump" "$D/b.dump" || fail "import of the OTF2 export: records differ"
  # every field and definition (PSCW groups are defined by ranks outside them)
  if [ -n "${COMPARE:-}" ]; then
    "$COMPARE" "$D/x.augur" "$D/back.augur" >"$D/compare.out" 2>&1 ||
      fail "import of the OTF2 export not exact: $(head -5 "$D/compare.out")"
  fi
  "$AUGUR" report "$D/x.augur" --json | "$PY" -c "import json,sys; print(json.dumps(json.load(sys.stdin).get('io'), sort_keys=True))" >"$D/a.io"
  "$AUGUR" report "$D/back.augur" --json | "$PY" -c "import json,sys; print(json.dumps(json.load(sys.stdin).get('io'), sort_keys=True))" >"$D/b.io"
  grep -q "augur-exp-io-" "$D/a.io" || fail "report names no MPI-IO file"
  cmp -s "$D/a.io" "$D/b.io" || fail "import of the OTF2 export: the MPI-IO files differ"
else
  echo "otf2-print not installed: OTF2 part skipped"
fi
finish
