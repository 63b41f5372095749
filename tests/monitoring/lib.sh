# Shared by the monitoring tests: the generic helpers, then a real augurd.
. "$(dirname "$0")/../lib.sh"
KEY="$D/key"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$KEY"
chmod 600 "$KEY"
DB="$D/augur.db"
LOG="$D/augurd.log"
AUGURD_PID=""

# start_augurd [PORT]: port 0 (default) = any free port; sets PORT.
start_augurd() {
  rm -f "$D/port"
  "$AUGURD" --listen "127.0.0.1:${1:-0}" --port-file "$D/port" --db "$DB" --key "$KEY" \
    --log "$LOG" -v 2>>"$LOG" &
  AUGURD_PID=$!
  i=0
  while [ ! -s "$D/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
  [ -s "$D/port" ] || { fail "augurd did not start: $(cat "$LOG")"; finish; }
  PORT=$(cat "$D/port")
}

stop_augurd() {
  [ -n "$AUGURD_PID" ] && kill "$AUGURD_PID" 2>/dev/null && wait "$AUGURD_PID" 2>/dev/null
  AUGURD_PID=""
}
trap 'stop_augurd' EXIT

# jobs_in_db: number of job rows.
jobs_in_db() {
  python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from job').fetchone()[0])" "$DB"
}
