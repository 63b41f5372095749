/* pg_slow_comm — communication so slow it serialises the run (KappaPi "slow
 * communications"): ranks are paired (0,1), (2,3), ...; every iteration both
 * compute BASE, then the even rank sends SIZE MiB to the odd one. Both wait
 * for as long as the bytes take to move. The lost time is the transfer time,
 * which no knob fixes, so the app measures it (MPI_Wtime around the calls)
 * and reports it with MPI_Reduce before it prints the expected line.
 *
 * usage: pg_slow_comm [-n ITER] [-m MIB] [-b US] [--off]
 * Lost process-time: the measured time in MPI_Send + MPI_Recv, on the paired
 * ranks. --off: 1 KiB messages instead. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_slow_comm.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 3, mib = 16, base_us = 2000, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"mib", 'm', PG_INT, 1, 1024, &mib, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 4, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "pg_slow_comm: needs at least 2 ranks\n");
      fprintf(stderr, "usage: pg_slow_comm [-n ITER] [-m MIB] [-b US] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  const long bytes = off ? 1024 : mib << 20;
  char *buf = calloc((size_t)bytes, 1);
  if (!buf) {
    fprintf(stderr, "pg_slow_comm: rank %d: out of memory for %ld bytes\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  /* Start together: MPI_Init returns at different times on different ranks,
   * and that skew is not part of the problem. */
  /* @augur:pg_slow_comm.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  const int pairs = size / 2;
  double spent = 0.0, total = 0.0;
  for (long it = 0; it < iter && rank < 2 * pairs; it++) {
    pg_spin(base_us * PG_US);
    double t0 = MPI_Wtime();
    if (rank % 2 == 0) {
      buf[it % bytes] = (char)it;
      /* @augur:pg_slow_comm.send */
      MPI_Send(buf, (int)bytes, MPI_BYTE, rank + 1, 0, MPI_COMM_WORLD);
    } else {
      /* @augur:pg_slow_comm.recv */
      MPI_Recv(buf, (int)bytes, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    spent += MPI_Wtime() - t0;
  }
  /* @augur:pg_slow_comm.reduce */
  MPI_Reduce(&spent, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    char extra[96];
    snprintf(extra, sizeof extra, "bytes=%ld measured=1 site=pg_slow_comm.recv", bytes);
    pg_expected(off ? "none" : "slow_communication", off ? 0.0 : total, 0, off ? -1 : 2 * pairs - 1,
                1, extra);
  }
  free(buf);
  /* @augur:pg_slow_comm.finalize */
  MPI_Finalize();
  return 0;
}
