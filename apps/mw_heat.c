/* mw_heat — 2-D transient heat conduction as a blocking hybrid master/worker
 * program (seed 002's Heat; apps/README.md, "Master/worker (issue 25)").
 *
 * usage: mw_heat [-W N] [-i ITER] [-t THREADS] [-s]
 *   (defaults 2048, 10, 0 = OMP_NUM_THREADS or the runtime's default)
 *
 * An N x N grid, evenly spaced, constant diffusivity, explicit finite
 * differences: u' = u + A * (u_E + u_W + u_N + u_S - 4u) with A = 0.2
 * (stable below 0.25). The boundary stays at zero; the initial temperature
 * is 100 * sin(pi i/(N-1)) * sin(pi j/(N-1)), high in the middle: the
 * scheme's slowest eigenmode, which decays by the factor
 * g = 1 - 8A sin^2(pi / (2(N-1))) per step, so after I steps the peak is
 * 100 * g^I * max_i sin^2(pi i/(N-1)) (checked by tests/mwapps).
 *
 * Rank 0 is the master, ranks 1..N-1 the workers; worker w owns the interior
 * rows 1 + mw_share(N-2, workers, w) and keeps them. Each iteration the
 * master sends every worker, in turn, the two rows bordering its block
 * (MPI_Send, 2N doubles: the last row of worker w-1 and the first row of
 * worker w+1, zeros at the grid's edge); each worker advances its block one
 * step in an `omp parallel for` over its rows (O(N^2 / (workers * threads)))
 * and sends back its new first and last rows and its largest value
 * (MPI_Send, 2N+1 doubles); the master receives them in worker order
 * (MPI_Recv) and takes the peak (its own part, O(workers)). Every cell's
 * arithmetic is the same whatever the decomposition.
 *
 * Output, rank 0: "iter I t_iter S" per iteration (MPI_Wtime from packing the
 * first send to the end of the master's part), "t_iter_median S", then
 * "mw_heat: workload=N workers=K threads=T iter=I peak=P checksum=X" (the
 * largest temperature after the last step, %.12e; the sum of the final
 * grid's bit patterns, mw_bits, reduced over the workers after the loop) and
 * "cpus rank R: C,..." per rank. Every MPI call is on the line right after an
 * "@augur:" marker. */
#define _GNU_SOURCE /* sched_getcpu */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mw_common.h"

#define USAGE "mw_heat [-W N] [-i ITER] [-t THREADS] [-s]"
#define ALPHA 0.2 /* diffusivity * dt / h^2 */
/* Rows are LD = N + PAD doubles apart, and a worker's second grid starts PAD
 * doubles after its first one ends: with N a power of two and no padding,
 * the rows and the two grids alias in the caches (measured: N = 2048 took
 * twice N = 2000's time per cell at 1 worker x 1 thread). */
#define PAD         8
#define AT(u, i, j) ((u)[(size_t)(i) * (size_t)(n + PAD) + (size_t)(j)])

int main(int argc, char **argv) {
  int provided = 0;
  /* @augur:mw_heat.init */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long ln = 2048, iter = 10, threads = 0, sleepwait = 0;
  double expect = 0; /* the shortest wait for results so far (mw_nap) */
  const pg_opt opts[] = {{"workload", 'W', PG_INT, 3, 1L << 16, &ln, NULL},
                         {"iter", 'i', PG_INT, 1, MW_MAXITER, &iter, NULL},
                         {"threads", 't', PG_INT, 0, MW_MAXT, &threads, NULL},
                         {"sleep-wait", 's', PG_FLAG, 0, 1, &sleepwait, NULL}};
  int bad = pg_parse(argc, argv, opts, 4, rank == 0);
  int rc = mw_args(bad, provided >= MPI_THREAD_FUNNELED, rank, size, bad ? 0 : ln - 2, "mw_heat",
                   "interior rows", USAGE);
  if (rc) {
    /* @augur:mw_heat.finalize_usage */
    MPI_Finalize();
    return rc;
  }
  const int team = pg_omp_team(threads), workers = size - 1, n = (int)ln;
  const double pi = acos(-1.0);
  long lo = 1, hi = 1; /* the worker's global rows [lo, hi) */
  if (rank > 0) {
    mw_share(n - 2, workers, rank, &lo, &hi);
    lo++;
    hi++;
  }
  const long m = hi - lo;
  /* Worker: rows lo-1..hi (halo above and below); master: per worker its
   * first row, last row and peak (2n+1), and one send buffer. */
  size_t cells =
      rank > 0 ? (size_t)(m + 2) * (size_t)(n + PAD) : (size_t)workers * (2 * (size_t)n + 1);
  double *grids = calloc(2 * cells + PAD, sizeof *grids);
  double *u = grids, *un = grids ? grids + cells + PAD : NULL;
  double *buf = malloc((2 * (size_t)n + 1) * sizeof *buf);
  double *t_iter = malloc((size_t)iter * sizeof *t_iter);
  int cpu[MW_MAXT], *cpus = rank == 0 ? malloc((size_t)size * MW_MAXT * sizeof *cpus) : NULL;
  if (!grids || !buf || !t_iter || (rank == 0 && !cpus)) {
    fprintf(stderr, "mw_heat: rank %d: out of memory for a %dx%d grid\n", rank, n, n);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
#define U0(i, j)                                                                                   \
  ((i) == 0 || (i) == n - 1 || (j) == 0 || (j) == n - 1                                            \
       ? 0.0                                                                                       \
       : 100.0 * sin(pi * (double)(i) / (n - 1)) * sin(pi * (double)(j) / (n - 1)))
  if (rank > 0) {
    for (long i = 0; i < m + 2; i++)
      for (int j = 0; j < n; j++)
        AT(u, i, j) = AT(un, i, j) = U0(lo - 1 + i, j);
  } else {
    for (int w = 1; w <= workers; w++) {
      long l, h;
      mw_share(n - 2, workers, w, &l, &h);
      double *e = &u[(size_t)(w - 1) * (2 * (size_t)n + 1)];
      for (int j = 0; j < n; j++) {
        e[j] = U0(l + 1, j);
        e[n + j] = U0(h, j);
      }
    }
  }

  double peak = 0.0;
  mw_team_start(cpu, rank > 0);
  /* @augur:mw_heat.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    if (rank == 0) {
      double t0 = MPI_Wtime();
      for (int w = 1; w <= workers; w++) {
        const double *above = &u[(size_t)(w - 2) * (2 * (size_t)n + 1) + (size_t)n];
        const double *below = &u[(size_t)w * (2 * (size_t)n + 1)];
        for (int j = 0; j < n; j++) {
          buf[j] = w > 1 ? above[j] : 0.0;
          buf[n + j] = w < workers ? below[j] : 0.0;
        }
        /* @augur:mw_heat.send_share */
        MPI_Send(buf, 2 * n, MPI_DOUBLE, w, MW_TAG_SHARE, MPI_COMM_WORLD);
      }
      double w0 = mw_now(); /* the wait for the results begins (mw_nap) */
      for (int w = 1; w <= workers; w++) {
        if (sleepwait) {
          MPI_Request rq;
          int done = 0;
          /* @augur:mw_heat.irecv_result */
          MPI_Irecv(&u[(size_t)(w - 1) * (2 * (size_t)n + 1)], 2 * n + 1, MPI_DOUBLE, w,
                    MW_TAG_RESULT, MPI_COMM_WORLD, &rq);
          while (!done) {
            /* @augur:mw_heat.test_result */
            MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
            if (!done) mw_nap(w0, expect);
          }
          continue;
        }
        /* @augur:mw_heat.recv_result */
        MPI_Recv(&u[(size_t)(w - 1) * (2 * (size_t)n + 1)], 2 * n + 1, MPI_DOUBLE, w, MW_TAG_RESULT,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      if (sleepwait) mw_waited(w0, &expect);
      peak = 0.0;
      for (int w = 1; w <= workers; w++)
        peak = fmax(peak, u[(size_t)(w - 1) * (2 * (size_t)n + 1) + 2 * (size_t)n]);
      t_iter[it] = MPI_Wtime() - t0;
    } else {
      /* @augur:mw_heat.recv_share */
      MPI_Recv(buf, 2 * n, MPI_DOUBLE, 0, MW_TAG_SHARE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      memcpy(&AT(u, 0, 0), buf, (size_t)n * sizeof *buf);
      memcpy(&AT(u, m + 1, 0), buf + n, (size_t)n * sizeof *buf);
      double local = 0.0;
      /* @augur:mw_heat.step */
#pragma omp parallel reduction(max : local)
      {
        if (omp_get_thread_num() < MW_MAXT) cpu[omp_get_thread_num()] = mw_cpu();
#pragma omp for schedule(static)
        for (long i = 1; i <= m; i++)
          for (int j = 1; j < n - 1; j++) {
            double v = AT(u, i, j) + ALPHA * (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) +
                                              AT(u, i, j + 1) - 4.0 * AT(u, i, j));
            AT(un, i, j) = v;
            local = fmax(local, v);
          }
      }
      double *tmp = u;
      u = un;
      un = tmp;
      memcpy(buf, &AT(u, 1, 0), (size_t)n * sizeof *buf);
      memcpy(buf + n, &AT(u, m, 0), (size_t)n * sizeof *buf);
      buf[2 * n] = local;
      /* @augur:mw_heat.send_result */
      MPI_Send(buf, 2 * n + 1, MPI_DOUBLE, 0, MW_TAG_RESULT, MPI_COMM_WORLD);
    }
  }
  uint64_t bits = 0, sum = 0;
  for (long i = 1; rank > 0 && i <= m; i++)
    bits += mw_bits(&AT(u, i, 0), (size_t)n);
  if (rank == 0) cpu[0] = mw_cpu();
  /* @augur:mw_heat.checksum */
  MPI_Reduce(&bits, &sum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  /* @augur:mw_heat.cpus */
  MPI_Gather(cpu, MW_MAXT, MPI_INT, cpus, MW_MAXT, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    mw_report(t_iter, iter);
    printf("mw_heat: workload=%d workers=%d threads=%d iter=%ld peak=%.12e checksum=%016llx\n", n,
           workers, team, iter, peak, (unsigned long long)sum);
    mw_cpus(cpus, size);
    fflush(stdout);
  }
  free(grids);
  free(buf);
  free(t_iter);
  free(cpus);
  /* @augur:mw_heat.finalize */
  MPI_Finalize();
  return 0;
}
