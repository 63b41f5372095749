/* Shared by the hybrid master/worker apps mw_nbody, mw_heat, mw_kmeans
 * (apps/README.md, "Master/worker (issue 25)"; docs/model.md, "apps"): the
 * even split of the workload, the check every app makes of its arguments and
 * rank count, a decomposition-independent checksum, deterministic input
 * values, and the output every app prints from rank 0 (one line per
 * iteration with its time, their median, where the threads ran). On top of
 * pg_omp.h (options, the team size). MPI calls stay in each app's main(). */
#ifndef AUGUR_APPS_MW_COMMON_H
#define AUGUR_APPS_MW_COMMON_H

#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pg_omp.h"

#define MW_MAXITER    1000000L /* largest -i */
#define MW_MAXT       64       /* largest team the apps accept (-t) */
#define MW_TAG_SHARE  0        /* master -> worker */
#define MW_TAG_RESULT 1        /* worker -> master */

/* Worker w (1..workers) owns items [*lo, *hi) of n: an even split, the first
 * n % workers workers one item more. */
static inline void mw_share(long n, int workers, int w, long *lo, long *hi) {
  long q = n / workers, r = n % workers, k = w - 1;
  *lo = k * q + (k < r ? k : r);
  *hi = *lo + q + (k < r ? 1 : 0);
}

/* The argument checks every app makes after pg_parse (`bad` its result, or
 * nonzero when MPI lacks MPI_THREAD_FUNNELED: `funneled` 0): at least one
 * worker, and `min_items` (the workload's smallest indivisible unit count)
 * no fewer than the workers. Rank 0 prints one line and the usage line.
 * Returns 0, or 2: the caller calls MPI_Finalize and exits with it. */
static inline int mw_args(int bad, int funneled, int rank, int size, long items, const char *app,
                          const char *what, const char *usage) {
  if (!bad && !funneled) {
    bad = 1;
    if (rank == 0) fprintf(stderr, "%s: MPI does not provide MPI_THREAD_FUNNELED\n", app);
  } else if (!bad && size < 2) {
    bad = 1;
    if (rank == 0) fprintf(stderr, "%s: needs at least 2 ranks (a master and a worker)\n", app);
  } else if (!bad && items < size - 1) {
    bad = 1;
    if (rank == 0)
      fprintf(stderr, "%s: %ld %s for %d workers: each worker needs at least one\n", app, items,
              what, size - 1);
  }
  if (bad && rank == 0) fprintf(stderr, "usage: %s\n", usage);
  return bad ? 2 : 0;
}

/* A value in [0, 1) from a key (splitmix64): input that does not depend on
 * which rank or thread produces it. */
static inline double mw_unit(uint64_t key) {
  uint64_t z = key + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-53;
}

/* The sum modulo 2^64 of the bit patterns of a[0..n): a checksum that does
 * not depend on the order of the terms, so partial sums from any
 * decomposition add up to the same value when every element is the same. */
static inline uint64_t mw_bits(const double *a, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t b;
    memcpy(&b, &a[i], sizeof b);
    s += b;
  }
  return s;
}

/* Seconds on the monotonic clock. */
static inline double mw_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The master's pause between two MPI_Test calls with -s (--sleep-wait), so
 * that a master waiting for its workers leaves its core to them (MPICH's and
 * Open MPI's blocking receive poll and keep a core busy). T0 (mw_now) is when
 * it started waiting for this iteration's results, EXPECT the shortest such
 * wait of the earlier iterations (0 before the second). It sleeps at once
 * until 9/10 of EXPECT, then in steps of EXPECT/100, at least 50 us: about
 * 10-40 wake-ups when the iteration's wait is EXPECT + 0-30 %, instead of
 * one every 50 us (each of which
 * preempted a worker thread when workers x threads = cores: bench/model
 * README.md, "Noise"), for a delay of at most 1 % of the wait (or 50 us plus
 * the timer's slack) in noticing the results; and the 50 us steps, as before,
 * in the first iteration. */
#define MW_NAP_NS 50000L
static inline void mw_nap(double t0, double expect) {
  double waited = mw_now() - t0, ns = (double)MW_NAP_NS;
  if (waited < 0.9 * expect)
    ns = fmax(ns, 1e9 * (0.9 * expect - waited));
  else
    ns = fmax(ns, 1e7 * expect);
  struct timespec ts = {(time_t)(ns / 1e9), (long)fmod(ns, 1e9)};
  nanosleep(&ts, NULL);
}

/* After an iteration's wait that began at T0 (mw_now): the shortest wait so
 * far, *EXPECT (mw_nap's). */
static inline void mw_waited(double t0, double *expect) {
  double w = mw_now() - t0;
  if (*expect <= 0 || w < *expect) *expect = w;
}

/* The CPU the calling thread runs on (-1 when unknown). */
static inline int mw_cpu(void) {
#ifdef __linux__
  return sched_getcpu();
#else
  return -1;
#endif
}

/* Before the timed loop: cpu[0..MW_MAXT) = -2 (no such thread), then on a
 * worker starts the OpenMP team, so that the first iteration does not pay
 * for creating the threads, and records each thread's CPU in cpu[]. */
static inline void mw_team_start(int *cpu, int worker) {
  for (int t = 0; t < MW_MAXT; t++)
    cpu[t] = -2;
  if (!worker) return;
#pragma omp parallel
  {
    if (omp_get_thread_num() < MW_MAXT) cpu[omp_get_thread_num()] = mw_cpu();
  }
}

static inline int mw_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Rank 0's report of the iteration times t[0..n): "iter I t_iter S" per
 * iteration, then "t_iter_median S" (the mean of the two middle ones when n
 * is even). */
static inline void mw_report(const double *t, long n) {
  double *s = malloc((size_t)n * sizeof *s);
  if (!s) {
    fprintf(stderr, "mw: out of memory\n");
    exit(1);
  }
  for (long i = 0; i < n; i++) {
    printf("iter %ld t_iter %.9f\n", i, t[i]);
    s[i] = t[i];
  }
  qsort(s, (size_t)n, sizeof *s, mw_cmp_double);
  printf("t_iter_median %.9f\n", n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]));
  free(s);
}

/* Rank 0's report of where the threads ran: cpus[r * MW_MAXT + t] is the
 * CPU of rank r's thread t in the last iteration (-1: unknown, -2: no such
 * thread), one line "cpus rank R: C0,C1,..." per rank. */
static inline void mw_cpus(const int *cpus, int size) {
  for (int r = 0; r < size; r++) {
    printf("cpus rank %d:", r);
    for (int t = 0; t < MW_MAXT && cpus[r * MW_MAXT + t] >= -1; t++)
      printf("%s%d", t ? "," : " ", cpus[r * MW_MAXT + t]);
    printf("\n");
  }
}

#endif
