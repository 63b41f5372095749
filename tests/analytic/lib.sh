# tests/analytic: the shared helpers, a hand-made machine model and data set.
. "$(dirname "$0")/../lib.sh"
# Messages: 1 us + 1 ns per byte above 1000 bytes (msg_101000); OpenMP
# overhead Theta(1) = 1.5 us, Theta(2) = 4 us; no figures for 3 threads.
cat >"$D/m.ini" <<'INI'
[machine]
name = hand-made

[microbench]
msg_0 = 1e-6
msg_1000 = 2e-6
msg_101000 = 102e-6
parallel_1 = 1e-6
barrier_1 = 0.2e-6
for_1 = 0.5e-6
bandwidth_1 = 10G
parallel_2 = 3e-6
barrier_2 = 0.5e-6
for_2 = 1e-6
bandwidth_2 = 15G
mem_latency = 90e-9
INI
# One calibration run at W = 1000, 1 worker x 1 thread: the worker computed
# 0.01 s of work plus Theta(1), an iteration took 0.0103 s.
cat >"$D/runs.csv" <<'CSV'
app,workload,workers,threads,t_iter,t_comp_master,t_comp_worker,oversubscribed,status
sw,1000,1,1,0.0103,0.0002,0.0100015,0,ok
sw,1000,1,1,,,,,failed
CSV
# near A B: |A - B| <= 1e-9 |B|
near() {
  awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * (b < 0 ? -b : b)) }'
}
