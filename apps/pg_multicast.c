/* pg_multicast — a multicast built from point-to-point sends (KappaPi
 * "multiple output"): every iteration the root sends BYTES to rank 1, then
 * rank 2, ... with MPI_Send while the others wait in turn; the last one waits
 * longest. --data same sends one buffer to all (MPI_Bcast would do),
 * --data different sends each rank its own slice (MPI_Scatter would do).
 * --off uses that collective instead.
 *
 * The waiting comes from transfer times, which no knob fixes, so the app
 * measures it: lost = receivers' time in MPI_Recv minus the transfer of their
 * own message (the root's MPI_Send to them), summed, sent with MPI_Reduce.
 *
 * usage: pg_multicast [--data same|different] [-n ITER] [-s BYTES] [-b US] [--off] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

enum { SAME, DIFFERENT };

int main(int argc, char **argv) {
  /* @augur:pg_multicast.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  static const char *const modes[] = {"same", "different", NULL};
  long iter = 3, bytes = 1L << 20, base_us = 2000, data = SAME, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"size", 's', PG_INT, 1, 1L << 28, &bytes, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"data", 0, PG_CHOICE, 0, 1, &data, modes},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 5, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "pg_multicast: needs at least 2 ranks\n");
      fprintf(stderr, "usage: pg_multicast [--data same|different] [-n ITER] [-s BYTES] [-b US] "
                      "[--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  /* The root holds one slice per rank (slice k for rank k); with `same` all
   * sends use slice 0. */
  const size_t n = (size_t)bytes;
  unsigned char *all = rank == 0 ? malloc(n * (size_t)size) : NULL, *mine = malloc(n);
  if ((rank == 0 && !all) || !mine) {
    fprintf(stderr, "pg_multicast: rank %d: out of memory for %ld bytes\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  if (rank == 0) /* slice k differs from slice j: `different` sends differ */
    for (size_t i = 0; i < n * (size_t)size; i++)
      all[i] = (unsigned char)(i / n * 13 + i * 7);
  /* Start together: MPI_Init returns at different times on different ranks,
   * and that skew is not part of the problem. */
  /* @augur:pg_multicast.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  double t_wait = 0.0, t_send = 0.0, sums[2], tot[2] = {0.0, 0.0};
  for (long it = 0; it < iter; it++) {
    pg_spin(base_us * PG_US);
    if (rank == 0) /* new content each round, without a costly refill */
      for (int k = 0; k < size; k++)
        all[n * (size_t)k] = (unsigned char)it;
    if (off && data == SAME) {
      /* @augur:pg_multicast.bcast */
      MPI_Bcast(rank == 0 ? all : mine, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (off) {
      /* @augur:pg_multicast.scatter */
      MPI_Scatter(all, (int)bytes, MPI_BYTE, mine, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (rank == 0) {
      for (int k = 1; k < size; k++) {
        double t0 = MPI_Wtime();
        /* @augur:pg_multicast.send */
        MPI_Send(all + (data == SAME ? 0 : n * (size_t)k), (int)bytes, MPI_BYTE, k, 0,
                 MPI_COMM_WORLD);
        t_send += MPI_Wtime() - t0;
      }
    } else {
      double t0 = MPI_Wtime();
      /* @augur:pg_multicast.recv */
      MPI_Recv(mine, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      t_wait += MPI_Wtime() - t0;
    }
  }
  sums[0] = t_wait;
  sums[1] = t_send;
  /* @augur:pg_multicast.reduce */
  MPI_Reduce(sums, tot, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double lost = tot[0] - tot[1];
    char extra[128];
    snprintf(extra, sizeof extra, "data=%s measured=1 sends=%ld site=pg_multicast.%s", modes[data],
             off ? 0L : (long)(size - 1) * iter,
             off ? (data == SAME ? "bcast" : "scatter") : "send");
    pg_expected(off ? "none" : "multicast", off ? 0.0 : (lost > 0 ? lost : 0.0), 1,
                off ? 0 : size - 1, 1, extra);
  }
  free(all);
  free(mine);
  /* @augur:pg_multicast.finalize */
  MPI_Finalize();
  return 0;
}
