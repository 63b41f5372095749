/* omp_stencil — hybrid MPI+OpenMP Jacobi iteration, the "masteronly" shape of
 * most hybrid codes: the master thread exchanges the halo rows with MPI
 * outside the parallel regions (MPI_THREAD_FUNNELED), then the team sweeps
 * the block in an `omp parallel for`.
 *
 * usage: omp_stencil [-n ITER] [-x NX] [-y NY] [-t THREADS]
 *   (defaults 100, 256, 256, 0 = OMP_NUM_THREADS or the runtime's default)
 *
 * 1-D decomposition: rank r owns rows r*NX+1..(r+1)*NX of an (N*NX) x NY
 * domain, with one halo row above and below and a halo column each side.
 * Halo cells on the edge of the whole domain hold 1.0, the rest starts at
 * 0.0. Per iteration, on every rank: MPI_Sendrecv shifting up (row 1 to the
 * rank above, tag 0; halo row NX+1 from the rank below), MPI_Sendrecv
 * shifting down (row NX to the rank below, tag 1; halo row 0 from the rank
 * above) — MPI_PROC_NULL at the domain's edges, so every rank makes both
 * calls — then the sweep (`omp parallel for schedule(static)` over the
 * rows, reduction of the squared change), then MPI_Allreduce of the residual.
 *
 * Output, rank 0: "omp_stencil: ranks=N threads=T block=NXxNY iter=ITER
 * residual=R" (R does not depend on N or T up to rounding), then one line per
 * rank with its own timers in seconds, from the barrier before the loop to
 * its end: "omp_stencil: rank=R total=S sweep=S halo=S allreduce=S" (sweep:
 * the parallel regions, fork to join; halo: the two MPI_Sendrecv). The POP
 * efficiencies of a recorded run are checked against these.
 *
 * Every MPI call is on the line right after an "@augur:NAME" marker, the
 * sweep's pragma right after "@augur:omp_stencil.sweep". */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_omp.h"

#define AT(u, i, j) ((u)[(size_t)(i) * (size_t)(ny + 2) + (size_t)(j)])

int main(int argc, char **argv) {
  int provided = 0;
  /* @augur:omp_stencil.init */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 100, lnx = 256, lny = 256, threads = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000000L, &iter, NULL},
                         {"nx", 'x', PG_INT, 1, 1L << 16, &lnx, NULL},
                         {"ny", 'y', PG_INT, 1, 1L << 16, &lny, NULL},
                         {"threads", 't', PG_INT, 0, PG_OMP_MAXT, &threads, NULL}};
  if (pg_parse(argc, argv, opts, 4, rank == 0) != 0 || provided < MPI_THREAD_FUNNELED) {
    if (rank == 0) {
      if (provided < MPI_THREAD_FUNNELED)
        fprintf(stderr, "omp_stencil: the MPI library does not provide MPI_THREAD_FUNNELED\n");
      fprintf(stderr, "usage: omp_stencil [-n ITER] [-x NX] [-y NY] [-t THREADS]\n");
    }
    /* @augur:omp_stencil.finalize_usage */
    MPI_Finalize();
    return 2;
  }
  const int nx = (int)lnx, ny = (int)lny, team = pg_omp_team(threads);
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

  size_t cells = (size_t)(nx + 2) * (size_t)(ny + 2);
  double *u = calloc(cells, sizeof *u), *un = calloc(cells, sizeof *un);
  if (!u || !un) {
    fprintf(stderr, "omp_stencil: rank %d: out of memory for %dx%d\n", rank, nx, ny);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int i = 0; i <= nx + 1; i++)
    for (int j = 0; j <= ny + 1; j++) {
      int edge = j == 0 || j == ny + 1 || (i == 0 && up == MPI_PROC_NULL) ||
                 (i == nx + 1 && down == MPI_PROC_NULL);
      AT(u, i, j) = AT(un, i, j) = edge ? 1.0 : 0.0;
    }

  /* @augur:omp_stencil.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  double residual = 0.0, t_sweep = 0.0, t_halo = 0.0, t_allreduce = 0.0;
  long long t0 = pg_now();
  for (long it = 0; it < iter; it++) {
    long long h0 = pg_now();
    /* @augur:omp_stencil.halo_up */
    MPI_Sendrecv(&AT(u, 1, 0), ny + 2, MPI_DOUBLE, up, 0, &AT(u, nx + 1, 0), ny + 2, MPI_DOUBLE,
                 down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* @augur:omp_stencil.halo_down */
    MPI_Sendrecv(&AT(u, nx, 0), ny + 2, MPI_DOUBLE, down, 1, &AT(u, 0, 0), ny + 2, MPI_DOUBLE, up,
                 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long long s0 = pg_now();
    double local = 0.0;
    /* @augur:omp_stencil.sweep */
#pragma omp parallel for schedule(static) reduction(+ : local)
    for (int i = 1; i <= nx; i++)
      for (int j = 1; j <= ny; j++) {
        double v = 0.25 * (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) + AT(u, i, j + 1));
        double d = v - AT(u, i, j);
        AT(un, i, j) = v;
        local += d * d;
      }
    long long a0 = pg_now();
    /* @augur:omp_stencil.allreduce */
    MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    long long a1 = pg_now();
    t_halo += 1e-9 * (double)(s0 - h0);
    t_sweep += 1e-9 * (double)(a0 - s0);
    t_allreduce += 1e-9 * (double)(a1 - a0);
    double *tmp = u;
    u = un;
    un = tmp;
  }
  double mine[4] = {1e-9 * (double)(pg_now() - t0), t_sweep, t_halo, t_allreduce};
  double *all = rank == 0 ? malloc(sizeof mine * (size_t)size) : NULL;
  /* @augur:omp_stencil.gather */
  MPI_Gather(mine, 4, MPI_DOUBLE, all, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("omp_stencil: ranks=%d threads=%d block=%dx%d iter=%ld residual=%.6e\n", size, team, nx,
           ny, iter, sqrt(residual));
    for (int r = 0; all && r < size; r++)
      printf("omp_stencil: rank=%d total=%.6f sweep=%.6f halo=%.6f allreduce=%.6f\n", r, all[4 * r],
             all[4 * r + 1], all[4 * r + 2], all[4 * r + 3]);
    fflush(stdout);
  }
  free(all);
  free(u);
  free(un);
  /* @augur:omp_stencil.finalize */
  MPI_Finalize();
  return 0;
}
