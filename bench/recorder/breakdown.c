/* Recorder cost per call and where it goes (issue 28 item 4).
 *
 * Linked with the recorder's own sources (not preloaded), so one process can
 * time, alternately, the same MPI call made plainly (PMPI_*) and through the
 * recorder's wrapper (MPI_*), and the recorder's hot-path steps one by one:
 *
 *   clock      two aug_ticks() (the call's t_start and t_end)
 *   enter/exit aug_rec_begin + aug_rec_exit_in, as the C wrappers run them
 *              (inline, wrap.h): recording and nesting checks, the
 *              thread-local state, the record's initialisation in the buffer's
 *              next slot, the call site (the return address, a register
 *              read) and the two clock reads
 *   fill       aug_fill_p2p_dir as MPI_Iprobe's wrapper calls it
 *   commit     aug_rec_commit_in: the record, filled in its slot, counted in
 *              the thread's buffer (the buffer's fill level is reset before it
 *              is full, so this step holds no flush)
 *   flush      aug_thread_flush of a full buffer, per record, and its parts:
 *              aug_clock_to_ns (ticks -> CLOCK_MONOTONIC ns) and call sites
 *              (return address -> id) each alone, then both in the one pass
 *              the flush makes, and the writer (encode, write: the recorder's
 *              writer defers zstd to its close, bench/recorder/finalize.sh)
 *
 * Each figure is the median over RUNS repetitions of a loop of CALLS
 * iterations (ns per iteration, CLOCK_MONOTONIC around the loop); the steps
 * and the plain/wrapped loops alternate inside each repetition, so load from
 * other processes spreads over all of them alike. The step figures are
 * differences of cumulative loops (enter/exit minus clock, ...).
 *
 *   augur-bench-recorder-breakdown [-n CALLS] [-r RUNS] [--json]
 *
 * Run it as one rank (mpiexec -n 1) or more; rank 0 prints. AUGUR_TRACE_DIR
 * says where its trace goes (default: ./augur-trace.augur). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h" /* aug_ev_encode: the writer's encoding step alone */
#include "wrap.h"

#ifndef AUGUR_BENCH_MPI
#define AUGUR_BENCH_MPI "?"
#endif

static uint64_t ns_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_of(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static volatile uint64_t sink;
static int flag;
static MPI_Status status;
static MPI_Request pending; /* an Irecv nothing matches: MPI_Test never completes it */

enum {
  L_PLAIN_IPROBE,
  L_WRAP_IPROBE,
  L_PLAIN_TEST,
  L_WRAP_TEST,
  L_CLOCK,
  L_ENTER_EXIT,
  L_FILL,
  L_COMMIT,
  NLOOPS
};

__attribute__((noinline)) static void run_loop(int which, long n) {
  augur_event *ev;
  uint64_t s = 0;
  switch (which) {
  case L_PLAIN_IPROBE:
    for (long i = 0; i < n; i++)
      PMPI_Iprobe(MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, &flag, &status);
    break;
  case L_WRAP_IPROBE:
    for (long i = 0; i < n; i++) {
      MPI_Iprobe(MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, &flag, &status);
    }
    break;
  case L_PLAIN_TEST:
    for (long i = 0; i < n; i++)
      PMPI_Test(&pending, &flag, MPI_STATUS_IGNORE);
    break;
  case L_WRAP_TEST:
    for (long i = 0; i < n; i++) {
      MPI_Test(&pending, &flag, MPI_STATUS_IGNORE);
    }
    break;
  case L_CLOCK:
    for (long i = 0; i < n; i++) {
      uint64_t a = aug_ticks();
      s += aug_ticks() - a;
    }
    break;
  case L_ENTER_EXIT:
    for (long i = 0; i < n; i++)
      if ((ev = aug_rec_begin(AUGUR_EV_IPROBE, AUG_CALLER()))) {
        aug_rec_exit_in(ev);
        s += ev->t_end;
      }
    break;
  case L_FILL:
    for (long i = 0; i < n; i++)
      if ((ev = aug_rec_begin(AUGUR_EV_IPROBE, AUG_CALLER()))) {
        aug_rec_exit_in(ev);
        aug_fill_p2p_dir(ev, 0, MPI_DATATYPE_NULL, MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, NULL, 0);
        ev->flags |= AUGUR_F_NOTDONE;
        s += ev->t_end + ev->comm;
      }
    break;
  case L_COMMIT: {
    aug_thread *t = aug_thread_here();
    for (long i = 0; i < n; i++) {
      if ((ev = aug_rec_begin(AUGUR_EV_IPROBE, AUG_CALLER()))) {
        aug_rec_exit_in(ev);
        aug_fill_p2p_dir(ev, 0, MPI_DATATYPE_NULL, MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, NULL, 0);
        ev->flags |= AUGUR_F_NOTDONE;
        aug_rec_commit_in(ev);
      }
      if (t->n + 2 >= t->soft_cap) t->n = 0; /* never full: no flush in this loop */
    }
    break;
  }
  }
  sink = s;
}

/* Flush of one full buffer, per record, and its parts. */
enum { F_TOTAL, F_CLOCK, F_CALLSITES, F_FUSED, F_WRITER, F_ENCODE, NFLUSH };
static const char *const flush_names[NFLUSH] = {"flush (all)",
                                                "  ticks -> ns alone",
                                                "  call sites alone",
                                                "  both, one pass (the flush's)",
                                                "  writer: encode+write",
                                                "    of which encode"};

static void fill_buffer(size_t n) {
  aug_thread *t = aug_thread_here();
  t->n = 0;
  int f;
  MPI_Status s;
  for (size_t i = 0; i < n; i++)
    MPI_Iprobe(MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, &f, &s);
}

static void time_flush(double out[NFLUSH], augur_event *copy) {
  aug_thread *t = aug_thread_here();
  size_t n = t->soft_cap - 1;
  fill_buffer(n);
  uint64_t t0 = ns_now();
  aug_thread_flush(t);
  out[F_TOTAL] = (double)(ns_now() - t0) / (double)n;
  fill_buffer(n);
  memcpy(copy, t->buf, n * sizeof *copy);
  t->n = 0;
  t0 = ns_now();
  aug_clock_to_ns(copy, n);
  uint64_t t1 = ns_now();
  pthread_mutex_lock(&aug_lock);
  aug_callsites_convert(copy, n, NULL);
  pthread_mutex_unlock(&aug_lock);
  uint64_t t2 = ns_now();
  fill_buffer(n); /* fresh records: ticks and addresses */
  memcpy(copy, t->buf, n * sizeof *copy);
  t->n = 0;
  aug_tick_map ticks;
  uint64_t t5 = ns_now();
  aug_clock_map_now(&ticks);
  pthread_mutex_lock(&aug_lock);
  aug_callsites_convert(copy, n, &ticks);
  pthread_mutex_unlock(&aug_lock);
  out[F_FUSED] = (double)(ns_now() - t5) / (double)n;
  uint64_t t6 = ns_now();
  augur_error err;
  augur_writer_events(aug_writer, t->index, copy, n, &err);
  uint64_t t3 = ns_now();
  static aug_evenc enc;
  static aug_buf raw;
  raw.len = 0;
  uint64_t t4 = ns_now();
  aug_ev_encode(&enc, copy, n, &raw);
  out[F_ENCODE] = (double)(ns_now() - t4) / (double)n;
  out[F_CLOCK] = (double)(t1 - t0) / (double)n;
  out[F_CALLSITES] = (double)(t2 - t1) / (double)n;
  out[F_WRITER] = (double)(t3 - t6) / (double)n;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long calls = 1000000;
  int runs = 11, json = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
      calls = strtol(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
      runs = (int)strtol(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--json") == 0)
      json = 1;
    else {
      if (rank == 0) fprintf(stderr, "usage: %s [-n CALLS] [-r RUNS] [--json]\n", argv[0]);
      MPI_Finalize();
      return 2;
    }
  }
  if (calls < 1) calls = 1;
  if (runs < 1) runs = 1;
  if (!aug_rec_active() || !aug_thread_self() || !aug_writer) {
    fprintf(stderr, "breakdown: the recorder is not recording (AUGUR_SIGNATURE set?)\n");
    MPI_Finalize();
    return 1;
  }
  PMPI_Irecv(&flag, 1, MPI_INT, MPI_ANY_SOURCE, 4243, MPI_COMM_WORLD, &pending);
  aug_thread *t = aug_thread_here();
  augur_event *copy = malloc(t->soft_cap * sizeof *copy);
  double *loops = malloc(sizeof(double) * (size_t)runs * NLOOPS);
  double *flush = malloc(sizeof(double) * (size_t)runs * NFLUSH);
  if (!copy || !loops || !flush) return 1;
  for (int w = 0; w < NLOOPS; w++) /* warm-up */
    run_loop(w, calls / 10 + 1);
  for (int r = 0; r < runs; r++) {
    for (int w = 0; w < NLOOPS; w++) {
      uint64_t t0 = ns_now();
      run_loop(w, calls);
      loops[w * runs + r] = (double)(ns_now() - t0) / (double)calls;
    }
    double f[NFLUSH];
    time_flush(f, copy);
    for (int k = 0; k < NFLUSH; k++)
      flush[k * runs + r] = f[k];
  }
  /* overheads: per repetition, wrapped - plain (alternated within it) */
  double *d = malloc(sizeof(double) * (size_t)runs);
  double ov_iprobe, ov_test, med[NLOOPS], fmed[NFLUSH];
  for (int r = 0; r < runs; r++)
    d[r] = loops[L_WRAP_IPROBE * runs + r] - loops[L_PLAIN_IPROBE * runs + r];
  ov_iprobe = median_of(d, runs);
  for (int r = 0; r < runs; r++)
    d[r] = loops[L_WRAP_TEST * runs + r] - loops[L_PLAIN_TEST * runs + r];
  ov_test = median_of(d, runs);
  for (int w = 0; w < NLOOPS; w++)
    med[w] = median_of(loops + w * runs, runs);
  for (int k = 0; k < NFLUSH; k++)
    fmed[k] = median_of(flush + k * runs, runs);
  double per_event_flush = fmed[F_TOTAL];
  double steps[] = {med[L_CLOCK], med[L_ENTER_EXIT] - med[L_CLOCK], med[L_FILL] - med[L_ENTER_EXIT],
                    med[L_COMMIT] - med[L_FILL], per_event_flush};
  const char *step_names[] = {"clock (2 TSC reads)", "enter/exit (checks, TLS, init)",
                              "fill (Iprobe's fields)", "commit (buffer write)",
                              "flush + encode, per record"};
  double sum = 0;
  for (int k = 0; k < 5; k++)
    sum += steps[k];
  if (rank == 0) {
    double load[3] = {0};
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
      if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = -1;
      fclose(f);
    }
    if (json) {
      printf("{\"mpi\": \"%s\", \"calls\": %ld, \"runs\": %d, \"load1\": %.2f, "
             "\"iprobe_overhead_ns\": %.2f, "
             "\"test_overhead_ns\": %.2f, \"clock_ns\": %.2f, \"enter_exit_ns\": %.2f, "
             "\"fill_ns\": %.2f, \"commit_ns\": %.2f, \"flush_ns\": %.2f, "
             "\"flush_clock_ns\": %.2f, \"flush_callsites_ns\": %.2f, \"flush_fused_ns\": %.2f, "
             "\"flush_writer_ns\": "
             "%.2f, \"flush_encode_ns\": %.2f, \"steps_sum_ns\": %.2f}\n",
             AUGUR_BENCH_MPI, calls, runs, load[0], ov_iprobe, ov_test, steps[0], steps[1],
             steps[2], steps[3], steps[4], fmed[F_CLOCK], fmed[F_CALLSITES], fmed[F_FUSED],
             fmed[F_WRITER], fmed[F_ENCODE], sum);
    } else {
      printf("recorder cost per call, linked in (%s, 1 process; median of %d alternating runs "
             "of %ld calls; load %.2f)\n\n",
             AUGUR_BENCH_MPI, runs, calls, load[0]);
      printf("  %-32s %8.1f ns   (wrapped %.1f, plain %.1f)\n", "MPI_Iprobe overhead", ov_iprobe,
             med[L_WRAP_IPROBE], med[L_PLAIN_IPROBE]);
      printf("  %-32s %8.1f ns   (wrapped %.1f, plain %.1f)\n\n", "MPI_Test (pending) overhead",
             ov_test, med[L_WRAP_TEST], med[L_PLAIN_TEST]);
      printf("  breakdown (MPI_Iprobe's steps)\n");
      for (int k = 0; k < 5; k++)
        printf("  %-32s %8.1f ns\n", step_names[k], steps[k]);
      printf("  %-32s %8.1f ns\n", "sum", sum);
      for (int k = 1; k < NFLUSH; k++)
        printf("  %-32s %8.1f ns\n", flush_names[k], fmed[k]);
    }
  }
  PMPI_Cancel(&pending);
  PMPI_Wait(&pending, MPI_STATUS_IGNORE);
  free(d);
  free(copy);
  free(loops);
  free(flush);
  MPI_Finalize();
  return 0;
}
