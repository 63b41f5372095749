/* pg_multicast — a multicast built from point-to-point sends (KappaPi
 * "multiple output"): every iteration the root sends BYTES to rank 1, then
 * rank 2, ... with MPI_Send while the others wait in turn; the last one waits
 * longest. --data same sends one buffer to all (MPI_Bcast would do),
 * --data different sends each rank its own slice (MPI_Scatter would do).
 * --off uses that collective instead.
 *
 * The waiting comes from transfer times, which no knob fixes, so the root
 * measures it: lost = for each receiver, the time of the sends to the
 * receivers before it, summed. The receivers' MPI_Recv time and the root's
 * send time are gathered with MPI_Reduce (printed as recv_seconds and
 * send_seconds: the receivers' time minus the sends is that lost time plus
 * any lateness of the root).
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
   * sends use slice 0. calloc and no fill: touching 16 MiB up front, on 2
   * cores shared by 4 ranks, would show as the root arriving late at the
   * first barrier; each round writes the few bytes that make slices and
   * rounds differ. */
  const size_t n = (size_t)bytes;
  unsigned char *all = rank == 0 ? calloc((size_t)size, n) : NULL, *mine = malloc(n);
  if ((rank == 0 && !all) || !mine) {
    fprintf(stderr, "pg_multicast: rank %d: out of memory for %ld bytes\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  /* Start together: MPI_Init returns at different times on different ranks,
   * and that skew is not part of the problem. */
  /* @augur:pg_multicast.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  /* queued: the time receivers spend waiting for the sends to the receivers
   * before them, summed (the root times each send) */
  double t_wait = 0.0, t_send = 0.0, queued = 0.0, sums[2], tot[2] = {0.0, 0.0};
  for (long it = 0; it < iter; it++) {
    pg_spin(base_us * PG_US);
    if (rank == 0) /* new content each round; slice k differs from slice j */
      for (int k = 0; k < size; k++) {
        all[n * (size_t)k] = (unsigned char)it;
        all[n * (size_t)k + (n > 1)] = (unsigned char)(k + 1);
      }
    if (off && data == SAME) {
      /* @augur:pg_multicast.bcast */
      MPI_Bcast(rank == 0 ? all : mine, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (off) {
      /* @augur:pg_multicast.scatter */
      MPI_Scatter(all, (int)bytes, MPI_BYTE, mine, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (rank == 0) {
      double before = 0.0; /* sends of this round so far */
      for (int k = 1; k < size; k++) {
        queued += before;
        double t0 = MPI_Wtime();
        /* @augur:pg_multicast.send */
        MPI_Send(all + (data == SAME ? 0 : n * (size_t)k), (int)bytes, MPI_BYTE, k, 0,
                 MPI_COMM_WORLD);
        t_send += MPI_Wtime() - t0;
        before += MPI_Wtime() - t0;
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
    double lost = queued;
    char extra[192];
    snprintf(extra, sizeof extra, "data=%s measured=1 sends=%ld site=pg_multicast.%s", modes[data],
             off ? 0L : (long)(size - 1) * iter,
             off ? (data == SAME ? "bcast" : "scatter") : "recv");
    /* rank 1 is served first: the waiting is on ranks 2.. */
    pg_expected(off ? "none" : "multiple_output", off ? 0.0 : lost, 2, off ? 0 : size - 1, 1,
                extra);
  }
  free(all);
  free(mine);
  /* @augur:pg_multicast.finalize */
  MPI_Finalize();
  return 0;
}
