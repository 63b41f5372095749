# A recorded hybrid program that measures its own POP figures
# (apps/pop_check_omp.c: each thread times its compute, the initial thread
# its serial part and its MPI calls): augur report's hybrid parallel
# efficiency (HPE), thread load balance (HLBE) and MPI parallel efficiency
# within TOL (5 %) of what the program's timers give, at 2 ranks x 2
# threads, for both builds (clang: libomp through OMPT; gcc: libgomp, LLVM
# libomp preloaded), and the identity HPE = MPI_PE x OMP_PE; then the hybrid
# stencil's MPI_PE and LB against its own timers.
# usage: check_omp.sh MPIEXEC APPDIR COMPILER...
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
apps=$2
shift 2
TOL=${TOL:-0.05}
lib="$(dirname "$AUGUR")/../lib/libaugur-mpi-mpich.so"
[ -f "$lib" ] || { echo "skipped: MPICH recorder not built"; exit 77; }
# 4 threads on the 2 cores: waiting threads must sleep, not spin on a core a
# computing thread needs (the apps' convention, apps/README.md).
export OMP_WAIT_POLICY=passive
for cc in "$@"; do
  app="$apps/pop_check_omp.$cc"
  [ -x "$app" ] || { echo "skipped: $app not built"; continue; }
  expect 0 - "$AUGUR" record -o "$D/$cc.augur" -- "$mpiexec" -n 2 "$app" -n 15 -t 2
  grep '^pop_check_omp: rank' "$D/out" >"$D/$cc.timers"
  expect 0 0 "$AUGUR" report "$D/$cc.augur" --json
  cp "$D/out" "$D/$cc.json"
  "$PY" - "$D/$cc.timers" "$D/$cc.json" "$TOL" "$cc" <<'PYEOF' || fail "$cc: see above"
import json, sys
timers, report, tol, name = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
ranks, u = {}, []
for w in (l.split() for l in open(timers)):
    if w[3] == "thread":
        u.append(int(w[6]))
    else:
        ranks[int(w[2])] = (int(w[4]), int(w[6]), int(w[8]), int(w[10]))
if len(ranks) != 2 or len(u) != sum(r[3] for r in ranks.values()) or len(u) != 4:
    sys.exit(f"{name}: timers of {len(ranks)} ranks and {len(u)} threads, want 2 and 4")
T = max(r[1] for r in ranks.values()) - min(r[0] for r in ranks.values())
want = {"parallel": sum(u) / len(u) / T, "load_balance": sum(u) / len(u) / max(u),
        "mpi_parallel": sum(r[2] for r in ranks.values()) / len(ranks) / T}
e = json.load(open(report))["efficiencies"]
h = e["hybrid"]
bad = 0
if not h["openmp"] or h["threads"] != 4:
    print(f"FAIL: {name}: openmp {h['openmp']} threads {h['threads']}, want true and 4")
    bad = 1
for key, w in want.items():
    got = h[key]
    err = (got - w) / w
    print(f"{name}: hybrid {key} augur {got:.4f} timers {w:.4f} ({100 * err:+.2f} %)")
    if abs(err) > tol:
        print(f"FAIL: {name}: {key} off by more than {100 * tol:.0f} %")
        bad = 1
if abs(h["parallel"] - h["mpi_parallel"] * h["omp_parallel"]) > 1e-9:
    print(f"FAIL: {name}: HPE != MPI_PE x OMP_PE: {h}")
    bad = 1
sys.exit(bad)
PYEOF
  # The hybrid stencil's own timers (apps/omp_stencil.c: per rank total,
  # sweep, halo, allreduce from the barrier before its loop): MPI-useful =
  # total - halo - allreduce, so MPI_PE and LB. Its window starts after the
  # set-up and the OpenMP runtime's start-up is inside its first sweep, so
  # augur's window is ~30 ms longer (measured: +0.4 to +2.1 %).
  st="$apps/omp_stencil.$cc"
  [ -x "$st" ] || continue
  expect 0 - "$AUGUR" record -o "$D/st$cc.augur" -- "$mpiexec" -n 2 "$st" -n 1000 -x 512 -y 512 -t 2
  grep '^omp_stencil: rank=' "$D/out" >"$D/st$cc.timers"
  expect 0 0 "$AUGUR" report "$D/st$cc.augur" --json
  "$PY" - "$D/st$cc.timers" "$D/out" "$TOL" "$cc" <<'PYEOF' || fail "stencil $cc: see above"
import json, sys
rows = [dict(kv.split("=") for kv in l.split()[1:]) for l in open(sys.argv[1])]
tol, name = float(sys.argv[3]), sys.argv[4]
if len(rows) != 2:
    sys.exit(f"stencil {name}: timers of {len(rows)} ranks, want 2")
tot = [float(r["total"]) for r in rows]
mu = [float(r["total"]) - float(r["halo"]) - float(r["allreduce"]) for r in rows]
e = json.load(open(sys.argv[2]))["efficiencies"]
bad = 0
for key, got, w in (("mpi_parallel", e["hybrid"]["mpi_parallel"], sum(mu) / 2 / max(tot)),
                    ("load_balance", e["load_balance"], sum(mu) / 2 / max(mu))):
    err = (got - w) / w
    print(f"stencil {name}: {key} augur {got:.4f} timers {w:.4f} ({100 * err:+.2f} %)")
    if abs(err) > tol:
        print(f"FAIL: stencil {name}: {key} off by more than {100 * tol:.0f} %")
        bad = 1
sys.exit(bad)
PYEOF
done
finish
