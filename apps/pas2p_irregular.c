/* pas2p_irregular — an irregular, SNAP-like program for PAS2P's irregular mode
 * (`augur phases --irregular`, apps/README.md "PAS2P irregular app").
 *
 * Ranks form a 2-D Cartesian grid (MPI_Cart_create, not periodic) with a row
 * and a column sub-communicator (MPI_Cart_sub). Every iteration:
 *   - four wavefront sweeps, like SNAP's octants: along the row left to
 *     right and right to left, then along the column top to bottom and bottom
 *     to top. A sweep is a pipeline in the sub-communicator: receive from the
 *     upstream neighbour (Irecv + Wait), compute a block, send downstream
 *     (Isend + Wait). The number of angle blocks per sweep (1..3) and the
 *     message sizes depend on the iteration, so the calls of one iteration
 *     differ from the next one's: a global phase search finds no repetition.
 *     No MPI_Sendrecv (an exchange inside one call on both partners is a
 *     cycle for the logical trace, docs/phases.md);
 *   - the work of a block is proportional to a "cell count" drawn from a
 *     seeded hash of (rank, iteration): ranks are unbalanced (a fixed factor
 *     1.0 .. 1.3 per rank) and vary over time (0.8 .. 1.2 per iteration), yet
 *     every run does the same work;
 *   - an MPI_Allreduce of the residual on MPI_COMM_WORLD (convergence test).
 * Every K iterations (-k, default 10) an output step follows the Allreduce: an
 * MPI_Reduce of 16 diagnostics to rank 0 on MPI_COMM_WORLD, an MPI_Bcast of
 * the run state on the Cartesian communicator, and output work worth 3
 * iterations. Before the loop, a set-up worth 20 iterations (problem
 * generation).
 *
 * -c COMPUTE_SCALE multiplies all work (default 1: about 16 ms of compute
 * per iteration and rank on one core). The known phase structure is in
 * apps/README.md. All MPI calls are in main() with @augur markers. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define UNITS_PER_SWEEP 4000 /* work units of one sweep at cell factor 1, -c 1 */
#define SETUP_ITERS     20   /* set-up work, in iterations */
#define OUTPUT_ITERS    3    /* output work, in iterations */
#define MAX_COUNT       256  /* doubles per pipeline message, at most */

static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* A number in [0, 1) from a seeded hash: the same on every run. */
static double frac(uint64_t a, uint64_t b) {
  return (double)(mix(mix(a) ^ b) >> 11) / 9007199254740992.0;
}

static volatile double sink;

/* UNITS units of floating-point work (about 1 us each on the development
 * VM); the result goes to a volatile so the loop stays. */
static double work(double units, double seed) {
  long n = (long)(units * 140.0);
  double x = seed, y = 0.5;
  for (long i = 0; i < n; i++) {
    x = x * 0.999999 + 0.000001 * y;
    y = y * 0.999998 + 0.000002 * x + 1e-9;
  }
  sink = x + y;
  return x + y;
}

int main(int argc, char **argv) {
  /* @augur:pas2p_irregular.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iters = 100, scale = 1, every = 10;
  const app_opt opts[] = {{'n', "ITERS", 1, 1000000000L, &iters},
                          {'c', "COMPUTE_SCALE", 0, 100000, &scale},
                          {'k', "OUTPUT_EVERY", 1, 1000000000L, &every}};
  if (app_parse(argc, argv, opts, 3, rank == 0) != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: pas2p_irregular [-n ITERS] [-c COMPUTE_SCALE] [-k OUTPUT_EVERY]\n");
    MPI_Finalize();
    return 2;
  }
  int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart, row, col;
  /* @augur:pas2p_irregular.cart_create */
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  int crank;
  MPI_Comm_rank(cart, &crank);
  MPI_Cart_coords(cart, crank, 2, coords);
  int keep_row[2] = {0, 1}, keep_col[2] = {1, 0};
  /* @augur:pas2p_irregular.cart_sub_row */
  MPI_Cart_sub(cart, keep_row, &row);
  /* @augur:pas2p_irregular.cart_sub_col */
  MPI_Cart_sub(cart, keep_col, &col);
  int rpos, rlen, cpos, clen;
  MPI_Comm_rank(row, &rpos);
  MPI_Comm_size(row, &rlen);
  MPI_Comm_rank(col, &cpos);
  MPI_Comm_size(col, &clen);

  /* A fixed imbalance per rank: some ranks own more cells than others. */
  double rank_factor = 1.0 + 0.3 * frac(0x5eed, (uint64_t)rank);
  double unit = (double)UNITS_PER_SWEEP * (double)scale;
  double acc = work(unit * 4 * SETUP_ITERS * rank_factor, (double)rank);

  double inbuf[MAX_COUNT], outbuf[MAX_COUNT], residual = 0, diag[16], gdiag[16];
  int state[4] = {0, 0, 0, 0};
  for (int i = 0; i < MAX_COUNT; i++)
    outbuf[i] = (double)(i + rank);
  for (long it = 0; it < iters; it++) {
    /* The iteration's cell count on this rank, and its angle blocks: the
     * block count depends on the iteration only, so both ends of every
     * pipeline message agree on it. */
    double cells = rank_factor * (0.8 + 0.4 * frac((uint64_t)rank, (uint64_t)it));
    int nblk = 1 + (int)(mix((uint64_t)it * 7919u) % 3);
    int count = 32 + (int)(mix((uint64_t)it * 104729u) % (MAX_COUNT - 32));
    double local = 0;
    for (int sweep = 0; sweep < 4; sweep++) {
      MPI_Comm c = sweep < 2 ? row : col;
      int pos = sweep < 2 ? rpos : cpos, len = sweep < 2 ? rlen : clen;
      int dir = sweep % 2 ? -1 : 1;
      int up = pos - dir, down = pos + dir;
      for (int b = 0; b < nblk; b++) {
        MPI_Request rq;
        if (up >= 0 && up < len) {
          /* @augur:pas2p_irregular.sweep_irecv */
          MPI_Irecv(inbuf, count, MPI_DOUBLE, up, 100 + sweep, c, &rq);
          /* @augur:pas2p_irregular.sweep_wait_recv */
          MPI_Wait(&rq, MPI_STATUS_IGNORE);
          outbuf[b] += 0.5 * inbuf[b];
        }
        local += work(unit * cells / nblk, outbuf[b]);
        if (down >= 0 && down < len) {
          /* @augur:pas2p_irregular.sweep_isend */
          MPI_Isend(outbuf, count, MPI_DOUBLE, down, 100 + sweep, c, &rq);
          /* @augur:pas2p_irregular.sweep_wait_send */
          MPI_Wait(&rq, MPI_STATUS_IGNORE);
        }
      }
    }
    /* @augur:pas2p_irregular.residual */
    MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    acc += residual * 1e-12;
    if ((it + 1) % every == 0) {
      for (int d = 0; d < 16; d++)
        diag[d] = local + d;
      /* @augur:pas2p_irregular.output_reduce */
      MPI_Reduce(diag, gdiag, 16, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      state[0] = (int)(it + 1);
      /* @augur:pas2p_irregular.output_bcast */
      MPI_Bcast(state, 4, MPI_INT, 0, cart);
      acc += work(unit * 4 * OUTPUT_ITERS * rank_factor, gdiag[0] * 1e-12);
    }
  }

  /* @augur:pas2p_irregular.free_row */
  MPI_Comm_free(&row);
  /* @augur:pas2p_irregular.free_col */
  MPI_Comm_free(&col);
  /* @augur:pas2p_irregular.free_cart */
  MPI_Comm_free(&cart);
  if (rank == 0)
    printf("pas2p_irregular: ranks=%d grid=%dx%d iters=%ld scale=%ld every=%ld check=%.6e\n", size,
           dims[0], dims[1], iters, scale, every, acc);
  /* @augur:pas2p_irregular.finalize */
  MPI_Finalize();
  return 0;
}
