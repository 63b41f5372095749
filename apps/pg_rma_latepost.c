/* pg_rma_latepost — a one-sided exchange whose target opens its exposure
 * epoch late (issue 28, diagnose's RMA wait states, docs/diagnose.md
 * "One-sided wait states"). Rank 0 is the target of a PSCW exchange; every
 * iteration the origins (ranks 1..N-1) open an access epoch to it
 * (MPI_Win_start), put S bytes into its window, close the epoch
 * (MPI_Win_complete) and compute D; rank 0 computes D *before* MPI_Win_post,
 * then MPI_Win_wait; everybody then meets in MPI_Allreduce (a convergence
 * test). The origins wait for the post: late post, D per origin and
 * iteration, in whichever call of their access epoch the MPI blocks
 * (Win_start, the Put or Win_complete: it differs between MPIs). Rank 0 then
 * waits D in the MPI_Allreduce for the origins' computation, a consequence:
 * at 2 ranks both are D per iteration.
 *
 * usage: pg_rma_latepost [-n ITER] [-d US] [-s BYTES] [--late-complete] [--off]
 * --off: rank 0 posts first and computes while its window is exposed: the
 * same work, nobody waits. --late-complete: rank 0 posts and waits at once
 * and does not compute; the origins compute D between their Put and
 * MPI_Win_complete: rank 0 waits in MPI_Win_wait for the completes after the
 * origins' last RMA operation (late complete), D per iteration. */
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

  long iter = 10, d_us = 20000, bytes = 1024, off = 0, late_complete = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL},
                         {"size", 's', PG_INT, 1, 1 << 28, &bytes, NULL},
                         {"late-complete", 0, PG_FLAG, 0, 1, &late_complete, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 5, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "pg_rma_latepost: needs at least 2 ranks\n");
      fprintf(stderr,
              "usage: pg_rma_latepost [-n ITER] [-d US] [-s BYTES] [--late-complete] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  double lost = (double)d_us * 1e-6 * (double)iter;
  if (rank == 0) {
    if (off)
      pg_expected("none", 0.0, 1, 0, 1, "");
    else if (late_complete)
      pg_expected("late_complete", lost, 0, 0, 1, "site=pg_rma_latepost.wait");
    else
      pg_expected("late_post", lost * (size - 1), 1, size - 1, 1,
                  "site=pg_rma_latepost.start|put|complete");
  }
  /* rank 0 exposes one slot of S bytes per origin */
  MPI_Aint win_bytes = rank == 0 ? (MPI_Aint)bytes * (size - 1) : 0;
  char *base = NULL;
  MPI_Win win;
  MPI_Win_allocate(win_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  char *src = malloc((size_t)bytes);
  if (!src) MPI_Abort(MPI_COMM_WORLD, 2);
  memset(src, rank, (size_t)bytes);
  MPI_Group world, peers;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  if (rank == 0) {
    int *origins = malloc((size_t)(size - 1) * sizeof *origins);
    if (!origins) MPI_Abort(MPI_COMM_WORLD, 2);
    for (int r = 1; r < size; r++)
      origins[r - 1] = r;
    MPI_Group_incl(world, size - 1, origins, &peers);
    free(origins);
  } else {
    int target = 0;
    MPI_Group_incl(world, 1, &target, &peers);
  }

  MPI_Barrier(MPI_COMM_WORLD);
  double residual = 1.0, sum;
  for (long it = 0; it < iter; it++) {
    if (rank == 0) {
      if (!off && !late_complete) pg_spin(d_us * PG_US); /* computes before exposing */
      /* @augur:pg_rma_latepost.post */
      MPI_Win_post(peers, 0, win);
      if (off) pg_spin(d_us * PG_US); /* computes while exposed */
      /* @augur:pg_rma_latepost.wait */
      MPI_Win_wait(win);
    } else {
      /* @augur:pg_rma_latepost.start */
      MPI_Win_start(peers, 0, win);
      /* @augur:pg_rma_latepost.put */
      MPI_Put(src, (int)bytes, MPI_BYTE, 0, (MPI_Aint)bytes * (rank - 1), (int)bytes, MPI_BYTE,
              win);
      if (late_complete) pg_spin(d_us * PG_US); /* computes inside the access epoch */
      /* @augur:pg_rma_latepost.complete */
      MPI_Win_complete(win);
      if (!late_complete) pg_spin(d_us * PG_US);
    }
    /* @augur:pg_rma_latepost.allreduce */
    MPI_Allreduce(&residual, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Group_free(&peers);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  free(src);
  MPI_Finalize();
  return 0;
}
