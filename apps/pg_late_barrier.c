/* pg_late_barrier — one rank arrives late at every MPI_Barrier (KappaPi
 * "problems with barriers"): all ranks compute BASE, the last rank computes D
 * more, then everybody enters the barrier. The others wait D each time.
 *
 * usage: pg_late_barrier [-n ITER] [-d US] [-b US] [--off]
 * Lost process-time: D x (N-1) x ITER, on ranks 0..N-2. --off: nobody is late. */
#include <mpi.h>
#include <stdio.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_late_barrier.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 5, d_us = 20000, base_us = 1000, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 4, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "pg_late_barrier: needs at least 2 ranks\n");
      fprintf(stderr, "usage: pg_late_barrier [-n ITER] [-d US] [-b US] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  const int late = size - 1;
  if (rank == 0)
    pg_expected(off ? "none" : "wait_at_barrier",
                off ? 0.0 : 1e-6 * (double)d_us * (size - 1) * iter, 0, off ? -1 : size - 2, 1,
                "site=pg_late_barrier.barrier");

  /* Start together: MPI_Init returns at different times on different ranks,
   * and that skew is not part of the problem. */
  /* @augur:pg_late_barrier.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    /* --off: everybody does the extra work, nobody is late */
    pg_spin(base_us * PG_US + (off || rank == late ? d_us * PG_US : 0));
    /* @augur:pg_late_barrier.barrier */
    MPI_Barrier(MPI_COMM_WORLD);
  }
  /* @augur:pg_late_barrier.finalize */
  MPI_Finalize();
  return 0;
}
