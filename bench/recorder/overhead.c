/* Recorder overhead per intercepted call: a tight loop of calls that do no
 * communication (MPI_Iprobe with no message pending, MPI_Test on
 * MPI_REQUEST_NULL, MPI_Test on a receive that never completes), timed on
 * every rank. Run it once plainly and once with
 * the recorder preloaded; the difference of the ns/call figures is the
 * recorder's cost per call.
 *
 *   augur-bench-overhead-<flavour> [-n CALLS] [--json]
 *
 * Prints, from rank 0, the median over ranks of ns per call for each loop. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median over ranks (rank 0 gets it). */
static double median(double v, int rank, int n) {
  double *all = rank == 0 ? malloc(sizeof(double) * (size_t)n) : NULL;
  MPI_Gather(&v, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double m = 0;
  if (rank == 0) {
    qsort(all, (size_t)n, sizeof *all, cmp_double);
    m = n % 2 ? all[n / 2] : (all[n / 2 - 1] + all[n / 2]) / 2;
    free(all);
  }
  return m;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long calls = 1000000;
  int json = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
      calls = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else {
      if (rank == 0) fprintf(stderr, "usage: %s [-n CALLS] [--json]\n", argv[0]);
      MPI_Finalize();
      return 2;
    }
  }
  if (calls < 1) calls = 1;
  int flag;
  MPI_Status st;

  /* warm-up (first-call costs: buffers, call-site tables) */
  for (long i = 0; i < 1000; i++)
    MPI_Iprobe(MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, &flag, &st);

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now_ns();
  for (long i = 0; i < calls; i++)
    MPI_Iprobe(MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, &flag, &st);
  double iprobe = (now_ns() - t0) / (double)calls;

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Request null = MPI_REQUEST_NULL;
  t0 = now_ns();
  for (long i = 0; i < calls; i++)
    MPI_Test(&null, &flag, MPI_STATUS_IGNORE);
  double test = (now_ns() - t0) / (double)calls;

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Request pending;
  int sink = 0;
  MPI_Irecv(&sink, 1, MPI_INT, MPI_ANY_SOURCE, 4243, MPI_COMM_WORLD, &pending);
  t0 = now_ns();
  for (long i = 0; i < calls; i++)
    MPI_Test(&pending, &flag, MPI_STATUS_IGNORE);
  double test_pending = (now_ns() - t0) / (double)calls;
  MPI_Cancel(&pending);
  MPI_Wait(&pending, MPI_STATUS_IGNORE);

  double m_iprobe = median(iprobe, rank, n), m_test = median(test, rank, n);
  double m_pending = median(test_pending, rank, n);
  if (rank == 0) {
    if (json)
      printf("{\"ranks\": %d, \"calls\": %ld, \"iprobe_ns_per_call\": %.2f, "
             "\"test_null_ns_per_call\": %.2f, \"test_pending_ns_per_call\": %.2f}\n",
             n, calls, m_iprobe, m_test, m_pending);
    else
      printf("ranks                 %d\ncalls per loop        %ld\n"
             "MPI_Iprobe (no msg)   %.2f ns/call\nMPI_Test (null req)   %.2f ns/call\n"
             "MPI_Test (pending)    %.2f ns/call\n",
             n, calls, m_iprobe, m_test, m_pending);
  }
  MPI_Finalize();
  return 0;
}
