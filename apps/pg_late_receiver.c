/* pg_late_receiver — MPI_Ssend to a receiver that posts its receive late.
 * Ranks are paired (0,1), (2,3), ...: the even rank Ssends BYTES to the odd
 * one, which first computes D. A synchronous send cannot complete before the
 * receive is posted, so the sender waits D every iteration.
 *
 * usage: pg_late_receiver [-n ITER] [-d US] [-s BYTES] [--off]
 * Lost process-time: D x ITER x (N/2), on the even ranks of complete pairs.
 * --off: the sender computes D too, so the receive is posted in time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_late_receiver.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 5, d_us = 20000, bytes = 1024, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL},
                         {"size", 's', PG_INT, 1, 1L << 30, &bytes, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 4, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "pg_late_receiver: needs at least 2 ranks\n");
      fprintf(stderr, "usage: pg_late_receiver [-n ITER] [-d US] [-s BYTES] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  char *buf = calloc((size_t)bytes, 1);
  if (!buf) {
    fprintf(stderr, "pg_late_receiver: rank %d: out of memory for %ld bytes\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  const int pairs = size / 2;
  if (rank == 0)
    pg_expected(off ? "none" : "late_receiver", off ? 0.0 : 1e-6 * (double)d_us * iter * pairs, 0,
                off ? -1 : 2 * pairs - 2, 2, "site=pg_late_receiver.ssend");

  /* Start together: MPI_Init returns at different times on different ranks,
   * and that skew is not part of the problem. */
  /* @augur:pg_late_receiver.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter && rank < 2 * pairs; it++) {
    if (rank % 2 == 0) {
      if (off) pg_spin(d_us * PG_US);
      buf[it % bytes] = (char)it;
      /* @augur:pg_late_receiver.ssend */
      MPI_Ssend(buf, (int)bytes, MPI_BYTE, rank + 1, 0, MPI_COMM_WORLD);
    } else {
      pg_spin(d_us * PG_US);
      /* @augur:pg_late_receiver.recv */
      MPI_Recv(buf, (int)bytes, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  free(buf);
  /* @augur:pg_late_receiver.finalize */
  MPI_Finalize();
  return 0;
}
