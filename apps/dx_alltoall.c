/* dx_alltoall — collective data movement (diagnose: collective_volume).
 * Every step each rank computes W, then exchanges BYTES with every rank in
 * MPI_Alltoall (or MPI_Alltoallv with --v): the time after the last rank
 * arrives is the transfer itself.
 *
 * --touch writes both buffers before the loop: the first call then does not
 * fault their pages in (simulate's large-message test, which leaves that
 * cost out: docs/simulate.md "Large messages"). --grow (with --v): every
 * block starts 64 KiB short per remaining iteration and grows to BYTES in
 * the last one, so each call's receive reaches a little further into the
 * same buffer (NPB IS's counts vary so).
 *
 * usage: dx_alltoall [-n ITER] [-w W_US] [-s BYTES_PER_PEER] [--v] [--touch] [--grow]
 * (at least 2 ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:dx_alltoall.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 10, w_us = 5000, bytes = 4L << 20, v = 0, touch = 0, grow = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"work", 'w', PG_INT, 0, 100000000, &w_us, NULL},
                         {"size", 's', PG_INT, 1, 1L << 28, &bytes, NULL},
                         {"v", 0, PG_FLAG, 0, 1, &v, NULL},
                         {"touch", 0, PG_FLAG, 0, 1, &touch, NULL},
                         {"grow", 0, PG_FLAG, 0, 1, &grow, NULL}};
  if (pg_parse(argc, argv, opts, 6, rank == 0) != 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr,
              "usage: dx_alltoall [-n ITER] [-w W_US] [-s BYTES_PER_PEER] [--v] [--touch] [--grow] "
              "(at least 2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  char *out = calloc((size_t)bytes, (size_t)size), *in = calloc((size_t)bytes, (size_t)size);
  int *counts = malloc((size_t)size * sizeof *counts),
      *displs = malloc((size_t)size * sizeof *displs);
  if (!out || !in || !counts || !displs) {
    fprintf(stderr, "dx_alltoall: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  if (touch) {
    memset(out, 1, (size_t)bytes * (size_t)size);
    memset(in, 1, (size_t)bytes * (size_t)size);
  }
  for (int k = 0; k < size; k++) {
    counts[k] = (int)bytes;
    displs[k] = (int)(k * bytes);
  }
  for (long it = 0; it < iter; it++) {
    pg_spin(w_us * PG_US);
    out[it % bytes] = (char)it;
    if (v) {
      long c = grow ? bytes - (iter - 1 - it) * 65536 : bytes;
      for (int k = 0; k < size; k++)
        counts[k] = (int)(c > 0 ? c : 1);
      /* @augur:dx_alltoall.alltoallv */
      MPI_Alltoallv(out, counts, displs, MPI_BYTE, in, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    } else {
      /* @augur:dx_alltoall.alltoall */
      MPI_Alltoall(out, (int)bytes, MPI_BYTE, in, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
    }
  }
  free(out);
  free(in);
  free(counts);
  free(displs);
  /* @augur:dx_alltoall.finalize */
  MPI_Finalize();
  return 0;
}
