/* pas2p_solver — an SPMD iterative solver (BT/SP-like) for `augur predict`.
 *
 * Each rank owns an NX x NY x NZ block; ranks form a periodic 2-D grid
 * (at least 2x2). Every
 * iteration has distinct steps with different communication:
 *   x: line relaxation along x, then Isend/Isend/Recv/Recv/Waitall of the x
 *      faces (NY*NZ doubles)
 *   y: line relaxation along y, then Irecv/Irecv/Isend/Isend/Waitall of the y faces (NX*NZ)
 *   z: line relaxation along z, then Irecv/Irecv/Send/Send/Waitall of the z faces
 *      (NX*NY) with the diagonal neighbours of the 2-D process grid
 * No MPI_Sendrecv: an exchange inside one call on both partners is a
 * dependency cycle for the logical trace (docs/phases.md).
 *   MPI_Allreduce of the residual (1 double)
 * and every CHECK iterations a convergence check: an MPI_Allreduce of 8
 * statistics and an MPI_Bcast of the solver parameters from rank 0.
 * The work per sweep is repeated W times (-w) to set the compute share.
 * All MPI calls are in main() with @augur markers (apps/README.md). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

typedef struct grid {
  int nx, ny, nz;
  double *u;
} grid;

#define IDX(g, i, j, k)                                                                            \
  (((size_t)(i) * (size_t)((g)->ny + 2) + (size_t)(j)) * (size_t)((g)->nz + 2) + (size_t)(k))

/* Relaxation along one axis: a forward recurrence per line, the kind of
 * dependency that makes BT/SP sweep one direction at a time. */
static double sweep(grid *g, int axis, long work) {
  double res = 0;
  for (long w = 0; w < work; w++)
    for (int i = 1; i <= g->nx; i++)
      for (int j = 1; j <= g->ny; j++)
        for (int k = 1; k <= g->nz; k++) {
          size_t c = IDX(g, i, j, k);
          size_t p = axis == 0   ? IDX(g, i - 1, j, k)
                     : axis == 1 ? IDX(g, i, j - 1, k)
                                 : IDX(g, i, j, k - 1);
          double v = 0.5 * g->u[c] + 0.25 * g->u[p] + 0.125;
          res += fabs(v - g->u[c]);
          g->u[c] = v;
        }
  return res;
}

/* Face `side` (0: low, 1: high) of axis into / out of buf. */
static void face(grid *g, int axis, int side, double *buf, int unpack) {
  size_t n = 0;
  int lim[3] = {g->nx, g->ny, g->nz};
  int fixed = unpack ? (side ? lim[axis] + 1 : 0) : (side ? lim[axis] : 1);
  int a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2;
  for (int p = 1; p <= lim[a]; p++)
    for (int q = 1; q <= lim[b]; q++) {
      int ix[3];
      ix[axis] = fixed;
      ix[a] = p;
      ix[b] = q;
      size_t c = IDX(g, ix[0], ix[1], ix[2]);
      if (unpack)
        g->u[c] = buf[n++];
      else
        buf[n++] = g->u[c];
    }
}

int main(int argc, char **argv) {
  /* @augur:pas2p_solver.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 400, lnx = 64, lny = 48, lnz = 32, check = 100, work = 4;
  const app_opt opts[] = {{'n', "ITER", 1, 1000000000L, &iter},
                          {'x', "NX", 1, 4096, &lnx},
                          {'y', "NY", 1, 4096, &lny},
                          {'z', "NZ", 1, 4096, &lnz},
                          {'c', "CHECK", 1, 1000000000L, &check},
                          {'w', "WORK", 1, 100000, &work}};
  if (app_parse(argc, argv, opts, 6, rank == 0) != 0) {
    if (rank == 0)
      fprintf(stderr,
              "usage: pas2p_solver [-n ITER] [-x NX] [-y NY] [-z NZ] [-c CHECK] [-w WORK]\n");
    MPI_Finalize();
    return 2;
  }
  grid g = {(int)lnx, (int)lny, (int)lnz, NULL};
  /* A 2-D periodic process grid (the z extent stays on each rank); the z
   * step talks to the diagonal neighbours. Every partner must be another
   * rank: a message to oneself inside one call would be its own dependency. */
  int dims[3] = {0, 0, 1}, periods[3] = {1, 1, 0}, coords[3];
  MPI_Dims_create(size, 3, dims);
  if (dims[0] < 2 || dims[1] < 2) {
    if (rank == 0)
      fprintf(stderr,
              "pas2p_solver: needs a process grid of at least 2x2 (4, 6, 8, ... ranks), "
              "got %dx%d\n",
              dims[0], dims[1]);
    MPI_Finalize();
    return 2;
  }
  MPI_Comm cart;
  /* @augur:pas2p_solver.cart_create */
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  int crank, lo[3], hi[3];
  MPI_Comm_rank(cart, &crank);
  MPI_Cart_coords(cart, crank, 3, coords);
  for (int d = 0; d < 2; d++)
    MPI_Cart_shift(cart, d, 1, &lo[d], &hi[d]);
  int diag[3] = {coords[0] + 1, coords[1] + 1, 0};
  MPI_Cart_rank(cart, diag, &hi[2]);
  diag[0] = coords[0] - 1;
  diag[1] = coords[1] - 1;
  MPI_Cart_rank(cart, diag, &lo[2]);

  size_t cells = (size_t)(g.nx + 2) * (size_t)(g.ny + 2) * (size_t)(g.nz + 2);
  int flen[3] = {g.ny * g.nz, g.nx * g.nz, g.nx * g.ny};
  int fmax = flen[0] > flen[1] ? flen[0] : flen[1];
  fmax = fmax > flen[2] ? fmax : flen[2];
  g.u = calloc(cells, sizeof *g.u);
  double *s0 = malloc((size_t)fmax * sizeof(double)), *s1 = malloc((size_t)fmax * sizeof(double));
  double *r0 = malloc((size_t)fmax * sizeof(double)), *r1 = malloc((size_t)fmax * sizeof(double));
  if (!g.u || !s0 || !s1 || !r0 || !r1) {
    fprintf(stderr, "pas2p_solver: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  for (size_t c = 0; c < cells; c++)
    g.u[c] = (double)((c * 7 + (size_t)rank) % 13) / 13.0;

  double residual = 0, stats[8] = {0}, gstats[8];
  int params[4] = {(int)check, (int)work, 0, 0};
  for (long it = 0; it < iter; it++) {
    MPI_Status sts[4];
    MPI_Request req[4];
    /* x step */
    double local = sweep(&g, 0, work);
    face(&g, 0, 1, s1, 0);
    face(&g, 0, 0, s0, 0);
    /* @augur:pas2p_solver.x_isend_hi */
    MPI_Isend(s1, flen[0], MPI_DOUBLE, hi[0], 10, cart, &req[0]);
    /* @augur:pas2p_solver.x_isend_lo */
    MPI_Isend(s0, flen[0], MPI_DOUBLE, lo[0], 11, cart, &req[1]);
    /* @augur:pas2p_solver.x_recv_lo */
    MPI_Recv(r0, flen[0], MPI_DOUBLE, lo[0], 10, cart, &sts[0]);
    /* @augur:pas2p_solver.x_recv_hi */
    MPI_Recv(r1, flen[0], MPI_DOUBLE, hi[0], 11, cart, &sts[1]);
    /* @augur:pas2p_solver.x_waitall */
    MPI_Waitall(2, req, sts);
    face(&g, 0, 0, r0, 1);
    face(&g, 0, 1, r1, 1);
    /* y step */
    local += sweep(&g, 1, work);
    /* @augur:pas2p_solver.y_irecv_lo */
    MPI_Irecv(r0, flen[1], MPI_DOUBLE, lo[1], 20, cart, &req[0]);
    /* @augur:pas2p_solver.y_irecv_hi */
    MPI_Irecv(r1, flen[1], MPI_DOUBLE, hi[1], 21, cart, &req[1]);
    face(&g, 1, 1, s1, 0);
    face(&g, 1, 0, s0, 0);
    /* @augur:pas2p_solver.y_isend_hi */
    MPI_Isend(s1, flen[1], MPI_DOUBLE, hi[1], 20, cart, &req[2]);
    /* @augur:pas2p_solver.y_isend_lo */
    MPI_Isend(s0, flen[1], MPI_DOUBLE, lo[1], 21, cart, &req[3]);
    /* @augur:pas2p_solver.y_waitall */
    MPI_Waitall(4, req, sts);
    face(&g, 1, 0, r0, 1);
    face(&g, 1, 1, r1, 1);
    /* z step */
    local += sweep(&g, 2, work);
    face(&g, 2, 1, s1, 0);
    face(&g, 2, 0, s0, 0);
    /* @augur:pas2p_solver.z_irecv_lo */
    MPI_Irecv(r0, flen[2], MPI_DOUBLE, lo[2], 30, cart, &req[0]);
    /* @augur:pas2p_solver.z_irecv_hi */
    MPI_Irecv(r1, flen[2], MPI_DOUBLE, hi[2], 31, cart, &req[1]);
    /* @augur:pas2p_solver.z_send_hi */
    MPI_Send(s1, flen[2], MPI_DOUBLE, hi[2], 30, cart);
    /* @augur:pas2p_solver.z_send_lo */
    MPI_Send(s0, flen[2], MPI_DOUBLE, lo[2], 31, cart);
    /* @augur:pas2p_solver.z_waitall */
    MPI_Waitall(2, req, sts);
    face(&g, 2, 0, r0, 1);
    face(&g, 2, 1, r1, 1);
    /* @augur:pas2p_solver.residual */
    MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, cart);
    if ((it + 1) % check == 0) {
      /* Convergence check: a heavier pass and a larger reduction. */
      for (int d = 0; d < 8; d++)
        stats[d] = sweep(&g, d % 3, 1) + residual;
      /* @augur:pas2p_solver.check_stats */
      MPI_Allreduce(stats, gstats, 8, MPI_DOUBLE, MPI_MAX, cart);
      params[2] = (int)(it + 1);
      /* @augur:pas2p_solver.check_bcast */
      MPI_Bcast(params, 4, MPI_INT, 0, cart);
    }
  }

  /* @augur:pas2p_solver.comm_free */
  MPI_Comm_free(&cart);
  if (rank == 0)
    printf("pas2p_solver: ranks=%d grid=%dx%dx%d block=%dx%dx%d iter=%ld residual=%.6e\n", size,
           dims[0], dims[1], dims[2], g.nx, g.ny, g.nz, iter, residual);
  free(g.u);
  free(s0);
  free(s1);
  free(r0);
  free(r1);
  /* @augur:pas2p_solver.finalize */
  MPI_Finalize();
  return 0;
}
