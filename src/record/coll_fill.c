/* augur recorder — byte accounting of collectives, shared by the C wrappers
 * (wrap_coll.c) and the Fortran ones (fortran_coll.c, which convert their
 * arguments to C first): bytes = what this rank sends (contributes),
 * bytes_recv = what it receives; v variants sum their counts arrays;
 * arguments significant only at the root are read only there. */
#include <limits.h>

#include "wrap.h"

static int is_root(const augur_event *ev) {
  return (ev->flags & AUGUR_F_ROOT) != 0;
}

static void in_place(augur_event *ev, const void *sendbuf) {
  if (aug_in_place(sendbuf)) ev->flags |= AUGUR_F_IN_PLACE;
}

/* Rooted collectives on an intercommunicator: ranks passing MPI_PROC_NULL
 * take no part. */
static int idle(MPI_Comm comm, int root) {
  return root == MPI_PROC_NULL && aug_comm_is_inter(comm);
}

void aug_coll_fill_barrier(augur_event *ev, MPI_Comm comm) {
  aug_fill_coll(ev, comm, AUGUR_PEER_NONE, 0, 0);
}

void aug_coll_fill_bcast(augur_event *ev, int count, MPI_Datatype dt, int root, MPI_Comm comm) {
  aug_fill_coll(ev, comm, root, 0, 0);
  if (idle(comm, root)) return;
  if (is_root(ev))
    ev->bytes = aug_bytes(count, dt);
  else
    ev->bytes_recv = aug_bytes(count, dt);
}

void aug_coll_fill_reduce(augur_event *ev, const void *sbuf, int count, MPI_Datatype dt, int root,
                          MPI_Comm comm) {
  aug_fill_coll(ev, comm, root, 0, 0);
  in_place(ev, sbuf);
  if (idle(comm, root)) return;
  uint64_t n = aug_bytes(count, dt);
  int inter_root = root == MPI_ROOT && aug_comm_is_inter(comm);
  if (!inter_root) ev->bytes = n;
  if (is_root(ev)) ev->bytes_recv = n;
}

void aug_coll_fill_allreduce(augur_event *ev, const void *sbuf, int count, MPI_Datatype dt,
                             MPI_Comm comm) {
  uint64_t n = aug_bytes(count, dt);
  aug_fill_coll(ev, comm, AUGUR_PEER_NONE, n, n);
  in_place(ev, sbuf);
}

void aug_coll_fill_gather(augur_event *ev, const void *sbuf, int scount, MPI_Datatype sdt,
                          const int *rcounts, int rcount, MPI_Datatype rdt, int root,
                          MPI_Comm comm) {
  aug_fill_coll(ev, comm, root, 0, 0);
  in_place(ev, sbuf);
  if (idle(comm, root)) return;
  int inter_root = root == MPI_ROOT && aug_comm_is_inter(comm);
  if (!inter_root) ev->bytes = aug_in_place(sbuf) ? 0 : aug_bytes(scount, sdt);
  if (is_root(ev)) {
    int n = aug_comm_nprocs_for_counts(comm);
    ev->bytes_recv = rcounts ? aug_bytes_v(rcounts, rdt, n) : aug_bytes(rcount, rdt) * (uint64_t)n;
    if (aug_in_place(sbuf)) /* the root's own block stays where it is */
      ev->bytes =
          rcounts ? aug_bytes(rcounts[aug_comm_rank_in(comm)], rdt) : aug_bytes(rcount, rdt);
  }
}

void aug_coll_fill_scatter(augur_event *ev, const int *scounts, int scount, MPI_Datatype sdt,
                           const void *rbuf, int rcount, MPI_Datatype rdt, int root,
                           MPI_Comm comm) {
  aug_fill_coll(ev, comm, root, 0, 0);
  in_place(ev, rbuf);
  if (idle(comm, root)) return;
  int inter_root = root == MPI_ROOT && aug_comm_is_inter(comm);
  if (is_root(ev)) {
    int n = aug_comm_nprocs_for_counts(comm);
    ev->bytes = scounts ? aug_bytes_v(scounts, sdt, n) : aug_bytes(scount, sdt) * (uint64_t)n;
  }
  if (!inter_root)
    ev->bytes_recv = aug_in_place(rbuf) ? (scounts ? aug_bytes(scounts[aug_comm_rank_in(comm)], sdt)
                                                   : aug_bytes(scount, sdt))
                                        : aug_bytes(rcount, rdt);
}

void aug_coll_fill_allgather(augur_event *ev, const void *sbuf, int scount, MPI_Datatype sdt,
                             const int *rcounts, int rcount, MPI_Datatype rdt, MPI_Comm comm) {
  int n = aug_comm_nprocs_for_counts(comm);
  uint64_t recvd = rcounts ? aug_bytes_v(rcounts, rdt, n) : aug_bytes(rcount, rdt) * (uint64_t)n;
  uint64_t sent;
  if (aug_in_place(sbuf))
    sent = rcounts ? aug_bytes(rcounts[aug_comm_rank_in(comm)], rdt) : aug_bytes(rcount, rdt);
  else
    sent = aug_bytes(scount, sdt);
  aug_fill_coll(ev, comm, AUGUR_PEER_NONE, sent, recvd);
  in_place(ev, sbuf);
}

void aug_coll_fill_alltoall(augur_event *ev, const void *sbuf, const int *scounts, int scount,
                            MPI_Datatype sdt, const int *rcounts, int rcount, MPI_Datatype rdt,
                            MPI_Comm comm) {
  int n = aug_comm_nprocs_for_counts(comm);
  uint64_t recvd = rcounts ? aug_bytes_v(rcounts, rdt, n) : aug_bytes(rcount, rdt) * (uint64_t)n;
  uint64_t sent = aug_in_place(sbuf) ? recvd
                  : scounts          ? aug_bytes_v(scounts, sdt, n)
                                     : aug_bytes(scount, sdt) * (uint64_t)n;
  aug_fill_coll(ev, comm, AUGUR_PEER_NONE, sent, recvd);
  in_place(ev, sbuf);
}

int aug_alltoall_recv_count(const int *rcounts, const int *rdispls, int rcount, MPI_Comm comm) {
  int n = aug_comm_nprocs_for_counts(comm);
  if (!rcounts || !rdispls) return rcount > 0 && n > 0 && rcount <= INT_MAX / n ? rcount * n : 0;
  long long end = 0;
  for (int i = 0; i < n; i++)
    if (rcounts[i] > 0 && (long long)rdispls[i] + rcounts[i] > end)
      end = (long long)rdispls[i] + rcounts[i];
  return end <= INT_MAX ? (int)end : 0;
}

/* Reduce_scatter: the full vector goes in, this rank's block comes out. */
void aug_coll_fill_reduce_scatter(augur_event *ev, const void *sbuf, const int *rcounts, int rcount,
                                  MPI_Datatype dt, MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n); /* local group: the vector is split over it */
  uint64_t sent = rcounts ? aug_bytes_v(rcounts, dt, n) : aug_bytes(rcount, dt) * (uint64_t)n;
  uint64_t recvd = rcounts ? aug_bytes(rcounts[aug_comm_rank_in(comm)], dt) : aug_bytes(rcount, dt);
  aug_fill_coll(ev, comm, AUGUR_PEER_NONE, sent, recvd);
  in_place(ev, sbuf);
}

void aug_coll_fill_sums(augur_event *ev, const void *sbuf, uint64_t sent, uint64_t recvd,
                        MPI_Comm comm) {
  aug_fill_coll(ev, comm, AUGUR_PEER_NONE, aug_in_place(sbuf) ? recvd : sent, recvd);
  in_place(ev, sbuf);
}
