/* Analyses test program (neigh_analyses.sh): 5 iterations of rank 0
 * computing 40 ms, then MPI_Neighbor_alltoall of 1 KiB per neighbour on a
 * non-periodic 1-D Cartesian line (no MPI_PROC_NULL traffic). Rank 1 waits
 * for rank 0 in the call, rank 2 for rank 1, ...: all the other ranks'
 * time goes to waiting in the neighbourhood collective, which only a replay
 * that knows who waits for whom can shorten. */
#include <mpi.h>

static void spin(double s) {
  double t0 = MPI_Wtime();
  while (MPI_Wtime() - t0 < s)
    ;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int dims[1] = {n}, periods[1] = {0};
  MPI_Comm line;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
  static char sb[2][1024], rb[2][1024];
  for (int it = 0; it < 5; it++) {
    if (r == 0) spin(0.04);
    MPI_Neighbor_alltoall(sb, 1024, MPI_CHAR, rb, 1024, MPI_CHAR, line);
  }
  MPI_Comm_free(&line);
  MPI_Finalize();
  return 0;
}
