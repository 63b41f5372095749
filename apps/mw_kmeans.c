/* mw_kmeans — K-means clustering (Lloyd's algorithm) as a blocking hybrid
 * master/worker program (seed 002's Kmeans, after NU-MineBench; apps/README.md,
 * "Master/worker (issue 25)").
 *
 * usage: mw_kmeans [-W POINTS] [-i ITER] [-k CLUSTERS] [-d ATTRIBUTES] [-t THREADS] [-s]
 *   (defaults 16384, 10, 10, 125, 0 = OMP_NUM_THREADS or the runtime's default;
 *   the seed used 10 clusters of objects with 125 attributes)
 *
 * Point p belongs to the true cluster p mod K: its attributes are that
 * cluster's centre plus an integer noise in [-10, 10]; the centres are
 * integers at least 1000 apart (attribute 0 is 1000 * cluster), so every
 * coordinate, every sum of coordinates and so every new centre is computed
 * exactly, whatever the order of the sums: the result does not depend on the
 * decomposition. The initial centres are points 0..K-1 (one per true
 * cluster), so the clustering finds the true clusters: cluster c ends with
 * the number of p < POINTS with p mod K = c (checked by tests/mwapps).
 *
 * Rank 0 is the master, ranks 1..N-1 the workers; worker w generates and
 * keeps the points mw_share(POINTS, N-1, w). Each iteration the master sends
 * every worker, in turn, the K centres (MPI_Send, K*D doubles: constant
 * size); each worker assigns each of its points to the nearest centre in an
 * `omp parallel for` (O(POINTS * K * D / (workers * threads))), summing the
 * points and counting them per cluster, and sends the sums and counts back
 * (MPI_Send, K*D + K doubles); the master receives them in worker order
 * (MPI_Recv) and computes the new centres (its own part, O(workers * K * D);
 * an empty cluster keeps its centre).
 *
 * Output, rank 0: "iter I t_iter S" per iteration (MPI_Wtime from the first
 * send to the end of the master's part), "t_iter_median S", then
 * "mw_kmeans: workload=P workers=W threads=T iter=I clusters=K attributes=D
 * counts=N0,N1,... checksum=X" (the points in each cluster in the last
 * iteration; the sum of the final centres' bit patterns, mw_bits) and
 * "cpus rank R: C,..." per rank. Every MPI call is on the line right after an
 * "@augur:" marker. */
#define _GNU_SOURCE /* sched_getcpu */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mw_common.h"

#define USAGE "mw_kmeans [-W POINTS] [-i ITER] [-k CLUSTERS] [-d ATTRIBUTES] [-t THREADS] [-s]"

/* Attribute a of the true centre of cluster c (d attributes). */
static double centre(long c, long a, long d) {
  return a == 0 ? 1000.0 * (double)c : 10.0 * floor(100.0 * mw_unit((uint64_t)(c * d + a)));
}

/* Attribute a of point p. */
static double point(long p, long a, long k, long d) {
  return centre(p % k, a, d) + floor(21.0 * mw_unit(((uint64_t)1 << 40) + (uint64_t)(p * d + a))) -
         10.0;
}

int main(int argc, char **argv) {
  int provided = 0;
  /* @augur:mw_kmeans.init */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long np = 16384, iter = 10, k = 10, d = 125, threads = 0, sleepwait = 0;
  double expect = 0; /* the shortest wait for results so far (mw_nap) */
  const pg_opt opts[] = {{"workload", 'W', PG_INT, 1, 1L << 26, &np, NULL},
                         {"iter", 'i', PG_INT, 1, MW_MAXITER, &iter, NULL},
                         {"clusters", 'k', PG_INT, 1, 4096, &k, NULL},
                         {"attributes", 'd', PG_INT, 1, 4096, &d, NULL},
                         {"threads", 't', PG_INT, 0, MW_MAXT, &threads, NULL},
                         {"sleep-wait", 's', PG_FLAG, 0, 1, &sleepwait, NULL}};
  int bad = pg_parse(argc, argv, opts, 6, rank == 0);
  if (!bad && np < k) {
    bad = 1;
    if (rank == 0)
      fprintf(stderr, "mw_kmeans: %ld points for %ld clusters: need at least one each\n", np, k);
  }
  if (!bad && np * d > (1L << 28)) {
    bad = 1;
    if (rank == 0)
      fprintf(stderr, "mw_kmeans: %ld points x %ld attributes: more than 2^28 values\n", np, d);
  }
  int rc =
      mw_args(bad, provided >= MPI_THREAD_FUNNELED, rank, size, np, "mw_kmeans", "points", USAGE);
  if (rc) {
    /* @augur:mw_kmeans.finalize_usage */
    MPI_Finalize();
    return rc;
  }
  const int team = pg_omp_team(threads), workers = size - 1;
  const long kd = k * d, len = kd + k; /* a result: the sums, then the counts */
  long lo = 0, hi = 0;
  if (rank > 0) mw_share(np, workers, rank, &lo, &hi);
  const long mine = hi - lo;
  double *x = malloc((size_t)(mine > 0 ? mine : 1) * (size_t)d * sizeof *x);
  double *cen = malloc((size_t)kd * sizeof *cen);
  /* worker: one result; master: one per worker */
  double *res = malloc((size_t)(rank > 0 ? 1 : workers) * (size_t)len * sizeof *res);
  double *t_iter = malloc((size_t)iter * sizeof *t_iter);
  int cpu[MW_MAXT], *cpus = rank == 0 ? malloc((size_t)size * MW_MAXT * sizeof *cpus) : NULL;
  if (!x || !cen || !res || !t_iter || (rank == 0 && !cpus)) {
    fprintf(stderr, "mw_kmeans: rank %d: out of memory for %ld points\n", rank, np);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  for (long p = lo; p < hi; p++)
    for (long a = 0; a < d; a++)
      x[(p - lo) * d + a] = point(p, a, k, d);
  for (long c = 0; c < k; c++)
    for (long a = 0; a < d; a++)
      cen[c * d + a] = point(c, a, k, d);
  long *counts = rank == 0 ? calloc((size_t)k, sizeof *counts) : NULL;

  mw_team_start(cpu, rank > 0);
  /* @augur:mw_kmeans.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    if (rank == 0) {
      double t0 = MPI_Wtime();
      for (int w = 1; w <= workers; w++) {
        /* @augur:mw_kmeans.send_share */
        MPI_Send(cen, (int)kd, MPI_DOUBLE, w, MW_TAG_SHARE, MPI_COMM_WORLD);
      }
      double w0 = mw_now(); /* the wait for the results begins (mw_nap) */
      for (int w = 1; w <= workers; w++) {
        if (sleepwait) {
          MPI_Request rq;
          int done = 0;
          /* @augur:mw_kmeans.irecv_result */
          MPI_Irecv(&res[(size_t)(w - 1) * (size_t)len], (int)len, MPI_DOUBLE, w, MW_TAG_RESULT,
                    MPI_COMM_WORLD, &rq);
          while (!done) {
            /* @augur:mw_kmeans.test_result */
            MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
            if (!done) mw_nap(w0, expect);
          }
          continue;
        }
        /* @augur:mw_kmeans.recv_result */
        MPI_Recv(&res[(size_t)(w - 1) * (size_t)len], (int)len, MPI_DOUBLE, w, MW_TAG_RESULT,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      if (sleepwait) mw_waited(w0, &expect);
      for (long c = 0; c < k; c++) {
        double nc = 0;
        for (int w = 0; w < workers; w++)
          nc += res[(size_t)w * (size_t)len + (size_t)(kd + c)];
        counts[c] = (long)nc;
        if (nc == 0) continue;
        for (long a = 0; a < d; a++) {
          double s = 0;
          for (int w = 0; w < workers; w++)
            s += res[(size_t)w * (size_t)len + (size_t)(c * d + a)];
          cen[c * d + a] = s / nc;
        }
      }
      t_iter[it] = MPI_Wtime() - t0;
    } else {
      /* @augur:mw_kmeans.recv_share */
      MPI_Recv(cen, (int)kd, MPI_DOUBLE, 0, MW_TAG_SHARE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (long i = 0; i < len; i++)
        res[i] = 0.0;
        /* @augur:mw_kmeans.assign */
#pragma omp parallel reduction(+ : res[:len])
      {
        if (omp_get_thread_num() < MW_MAXT) cpu[omp_get_thread_num()] = mw_cpu();
#pragma omp for schedule(static)
        for (long p = 0; p < mine; p++) {
          const double *xp = &x[p * d];
          long best = 0;
          double bd = INFINITY;
          for (long c = 0; c < k; c++) {
            double s = 0;
            for (long a = 0; a < d; a++) {
              double t = xp[a] - cen[c * d + a];
              s += t * t;
            }
            if (s < bd) {
              bd = s;
              best = c;
            }
          }
          for (long a = 0; a < d; a++)
            res[best * d + a] += xp[a];
          res[kd + best] += 1.0;
        }
      }
      /* @augur:mw_kmeans.send_result */
      MPI_Send(res, (int)len, MPI_DOUBLE, 0, MW_TAG_RESULT, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) cpu[0] = mw_cpu();
  /* @augur:mw_kmeans.cpus */
  MPI_Gather(cpu, MW_MAXT, MPI_INT, cpus, MW_MAXT, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    mw_report(t_iter, iter);
    printf("mw_kmeans: workload=%ld workers=%d threads=%d iter=%ld clusters=%ld attributes=%ld "
           "counts=",
           np, workers, team, iter, k, d);
    for (long c = 0; c < k; c++)
      printf("%s%ld", c ? "," : "", counts[c]);
    printf(" checksum=%016llx\n", (unsigned long long)mw_bits(cen, (size_t)kd));
    mw_cpus(cpus, size);
    fflush(stdout);
  }
  free(x);
  free(cen);
  free(res);
  free(t_iter);
  free(cpus);
  free(counts);
  /* @augur:mw_kmeans.finalize */
  MPI_Finalize();
  return 0;
}
