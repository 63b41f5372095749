/* Test app for profile mode: OpenMP without MPI. Each of ITER parallel
 * regions of 2 threads: thread t computes (2t + 1) x BASE ms (wall-clock
 * spin), so thread 0 waits 2 x BASE ms at the closing barrier: 2/3 of the
 * team's time in regions is work. With --off both compute 2 x BASE.
 * Usage: omp_alone [ITER] [BASE_MS] [--off]   (defaults 20, 5) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile double sink;

static void spin(double seconds) {
  double t0 = now(), x = 1;
  while (now() - t0 < seconds)
    x = x * 1.0000001 + 1e-9;
  sink = x;
}

int main(int argc, char **argv) {
  int iter = argc > 1 ? atoi(argv[1]) : 20;
  double base = (argc > 2 ? atof(argv[2]) : 5) / 1000;
  int off = argc > 3 && !strcmp(argv[3], "--off");
  for (int i = 0; i < iter; i++) {
#pragma omp parallel num_threads(2)
    spin(off ? 2 * base : (2 * omp_get_thread_num() + 1) * base);
  }
  printf("omp_alone: %d regions\n", iter);
  return 0;
}
