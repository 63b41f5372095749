/* Smallest MPI program: built per flavour to check `augur record`'s MPI
 * detection and a real record. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, token = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 1) {
    if (rank == 0)
      MPI_Send(&token, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(&token, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
