#!/bin/sh
# bench/monitoring: the monitoring figures from one run (issue 7).
#   1. augurd ingestion into SQLite: process records/s, every record acked
#      after its commit (big jobs: 200 x 100 processes, 8 senders; small
#      jobs: 2000 x 4 processes, 16 senders) -- median of R runs, fresh db
#   2. 1000 concurrent senders, one 10-process job each: all stored, none spooled
#   3. the fixed cost per process image: 300 x (fork + exec /bin/true) from a
#      shell, plain vs with libaugur-profile preloaded (level 2)
#   4. profile-mode overhead on a small MPI app (stencil, 2 ranks, MPICH):
#      wall time of mpiexec plain vs under `augur profile --level 2`,
#      alternating, R runs each, medians and their ratio from this run
# Usage: bench/monitoring/run.sh [BUILD_DIR] [RUNS]
set -eu
BUILD=$(cd "${1:-build}" && pwd)
R=${2:-5}
. "$(dirname "$0")/../../scripts/mpi-env.sh"
TMP=$(mktemp -d)
PID=""
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$TMP"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
jget() { sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p"; }

head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$TMP/key"
chmod 600 "$TMP/key"

echo "augur bench/monitoring  (runs: $R, medians; $(nproc) cores)"
echo
for shape in "200 100 8 big" "2000 4 16 small"; do
  set -- $shape
  : >"$TMP/rate"
  i=0
  while [ $i -lt "$R" ]; do
    rm -f "$TMP/b.db" "$TMP/b.db-wal" "$TMP/b.db-shm" "$TMP/port"
    "$BUILD/bin/augurd" --listen 127.0.0.1:0 --port-file "$TMP/port" --db "$TMP/b.db" \
      --key "$TMP/key" --threads 8 --log "$TMP/log" &
    PID=$!
    while [ ! -s "$TMP/port" ]; do sleep 0.05; done
    "$BUILD/bin/augur-bench-ingest" "127.0.0.1:$(cat "$TMP/port")" "$TMP/key" "$TMP/spool" \
      "$1" "$2" "$3" | jget records_per_s >>"$TMP/rate"
    kill "$PID"
    wait "$PID" 2>/dev/null || true
    PID=""
    i=$((i + 1))
  done
  printf 'ingestion, %-5s jobs (%4s jobs x %3s processes, %2s senders): %8.0f process records/s\n' \
    "$4" "$1" "$2" "$3" "$(median <"$TMP/rate")"
done

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

cat >"$TMP/loop.sh" <<'LOOP'
i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i + 1)); done
LOOP
mkdir -p "$TMP/pd"
: >"$TMP/lp"
: >"$TMP/lq"
i=0
while [ $i -lt "$R" ]; do
  t0=$(now)
  sh "$TMP/loop.sh"
  t1=$(now)
  AUGUR_PROFILE_DIR="$TMP/pd" AUGUR_PROFILE_LEVEL=2 LD_PRELOAD="$BUILD/lib/libaugur-profile.so" \
    sh "$TMP/loop.sh"
  t2=$(now)
  rm -f "$TMP/pd/"*
  calc "$t1 - $t0" >>"$TMP/lp"
  calc "$t2 - $t1" >>"$TMP/lq"
  i=$((i + 1))
done
p=$(median <"$TMP/lp")
q=$(median <"$TMP/lq")
# 300 iterations = 600 process images (the forked shell, then true).
printf 'per process image: plain %.3f s, profiled %.3f s for 600 images: %.3f ms each\n' \
  "$p" "$q" "$(calc "($q - $p) / 600 * 1000")"

APP="$BUILD/apps/mpich/stencil"
ITER=${ITER:-3000}
if [ -x "$APP" ] && command -v mpiexec.mpich >/dev/null; then
  : >"$TMP/plain"
  : >"$TMP/prof"
  i=0
  while [ $i -lt "$R" ]; do
    t0=$(now)
    mpiexec.mpich -n 2 "$APP" -n "$ITER" -x 512 -y 512 >/dev/null
    t1=$(now)
    "$BUILD/bin/augur" profile --level 2 -o "$TMP/job.json" -- \
      mpiexec.mpich -n 2 "$APP" -n "$ITER" -x 512 -y 512 >/dev/null 2>&1
    t2=$(now)
    calc "$t1 - $t0" >>"$TMP/plain"
    calc "$t2 - $t1" >>"$TMP/prof"
    i=$((i + 1))
  done
  p=$(median <"$TMP/plain")
  q=$(median <"$TMP/prof")
  printf 'profile overhead, stencil 2 ranks (%s iterations): plain %.3f s, profiled %.3f s, %+.1f %%\n' \
    "$ITER" "$p" "$q" "$(calc "($q / $p - 1) * 100")"
else
  echo "profile overhead: skipped ($APP or mpiexec.mpich missing)"
fi
