/* ph_periodic — an iterative code whose iteration does one extra exchange
 * every K iterations (issue 21, item 5: the phases of the same program must
 * be the same in every recording, and their unit is the iteration, not the
 * K-iteration super-period).
 *
 * Ranks form a ring. Every iteration: WORK units of compute, an exchange
 * with both neighbours (Irecv, Irecv, Isend, Isend, Waitall of BYTES each)
 * and an MPI_Allreduce of one double. Every K-th iteration adds one more
 * exchange with the right neighbour (Irecv, Isend, Wait, Wait of 4 x BYTES)
 * after the Allreduce. Before the loop, SETUP us of compute stand for a
 * set-up (reading input, building the mesh). -x N: the N iterations from
 * the middle on compute 3 x WORK, as if another job had slowed a stretch of
 * the run (a recording disturbed for a while: docs/signature.md, "Disturbed
 * repetitions of the base run"). -e EXTRA: EXTRA units of compute after
 * the extra exchange, which set that phase's share of the run (a phase near
 * the relevance threshold: docs/phases.md, "Relevance"). -o ONCE: once,
 * after the third iteration, an MPI_Barrier followed by ONCE units of
 * compute: a phase of weight 1 whose share the caller sets (a one-off phase
 * near the threshold, NPB MG B's barrier between its warm-up iteration and
 * its timed loop; after the first one, it would join the set-up). -y FROM
 * -z COUNT: iterations FROM .. FROM + COUNT - 1 compute 1.6 x WORK, as if
 * the machine had run slower for a while early in a recording (a VM whose
 * speed changed: NPB CG B's iteration ran 1.19 x its mean for the first
 * second of one recording; docs/signature.md, "A typical window"). Needs at
 * least 2 ranks.
 * All MPI calls are in main() with @augur markers (apps/README.md). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

int main(int argc, char **argv) {
  /* @augur:ph_periodic.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 60, k = 5, work = 20, bytes = 4096, setup = 0, slow = 0, extra = 0, once = 0;
  long yfrom = 0, ycount = 0;
  const app_opt opts[] = {
      {'n', "ITER", 1, 1000000000L, &iter},     {'k', "K", 1, 1000000L, &k},
      {'w', "WORK", 0, 1000000L, &work},        {'s', "BYTES", 8, 1L << 26, &bytes},
      {'S', "SETUP_US", 0, 100000000L, &setup}, {'x', "SLOW", 0, 1000000000L, &slow},
      {'e', "EXTRA", 0, 1000000L, &extra},      {'o', "ONCE", 0, 100000000L, &once},
      {'y', "FROM", 0, 1000000000L, &yfrom},    {'z', "COUNT", 0, 1000000000L, &ycount}};
  if (app_parse(argc, argv, opts, 10, rank == 0) != 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: ph_periodic [-n ITER] [-k K] [-w WORK] [-s BYTES] [-S SETUP_US] "
                      "[-x SLOW] [-e EXTRA] [-o ONCE] [-y FROM -z COUNT] (>= 2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  long n = 4096, cnt = bytes / 8;
  double *a = malloc((size_t)n * sizeof *a);
  double *buf = calloc((size_t)(4 * cnt) * 4, sizeof *buf);
  if (!a || !buf) {
    fprintf(stderr, "ph_periodic: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  for (long i = 0; i < n; i++)
    a[i] = (double)((i * 7 + rank) % 13) / 13.0;
  double *sl = buf, *sr = buf + cnt, *rl = buf + 2 * cnt, *rr = buf + 3 * cnt;
  double *xs = buf + 4 * cnt, *xr = buf + 8 * cnt;
  double local = app_spin_us(setup), total = 0;
  for (long it = 0; it < iter; it++) {
    MPI_Request req[4];
    MPI_Status sts[4];
    long units = it >= iter / 2 && it < iter / 2 + slow ? 3 * work : work;
    if (it >= yfrom && it < yfrom + ycount) units = units * 16 / 10;
    local = app_relax(a, n, units);
    sl[0] = sr[0] = local;
    /* @augur:ph_periodic.irecv_left */
    MPI_Irecv(rl, (int)cnt, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
    /* @augur:ph_periodic.irecv_right */
    MPI_Irecv(rr, (int)cnt, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[1]);
    /* @augur:ph_periodic.isend_right */
    MPI_Isend(sr, (int)cnt, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[2]);
    /* @augur:ph_periodic.isend_left */
    MPI_Isend(sl, (int)cnt, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[3]);
    /* @augur:ph_periodic.waitall */
    MPI_Waitall(4, req, sts);
    /* @augur:ph_periodic.allreduce */
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if ((it + 1) % k == 0) {
      /* The extra exchange of every K-th iteration. */
      /* @augur:ph_periodic.extra_irecv */
      MPI_Irecv(xr, (int)(4 * cnt), MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &req[0]);
      /* @augur:ph_periodic.extra_isend */
      MPI_Isend(xs, (int)(4 * cnt), MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[1]);
      /* @augur:ph_periodic.extra_wait_send */
      MPI_Wait(&req[1], &sts[1]);
      /* @augur:ph_periodic.extra_wait_recv */
      MPI_Wait(&req[0], &sts[0]);
      if (extra) local += app_relax(a, n, extra);
    }
    if (once && it == 2) {
      /* @augur:ph_periodic.once_barrier */
      MPI_Barrier(MPI_COMM_WORLD);
      local += app_relax(a, n, once);
    }
  }
  if (rank == 0)
    printf("ph_periodic: ranks=%d iter=%ld k=%ld work=%ld bytes=%ld total=%g\n", size, iter, k,
           work, bytes, total);
  free(a);
  free(buf);
  /* @augur:ph_periodic.finalize */
  MPI_Finalize();
  return 0;
}
