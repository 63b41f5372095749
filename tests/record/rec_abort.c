/* Recorder test program: rank 0 calls MPI_Abort after 20 Allreduce calls
 * ("abort" scenario): its flushed events must be readable. */
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, x = 1, y;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  for (int i = 0; i < 20; i++)
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (r == 0) MPI_Abort(MPI_COMM_WORLD, 3);
  MPI_Barrier(MPI_COMM_WORLD); /* never completes: rank 0 aborts the job */
  MPI_Finalize();
  return 0;
}
