/* pg_wrong_order — messages received in the wrong order. Ranks are paired
 * (0,1), (2,3), ...: the even rank starts message A (tag 1) at once, computes
 * D to produce message B (tag 2), sends B, then completes A. The odd rank
 * receives B first, then A, then works D on the data. Had it received A
 * first (--off) it would have worked on A while B was being produced.
 * Every iteration ends with an MPI_Barrier, so the sender waits too; that
 * wait is a consequence of the wrong order (the diagnosis reports it
 * separately, as late arrival), so the expected line counts the receivers'
 * wait only.
 *
 * A is sent with MPI_Isend + MPI_Wait: a blocking MPI_Send of a message above
 * the eager limit would deadlock against a receiver that insists on B first.
 *
 * --irecv: the odd rank posts MPI_Irecv for both first (post_a, post_b) and
 * completes them one MPI_Wait each, B first (rwait_b, rwait_a): the same wrong
 * order with the receives already posted (LULESH's halo exchange), where the
 * fix is MPI_Waitany, not posting the receives.
 *
 * usage: pg_wrong_order [-n ITER] [-d US] [-s BYTES] [--off] [--irecv] (even number of ranks)
 * Lost process-time: D x ITER per pair, the receiver's wait in MPI_Recv of B
 * (odd ranks). The sender then waits as long again in MPI_Barrier, not
 * counted. --off: the receiver takes A first. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_wrong_order.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 5, d_us = 20000, bytes = 4096, off = 0, irecv = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL},
                         {"size", 's', PG_INT, 1, 1L << 30, &bytes, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL},
                         {"irecv", 0, PG_FLAG, 0, 1, &irecv, NULL}};
  if (pg_parse(argc, argv, opts, 5, rank == 0) != 0 || size < 2 || size % 2) {
    if (rank == 0) {
      if (size < 2 || size % 2) fprintf(stderr, "pg_wrong_order: needs an even number of ranks\n");
      fprintf(stderr, "usage: pg_wrong_order [-n ITER] [-d US] [-s BYTES] [--off] [--irecv]\n");
    }
    MPI_Finalize();
    return 2;
  }
  char *a = calloc((size_t)bytes, 1), *b = calloc((size_t)bytes, 1);
  if (!a || !b) {
    fprintf(stderr, "pg_wrong_order: rank %d: out of memory for %ld bytes\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  if (rank == 0)
    pg_expected(off ? "none" : "wrong_order", off ? 0.0 : 1e-6 * (double)d_us * iter * (size / 2),
                1, off ? 0 : size - 1, 2,
                irecv ? "site=pg_wrong_order.rwait_b" : "site=pg_wrong_order.recv_b");

  /* Start together: MPI_Init returns at different times on different ranks,
   * and that skew is not part of the problem. */
  /* @augur:pg_wrong_order.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  const int peer = rank ^ 1;
  for (long it = 0; it < iter; it++) {
    if (rank % 2 == 0) {
      MPI_Request req;
      a[it % bytes] = (char)it;
      /* @augur:pg_wrong_order.isend_a */
      MPI_Isend(a, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req);
      pg_spin(d_us * PG_US); /* produce B */
      b[it % bytes] = (char)it;
      /* @augur:pg_wrong_order.send_b */
      MPI_Send(b, (int)bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
      /* @augur:pg_wrong_order.wait_a */
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (!off && irecv) {
      MPI_Request ra, rb;
      /* @augur:pg_wrong_order.post_a */
      MPI_Irecv(a, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &ra);
      /* @augur:pg_wrong_order.post_b */
      MPI_Irecv(b, (int)bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &rb);
      /* @augur:pg_wrong_order.rwait_b */
      MPI_Wait(&rb, MPI_STATUS_IGNORE);
      /* @augur:pg_wrong_order.rwait_a */
      MPI_Wait(&ra, MPI_STATUS_IGNORE);
      pg_spin(d_us * PG_US); /* work on A (and B) */
    } else if (!off) {
      /* @augur:pg_wrong_order.recv_b */
      MPI_Recv(b, (int)bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      /* @augur:pg_wrong_order.recv_a */
      MPI_Recv(a, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      pg_spin(d_us * PG_US); /* work on A (and B) */
    } else {
      /* @augur:pg_wrong_order.recv_a_first */
      MPI_Recv(a, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      pg_spin(d_us * PG_US); /* work on A while B is produced */
      /* @augur:pg_wrong_order.recv_b_last */
      MPI_Recv(b, (int)bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    /* @augur:pg_wrong_order.barrier */
    MPI_Barrier(MPI_COMM_WORLD);
  }
  free(a);
  free(b);
  /* @augur:pg_wrong_order.finalize */
  MPI_Finalize();
  return 0;
}
