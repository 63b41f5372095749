/* Recorder test program ("recvbuf" scenario, 2 ranks): the state of large
 * receive buffers (AUGUR_F_FRESH_BUF, AUGUR_F_UNTOUCHED). Rank 0 sends
 * 256 KiB messages; rank 1 receives them into, in order:
 *   1. A, mapped and never touched           -> fresh, untouched
 *   2. A again                               -> neither
 *   3. B, malloc'd and written               -> fresh
 *   4. C, mapped, never touched, by Irecv    -> fresh, untouched
 *   5. a 1 KiB message into a new buffer     -> neither (below 64 KiB)
 * then both ranks Sendrecv 256 KiB into D, mapped and never touched: the
 * SUB_RECV is fresh and untouched, the (send) parent neither.
 * check_record.c ("recvbuf") knows these receives by their bytes. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { BIG = 256 * 1024 };

static char *untouched(void) {
  void *p = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) MPI_Abort(MPI_COMM_WORLD, 3);
  return p;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n != 2) MPI_Abort(MPI_COMM_WORLD, 2);
  char *src = malloc(BIG), small[1024];
  if (!src) MPI_Abort(MPI_COMM_WORLD, 3);
  memset(src, 7, BIG);
  memset(small, 1, sizeof small);
  if (r == 0) {
    for (int k = 0; k < 4; k++)
      MPI_Send(src, BIG, MPI_CHAR, 1, k, MPI_COMM_WORLD);
    MPI_Send(small, sizeof small, MPI_CHAR, 1, 4, MPI_COMM_WORLD);
  } else {
    char *a = untouched(), *b = malloc(BIG), *c = untouched(), *s = malloc(sizeof small);
    if (!b || !s) MPI_Abort(MPI_COMM_WORLD, 3);
    memset(b, 0, BIG);
    MPI_Recv(a, BIG, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(a, BIG, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(b, BIG, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Request q;
    MPI_Irecv(c, BIG, MPI_CHAR, 0, 3, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Recv(s, sizeof small, MPI_CHAR, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    free(b);
    free(s);
  }
  char *d = untouched();
  MPI_Sendrecv(src, BIG, MPI_CHAR, 1 - r, 9, d, BIG, MPI_CHAR, 1 - r, 9, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  free(src);
  MPI_Finalize();
  return 0;
}
