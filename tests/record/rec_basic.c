/* Recorder test program: a fixed sequence of MPI calls whose trace
 * check_record.c knows exactly ("basic" scenario). Runs on any number of
 * ranks >= 2. Keep the two files in step: every call here has an expected
 * count there. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Spins for ms of this thread's CPU time (not wall time: 4 ranks share 2
 * cores in the tests, and task-clock counts CPU time). */
static void spin_ms(double ms) {
  struct timespec a, b;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
  volatile double x = 1.0;
  do {
    for (int i = 0; i < 1000; i++)
      x = x * 1.0000001 + 1e-9;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
  } while ((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int right = (r + 1) % n, left = (r + n - 1) % n;
  int sbuf[100], rbuf[100];
  for (int i = 0; i < 100; i++)
    sbuf[i] = r * 1000 + i;
  MPI_Request req, q[4];
  MPI_Status st, sts[4];

  /* 1. ring with a wildcard receive */
  MPI_Isend(sbuf, 100, MPI_INT, right, 7, MPI_COMM_WORLD, &req);
  MPI_Recv(rbuf, 100, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
  MPI_Wait(&req, MPI_STATUS_IGNORE);

  /* 2. halo: two receives, two sends, one Waitall */
  double hs[2][10], hr[2][10];
  for (int i = 0; i < 10; i++)
    hs[0][i] = hs[1][i] = r + i * 0.5;
  MPI_Irecv(hr[0], 10, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &q[0]);
  MPI_Irecv(hr[1], 10, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &q[1]);
  MPI_Isend(hs[0], 10, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &q[2]);
  MPI_Isend(hs[1], 10, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &q[3]);
  MPI_Waitall(4, q, sts);

  /* 3. Sendrecv shift */
  MPI_Sendrecv(sbuf, 5, MPI_INT, right, 3, rbuf, 5, MPI_INT, left, 3, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);

  /* 4. probe then receive */
  MPI_Isend(sbuf, 6, MPI_INT, right, 11, MPI_COMM_WORLD, &req);
  MPI_Probe(MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &st);
  MPI_Recv(rbuf, 6, MPI_INT, st.MPI_SOURCE, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);

  /* 5. Waitany twice */
  MPI_Irecv(rbuf, 2, MPI_INT, left, 12, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(sbuf, 2, MPI_INT, right, 12, MPI_COMM_WORLD, &q[1]);
  int idx;
  MPI_Waitany(2, q, &idx, MPI_STATUS_IGNORE);
  MPI_Waitany(2, q, &idx, MPI_STATUS_IGNORE);

  /* 6. nothing to find */
  int flag;
  MPI_Request nullreq = MPI_REQUEST_NULL;
  MPI_Test(&nullreq, &flag, MPI_STATUS_IGNORE);
  MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);

  /* 7. collectives */
  unsigned char bytes[1000];
  memset(bytes, r, sizeof bytes);
  int ints[64], out[64];
  for (int i = 0; i < 64; i++)
    ints[i] = i + r;
  double d4[4] = {1, 2, 3, 4}, d4o[4];
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(bytes, 1000, MPI_BYTE, 0, MPI_COMM_WORLD);
  MPI_Reduce(d4, d4o, 4, MPI_DOUBLE, MPI_SUM, n - 1, MPI_COMM_WORLD);
  MPI_Allreduce(ints, out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int *gat = malloc(sizeof(int) * 3 * (size_t)n * 2);
  MPI_Gather(ints, 3, MPI_INT, gat, 3, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Allgather(ints, 1, MPI_INT, gat, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoall(ints, 2, MPI_INT, gat, 2, MPI_INT, MPI_COMM_WORLD);
  int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
  int tot = 0;
  for (int i = 0; i < n; i++) {
    counts[i] = i + 1;
    displs[i] = tot;
    tot += i + 1;
  }
  int *big = malloc(sizeof(int) * (size_t)tot);
  for (int i = 0; i < tot; i++)
    big[i] = i;
  MPI_Scatterv(big, counts, displs, MPI_INT, out, r + 1, MPI_INT, 1, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(ints, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Ibcast(bytes, 100, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Iallreduce(MPI_IN_PLACE, ints, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);

  /* 8. communicators: a reversed split, a parity split (4+ ranks), a ring
   * topology on the reversed one, a dup */
  MPI_Comm rev, sub, cart, dup;
  MPI_Comm_split(MPI_COMM_WORLD, 0, -r, &rev);
  MPI_Comm_split(MPI_COMM_WORLD, n >= 4 ? r % 2 : 0, -r, &sub);
  int ssize, srank;
  MPI_Comm_size(sub, &ssize);
  MPI_Comm_rank(sub, &srank);
  if (srank == 0) MPI_Send(sbuf, 3, MPI_INT, 1, 5, sub);
  if (srank == 1) MPI_Recv(rbuf, 3, MPI_INT, 0, 5, sub, MPI_STATUS_IGNORE);
  int dims[1] = {n}, periods[1] = {1};
  MPI_Cart_create(rev, 1, dims, periods, 0, &cart);
  int csrc, cdst;
  MPI_Cart_shift(cart, 0, 1, &csrc, &cdst);
  MPI_Sendrecv(sbuf, 1, MPI_INT, cdst, 4, rbuf, 1, MPI_INT, csrc, 4, cart, MPI_STATUS_IGNORE);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&cart);
  MPI_Comm_free(&sub);
  MPI_Comm_free(&rev);

  /* 9. persistent requests, started three times */
  MPI_Send_init(sbuf, 4, MPI_INT, right, 13, MPI_COMM_WORLD, &q[0]);
  MPI_Recv_init(rbuf, 4, MPI_INT, left, 13, MPI_COMM_WORLD, &q[1]);
  for (int k = 0; k < 3; k++) {
    MPI_Startall(2, q);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&q[0]);
  MPI_Request_free(&q[1]);

  /* 10. a known call site, and a 2 ms (CPU time) compute burst before a Scan */
  MPI_Exscan(ints, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* AUGUR_MARK_EXSCAN */
  spin_ms(2.0);
  MPI_Scan(ints, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  free(gat);
  free(counts);
  free(displs);
  free(big);
  MPI_Finalize();
  return 0;
}
