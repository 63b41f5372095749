/* Recorder test program ("neigh" scenario): every neighbourhood collective
 * (blocking and nonblocking) on a 1-D periodic Cartesian communicator, one on
 * a non-periodic one (MPI_PROC_NULL neighbours at the ends), two on a
 * distributed-graph ring (one in-, one out-neighbour), Comm_create_group of
 * the even ranks and Comm_disconnect of a duplicate of MPI_COMM_WORLD.
 * check_neigh.c knows every call here. Any number of ranks >= 2.
 *
 * Byte counts differ per call so that the checker can tell them apart:
 * Cart neighbours are (left, right) for both sends and receives. With 2
 * ranks left = right, and which of the two blocks from one rank lands in
 * which receive block is the library's choice (Open MPI's Ineighbor_alltoallv
 * pairs them the other way round than its blocking twin and MPICH): the
 * v / w calls then send the same size both ways. */
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int left = (r + n - 1) % n, right = (r + 1) % n;
  MPI_Comm cart, line, ring, evens, dup;
  int dims[1] = {n}, periodic[1] = {1}, open[1] = {0};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periodic, 0, &cart);

  int is[8] = {0}, ir[8];
  double ds[8] = {0}, dr[8];
  int c12[2] = {1, n > 2 ? 2 : 1}, c21[2] = {n > 2 ? 2 : 1, 1}, c22[2] = {2, 2}, c11[2] = {1, 1};
  int d0[2] = {0, 1}, d2[2] = {0, 2};
  MPI_Aint aw[2] = {0, 8};
  MPI_Datatype tid[2] = {MPI_INT, n > 2 ? MPI_DOUBLE : MPI_INT};
  MPI_Datatype tdi[2] = {n > 2 ? MPI_DOUBLE : MPI_INT, MPI_INT};
  char wsbuf[16] = {0}, wrbuf[16];

  /* blocking: 8/8, 16/16, 48/48, 12/12 (to left 4, right 8), 12/12 */
  MPI_Neighbor_allgather(is, 1, MPI_INT, ir, 1, MPI_INT, cart);
  MPI_Neighbor_allgatherv(is, 2, MPI_INT, ir, c22, d2, MPI_INT, cart);
  MPI_Neighbor_alltoall(ds, 3, MPI_DOUBLE, dr, 3, MPI_DOUBLE, cart);
  MPI_Neighbor_alltoallv(is, c12, d0, MPI_INT, ir, c21, d2, MPI_INT, cart);
  MPI_Neighbor_alltoallw(wsbuf, c11, aw, tid, wrbuf, c11, aw, tdi, cart);

  /* nonblocking twins, same arguments (separate buffers) */
  int is2[8] = {0}, ir2[5][8];
  double ds2[8] = {0}, dr2[8];
  char wsbuf2[16] = {0}, wrbuf2[16];
  MPI_Request q[5];
  MPI_Ineighbor_allgather(is2, 1, MPI_INT, ir2[0], 1, MPI_INT, cart, &q[0]);
  MPI_Ineighbor_allgatherv(is2, 2, MPI_INT, ir2[1], c22, d2, MPI_INT, cart, &q[1]);
  MPI_Ineighbor_alltoall(ds2, 3, MPI_DOUBLE, dr2, 3, MPI_DOUBLE, cart, &q[2]);
  MPI_Ineighbor_alltoallv(is2, c12, d0, MPI_INT, ir2[3], c21, d2, MPI_INT, cart, &q[3]);
  MPI_Ineighbor_alltoallw(wsbuf2, c11, aw, tid, wrbuf2, c11, aw, tdi, cart, &q[4]);
  MPI_Waitall(5, q, MPI_STATUSES_IGNORE);

  /* non-periodic: rank 0 has no left neighbour, rank n-1 no right one */
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, open, 0, &line);
  MPI_Neighbor_allgather(is, 1, MPI_INT, ir, 1, MPI_INT, line);

  /* directed ring: receive from left, send to right, 5 ints */
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &ring);
  MPI_Neighbor_alltoall(is, 5, MPI_INT, ir, 5, MPI_INT, ring);
  MPI_Request q1;
  MPI_Ineighbor_alltoall(is2, 5, MPI_INT, ir2[0], 5, MPI_INT, ring, &q1);
  MPI_Wait(&q1, MPI_STATUS_IGNORE);

  /* Comm_create_group over the even ranks only, tag 7 */
  if (r % 2 == 0) {
    MPI_Group world, even;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int range[1][3] = {{0, n - 1, 2}};
    MPI_Group_range_incl(world, 1, range, &even);
    MPI_Comm_create_group(MPI_COMM_WORLD, even, 7, &evens);
    MPI_Barrier(evens);
    MPI_Comm_free(&evens);
    MPI_Group_free(&even);
    MPI_Group_free(&world);
  }

  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_disconnect(&dup);

  MPI_Comm_free(&ring);
  MPI_Comm_free(&line);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
