/* Recorder test program ("rma" scenario): every one-sided call, once or a
 * few times, in each epoch kind — fence, post/start/complete/wait (and
 * Win_test), lock/unlock, lock_all with flushes and request-based calls —
 * on windows of every creation kind. check_rma.c knows every call here.
 *
 * Window A lives on a communicator whose ranks are world ranks reversed, so
 * a target rank (stored window-local) must be translated by the reader.
 * right = (r + 1) % n, left = (r + n - 1) % n in world ranks; tr/tl are
 * their ranks in window A. Any number of ranks >= 2. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n < 2) MPI_Abort(MPI_COMM_WORLD, 2);
  int right = (r + 1) % n, left = (r + n - 1) % n;
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 0, n - r, &rev);
  int tr = n - 1 - right, tl = n - 1 - left;
  int *mem = calloc(256, sizeof *mem);
  int src[16], res[16];
  for (int i = 0; i < 16; i++)
    src[i] = r * 100 + i;

  /* A. Win_create: fence epoch with Put, Get, Accumulate */
  MPI_Win a;
  MPI_Win_create(mem, 64 * sizeof(int), sizeof(int), MPI_INFO_NULL, rev, &a);
  MPI_Win_fence(0, a);
  MPI_Put(src, 4, MPI_INT, tr, 0, 4, MPI_INT, a);
  MPI_Get(res, 2, MPI_INT, tl, 8, 2, MPI_INT, a);
  MPI_Accumulate(src, 3, MPI_INT, tr, 16, 3, MPI_INT, MPI_SUM, a);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, a);

  /* B. PSCW: left puts to me, I put to right; then again, polled with Win_test */
  MPI_Group world_g, from_g, to_g;
  MPI_Comm_group(MPI_COMM_WORLD, &world_g);
  MPI_Group_incl(world_g, 1, &left, &from_g);
  MPI_Group_incl(world_g, 1, &right, &to_g);
  MPI_Win_post(from_g, 0, a);
  MPI_Win_start(to_g, 0, a);
  MPI_Put(src, 1, MPI_INT, tr, 24, 1, MPI_INT, a);
  MPI_Win_complete(a);
  MPI_Win_wait(a);
  MPI_Win_post(from_g, MPI_MODE_NOCHECK, a);
  MPI_Barrier(MPI_COMM_WORLD); /* NOCHECK: every post precedes every start */
  MPI_Win_start(to_g, MPI_MODE_NOCHECK, a);
  MPI_Win_complete(a);
  int flag = 0;
  while (!flag)
    MPI_Win_test(a, &flag);

  /* C. passive target: exclusive and shared locks, atomics */
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, tr, 0, a);
  MPI_Get_accumulate(src, 2, MPI_INT, res, 2, MPI_INT, tr, 32, 2, MPI_INT, MPI_SUM, a);
  MPI_Win_unlock(tr, a);
  MPI_Win_lock(MPI_LOCK_SHARED, tl, MPI_MODE_NOCHECK, a);
  MPI_Fetch_and_op(src, res, MPI_INT, tl, 40, MPI_SUM, a);
  MPI_Compare_and_swap(src, src + 1, res, MPI_INT, tl, 41, a);
  MPI_Win_unlock(tl, a);

  /* D. lock_all: request-based calls, each completed by MPI_Wait; flushes */
  MPI_Request q;
  MPI_Win_lock_all(0, a);
  MPI_Rput(src, 5, MPI_INT, tr, 48, 5, MPI_INT, a, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Rget(res, 6, MPI_INT, tl, 48, 6, MPI_INT, a, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Raccumulate(src, 7, MPI_INT, tr, 56, 7, MPI_INT, MPI_SUM, a, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Rget_accumulate(NULL, 0, MPI_INT, res, 1, MPI_INT, tl, 0, 1, MPI_INT, MPI_NO_OP, a, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Win_flush(tr, a);
  MPI_Win_flush_local(tl, a);
  MPI_Win_flush_all(a);
  MPI_Win_flush_local_all(a);
  MPI_Win_sync(a);
  MPI_Win_unlock_all(a);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&a);

  /* E. Win_allocate on world: one fence epoch with a byte Put */
  MPI_Win b;
  char *bm;
  MPI_Win_allocate(128, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &bm, &b);
  MPI_Win_fence(MPI_MODE_NOPRECEDE, b);
  MPI_Put(src, 8, MPI_BYTE, right, 0, 8, MPI_BYTE, b);
  MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOSUCCEED, b);
  MPI_Win_free(&b);

  /* F. Win_allocate_shared (every rank is on one host) */
  MPI_Win c;
  int *cm;
  MPI_Win_allocate_shared(32, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &cm, &c);
  MPI_Win_free(&c);

  /* G. a dynamic window with memory attached and detached */
  MPI_Win d;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &d);
  MPI_Win_attach(d, mem + 128, 256);
  MPI_Win_detach(d, mem + 128);
  MPI_Win_free(&d);

  MPI_Group_free(&from_g);
  MPI_Group_free(&to_g);
  MPI_Group_free(&world_g);
  MPI_Comm_free(&rev);
  free(mem);
  MPI_Finalize();
  return 0;
}
