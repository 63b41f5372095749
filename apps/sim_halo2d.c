/* sim_halo2d — a 2-D halo exchange with computation, the communication of
 * NPB BT/SP's faces (simulate of oversubscribed runs, issue 21). Ranks form
 * a periodic 2-D grid (MPI_Dims_create); every step each computes W us,
 * posts MPI_Irecv from its four neighbours, MPI_Isend of BYTES to each, and
 * waits for all eight with MPI_Waitall. With more ranks than cores every
 * Waitall whose neighbour is off its CPU waits for that neighbour's turn.
 *
 * usage: sim_halo2d [-n ITER] [-w W_US] [-s BYTES]   (>= 2 ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:sim_halo2d.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 200, w_us = 200, bytes = 4096;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"work", 'w', PG_INT, 0, 100000000, &w_us, NULL},
                         {"size", 's', PG_INT, 1, 1L << 26, &bytes, NULL}};
  if (pg_parse(argc, argv, opts, 3, rank == 0) != 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: sim_halo2d [-n ITER] [-w W_US] [-s BYTES] (at least 2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  int dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int nb[4];
  MPI_Cart_shift(grid, 0, 1, &nb[0], &nb[1]);
  MPI_Cart_shift(grid, 1, 1, &nb[2], &nb[3]);
  char *out = calloc((size_t)bytes, 4), *in = calloc((size_t)bytes, 4);
  if (!out || !in) {
    fprintf(stderr, "sim_halo2d: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  MPI_Request req[8];
  MPI_Status st[8];
  for (long it = 0; it < iter; it++) {
    pg_spin(w_us * PG_US);
    for (int d = 0; d < 4; d++) {
      out[d * bytes] = (char)it;
      /* @augur:sim_halo2d.irecv */
      MPI_Irecv(in + d * bytes, (int)bytes, MPI_BYTE, nb[d], d ^ 1, grid, &req[d]);
    }
    for (int d = 0; d < 4; d++)
      /* @augur:sim_halo2d.isend */
      MPI_Isend(out + d * bytes, (int)bytes, MPI_BYTE, nb[d], d, grid, &req[4 + d]);
    /* @augur:sim_halo2d.waitall */
    MPI_Waitall(8, req, st);
  }
  free(out);
  free(in);
  MPI_Comm_free(&grid);
  /* @augur:sim_halo2d.finalize */
  MPI_Finalize();
  return 0;
}
