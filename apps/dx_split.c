/* dx_split — one problem split over call sites (diagnose: the threshold
 * applies to a problem summed over its call sites). Two ranks compute W
 * each step; then rank 1 sends three messages of one exchange, each after
 * D more computation, from three call sites, and rank 0 receives them at
 * three call sites, waiting about D at each.
 *
 * usage: dx_split [-n ITER] [-w W_US] [-d D_US]   (2 ranks)
 * Lost process-time: 3 x D x ITER on rank 0, a share 3D / (2W + 6D) of
 * process-time; each call site has a third of it. */
#include <mpi.h>
#include <stdio.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:dx_split.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 20, w_us = 28000, d_us = 1000;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"work", 'w', PG_INT, 0, 100000000, &w_us, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL}};
  if (pg_parse(argc, argv, opts, 3, rank == 0) != 0 || size != 2) {
    if (rank == 0) {
      if (size != 2) fprintf(stderr, "dx_split: needs 2 ranks\n");
      fprintf(stderr, "usage: dx_split [-n ITER] [-w W_US] [-d D_US]\n");
    }
    MPI_Finalize();
    return 2;
  }
  double a[64] = {0}, b[64] = {0}, c[64] = {0};
  /* @augur:dx_split.start */
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    pg_spin(w_us * PG_US);
    if (rank == 1) {
      pg_spin(d_us * PG_US);
      /* @augur:dx_split.send_a */
      MPI_Send(a, 64, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
      pg_spin(d_us * PG_US);
      /* @augur:dx_split.send_b */
      MPI_Send(b, 64, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
      pg_spin(d_us * PG_US);
      /* @augur:dx_split.send_c */
      MPI_Send(c, 64, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
    } else {
      /* @augur:dx_split.recv_a */
      MPI_Recv(a, 64, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      /* @augur:dx_split.recv_b */
      MPI_Recv(b, 64, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      /* @augur:dx_split.recv_c */
      MPI_Recv(c, 64, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  /* @augur:dx_split.finalize */
  MPI_Finalize();
  return 0;
}
