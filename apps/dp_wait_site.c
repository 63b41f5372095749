/* dp_wait_site — a nonblocking receive posted in one function and completed
 * in another: the wait is spent in the completion call, not in the post.
 * Ranks are paired (0,1), (2,3), ...: the even rank computes D and then sends
 * BYTES to the odd one, which posted its MPI_Irecv first (post_recv) and
 * waits for it in MPI_Wait (finish_recv), so the odd rank waits D every
 * iteration at the MPI_Wait line (a late sender).
 * --send: the other direction through a synchronous nonblocking send: the
 * even rank posts an MPI_Issend (post_send) and waits in MPI_Wait
 * (finish_send) while the odd rank computes D before its MPI_Recv (a late
 * receiver, the wait again in the MPI_Wait).
 *
 * usage: dp_wait_site [-n ITER] [-d US] [-s BYTES] [--send]
 * Lost process-time: D x ITER x (N/2). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

static MPI_Request post_recv(char *buf, long bytes, int from) {
  MPI_Request r;
  /* @augur:dp_wait_site.irecv */
  MPI_Irecv(buf, (int)bytes, MPI_BYTE, from, 0, MPI_COMM_WORLD, &r);
  return r;
}

static void finish_recv(MPI_Request *r) {
  /* @augur:dp_wait_site.wait_recv */
  MPI_Wait(r, MPI_STATUS_IGNORE);
}

static MPI_Request post_send(char *buf, long bytes, int to) {
  MPI_Request r;
  /* @augur:dp_wait_site.issend */
  MPI_Issend(buf, (int)bytes, MPI_BYTE, to, 0, MPI_COMM_WORLD, &r);
  return r;
}

static void finish_send(MPI_Request *r) {
  /* @augur:dp_wait_site.wait_send */
  MPI_Wait(r, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  /* @augur:dp_wait_site.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 5, d_us = 20000, bytes = 1024, send = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"delay", 'd', PG_INT, 0, 100000000, &d_us, NULL},
                         {"size", 's', PG_INT, 1, 1L << 30, &bytes, NULL},
                         {"send", 0, PG_FLAG, 0, 1, &send, NULL}};
  if (pg_parse(argc, argv, opts, 4, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "dp_wait_site: needs at least 2 ranks\n");
      fprintf(stderr, "usage: dp_wait_site [-n ITER] [-d US] [-s BYTES] [--send]\n");
    }
    MPI_Finalize();
    return 2;
  }
  char *buf = calloc((size_t)bytes, 1);
  if (!buf) {
    fprintf(stderr, "dp_wait_site: rank %d: out of memory for %ld bytes\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  const int pairs = size / 2;
  if (rank == 0)
    pg_expected(send ? "late_receiver" : "late_sender", 1e-6 * (double)d_us * iter * pairs,
                send ? 0 : 1, send ? 2 * pairs - 2 : 2 * pairs - 1, 2,
                send ? "site=dp_wait_site.wait_send" : "site=dp_wait_site.wait_recv");

  /* @augur:dp_wait_site.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter && rank < 2 * pairs; it++) {
    buf[it % bytes] = (char)it;
    if (rank % 2 == 0 && !send) {
      pg_spin(d_us * PG_US);
      /* @augur:dp_wait_site.send */
      MPI_Send(buf, (int)bytes, MPI_BYTE, rank + 1, 0, MPI_COMM_WORLD);
    } else if (rank % 2 == 0) {
      MPI_Request r = post_send(buf, bytes, rank + 1);
      finish_send(&r);
    } else if (!send) {
      MPI_Request r = post_recv(buf, bytes, rank - 1);
      finish_recv(&r);
    } else {
      pg_spin(d_us * PG_US);
      /* @augur:dp_wait_site.recv */
      MPI_Recv(buf, (int)bytes, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  free(buf);
  /* @augur:dp_wait_site.finalize */
  MPI_Finalize();
  return 0;
}
