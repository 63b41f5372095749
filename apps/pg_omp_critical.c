/* pg_omp_critical — a hot critical section: each iteration is an
 * `omp parallel for` over ITEMS items; each item works OUT outside, then
 * adds its result to a shared total inside an `omp critical` that also works
 * IN (the update of a shared structure). With IN > OUT / (T-1) the critical
 * section is the bottleneck and threads queue at it.
 *
 * usage: pg_omp_critical [-n ITER] [-m ITEMS] [-w OUT_US] [-c IN_US]
 *                        [-t THREADS] [--off]
 * The critical section is at the line after the marker
 * pg_omp_critical.critical.
 * --off: a reduction(+) instead: the IN work is done on private data, no lock.
 * Lost thread-time per rank and iteration, ideally: T x (the critical-bound
 * wall time ITEMS x IN) - the work ITEMS x (IN + OUT), when positive.
 * measured: the sum over threads of the time from reaching the critical
 * construct to being inside it (the lock wait), on the program's clock. */
#include <mpi.h>
#include <stdio.h>

#include "pg_omp.h"

int main(int argc, char **argv) {
  int provided = 0;
  /* @augur:pg_omp_critical.init */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 4, items = 8, out_us = 2500, in_us = 6000, threads = 0, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"items", 'm', PG_INT, 1, 100000000, &items, NULL},
                         {"out", 'w', PG_INT, 0, 100000000, &out_us, NULL},
                         {"in", 'c', PG_INT, 0, 100000000, &in_us, NULL},
                         {"threads", 't', PG_INT, 0, PG_OMP_MAXT, &threads, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_omp_args(argc, argv, opts, 6, rank, provided,
                  "pg_omp_critical [-n ITER] [-m ITEMS] [-w OUT_US] [-c IN_US]"
                  " [-t THREADS] [--off]") != 0) {
    /* @augur:pg_omp_critical.finalize_usage */
    MPI_Finalize();
    return 2;
  }
  const int team = pg_omp_team(threads);
  const long long out = out_us * PG_US, in = in_us * PG_US;
  double ideal = 1e-9 * (double)(team * items * in - items * (in + out));
  if (rank == 0)
    pg_expected(off || ideal <= 0 ? "none" : "omp_critical_contention",
                off || ideal <= 0 ? 0.0 : ideal * iter * size, 0, off || ideal <= 0 ? -1 : size - 1,
                1, "site=pg_omp_critical.critical");

  long long waited = 0, total = 0;
  /* @augur:pg_omp_critical.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  long long t0 = pg_now();
  for (long it = 0; it < iter; it++) {
    if (!off) {
      /* @augur:pg_omp_critical.loop */
#pragma omp parallel for schedule(static) reduction(+ : waited)
      for (long i = 0; i < items; i++) {
        pg_spin(out);
        long long w0 = pg_now();
        /* @augur:pg_omp_critical.critical */
#pragma omp critical
        {
          waited += pg_now() - w0;
          pg_spin(in);
          total += i;
        }
      }
    } else {
      /* @augur:pg_omp_critical.loop_off */
#pragma omp parallel for schedule(static) reduction(+ : total)
      for (long i = 0; i < items; i++) {
        pg_spin(out);
        pg_spin(in);
        total += i;
      }
    }
  }
  double mine[2] = {1e-9 * (double)waited, 1e-9 * (double)(pg_now() - t0)}, sum[2] = {0, 0};
  if (total != iter * items * (items - 1) / 2) {
    fprintf(stderr, "pg_omp_critical: rank %d: total %lld, expected %ld\n", rank, total,
            iter * items * (items - 1) / 2);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  pg_omp_totals(&mine[0], 1, mine[1], sum);
  if (rank == 0) pg_measured(sum[0], sum[1], team);
  /* @augur:pg_omp_critical.finalize */
  MPI_Finalize();
  return 0;
}
