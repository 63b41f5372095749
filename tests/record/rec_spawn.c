/* Recorder test program ("spawn" scenario): MPI_Comm_spawn of one process,
 * collective over MPI_COMM_WORLD with root 0. REC_SPAWN=ok: the child is
 * this program, which sends 8 bytes to the parents' rank 0 over the
 * intercommunicator, and both sides disconnect (Open MPI can spawn here);
 * otherwise a program that does not exist, with MPI_ERRORS_RETURN, so the call
 * returns an error (MPICH cannot spawn here). The child is not recorded: its
 * rank 0 would overwrite the parent job's rank file. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent, inter = MPI_COMM_NULL;
  MPI_Comm_get_parent(&parent);
  double x = 1.0;
  if (parent != MPI_COMM_NULL) { /* the child */
    MPI_Send(&x, 1, MPI_DOUBLE, 0, 5, parent);
    MPI_Comm_disconnect(&parent);
    MPI_Finalize();
    return 0;
  }
  const char *mode = getenv("REC_SPAWN");
  int ok = mode && strcmp(mode, "ok") == 0, r, err[1];
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Comm_spawn(ok ? argv[0] : "/nonexistent/augur-rec-spawn", MPI_ARGV_NULL, 1,
                          MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, err);
  if (ok && rc != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 3);
  if (!ok && rc == MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 4);
  if (ok) {
    if (r == 0) MPI_Recv(&x, 1, MPI_DOUBLE, 0, 5, inter, MPI_STATUS_IGNORE);
    MPI_Comm_disconnect(&inter);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
