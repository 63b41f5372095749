/* pg_omp_serial — a serial section (Amdahl): each iteration does SERIAL of
 * work on one thread while the rest of the team has nothing to do, then a
 * parallel region where every thread works PAR.
 *
 * usage: pg_omp_serial [-n ITER] [-s US] [-p US] [-t THREADS]
 *                      [--where before|single] [--off]
 * --where before (default): the serial work runs on the master before the
 *   region is forked (the other threads are idle outside any region), at the
 *   line after the marker pg_omp_serial.work.
 * --where single: inside the region, in an `omp single` (marker
 *   pg_omp_serial.single); the others wait at its closing barrier.
 * Lost thread-time per rank and iteration: SERIAL x (T-1), on every rank.
 * --off: the same SERIAL work split evenly over the team inside the region.
 * measured: (T-1) x the serial section's duration on the program's clock. */
#include <mpi.h>
#include <stdio.h>

#include "pg_omp.h"

int main(int argc, char **argv) {
  int provided = 0;
  /* @augur:pg_omp_serial.init */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  static const char *const wheres[] = {"before", "single", NULL};
  long iter = 10, serial_us = 6000, par_us = 3000, threads = 0, where = 0, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"serial", 's', PG_INT, 0, 100000000, &serial_us, NULL},
                         {"par", 'p', PG_INT, 0, 100000000, &par_us, NULL},
                         {"threads", 't', PG_INT, 0, PG_OMP_MAXT, &threads, NULL},
                         {"where", 0, PG_CHOICE, 0, 0, &where, wheres},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_omp_args(argc, argv, opts, 6, rank, provided,
                  "pg_omp_serial [-n ITER] [-s US] [-p US] [-t THREADS]"
                  " [--where before|single] [--off]") != 0) {
    /* @augur:pg_omp_serial.finalize_usage */
    MPI_Finalize();
    return 2;
  }
  const int team = pg_omp_team(threads);
  const long long serial = serial_us * PG_US, par = par_us * PG_US;
  if (rank == 0)
    pg_expected(off ? "none" : "omp_serial_region",
                off ? 0.0 : 1e-9 * (double)serial * (team - 1) * iter * size, 0,
                off ? -1 : size - 1, 1,
                where ? "site=pg_omp_serial.single" : "site=pg_omp_serial.work");

  long long in_serial = 0;
  /* @augur:pg_omp_serial.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  long long t0 = pg_now();
  for (long it = 0; it < iter; it++) {
    if (off) {
      /* @augur:pg_omp_serial.region_off */
#pragma omp parallel
      pg_spin(serial / omp_get_num_threads() + par);
    } else if (where == 0) {
      long long s0 = pg_now();
      /* @augur:pg_omp_serial.work */
      pg_spin(serial);
      in_serial += pg_now() - s0;
      /* @augur:pg_omp_serial.region */
#pragma omp parallel
      pg_spin(par);
    } else {
      /* @augur:pg_omp_serial.region_single */
#pragma omp parallel
      {
        /* @augur:pg_omp_serial.single */
#pragma omp single
        {
          long long s0 = pg_now();
          pg_spin(serial);
          in_serial += pg_now() - s0;
        }
        pg_spin(par);
      }
    }
  }
  double mine[2] = {1e-9 * (double)in_serial * (team - 1), 1e-9 * (double)(pg_now() - t0)};
  double sum[2] = {0, 0};
  pg_omp_totals(&mine[0], 1, mine[1], sum);
  if (rank == 0) pg_measured(sum[0], sum[1], team);
  /* @augur:pg_omp_serial.finalize */
  MPI_Finalize();
  return 0;
}
