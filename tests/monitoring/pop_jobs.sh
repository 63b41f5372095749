#!/bin/sh
# The POP efficiencies of every job (issue 24; docs/monitoring.md,
# "Efficiencies"): apps/pop_check times each of its MPI calls and prints
# each rank's useful time and window. Profiled at 2 ranks through a real
# augurd (SQLite): an imbalanced run (rank 1 computes 10x rank 0) gets the
# load balance and parallel efficiency its own timers give, within TOL, and
# is flagged below 60 % with "load balance"; its balanced control (-k 0) is
# not. `augur jobs` shows, sorts and filters them (text, JSON, threshold
# from the option and the environment), `augur web` shows the columns and
# the flag; a database of schema version 1 (schema_v1.sql) is migrated by
# augurd: new columns, its old job kept (no figures), new jobs with figures;
# a hybrid job's figures say they are MPI's only.
# Usage: pop_jobs.sh MPIEXEC APPDIR
MPIEXEC=$1
APPS=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
. "$MPIENV"
cd "$D" || exit 1
TOL=${TOL:-0.05}
WEB_PID=""
trap 'stop_augurd; [ -n "$WEB_PID" ] && kill "$WEB_PID" 2>/dev/null' EXIT

# The old database first: augurd migrates it when it opens it.
python3 - "$DB" "$HERE/schema_v1.sql" <<'PY' || fail "cannot make the old database"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript(open(sys.argv[2]).read())
assert c.execute("pragma user_version").fetchone()[0] == 0
PY
# Before any augurd of version 2 opened it: jobs says so, and still lists.
expect 0 0 "$AUGUR" jobs --db "$DB"
contains "$D/out" "predates the efficiency columns"
contains "$D/out" "augur-test-old-job"
expect 1 1 "$AUGUR" jobs --db "$DB" --sort pe

start_augurd
export AUGUR_COLLECTOR="127.0.0.1:$PORT" AUGUR_KEY_FILE="$KEY" AUGUR_SPOOL="$D/spool"
python3 - "$DB" <<'PY' || fail "migration (see above)"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute("pragma user_version").fetchone()[0] == 2
cols = [r[1] for r in c.execute("pragma table_info(job)")]
for k in ("pop_ranks", "pop_run_ns", "pop_useful_avg_ns", "pop_useful_max_ns", "pop_lb",
          "pop_comm", "pop_pe", "pop_omp_pe", "pop_note"):
    assert k in cols, (k, cols)
view = [r[1] for r in c.execute("pragma table_info(process_derived)")]
assert "job_pe" in view and "wall_s" in view, view
old = c.execute("select job_name, pop_pe from job").fetchall()
assert old == [("augur-test-old-job", None)], old
PY

# pop_check: rank r computes BASE x (1 + K r / 100) per iteration.
run() { # NAME ARGS...
  n=$1
  shift
  SLURM_JOB_ID=$n expect 0 - "$AUGUR" profile -o "$D/$n.json" -- "$MPIEXEC" -n 2 "$APPS/pop_check" "$@"
  grep '^pop_check: rank' "$D/out" >"$D/$n.timers"
}
run imbalanced -n 20 -b 2000 -k 900
run balanced -n 20 -b 10000 -k 0
[ "$(jobs_in_db)" = 3 ] || fail "want 3 jobs in the database, got $(jobs_in_db): $(cat "$LOG")"

for n in imbalanced balanced; do
  python3 - "$D/$n.timers" "$D/$n.json" "$TOL" "$n" <<'PY' || fail "$n: see above"
import json, sys
timers, record, tol, name = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
rows = [l.split() for l in open(timers)]
if len(rows) != 2:
    sys.exit(f"{name}: {len(rows)} ranks printed their timers, want 2")
u = [int(r[4]) for r in rows]
lb = sum(u) / 2 / max(u)
pe = sum(u) / 2 / (max(int(r[8]) for r in rows) - min(int(r[6]) for r in rows))
e = json.load(open(record))["efficiencies"]
print(f"{name}: {e}")
bad = 0
for key, want in (("load_balance", lb), ("parallel", pe)):
    err = (e[key] - want) / want
    print(f"{name}: {key} profile {e[key]:.4f} timers {want:.4f} ({100 * err:+.2f} %)")
    if abs(err) > tol:
        print(f"FAIL: {name}: {key} off by more than {100 * tol:.0f} %")
        bad = 1
if abs(e["parallel"] - e["load_balance"] * e["communication"]) > 1e-9:
    print(f"FAIL: {name}: PE != LB x CommE")
    bad = 1
if e["ranks"] != 2 or e["serialisation"] is not None or e["transfer"] is not None:
    print(f"FAIL: {name}: want 2 ranks and no serialisation/transfer split: {e}")
    bad = 1
if not e["trusted"] or e["notes"]:
    print(f"FAIL: {name}: a complete run flagged: {e['notes']}")
    bad = 1
sys.exit(bad)
PY
done

# A hybrid job whose OpenMP the tool does not see (AUGUR_OMP=0 stands for
# a libgomp program without LLVM's libomp): its ranks say they ran an
# OpenMP runtime, its figures that they are MPI's only: never a silent
# 100 %. Not sent (no collector).
if [ -x "$APPS/omp_stencil.gcc" ]; then
  AUGUR_OMP=0 env -u AUGUR_COLLECTOR "$AUGUR" profile -o "$D/hybrid.json" -- \
    "$MPIEXEC" -n 2 "$APPS/omp_stencil.gcc" -n 10 -t 2 >"$D/out" 2>"$D/err" ||
    fail "hybrid run: $(cat "$D/err")"
  python3 - "$D/hybrid.json" <<'PY' || fail "hybrid record (see above)"
import json, sys
d = json.load(open(sys.argv[1]))
e = d["efficiencies"]
ranks = [p for p in d["processes"] if p["rank"] >= 0]
assert len(ranks) == 2 and all("omp_runtime" in p["flags"] for p in ranks), ranks
assert all("omp" not in p["flags"] for p in ranks), ranks
assert e["ranks"] == 2 and e["omp_parallel"] is None and not e["trusted"], e
assert any(n.startswith("OpenMP not seen: 2 ranks ran an OpenMP runtime") for n in e["notes"]), e
PY
fi

# augur jobs: the columns, the flag, sorting and filtering.
expect 0 0 "$AUGUR" jobs --db "$DB" --json --sort pe
python3 - "$D/out" "$D/imbalanced.json" "$D/flags" <<'PY' || fail "jobs --json --sort pe (see above)"
import json, sys
jobs = json.load(open(sys.argv[1]))
rec = json.load(open(sys.argv[2]))["efficiencies"]
names = [j["job"] for j in jobs]
assert sorted(names) == ["augur-test-old-job", "balanced", "imbalanced"], names
# --sort pe: lowest first, the job without figures last
pes = [j["efficiencies"]["parallel"] for j in jobs]
assert pes[2] is None and pes[0] <= pes[1], pes
by = {j["job"]: j for j in jobs}
imb, bal, old = by["imbalanced"], by["balanced"], by["augur-test-old-job"]
assert abs(imb["efficiencies"]["parallel"] - rec["parallel"]) < 1e-9, (imb, rec)
assert abs(imb["efficiencies"]["load_balance"] - rec["load_balance"]) < 1e-9
assert imb["flag"] == {"below": 0.6, "limited_by": "load balance"}, imb["flag"]
# The control is balanced; on a loaded machine its ranks also wait for a
# CPU inside MPI, which is communication, never load balance.
be = bal["efficiencies"]
assert be["load_balance"] > 0.9, bal
want = None if be["parallel"] >= 0.6 else {"below": 0.6, "limited_by": "communication"}
assert bal["flag"] == want, bal
assert old["flag"] is None and old["efficiencies"]["parallel"] is None, old
open(sys.argv[3], "w").write(f"{1 + (want is not None)} {'communication' if want else ''}\n")
PY
read NFLAG CONTROL <"$D/flags"
expect 0 0 "$AUGUR" jobs --db "$DB" --sort pe
contains "$D/out" "CommE   OMP  below"
grep -q "imbalanced.*load balance" "$D/out" || fail "imbalanced not flagged: $(cat "$D/out")"
grep "balanced" "$D/out" | grep -v imbalanced | grep -q "load balance" && fail "control flagged"
contains "$D/out" "$NFLAG of 3 jobs below 60 % parallel efficiency"
expect 0 0 "$AUGUR" jobs --db "$DB" --flagged --json
python3 -c "import json,sys; j=[x['job'] for x in json.load(open(sys.argv[1]))]; assert len(j)==int(sys.argv[2]) and 'imbalanced' in j, j" "$D/out" "$NFLAG" ||
  fail "--flagged: $(cat "$D/out")"
# The threshold: the option, the environment, a bad value.
expect 0 0 "$AUGUR" jobs --db "$DB" --flagged --json --pe-threshold 10
[ "$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$D/out")" = 0 ] ||
  fail "--pe-threshold 10 still flags: $(cat "$D/out")"
# 99.5 %: the jobs below it, as their figures say (a quiet balanced run may
# reach it: the test once failed where it expected both flagged).
expect 0 0 "$AUGUR" jobs --db "$DB" --json
NBELOW=$(python3 -c "import json,sys; print(sum(1 for j in json.load(open(sys.argv[1])) \
if j['efficiencies']['parallel'] is not None and j['efficiencies']['parallel'] < 0.995))" "$D/out")
AUGUR_PE_THRESHOLD=99.5% expect 0 0 "$AUGUR" jobs --db "$DB" --flagged --json
[ "$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$D/out")" = "$NBELOW" ] ||
  fail "AUGUR_PE_THRESHOLD=99.5% does not flag the $NBELOW jobs below it: $(cat "$D/out")"
[ "$NBELOW" -ge 1 ] || fail "the imbalanced job is not below 99.5 %"
expect 2 1 "$AUGUR" jobs --db "$DB" --pe-threshold 150
AUGUR_PE_THRESHOLD=abc expect 2 1 "$AUGUR" jobs --db "$DB"
expect 2 1 "$AUGUR" jobs --db "$DB" --sort nonsense

# augur web: the jobs table has the efficiency columns and the flag.
rm -f "$D/web.port"
"$AUGUR" web --db "$DB" --listen 127.0.0.1:0 --port-file "$D/web.port" 2>"$D/web.log" &
WEB_PID=$!
i=0
while [ ! -s "$D/web.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
python3 - "http://127.0.0.1:$(cat "$D/web.port")" "$CONTROL" <<'PY' || fail "augur web (see above)"
import re, sys, urllib.request
base, control = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
page = urllib.request.urlopen(base + "/?order=job_pe_min").read().decode()
for col in ("job_pe_min", "job_lb_min", "job_comm_min", "job_omp_pe_min", "below 60 %"):
    assert col in page, col
rows = re.findall(r"<tr><td><a class=\"drill\" href=\"[^\"]*job=(\d+)[^>]*>([^<]*)</a>(.*?)</tr>",
                  page)
by = {r[1].split()[1]: r for r in rows}
assert sorted(by) == ["augur-test-old-job", "balanced", "imbalanced"], list(by)
# ordered by job_pe_min: its cells ascending (SQL puts the old job's NULL first)
head = re.findall(r"<th>(?:<a [^>]*>)?([^<]*)", page)
k = head.index("job_pe_min") - 2  # after the row label and the process count
pe = [re.findall(r'<td class="n">([^<]*)</td>', r[2])[1:][k] for r in rows]
assert pe[0] == "&#8211;" and float(pe[1]) <= float(pe[2]), pe
assert '<td class="flag">load balance</td>' in by["imbalanced"][2], by["imbalanced"]
assert f'<td class="flag">{control}</td>' in by["balanced"][2], (control, by["balanced"])
assert '<td class="flag"></td>' in by["augur-test-old-job"][2]
page = urllib.request.urlopen(base + "/?job=" + by["imbalanced"][0]).read().decode()
assert "efficiencies (POP): parallel" in page and "limited by load balance" in page, page
page = urllib.request.urlopen(base + "/?job=" + by["augur-test-old-job"][0]).read().decode()
assert "efficiencies (POP): none (stored before" in page, page
PY

# OpenMP in profile mode: pg_omp_imbalance (thread t of T computes (t+1)
# units per item; --off: the same work spread evenly), 1 rank x 2
# threads, GCC's build (run on LLVM's libomp, preloaded by augur profile)
# and clang's. The threads' user time (outside MPI and the OpenMP runtime)
# summed over the threads is what the program computed: T x its loop's
# wall time less the barrier waits it measures itself, within TOL (the
# serial code outside the loop is the rest); PE = LB x CommE x OMP_PE; the
# imbalanced run is flagged "OpenMP" at 80 %, its control is not.
for cc in gcc clang; do
  [ -x "$APPS/pg_omp_imbalance.$cc" ] || continue
  for v in on off; do
    n=omp-$cc-$v
    flag=""
    [ $v = off ] && flag=--off
    SLURM_JOB_ID=$n expect 0 - "$AUGUR" profile -o "$D/$n.json" -- \
      "$MPIEXEC" -n 1 "$APPS/pg_omp_imbalance.$cc" -t 2 -n 20 -b 3000 $flag
    grep '^measured:' "$D/out" >"$D/$n.timers" || fail "$n: no timers: $(cat "$D/out")"
    python3 - "$D/$n.timers" "$D/$n.json" "$TOL" "$n" <<'PY' || fail "$n: see above"
import json, sys
f = dict(kv.split("=") for kv in open(sys.argv[1]).read().split()[1:])
d = json.load(open(sys.argv[2]))
tol, name = float(sys.argv[3]), sys.argv[4]
e = d["efficiencies"]
r = [p for p in d["processes"] if p["rank"] >= 0][0]
assert "omp" in r["flags"] and e["omp_parallel"] is not None, (r["flags"], e)
th = [t for t in r["threads"] if t["omp_useful_ns"] is not None]
assert len(th) == 2, r["threads"]
got = sum(t["omp_useful_ns"] for t in th) / 1e9
want = 2 * float(f["wall_seconds"]) - float(f["lost_seconds"])
err = (got - want) / want
print(f"{name}: threads' user time {got:.4f} s, the program's work {want:.4f} s ({100 * err:+.2f} %),"
      f" OMP_PE {e['omp_parallel']:.3f}")
assert abs(err) <= tol, err
assert abs(e["parallel"] - e["load_balance"] * e["communication"] * e["omp_parallel"]) < 1e-9, e
assert e["trusted"] and not e["notes"], e
PY
  done
done
# OpenMP without MPI (omp_alone, clang): a job of one OpenMP process is a
# rank of one, PE = OMP_PE, its two threads counted; the imbalanced run
# (thread 1 computes 3x thread 0) below its control. (The threads' user
# time is checked against a program's own timers with pg_omp_imbalance
# below: against omp_alone's nominal spin times it runs 3-16 % over on a
# loaded machine, where a thread preempted between its task's start and
# its spin counts that time as its own.)
if [ -n "${OMP_ALONE:-}" ] && [ -x "$OMP_ALONE" ]; then
  for v in on off; do
    flag=""
    [ $v = off ] && flag=--off
    env -u AUGUR_COLLECTOR "$AUGUR" profile -o "$D/alone-$v.json" -- \
      "$OMP_ALONE" 40 5 $flag >"$D/out" 2>"$D/err" || fail "omp_alone $v: $(cat "$D/err")"
  done
  python3 - "$D/alone-on.json" "$D/alone-off.json" <<'PY' || fail "omp_alone (see above)"
import json, sys
pe = []
for path in sys.argv[1:]:
    d = json.load(open(path))
    e, p = d["efficiencies"], d["processes"][0]
    assert "omp" in p["flags"] and e["ranks"] == 1 and e["trusted"], (p["flags"], e)
    assert e["load_balance"] == 1 and abs(e["parallel"] - e["omp_parallel"]) < 1e-12, e
    assert len([t for t in p["threads"] if t["omp_useful_ns"] is not None]) == 2, p["threads"]
    pe.append(e["omp_parallel"])
print(f"omp_alone: OMP_PE {pe[0]:.3f}, control {pe[1]:.3f}")
assert pe[0] < pe[1] - 0.05, pe
PY
fi

# The hybrid figures against a program that times them itself
# (apps/pop_check_omp: each thread its compute, the initial thread its
# serial part and MPI calls): 2 ranks x 2 threads, both builds; the
# profile's PE (HPE) and its MPI part (LB x CommE) within TOL of the
# program's HPE and MPI_PE. Waiting threads sleep (4 threads, 2 cores).
for cc in gcc clang; do
  [ -x "$APPS/pop_check_omp.$cc" ] || continue
  OMP_WAIT_POLICY=passive env -u AUGUR_COLLECTOR "$AUGUR" profile -o "$D/pco-$cc.json" -- \
    "$MPIEXEC" -n 2 "$APPS/pop_check_omp.$cc" -n 20 -t 2 >"$D/pco-$cc.out" 2>"$D/err" ||
    fail "pop_check_omp.$cc: $(cat "$D/err")"
  python3 - "$D/pco-$cc.out" "$D/pco-$cc.json" "$TOL" "pop_check_omp.$cc" <<'PY' || fail "pop_check_omp.$cc: see above"
import json, sys
out, record, tol, name = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
span, mu, u = [], [], []
for w in (l.split() for l in open(out) if l.startswith("pop_check_omp: rank")):
    if w[3] == "thread":
        u.append(int(w[6]))
    else:
        span += [int(w[4]), int(w[6])]
        mu.append(int(w[8]))
T = max(span) - min(span)
e = json.load(open(record))["efficiencies"]
assert len(mu) == 2 and len(u) == 4 and e["omp_parallel"] is not None, (mu, u, e)
bad = 0
for key, got, want in (("HPE", e["parallel"], sum(u) / 4 / T),
                       ("MPI_PE", e["load_balance"] * e["communication"], sum(mu) / 2 / T)):
    err = (got - want) / want
    print(f"{name}: {key} profile {got:.4f} timers {want:.4f} ({100 * err:+.2f} %)")
    bad |= abs(err) > tol
sys.exit(bad)
PY
done

if [ -x "$APPS/pg_omp_imbalance.gcc" ]; then
  expect 0 0 "$AUGUR" jobs --db "$DB" --flagged --pe-threshold 80 --json
  python3 - "$D/out" <<'PY' || fail "OpenMP flag (see above)"
import json, sys
j = {x["job"]: x for x in json.load(open(sys.argv[1]))}
for cc in ("gcc", "clang"):
    if f"omp-{cc}-on" in j or cc == "gcc":
        assert j[f"omp-{cc}-on"]["flag"]["limited_by"] == "OpenMP", j.get(f"omp-{cc}-on")
    assert f"omp-{cc}-off" not in j, j[f"omp-{cc}-off"]
PY
fi
finish
