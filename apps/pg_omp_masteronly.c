/* pg_omp_masteronly — "masteronly" hybrid communication (Rabenseifner): each
 * iteration the master thread exchanges BYTES with its ring neighbours in
 * MPI_Sendrecv outside any parallel region while the other threads idle,
 * then the team computes ITEMS items of US each (`omp for
 * schedule(dynamic)`).
 *
 * usage: pg_omp_masteronly [-n ITER] [-s BYTES] [-m ITEMS] [-w US]
 *                          [-t THREADS] [--off]
 * The exchange is at the line after the marker pg_omp_masteronly.exchange.
 * --off: overlapped: the exchange moves into the region, in an `omp master`
 *   (MPI_THREAD_FUNNELED allows it: the master calls MPI), while the other
 *   threads start on the items; the master joins the loop when done.
 * Lost thread-time: (T-1) x the time in the exchange, whose length no
 * formula gives (the "expected:" line comes at the end with that measured
 * figure).
 * measured: the time threads other than the master spend idle while it is
 * in MPI, on the program's clock: (T-1) x the exchange's duration; with
 * --off, the time from a thread's last item to the end of the exchange when
 * it ran out of items first (the closing barrier's wait is load imbalance,
 * not counted). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_omp.h"

int main(int argc, char **argv) {
  int provided = 0;
  /* @augur:pg_omp_masteronly.init */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 6, bytes = 4L << 20, items = 8, work_us = 6000, threads = 0, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"bytes", 's', PG_INT, 1, 1L << 30, &bytes, NULL},
                         {"items", 'm', PG_INT, 1, 100000000, &items, NULL},
                         {"work", 'w', PG_INT, 0, 100000000, &work_us, NULL},
                         {"threads", 't', PG_INT, 0, PG_OMP_MAXT, &threads, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_omp_args(argc, argv, opts, 6, rank, provided,
                  "pg_omp_masteronly [-n ITER] [-s BYTES] [-m ITEMS] [-w US]"
                  " [-t THREADS] [--off]") != 0) {
    /* @augur:pg_omp_masteronly.finalize_usage */
    MPI_Finalize();
    return 2;
  }
  const int team = pg_omp_team(threads);
  const long long work = work_us * PG_US;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  char *sbuf = calloc((size_t)bytes, 1), *rbuf = calloc((size_t)bytes, 1);
  if (!sbuf || !rbuf) {
    fprintf(stderr, "pg_omp_masteronly: rank %d: out of memory for %ld bytes\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  static pg_slot done[PG_OMP_MAXT]; /* each thread's last item end */

  long long lost = 0;
  /* @augur:pg_omp_masteronly.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  long long t0 = pg_now();
  for (long it = 0; it < iter; it++) {
    if (!off) {
      long long c0 = pg_now();
      /* @augur:pg_omp_masteronly.exchange */
      MPI_Sendrecv(sbuf, (int)bytes, MPI_BYTE, right, 0, rbuf, (int)bytes, MPI_BYTE, left, 0,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      lost += (pg_now() - c0) * (team - 1); /* every other thread idles meanwhile */
                                            /* @augur:pg_omp_masteronly.region */
#pragma omp parallel for schedule(dynamic)
      for (long i = 0; i < items; i++)
        pg_spin(work);
    } else {
      long long fork = pg_now(), mpi_end = fork;
      for (int t = 0; t < team; t++)
        done[t].t = fork;
        /* @augur:pg_omp_masteronly.region_off */
#pragma omp parallel
      {
        /* @augur:pg_omp_masteronly.master_off */
#pragma omp master
        {
          /* @augur:pg_omp_masteronly.exchange_off */
          MPI_Sendrecv(sbuf, (int)bytes, MPI_BYTE, right, 0, rbuf, (int)bytes, MPI_BYTE, left, 0,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          mpi_end = pg_now();
        }
        /* @augur:pg_omp_masteronly.loop_off */
#pragma omp for schedule(dynamic)
        for (long i = 0; i < items; i++) {
          pg_spin(work);
          done[omp_get_thread_num()].t = pg_now();
        }
      }
      /* A thread that ran out of items before the exchange ended idled
       * while the master was in MPI. */
      for (int t = 1; t < team; t++)
        if (done[t].t < mpi_end) lost += mpi_end - done[t].t;
    }
  }
  double mine[2] = {1e-9 * (double)lost, 1e-9 * (double)(pg_now() - t0)}, sum[2] = {0, 0};
  pg_omp_totals(&mine[0], 1, mine[1], sum);
  if (rank == 0) {
    pg_expected(off ? "none" : "mpi_in_serial_section", off ? 0.0 : sum[0], 0, off ? -1 : size - 1,
                1, "site=pg_omp_masteronly.exchange");
    pg_measured(sum[0], sum[1], team);
  }
  free(sbuf);
  free(rbuf);
  /* @augur:pg_omp_masteronly.finalize */
  MPI_Finalize();
  return 0;
}
