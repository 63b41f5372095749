/* ring — a token travels ITER times around all ranks with blocking
 * MPI_Send/MPI_Recv, then a checksum is reduced to rank 0.
 *
 * Known behaviour (see apps/README.md; tests/integration checks it exactly):
 * lap `it` uses tag it % 32768; rank 0 sends to rank 1 then receives from
 * rank N-1, every other rank receives from its left then sends to its right.
 * On the last lap rank 0 receives with MPI_ANY_SOURCE: only rank N-1 can be
 * sending then, so the wildcard must resolve to world rank N-1.
 *
 * Every recorded MPI call is on the line right after an "@augur:NAME" marker
 * comment; the integration checker finds the markers to know which source
 * line each call site must resolve to (robust to edits and reformatting). All MPI
 * calls are in main() so that none becomes a tail call or gets inlined into
 * another function (the recorded return address must point here). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/* Each rank leaves a mark on the token so the final checksum proves the
 * token really went through every rank in order. */
static void stamp(unsigned char *token, long bytes, int rank, long lap) {
  if (bytes > 0)
    token[lap % bytes] = (unsigned char)(token[lap % bytes] * 31u + (unsigned)rank + 1u);
}

static uint64_t checksum(const unsigned char *token, long bytes) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (long i = 0; i < bytes; i++)
    h = (h ^ token[i]) * 1099511628211ull;
  return h;
}

int main(int argc, char **argv) {
  /* @augur:ring.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 10, bytes = 1024;
  const app_opt opts[] = {{'n', "ITER", 1, 1000000000L, &iter},
                          {'s', "BYTES", 0, 1L << 30, &bytes}};
  if (app_parse(argc, argv, opts, 2, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "ring: needs at least 2 ranks\n");
      fprintf(stderr, "usage: ring [-n ITER] [-s BYTES]\n");
    }
    MPI_Finalize();
    return 2;
  }

  unsigned char *token = calloc((size_t)bytes + 1, 1);
  if (!token) {
    fprintf(stderr, "ring: rank %d: out of memory for a %ld-byte token\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  const int n = (int)bytes;
  uint64_t local = 0; /* sum of the checksums of every token this rank received */
  MPI_Status st;

  for (long it = 0; it < iter; it++) {
    const int tag = (int)(it % 32768);
    if (rank == 0) {
      stamp(token, bytes, rank, it);
      /* @augur:ring.send0 */
      MPI_Send(token, n, MPI_BYTE, right, tag, MPI_COMM_WORLD);
      if (it == iter - 1) {
        /* @augur:ring.recv_any */
        MPI_Recv(token, n, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st);
        if (st.MPI_SOURCE != left) {
          fprintf(stderr, "ring: wildcard receive matched rank %d, expected %d\n", st.MPI_SOURCE,
                  left);
          MPI_Abort(MPI_COMM_WORLD, 1);
        }
      } else {
        /* @augur:ring.recv0 */
        MPI_Recv(token, n, MPI_BYTE, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    } else {
      /* @augur:ring.recv */
      MPI_Recv(token, n, MPI_BYTE, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      stamp(token, bytes, rank, it);
      /* @augur:ring.send */
      MPI_Send(token, n, MPI_BYTE, right, tag, MPI_COMM_WORLD);
    }
    local += checksum(token, bytes);
  }

  uint64_t total = 0;
  /* @augur:ring.reduce */
  MPI_Reduce(&local, &total, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  /* @augur:ring.barrier */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("ring: ranks=%d iter=%ld bytes=%ld checksum=%016llx\n", size, iter, bytes,
           (unsigned long long)total);
  free(token);
  /* @augur:ring.finalize */
  MPI_Finalize();
  return 0;
}
