/* stencil — 2-D Jacobi iteration with halo exchange on a Cartesian process
 * grid: the communication pattern of most structured-grid codes.
 *
 * Known behaviour (see apps/README.md; tests/integration checks it exactly):
 * the process grid is MPI_Dims_create(N, 2), non-periodic, no reordering.
 * Each rank owns an NX x NY block. Per iteration: one MPI_Irecv from each
 * existing neighbour, then one MPI_Isend to each (order: x-, x+, y-, y+;
 * send to direction d with tag d, so the receive from direction d expects
 * tag d^1), one MPI_Waitall over receives then sends, the 5-point update,
 * and one MPI_Allreduce of the residual. Missing neighbours (MPI_PROC_NULL)
 * get no call at all, so per-rank counts follow from the grid alone.
 * Messages to x neighbours are one contiguous row of NY doubles; to y
 * neighbours one column of NX doubles packed into a buffer (no derived
 * datatypes, so the byte counts are obvious).
 *
 * Every recorded MPI call is on the line right after an "@augur:NAME" marker
 * comment (see ring.c); all of them are in main() so none is a tail call. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum { XM = 0, XP = 1, YM = 2, YP = 3 }; /* neighbour directions */

/* Local block with a one-cell halo, row-major: u[i][j] = u[i * (ny + 2) + j],
 * i = 0..nx+1 along x (grid dimension 0), j = 0..ny+1 along y (dimension 1).
 * Row i (fixed i) is contiguous; column j is strided. */
#define AT(u, i, j) ((u)[(size_t)(i) * (size_t)(ny + 2) + (size_t)(j)])

/* Copies column j (cells i = 1..nx) into buf, or buf into it. */
static void column_pack(const double *u, int nx, int ny, int j, double *buf) {
  for (int i = 1; i <= nx; i++)
    buf[i - 1] = AT(u, i, j);
}
static void column_unpack(double *u, int nx, int ny, int j, const double *buf) {
  for (int i = 1; i <= nx; i++)
    AT(u, i, j) = buf[i - 1];
}

/* Jacobi sweep; returns the sum of squared changes (the local residual). */
static double sweep(const double *u, double *un, int nx, int ny) {
  double res = 0.0;
  for (int i = 1; i <= nx; i++)
    for (int j = 1; j <= ny; j++) {
      double v = 0.25 * (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) + AT(u, i, j + 1));
      double d = v - AT(u, i, j);
      AT(un, i, j) = v;
      res += d * d;
    }
  return res;
}

/* Global boundary condition: halo cells on the edge of the whole domain hold
 * 1.0, everything else starts at 0.0. Both arrays get the same halo so the
 * swap after each sweep keeps the boundary. */
static void init_block(double *u, int nx, int ny, const int nb[4]) {
  for (int i = 0; i <= nx + 1; i++)
    for (int j = 0; j <= ny + 1; j++) {
      int edge = (i == 0 && nb[XM] == MPI_PROC_NULL) || (i == nx + 1 && nb[XP] == MPI_PROC_NULL) ||
                 (j == 0 && nb[YM] == MPI_PROC_NULL) || (j == ny + 1 && nb[YP] == MPI_PROC_NULL);
      AT(u, i, j) = edge ? 1.0 : 0.0;
    }
}

int main(int argc, char **argv) {
  /* @augur:stencil.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 100, lnx = 64, lny = 64;
  const app_opt opts[] = {{'n', "ITER", 1, 1000000000L, &iter},
                          {'x', "NX", 1, 1L << 20, &lnx},
                          {'y', "NY", 1, 1L << 20, &lny}};
  if (app_parse(argc, argv, opts, 3, rank == 0) != 0) {
    if (rank == 0) fprintf(stderr, "usage: stencil [-n ITER] [-x NX] [-y NY]\n");
    MPI_Finalize();
    return 2;
  }
  const int nx = (int)lnx, ny = (int)lny;

  int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart;
  /* @augur:stencil.cart_create */
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  int crank, nb[4];
  MPI_Comm_rank(cart, &crank);
  MPI_Cart_coords(cart, crank, 2, coords);
  MPI_Cart_shift(cart, 0, 1, &nb[XM], &nb[XP]);
  MPI_Cart_shift(cart, 1, 1, &nb[YM], &nb[YP]);

  const size_t cells = (size_t)(nx + 2) * (size_t)(ny + 2);
  double *u = malloc(cells * sizeof *u), *un = malloc(cells * sizeof *un);
  double *sbuf[4], *rbuf[4]; /* y-direction columns; x rows go straight from/to u */
  int len[4] = {ny, ny, nx, nx}, ok = u && un;
  for (int d = 0; d < 4; d++) {
    sbuf[d] = malloc((size_t)len[d] * sizeof(double));
    rbuf[d] = malloc((size_t)len[d] * sizeof(double));
    ok = ok && sbuf[d] && rbuf[d];
  }
  if (!ok) {
    fprintf(stderr, "stencil: rank %d: out of memory for a %dx%d block\n", rank, nx, ny);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  init_block(u, nx, ny, nb);
  init_block(un, nx, ny, nb);

  double residual = 0.0;
  for (long it = 0; it < iter; it++) {
    MPI_Request req[8];
    MPI_Status sts[8]; /* a real array: GCC 12 misreads MPICH's MPI_STATUSES_IGNORE */
    int nreq = 0;
    /* Where each direction's halo lives / what each direction is sent. */
    double *rdst[4] = {&AT(u, 0, 1), &AT(u, nx + 1, 1), rbuf[YM], rbuf[YP]};
    double *ssrc[4] = {&AT(u, 1, 1), &AT(u, nx, 1), sbuf[YM], sbuf[YP]};
    for (int d = 0; d < 4; d++) {
      if (nb[d] == MPI_PROC_NULL) continue;
      /* @augur:stencil.irecv */
      MPI_Irecv(rdst[d], len[d], MPI_DOUBLE, nb[d], d ^ 1, cart, &req[nreq++]);
    }
    if (nb[YM] != MPI_PROC_NULL) column_pack(u, nx, ny, 1, sbuf[YM]);
    if (nb[YP] != MPI_PROC_NULL) column_pack(u, nx, ny, ny, sbuf[YP]);
    for (int d = 0; d < 4; d++) {
      if (nb[d] == MPI_PROC_NULL) continue;
      /* @augur:stencil.isend */
      MPI_Isend(ssrc[d], len[d], MPI_DOUBLE, nb[d], d, cart, &req[nreq++]);
    }
    /* @augur:stencil.waitall */
    MPI_Waitall(nreq, req, sts);
    if (nb[YM] != MPI_PROC_NULL) column_unpack(u, nx, ny, 0, rbuf[YM]);
    if (nb[YP] != MPI_PROC_NULL) column_unpack(u, nx, ny, ny + 1, rbuf[YP]);

    double local = sweep(u, un, nx, ny);
    /* @augur:stencil.allreduce */
    MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, cart);
    double *tmp = u;
    u = un;
    un = tmp;
  }

  /* @augur:stencil.comm_free */
  MPI_Comm_free(&cart);
  if (rank == 0)
    printf("stencil: ranks=%d grid=%dx%d block=%dx%d iter=%ld residual=%.6e\n", size, dims[0],
           dims[1], nx, ny, iter, sqrt(residual));
  for (int d = 0; d < 4; d++) {
    free(sbuf[d]);
    free(rbuf[d]);
  }
  free(u);
  free(un);
  /* @augur:stencil.finalize */
  MPI_Finalize();
  return 0;
}
