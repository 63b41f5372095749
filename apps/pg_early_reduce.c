/* pg_early_reduce — the root of every MPI_Reduce arrives early: all ranks
 * compute BASE, the non-roots D more, then MPI_Reduce to rank 0. The root
 * waits D each time (KappaPi's "early receiver" at a collective's root).
 *
 * usage: pg_early_reduce [-n ITER] [-d US] [-b US] [--off]
 * Lost process-time: D x ITER, on rank 0. --off: the root computes D too. */
#include <mpi.h>
#include <stdio.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_early_reduce.init */
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
      if (size < 2) fprintf(stderr, "pg_early_reduce: needs at least 2 ranks\n");
      fprintf(stderr, "usage: pg_early_reduce [-n ITER] [-d US] [-b US] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  if (rank == 0)
    pg_expected(off ? "none" : "early_reduce", off ? 0.0 : 1e-6 * (double)d_us * iter, 0,
                off ? -1 : 0, 1, "site=pg_early_reduce.reduce");

  /* Start together: MPI_Init returns at different times on different ranks,
   * and that skew is not part of the problem. */
  /* @augur:pg_early_reduce.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  double local = rank + 1.0, total = 0.0;
  for (long it = 0; it < iter; it++) {
    /* --off: everybody does the same work, so nobody waits. */
    pg_spin(base_us * PG_US + (off || rank != 0 ? d_us * PG_US : 0));
    /* @augur:pg_early_reduce.reduce */
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  }
  /* @augur:pg_early_reduce.finalize */
  MPI_Finalize();
  return 0;
}
