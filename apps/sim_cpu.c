/* sim_cpu — pure computation with a known CPU time (simulate: oversubscribed
 * recordings). Every iteration each rank spins until its own thread has used
 * W microseconds of CPU (CLOCK_THREAD_CPUTIME_ID, so the work is the same
 * whether the rank had a core to itself or took turns with others), then the
 * ranks meet in an 8-byte MPI_Allreduce. Recorded with more ranks than CPUs,
 * the wall time of every burst holds the turns the ranks took; the CPU work
 * per rank is exactly ITER x W.
 *
 * usage: sim_cpu [-n ITER] [-w W_US]   (defaults 4, 100000)
 * Output (rank 0): "sim_cpu: ranks=N iter=ITER work_us=W cpu_s=<ITER x W, s>" */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:sim_cpu.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 4, w_us = 100000;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"work", 'w', PG_INT, 1, 100000000, &w_us, NULL}};
  if (pg_parse(argc, argv, opts, 2, rank == 0) != 0) {
    if (rank == 0) fprintf(stderr, "usage: sim_cpu [-n ITER] [-w W_US]\n");
    MPI_Finalize();
    return 2;
  }
  double sum = 0;
  for (long it = 0; it < iter; it++) {
    pg_cpu_work(w_us * 1000LL);
    double v = rank + 1.0;
    /* @augur:sim_cpu.allreduce */
    MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("sim_cpu: ranks=%d iter=%ld work_us=%ld cpu_s=%.6f\n", size, iter, w_us,
           (double)iter * (double)w_us * 1e-6);
  /* @augur:sim_cpu.finalize */
  MPI_Finalize();
  return sum > 0 ? 0 : 1;
}
