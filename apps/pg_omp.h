/* Shared by the OpenMP apps (omp_stencil, pg_omp_*; apps/README.md, "Hybrid
 * MPI+OpenMP"): the team size option and the "measured:" line each program
 * prints from its own timers. On top of pg_common.h (options, pg_spin,
 * pg_now, pg_expected). Built with -fopenmp by GCC (libgomp) and by clang
 * (LLVM libomp): apps/apps.cmake. */
#ifndef AUGUR_APPS_PG_OMP_H
#define AUGUR_APPS_PG_OMP_H

#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#include "pg_common.h"

/* Sets the team size of the following parallel regions (threads > 0; 0 keeps
 * OMP_NUM_THREADS or the runtime's default) and returns it. */
static inline int pg_omp_team(long threads) {
  if (threads > 0) omp_set_num_threads((int)threads);
  return omp_get_max_threads();
}

/* Parses the options (pg_parse) and checks MPI gave MPI_THREAD_FUNNELED (the
 * apps call MPI from the master thread only, some inside parallel regions).
 * On failure rank 0 prints the problem and `usage`; returns 0, or 2: the
 * caller calls MPI_Finalize and exits with it. */
static inline int pg_omp_args(int argc, char **argv, const pg_opt *opts, int nopts, int rank,
                              int provided, const char *usage) {
  int bad = pg_parse(argc, argv, opts, nopts, rank == 0) != 0;
  if (!bad && provided < MPI_THREAD_FUNNELED) {
    bad = 1;
    if (rank == 0) fprintf(stderr, "%s: MPI does not provide MPI_THREAD_FUNNELED\n", argv[0]);
  }
  if (bad && rank == 0) fprintf(stderr, "usage: %s\n", usage);
  return bad ? 2 : 0;
}

/* On rank 0: out[i] = the sum over ranks of sums[i] (i < n), out[n] = the
 * largest wall. Collective. */
static inline void pg_omp_totals(const double *sums, int n, double wall, double *out) {
  /* @augur:pg_omp.sums */
  MPI_Reduce(sums, out, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  /* @augur:pg_omp.wall */
  MPI_Reduce(&wall, &out[n], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
}

/* Prints "measured: lost_seconds=X wall_seconds=W threads=T": what the
 * problem cost by the program's own timers (thread-seconds summed over all
 * ranks and threads) and the wall time of its timed loop (the slowest rank).
 * The tests compare ON with OFF; bench/diagnose compares augur's figure. */
static inline void pg_measured(double lost_s, double wall_s, int threads) {
  printf("measured: lost_seconds=%.6f wall_seconds=%.6f threads=%d\n", lost_s, wall_s, threads);
  fflush(stdout);
}

/* A thread's private slot, one cache line each, so timers written by
 * different threads do not share a line. */
typedef struct pg_slot {
  long long t;
  char pad[64 - sizeof(long long)];
} pg_slot;

#define PG_OMP_MAXT 256 /* largest team the apps accept (-t) */

#endif
