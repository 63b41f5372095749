/* augur-bench-omp — the overhead of OpenMP constructs, after the EPCC OpenMP
 * microbenchmarks' syncbench (Bull; Reid): each test runs INNER repetitions
 * of a construct wrapped around a fixed delay, and its overhead is
 * (test time - reference time) / INNER, the reference being the same delays
 * without the construct. An MPI program (1 rank is enough) so `augur record`
 * records it: bench/openmp/run.sh runs it plainly and recorded.
 *
 * usage: augur-bench-omp [-t THREADS] [-r OUTER] [-i INNER] [-d DELAY] [--json]
 *   (defaults 0 = OMP_NUM_THREADS or the runtime's default, 200, 100, 200)
 * Tests (EPCC's definitions):
 *   parallel  `omp parallel { delay }` vs one delay
 *   for       inside one region, `omp for` over T iterations { delay } vs one delay
 *   barrier   inside one region, delay; `omp barrier` vs one delay
 *   critical  inside one region, INNER/T times `omp critical { delay }` vs INNER
 *             delays on one thread (T threads queue: the construct serialises)
 * Each figure is the median over OUTER measurements, in ns per construct.
 * Many short measurements (INNER 100: well under a time slice) rather than
 * EPCC's few long ones: on a shared machine a long window almost always
 * contains a preemption, a short one seldom, and the median skips those.
 * Output (rank 0): one line per test "NAME ns=X", or with --json one object:
 * {"threads": T, "runtime": "libgomp"|"libomp", "inner": I, "outer": O,
 *  "delay": D, "parallel_ns": X, "for_ns": X, "barrier_ns": X, "critical_ns": X}
 * ("runtime" is the one the program was built for; `augur record` may run a
 * GCC build on LLVM's libomp: bench/openmp/run.sh says so). */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h" /* apps/: pg_parse, pg_now */

static long delay_length = 200;

/* EPCC's delay: a loop the compiler must run (volatile accumulator). */
static void delay(void) {
  volatile double a = 0.0;
  for (long i = 0; i < delay_length; i++)
    a += (double)i;
  (void)a;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum { T_PARALLEL, T_FOR, T_BARRIER, T_CRITICAL, NTESTS };
static const char *const test_names[NTESTS] = {"parallel", "for", "barrier", "critical"};

/* One measurement of test k: ns for `inner` repetitions. */
static double run_test(int k, long inner, int team) {
  double t0 = (double)pg_now();
  switch (k) {
  case T_PARALLEL:
    for (long j = 0; j < inner; j++) {
#pragma omp parallel
      delay();
    }
    break;
  case T_FOR:
#pragma omp parallel
    for (long j = 0; j < inner; j++) {
#pragma omp for
      for (int i = 0; i < team; i++)
        delay();
    }
    break;
  case T_BARRIER:
#pragma omp parallel
    for (long j = 0; j < inner; j++) {
      delay();
#pragma omp barrier
    }
    break;
  case T_CRITICAL:
#pragma omp parallel
    for (long j = 0; j < inner / team; j++) {
#pragma omp critical
      delay();
    }
    break;
  }
  return (double)pg_now() - t0;
}

/* The reference (EPCC's): INNER delays in a row, what every test costs
 * without its construct (critical: the INNER delays serialise anyway). */
static double run_reference(long inner) {
  double t0 = (double)pg_now();
  for (long j = 0; j < inner; j++)
    delay();
  return (double)pg_now() - t0;
}

int main(int argc, char **argv) {
  int provided = 0, rank = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long threads = 0, outer = 200, inner = 100, json = 0;
  const pg_opt opts[] = {{"threads", 't', PG_INT, 0, 4096, &threads, NULL},
                         {"outer", 'r', PG_INT, 1, 100000, &outer, NULL},
                         {"inner", 'i', PG_INT, 1, 100000000, &inner, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &delay_length, NULL},
                         {"json", 0, PG_FLAG, 0, 1, &json, NULL}};
  if (pg_parse(argc, argv, opts, 5, rank == 0) != 0 || provided < MPI_THREAD_FUNNELED) {
    if (rank == 0)
      fprintf(stderr, "usage: augur-bench-omp [-t THREADS] [-r OUTER] [-i INNER] [-d DELAY]"
                      " [--json] (needs MPI_THREAD_FUNNELED)\n");
    MPI_Finalize();
    return 2;
  }
  if (threads > 0) omp_set_num_threads((int)threads);
  const int team = omp_get_max_threads();
  if (inner < team) inner = team; /* critical: at least one entry per thread */

  double ns[NTESTS];
  double *v = malloc(sizeof *v * (size_t)outer);
  if (!v) {
    fprintf(stderr, "augur-bench-omp: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  run_test(T_PARALLEL, inner, team); /* warm up: create the thread pool */
  for (int k = 0; k < NTESTS; k++) {
    for (long o = 0; o < outer; o++) {
      double ref = run_reference(inner);
      v[o] = (run_test(k, inner, team) - ref) / (double)inner;
    }
    ns[k] = median(v, (int)outer);
  }
  free(v);
  if (rank == 0) {
#ifdef __clang__
    const char *runtime = "libomp";
#else
    const char *runtime = "libgomp";
#endif
    if (json) {
      printf(
          "{\"threads\": %d, \"runtime\": \"%s\", \"inner\": %ld, \"outer\": %ld, \"delay\": %ld",
          team, runtime, inner, outer, delay_length);
      for (int k = 0; k < NTESTS; k++)
        printf(", \"%s_ns\": %.1f", test_names[k], ns[k]);
      printf("}\n");
    } else {
      printf("augur-bench-omp: %s, %d threads, %ld x %ld repetitions, delay %ld\n", runtime, team,
             outer, inner, delay_length);
      for (int k = 0; k < NTESTS; k++)
        printf("%-9s ns=%.1f\n", test_names[k], ns[k]);
    }
  }
  MPI_Finalize();
  return 0;
}
