/* pg_rma_bulk — one-sided data movement (issue 28, diagnose's rma_volume,
 * docs/diagnose.md "One-sided wait states"): in a passive-target epoch
 * (MPI_Win_lock_all) every iteration each rank computes B, puts S bytes into
 * its right neighbour's window and completes the transfer with
 * MPI_Win_flush, then meets the others at a barrier. Nobody is late: the
 * time in the flush (and in the Put, where the MPI copies inside it) is the
 * transfer itself, S bytes per rank and iteration; its amount is the
 * machine's, not injected, so the program prints -1 as the expected time.
 *
 * usage: pg_rma_bulk [-n ITER] [-b US] [-s BYTES] [--off]
 * --off: 1 KiB puts (below the 64 KiB of the rule): no large transfer. */
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

  long iter = 10, base_us = 2000, bytes = 16 << 20, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"size", 's', PG_INT, 1, 1 << 28, &bytes, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 4, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "pg_rma_bulk: needs at least 2 ranks\n");
      fprintf(stderr, "usage: pg_rma_bulk [-n ITER] [-b US] [-s BYTES] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  if (off) bytes = 1024;
  if (rank == 0) {
    if (off)
      pg_expected("none", 0.0, 1, 0, 1, "");
    else
      pg_expected("rma_volume", -1.0, 0, size - 1, 1, "site=pg_rma_bulk.flush|put");
  }
  char *base = NULL;
  MPI_Win win;
  MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  char *src = malloc((size_t)bytes);
  if (!src) MPI_Abort(MPI_COMM_WORLD, 2);
  memset(src, rank, (size_t)bytes);
  int right = (rank + 1) % size;

  /* @augur:pg_rma_bulk.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  for (long it = 0; it < iter; it++) {
    pg_spin(base_us * PG_US);
    /* @augur:pg_rma_bulk.put */
    MPI_Put(src, (int)bytes, MPI_BYTE, right, 0, (int)bytes, MPI_BYTE, win);
    /* @augur:pg_rma_bulk.flush */
    MPI_Win_flush(right, win);
    /* @augur:pg_rma_bulk.barrier */
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  free(src);
  MPI_Finalize();
  return 0;
}
