/* dx_mpilate — the last rank at a collective is late from MPI calls that
 * do not wait (diagnose: cause and fix of collective waits must agree).
 * Every step all ranks compute W; the last rank then copies BYTES through
 * MPI_Sendrecv to itself K times (time inside MPI, no rank waits), or with
 * --compute computes for as long instead; then all meet in MPI_Allreduce.
 *
 * usage: dx_mpilate [-n ITER] [-w W_US] [-s BYTES] [-k K] [-c C_US] [--compute]
 *        (>= 2 ranks; --compute spins C_US on the last rank) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:dx_mpilate.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 10, w_us = 2000, bytes = 8L << 20, k = 4, c_us = 20000, compute = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"work", 'w', PG_INT, 0, 100000000, &w_us, NULL},
                         {"size", 's', PG_INT, 1, 1L << 28, &bytes, NULL},
                         {"copies", 'k', PG_INT, 1, 1000, &k, NULL},
                         {"cwork", 'c', PG_INT, 0, 100000000, &c_us, NULL},
                         {"compute", 0, PG_FLAG, 0, 1, &compute, NULL}};
  if (pg_parse(argc, argv, opts, 6, rank == 0) != 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: dx_mpilate [-n ITER] [-w W_US] [-s BYTES] [-k K] [-c C_US] "
                      "[--compute] (at least 2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  char *a = calloc((size_t)bytes, 1), *b = calloc((size_t)bytes, 1);
  if (!a || !b) {
    fprintf(stderr, "dx_mpilate: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  double x = 1, sum;
  for (long it = 0; it < iter; it++) {
    pg_spin(w_us * PG_US);
    if (rank == size - 1 && compute) pg_spin(c_us * PG_US);
    if (rank == size - 1 && !compute)
      for (long i = 0; i < k; i++) {
        /* @augur:dx_mpilate.copy */
        MPI_Sendrecv(a, (int)bytes, MPI_BYTE, rank, 0, b, (int)bytes, MPI_BYTE, rank, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    /* @augur:dx_mpilate.allreduce */
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  free(a);
  free(b);
  /* @augur:dx_mpilate.finalize */
  MPI_Finalize();
  return 0;
}
