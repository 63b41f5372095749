# OpenMP records change no MPI output (issue 24; docs/openmp.md): the known
# trace, and the same with OpenMP records on thread 0 and on an extra thread
# 7 (GEN_OMP), give byte-identical report (and --json; but for report's
# hybrid efficiencies), diagnose --json, phases and simulate --json. augur
# info (text and --json) says the OpenMP mode; augur dump shows the OpenMP
# records, and with --kinds mpi prints what the MPI-only trace prints.
. "$(dirname "$0")/lib.sh"
mkdir -p "$D/mpi" "$D/omp"
"$GEN" "$D/mpi/t.augur" || { fail "gen_trace failed"; finish; }
GEN_OMP=1 "$GEN" "$D/omp/t.augur" || { fail "gen_trace (GEN_OMP) failed"; finish; }

# the same relative path in both, so paths printed are equal too
run() { # run NAME CODE ARGS...: augur ARGS in both dirs, outputs in $D/NAME.{mpi,omp}
  name=$1
  code=$2
  shift 2
  for k in mpi omp; do
    (cd "$D/$k" && "$AUGUR" "$@" >"$D/$name.$k" 2>"$D/$name.$k.err")
    rc=$?
    [ "$rc" -eq "$code" ] || fail "augur $* ($k) exited $rc, want $code: $(cat "$D/$name.$k.err")"
  done
}
same() { # same NAME: MPI-only and hybrid outputs are identical (stdout and stderr)
  for k in mpi omp; do # but for the time the analysis took
    sed -E 's/"wall_seconds": ?[0-9.e+-]+/"wall_seconds":T/g' "$D/$1.$k" >"$D/$1.$k.x" &&
      mv "$D/$1.$k.x" "$D/$1.$k"
  done
  cmp -s "$D/$1.mpi" "$D/$1.omp" || fail "$1 differs with OpenMP records: $(diff "$D/$1.mpi" "$D/$1.omp" | head -20)"
  cmp -s "$D/$1.mpi.err" "$D/$1.omp.err" || fail "$1 stderr differs: $(diff "$D/$1.mpi.err" "$D/$1.omp.err" | head -5)"
  [ -s "$D/$1.mpi" ] || fail "$1 printed nothing"
}

run report 0 report t.augur
# but for report's hybrid efficiencies section (docs/pop.md), only there
# with OpenMP records: the MPI efficiencies before it are the same
grep -q "^Efficiencies (POP, hybrid MPI+OpenMP" "$D/report.omp" ||
  fail "report of the hybrid trace has no hybrid efficiencies"
sed -i '/^Efficiencies (POP, hybrid MPI+OpenMP/,$d' "$D/report.omp"
sed -i '$d' "$D/report.omp" # the blank line before it
same report
run reportjson 0 report t.augur --json
for k in mpi omp; do # and the JSON's efficiencies.hybrid
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
del d["efficiencies"]["hybrid"]
print(json.dumps(d, indent=2))' "$D/reportjson.$k" >"$D/reportjson.$k.x" &&
    mv "$D/reportjson.$k.x" "$D/reportjson.$k"
done
same reportjson
run diagnose 0 diagnose t.augur --json
# but for diagnose's OpenMP findings (docs/diagnose.md "OpenMP patterns"):
# the hybrid trace has some, below the threshold
grep -q '"openmp"' "$D/diagnose.omp" || fail "diagnose of the hybrid trace has no openmp object"
for k in mpi omp; do
  python3 "$(dirname "$0")/../diagnose/mpi_part.py" "$D/diagnose.$k" >"$D/diagnose.$k.x" &&
    mv "$D/diagnose.$k.x" "$D/diagnose.$k"
done
same diagnose
run phases 0 phases t.augur
same phases
run simulate 0 simulate t.augur --json
same simulate
run dumpmpi 0 dump t.augur --kinds mpi
same dumpmpi

# the hybrid trace really has OpenMP records, and dump shows them
expect 0 0 "$AUGUR" dump "$D/omp/t.augur" --kinds omp
n=$(grep -c " omp_" "$D/out")
# per rank: 6 records after each MPI call but the last (rank 0: 6 calls,
# rank 1: 7, rank 2: 6), 4 of each 6 again on thread 7
[ "$n" -eq $(((6 + 7 + 6) * 10)) ] || fail "dump --kinds omp printed $n OpenMP records, want 190"
contains "$D/out" "omp_fork"
contains "$D/out" "augur-test-app+0x300"
expect 0 0 "$AUGUR" dump "$D/omp/t.augur"
n=$(wc -l <"$D/out")
[ "$n" -eq $((1 + 26 + 190)) ] || fail "dump printed $n lines, want 1 header + 26 MPI + 190 OpenMP"
expect 0 0 "$AUGUR" dump "$D/mpi/t.augur"
n=$(wc -l <"$D/out")
[ "$n" -eq 27 ] || fail "dump of the MPI-only trace printed $n lines, want 27"

expect 0 0 "$AUGUR" info "$D/omp/t.augur"
contains "$D/out" "OpenMP       ompt - gen_trace OpenMP; 190 records in 6 blocks"
contains "$D/out" "             gen_trace: hand-built OpenMP records"
expect 0 0 "$AUGUR" info "$D/mpi/t.augur"
contains "$D/out" "OpenMP       unknown (trace.json does not say"
expect 0 0 "$AUGUR" info --json "$D/mpi/t.augur"
tr -d ' \n' <"$D/out" >"$D/info.json"
contains "$D/info.json" '"openmp":{"mode":"unknown","runtime":"","note":"","records":0,"blocks":0'
expect 0 0 "$AUGUR" info --json "$D/omp/t.augur"
tr -d ' \n' <"$D/out" >"$D/info.json"
contains "$D/info.json" '"mode":"ompt","runtime":"gen_traceOpenMP","note":"gen_trace:hand-builtOpenMPrecords","records":190,"blocks":6,"dropped_before_init":0'
contains "$D/info.json" '"events":9,"omp_records":60,'
contains "$D/info.json" '"damage":[]'
finish
