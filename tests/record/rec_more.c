/* Recorder test program ("more" scenario): the wrapped calls rec_basic.c
 * leaves out — send modes, matched probes, Waitsome / Test* with both flag
 * outcomes, persistent Bsend/Ssend/Rsend, intercommunicators, the other
 * communicator constructors and the irregular collectives. Needs an even
 * number of ranks >= 2. check_record.c ("more") knows every call here.
 *
 * A Test* call that must report "not done" is made before a barrier that the
 * matching sender only passes afterwards, so the first outcome is certain;
 * the calls that follow loop until done, and the checker only relies on the
 * last one completing. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n % 2) MPI_Abort(MPI_COMM_WORLD, 2);
  int right = (r + 1) % n, left = (r + n - 1) % n;
  int ib[8][16];
  double db[8][4];
  MPI_Request q[8];
  MPI_Status sts[8];
  int flag, out, idx[8];
  for (int i = 0; i < 16; i++)
    ib[0][i] = r * 100 + i;
  for (int i = 0; i < 4; i++)
    db[0][i] = r + i * 0.25;
  static char bsend_buf[1 << 16];
  MPI_Buffer_attach(bsend_buf, sizeof bsend_buf);

  /* A. blocking send modes, received by Irecv + Waitsome */
  for (int k = 0; k < 3; k++)
    MPI_Irecv(ib[1 + k], 3 + k, MPI_INT, left, 20 + k, MPI_COMM_WORLD, &q[k]);
  MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted: Rsend is legal */
  MPI_Ssend(ib[0], 3, MPI_INT, right, 20, MPI_COMM_WORLD);
  MPI_Bsend(ib[0], 4, MPI_INT, right, 21, MPI_COMM_WORLD);
  MPI_Rsend(ib[0], 5, MPI_INT, right, 22, MPI_COMM_WORLD);
  for (int done = 0; done < 3; done += out)
    MPI_Waitsome(3, q, &out, idx, sts);

  /* B. nonblocking send modes, one Waitall */
  for (int k = 0; k < 3; k++)
    MPI_Irecv(db[1 + k], 2 - (k == 2) + (k == 1), MPI_DOUBLE, right, 30 + k, MPI_COMM_WORLD, &q[k]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Issend(db[0], 2, MPI_DOUBLE, left, 30, MPI_COMM_WORLD, &q[3]);
  MPI_Ibsend(db[0], 3, MPI_DOUBLE, left, 31, MPI_COMM_WORLD, &q[4]);
  MPI_Irsend(db[0], 1, MPI_DOUBLE, left, 32, MPI_COMM_WORLD, &q[5]);
  MPI_Waitall(6, q, MPI_STATUSES_IGNORE);

  /* C. Testall: not done before the barrier, then until done */
  MPI_Irecv(ib[1], 4, MPI_INT, left, 40, MPI_COMM_WORLD, &q[0]);
  MPI_Irecv(ib[2], 4, MPI_INT, right, 41, MPI_COMM_WORLD, &q[1]);
  MPI_Testall(2, q, &flag, sts);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(ib[0], 4, MPI_INT, right, 40, MPI_COMM_WORLD);
  MPI_Send(ib[0], 4, MPI_INT, left, 41, MPI_COMM_WORLD);
  do
    MPI_Testall(2, q, &flag, sts);
  while (!flag);

  /* D. Testany: the live request is at index 1 */
  q[0] = MPI_REQUEST_NULL;
  MPI_Irecv(ib[1], 2, MPI_INT, left, 50, MPI_COMM_WORLD, &q[1]);
  MPI_Testany(2, q, &idx[0], &flag, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(ib[0], 2, MPI_INT, right, 50, MPI_COMM_WORLD);
  do
    MPI_Testany(2, q, &idx[0], &flag, MPI_STATUS_IGNORE);
  while (!flag);

  /* E. Testsome */
  MPI_Irecv(ib[1], 3, MPI_INT, left, 60, MPI_COMM_WORLD, &q[0]);
  MPI_Irecv(ib[2], 3, MPI_INT, right, 61, MPI_COMM_WORLD, &q[1]);
  MPI_Testsome(2, q, &out, idx, MPI_STATUSES_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(ib[0], 3, MPI_INT, right, 60, MPI_COMM_WORLD);
  MPI_Send(ib[0], 3, MPI_INT, left, 61, MPI_COMM_WORLD);
  for (int done = 0; done < 2;) {
    MPI_Testsome(2, q, &out, idx, MPI_STATUSES_IGNORE);
    done += out;
  }

  /* F. matched probes */
  MPI_Message msg;
  MPI_Improbe(left, 71, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(ib[0], 6, MPI_INT, right, 70, MPI_COMM_WORLD);
  MPI_Send(ib[0], 7, MPI_INT, right, 71, MPI_COMM_WORLD);
  MPI_Mprobe(MPI_ANY_SOURCE, 70, MPI_COMM_WORLD, &msg, &sts[0]);
  MPI_Mrecv(ib[1], 6, MPI_INT, &msg, MPI_STATUS_IGNORE);
  do
    MPI_Improbe(left, 71, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
  while (!flag);
  MPI_Imrecv(ib[2], 7, MPI_INT, &msg, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);

  /* G. Sendrecv_replace around the ring */
  MPI_Sendrecv_replace(ib[3], 5, MPI_INT, right, 80, left, 80, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  /* H. persistent send modes, started together */
  for (int k = 0; k < 3; k++)
    MPI_Recv_init(ib[4 + k], 2, MPI_INT, left, 90 + k, MPI_COMM_WORLD, &q[k]);
  MPI_Bsend_init(ib[0], 2, MPI_INT, right, 90, MPI_COMM_WORLD, &q[3]);
  MPI_Ssend_init(ib[0], 2, MPI_INT, right, 91, MPI_COMM_WORLD, &q[4]);
  MPI_Rsend_init(ib[0], 2, MPI_INT, right, 92, MPI_COMM_WORLD, &q[5]);
  MPI_Startall(3, q);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Startall(3, q + 3);
  MPI_Waitall(6, q, sts);
  for (int k = 0; k < 6; k++)
    MPI_Request_free(&q[k]);

  /* I. intercommunicator between even and odd world ranks, and its merge */
  MPI_Comm half, inter, merged;
  int color = r % 2;
  MPI_Comm_split(MPI_COMM_WORLD, color, r, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color ? 0 : 1, 99, &inter);
  int partner = r / 2; /* same local rank on the other side */
  if (color == 0) {
    MPI_Send(ib[0], 4, MPI_INT, partner, 100, inter);
    MPI_Recv(ib[1], 4, MPI_INT, partner, 100, inter, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(ib[1], 4, MPI_INT, partner, 100, inter, MPI_STATUS_IGNORE);
    MPI_Send(ib[0], 4, MPI_INT, partner, 100, inter);
  }
  MPI_Irecv(ib[2], 3, MPI_INT, partner, 101, inter, &q[0]);
  MPI_Isend(ib[0], 3, MPI_INT, partner, 101, inter, &q[1]);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  MPI_Intercomm_merge(inter, color, &merged);
  MPI_Bcast(ib[5], 10, MPI_INT, 0, merged);

  /* J. constructors */
  MPI_Comm idup, shared, created, graph, dist, adj, cart, row;
  MPI_Comm_idup(MPI_COMM_WORLD, &idup, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Barrier(idup);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, r, MPI_INFO_NULL, &shared);
  MPI_Group wg, eg;
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  int evens[64], ne = 0;
  for (int i = 0; i < n && ne < 64; i += 2)
    evens[ne++] = i;
  MPI_Group_incl(wg, ne, evens, &eg);
  MPI_Comm_create(MPI_COMM_WORLD, eg, &created);
  MPI_Group_free(&eg);
  MPI_Group_free(&wg);
  int *gindex = malloc((size_t)n * sizeof *gindex),
      *gedges = malloc(2 * (size_t)n * sizeof *gedges);
  for (int i = 0; i < n; i++) {
    gindex[i] = 2 * (i + 1);
    gedges[2 * i] = (i + 1) % n;
    gedges[2 * i + 1] = (i + n - 1) % n;
  }
  MPI_Graph_create(MPI_COMM_WORLD, n, gindex, gedges, 0, &graph);
  free(gindex);
  free(gedges);
  int one = 1;
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &r, &one, &right, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                        &dist);
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &adj);
  int dims[2] = {n / 2, 2}, periods[2] = {1, 0}, keep[2] = {0, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Cart_sub(cart, keep, &row);

  /* K. irregular collectives */
  char sw[8 * 64], rw[8 * 64];
  int scount[64], rcount[64], sdisp[64], rdisp[64];
  MPI_Datatype stype[64], rtype[64];
  for (int j = 0; j < n && j < 64; j++) {
    scount[j] = rcount[j] = 1;
    sdisp[j] = rdisp[j] = 8 * j;
    stype[j] = j % 2 ? MPI_DOUBLE : MPI_INT; /* what j expects */
    rtype[j] = r % 2 ? MPI_DOUBLE : MPI_INT; /* what everyone sends me */
  }
  for (int i = 0; i < 8 * 64; i++)
    sw[i] = (char)i;
  MPI_Alltoallw(sw, scount, sdisp, stype, rw, rcount, rdisp, rtype, MPI_COMM_WORLD);
  int rs_counts[64], rs_in[64 * 65 / 2], rs_out[64];
  for (int i = 0; i < n && i < 64; i++)
    rs_counts[i] = i + 1;
  for (int i = 0; i < n * (n + 1) / 2 && i < 64 * 65 / 2; i++)
    rs_in[i] = i;
  MPI_Reduce_scatter(rs_in, rs_out, rs_counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(rs_in, rs_out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  double sc[3] = {1, 2, 3}, sco[3];
  MPI_Scan(sc, sco, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

  /* L. frees, in a known order */
  MPI_Comm_free(&row);
  MPI_Comm_free(&cart);
  MPI_Comm_free(&adj);
  MPI_Comm_free(&dist);
  MPI_Comm_free(&graph);
  if (created != MPI_COMM_NULL) MPI_Comm_free(&created);
  MPI_Comm_free(&shared);
  MPI_Comm_free(&idup);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  void *bp;
  int bsize;
  MPI_Buffer_detach(&bp, &bsize);
  MPI_Finalize();
  return 0;
}
