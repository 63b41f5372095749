/* ph_levels — a multigrid-like V-cycle (issue 21, item 2: NPB MG's levels
 * have the same calls but different message sizes and compute).
 *
 * Ranks form a ring. Level l (0 = coarsest, LEVELS-1 = finest) exchanges
 * BYTES x 4^l with both neighbours and computes WORK x 2^(G l) units per sweep
 * (G = 3 by default: 8 x per level, as a 3-D grid's points).
 * Every level's exchange goes through one function, exchange(), so every
 * level has the same calls at the same call sites; only the sizes and the
 * compute between them differ. An iteration is one V-cycle:
 *   down: for l = finest .. 1: restrict (1 sweep of level l), exchange(l - 1)
 *   bottom: smooth (1 sweep of level 0), exchange(0)
 *   up:   for l = 1 .. finest: interpolate (1 sweep of level l), exchange(l),
 *         smooth (3 sweeps of level l), exchange(l)
 *   MPI_Allreduce of the residual norm.
 * Before the iterations, a set-up (like MG's initialisation) exchanges the
 * finest level SETUP times with almost no compute in between: the first
 * repetitions of the finest level's exchange are cheap ones, the rest are
 * not. Needs at least 2 ranks.
 * MPI calls have @augur markers (apps/README.md). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

/* One halo exchange of CNT doubles with both ring neighbours. */
static void exchange(double *buf, long cnt, int left, int right) {
  MPI_Request req[4];
  MPI_Status sts[4];
  /* @augur:ph_levels.irecv_left */
  MPI_Irecv(buf + 2 * cnt, (int)cnt, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
  /* @augur:ph_levels.irecv_right */
  MPI_Irecv(buf + 3 * cnt, (int)cnt, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[1]);
  /* @augur:ph_levels.isend_right */
  MPI_Isend(buf, (int)cnt, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[2]);
  /* @augur:ph_levels.isend_left */
  MPI_Isend(buf + cnt, (int)cnt, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[3]);
  /* @augur:ph_levels.waitall */
  MPI_Waitall(4, req, sts);
}

int main(int argc, char **argv) {
  /* @augur:ph_levels.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 10, levels = 4, work = 4, bytes = 64, setup = 20, growth = 3;
  const app_opt opts[] = {{'n', "ITER", 1, 1000000000L, &iter}, {'l', "LEVELS", 2, 12, &levels},
                          {'w', "WORK", 1, 1000000L, &work},    {'s', "BYTES", 8, 1L << 16, &bytes},
                          {'S', "SETUP", 0, 100000L, &setup},   {'G', "GROWTH", 0, 3, &growth}};
  if (app_parse(argc, argv, opts, 6, rank == 0) != 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: ph_levels [-n ITER] [-l LEVELS] [-w WORK] [-s BYTES] [-S SETUP] "
                      "[-G GROWTH] (>= 2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  long n = 512; /* doubles swept per work unit */
  long maxcnt = (bytes / 8) << (2 * (levels - 1));
  if (maxcnt > (1L << 22)) { /* 4 buffers of the finest level's message: at most 128 MiB */
    if (rank == 0) fprintf(stderr, "ph_levels: BYTES x 4^(LEVELS - 1) above 32 MiB\n");
    MPI_Finalize();
    return 2;
  }
  double *a = malloc((size_t)n * sizeof *a);
  double *buf = calloc((size_t)(4 * maxcnt), sizeof *buf);
  if (!a || !buf) {
    fprintf(stderr, "ph_levels: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  for (long i = 0; i < n; i++)
    a[i] = (double)((i * 7 + rank) % 13) / 13.0;
#define CNT(l)  ((bytes / 8) << (2 * (l)))
#define WORK(l) (work << (growth * (l)))
  long top = levels - 1;
  double norm = 0, gnorm = 0;
  for (long s = 0; s < setup; s++) { /* set-up: the finest level, no compute */
    buf[0] = (double)s;
    exchange(buf, CNT(top), left, right);
  }
  for (long it = 0; it < iter; it++) {
    for (long l = top; l >= 1; l--) { /* restrict */
      buf[0] = app_relax(a, n, WORK(l));
      exchange(buf, CNT(l - 1), left, right);
    }
    buf[0] = app_relax(a, n, WORK(0)); /* bottom smooth */
    exchange(buf, CNT(0), left, right);
    for (long l = 1; l <= top; l++) {
      buf[0] = app_relax(a, n, WORK(l)); /* interpolate */
      exchange(buf, CNT(l), left, right);
      buf[0] = app_relax(a, n, 3 * WORK(l)); /* smooth */
      exchange(buf, CNT(l), left, right);
    }
    norm = buf[2 * CNT(top)] + app_relax(a, n, 1);
    /* @augur:ph_levels.allreduce */
    MPI_Allreduce(&norm, &gnorm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("ph_levels: ranks=%d iter=%ld levels=%ld work=%ld bytes=%ld setup=%ld norm=%g\n", size,
           iter, levels, work, bytes, setup, gnorm);
  free(a);
  free(buf);
  /* @augur:ph_levels.finalize */
  MPI_Finalize();
  return 0;
}
