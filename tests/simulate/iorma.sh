# MPI-IO and one-sided calls in `augur simulate` (issue 28; docs/simulate.md
# "I/O and one-sided operations"). Before, each was replayed with its
# recorded time, whatever the model said.
# 1. pg_io_serial at 2 ranks, funnelled (rank 0 writes both blocks with
#    File_write_at), --off (File_write_at_all) and --shared
#    (File_write_ordered): on a model whose file bandwidth is 100 times
#    lower the prediction grows by the bytes on the critical path over
#    the difference (10 iterations x 2 blocks of 256 KiB: 519 ms), within
#    10 % (the compute's imbalance moves it by a few ms): every byte is
#    charged once and from the model (before: +0).
# 2. sim_rma (a PSCW epoch whose post comes late, then a fence loop whose
#    ranks compute 1 and 2 units): the origin waits for the simulated post,
#    so making the target's late work 2x / 4x faster (--scale) shortens the
#    prediction by half and by a quarter of that work again (before: the
#    origin replayed its recorded wait in Win_start, the prediction did not
#    move); rank 0 waits at the fences for rank 1 (sync_wait, before 0).
# 3. Those traces need no note (every call is in the model); rec_rma's
#    MPI_Win_test loop is replayed with its recorded time and the text and
#    JSON say so, as they say its exclusive locks are simplified.
# 4. The prediction is no longer than the measured run (+10 %): the model
#    adds no time the run did not have (printed: the ratio).
# usage: iorma.sh MPIEXEC APPDIR SIM_RMA [REC_RMA]
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
apps=$2
rma=$3
rec_rma=${4:-}
[ -x "$apps/pg_io_serial" ] && [ -x "$rma" ] || { echo "skipped: no pg_io_serial or sim_rma"; exit 77; }
printf '[io]\nwrite_bandwidth = 1e7\ncollective_bandwidth = 1e7\n' >"$D/slow.ini"
printf '[io]\nwrite_bandwidth = 1e9\ncollective_bandwidth = 1e9\n' >"$D/fast.ini"

predicted() { # trace machine [args]: the predicted seconds (JSON)
  t=$1
  m=$2
  shift 2
  "$AUGUR" simulate "$t" --machine "$m" --json "$@" >"$D/sim.json" 2>"$D/sim.err" ||
    fail "simulate $t: $(cat "$D/sim.err")"
  "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["predicted_seconds"])' "$D/sim.json"
}

for v in funnel off shared; do
  arg=
  [ $v = funnel ] || arg=--$v
  expect 0 - "$AUGUR" record -o "$D/io-$v.augur" -- "$mpiexec" -n 2 "$apps/pg_io_serial" -n 10 -s 256 $arg
  slow=$(predicted "$D/io-$v.augur" "$D/slow.ini")
  fast=$(predicted "$D/io-$v.augur" "$D/fast.ini")
  "$PY" - "$slow" "$fast" <<'PY' || fail "pg_io_serial $v: the file bandwidth is not charged"
import sys
slow, fast = float(sys.argv[1]), float(sys.argv[2])
want = 10 * 2 * 262144 * (1 / 1e7 - 1 / 1e9)
print("bandwidth / 100: %+.4f s, want %+.4f s" % (slow - fast, want))
sys.exit(0 if abs(slow - fast - want) <= 0.10 * want else 1)
PY
  expect 0 0 "$AUGUR" simulate "$D/io-$v.augur"
  # (a busy host is the one note allowed: other tests may run beside this one)
  grep "^note" "$D/out" | grep -qv "^note: busy host: " &&
    fail "pg_io_serial $v: a note: $(grep '^note' "$D/out")"
done

# sim_rma spins for a wall time ("compute whatever the load"), not a CPU
# work: without run-delay (--counters none) its bursts keep that time on a
# busy host (docs/simulate.md "A busy host")
expect 0 - "$AUGUR" record --counters none -o "$D/rma.augur" -- "$mpiexec" -n 2 "$rma" -n 20 -l 2000 -c 500 -s 65536
printf '[cpu]\noverhead = 0.5e-6\n' >"$D/default.ini"
line=$(grep -n "^ *MPI_Win_post(" "$(dirname "$0")/sim_rma.c" | head -1 | cut -d: -f1)
p1=$(predicted "$D/rma.augur" "$D/default.ini")
p2=$(predicted "$D/rma.augur" "$D/default.ini" --scale "sim_rma.c:$line=x2")
p4=$(predicted "$D/rma.augur" "$D/default.ini" --scale "sim_rma.c:$line=x4")
expect 0 0 "$AUGUR" simulate "$D/rma.augur" --json
"$PY" - "$p1" "$p2" "$p4" "$D/out" <<'PY' || fail "sim_rma: PSCW and fence waits"
import json, sys
p1, p2, p4 = (float(x) for x in sys.argv[1:4])
d = json.load(open(sys.argv[4]))
ok = True
d1, d2 = p1 - p2, p2 - p4
print("late work x2: %+.4f s, x4: %+.4f s more (ratio %.2f, want 2)" % (-d1, -d2, d1 / d2 if d2 > 0 else 0))
if not (d1 > 0.005 and d2 > 0 and 1.6 <= d1 / d2 <= 2.4):
    ok = False
sw = d["ranks"][0]["sync_wait"]
print("rank 0 waits at the fences %.4f s (want >= 20 x 500 us / 2)" % sw)
if sw < 0.005:
    ok = False
# a busy host is the one note allowed (other tests may run beside this one),
# as for pg_io_serial above
other = [n for n in d["notes"] if not n.startswith("note: busy host: ")]
if d["notes"]:
    print("notes:", d["notes"])
if other:
    ok = False
m = d["measured_seconds"]
print("predicted %.4f s, measured %.4f s (%+.1f %%)" % (d["predicted_seconds"], m, 100 * (d["predicted_seconds"] / m - 1)))
if d["predicted_seconds"] > 1.10 * m:
    ok = False
sys.exit(0 if ok else 1)
PY
# rma.latency is calibrated as a whole lock / Put / unlock epoch: it is charged
# to the operations of passive-target epochs only; in fence and PSCW epochs the
# synchronisation (barrier, tokens) carries the latency. A 10 ms rma.latency
# leaves sim_rma's prediction (PSCW, fences) as it is (before: +10 ms per Put
# on its path) and adds it per Put of pg_rma_bulk (lock_all, Put, flush: 4 per
# rank, each on the critical path between two barriers).
printf '[cpu]\noverhead = 0.5e-6\n[rma]\nlatency = 0.01\n' >"$D/lat.ini"
pl=$(predicted "$D/rma.augur" "$D/lat.ini")
expect 0 - "$AUGUR" record -o "$D/bulk.augur" -- "$mpiexec" -n 2 "$apps/pg_rma_bulk" -n 4 -b 500 -s 65536
b1=$(predicted "$D/bulk.augur" "$D/default.ini")
bl=$(predicted "$D/bulk.augur" "$D/lat.ini")
"$PY" - "$p1" "$pl" "$b1" "$bl" <<'PY' || fail "rma.latency charged where the synchronisation carries it"
import sys
p1, pl, b1, bl = (float(x) for x in sys.argv[1:5])
print("rma.latency 10 ms: sim_rma (PSCW, fence) %+.4f s (want 0), pg_rma_bulk (lock_all) %+.4f s (want 0.04)" % (pl - p1, bl - b1))
sys.exit(0 if abs(pl - p1) < 1e-4 and 0.035 <= bl - b1 <= 0.045 else 1)
PY
if [ -n "$rec_rma" ] && [ -x "$rec_rma" ]; then
  expect 0 - "$AUGUR" record -o "$D/rec_rma.augur" -- "$mpiexec" -n 2 "$rec_rma"
  expect 0 0 "$AUGUR" simulate "$D/rec_rma.augur"
  contains "$D/out" "not in the model replayed with their recorded time: MPI_Win_test"
  contains "$D/out" "exclusive locks without contention"
  expect 0 0 "$AUGUR" simulate "$D/rec_rma.augur" --json
  contains "$D/out" "recorded time: MPI_Win_test"
fi
finish
