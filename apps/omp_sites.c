/* omp_sites — OpenMP regions whose fork call GCC gives another line than
 * the pragma's (docs/openmp.md, "Region lines"): a region that opens the
 * block of an `if` after a comment (miniAMR's stencil_calc: the call at the
 * `if`'s line), one in the `else`, and one that is the last statement of a
 * function (miniAMR: the call at the closing brace). Each pragma is on the
 * line right after an "@augur:NAME" marker, each MPI call too. GCC 12
 * inlines both functions into main's loop and loads the outlined functions'
 * addresses into registers once, before it: each call moves one into %rdi.
 *
 * usage: omp_sites [-n ITER] [-t THREADS]   (defaults 3, 0 = OMP_NUM_THREADS or the runtime's)
 * Output, rank 0: "omp_sites: ranks=N threads=T iter=ITER sum=S". */
#include <mpi.h>
#include <stdio.h>

#include "pg_omp.h"

#define N 4096
static double a[N];

static void scale(int mode) {
  int i;

  if (mode == 7) {
// Parallelize
/* @augur:omp_sites.in_if */
#pragma omp parallel for
    for (i = 0; i < N; i++)
      a[i] = a[i] * 0.5 + i;
  } else {
/* @augur:omp_sites.in_else */
#pragma omp parallel for
    for (i = 0; i < N; i++)
      a[i] = a[i] + 1;
  }
}

static void last(double d) {
  /* @augur:omp_sites.last */
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    a[i] -= d;
}

int main(int argc, char **argv) {
  int provided = 0;
  /* @augur:omp_sites.init */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 3, threads = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"threads", 't', PG_INT, 0, PG_OMP_MAXT, &threads, NULL}};
  if (pg_omp_args(argc, argv, opts, 2, rank, provided, "omp_sites [-n ITER] [-t THREADS]") != 0) {
    /* @augur:omp_sites.finalize_usage */
    MPI_Finalize();
    return 2;
  }
  int team = pg_omp_team(threads);
  for (long it = 0; it < iter; it++) {
    scale(7);
    scale(1);
    last(0.25);
  }
  double s = 0, sum = 0;
  for (int i = 0; i < N; i++)
    s += a[i];
  /* @augur:omp_sites.reduce */
  MPI_Reduce(&s, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("omp_sites: ranks=%d threads=%d iter=%ld sum=%g\n", size, team, iter, sum);
  /* @augur:omp_sites.finalize */
  MPI_Finalize();
  return 0;
}
