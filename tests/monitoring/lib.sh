# Shared by the monitoring tests: the generic helpers, then a real augurd.
. "$(dirname "$0")/../lib.sh"
KEY="$D/key"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$KEY"
chmod 600 "$KEY"
DB="$D/augur.db"
LOG="$D/augurd.log"
AUGURD_PID=""

# start_augurd [PORT]: port 0 (default) = any free port; sets PORT. The key
# is $AUGURD_KEY if set (e.g. munge:SOCKET), else the HMAC key file $KEY.
start_augurd() {
  rm -f "$D/port"
  "$AUGURD" --listen "127.0.0.1:${1:-0}" --port-file "$D/port" --db "$DB" \
    --key "${AUGURD_KEY:-$KEY}" \
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

# start_munged DIR: a private munged (its own key, socket DIR/sock); sets
# MUNGED_PID and MUNGE_SOCK. Exits 77 (skipped) when munged is not installed.
start_munged() {
  MUNGED=$(command -v munged || echo /usr/sbin/munged)
  [ -x "$MUNGED" ] || { echo "skipped: munged is not installed (Debian munge)"; exit 77; }
  mkdir -p "$1"
  chmod 700 "$1"
  [ -s "$1/key" ] || { head -c 1024 /dev/urandom >"$1/key" && chmod 600 "$1/key"; }
  rm -f "$1/sock"
  "$MUNGED" --force --foreground --key-file="$1/key" --socket="$1/sock" --pid-file="$1/pid" \
    --log-file="$1/log" --seed-file="$1/seed" >>"$1/out" 2>&1 &
  MUNGED_PID=$!
  MUNGE_SOCK="$1/sock"
  i=0
  while [ ! -S "$MUNGE_SOCK" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
  [ -S "$MUNGE_SOCK" ] || { fail "munged did not start: $(cat "$1/out")"; finish; }
}

stop_munged() {
  [ -n "${MUNGED_PID:-}" ] && kill "$MUNGED_PID" 2>/dev/null && wait "$MUNGED_PID" 2>/dev/null
  MUNGED_PID=""
}
