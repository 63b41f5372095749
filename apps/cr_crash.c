/* cr_crash — a ping-pong between ranks 0 and 1 that ends badly, for the
 * crash-salvage tests (tests/record/crash.sh, issue 22 item 10).
 *
 *   cr_crash [-n MESSAGES] [-t MS] [-w US] [-f FAULT]
 *
 * Rank 0 sends a message to rank 1 and receives its answer, MESSAGES times
 * (default 1000; each one is one MPI_Send and one MPI_Recv on both ranks),
 * with W microseconds of compute before each send (default 100). Then,
 * FAULT (default 1):
 *   1  rank 1 writes through a NULL pointer (SIGSEGV) while rank 0 waits in
 *      MPI_Recv for an answer that never comes;
 *   2  rank 1 divides by zero (SIGFPE);
 *   0  no fault: both ranks go on exchanging until MS milliseconds (default
 *      60000) have passed since MPI_Init, then finalize, so a test can kill
 *      the job from outside meanwhile.
 * Other ranks (if any) only wait in the final barrier. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#include "common.h"

static volatile int *volatile nowhere = NULL;
static volatile int one = 1, zero = 0, quotient; /* 1 / x would be folded into a compare */

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long messages = 1000, ms = 60000, us = 100, fault = 1;
  app_opt opts[] = {{'n', "MESSAGES", 1, 100000000, &messages},
                    {'t', "MS", 0, 3600000, &ms},
                    {'w', "US", 0, 1000000, &us},
                    {'f', "FAULT", 0, 2, &fault}};
  if (app_parse(argc, argv, opts, 4, rank == 0) != 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: cr_crash [-n MESSAGES] [-t MS] [-w US] [-f FAULT] (>= 2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  double t0 = app_now(), buf[8] = {0};
  for (long i = 0; rank < 2 && (i < messages || (!fault && app_now() - t0 < ms / 1e3)); i++) {
    app_spin(us / 1e6);
    if (rank == 0) {
      MPI_Send(buf, 8, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, 8, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, 8, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 8, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
    }
  }
  if (fault && rank == 1) {
    /* Rank 0 has its last answer: let it record that MPI_Recv and block in
     * the next one before the fault (on a busy host it may not have run yet
     * when the launcher kills it, and a call still returning is not kept). */
    struct timespec pause = {0, 300 * 1000 * 1000};
    nanosleep(&pause, NULL);
    if (fault == 1) *nowhere = 1;
    quotient = one / zero;
  }
  if (fault && rank == 0) /* the answer that never comes */
    MPI_Recv(buf, 8, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
