/* pred_p2p_loop — the shape of NPB BT, SP and LU for `augur predict`: a
 * time-step loop of point-to-point calls only, whose step also runs once,
 * as a warm-up, inside the set-up (issue 21: such a run never stopped early).
 *
 *   MPI_Init; MPI_Bcast of the parameters (as NPB reads its input)
 *   set-up: WORK us of compute, then one step()      (the warm-up step)
 *   MPI_Barrier                                       (timer start)
 *   for it in 1 .. ITER: step()
 *   MPI_Allreduce of a residual                       (the final check)
 *
 *   step(): WORK us of compute, then a halo exchange of BYTES with both ring
 *           neighbours: Irecv left, Irecv right, Isend right, Isend left,
 *           Waitall (one call site each, so the warm-up step and the loop's
 *           are the same calls).
 *
 * No collective runs inside the loop, so no rank ever has a common call point
 * with the others between the set-up and the end.
 *
 * Usage: pred_p2p_loop [-n ITER] [-w WORK_US] [-s BYTES] (defaults 400, 1000,
 * 4096; at least 2 ranks). Rank 0 prints one line at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static double sink;

/* Not inlined: the warm-up and the loop's steps share every call site. */
__attribute__((noinline)) static void step(double *buf, long cnt, long us, int left, int right) {
  MPI_Request req[4];
  MPI_Status sts[4];
  double *sl = buf, *sr = buf + cnt, *rl = buf + 2 * cnt, *rr = buf + 3 * cnt;
  sink += app_spin_us(us);
  sl[0] = sr[0] = sink;
  /* @augur:pred_p2p_loop.irecv_left */
  MPI_Irecv(rl, (int)cnt, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
  /* @augur:pred_p2p_loop.irecv_right */
  MPI_Irecv(rr, (int)cnt, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[1]);
  /* @augur:pred_p2p_loop.isend_right */
  MPI_Isend(sr, (int)cnt, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[2]);
  /* @augur:pred_p2p_loop.isend_left */
  MPI_Isend(sl, (int)cnt, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[3]);
  /* @augur:pred_p2p_loop.waitall */
  MPI_Waitall(4, req, sts);
}

int main(int argc, char **argv) {
  /* @augur:pred_p2p_loop.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 400, us = 1000, bytes = 4096;
  const app_opt opts[] = {{'n', "ITER", 1, 100000000, &iter},
                          {'w', "WORK_US", 0, 10000000, &us},
                          {'s', "BYTES", 8, 1L << 26, &bytes}};
  if (app_parse(argc, argv, opts, 3, rank == 0) != 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: %s [-n ITER] [-w WORK_US] [-s BYTES] (>= 2 ranks)\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  long par[3] = {iter, us, bytes};
  /* @augur:pred_p2p_loop.bcast */
  MPI_Bcast(par, 3, MPI_LONG, 0, MPI_COMM_WORLD);
  long cnt = par[2] / 8;
  double *buf = calloc((size_t)(4 * cnt), sizeof *buf);
  if (!buf) {
    fprintf(stderr, "pred_p2p_loop: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  sink += app_spin_us(par[1]);         /* the set-up's own compute */
  step(buf, cnt, par[1], left, right); /* the warm-up step */
  /* @augur:pred_p2p_loop.barrier */
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < par[0]; it++)
    step(buf, cnt, par[1], left, right);
  double local = sink + buf[2 * cnt], total = 0;
  /* @augur:pred_p2p_loop.allreduce */
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("pred_p2p_loop: ranks=%d iter=%ld work=%ld bytes=%ld total=%g\n", size, par[0], par[1],
           par[2], total);
  free(buf);
  /* @augur:pred_p2p_loop.finalize */
  MPI_Finalize();
  return 0;
}
