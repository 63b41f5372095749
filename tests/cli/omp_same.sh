# OpenMP records change no MPI output (issue 24; docs/openmp.md): the known
# trace, and the same with OpenMP records on thread 0 and on an extra thread
# 7 (GEN_OMP), give byte-identical report, diagnose --json, phases and
# simulate --json. augur info says the OpenMP mode; augur dump shows the
# OpenMP records, and with --kinds mpi prints what the MPI-only trace prints.
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
same report
run diagnose 0 diagnose t.augur --json
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
finish
