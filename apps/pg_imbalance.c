/* pg_imbalance — load imbalance between MPI_Allreduce calls: rank r computes
 * BASE x (1 + K x r) (K in percent), then all ranks meet in MPI_Allreduce.
 * Each rank waits there for the slowest (rank N-1); the excess waiting sits
 * at the call site marked pg_imbalance.allreduce.
 *
 * usage: pg_imbalance [-n ITER] [-b US] [-k PERCENT] [--off]
 * Lost process-time: sum over r of BASE x K x (N-1-r) = BASE x K x N(N-1)/2
 * per iteration, on ranks 0..N-2. --off: K = 0. */
#include <mpi.h>
#include <stdio.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_imbalance.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 5, base_us = 4000, k_pct = 100, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"k", 'k', PG_INT, 0, 100000, &k_pct, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 4, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "pg_imbalance: needs at least 2 ranks\n");
      fprintf(stderr, "usage: pg_imbalance [-n ITER] [-b US] [-k PERCENT] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  if (off) k_pct = 0;
  if (rank == 0)
    pg_expected(k_pct ? "load_imbalance" : "none",
                1e-6 * (double)base_us * (double)k_pct / 100.0 * size * (size - 1) / 2.0 * iter, 0,
                k_pct ? size - 2 : -1, 1, "site=pg_imbalance.allreduce");

  /* Start together: MPI_Init returns at different times on different ranks,
   * and that skew is not part of the problem. */
  /* @augur:pg_imbalance.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  double local = 1.0, total = 0.0;
  for (long it = 0; it < iter; it++) {
    pg_spin(base_us * PG_US + base_us * PG_US * k_pct * rank / 100);
    /* @augur:pg_imbalance.allreduce */
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  /* @augur:pg_imbalance.finalize */
  MPI_Finalize();
  return 0;
}
