/* augur recorder — blocking and nonblocking collectives.
 *
 * Each collective and its nonblocking twin share parameters and byte
 * accounting, so AUG_COLL defines both from one fill function:
 * bytes = what this rank sends (contributes), bytes_recv = what it receives;
 * v/w variants sum their counts arrays; arguments that are significant only
 * at the root are read only there. */
#include "wrap.h"

#define AUG_COLL(NAME, INAME, TYPE, PARAMS, ARGS, FILL)                                            \
  int MPI_##NAME(AUG_UNPAREN PARAMS) {                                                             \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_##NAME(AUG_UNPAREN ARGS));                                      \
    FILL;                                                                                          \
    aug_rec_commit(&ev);                                                                           \
    return rc;                                                                                     \
  }                                                                                                \
  int MPI_##INAME(AUG_UNPAREN PARAMS, MPI_Request *request) {                                      \
    AUG_WRAP(AUGUR_EV_I##TYPE, PMPI_##INAME(AUG_UNPAREN ARGS, request));                           \
    FILL;                                                                                          \
    ev.req = aug_req_id(*request);                                                                 \
    aug_rec_commit(&ev);                                                                           \
    return rc;                                                                                     \
  }

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

static void fill_barrier(augur_event *ev, MPI_Comm comm) {
  aug_fill_coll(ev, comm, AUGUR_PEER_NONE, 0, 0);
}

static void fill_bcast(augur_event *ev, int count, MPI_Datatype dt, int root, MPI_Comm comm) {
  aug_fill_coll(ev, comm, root, 0, 0);
  if (idle(comm, root)) return;
  if (is_root(ev))
    ev->bytes = aug_bytes(count, dt);
  else
    ev->bytes_recv = aug_bytes(count, dt);
}

static void fill_reduce(augur_event *ev, const void *sbuf, int count, MPI_Datatype dt, int root,
                        MPI_Comm comm) {
  aug_fill_coll(ev, comm, root, 0, 0);
  in_place(ev, sbuf);
  if (idle(comm, root)) return;
  uint64_t n = aug_bytes(count, dt);
  int inter_root = root == MPI_ROOT && aug_comm_is_inter(comm);
  if (!inter_root) ev->bytes = n;
  if (is_root(ev)) ev->bytes_recv = n;
}

static void fill_allreduce(augur_event *ev, const void *sbuf, int count, MPI_Datatype dt,
                           MPI_Comm comm) {
  uint64_t n = aug_bytes(count, dt);
  aug_fill_coll(ev, comm, AUGUR_PEER_NONE, n, n);
  in_place(ev, sbuf);
}

static void fill_gather(augur_event *ev, const void *sbuf, int scount, MPI_Datatype sdt,
                        const int *rcounts, int rcount, MPI_Datatype rdt, int root, MPI_Comm comm) {
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

static void fill_scatter(augur_event *ev, const int *scounts, int scount, MPI_Datatype sdt,
                         const void *rbuf, int rcount, MPI_Datatype rdt, int root, MPI_Comm comm) {
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

static void fill_allgather(augur_event *ev, const void *sbuf, int scount, MPI_Datatype sdt,
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

static void fill_alltoall(augur_event *ev, const void *sbuf, const int *scounts, int scount,
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

static void fill_alltoallw(augur_event *ev, const void *sbuf, const int *scounts,
                           const MPI_Datatype *sdts, const int *rcounts, const MPI_Datatype *rdts,
                           MPI_Comm comm) {
  int n = aug_comm_nprocs_for_counts(comm);
  uint64_t recvd = aug_bytes_w(rcounts, rdts, n);
  uint64_t sent = aug_in_place(sbuf) ? recvd : aug_bytes_w(scounts, sdts, n);
  aug_fill_coll(ev, comm, AUGUR_PEER_NONE, sent, recvd);
  in_place(ev, sbuf);
}

/* Reduce_scatter: the full vector goes in, this rank's block comes out. */
static void fill_reduce_scatter(augur_event *ev, const void *sbuf, const int *rcounts, int rcount,
                                MPI_Datatype dt, MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n); /* local group: the vector is split over it */
  uint64_t sent = rcounts ? aug_bytes_v(rcounts, dt, n) : aug_bytes(rcount, dt) * (uint64_t)n;
  uint64_t recvd = rcounts ? aug_bytes(rcounts[aug_comm_rank_in(comm)], dt) : aug_bytes(rcount, dt);
  aug_fill_coll(ev, comm, AUGUR_PEER_NONE, sent, recvd);
  in_place(ev, sbuf);
}

AUG_COLL(Barrier, Ibarrier, BARRIER, (MPI_Comm comm), (comm), fill_barrier(&ev, comm))

AUG_COLL(Bcast, Ibcast, BCAST, (void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm),
         (buf, count, dt, root, comm), fill_bcast(&ev, count, dt, root, comm))

AUG_COLL(Reduce, Ireduce, REDUCE,
         (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
          MPI_Comm comm),
         (sbuf, rbuf, count, dt, op, root, comm), fill_reduce(&ev, sbuf, count, dt, root, comm))

AUG_COLL(Allreduce, Iallreduce, ALLREDUCE,
         (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),
         (sbuf, rbuf, count, dt, op, comm), fill_allreduce(&ev, sbuf, count, dt, comm))

AUG_COLL(Scan, Iscan, SCAN,
         (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),
         (sbuf, rbuf, count, dt, op, comm), fill_allreduce(&ev, sbuf, count, dt, comm))

AUG_COLL(Exscan, Iexscan, EXSCAN,
         (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),
         (sbuf, rbuf, count, dt, op, comm), fill_allreduce(&ev, sbuf, count, dt, comm))

AUG_COLL(Gather, Igather, GATHER,
         (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
          int root, MPI_Comm comm),
         (sbuf, scount, sdt, rbuf, rcount, rdt, root, comm),
         fill_gather(&ev, sbuf, scount, sdt, NULL, rcount, rdt, root, comm))

AUG_COLL(Gatherv, Igatherv, GATHERV,
         (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
          const int displs[], MPI_Datatype rdt, int root, MPI_Comm comm),
         (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm),
         fill_gather(&ev, sbuf, scount, sdt, rcounts, 0, rdt, root, comm))

AUG_COLL(Scatter, Iscatter, SCATTER,
         (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
          int root, MPI_Comm comm),
         (sbuf, scount, sdt, rbuf, rcount, rdt, root, comm),
         fill_scatter(&ev, NULL, scount, sdt, rbuf, rcount, rdt, root, comm))

AUG_COLL(Scatterv, Iscatterv, SCATTERV,
         (const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt, void *rbuf,
          int rcount, MPI_Datatype rdt, int root, MPI_Comm comm),
         (sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm),
         fill_scatter(&ev, scounts, 0, sdt, rbuf, rcount, rdt, root, comm))

AUG_COLL(Allgather, Iallgather, ALLGATHER,
         (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
          MPI_Comm comm),
         (sbuf, scount, sdt, rbuf, rcount, rdt, comm),
         fill_allgather(&ev, sbuf, scount, sdt, NULL, rcount, rdt, comm))

AUG_COLL(Allgatherv, Iallgatherv, ALLGATHERV,
         (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
          const int displs[], MPI_Datatype rdt, MPI_Comm comm),
         (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm),
         fill_allgather(&ev, sbuf, scount, sdt, rcounts, 0, rdt, comm))

AUG_COLL(Alltoall, Ialltoall, ALLTOALL,
         (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
          MPI_Comm comm),
         (sbuf, scount, sdt, rbuf, rcount, rdt, comm),
         fill_alltoall(&ev, sbuf, NULL, scount, sdt, NULL, rcount, rdt, comm))

AUG_COLL(Alltoallv, Ialltoallv, ALLTOALLV,
         (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt, void *rbuf,
          const int rcounts[], const int rdispls[], MPI_Datatype rdt, MPI_Comm comm),
         (sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm),
         fill_alltoall(&ev, sbuf, scounts, 0, sdt, rcounts, 0, rdt, comm))

AUG_COLL(Alltoallw, Ialltoallw, ALLTOALLW,
         (const void *sbuf, const int scounts[], const int sdispls[], const MPI_Datatype sdts[],
          void *rbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rdts[],
          MPI_Comm comm),
         (sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts, comm),
         fill_alltoallw(&ev, sbuf, scounts, sdts, rcounts, rdts, comm))

AUG_COLL(Reduce_scatter, Ireduce_scatter, REDUCE_SCATTER,
         (const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op,
          MPI_Comm comm),
         (sbuf, rbuf, rcounts, dt, op, comm), fill_reduce_scatter(&ev, sbuf, rcounts, 0, dt, comm))

AUG_COLL(Reduce_scatter_block, Ireduce_scatter_block, REDUCE_SCATTER_BLOCK,
         (const void *sbuf, void *rbuf, int rcount, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),
         (sbuf, rbuf, rcount, dt, op, comm), fill_reduce_scatter(&ev, sbuf, NULL, rcount, dt, comm))
