/* Recorder test program: each rank forks a child that calls exit() (its atexit hooks run,
 * as after a fork without exec: a helper process, a daemon's first fork), waits for it,
 * then goes on with MPI. The child must leave the trace alone: every rank's trace is
 * its 5 + 5 Allreduce calls, once each, and the run's end. */
#include <mpi.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int x = 1, y;
  for (int i = 0; i < 5; i++)
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  pid_t pid = fork();
  if (pid == 0) exit(0);
  if (pid > 0) waitpid(pid, NULL, 0);
  for (int i = 0; i < 5; i++)
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return pid > 0 ? 0 : 1;
}
