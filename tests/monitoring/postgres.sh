#!/bin/sh
# augurd storing into a real PostgreSQL server (issue 7: "PostgreSQL for a
# centre"). The test starts its own server: initdb + postgres from $PGBIN
# (default /usr/lib/postgresql/15/bin) in its scratch folder, unix socket
# there, TCP on a free loopback port, trust authentication, role "augur",
# fsync off (a test, not a benchmark). PostgreSQL refuses to run as root:
# as root the server runs as the existing unprivileged user "nobody"
# (runuser); as anyone else, as that user. Skipped (77) only when the server
# binaries are missing or augurd was built without libpq. Takes 8-18 s.
#   1. a non-MPI job and an MPI job (2 ranks, rank 1 computes twice as long)
#      -> rows in job/process/thread, rank 1's compute time ~2x rank 0's;
#      `augur jobs` (list, per rank, by node) and `augur web` (every
#      resolution, a chart, the SQL, a thread page, a bad metric -> 400)
#      read the same database
#   2. the server stopped: augurd logs the failure and answers retry; a job
#      whose deadline is short spools, one whose deadline is long retries
#      and lands once the server is back (augurd reconnects)
#   3. the spooled record drained into the restarted server, then the same
#      record again: a duplicate, stored once
#   4. bytes that are not UTF-8 in a command line are stored (as U+FFFD)
#   5. augurd restarted on the existing database with a conninfo string
#   6. the store API (augur-test-store, STORE) on SQLite and PostgreSQL:
#      the same crafted records give the same rows
#   7. a server that does not answer: augurd refuses to start, saying why
#   8. a schema of version 1 migrated by augurd (efficiency columns, view)
# Usage: postgres.sh [MPIEXEC APP]   (without them, no MPI job)
MPIEXEC=${1:-}
APP=${2:-}
. "$(dirname "$0")/lib.sh"
. "$MPIENV"
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
for b in initdb postgres pg_isready psql; do
  [ -x "$PGBIN/$b" ] || { echo "skipped: no $PGBIN/$b (Debian package postgresql)"; exit 77; }
done
cd "$D" || exit 1
"$AUGURD" --listen 127.0.0.1:0 --key "$KEY" --db "host=/nonexistent dbname=augur" 2>"$D/err"
if grep -q "without PostgreSQL support" "$D/err"; then
  echo "skipped: augurd was built without libpq"
  exit 77
fi

# The server's directory (data, unix socket) in our scratch folder, so the
# next run removes what a killed run left; in /tmp when the socket path
# would be too long or "nobody" cannot reach the folder.
PGD="$D/pg"
[ ${#PGD} -le 80 ] || PGD=$(mktemp -d /tmp/augur-pg.XXXXXX)
mkdir -p "$PGD"
as_pg() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  as_pg() { runuser -u nobody -- "$@"; }
  chown nobody "$PGD"
  if ! as_pg test -w "$PGD"; then
    rm -rf "$PGD"
    PGD=$(mktemp -d /tmp/augur-pg.XXXXXX)
    chown nobody "$PGD"
  fi
fi
PGPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The server runs in our process group (not daemonized by pg_ctl), so a
# test killed on timeout takes it along.
pg_start() {
  as_pg "$PGBIN/postgres" -D "$PGD/data" -k "$PGD" -p "$PGPORT" -c listen_addresses=127.0.0.1 \
    -c fsync=off >>"$PGD/server.log" 2>&1 &
  i=0
  until "$PGBIN/pg_isready" -q -h "$PGD" -p "$PGPORT"; do
    [ $i -lt 300 ] || { fail "PostgreSQL did not start: $(tail -5 "$PGD/server.log")"; finish; }
    sleep 0.1
    i=$((i + 1))
  done
}
# Fast shutdown (SIGINT to the postmaster), until it is gone.
pg_stop() {
  pid=$(head -1 "$PGD/data/postmaster.pid" 2>/dev/null) || return 0
  kill -INT "$pid" 2>/dev/null
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
    sleep 0.1
    i=$((i + 1))
  done
}
trap 'stop_augurd; pg_stop; rm -rf "$PGD"' EXIT
as_pg "$PGBIN/initdb" -D "$PGD/data" -U augur --auth=trust -E UTF8 --locale=C --no-sync \
  >"$PGD/initdb.log" 2>&1 || { fail "initdb: $(tail -5 "$PGD/initdb.log")"; finish; }
pg_start
CONN="host=$PGD port=$PGPORT user=augur dbname=augur"
"$PGBIN/psql" -X -q "host=$PGD port=$PGPORT user=augur dbname=postgres" -c "CREATE DATABASE augur" ||
  { fail "CREATE DATABASE"; finish; }
sql() { "$PGBIN/psql" -X -A -t -q "$CONN" -c "$1"; }

# 1. Jobs through augurd into PostgreSQL (a libpq URI, over TCP).
DB="postgresql://augur@127.0.0.1:$PGPORT/augur"
start_augurd
export AUGUR_COLLECTOR="127.0.0.1:$PORT" AUGUR_KEY_FILE="$KEY" AUGUR_SPOOL="$D/spool"
expect 0 - "$AUGUR" profile -- sh -c 'echo hello >/dev/null'
NJOBS=1
if [ -n "$APP" ]; then
  expect 0 - "$AUGUR" profile --level 2 -- "$MPIEXEC" -n 2 "$APP" 0.3 "$D"
  contains "$D/out" "sum 1 over 2 ranks"
  NJOBS=2
fi
[ -d "$D/spool" ] && [ -n "$(ls "$D/spool")" ] && fail "records were spooled with augurd up"
[ "$(sql 'select count(*) from job')" = $NJOBS ] ||
  fail "want $NJOBS jobs, got $(sql 'select count(*) from job'); log: $(cat "$LOG")"
[ "$(sql 'select count(*) from step')" = $NJOBS ] || fail "want $NJOBS steps"
np=$(sql 'select count(*) from process')
minp=1
[ -n "$APP" ] && minp=4
[ "$np" -ge $minp ] || fail "want >= $minp processes (sh; mpiexec + 2 ranks), got $np"
[ "$(sql 'select sum(nprocs) from job')" = "$np" ] || fail "job.nprocs disagrees with the process rows"
nt=$(sql 'select count(*) from thread')
[ "$nt" -ge "$np" ] || fail "want a thread row per process at least, got $nt for $np"
[ "$(sql 'select count(*) from thread t left join process p on p.id=t.process_id where p.id is null')" = 0 ] ||
  fail "thread rows without their process"
[ "$(sql "select name from \"user\"")" = "$(id -un)" ] || fail "user table: $(sql 'select name from "user"')"
[ "$(sql 'select count(*) from metric')" -ge 20 ] || fail "metric metadata missing"
sql "select rank, round(compute_s::numeric, 3), round(mpi_s::numeric, 3) from process_derived where rank >= 0 order by rank" >"$D/ranks"
[ -z "$APP" ] || python3 - "$D/ranks" <<'PY' || fail "per-rank values in PostgreSQL (see above)"
import sys
rows = {int(r.split("|")[0]): [float(x) for x in r.split("|")[1:]] for r in open(sys.argv[1]).read().split()}
assert sorted(rows) == [0, 1], rows
(c0, m0), (c1, m1) = rows[0], rows[1]
print("postgres: compute_s rank0 %.3f rank1 %.3f ratio %.2f" % (c0, c1, c1 / c0))
assert 1.4 <= c1 / c0 <= 3.5, rows
assert m0 > m1, rows
PY

# augur jobs and augur web read the same database (the URI form).
expect 0 0 "$AUGUR" jobs --db "$DB" --json
python3 - "$D/out" "$NJOBS" <<'PY' || fail "augur jobs list on PostgreSQL (see above)"
import json, sys
jobs = json.load(open(sys.argv[1]))
assert len(jobs) == int(sys.argv[2]), jobs
assert all(j["processes"] >= 1 and j["wall_s"] > 0 for j in jobs), jobs
PY
expect 0 0 "$AUGUR" jobs --db "$DB"
contains "$D/out" "procs"
if [ -n "$APP" ]; then
  "$AUGUR" jobs --db "$DB" --json >"$D/list.json"
  JOB=$(python3 -c "import json,sys; print([j['id'] for j in json.load(open(sys.argv[1])) if j['ranks']==2][0])" "$D/list.json")
  expect 0 0 "$AUGUR" jobs --db "$DB" "#$JOB" --json
  python3 - "$D/out" <<'PY' || fail "augur jobs per rank on PostgreSQL (see above)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["by"] == "rank", d["by"]
rows = {r["rank"]: r["values"] for r in d["rows"]}
assert sorted(rows) == [0, 1], rows
c0, c1 = rows[0]["compute_s"], rows[1]["compute_s"]
assert 1.4 <= c1 / c0 <= 3.5, (c0, c1)
agg = d["aggregates"]["compute_s"]
assert abs(agg["max"] - c1) < 1e-9 and abs(agg["balance"] - (c0 + c1) / 2 / c1) < 1e-9, agg
PY
  expect 0 0 "$AUGUR" jobs --db "$DB" "#$JOB" --by node --metrics wall_s,io_s
  rm -f "$D/web.port"
  "$AUGUR" web --db "$DB" --listen 127.0.0.1:0 --port-file "$D/web.port" 2>"$D/web.log" &
  WEB=$!
  i=0
  while [ ! -s "$D/web.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
  python3 - "http://127.0.0.1:$(cat "$D/web.port")" "$JOB" <<'PY' || fail "augur web on PostgreSQL (see above)"
import re, sys, urllib.error, urllib.request
base, job = sys.argv[1], sys.argv[2]
def get(path):
    try:
        with urllib.request.urlopen(base + path, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()
def rows(page):
    body = page.split('<tbody>')[1].split('</tbody>')[0]
    return body.count('<tr>')
st, p = get("/")
assert st == 200 and rows(p) >= 2, (st, p[-800:])
st, p = get("/?job=%s" % job)
assert st == 200 and rows(p) == 2 and "rank 1" in p, (st, p[-800:])
for by in ("cluster", "user", "job", "step", "node", "program", "rank", "process", "thread"):
    st, p = get("/?job=%s&by=%s&agg=avg&agg=stddev&agg=balance&view=bar&sql=1" % (job, by))
    assert st == 200 and rows(p) >= 1 and "<svg" in p and 'id="sql"' in p, (by, st, p[-800:])
st, p = get("/?rank=1&job=%s" % job)
assert st == 200 and "tid" in p, (st, p[-800:])
st, p = get("/?m=nosuch")
assert st == 400, st
print("augur web on PostgreSQL: ok")
PY
  kill $WEB
  wait $WEB 2>/dev/null
fi

# 2. The server goes away.
pg_stop
export AUGUR_SEND_DEADLINE_MS=1500
expect 0 - "$AUGUR" profile -- true
contains "$D/err" "spooled"
contains "$LOG" "senders will retry: postgresql: "
REC=$(basename "$(ls "$D/spool/"*.rec)")
cp "$D/spool/$REC" "$D/copy.rec"
# A sender with time left retries until the server is back.
AUGUR_SEND_DEADLINE_MS=20000
"$AUGUR" profile -- true >"$D/bg.out" 2>"$D/bg.err" &
BG=$!
sleep 1
pg_start
wait $BG || fail "the retrying sender failed: $(cat "$D/bg.err")"
grep -q "record spooled" "$D/bg.err" && fail "the retrying sender spooled: $(cat "$D/bg.err")"

# 3. It also drained the spooled record; then the same record again.
contains "$D/bg.err" "also delivered 1 spooled record"
[ "$(sql 'select count(*) from job')" = $((NJOBS + 2)) ] ||
  fail "want $((NJOBS + 2)) jobs after the retry, got $(sql 'select count(*) from job')"
[ -z "$(ls "$D/spool")" ] || fail "spool not drained: $(ls "$D/spool")"
cp "$D/copy.rec" "$D/spool/$REC"
expect 0 1 "$AUGUR" profile --flush
contains "$D/err" "1 record delivered"
contains "$LOG" "duplicate"
[ "$(sql 'select count(*) from job')" = $((NJOBS + 2)) ] || fail "a repeated record was stored twice"
[ "$(sql "select count(*) from job where record_uid='${REC%.rec}'")" = 1 ] || fail "spooled record not stored once"

# 4. Not UTF-8: stored, the bad byte replaced.
expect 0 - "$AUGUR" profile -- sh -c "true $(printf 'caf\351')"
[ "$(sql "select count(*) from job where command like '%caf' || chr(65533) || '%'")" = 1 ] ||
  fail "a command line with a non-UTF-8 byte was not stored: $(tail -3 "$LOG")"

# 5. Restart on the existing database, conninfo form.
stop_augurd
DB="$CONN"
start_augurd "$PORT"
expect 0 - "$AUGUR" profile -- true
[ "$(sql 'select count(*) from job')" = $((NJOBS + 4)) ] || fail "want $((NJOBS + 4)) jobs after the restart"
[ "$(sql 'select count(distinct name) from cluster')" = 1 ] || fail "metadata duplicated"

# 6. The store API itself, on both backends: the same crafted records (odd
#    text, folded threads, NULL counters, rank -1, a value of 2^63-1, a job
#    without processes) give the same rows, and repeating them stores nothing.
if [ -n "${STORE:-}" ]; then
  "$PGBIN/psql" -X -q "host=$PGD port=$PGPORT user=augur dbname=postgres" -c "CREATE DATABASE store"
  SCONN="host=$PGD port=$PGPORT user=augur dbname=store"
  expect 0 0 "$STORE" "$SCONN"
  contains "$D/out" "stored 3 duplicate 3"
  expect 0 0 "$STORE" "$D/store.db"
  contains "$D/out" "stored 3 duplicate 3"
  Q='select j.record_uid, j.job_name, j.command, c.name, u.name, s.name, j.level, j.exit_status,
   j.nprocs, n.name, g.name, p.counter_note, p.pid, p.rank, p.nranks, p.maxrss_kb, p.task_clock,
   p.cycles, p.instructions, p.mpi_coll_ns, p.mpi_coll_calls, p.io_write_ns, p.io_bytes_written,
   p.nthreads, t.slot, t.tid, t.cpu_ns, t.task_clock, t.cycles, t.nfolded, t.flags,
   j.pop_ranks, cast(j.pop_lb*1e9 as bigint), cast(j.pop_comm*1e9 as bigint),
   cast(j.pop_pe*1e9 as bigint), cast(j.pop_run_ns as bigint), j.pop_note
   from job j join cluster c on c.id=j.cluster_id join "user" u on u.id=j.user_id
   join step s on s.job_id=j.id left join process p on p.step_id=s.id
   left join node n on n.id=p.node_id left join program g on g.id=p.program_id
   left join thread t on t.process_id=p.id order by j.record_uid, p.pid, t.slot'
  "$PGBIN/psql" -X -q "$SCONN" -c "COPY ($Q) TO STDOUT" >"$D/pg.rows" || fail "COPY from store"
  python3 - "$D/store.db" "$Q" "$D/pg.rows" <<'PY' || fail "SQLite and PostgreSQL rows differ (see above)"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.text_factory = bytes
def enc(v):  # COPY's text format; PostgreSQL got U+FFFD for bytes that are not UTF-8
    if v is None:
        return "\\N"
    if isinstance(v, bytes):
        s = v.decode("utf-8", "replace")
        for a, b in (("\\", "\\\\"), ("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r")):
            s = s.replace(a, b)
        return s
    return str(v)
lite = ["\t".join(enc(v) for v in row) for row in c.execute(sys.argv[2])]
pg = open(sys.argv[3], encoding="utf-8").read().splitlines()
for a, b in zip(lite, pg):
    if a != b:
        print("sqlite:     " + a + "\npostgresql: " + b)
assert lite == pg, (len(lite), len(pg))
assert len(lite) == 9 + 10 + 1, len(lite)  # thread rows: 8 + 1, 8 + 1 + 1; a job without processes
assert "caf\ufffd 0" in pg[0] and "\\t" in pg[0], pg[0]
print("store rows identical in SQLite and PostgreSQL:", len(pg))
PY
fi

# 8. A database of schema version 1 (issue 24): the efficiency columns and
#    the view's job_* columns taken away, the old view put back (the one in
#    schema_v1.sql: the same template); augurd migrates it at start-up, the
#    old jobs keep NULL efficiencies, a new MPI job gets them.
stop_augurd
DB="$CONN"
sed -n 's/^CREATE VIEW process_derived AS/CREATE VIEW process_derived AS/p' \
  "$(dirname "$0")/schema_v1.sql" >"$D/v1view.sql"
sql "DROP VIEW process_derived; ALTER TABLE job DROP COLUMN pop_ranks, DROP COLUMN pop_run_ns,
  DROP COLUMN pop_useful_avg_ns, DROP COLUMN pop_useful_max_ns, DROP COLUMN pop_lb,
  DROP COLUMN pop_comm, DROP COLUMN pop_pe, DROP COLUMN pop_omp_pe, DROP COLUMN pop_note" ||
  fail "cannot make a version 1 schema"
"$PGBIN/psql" -X -q "$CONN" -f "$D/v1view.sql" || fail "cannot put the version 1 view back"
OLDJOBS=$(sql 'select count(*) from job')
start_augurd "$PORT"
[ "$(sql "select count(*) from information_schema.columns where table_name='job' and column_name like 'pop%'")" = 9 ] ||
  fail "augurd did not add the efficiency columns: $(tail -3 "$LOG")"
[ "$(sql 'select count(*) from job where pop_pe is null')" = "$OLDJOBS" ] || fail "old jobs got figures"
if [ -n "$MPIEXEC" ]; then
  expect 0 - "$AUGUR" profile -- "$MPIEXEC" -n 2 "$APP" 0.05 "$D"
  [ "$(sql 'select count(*) from job where pop_ranks=2 and pop_pe>0 and pop_pe<=1')" = 1 ] ||
    fail "the MPI job after the migration has no efficiencies: $(sql 'select pop_ranks, pop_pe, pop_note from job')"
  [ "$(sql 'select count(*) from process_derived where job_pe>0')" -ge 2 ] || fail "view without job_pe"
fi
expect 0 0 "$AUGUR" jobs --db "$CONN" --sort pe
contains "$D/out" "CommE"

# 7. Nobody answers: a clear refusal.
expect 1 1 "$AUGURD" --listen 127.0.0.1:0 --key "$KEY" --db "postgresql://augur@127.0.0.1:1/augur"
contains "$D/err" "postgresql: cannot connect"
finish
