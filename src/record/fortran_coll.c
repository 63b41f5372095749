/* augur recorder — Fortran bindings of the blocking and nonblocking
 * collectives. Byte accounting is that of wrap_coll.c (bytes = what this rank
 * sends or contributes, bytes_recv = what it receives, v/w variants sum their
 * counts, root-only arguments read only at the root): the shared fill
 * functions of coll_fill.c take the call's arguments converted to C (handles
 * through *_f2c, the library's Fortran MPI_IN_PLACE mapped to the C one).
 * Fortran counts arrays are MPI_Fint, which is int. */
#include "fortran_wrap.h"

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran counts arrays are read as int");

/* The application's buffer as the C fill functions expect it. */
static const void *c_buf(const void *fbuf) {
  return aug_f_in_place(fbuf) ? MPI_IN_PLACE : fbuf;
}

/* Σ counts[i] * size(types[i]) with Fortran type handles. */
static uint64_t bytes_w(const MPI_Fint *counts, const MPI_Fint *types, int n) {
  uint64_t sum = 0;
  for (int i = 0; counts && types && i < n; i++)
    sum += aug_bytes(counts[i], PMPI_Type_f2c(types[i]));
  return sum;
}

static void fill_alltoallw(augur_event *ev, const void *sbuf, const MPI_Fint *scounts,
                           const MPI_Fint *sdts, const MPI_Fint *rcounts, const MPI_Fint *rdts,
                           MPI_Comm comm) {
  int n = aug_comm_nprocs_for_counts(comm);
  aug_coll_fill_sums(ev, sbuf, bytes_w(scounts, sdts, n), bytes_w(rcounts, rdts, n), comm);
}

/* Defines a collective and its nonblocking twin (one more argument, the
 * request, before ierr) from one implementation: `req` is NULL for the
 * blocking call. PARAMS/ARGS exclude request and ierr; FILL fills `ev`.
 * RBUF_FLAGS, evaluated before the call when it is recorded, gives the
 * receive buffer's state flags (aug_recv_buffer, as AUG_COLL_RECV does for
 * C; 0 for the collectives whose buffers are not checked). */
#define F_COLL_R(lower, UPPER, ilower, IUPPER, TYPE, PARAMS, ARGS, RBUF_FLAGS, FILL)               \
  typedef void (*lower##_fn)(AUG_F_UNPAREN PARAMS, F_INT * ierr);                                  \
  typedef void (*ilower##_fn)(AUG_F_UNPAREN PARAMS, F_INT * req, F_INT * ierr);                    \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower), s_##ilower = AUG_F_SLOT(ilower);                \
  static void f_##lower(const void *caller, AUG_F_UNPAREN PARAMS, F_INT *req, F_INT *ierr) {       \
    aug_f_fn real = aug_f_real(req ? &s_##ilower : &s_##lower);                                    \
    augur_event ev;                                                                                \
    int rec = aug_rec_enter(&ev, req ? AUGUR_EV_I##TYPE : AUGUR_EV_##TYPE, caller);                \
    uint16_t rbuf_flags = rec ? (RBUF_FLAGS) : 0;                                                  \
    if (req)                                                                                       \
      ((ilower##_fn)real)(AUG_F_UNPAREN ARGS, req, ierr);                                          \
    else                                                                                           \
      ((lower##_fn)real)(AUG_F_UNPAREN ARGS, ierr);                                                \
    if (!rec) return;                                                                              \
    aug_rec_exit(&ev);                                                                             \
    ev.flags |= AUGUR_F_FORTRAN | rbuf_flags;                                                      \
    FILL;                                                                                          \
    if (req) ev.req = aug_req_id(PMPI_Request_f2c(*req));                                          \
    aug_rec_commit(&ev);                                                                           \
  }                                                                                                \
  AUG_F_SPELLINGS(lower, UPPER, (AUG_F_UNPAREN PARAMS, F_INT * ierr),                              \
                  f_##lower(AUG_CALLER(), AUG_F_UNPAREN ARGS, NULL, ierr))                         \
  AUG_F_SPELLINGS(ilower, IUPPER, (AUG_F_UNPAREN PARAMS, F_INT * req, F_INT * ierr),               \
                  f_##lower(AUG_CALLER(), AUG_F_UNPAREN ARGS, req, ierr))
#define F_COLL(lower, UPPER, ilower, IUPPER, TYPE, PARAMS, ARGS, FILL)                             \
  F_COLL_R(lower, UPPER, ilower, IUPPER, TYPE, PARAMS, ARGS, 0, FILL)

#define CT(h) PMPI_Type_f2c(*(h))
#define CC(h) PMPI_Comm_f2c(*(h))

F_COLL(mpi_barrier, MPI_BARRIER, mpi_ibarrier, MPI_IBARRIER, BARRIER, (F_INT * comm), (comm),
       aug_fill_coll(&ev, CC(comm), AUGUR_PEER_NONE, 0, 0))

F_COLL(mpi_bcast, MPI_BCAST, mpi_ibcast, MPI_IBCAST, BCAST,
       (void *buf, F_INT *count, F_INT *dt, F_INT *root, F_INT *comm), (buf, count, dt, root, comm),
       aug_coll_fill_bcast(&ev, *count, CT(dt), *root, CC(comm)))

F_COLL(mpi_reduce, MPI_REDUCE, mpi_ireduce, MPI_IREDUCE, REDUCE,
       (void *sbuf, void *rbuf, F_INT *count, F_INT *dt, F_INT *op, F_INT *root, F_INT *comm),
       (sbuf, rbuf, count, dt, op, root, comm),
       aug_coll_fill_reduce(&ev, c_buf(sbuf), *count, CT(dt), *root, CC(comm)))

F_COLL(mpi_allreduce, MPI_ALLREDUCE, mpi_iallreduce, MPI_IALLREDUCE, ALLREDUCE,
       (void *sbuf, void *rbuf, F_INT *count, F_INT *dt, F_INT *op, F_INT *comm),
       (sbuf, rbuf, count, dt, op, comm),
       aug_coll_fill_allreduce(&ev, c_buf(sbuf), *count, CT(dt), CC(comm)))

F_COLL(mpi_scan, MPI_SCAN, mpi_iscan, MPI_ISCAN, SCAN,
       (void *sbuf, void *rbuf, F_INT *count, F_INT *dt, F_INT *op, F_INT *comm),
       (sbuf, rbuf, count, dt, op, comm),
       aug_coll_fill_allreduce(&ev, c_buf(sbuf), *count, CT(dt), CC(comm)))

F_COLL(mpi_exscan, MPI_EXSCAN, mpi_iexscan, MPI_IEXSCAN, EXSCAN,
       (void *sbuf, void *rbuf, F_INT *count, F_INT *dt, F_INT *op, F_INT *comm),
       (sbuf, rbuf, count, dt, op, comm),
       aug_coll_fill_allreduce(&ev, c_buf(sbuf), *count, CT(dt), CC(comm)))

F_COLL(mpi_gather, MPI_GATHER, mpi_igather, MPI_IGATHER, GATHER,
       (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcount, F_INT *rdt, F_INT *root,
        F_INT *comm),
       (sbuf, scount, sdt, rbuf, rcount, rdt, root, comm),
       aug_coll_fill_gather(&ev, c_buf(sbuf), *scount, CT(sdt), NULL, *rcount, CT(rdt), *root,
                            CC(comm)))

F_COLL(mpi_gatherv, MPI_GATHERV, mpi_igatherv, MPI_IGATHERV, GATHERV,
       (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcounts, F_INT *displs,
        F_INT *rdt, F_INT *root, F_INT *comm),
       (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm),
       aug_coll_fill_gather(&ev, c_buf(sbuf), *scount, CT(sdt), rcounts, 0, CT(rdt), *root,
                            CC(comm)))

F_COLL(mpi_scatter, MPI_SCATTER, mpi_iscatter, MPI_ISCATTER, SCATTER,
       (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcount, F_INT *rdt, F_INT *root,
        F_INT *comm),
       (sbuf, scount, sdt, rbuf, rcount, rdt, root, comm),
       aug_coll_fill_scatter(&ev, NULL, *scount, CT(sdt), c_buf(rbuf), *rcount, CT(rdt), *root,
                             CC(comm)))

F_COLL(mpi_scatterv, MPI_SCATTERV, mpi_iscatterv, MPI_ISCATTERV, SCATTERV,
       (void *sbuf, F_INT *scounts, F_INT *displs, F_INT *sdt, void *rbuf, F_INT *rcount,
        F_INT *rdt, F_INT *root, F_INT *comm),
       (sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm),
       aug_coll_fill_scatter(&ev, scounts, 0, CT(sdt), c_buf(rbuf), *rcount, CT(rdt), *root,
                             CC(comm)))

F_COLL(mpi_allgather, MPI_ALLGATHER, mpi_iallgather, MPI_IALLGATHER, ALLGATHER,
       (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcount, F_INT *rdt, F_INT *comm),
       (sbuf, scount, sdt, rbuf, rcount, rdt, comm),
       aug_coll_fill_allgather(&ev, c_buf(sbuf), *scount, CT(sdt), NULL, *rcount, CT(rdt),
                               CC(comm)))

F_COLL(mpi_allgatherv, MPI_ALLGATHERV, mpi_iallgatherv, MPI_IALLGATHERV, ALLGATHERV,
       (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcounts, F_INT *displs,
        F_INT *rdt, F_INT *comm),
       (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm),
       aug_coll_fill_allgather(&ev, c_buf(sbuf), *scount, CT(sdt), rcounts, 0, CT(rdt), CC(comm)))

F_COLL_R(mpi_alltoall, MPI_ALLTOALL, mpi_ialltoall, MPI_IALLTOALL, ALLTOALL,
         (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcount, F_INT *rdt,
          F_INT *comm),
         (sbuf, scount, sdt, rbuf, rcount, rdt, comm),
         aug_recv_buffer(aug_f_cbuf(rbuf), aug_alltoall_recv_count(NULL, NULL, *rcount, CC(comm)),
                         CT(rdt)),
         aug_coll_fill_alltoall(&ev, c_buf(sbuf), NULL, *scount, CT(sdt), NULL, *rcount, CT(rdt),
                                CC(comm)))

F_COLL_R(mpi_alltoallv, MPI_ALLTOALLV, mpi_ialltoallv, MPI_IALLTOALLV, ALLTOALLV,
         (void *sbuf, F_INT *scounts, F_INT *sdispls, F_INT *sdt, void *rbuf, F_INT *rcounts,
          F_INT *rdispls, F_INT *rdt, F_INT *comm),
         (sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm),
         aug_recv_buffer(aug_f_cbuf(rbuf), aug_alltoall_recv_count(rcounts, rdispls, 0, CC(comm)),
                         CT(rdt)),
         aug_coll_fill_alltoall(&ev, c_buf(sbuf), scounts, 0, CT(sdt), rcounts, 0, CT(rdt),
                                CC(comm)))

F_COLL(mpi_alltoallw, MPI_ALLTOALLW, mpi_ialltoallw, MPI_IALLTOALLW, ALLTOALLW,
       (void *sbuf, F_INT *scounts, F_INT *sdispls, F_INT *sdts, void *rbuf, F_INT *rcounts,
        F_INT *rdispls, F_INT *rdts, F_INT *comm),
       (sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts, comm),
       fill_alltoallw(&ev, c_buf(sbuf), scounts, sdts, rcounts, rdts, CC(comm)))

F_COLL(mpi_reduce_scatter, MPI_REDUCE_SCATTER, mpi_ireduce_scatter, MPI_IREDUCE_SCATTER,
       REDUCE_SCATTER, (void *sbuf, void *rbuf, F_INT *rcounts, F_INT *dt, F_INT *op, F_INT *comm),
       (sbuf, rbuf, rcounts, dt, op, comm),
       aug_coll_fill_reduce_scatter(&ev, c_buf(sbuf), rcounts, 0, CT(dt), CC(comm)))

F_COLL(mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK, mpi_ireduce_scatter_block,
       MPI_IREDUCE_SCATTER_BLOCK, REDUCE_SCATTER_BLOCK,
       (void *sbuf, void *rbuf, F_INT *rcount, F_INT *dt, F_INT *op, F_INT *comm),
       (sbuf, rbuf, rcount, dt, op, comm),
       aug_coll_fill_reduce_scatter(&ev, c_buf(sbuf), NULL, *rcount, CT(dt), CC(comm)))
