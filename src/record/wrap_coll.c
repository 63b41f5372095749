/* augur recorder — blocking and nonblocking collectives.
 *
 * Each collective and its nonblocking twin share parameters and byte
 * accounting, so AUG_COLL defines both from one fill function (coll_fill.c,
 * shared with the Fortran bindings). */
#include "wrap.h"

#define AUG_COLL(NAME, INAME, TYPE, PARAMS, ARGS, FILL)                                            \
  AUGUR_API int MPI_##NAME(AUG_UNPAREN PARAMS) {                                                   \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_##NAME(AUG_UNPAREN ARGS));                                      \
    FILL;                                                                                          \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }                                                                                                \
  AUGUR_API int MPI_##INAME(AUG_UNPAREN PARAMS, MPI_Request *request) {                            \
    AUG_WRAP(AUGUR_EV_I##TYPE, PMPI_##INAME(AUG_UNPAREN ARGS, request));                           \
    FILL;                                                                                          \
    ev->req = aug_req_id(*request);                                                                \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }

/* AUG_COLL for a collective whose receive buffer (RBUF, RCOUNT elements of
 * RDT, read before the call) can be a large new one: its state lands in
 * ev->flags like a point-to-point receive's (aug_recv_buffer; docs/simulate.md
 * "First receive into a buffer"). */
#define AUG_COLL_RECV(NAME, INAME, TYPE, PARAMS, ARGS, RBUF, RCOUNT, RDT, FILL)                    \
  AUGUR_API int MPI_##NAME(AUG_UNPAREN PARAMS) {                                                   \
    AUG_WRAP_RECV(AUGUR_EV_##TYPE, RBUF, RCOUNT, RDT, PMPI_##NAME(AUG_UNPAREN ARGS));              \
    FILL;                                                                                          \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }                                                                                                \
  AUGUR_API int MPI_##INAME(AUG_UNPAREN PARAMS, MPI_Request *request) {                            \
    AUG_WRAP_RECV(AUGUR_EV_I##TYPE, RBUF, RCOUNT, RDT, PMPI_##INAME(AUG_UNPAREN ARGS, request));   \
    FILL;                                                                                          \
    ev->req = aug_req_id(*request);                                                                \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }

/* Alltoallw: per-peer datatypes, so the sums are taken here. */
static void fill_alltoallw(augur_event *ev, const void *sbuf, const int *scounts,
                           const MPI_Datatype *sdts, const int *rcounts, const MPI_Datatype *rdts,
                           MPI_Comm comm) {
  int n = aug_comm_nprocs_for_counts(comm);
  aug_coll_fill_sums(ev, sbuf, aug_bytes_w(scounts, sdts, n), aug_bytes_w(rcounts, rdts, n), comm);
}

AUG_COLL(Barrier, Ibarrier, BARRIER, (MPI_Comm comm), (comm), aug_coll_fill_barrier(ev, comm))

AUG_COLL(Bcast, Ibcast, BCAST, (void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm),
         (buf, count, dt, root, comm), aug_coll_fill_bcast(ev, count, dt, root, comm))

AUG_COLL(Reduce, Ireduce, REDUCE,
         (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
          MPI_Comm comm),
         (sbuf, rbuf, count, dt, op, root, comm),
         aug_coll_fill_reduce(ev, sbuf, count, dt, root, comm))

AUG_COLL(Allreduce, Iallreduce, ALLREDUCE,
         (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),
         (sbuf, rbuf, count, dt, op, comm), aug_coll_fill_allreduce(ev, sbuf, count, dt, comm))

AUG_COLL(Scan, Iscan, SCAN,
         (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),
         (sbuf, rbuf, count, dt, op, comm), aug_coll_fill_allreduce(ev, sbuf, count, dt, comm))

AUG_COLL(Exscan, Iexscan, EXSCAN,
         (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),
         (sbuf, rbuf, count, dt, op, comm), aug_coll_fill_allreduce(ev, sbuf, count, dt, comm))

AUG_COLL(Gather, Igather, GATHER,
         (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
          int root, MPI_Comm comm),
         (sbuf, scount, sdt, rbuf, rcount, rdt, root, comm),
         aug_coll_fill_gather(ev, sbuf, scount, sdt, NULL, rcount, rdt, root, comm))

AUG_COLL(Gatherv, Igatherv, GATHERV,
         (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
          const int displs[], MPI_Datatype rdt, int root, MPI_Comm comm),
         (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm),
         aug_coll_fill_gather(ev, sbuf, scount, sdt, rcounts, 0, rdt, root, comm))

AUG_COLL(Scatter, Iscatter, SCATTER,
         (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
          int root, MPI_Comm comm),
         (sbuf, scount, sdt, rbuf, rcount, rdt, root, comm),
         aug_coll_fill_scatter(ev, NULL, scount, sdt, rbuf, rcount, rdt, root, comm))

AUG_COLL(Scatterv, Iscatterv, SCATTERV,
         (const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt, void *rbuf,
          int rcount, MPI_Datatype rdt, int root, MPI_Comm comm),
         (sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm),
         aug_coll_fill_scatter(ev, scounts, 0, sdt, rbuf, rcount, rdt, root, comm))

AUG_COLL(Allgather, Iallgather, ALLGATHER,
         (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
          MPI_Comm comm),
         (sbuf, scount, sdt, rbuf, rcount, rdt, comm),
         aug_coll_fill_allgather(ev, sbuf, scount, sdt, NULL, rcount, rdt, comm))

AUG_COLL(Allgatherv, Iallgatherv, ALLGATHERV,
         (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
          const int displs[], MPI_Datatype rdt, MPI_Comm comm),
         (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm),
         aug_coll_fill_allgather(ev, sbuf, scount, sdt, rcounts, 0, rdt, comm))

AUG_COLL_RECV(Alltoall, Ialltoall, ALLTOALL,
              (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
               MPI_Datatype rdt, MPI_Comm comm),
              (sbuf, scount, sdt, rbuf, rcount, rdt, comm), rbuf,
              aug_alltoall_recv_count(NULL, NULL, rcount, comm), rdt,
              aug_coll_fill_alltoall(ev, sbuf, NULL, scount, sdt, NULL, rcount, rdt, comm))

AUG_COLL_RECV(Alltoallv, Ialltoallv, ALLTOALLV,
              (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt,
               void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rdt,
               MPI_Comm comm),
              (sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm), rbuf,
              aug_alltoall_recv_count(rcounts, rdispls, 0, comm), rdt,
              aug_coll_fill_alltoall(ev, sbuf, scounts, 0, sdt, rcounts, 0, rdt, comm))

AUG_COLL(Alltoallw, Ialltoallw, ALLTOALLW,
         (const void *sbuf, const int scounts[], const int sdispls[], const MPI_Datatype sdts[],
          void *rbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rdts[],
          MPI_Comm comm),
         (sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts, comm),
         fill_alltoallw(ev, sbuf, scounts, sdts, rcounts, rdts, comm))

AUG_COLL(Reduce_scatter, Ireduce_scatter, REDUCE_SCATTER,
         (const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op,
          MPI_Comm comm),
         (sbuf, rbuf, rcounts, dt, op, comm),
         aug_coll_fill_reduce_scatter(ev, sbuf, rcounts, 0, dt, comm))

AUG_COLL(Reduce_scatter_block, Ireduce_scatter_block, REDUCE_SCATTER_BLOCK,
         (const void *sbuf, void *rbuf, int rcount, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),
         (sbuf, rbuf, rcount, dt, op, comm),
         aug_coll_fill_reduce_scatter(ev, sbuf, NULL, rcount, dt, comm))
