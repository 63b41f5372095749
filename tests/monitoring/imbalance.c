/* Test app for profile mode: every rank computes for BASE seconds of CPU
 * time, rank 1 for twice that; one helper thread per rank computes a little;
 * each rank writes and fsyncs a small file; then a barrier and an allreduce.
 * Usage: imbalance [BASE_SECONDS] [DIR]   (defaults 0.3, /tmp) */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile double sink;

static void spin(double seconds) {
  double t0 = cpu_now(), x = 1.0;
  while (cpu_now() - t0 < seconds)
    for (int i = 0; i < 10000; i++)
      x = x * 1.0000001 + 1e-9;
  sink = x;
}

static void *helper(void *arg) {
  spin(*(double *)arg);
  return NULL;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double base = argc > 1 ? atof(argv[1]) : 0.3;
  const char *dir = argc > 2 ? argv[2] : "/tmp";
  double small = base / 10;
  pthread_t th;
  pthread_create(&th, NULL, helper, &small);
  spin(rank == 1 ? 2 * base : base);
  pthread_join(th, NULL);
  char path[512];
  snprintf(path, sizeof path, "%s/imbalance-%d-%d.out", dir, (int)getpid(), rank);
  FILE *f = fopen(path, "w");
  if (f) {
    for (int i = 0; i < 100; i++)
      fprintf(f, "rank %d line %d\n", rank, i);
    fflush(f);
    fsync(fileno(f));
    fclose(f);
    unlink(path);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double v = rank, sum = 0;
  MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("sum %g over %d ranks\n", sum, size);
  MPI_Finalize();
  return 0;
}
