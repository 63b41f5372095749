/* pg_blocked_sender — a chain of blocked receives (KappaPi "blocked sender"):
 * rank 0 computes D, then sends BYTES to rank 1, which passes data on to
 * rank 2, and so on to rank N-1. Ranks 2.. wait for a sender that is itself
 * waiting. What rank k sends to k+1 (--data):
 *   same         the very buffer it received (one message is the other):
 *                the origin could send to everybody directly
 *   independent  its own data, which does not depend on what it receives:
 *                it could send before it receives
 *   modified     the received data, changed (each byte XOR k)
 * Each step starts with an MPI_Barrier; ranks 2.. then work D on what they
 * received, so a rank that is not held up by the chain has useful work to
 * do while rank 1 still waits for rank 0 (rank 1 only passes data on).
 * --off is the well-behaved control: the origin's data is ready at the start
 * of a step, so rank 0 sends first and computes D afterwards, and every rank
 * computes D after its communication: `independent` sends before receiving;
 * `same` and `modified` get their data straight from rank 0 (which applies
 * the modifications itself). Nobody waits.
 *
 * usage: pg_blocked_sender [--data same|independent|modified] [-n ITER] [-d US]
 *                          [-s BYTES] [--off]   (at least 3 ranks)
 * Lost process-time of the chain: D x (N-2) x ITER on ranks 2..N-1 (in the
 * receive marked pg_blocked_sender.recv). Rank 1's own wait for rank 0 is a
 * late sender, printed as late_sender_seconds; ranks 0 and 1 also wait D per
 * step in the next step's barrier for ranks 2.., a consequence, not counted. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

enum { SAME, INDEPENDENT, MODIFIED };

/* Deterministic content: origin data for iteration `it`, or rank-own data. */
static void fill(unsigned char *p, long n, long it, int rank) {
  for (long i = 0; i < n; i++)
    p[i] = (unsigned char)(i * 31 + it * 7 + rank * 101);
}

int main(int argc, char **argv) {
  /* @augur:pg_blocked_sender.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  static const char *const modes[] = {"same", "independent", "modified", NULL};
  long iter = 5, d_us = 20000, bytes = 1024, data = SAME, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL},
                         {"size", 's', PG_INT, 1, 1L << 30, &bytes, NULL},
                         {"data", 0, PG_CHOICE, 0, 2, &data, modes},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 5, rank == 0) != 0 || size < 3) {
    if (rank == 0) {
      if (size < 3) fprintf(stderr, "pg_blocked_sender: needs at least 3 ranks\n");
      fprintf(stderr, "usage: pg_blocked_sender [--data same|independent|modified] [-n ITER] "
                      "[-d US] [-s BYTES] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  unsigned char *in = malloc((size_t)bytes), *out = malloc((size_t)bytes);
  if (!in || !out) {
    fprintf(stderr, "pg_blocked_sender: rank %d: out of memory for %ld bytes\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  if (rank == 0) {
    char extra[128];
    snprintf(extra, sizeof extra, "data=%s late_sender_seconds=%.6f site=pg_blocked_sender.recv",
             modes[data], off ? 0.0 : 1e-6 * (double)d_us * iter);
    pg_expected(off ? "none" : "blocked_sender",
                off ? 0.0 : 1e-6 * (double)d_us * (size - 2) * iter, 2, off ? 1 : size - 1, 1,
                extra);
  }

  const int next = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  for (long it = 0; it < iter; it++) {
    /* Every step starts together (this also absorbs MPI_Init's skew). */
    /* @augur:pg_blocked_sender.step */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      if (!off) pg_spin(d_us * PG_US); /* --off: the data is ready, compute after */
      fill(out, bytes, it, 0);
      if (!off || data == INDEPENDENT) {
        /* @augur:pg_blocked_sender.send0 */
        MPI_Send(out, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        if (off) pg_spin(d_us * PG_US);
        continue;
      }
      for (int k = 1; k < size; k++) {
        if (data == MODIFIED && k >= 2)
          for (long i = 0; i < bytes; i++)
            out[i] ^= (unsigned char)(k - 1); /* what rank k-1 would have done */
        /* @augur:pg_blocked_sender.send_direct */
        MPI_Send(out, (int)bytes, MPI_BYTE, k, 0, MPI_COMM_WORLD);
      }
      pg_spin(d_us * PG_US);
      continue;
    }
    if (off && data != INDEPENDENT) {
      /* @augur:pg_blocked_sender.recv_direct */
      MPI_Recv(in, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      pg_spin(d_us * PG_US);
      continue;
    }
    if (off) { /* independent data: send first, nothing to wait for */
      fill(out, bytes, it, rank);
      /* @augur:pg_blocked_sender.send_early */
      MPI_Send(out, (int)bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
      /* @augur:pg_blocked_sender.recv_late */
      MPI_Recv(in, (int)bytes, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      pg_spin(d_us * PG_US);
      continue;
    }
    /* @augur:pg_blocked_sender.recv */
    MPI_Recv(in, (int)bytes, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    unsigned char *p = in;
    if (data == INDEPENDENT) {
      fill(out, bytes, it, rank);
      p = out;
    } else if (data == MODIFIED) {
      for (long i = 0; i < bytes; i++)
        in[i] ^= (unsigned char)rank;
    }
    /* @augur:pg_blocked_sender.forward */
    MPI_Send(p, (int)bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
    if (rank >= 2) pg_spin(d_us * PG_US);
  }
  free(in);
  free(out);
  /* @augur:pg_blocked_sender.finalize */
  MPI_Finalize();
  return 0;
}
