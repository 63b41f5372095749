#!/bin/sh
# bench/monitoring: the monitoring figures from one run (issue 7).
#   1. augurd ingestion into SQLite: process records/s, every record acked
#      after its commit (big jobs: 200 x 100 processes, 8 senders; small
#      jobs: 2000 x 4 processes, 16 senders) -- median of R runs, fresh db;
#      then the same into PostgreSQL when its server binaries are installed
#      (PGBIN, default /usr/lib/postgresql/15/bin) and augurd has libpq: a
#      temporary server (run as "nobody" when we are root, default durability
#      settings: fsync on, synchronous_commit on), a fresh database per run
#   2. 1000 concurrent senders, one 10-process job each: all stored, none spooled
#   3. profile-mode overhead: bench/monitoring/overhead.sh (per wrapped call,
#      per process image, accounted per application, and the direct A/B)
# Usage: bench/monitoring/run.sh [BUILD_DIR] [RUNS]
set -eu
BUILD=$(cd "${1:-build}" && pwd)
R=${2:-5}
. "$(dirname "$0")/../../scripts/mpi-env.sh"
TMP=$(mktemp -d)
PID=""
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PGD=""
pg() { if [ "$(id -u)" = 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi; }
cleanup() {
  set +e # everything below runs, whatever fails
  [ -n "$PID" ] && kill "$PID" 2>/dev/null
  [ -n "$PGD" ] && pg "$PGBIN/pg_ctl" -D "$PGD/data" -m fast -w stop >/dev/null 2>&1
  rm -rf "$TMP" "$PGD"
}
trap cleanup EXIT

. "$(dirname "$0")/../lib.sh"
jget() { sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p"; }

head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$TMP/key"
chmod 600 "$TMP/key"

# fresh_BACKEND: an empty database for the next run (DB names it for augurd).
fresh_sqlite() { rm -f "$TMP/b.db" "$TMP/b.db-wal" "$TMP/b.db-shm"; }
fresh_pg() {
  PGOPTIONS="-c client_min_messages=warning" \
    "$PGBIN/psql" -X -q "$PGCONN dbname=postgres" -c "DROP DATABASE IF EXISTS bench" \
    -c "CREATE DATABASE bench" >/dev/null
}

# ingest: both shapes into BACKEND's database DB; LABEL names it.
ingest() {
  for shape in "200 100 8 big" "2000 4 16 small"; do
    set -- $shape
    : >"$TMP/rate"
    i=0
    while [ $i -lt "$R" ]; do
      "fresh_$BACKEND"
      rm -f "$TMP/port"
      "$BUILD/bin/augurd" --listen 127.0.0.1:0 --port-file "$TMP/port" --db "$DB" \
        --key "$TMP/key" --threads 8 --log "$TMP/log" &
      PID=$!
      while [ ! -s "$TMP/port" ] && kill -0 "$PID" 2>/dev/null; do sleep 0.05; done
      [ -s "$TMP/port" ] || { echo "augurd did not start: $(tail -3 "$TMP/log")" >&2; exit 1; }
      "$BUILD/bin/augur-bench-ingest" "127.0.0.1:$(cat "$TMP/port")" "$TMP/key" "$TMP/spool" \
        "$1" "$2" "$3" | jget records_per_s >>"$TMP/rate"
      kill "$PID"
      wait "$PID" 2>/dev/null || true
      PID=""
      i=$((i + 1))
    done
    printf 'ingestion into %-10s %-5s jobs (%4s jobs x %3s processes, %2s senders): %8.0f process records/s\n' \
      "$LABEL," "$4" "$1" "$2" "$3" "$(median <"$TMP/rate")"
  done
}

echo "augur bench/monitoring  (runs: $R, medians; $(nproc) cores)"
echo
BACKEND=sqlite LABEL=SQLite DB="$TMP/b.db"
ingest
# PostgreSQL, same records, when installed.
if [ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] && [ -x "$PGBIN/psql" ] &&
  ! "$BUILD/bin/augurd" --listen 127.0.0.1:0 --key "$TMP/key" --db "host=/nonexistent dbname=x" 2>&1 |
  grep -q "without PostgreSQL support"; then
  PGD=$(mktemp -d /tmp/augur-pgbench.XXXXXX)
  [ "$(id -u)" = 0 ] && chown nobody "$PGD"
  PGPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  pg "$PGBIN/initdb" -D "$PGD/data" -U augur --auth=trust -E UTF8 --locale=C >/dev/null
  pg "$PGBIN/pg_ctl" -D "$PGD/data" -l "$PGD/log" -w -o "-k $PGD -p $PGPORT -c listen_addresses=''" \
    start >/dev/null
  PGCONN="host=$PGD port=$PGPORT user=augur"
  BACKEND=pg LABEL=PostgreSQL DB="$PGCONN dbname=bench"
  ingest
  pg "$PGBIN/pg_ctl" -D "$PGD/data" -m fast -w stop >/dev/null
  rm -rf "$PGD"
  PGD=""
else
  echo "ingestion into PostgreSQL: skipped (no server binaries in $PGBIN, or augurd without libpq)"
fi

rm -f "$TMP/b.db" "$TMP/b.db-wal" "$TMP/b.db-shm" "$TMP/port"
"$BUILD/bin/augurd" --listen 127.0.0.1:0 --port-file "$TMP/port" --db "$TMP/b.db" \
  --key "$TMP/key" --threads 8 --log "$TMP/log" &
PID=$!
while [ ! -s "$TMP/port" ]; do sleep 0.05; done
ulimit -n 4096 2>/dev/null || true
out=$("$BUILD/bin/augur-bench-ingest" "127.0.0.1:$(cat "$TMP/port")" "$TMP/key" "$TMP/spool" \
  1000 10 1000 || true)
kill "$PID"
wait "$PID" 2>/dev/null || true
PID=""
stored=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from job').fetchone()[0])" "$TMP/b.db")
printf 'concurrent senders: 1000 at once (10 processes each): %s jobs stored, %s spooled, %s failed\n' \
  "$stored" "$(echo "$out" | jget spooled)" "$(echo "$out" | jget failed)"
echo

sh "$(dirname "$0")/overhead.sh" "$BUILD" "$R"
