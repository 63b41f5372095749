#!/bin/sh
# spank_augur.so in a real single-node SLURM started here: munged, slurmctld
# and slurmd (proctrack/linuxproc, task/none) on free ports, with the plugin
# in plugstack.conf and a real augurd behind it. Checks: site default 0 =
# not profiled; --augur-level=2 on an MPI job (rank 1 computes twice as
# long) and --augur-level=1 on a non-MPI two-task step land in the database
# under the SLURM job id, step and cluster; AUGUR_PROFILE_LEVEL from the
# job's environment is used without the option; a bad level is refused by
# srun; sbatch --augur-level profiles the batch step and its steps; with
# augurd down the record is spooled and delivered later; the scratch
# directories are gone; `augur web` shows the jobs. Records are signed by
# the same munged as SLURM uses (key = munge:SOCKET).
# Usage: slurm.sh MPIEXEC APP (environment: AUGUR AUGURD PLUGIN LIBDIR WORK NAME MPIENV)
MPIEXEC=$1
APP=$2
. "$(dirname "$0")/../monitoring/lib.sh"
. "$MPIENV"
for b in munged slurmctld slurmd srun; do
  command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] ||
    { echo "skipped: $b is not installed (Debian slurmctld slurmd munge)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "skipped: slurmd must run as root"; exit 77; }
PATH=$PATH:/usr/sbin
cd "$D" || exit 1
# VERBOSE_TIMES=1: where the seconds go.
stamp() { [ -n "${VERBOSE_TIMES:-}" ] && echo "$(date +%s.%N | cut -c1-14) $*"; return 0; }
mkdir -p state spool log scratch aspool
chmod 1777 scratch
chmod 700 aspool # augur's spool must be root's own here, closed to others
PIDS=""
stop_slurm() {
  for p in $PIDS; do kill "$p" 2>/dev/null; done
  for p in $PIDS; do wait "$p" 2>/dev/null; done
  PIDS=""
  stop_augurd
}
trap 'stop_slurm' EXIT

start_munged "$D/munge"
PIDS="$PIDS $MUNGED_PID"
# augur authenticates with the same munged, as a SLURM site would.
AUGURD_KEY="munge:$MUNGE_SOCK"

ports=$(python3 -c "
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(('127.0.0.1', 0))
print(' '.join(str(s.getsockname()[1]) for s in ss))")
HOST=$(hostname -s)
cat >slurm.conf <<CONF
ClusterName=augurtest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=${ports% *}
SlurmdPort=${ports#* }
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge/sock
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/ctld.pid
SlurmdPidFile=$D/d.pid
SlurmctldLogFile=$D/log/ctld.log
SlurmdLogFile=$D/log/d.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
PlugStackConfig=$D/plugstack.conf
NodeName=$HOST CPUs=$(nproc) RealMemory=100 State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
echo "required $PLUGIN conf=$D/augur.conf" >plugstack.conf
export SLURM_CONF="$D/slurm.conf"

stamp start
start_augurd
# The site: profiling off by default, the directory of library variants
# (each task gets the one for the MPI its program links: the MPI job's
# ranks must show MPI time below), a short send deadline.
cat >augur.conf <<CONF
level = 0
collector = 127.0.0.1:$PORT
key = $AUGURD_KEY
spool = $D/aspool
scratch = $D/scratch
library = $LIBDIR
deadline_ms = 1000
CONF

slurmctld -D -f "$SLURM_CONF" >log/ctld.out 2>&1 &
PIDS="$PIDS $!"
slurmd -D -f "$SLURM_CONF" >log/d.out 2>&1 &
PIDS="$PIDS $!"
i=0
while ! sinfo -h -o %t 2>/dev/null | grep -q idle && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
sinfo -h -o %t | grep -q idle ||
  { fail "SLURM did not start: $(tail -5 log/ctld.log log/d.log log/*.out)"; finish; }

run() { timeout 60 srun "$@" >"$D/out" 2>"$D/err" || fail "srun $*: $(cat "$D/err")"; }
njobs() { jobs_in_db; }
# wait_jobs N: slurmstepd sends in the plugin's exit, which may end after
# srun has returned.
wait_jobs() {
  i=0
  while [ "$(njobs)" != "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
stamp slurm up

# Site default 0: nothing recorded.
run -n1 true
[ "$(njobs)" = 0 ] || fail "a job with level 0 was recorded"
# A bad level: srun refuses it before anything runs.
timeout 30 srun --augur-level=7 true >"$D/out" 2>"$D/err" && fail "srun accepted --augur-level=7"
contains "$D/err" "augur-level"

# MPI job (mpiexec inside one task), level 2.
run -n1 --augur-level=2 "$MPIEXEC" -launcher fork -n 2 "$APP" 0.2 "$D"
contains "$D/out" "sum 1 over 2 ranks"
# Non-MPI, two tasks, level from the job's environment.
AUGUR_PROFILE_LEVEL=1 run -n2 sh -c 'ls / >/dev/null; echo task $SLURM_PROCID'
wait_jobs 2
stamp two jobs
[ "$(njobs)" = 2 ] || fail "want 2 jobs in the database, got $(njobs); $(tail -5 log/d.log)"
python3 - "$DB" <<'PY' || fail "database content (see above)"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
jobs = c.execute("select j.id, j.job_name, c.name, j.level, s.name, j.command from job j"
                 " join cluster c on c.id=j.cluster_id join step s on s.job_id=j.id"
                 " order by j.id").fetchall()
print(jobs)
(mid, mname, mcl, mlev, mstep, mcmd), (oid, oname, ocl, olev, ostep, ocmd) = jobs
assert mname.isdigit() and oname.isdigit() and int(oname) > int(mname), jobs
assert mcl == ocl == "augurtest", jobs
assert (mlev, olev) == (2, 1), jobs
assert mstep == ostep == "0", jobs
assert "-launcher fork" in mcmd and ocmd.startswith("sh -c"), jobs
r = dict(c.execute("select rank, compute_s from process_derived where job_pk=? and rank>=0",
                   (mid,)).fetchall())
assert sorted(r) == [0, 1], r
print("spank: compute_s rank0 %.3f rank1 %.3f ratio %.2f" % (r[0], r[1], r[1] / r[0]))
assert 1.4 <= r[1] / r[0] <= 3.0, r
n = c.execute("select count(*) from process_derived where job_pk=? and program like '%ls'",
              (oid,)).fetchone()[0]
assert n == 2, "want one ls per task, got %d" % n
PY
[ -z "$(ls scratch)" ] || fail "scratch directories left: $(ls scratch)"

# sbatch: the option given in allocator context reaches the batch step and
# the job's steps: two records of one job, steps "batch" and "0".
timeout 60 sbatch --wait --augur-level=1 -o "$D/batch.out" --wrap "srun true" >"$D/out" \
  2>"$D/err" || fail "sbatch: $(cat "$D/err")"
wait_jobs 4
stamp sbatch
python3 - "$DB" <<'PY' || fail "sbatch job (see above)"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
rows = c.execute("select j.job_name, s.name, j.level from job j join step s on s.job_id=j.id"
                 " where j.id > 2 order by s.name").fetchall()
assert len(rows) == 2 and rows[0][0] == rows[1][0], rows
assert [r[1] for r in rows] == ["0", "batch"] and {r[2] for r in rows} == {1}, rows
PY

# augurd down as the step ends: spooled, then delivered by --flush.
stop_augurd
run -n1 --augur-level=1 true
i=0
while ! ls aspool/*.rec >/dev/null 2>&1 && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
stamp spooled
ls aspool/*.rec >/dev/null 2>&1 || fail "no record spooled with augurd down: $(tail -3 log/d.log)"
start_augurd "$PORT"
expect 0 - "$AUGUR" profile --flush --collector "127.0.0.1:$PORT" --key "$AUGURD_KEY" --spool "$D/aspool"
[ "$(njobs)" = 5 ] || fail "the spooled record was not delivered: $(njobs) jobs"
ls aspool/*.rec >/dev/null 2>&1 && fail "spool not empty after --flush"

# The web UI shows the SLURM job.
"$AUGUR" web --db "$DB" --listen 127.0.0.1:0 --port-file "$D/web.port" 2>"$D/web.log" &
PIDS="$PIDS $!"
i=0
while [ ! -s "$D/web.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
python3 - "http://127.0.0.1:$(cat "$D/web.port")" <<'PY' || fail "web UI (see above)"
import sys, urllib.request
base = sys.argv[1]
page = urllib.request.urlopen(base + "/?cluster=augurtest&by=job", timeout=10).read().decode()
assert page.count('class="drill"') == 5, page[-2000:]
page = urllib.request.urlopen(base + "/?job=1", timeout=10).read().decode()
assert "rank 1" in page and "augurtest" in page, page[-2000:]
PY
finish
