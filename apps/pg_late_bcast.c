/* pg_late_bcast — the root of every MPI_Bcast is late: all ranks compute
 * BASE, the root D more, then MPI_Bcast of BYTES from rank 0. The other ranks
 * wait D each time (KappaPi's late sender, through a collective).
 *
 * usage: pg_late_bcast [-n ITER] [-d US] [-b US] [-s BYTES] [--off]
 * Lost process-time: D x (N-1) x ITER, on ranks 1..N-1. --off: every rank
 * computes B + D, so the root is on time with the same work. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_late_bcast.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 5, d_us = 20000, base_us = 1000, bytes = 1024, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"size", 's', PG_INT, 1, 1L << 30, &bytes, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 5, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "pg_late_bcast: needs at least 2 ranks\n");
      fprintf(stderr, "usage: pg_late_bcast [-n ITER] [-d US] [-b US] [-s BYTES] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  char *buf = calloc((size_t)bytes, 1);
  if (!buf) {
    fprintf(stderr, "pg_late_bcast: rank %d: out of memory for %ld bytes\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  if (rank == 0)
    pg_expected(off ? "none" : "late_broadcast",
                off ? 0.0 : 1e-6 * (double)d_us * (size - 1) * iter, 1, off ? 0 : size - 1, 1,
                "site=pg_late_bcast.bcast");

  /* Start together: MPI_Init returns at different times on different ranks,
   * and that skew is not part of the problem. */
  /* @augur:pg_late_bcast.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    /* --off: everybody does the root's extra work, the root is on time */
    pg_spin(base_us * PG_US + (off || rank == 0 ? d_us * PG_US : 0));
    if (rank == 0) buf[it % bytes] = (char)it;
    /* @augur:pg_late_bcast.bcast */
    MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  }
  free(buf);
  /* @augur:pg_late_bcast.finalize */
  MPI_Finalize();
  return 0;
}
