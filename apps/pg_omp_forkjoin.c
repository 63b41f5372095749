/* pg_omp_forkjoin — a fork/join storm: a loop of REGIONS tiny parallel
 * regions (each thread works US in each), so the runtime forks and joins
 * the team REGIONS times and its overhead is a large share of the run.
 *
 * usage: pg_omp_forkjoin [-n REGIONS] [-w US] [-t THREADS] [--off]
 * The regions are at the line after the marker pg_omp_forkjoin.region.
 * --off: the region hoisted out of the loop: one `omp parallel` around it.
 *   The iterations are independent (each thread's work depends on nothing
 *   another thread did), so the hoisted loop needs no barrier.
 * Lost thread-time: the runtime's fork/join cost, which no formula gives, so
 * the "expected:" line comes at the end with the measured value:
 * measured: the sum over regions and threads of (the thread's first statement
 * in the region - the master's time before the fork) + (the master's time
 * after the join - the thread's last statement), Scalasca's "thread
 * management" (fork and join) time, on the program's clock. */
#include <mpi.h>
#include <stdio.h>

#include "pg_omp.h"

int main(int argc, char **argv) {
  int provided = 0;
  /* @augur:pg_omp_forkjoin.init */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long regions = 2000, work_us = 20, threads = 0, off = 0;
  const pg_opt opts[] = {{"regions", 'n', PG_INT, 1, 100000000, &regions, NULL},
                         {"work", 'w', PG_INT, 0, 100000000, &work_us, NULL},
                         {"threads", 't', PG_INT, 0, PG_OMP_MAXT, &threads, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_omp_args(argc, argv, opts, 4, rank, provided,
                  "pg_omp_forkjoin [-n REGIONS] [-w US] [-t THREADS] [--off]") != 0) {
    /* @augur:pg_omp_forkjoin.finalize_usage */
    MPI_Finalize();
    return 2;
  }
  const int team = pg_omp_team(threads);
  const long long work = work_us * PG_US;
  static pg_slot enter[PG_OMP_MAXT], leave[PG_OMP_MAXT];

  long long lost = 0;
  /* @augur:pg_omp_forkjoin.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  long long t0 = pg_now();
  if (!off) {
    for (long r = 0; r < regions; r++) {
      long long fork = pg_now();
      /* @augur:pg_omp_forkjoin.region */
#pragma omp parallel
      {
        int t = omp_get_thread_num();
        enter[t].t = pg_now();
        pg_spin(work);
        leave[t].t = pg_now();
      }
      long long join = pg_now();
      for (int t = 0; t < team; t++)
        lost += (enter[t].t - fork) + (join - leave[t].t);
    }
  } else {
    long long fork = pg_now();
    /* @augur:pg_omp_forkjoin.region_off */
#pragma omp parallel
    {
      int t = omp_get_thread_num();
      enter[t].t = pg_now();
      for (long r = 0; r < regions; r++)
        pg_spin(work);
      leave[t].t = pg_now();
    }
    long long join = pg_now();
    for (int t = 0; t < team; t++)
      lost += (enter[t].t - fork) + (join - leave[t].t);
  }
  double mine[2] = {1e-9 * (double)lost, 1e-9 * (double)(pg_now() - t0)}, sum[2] = {0, 0};
  pg_omp_totals(&mine[0], 1, mine[1], sum);
  if (rank == 0) {
    pg_expected(off ? "none" : "omp_fork_join", off ? 0.0 : sum[0], 0, off ? -1 : size - 1, 1,
                "site=pg_omp_forkjoin.region");
    pg_measured(sum[0], sum[1], team);
  }
  /* @augur:pg_omp_forkjoin.finalize */
  MPI_Finalize();
  return 0;
}
