/* dx_chain — a chain of blocked senders with processing (diagnose item:
 * KappaPi "blocked sender", seed 004 section 3.1.1). A token goes around the
 * ranks: rank 0 computes C, sends to rank 1; every rank k >= 1 receives from
 * k-1, processes the data for P (varied per rank and iteration by --jitter),
 * then forwards it to k+1 (the last rank back to rank 0). Every rank waits
 * for a sender that was itself waiting for its predecessor when the wait
 * began, however long it processed before forwarding.
 *
 * usage: dx_chain [-n ITER] [-c C_US] [-p P_US] [-j JITTER_PCT] [-s BYTES] [--cpu]
 *        (at least 3 ranks)
 * --cpu: the processing is P of the rank's CPU time (pg_cpu_work), not of
 * wall-clock time: a rank that shares its CPU processes longer.
 * Lost process-time: every rank waits for the rest of the ring each
 * iteration, (N-1) x (C + (N-1) x P) per iteration in all; all of it a
 * blocked-sender chain except rank 1's first wait (C, for rank 0 computing). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:dx_chain.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 10, c_us = 2000, p_us = 10000, jitter = 0, bytes = 1024, cpu = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"compute", 'c', PG_INT, 0, 100000000, &c_us, NULL},
                         {"process", 'p', PG_INT, 0, 100000000, &p_us, NULL},
                         {"jitter", 'j', PG_INT, 0, 100, &jitter, NULL},
                         {"size", 's', PG_INT, 1, 1L << 30, &bytes, NULL},
                         {"cpu", 0, PG_FLAG, 0, 1, &cpu, NULL}};
  if (pg_parse(argc, argv, opts, 6, rank == 0) != 0 || size < 3) {
    if (rank == 0) {
      if (size < 3) fprintf(stderr, "dx_chain: needs at least 3 ranks\n");
      fprintf(stderr, "usage: dx_chain [-n ITER] [-c C_US] [-p P_US] [-j JITTER_PCT] "
                      "[-s BYTES] [--cpu]\n");
    }
    MPI_Finalize();
    return 2;
  }
  char *buf = calloc((size_t)bytes, 1);
  if (!buf) {
    fprintf(stderr, "dx_chain: rank %d: out of memory for %ld bytes\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  const int prev = (rank + size - 1) % size, next = (rank + 1) % size;
  for (long it = 0; it < iter; it++) {
    if (rank == 0) {
      pg_spin(c_us * PG_US);
      /* @augur:dx_chain.send0 */
      MPI_Send(buf, (int)bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
      /* @augur:dx_chain.recv0 */
      MPI_Recv(buf, (int)bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      continue;
    }
    /* @augur:dx_chain.recv */
    MPI_Recv(buf, (int)bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* processing: P, give or take JITTER % (deterministic per rank, iteration) */
    long vary = jitter ? (long)((it * 7919 + rank * 104729) % (2 * jitter + 1)) - jitter : 0;
    if (cpu)
      pg_cpu_work(p_us * (100 + vary) / 100 * 1000LL);
    else
      pg_spin(p_us * (100 + vary) / 100 * PG_US);
    buf[0] = (char)(buf[0] + 1); /* the forwarded data depends on what came in */
    /* @augur:dx_chain.forward */
    MPI_Send(buf, (int)bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
  }
  free(buf);
  /* @augur:dx_chain.finalize */
  MPI_Finalize();
  return 0;
}
