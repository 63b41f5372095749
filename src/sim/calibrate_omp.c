/* augur-calibrate-omp: the OpenMP and memory microbenchmarks of `augur
 * calibrate --openmp` (docs/simulate.md "Microbenchmarks"), for the seed's
 * analytic model (docs/model.md "Analytic baseline"). No MPI. Prints one
 * line per figure on stdout (seconds, bytes/s; protocol in
 * include/augur/microbench.h):
 *   omp T PARALLEL BARRIER FOR BANDWIDTH   per thread count T = 1..MAX
 *   memlatency S                           one dependent load from memory
 * PARALLEL: an empty `#pragma omp parallel` region of T threads (fork and
 * join); BARRIER: one `#pragma omp barrier` inside a region; FOR: one empty
 * `#pragma omp for schedule(static)` over T iterations inside a region
 * (scheduling and its implicit barrier); each the least of 21 samples of
 * the mean over INNER repetitions, as EPCC's syncbench (Bull 1999) times a
 * construct, without EPCC's delay loop (the constructs are empty, so the
 * time is the overhead). BANDWIDTH: a STREAM triad a = b + s c over 3 x 4M
 * doubles with T threads, 24 bytes per element, the best of 5. memlatency:
 * a pointer chase through a random cycle of 64-byte nodes over 64 MiB
 * (beyond the last-level cache), as lmbench's lat_mem_rd.
 * Usage: augur-calibrate-omp [MAX_THREADS]  (default omp_get_num_procs()) */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SAMPLES 21

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The smallest of N samples: on a machine shared with other work (this
 * one usually is), a sample that a preemption hit is longer, never
 * shorter, so the minimum is the construct's own cost. */
static double least(double *v, int n) {
  qsort(v, (size_t)n, sizeof v[0], cmp_double);
  return v[0];
}

/* Time of one empty construct KIND (0 parallel, 1 barrier, 2 for) with T threads. */
static double construct(int kind, int t) {
  const int inner = kind == 0 ? 100 : 400;
  double s[SAMPLES];
  volatile int sink = 0;
  for (int k = 0; k < SAMPLES; k++) {
    double t0 = 0, t1 = 0;
    if (kind == 0) {
      t0 = omp_get_wtime();
      for (int i = 0; i < inner; i++) {
#pragma omp parallel num_threads(t)
        {
          if (omp_get_thread_num() == t) sink = 1; /* never: keeps the region */
        }
      }
      t1 = omp_get_wtime();
    } else {
#pragma omp parallel num_threads(t)
      {
#pragma omp barrier
#pragma omp master
        t0 = omp_get_wtime();
        for (int i = 0; i < inner; i++) {
          if (kind == 1) {
#pragma omp barrier
          } else {
#pragma omp for schedule(static)
            for (int j = 0; j < t; j++)
              if (j == t) sink = 1;
          }
        }
#pragma omp master
        t1 = omp_get_wtime();
      }
    }
    s[k] = (t1 - t0) / inner;
  }
  (void)sink;
  return least(s, SAMPLES);
}

static double triad(int t, double *a, const double *b, const double *c, long n) {
  double best = 1e30;
  for (int k = 0; k < 5; k++) {
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static) num_threads(t)
    for (long i = 0; i < n; i++)
      a[i] = b[i] + 3.0 * c[i];
    double dt = omp_get_wtime() - t0;
    if (dt < best) best = dt;
  }
  return 24.0 * (double)n / best;
}

/* Sattolo's shuffle: one cycle through every node, in random order. */
static double chase(void) {
  const size_t node = 64 / sizeof(size_t), nodes = (64u << 20) / 64;
  size_t *mem = malloc(nodes * node * sizeof *mem), *perm = malloc(nodes * sizeof *perm);
  if (!mem || !perm) {
    free(mem);
    free(perm);
    return -1;
  }
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < nodes; i++)
    perm[i] = i;
  for (size_t i = nodes - 1; i > 0; i--) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    size_t j = (size_t)(x % i), tmp = perm[i];
    perm[i] = perm[j], perm[j] = tmp;
  }
  for (size_t i = 0; i < nodes; i++)
    mem[perm[i] * node] = perm[(i + 1) % nodes] * node;
  free(perm);
  const long loads = 1 << 16;
  double s[SAMPLES];
  size_t p = 0;
  for (int k = 0; k < SAMPLES; k++) {
    double t0 = omp_get_wtime();
    for (long i = 0; i < loads; i++)
      p = mem[p];
    s[k] = (omp_get_wtime() - t0) / (double)loads;
  }
  free(mem);
  return p == (size_t)-1 ? -1 : least(s, SAMPLES); /* p: the loads are used */
}

int main(int argc, char **argv) {
  int max = argc > 1 ? atoi(argv[1]) : omp_get_num_procs();
  if (max < 1 || max > 256) {
    fprintf(stderr, "augur-calibrate-omp: MAX_THREADS must be 1..256\n");
    return 2;
  }
  const long n = 4L << 20;
  double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b),
         *c = malloc((size_t)n * sizeof *c);
  if (!a || !b || !c) {
    fprintf(stderr, "augur-calibrate-omp: out of memory\n");
    return 1;
  }
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    a[i] = 0, b[i] = 1, c[i] = 2;
  for (int t = 1; t <= max; t++) {
    double par = construct(0, t), bar = construct(1, t), fr = construct(2, t);
    printf("omp %d %.9g %.9g %.9g %.9g\n", t, par, bar, fr, triad(t, a, b, c, n));
    fflush(stdout);
  }
  free(a), free(b), free(c);
  double lat = chase();
  if (lat > 0) printf("memlatency %.9g\n", lat);
  return 0;
}
