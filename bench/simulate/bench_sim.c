/* augur-bench-sim: simulator throughput and memory on a synthetic execution
 * graph (bench/simulate/run.sh). Every rank, per iteration: a compute burst,
 * Irecv from both ring neighbours, Isend to both, Waitall, then an
 * Allreduce: 7 operations. Prints JSON: operations, build and simulation
 * CPU seconds, operations per second, graph bytes per operation, peak RSS.
 * usage: augur-bench-sim [--ranks N] [--iters N] [--bytes N]
 *
 * On a synthetic *trace* (synth_trace.h), streamed or in memory, one
 * process per run so that the peak RSS is the run's:
 *   augur-bench-sim --write-trace DIR [--ranks N] [--iters N]
 *   augur-bench-sim --trace DIR [--in-memory]
 * prints trace events, CPU seconds of the whole simulation (read, match,
 * build, replay), trace events per CPU second, the most held in flight,
 * peak RSS and the prediction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "augur/sim.h"
#include "synth_trace.h"

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Simulates trace DIR (streamed, or its whole graph first) and prints JSON. */
static int bench_trace(const char *dir, int in_memory) {
  augur_error err = {0};
  augur_trace *t;
  double t0 = cpu_now();
  if (augur_trace_open(&t, dir, &err) != AUGUR_OK) {
    fprintf(stderr, "augur-bench-sim: %s\n", err.msg);
    return 1;
  }
  augur_machine m;
  augur_machine_default(&m);
  m.cores_per_node = 2;
  augur_sim_result res;
  augur_sim_graph_stats gs;
  int rc;
  if (in_memory) {
    augur_sim_graph *g = NULL;
    rc = augur_sim_graph_from_trace(&g, t, &err);
    if (rc == AUGUR_OK) {
      augur_sim_graph_stats_get(g, &gs);
      rc = augur_simulate(g, &m, &res, &err);
    }
    augur_sim_graph_free(g);
  } else {
    rc = augur_simulate_trace(t, &m, NULL, &res, &gs, &err);
  }
  augur_trace_close(t);
  double t1 = cpu_now();
  if (rc != AUGUR_OK) {
    fprintf(stderr, "augur-bench-sim: %s\n", err.msg);
    return 1;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("{\"mode\": \"%s\", \"trace_events\": %llu, \"operations\": %llu, \"cpu_s\": %.3f, "
         "\"events_per_s\": %.0f, \"peak_inflight\": %llu, \"graph_bytes\": %llu, "
         "\"peak_rss_kib\": %ld, \"predicted_seconds\": %.9g}\n",
         in_memory ? "memory" : "stream", (unsigned long long)gs.trace_events,
         (unsigned long long)res.ops, t1 - t0, (double)gs.trace_events / (t1 - t0),
         (unsigned long long)res.peak_inflight, (unsigned long long)gs.bytes, ru.ru_maxrss,
         res.predicted_seconds);
  augur_sim_result_free(&res);
  return 0;
}

int main(int argc, char **argv) {
  uint32_t nranks = 4;
  long iters = 100000, bytes = 4096;
  const char *write_dir = NULL, *trace_dir = NULL;
  int in_memory = 0;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : "";
    if (!strcmp(argv[i], "--in-memory"))
      in_memory = 1;
    else if (!strcmp(argv[i], "--ranks") && ++i)
      nranks = (uint32_t)atol(v);
    else if (!strcmp(argv[i], "--iters") && ++i)
      iters = atol(v);
    else if (!strcmp(argv[i], "--bytes") && ++i)
      bytes = atol(v);
    else if (!strcmp(argv[i], "--write-trace") && ++i)
      write_dir = v;
    else if (!strcmp(argv[i], "--trace") && ++i)
      trace_dir = v;
  }
  if (nranks < 2 || iters < 1) {
    fprintf(stderr, "usage: augur-bench-sim [--ranks N>=2] [--iters N] [--bytes N]\n"
                    "       augur-bench-sim --write-trace DIR [--ranks N] [--iters N]\n"
                    "       augur-bench-sim --trace DIR [--in-memory]\n");
    return 2;
  }
  if (trace_dir) return bench_trace(trace_dir, in_memory);
  if (write_dir) {
    augur_error err = {0};
    if (synth_trace_write(write_dir, nranks, (uint64_t)iters, &err) != AUGUR_OK) {
      fprintf(stderr, "augur-bench-sim: %s\n", err.msg);
      return 1;
    }
    return 0;
  }
  double t0 = cpu_now();
  augur_sim_graph *g = augur_sim_graph_new(nranks);
  uint32_t *world = malloc(nranks * sizeof *world);
  uint32_t *left = malloc(nranks * sizeof *left), *right = malloc(nranks * sizeof *right);
  int64_t *mleft = malloc(nranks * sizeof *mleft), *mright = malloc(nranks * sizeof *mright);
  if (!g || !world || !left || !right || !mleft || !mright) return 1;
  for (uint32_t r = 0; r < nranks; r++)
    world[r] = r;
  int64_t comm = augur_sim_add_comm(g, world, nranks);
  for (long it = 0; it < iters; it++) {
    /* mright[r]: r -> r+1; mleft[r]: r -> r-1 */
    for (uint32_t r = 0; r < nranks; r++) {
      mright[r] = augur_sim_add_message(g, r, (r + 1) % nranks, (uint64_t)bytes, 0);
      mleft[r] = augur_sim_add_message(g, r, (r + nranks - 1) % nranks, (uint64_t)bytes, 0);
    }
    for (uint32_t r = 0; r < nranks; r++) {
      uint32_t w[4];
      augur_sim_add_compute(g, r, 1e-4 * (1 + (r % 3)));
      w[0] = (uint32_t)augur_sim_add_recv(g, r, (uint64_t)mright[(r + nranks - 1) % nranks],
                                          AUGUR_SIM_F_NONBLOCKING);
      w[1] = (uint32_t)augur_sim_add_recv(g, r, (uint64_t)mleft[(r + 1) % nranks],
                                          AUGUR_SIM_F_NONBLOCKING);
      w[2] = (uint32_t)augur_sim_add_send(g, r, (uint64_t)mright[r], AUGUR_SIM_F_NONBLOCKING);
      w[3] = (uint32_t)augur_sim_add_send(g, r, (uint64_t)mleft[r], AUGUR_SIM_F_NONBLOCKING);
      augur_sim_add_wait(g, r, w, 4);
      augur_sim_add_coll(g, r, AUGUR_EV_ALLREDUCE, (uint32_t)comm, -1, 8, (uint64_t)it);
    }
  }
  double t1 = cpu_now();
  augur_sim_graph_stats gs;
  augur_sim_graph_stats_get(g, &gs);
  augur_machine m;
  augur_machine_default(&m);
  m.cores_per_node = 2; /* a network in the way: flows, not only shared memory */
  augur_sim_result res;
  augur_error err = {0};
  if (augur_simulate(g, &m, &res, &err) != AUGUR_OK) {
    fprintf(stderr, "augur-bench-sim: %s\n", err.msg);
    return 1;
  }
  double t2 = cpu_now();
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("{\"ranks\": %u, \"iterations\": %ld, \"operations\": %llu, \"messages\": %llu, "
         "\"build_s\": %.3f, \"simulate_s\": %.3f, \"ops_per_s\": %.0f, "
         "\"graph_bytes_per_op\": %.1f, \"peak_rss_kib\": %ld, \"predicted_seconds\": %.6f}\n",
         nranks, iters, (unsigned long long)res.ops, (unsigned long long)res.messages, t1 - t0,
         t2 - t1, (double)res.ops / (t2 - t1), (double)gs.bytes / (double)gs.ops, ru.ru_maxrss,
         res.predicted_seconds);
  augur_sim_result_free(&res);
  augur_sim_graph_free(g);
  free(world);
  free(left);
  free(right);
  free(mleft);
  free(mright);
  return 0;
}
