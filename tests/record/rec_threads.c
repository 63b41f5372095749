/* Recorder test program: MPI_THREAD_MULTIPLE, two threads per rank, each
 * exchanging messages with the partner rank (rank ^ 1) on its own
 * duplicate of MPI_COMM_WORLD ("threads" scenario of check_record.c). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 50

static MPI_Comm comms[2];
static int rank;

static void *worker(void *arg) {
  int t = (int)(long)arg, partner = rank ^ 1, v = rank;
  for (int i = 0; i < ROUNDS; i++) {
    if (rank % 2 == 0) {
      MPI_Send(&v, 1, MPI_INT, partner, t, comms[t]);
      MPI_Recv(&v, 1, MPI_INT, partner, t, comms[t], MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&v, 1, MPI_INT, partner, t, comms[t], MPI_STATUS_IGNORE);
      MPI_Send(&v, 1, MPI_INT, partner, t, comms[t]);
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  int provided, n;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (provided < MPI_THREAD_MULTIPLE || n % 2) {
    fprintf(stderr, "rec_threads: needs MPI_THREAD_MULTIPLE and an even number of ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
  pthread_t th[2];
  for (long t = 0; t < 2; t++)
    pthread_create(&th[t], NULL, worker, (void *)t);
  for (int t = 0; t < 2; t++)
    pthread_join(th[t], NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_free(&comms[0]);
  MPI_Comm_free(&comms[1]);
  MPI_Finalize();
  return 0;
}
