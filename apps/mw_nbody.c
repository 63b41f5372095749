/* mw_nbody — gravitational N-body as a blocking hybrid master/worker program
 * (seed 002's Nbody; apps/README.md, "Master/worker (issue 25)").
 *
 * usage: mw_nbody [-W BODIES] [-i ITER] [-t THREADS] [-s]
 *   (defaults 2000, 10, 0 = OMP_NUM_THREADS or the runtime's default)
 *
 * Rank 0 is the master, ranks 1..N-1 the workers; worker w owns the bodies
 * mw_share(BODIES, N-1, w) (an even split). Each iteration the master sends
 * every worker, in turn, the positions and masses of all bodies (MPI_Send,
 * 4*BODIES doubles); each worker computes, in an `omp parallel for`, the
 * softened gravitational acceleration of each of its bodies from all bodies
 * (O(BODIES^2 / (workers * threads))), advances their velocities and
 * positions by one step (semi-implicit Euler), and sends them back (MPI_Send,
 * 6 doubles per body); the master receives them in worker order (MPI_Recv)
 * and copies them into the state of the next iteration (its own O(BODIES)
 * part). Every body's arithmetic is the same whatever the decomposition, so
 * the final state is bitwise the same for any number of workers and threads.
 *
 * Output, rank 0: "iter I t_iter S" per iteration (MPI_Wtime from the first
 * send to the end of the master's part), "t_iter_median S", then
 * "mw_nbody: workload=B workers=K threads=T iter=I momentum_drift=D
 * momentum_scale=S checksum=X" (|P_end - P_start| of the total momentum,
 * which the pairwise forces conserve up to rounding; sum of m*|v| over the
 * bodies; the sum of the final state's bit patterns, mw_bits) and
 * "cpus rank R: C,..." per rank (the CPU of each thread in the last
 * iteration). Every MPI call is on the line right after an "@augur:" marker. */
#define _GNU_SOURCE /* sched_getcpu */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mw_common.h"

#define USAGE "mw_nbody [-W BODIES] [-i ITER] [-t THREADS] [-s]"
#define DT    1e-3 /* time step */
#define SOFT  1e-2 /* softening, squared distance added to every pair's */

int main(int argc, char **argv) {
  int provided = 0;
  /* @augur:mw_nbody.init */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long n = 2000, iter = 10, threads = 0, sleepwait = 0;
  double expect = 0; /* the shortest wait for results so far (mw_nap) */
  const pg_opt opts[] = {{"workload", 'W', PG_INT, 1, 1L << 22, &n, NULL},
                         {"iter", 'i', PG_INT, 1, MW_MAXITER, &iter, NULL},
                         {"threads", 't', PG_INT, 0, MW_MAXT, &threads, NULL},
                         {"sleep-wait", 's', PG_FLAG, 0, 1, &sleepwait, NULL}};
  int rc = mw_args(pg_parse(argc, argv, opts, 4, rank == 0), provided >= MPI_THREAD_FUNNELED, rank,
                   size, n, "mw_nbody", "bodies", USAGE);
  if (rc) {
    /* @augur:mw_nbody.finalize_usage */
    MPI_Finalize();
    return rc;
  }
  const int team = pg_omp_team(threads), workers = size - 1;
  long lo = 0, hi = n; /* the master keeps every body's velocity */
  if (rank > 0) mw_share(n, workers, rank, &lo, &hi);
  const long mine = hi - lo;
  double *pos = malloc((size_t)n * 4 * sizeof *pos); /* x, y, z, mass */
  double *vel = malloc((size_t)mine * 3 * sizeof *vel);
  double *out = malloc((size_t)mine * 6 * sizeof *out); /* x, y, z, vx, vy, vz */
  double *t_iter = malloc((size_t)iter * sizeof *t_iter);
  int cpu[MW_MAXT], *cpus = rank == 0 ? malloc((size_t)size * MW_MAXT * sizeof *cpus) : NULL;
  if (!pos || !vel || !out || !t_iter || (rank == 0 && !cpus)) {
    fprintf(stderr, "mw_nbody: rank %d: out of memory for %ld bodies\n", rank, n);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  for (long i = 0; i < n; i++) {
    for (int c = 0; c < 3; c++)
      pos[4 * i + c] = 2.0 * mw_unit((uint64_t)(8 * i + c)) - 1.0;
    pos[4 * i + 3] = 0.5 + mw_unit((uint64_t)(8 * i + 3));
  }
  for (long i = lo; i < hi; i++)
    for (int c = 0; c < 3; c++)
      vel[3 * (i - lo) + c] = 0.2 * mw_unit((uint64_t)(8 * i + 4 + c)) - 0.1;
  memset(out, 0, (size_t)mine * 6 * sizeof *out); /* its pages, before the timed loop */
  double p0[3] = {0, 0, 0}, scale = 0;
  for (long i = 0; rank == 0 && i < n; i++)
    for (int c = 0; c < 3; c++) {
      p0[c] += pos[4 * i + 3] * vel[3 * i + c];
      scale += pos[4 * i + 3] * fabs(vel[3 * i + c]);
    }

  mw_team_start(cpu, rank > 0);
  /* @augur:mw_nbody.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    if (rank == 0) {
      double t0 = MPI_Wtime();
      for (int w = 1; w <= workers; w++) {
        /* @augur:mw_nbody.send_share */
        MPI_Send(pos, (int)(4 * n), MPI_DOUBLE, w, MW_TAG_SHARE, MPI_COMM_WORLD);
      }
      double w0 = mw_now(); /* the wait for the results begins (mw_nap) */
      for (int w = 1; w <= workers; w++) {
        long l, h;
        mw_share(n, workers, w, &l, &h);
        if (sleepwait) {
          MPI_Request rq;
          int done = 0;
          /* @augur:mw_nbody.irecv_result */
          MPI_Irecv(out + 6 * l, (int)(6 * (h - l)), MPI_DOUBLE, w, MW_TAG_RESULT, MPI_COMM_WORLD,
                    &rq);
          while (!done) {
            /* @augur:mw_nbody.test_result */
            MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
            if (!done) mw_nap(w0, expect);
          }
          continue;
        }
        /* @augur:mw_nbody.recv_result */
        MPI_Recv(out + 6 * l, (int)(6 * (h - l)), MPI_DOUBLE, w, MW_TAG_RESULT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      }
      if (sleepwait) mw_waited(w0, &expect);
      for (long i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
          pos[4 * i + c] = out[6 * i + c];
          vel[3 * i + c] = out[6 * i + 3 + c];
        }
      t_iter[it] = MPI_Wtime() - t0;
    } else {
      /* @augur:mw_nbody.recv_share */
      MPI_Recv(pos, (int)(4 * n), MPI_DOUBLE, 0, MW_TAG_SHARE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      /* @augur:mw_nbody.forces */
#pragma omp parallel
      {
        if (omp_get_thread_num() < MW_MAXT) cpu[omp_get_thread_num()] = mw_cpu();
#pragma omp for schedule(static)
        for (long i = lo; i < hi; i++) {
          const double xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2];
          double a[3] = {0, 0, 0};
          for (long j = 0; j < n; j++) {
            double dx = pos[4 * j] - xi, dy = pos[4 * j + 1] - yi, dz = pos[4 * j + 2] - zi;
            double s = dx * dx + dy * dy + dz * dz + SOFT;
            double f = pos[4 * j + 3] / (s * sqrt(s));
            a[0] += dx * f;
            a[1] += dy * f;
            a[2] += dz * f;
          }
          double *v = &vel[3 * (i - lo)], *o = &out[6 * (i - lo)];
          for (int c = 0; c < 3; c++) {
            v[c] += DT * a[c];
            o[c] = pos[4 * i + c] + DT * v[c];
            o[3 + c] = v[c];
          }
        }
      }
      /* @augur:mw_nbody.send_result */
      MPI_Send(out, (int)(6 * mine), MPI_DOUBLE, 0, MW_TAG_RESULT, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) cpu[0] = mw_cpu();
  /* @augur:mw_nbody.cpus */
  MPI_Gather(cpu, MW_MAXT, MPI_INT, cpus, MW_MAXT, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double p[3] = {0, 0, 0};
    for (long i = 0; i < n; i++)
      for (int c = 0; c < 3; c++)
        p[c] += pos[4 * i + 3] * vel[3 * i + c];
    double drift = sqrt((p[0] - p0[0]) * (p[0] - p0[0]) + (p[1] - p0[1]) * (p[1] - p0[1]) +
                        (p[2] - p0[2]) * (p[2] - p0[2]));
    mw_report(t_iter, iter);
    printf("mw_nbody: workload=%ld workers=%d threads=%d iter=%ld momentum_drift=%.3e "
           "momentum_scale=%.6e checksum=%016llx\n",
           n, workers, team, iter, drift, scale,
           (unsigned long long)(mw_bits(pos, (size_t)n * 4) + mw_bits(vel, (size_t)n * 3)));
    mw_cpus(cpus, size);
    fflush(stdout);
  }
  free(pos);
  free(vel);
  free(out);
  free(t_iter);
  free(cpus);
  /* @augur:mw_nbody.finalize */
  MPI_Finalize();
  return 0;
}
