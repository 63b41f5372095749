/* pg_rma_fence — one rank late at an MPI_Win_fence (issue 28, diagnose's
 * RMA wait states, docs/diagnose.md "One-sided wait states"): every
 * iteration each rank computes B, rank N-1 D more, puts S bytes into its
 * right neighbour's window and closes the epoch with MPI_Win_fence, where the
 * others wait for rank N-1: wait at fence, D per other rank and iteration.
 *
 * usage: pg_rma_fence [-n ITER] [-d US] [-b US] [-s BYTES] [--off]
 * --off: every rank computes B + D: nobody is late. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 10, d_us = 20000, base_us = 1000, bytes = 1024, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"size", 's', PG_INT, 1, 1 << 28, &bytes, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 5, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "pg_rma_fence: needs at least 2 ranks\n");
      fprintf(stderr, "usage: pg_rma_fence [-n ITER] [-d US] [-b US] [-s BYTES] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  if (rank == 0) {
    if (off)
      pg_expected("none", 0.0, 1, 0, 1, "");
    else
      pg_expected("wait_at_fence", (double)d_us * 1e-6 * (double)iter * (size - 1), 0, size - 2, 1,
                  "site=pg_rma_fence.fence");
  }
  char *base = NULL;
  MPI_Win win;
  MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  char *src = malloc((size_t)bytes);
  if (!src) MPI_Abort(MPI_COMM_WORLD, 2);
  memset(src, rank, (size_t)bytes);
  int right = (rank + 1) % size;

  /* ranks leave MPI_Win_allocate apart (under load by tens of ms): met here,
   * as every pg_* app meets at the start, not at the first fence */
  /* @augur:pg_rma_fence.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  /* @augur:pg_rma_fence.open */
  MPI_Win_fence(0, win);
  for (long it = 0; it < iter; it++) {
    pg_spin((base_us + (off || rank == size - 1 ? d_us : 0)) * PG_US);
    /* @augur:pg_rma_fence.put */
    MPI_Put(src, (int)bytes, MPI_BYTE, right, 0, (int)bytes, MPI_BYTE, win);
    /* @augur:pg_rma_fence.fence */
    MPI_Win_fence(0, win);
  }
  MPI_Win_free(&win);
  free(src);
  MPI_Finalize();
  return 0;
}
