/* pop_check_omp — a hybrid program that measures its own POP figures
 * (docs/pop.md, "Hybrid efficiencies"), the OpenMP counterpart of pop_check.
 *
 * Each iteration of rank r:
 *   serial:   the initial thread computes SERIAL us alone (the team idle);
 *   parallel: thread t of the team computes BASE x (1 + K x t / 100)
 *             x (1 + R x r / 100) us, then waits at the region's barrier;
 *   MPI:      the initial thread, outside the region, joins an 8-byte
 *             MPI_Allreduce (masteronly).
 * Every thread times its own compute (pg_now around it), the initial thread
 * also its serial part, and every MPI call is timed, so the program knows
 * per thread its useful time u (its own code, outside MPI and the OpenMP
 * runtime) and per rank its MPI-useful time (the window minus its MPI
 * calls). After MPI_Finalize each rank prints
 *   pop_check_omp: rank R start_ns S end_ns E mpi_useful_ns M threads N
 *   pop_check_omp: rank R thread T useful_ns U     (one line per thread)
 * (CLOCK_MONOTONIC), from which HPE = avg u / (max E - min S), HLBE = avg u
 * / max u and MPI_PE = avg M / (max E - min S); tests/pop compares them
 * with `augur report --json` ("efficiencies" / "hybrid").
 *
 * usage: pop_check_omp [-n ITER] [-t THREADS] [-b US] [-k PERCENT]
 *                      [-r PERCENT] [-s US] */
#include <stdlib.h>

#include "pg_omp.h"

static long long mpi_ns;

int main(int argc, char **argv) {
  /* The OpenMP runtime starts at the first OpenMP call (5 ms here, 25 ms on
   * a loaded host), before OMPT reports anything: augur counts that as the
   * initial thread's serial time, the timers do not (docs/pop.md, "Limits").
   * Started before MPI_Init_thread, it is outside both windows. */
  (void)omp_get_max_threads();
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  long long start = pg_now();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 20, threads = 2, base_us = 4000, k_pct = 50, r_pct = 25, serial_us = 2000;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 100000, &iter, NULL},
                         {"threads", 't', PG_INT, 1, PG_OMP_MAXT, &threads, NULL},
                         {"base", 'b', PG_INT, 0, 10000000, &base_us, NULL},
                         {"k", 'k', PG_INT, 0, 10000, &k_pct, NULL},
                         {"r", 'r', PG_INT, 0, 10000, &r_pct, NULL},
                         {"serial", 's', PG_INT, 0, 10000000, &serial_us, NULL}};
  int bad = pg_omp_args(argc, argv, opts, 6, rank, provided,
                        "pop_check_omp [-n ITER] [-t THREADS] [-b US] [-k PERCENT] "
                        "[-r PERCENT] [-s US]");
  if (bad) {
    MPI_Finalize();
    return bad;
  }
  int team = pg_omp_team(threads);
  static pg_slot useful[PG_OMP_MAXT];
  double x = rank, sum = 0;
  for (long i = 0; i < iter; i++) {
    long long t0 = pg_now();
    pg_spin(serial_us * 1000LL);
    useful[0].t += pg_now() - t0;
    /* @augur:pop_check_omp.region */
#pragma omp parallel
    {
      int t = omp_get_thread_num();
      long long work = base_us * 1000LL * (100 + k_pct * t) / 100 * (100 + r_pct * rank) / 100;
      long long a = pg_now();
      pg_spin(work);
      useful[t].t += pg_now() - a;
    }
    long long m = pg_now();
    /* @augur:pop_check_omp.allreduce */
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    mpi_ns += pg_now() - m;
  }
  long long end = pg_now();
  MPI_Finalize();
  printf("pop_check_omp: rank %d start_ns %lld end_ns %lld mpi_useful_ns %lld threads %d\n", rank,
         start, end, end - start - mpi_ns, team);
  for (int t = 0; t < team; t++)
    printf("pop_check_omp: rank %d thread %d useful_ns %lld\n", rank, t, useful[t].t);
  return 0;
}
