/* The OMPT recorder's cost per OpenMP record (docs/openmp.md "Recording"):
 * L empty parallel regions of T threads, timed on rank 0 after MPI_Init.
 * Run plainly and recorded (bench/recorder/omp.sh divides the difference
 * by the records per region counted in the trace).
 *   augur-bench-omp [-l REGIONS] [-t THREADS]  ->  "ns_per_region X" */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile int sink;

int main(int argc, char **argv) {
  long loops = 200000;
  int threads = 2, provided = 0, rank = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-l")) loops = atol(argv[i + 1]);
    if (!strcmp(argv[i], "-t")) threads = atoi(argv[i + 1]);
  }
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel num_threads(threads) /* warm-up: the team exists */
  sink = omp_get_thread_num();
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long i = 0; i < loops; i++) {
#pragma omp parallel num_threads(threads)
    sink = 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
  if (rank == 0) printf("ns_per_region %.1f\n", ns / (double)loops);
  MPI_Finalize();
  return 0;
}
