/* Recorder test program ("procs" scenario, 2 ranks): the process-management calls
 * rec_spawn.c does not make. MPI_Comm_spawn_multiple of one command with one process,
 * collective over MPI_COMM_WORLD with root 0: REC_SPAWN=ok, the child is this program,
 * which sends 8 bytes to the parents' rank 0 and disconnects (Open MPI can spawn here);
 * otherwise a program that does not exist, with MPI_ERRORS_RETURN, so the call returns an
 * error (MPICH cannot spawn here). Then MPI_Comm_join: rank 0 listens on a TCP socket of
 * 127.0.0.1, sends its port to rank 1 (MPI_Send, 4 bytes), rank 1 connects, both join on
 * the socket. REC_JOIN=ok: the join succeeds, rank 1 sends 8 bytes to rank 0 over the
 * intercommunicator and both disconnect; otherwise it must return an error (MPICH 4.0's
 * ports are "not supported with ucx netmod" here, and MPI_Comm_join is built on them).
 * The child is not recorded. */
#define _POSIX_C_SOURCE 200809L /* sockets under -std=c11 */
#include <arpa/inet.h>
#include <mpi.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int joined_fd(int rank) {
  int fd = socket(AF_INET, SOCK_STREAM, 0), port = 0;
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0) MPI_Abort(MPI_COMM_WORLD, 5);
  if (rank == 0) {
    socklen_t n = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 1) ||
        getsockname(fd, (struct sockaddr *)&a, &n))
      MPI_Abort(MPI_COMM_WORLD, 6);
    port = ntohs(a.sin_port);
    MPI_Send(&port, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    int c = accept(fd, NULL, NULL);
    close(fd);
    return c;
  }
  MPI_Recv(&port, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  a.sin_port = htons((unsigned short)port);
  if (connect(fd, (struct sockaddr *)&a, sizeof a)) MPI_Abort(MPI_COMM_WORLD, 7);
  return fd;
}

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
  const char *mode = getenv("REC_SPAWN"), *jmode = getenv("REC_JOIN");
  int ok = mode && strcmp(mode, "ok") == 0, join_ok = jmode && strcmp(jmode, "ok") == 0, r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n != 2) MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  char *cmds[1] = {ok ? argv[0] : "/nonexistent/augur-rec-spawn"};
  char **argvs[1] = {MPI_ARGV_NULL};
  int procs[1] = {1}, errs[1];
  MPI_Info infos[1] = {MPI_INFO_NULL};
  int rc = MPI_Comm_spawn_multiple(1, cmds, argvs, procs, infos, 0, MPI_COMM_WORLD, &inter, errs);
  if (ok != (rc == MPI_SUCCESS)) MPI_Abort(MPI_COMM_WORLD, 3);
  if (ok) {
    if (r == 0) MPI_Recv(&x, 1, MPI_DOUBLE, 0, 5, inter, MPI_STATUS_IGNORE);
    MPI_Comm_disconnect(&inter);
  }
  int fd = joined_fd(r);
  MPI_Comm joined = MPI_COMM_NULL;
  rc = MPI_Comm_join(fd, &joined);
  if (join_ok != (rc == MPI_SUCCESS)) MPI_Abort(MPI_COMM_WORLD, 4);
  if (join_ok) {
    if (r == 1) MPI_Send(&x, 1, MPI_DOUBLE, 0, 9, joined);
    if (r == 0) MPI_Recv(&x, 1, MPI_DOUBLE, 0, 9, joined, MPI_STATUS_IGNORE);
    MPI_Comm_disconnect(&joined);
  }
  close(fd);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
