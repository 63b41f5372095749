/* sim_pairs — ranks exchange with a partner, NPB CG's row exchange (which
 * ranks share a CPU decides the run's time with more ranks than cores,
 * issue 21). Ranks r and r ^ 1 are partners; every step each computes
 * W us and swaps BYTES with its partner (MPI_Sendrecv). With 4 ranks on 2
 * CPUs, partners on one CPU take turns: each swap waits for the other's
 * time slice; partners on two CPUs run together.
 *
 * usage: sim_pairs [-n ITER] [-w W_US] [-s BYTES]   (an even number of ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:sim_pairs.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 300, w_us = 1000, bytes = 16384;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"work", 'w', PG_INT, 0, 100000000, &w_us, NULL},
                         {"size", 's', PG_INT, 1, 1L << 26, &bytes, NULL}};
  if (pg_parse(argc, argv, opts, 3, rank == 0) != 0 || size % 2) {
    if (rank == 0)
      fprintf(stderr,
              "usage: sim_pairs [-n ITER] [-w W_US] [-s BYTES] (an even number of ranks)\n");
    MPI_Finalize();
    return 2;
  }
  char *out = calloc((size_t)bytes, 1), *in = calloc((size_t)bytes, 1);
  if (!out || !in) {
    fprintf(stderr, "sim_pairs: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  for (long it = 0; it < iter; it++) {
    pg_spin(w_us * PG_US);
    out[0] = (char)it;
    /* @augur:sim_pairs.sendrecv */
    MPI_Sendrecv(out, (int)bytes, MPI_BYTE, rank ^ 1, 0, in, (int)bytes, MPI_BYTE, rank ^ 1, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  free(out);
  free(in);
  /* @augur:sim_pairs.finalize */
  MPI_Finalize();
  return 0;
}
