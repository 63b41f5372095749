/* pg_omp_imbalance — thread load imbalance in a static loop: each iteration
 * is one `omp parallel for schedule(static)` over T x K items (T threads),
 * item i costs (i / K + 1) x BASE, so thread t gets K items of (t+1) x BASE
 * and the others wait at the region's closing barrier for thread T-1.
 *
 * usage: pg_omp_imbalance [-n ITER] [-b US] [-k ITEMS] [-t THREADS] [--off]
 * Lost thread-time per rank and iteration: sum over t of K x BASE x (T-1-t)
 * = K x BASE x T(T-1)/2, at the loop marked pg_omp_imbalance.loop, on every
 * rank. --off: every item costs (T+1)/2 x BASE, the same total work spread
 * evenly (what schedule(dynamic) would approach).
 * measured: the sum over threads and iterations of (join - the thread's last
 * item end), from the program's own clock. */
#include <mpi.h>
#include <stdio.h>

#include "pg_omp.h"

int main(int argc, char **argv) {
  int provided = 0;
  /* @augur:pg_omp_imbalance.init */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 10, base_us = 3000, k = 2, threads = 0, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"items", 'k', PG_INT, 1, 1000000, &k, NULL},
                         {"threads", 't', PG_INT, 0, PG_OMP_MAXT, &threads, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_omp_args(argc, argv, opts, 5, rank, provided,
                  "pg_omp_imbalance [-n ITER] [-b US] [-k ITEMS] [-t THREADS] [--off]") != 0) {
    /* @augur:pg_omp_imbalance.finalize_usage */
    MPI_Finalize();
    return 2;
  }
  const int team = pg_omp_team(threads);
  const long long base = base_us * PG_US;
  if (rank == 0)
    pg_expected(off ? "none" : "omp_load_imbalance",
                off ? 0.0 : 1e-9 * (double)(k * base) * team * (team - 1) / 2.0 * iter * size, 0,
                off ? -1 : size - 1, 1, "site=pg_omp_imbalance.loop");

  static pg_slot done[PG_OMP_MAXT];
  long long lost = 0;
  /* @augur:pg_omp_imbalance.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  long long t0 = pg_now();
  for (long it = 0; it < iter; it++) {
    long long fork = pg_now();
    for (int t = 0; t < team; t++)
      done[t].t = fork; /* a thread given no item idles the whole region */
                        /* @augur:pg_omp_imbalance.loop */
#pragma omp parallel for schedule(static)
    for (long i = 0; i < team * k; i++) {
      pg_spin(off ? base * (team + 1) / 2 : base * (i / k + 1));
      done[omp_get_thread_num()].t = pg_now();
    }
    long long join = pg_now();
    for (int t = 0; t < team; t++)
      lost += join - done[t].t;
  }
  double mine[2] = {1e-9 * (double)lost, 1e-9 * (double)(pg_now() - t0)}, sum[2] = {0, 0};
  pg_omp_totals(&mine[0], 1, mine[1], sum);
  if (rank == 0) pg_measured(sum[0], sum[1], team);
  /* @augur:pg_omp_imbalance.finalize */
  MPI_Finalize();
  return 0;
}
