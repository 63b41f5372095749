/* dx_eager — what the eager limit looks like in a trace (diagnose: the
 * eager-limit line). For each size 8 B, 64 B, ... up to MAX bytes (x8), ITER
 * times: both ranks leave a barrier, rank 0 sends at once with MPI_Send;
 * rank 1 posts its MPI_Recv after D (a late receiver: eager sends finish
 * before it, rendezvous sends wait for it), or at once with --tight (the
 * post and the send overlap: nothing to learn about the protocol).
 *
 * usage: dx_eager [-n ITER] [-d D_US] [-m MAX_BYTES] [--tight]   (2 ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:dx_eager.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 5, d_us = 2000, max = 1L << 21, tight = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL},
                         {"max", 'm', PG_INT, 8, 1L << 28, &max, NULL},
                         {"tight", 0, PG_FLAG, 0, 1, &tight, NULL}};
  if (pg_parse(argc, argv, opts, 4, rank == 0) != 0 || size != 2) {
    if (rank == 0)
      fprintf(stderr, "usage: dx_eager [-n ITER] [-d D_US] [-m MAX_BYTES] [--tight] (2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  char *buf = calloc((size_t)max, 1);
  if (!buf) {
    fprintf(stderr, "dx_eager: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  for (long n = 8; n <= max; n *= 8)
    for (long it = 0; it < iter; it++) {
      /* @augur:dx_eager.sync */
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 0) {
        /* @augur:dx_eager.send */
        MPI_Send(buf, (int)n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      } else {
        if (!tight) pg_spin(d_us * PG_US);
        /* @augur:dx_eager.recv */
        MPI_Recv(buf, (int)n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    }
  free(buf);
  /* @augur:dx_eager.finalize */
  MPI_Finalize();
  return 0;
}
