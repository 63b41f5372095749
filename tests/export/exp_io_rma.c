/* exp_io_rma — MPI-IO, one-sided and neighbourhood calls with known sizes, for the exports'
 * test (tests/export/io_rma.sh, check_io_rma.py). Any number of ranks >= 2; each rank r
 * does, in this order (next = (r+1) % size):
 *
 * I/O, one file /tmp/augur-exp-io-<pid of rank 0>.dat opened on MPI_COMM_WORLD:
 *   File_open; write_at 1000 B; iwrite_at 500 B + Wait; write_at_all 256 B;
 *   read_at_all_begin/_end 200 B; read_at 100 B; iread_at 300 B + Wait; File_sync;
 *   File_close; Barrier; rank 0: File_delete.
 *   Per rank: 1756 B written (3 writes), 600 B read (3 reads).
 * One-sided, one window (Win_allocate, 4096 B per rank, MPI_COMM_WORLD):
 *   fence; Put 64 B to next; Get 32 B from next; fence;
 *   post + start (every other rank); Put 16 B to next; complete; wait;
 *   lock exclusive next; Accumulate 64 B to next; unlock next;
 *   lock_all; Rput 128 B to next + Wait; Fetch_and_op 8 B on next; flush next;
 *   Compare_and_swap 8 B on next; unlock_all; Win_free.
 *   Per rank: 3 puts (208 B), 1 get (32 B), 3 atomics.
 * Neighbourhood: a periodic 1-D Cartesian communicator, Neighbor_allgather of one int
 *   (2 neighbours: 8 B sent, 8 B received); then a communicator of the ranks in reverse
 *   order, split and freed.
 * usage: exp_io_rma */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void io_part(int rank) {
  char name[256] = {0};
  if (rank == 0) snprintf(name, sizeof name, "/tmp/augur-exp-io-%ld.dat", (long)getpid());
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  char buf[1000];
  memset(buf, 'a' + rank % 26, sizeof buf);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_Status st;
  MPI_Request rq;
  MPI_File_write_at(fh, (MPI_Offset)rank * 1000, buf, 1000, MPI_BYTE, &st);
  MPI_File_iwrite_at(fh, 100000 + (MPI_Offset)rank * 500, buf, 500, MPI_BYTE, &rq);
  MPI_Wait(&rq, &st);
  MPI_File_write_at_all(fh, 200000 + (MPI_Offset)rank * 256, buf, 256, MPI_BYTE, &st);
  MPI_File_read_at_all_begin(fh, (MPI_Offset)rank * 1000, buf, 200, MPI_BYTE);
  MPI_File_read_at_all_end(fh, buf, &st);
  MPI_File_read_at(fh, (MPI_Offset)rank * 1000, buf, 100, MPI_BYTE, &st);
  MPI_File_iread_at(fh, (MPI_Offset)rank * 1000, buf, 300, MPI_BYTE, &rq);
  MPI_Wait(&rq, &st);
  MPI_File_sync(fh);
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) MPI_File_delete(name, MPI_INFO_NULL);
}

static void rma_part(int rank, int size) {
  int next = (rank + 1) % size;
  double *base;
  MPI_Win win;
  MPI_Win_allocate(4096, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  memset(base, 0, 4096);
  double v[16] = {0};
  MPI_Win_fence(0, win);
  MPI_Put(v, 8, MPI_DOUBLE, next, 0, 8, MPI_DOUBLE, win);
  MPI_Get(v + 8, 4, MPI_DOUBLE, next, 16, 4, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);

  MPI_Group world, others;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int me[1] = {rank};
  MPI_Group_excl(world, 1, me, &others);
  MPI_Win_post(others, 0, win);
  MPI_Win_start(others, 0, win);
  MPI_Put(v, 2, MPI_DOUBLE, next, 32, 2, MPI_DOUBLE, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  MPI_Group_free(&others);
  MPI_Group_free(&world);

  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win);
  MPI_Accumulate(v, 8, MPI_DOUBLE, next, 64, 8, MPI_DOUBLE, MPI_SUM, win);
  MPI_Win_unlock(next, win);

  MPI_Win_lock_all(0, win);
  MPI_Request rq;
  MPI_Rput(v, 16, MPI_DOUBLE, next, 128, 16, MPI_DOUBLE, win, &rq);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  double one = 1, old;
  MPI_Fetch_and_op(&one, &old, MPI_DOUBLE, next, 200, MPI_SUM, win);
  MPI_Win_flush(next, win);
  long long cmp = 0, swap = rank, res;
  MPI_Compare_and_swap(&swap, &cmp, &res, MPI_LONG_LONG, next, 300, win);
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
}

static void neigh_part(int rank, int size) {
  MPI_Comm cart, rev;
  int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  int mine = 1, theirs[2];
  MPI_Neighbor_allgather(&mine, 1, MPI_INT, theirs, 1, MPI_INT, cart);
  MPI_Comm_free(&cart);
  /* ranks in reverse order: Comm_free's peer field is no rank to translate (import) */
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
  MPI_Comm_free(&rev);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "exp_io_rma: needs at least 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  io_part(rank);
  rma_part(rank, size);
  neigh_part(rank, size);
  MPI_Finalize();
  return 0;
}
