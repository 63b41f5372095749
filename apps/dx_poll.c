/* dx_poll — polling (diagnose: polling). Rank 1 computes D and sends to
 * rank 0, which posts MPI_Irecv and then calls MPI_Testany (MPI_Test with
 * --test) in a loop until the message is there, doing nothing else.
 *
 * usage: dx_poll [-n ITER] [-d D_US] [--test]   (2 ranks)
 * Polling time: about D x ITER on rank 0. */
#include <mpi.h>
#include <stdio.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:dx_poll.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 20, d_us = 10000, test = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL},
                         {"test", 0, PG_FLAG, 0, 1, &test, NULL}};
  if (pg_parse(argc, argv, opts, 3, rank == 0) != 0 || size != 2) {
    if (rank == 0) fprintf(stderr, "usage: dx_poll [-n ITER] [-d D_US] [--test] (2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  double x[16] = {0};
  for (long it = 0; it < iter; it++) {
    if (rank == 1) {
      pg_spin(d_us * PG_US);
      /* @augur:dx_poll.send */
      MPI_Send(x, 16, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
      continue;
    }
    MPI_Request req;
    /* @augur:dx_poll.irecv */
    MPI_Irecv(x, 16, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &req);
    int done = 0, idx;
    while (!done) {
      if (test) {
        /* @augur:dx_poll.test */
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
      } else {
        /* @augur:dx_poll.testany */
        MPI_Testany(1, &req, &idx, &done, MPI_STATUS_IGNORE);
      }
    }
  }
  /* @augur:dx_poll.finalize */
  MPI_Finalize();
  return 0;
}
