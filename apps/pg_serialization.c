/* pg_serialization — lack of parallelism (KappaPi "serialization"): a token
 * goes 0 -> 1 -> ... -> N-1 every step, and each rank needs it before it can
 * compute. Rank 0 computes D and sends; rank k > 0 receives from k-1, computes
 * D and sends to k+1 (the last rank does not send). So at every moment one
 * rank computes and the others wait: a step takes N x D where D would do.
 * Each step starts with an MPI_Barrier (and the run with one more, .sync).
 *
 * --off: every rank computes D at the same time, then exchanges one message
 * with its neighbours (MPI_Sendrecv: to k+1, from k-1) that nobody waits for.
 *
 * usage: pg_serialization [-n ITER] [-d US] [-s BYTES] [--off]   (at least 3 ranks)
 * Lost process-time: rank k waits k x D per step in the receive marked
 * pg_serialization.recv, D x N(N-1)/2 x ITER over ranks 1..N-1. From rank 2
 * on the sender was itself blocked on its predecessor, so `augur diagnose`
 * names those waits (D x (N(N-1)/2 - 1) x ITER) a blocked-sender chain, its
 * top finding, and rank 1's a serialization (docs/diagnose.md). Rank k then
 * waits (N-1-k) x D in the next step's barrier for the last rank, a
 * consequence, not counted. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_serialization.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 5, d_us = 20000, bytes = 1024, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL},
                         {"size", 's', PG_INT, 1, 1L << 30, &bytes, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 4, rank == 0) != 0 || size < 3) {
    if (rank == 0) {
      if (size < 3) fprintf(stderr, "pg_serialization: needs at least 3 ranks\n");
      fprintf(stderr, "usage: pg_serialization [-n ITER] [-d US] [-s BYTES] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  unsigned char *in = calloc((size_t)bytes, 1), *out = calloc((size_t)bytes, 1);
  if (!in || !out) {
    fprintf(stderr, "pg_serialization: rank %d: out of memory for %ld bytes\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  if (rank == 0)
    /* Ranks 2..N-1 wait for a sender that was itself waiting for its
     * predecessor: KappaPi's causal blocked-sender chain (seed 3.1.1, Fig. 4;
     * issue 21, item 6), the top finding. Rank 1's wait (its sender was
     * computing) stays serialization. */
    pg_expected(off ? "none" : "blocked_sender",
                off ? 0.0 : 1e-6 * (double)d_us * iter * (size * (size - 1) / 2.0 - 1), 2,
                off ? 0 : size - 1, 1, "site=pg_serialization.recv");

  const int prev = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int next = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  /* Start together: MPI_Init returns at different times on different ranks,
   * and that skew is not part of the problem. */
  /* @augur:pg_serialization.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    /* @augur:pg_serialization.step */
    MPI_Barrier(MPI_COMM_WORLD);
    if (off) {
      pg_spin(d_us * PG_US);
      out[it % bytes] = (unsigned char)(it + rank);
      /* @augur:pg_serialization.exchange */
      MPI_Sendrecv(out, (int)bytes, MPI_BYTE, next, 0, in, (int)bytes, MPI_BYTE, prev, 0,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      continue;
    }
    if (rank > 0) {
      /* @augur:pg_serialization.recv */
      MPI_Recv(in, (int)bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    pg_spin(d_us * PG_US); /* needs the token: nobody else can compute now */
    out[it % bytes] = (unsigned char)(in[it % bytes] + 1);
    if (next != MPI_PROC_NULL) {
      /* @augur:pg_serialization.send */
      MPI_Send(out, (int)bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
    }
  }
  free(in);
  free(out);
  /* @augur:pg_serialization.finalize */
  MPI_Finalize();
  return 0;
}
