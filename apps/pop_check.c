/* pop_check — a program that measures its own POP figures (docs/pop.md):
 * rank r computes BASE x (1 + K x r / 100) per iteration, then exchanges
 * BYTES with both ring neighbours (MPI_Sendrecv) and joins an 8-byte
 * MPI_Allreduce. Every MPI call is timed (pg_now before and after), so each
 * rank knows its useful time (everything outside MPI from the end of
 * MPI_Init to the start of MPI_Finalize) and the span of that window. After
 * MPI_Finalize each rank prints
 *   pop_check: rank R useful_ns U start_ns S end_ns E
 * (CLOCK_MONOTONIC: one clock for the ranks of a host), from which
 * LB = avg U / max U and PE = avg U / (max E - min S); tests/pop compares
 * them with `augur report --json`.
 *
 * usage: pop_check [-n ITER] [-b US] [-k PERCENT] [-m BYTES] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

static long long useful, t_prev;

/* Runs CALL as an MPI call: the time since the previous one is useful. */
#define TIMED(call)                                                                                \
  do {                                                                                             \
    useful += pg_now() - t_prev;                                                                   \
    call;                                                                                          \
    t_prev = pg_now();                                                                             \
  } while (0)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long long start = t_prev = pg_now();
  int rank, size;
  TIMED(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  TIMED(MPI_Comm_size(MPI_COMM_WORLD, &size));
  long iter = 20, base_us = 5000, k_pct = 100, bytes = 1024;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"k", 'k', PG_INT, 0, 100000, &k_pct, NULL},
                         {"bytes", 'm', PG_INT, 1, 1 << 26, &bytes, NULL}};
  if (pg_parse(argc, argv, opts, 4, rank == 0) != 0) {
    if (rank == 0) fprintf(stderr, "usage: pop_check [-n ITER] [-b US] [-k PERCENT] [-m BYTES]\n");
    MPI_Finalize();
    return 2;
  }
  char *out = calloc((size_t)bytes, 1), *in = calloc((size_t)bytes, 1);
  if (!out || !in) MPI_Abort(MPI_COMM_WORLD, 1);
  long long work = base_us * 1000LL * (100 + k_pct * rank) / 100;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double x = rank, sum = 0;
  for (long i = 0; i < iter; i++) {
    pg_spin(work);
    TIMED(MPI_Sendrecv(out, (int)bytes, MPI_CHAR, right, 1, in, (int)bytes, MPI_CHAR, left, 1,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    TIMED(MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
  }
  long long end = pg_now();
  useful += end - t_prev;
  MPI_Finalize();
  printf("pop_check: rank %d useful_ns %lld start_ns %lld end_ns %lld\n", rank, useful, start, end);
  free(out);
  free(in);
  return 0;
}
