/* dx_halo — a neighbour (halo) exchange with a late rank (diagnose: no
 * multicast advice for it). Ranks form a ring; every step each computes W
 * (rank LATE computes E more), then exchanges BYTES with both neighbours:
 * MPI_Sendrecv to the right / from the left, then to the left / from the
 * right. The late rank holds up its neighbours' sends, which hold up theirs:
 * the waits spread along the ring, but no rank sends the same data to many.
 *
 * usage: dx_halo [-n ITER] [-w W_US] [-e E_US] [-s BYTES] [-l LATE]   (>= 3 ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:dx_halo.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 10, w_us = 2000, e_us = 10000, bytes = 1L << 20, late = 2;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"work", 'w', PG_INT, 0, 100000000, &w_us, NULL},
                         {"extra", 'e', PG_INT, 0, 100000000, &e_us, NULL},
                         {"size", 's', PG_INT, 1, 1L << 28, &bytes, NULL},
                         {"late", 'l', PG_INT, 0, 1000000, &late, NULL}};
  if (pg_parse(argc, argv, opts, 5, rank == 0) != 0 || size < 3) {
    if (rank == 0)
      fprintf(stderr, "usage: dx_halo [-n ITER] [-w W_US] [-e E_US] [-s BYTES] [-l LATE] "
                      "(at least 3 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  char *out = calloc((size_t)bytes, 2), *in = calloc((size_t)bytes, 2);
  if (!out || !in) {
    fprintf(stderr, "dx_halo: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (long it = 0; it < iter; it++) {
    pg_spin((w_us + (rank == late % size ? e_us : 0)) * PG_US);
    out[0] = out[bytes] = (char)it; /* each neighbour gets its own edge */
    /* @augur:dx_halo.to_right */
    MPI_Sendrecv(out + bytes, (int)bytes, MPI_BYTE, right, 0, in, (int)bytes, MPI_BYTE, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* @augur:dx_halo.to_left */
    MPI_Sendrecv(out, (int)bytes, MPI_BYTE, left, 1, in + bytes, (int)bytes, MPI_BYTE, right, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  free(out);
  free(in);
  /* @augur:dx_halo.finalize */
  MPI_Finalize();
  return 0;
}
