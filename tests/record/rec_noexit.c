/* Recorder test program: every rank exits without MPI_Finalize after 5
 * Allreduce calls ("noexit" scenario): the atexit hook must keep them. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int x = 1, y;
  for (int i = 0; i < 5; i++)
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  exit(0);
}
