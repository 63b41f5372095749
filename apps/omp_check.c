/* omp_check — a hybrid MPI + OpenMP program whose OpenMP behaviour is known,
 * for the OMPT recorder's test (tests/openmp; docs/openmp.md).
 *
 *   omp_check [-r REGIONS] [-t THREADS] [-n ITERS] [-c CHUNK] [-k CRITICAL]
 *             [-d DELAY_MS] [-p PRE]
 *
 * MPI_Init_thread(FUNNELED); PRE parallel regions before it (their records
 * are dropped and counted); then REGIONS parallel regions of THREADS threads
 * (num_threads clause), each:
 *   - a schedule(dynamic, CHUNK) loop of ITERS iterations;
 *   - thread j sleeps j * DELAY_MS ms, then an explicit barrier: thread j
 *     waits there about (THREADS - 1 - j) * DELAY_MS ms;
 *   - each thread enters a critical section CRITICAL times;
 * then one MPI_Allreduce of the iteration counts (every rank did ITERS per
 * region). Each rank prints, per region and thread, what it did:
 *   omp_check rank R region K thread J team T iters I chunks C critical N
 * (K counts from 1 over the regions after MPI_Init). The test compares the
 * trace with these lines.
 *
 * Built twice: with clang -fopenmp (libomp, OMPT) and with the flavour's
 * mpicc -fopenmp (GCC, libgomp: recorded on a preloaded libomp). */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common.h"

#define MAX_THREADS 64

typedef struct per_thread {
  long iters, chunks, critical;
  int team;
} per_thread;

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0)
    ;
}

static volatile double sink;

int main(int argc, char **argv) {
  long regions = 3, threads = 4, iters = 1000, chunk = 7, critical = 5, delay = 10, pre = 1;
  const app_opt opts[] = {{'r', "REGIONS", 1, 100000, &regions},
                          {'t', "THREADS", 1, MAX_THREADS, &threads},
                          {'n', "ITERS", 0, 100000000, &iters},
                          {'c', "CHUNK", 1, 1000000, &chunk},
                          {'k', "CRITICAL", 0, 1000000, &critical},
                          {'d', "DELAY_MS", 0, 10000, &delay},
                          {'p', "PRE", 0, 100, &pre}};
  int bad = app_parse(argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), 1);
  for (long p = 0; p < pre; p++) {
#pragma omp parallel num_threads((int)threads)
    sink = omp_get_thread_num();
  }
  int provided = 0, rank = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (bad || provided < MPI_THREAD_FUNNELED) {
    if (!bad && rank == 0) fprintf(stderr, "omp_check: MPI_THREAD_FUNNELED not provided\n");
    MPI_Finalize();
    return 2;
  }
  static per_thread pt[MAX_THREADS];
  long total = 0, shared = 0;
  for (long k = 1; k <= regions; k++) {
    for (int j = 0; j < MAX_THREADS; j++)
      pt[j] = (per_thread){0, 0, 0, 0};
#pragma omp parallel num_threads((int)threads) reduction(+ : total)
    {
      int j = omp_get_thread_num();
      pt[j].team = omp_get_num_threads();
#pragma omp for schedule(dynamic, chunk)
      for (long i = 0; i < iters; i++) {
        pt[j].iters++;
        if (i % chunk == 0) pt[j].chunks++; /* dynamic chunks start at multiples of CHUNK */
        sink = sink + (double)i;
        total++;
      }
      sleep_ms(j * delay);
#pragma omp barrier
      for (long c = 0; c < critical; c++) {
#pragma omp critical
        {
          shared++;
          pt[j].critical++;
        }
      }
    }
    for (int j = 0; j < threads; j++)
      if (pt[j].team)
        printf("omp_check rank %d region %ld thread %d team %d iters %ld chunks %ld critical %ld\n",
               rank, k, j, pt[j].team, pt[j].iters, pt[j].chunks, pt[j].critical);
  }
  long all = 0;
  MPI_Allreduce(&total, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int ok = all == (long)size * regions * iters && shared == regions * threads * critical;
  if (rank == 0)
    printf("omp_check %s: %ld iterations on %d ranks\n", ok ? "ok" : "WRONG", all, size);
  fflush(stdout);
  MPI_Finalize();
  return ok ? 0 : 1;
}
