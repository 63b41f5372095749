/* sw_mw — the smallest blocking master/worker loop of seed 002, for
 * tests/sweep: rank 0 (master) sends each worker its share of W items
 * (W / workers doubles), each worker computes on them with OpenMP threads
 * (OMP_NUM_THREADS) and sends one result back; the master waits for all and
 * starts the next iteration. Work per item is fixed arithmetic, so T_iter
 * grows with W / (workers x threads).
 *
 * usage: sw_mw -W WORKLOAD -i ITERATIONS
 * Prints "t_iter_median S" (the master's median iteration, MPI_Wtime). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_WORK = 1, TAG_RESULT = 2, TAG_STOP = 3, SPIN = 4000 };

static double work(const double *x, long n) {
  double s = 0.0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (long i = 0; i < n; i++) {
    double v = x[i];
    for (int k = 0; k < SPIN; k++)
      v = v * 0.999999 + 1e-9;
    s += v;
  }
  return s;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  long W = 1000, iters = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-W"))
      W = atol(argv[i + 1]);
    else if (!strcmp(argv[i], "-i"))
      iters = atol(argv[i + 1]);
  }
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int nw = size - 1;
  if (nw < 1 || W < 1 || iters < 1) {
    if (!rank) fprintf(stderr, "sw_mw: needs 2+ ranks, -W >= 1, -i >= 1\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long local = W / nw;
  double *buf = calloc((size_t)local + 1, sizeof *buf);
  if (!rank) {
    double *t = calloc((size_t)iters, sizeof *t), acc = 0.0;
    for (long it = 0; it < iters; it++) {
      double t0 = MPI_Wtime();
      for (long i = 0; i < local; i++)
        buf[i] = (double)(i + it) * 1e-6 + acc * 1e-12;
      for (int w = 1; w <= nw; w++)
        MPI_Send(buf, (int)local, MPI_DOUBLE, w, TAG_WORK, MPI_COMM_WORLD);
      for (int w = 1; w <= nw; w++) {
        double r;
        MPI_Recv(&r, 1, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        acc += r;
      }
      t[it] = MPI_Wtime() - t0;
    }
    for (int w = 1; w <= nw; w++)
      MPI_Send(buf, 0, MPI_DOUBLE, w, TAG_STOP, MPI_COMM_WORLD);
    qsort(t, (size_t)iters, sizeof *t, cmp);
    double med = iters % 2 ? t[iters / 2] : 0.5 * (t[iters / 2 - 1] + t[iters / 2]);
    printf("t_iter_median %.9g\n", med);
    printf("checksum %g\n", acc);
    free(t);
  } else {
    for (;;) {
      MPI_Status st;
      MPI_Recv(buf, (int)local, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      if (st.MPI_TAG == TAG_STOP) break;
      double r = work(buf, local);
      MPI_Send(&r, 1, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
