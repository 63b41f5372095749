/* pred_guard — the shape of CoMD's time step for `augur predict` (issue 21:
 * a relevant phase whose call also occurs in a phase below the relevance
 * threshold; docs/signature.md, "Calls of other phases").
 *
 *   MPI_Init; MPI_Bcast of the parameters
 *   for it in 1 .. ITER:
 *     halo(ATOM sizes)  x-, x+ with the ring neighbours, y-, y+, z-, z+ with
 *                       the rank itself (periodic in y and z), then WORK us
 *     halo(FORCE sizes) the same six exchanges, smaller, then 3 x WORK us
 *   MPI_Allreduce of a checksum
 *
 *   halo(): six MPI_Sendrecv from one function (one call site), as CoMD's
 *           haloExchange -> sendReceiveParallel. The force exchange's y and
 *           z self-exchanges are BYTES and BYTES x 1.15: one size class,
 *           different volumes. Its z exchange is followed by the force
 *           compute (3 x WORK), its y exchange by nothing.
 *
 * `augur phases` cuts the step into the atom exchange (relevant), the force
 * exchange's x pair (relevant by loop), its y pair (one self-exchange,
 * weight 2 x ITER, below 1 % of the run) and its z pair (one self-exchange,
 * weight 2 x ITER, with the force compute: relevant). The z pair's
 * fingerprint is one self-exchange at that call site in that size class,
 * which the y pair's calls match too.
 *
 * Usage: pred_guard [-n ITER] [-w WORK_US] [-s BYTES] (defaults 200, 2000,
 * 12480; at least 2 ranks). Rank 0 prints one line at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static double sink;

/* One call site for every exchange, as CoMD's sendReceiveParallel. */
__attribute__((noinline)) static void xchg(char *sb, long n, int dest, char *rb, int src) {
  MPI_Status st;
  /* @augur:pred_guard.sendrecv */
  MPI_Sendrecv(sb, (int)n, MPI_BYTE, dest, 0, rb, (int)n, MPI_BYTE, src, 0, MPI_COMM_WORLD, &st);
}

/* Six exchanges: x with the ring neighbours, y and z with the rank itself. */
__attribute__((noinline)) static void halo(char *sb, char *rb, const long sz[3], int rank, int left,
                                           int right) {
  xchg(sb, sz[0], left, rb, right);
  xchg(sb, sz[0], right, rb, left);
  xchg(sb, sz[1], rank, rb, rank);
  xchg(sb, sz[1], rank, rb, rank);
  xchg(sb, sz[2], rank, rb, rank);
  xchg(sb, sz[2], rank, rb, rank);
}

int main(int argc, char **argv) {
  /* @augur:pred_guard.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 200, us = 2000, bytes = 12480;
  const app_opt opts[] = {{'n', "ITER", 1, 100000000, &iter},
                          {'w', "WORK_US", 0, 10000000, &us},
                          {'s', "BYTES", 64, 1L << 22, &bytes}};
  if (app_parse(argc, argv, opts, 3, rank == 0) != 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: %s [-n ITER] [-w WORK_US] [-s BYTES] (>= 2 ranks)\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  long par[3] = {iter, us, bytes};
  /* @augur:pred_guard.bcast */
  MPI_Bcast(par, 3, MPI_LONG, 0, MPI_COMM_WORLD);
  long b = par[2];
  /* CoMD's proportions: atoms 134400 87360 100464, forces 19200 12480 14352. */
  const long atom[3] = {b * 10, b * 7, b * 7 * 115 / 100};
  const long force[3] = {b * 3 / 2, b, b * 115 / 100};
  char *sb = calloc((size_t)atom[0], 1), *rb = calloc((size_t)atom[0], 1);
  if (!sb || !rb) {
    fprintf(stderr, "pred_guard: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double local = 0, total = 0;
  /* The set-up, as CoMD's: the first force computation (both exchanges),
   * then a few reductions and a barrier (its energies and checks). */
  halo(sb, rb, atom, rank, left, right);
  halo(sb, rb, force, rank, left, right);
  for (int k = 0; k < 3; k++) {
    /* @augur:pred_guard.setup_allreduce */
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  /* @augur:pred_guard.barrier */
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < par[0]; it++) {
    halo(sb, rb, atom, rank, left, right);
    sink += app_spin_us(par[1]);
    halo(sb, rb, force, rank, left, right);
    sink += app_spin_us(3 * par[1]);
    sb[0] = (char)((long)sink & 0x7f);
  }
  local = sink + rb[0];
  /* @augur:pred_guard.allreduce */
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("pred_guard: ranks=%d iter=%ld work=%ld bytes=%ld total=%g\n", size, par[0], par[1],
           par[2], total);
  free(sb);
  free(rb);
  /* @augur:pred_guard.finalize */
  MPI_Finalize();
  return 0;
}
