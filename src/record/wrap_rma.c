/* augur recorder — one-sided communication: window creation and freeing,
 * the synchronisation calls of the three epoch kinds (fence; post, start,
 * complete, wait; lock, flush) and the data calls. Field meaning:
 * docs/trace-format.md "One-sided records"; the helpers are rec_rma.c's,
 * shared with the Fortran bindings (fortran_rma.c). */
#include "rec_rma.h"
#include "wrap.h"

/* ---- windows ---- */

AUGUR_API int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             MPI_Win *win) {
  AUG_WRAP(AUGUR_EV_WIN_CREATE, PMPI_Win_create(base, size, disp_unit, info, comm, win));
  aug_rma_created(ev, comm, rc == MPI_SUCCESS ? *win : MPI_WIN_NULL, size, disp_unit, 0);
  aug_rec_commit_in(ev);
  return rc;
}

#define ALLOCATE_WRAPPER(NAME, TYPE)                                                               \
  AUGUR_API int MPI_##NAME(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,             \
                           void *baseptr, MPI_Win *win) {                                          \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_##NAME(size, disp_unit, info, comm, baseptr, win));             \
    aug_rma_created(ev, comm, rc == MPI_SUCCESS ? *win : MPI_WIN_NULL, size, disp_unit, 0);        \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
ALLOCATE_WRAPPER(Win_allocate, WIN_ALLOCATE)
ALLOCATE_WRAPPER(Win_allocate_shared, WIN_ALLOCATE_SHARED)

AUGUR_API int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win) {
  AUG_WRAP(AUGUR_EV_WIN_CREATE_DYNAMIC, PMPI_Win_create_dynamic(info, comm, win));
  aug_rma_created(ev, comm, rc == MPI_SUCCESS ? *win : MPI_WIN_NULL, 0, 0, 1);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size) {
  AUG_WRAP(AUGUR_EV_WIN_ATTACH, PMPI_Win_attach(win, base, size));
  aug_rma_sync(ev, win, AUG_RMA_NO_TARGET, 0, 0);
  ev->bytes = size > 0 ? (uint64_t)size : 0;
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Win_detach(MPI_Win win, const void *base) {
  AUG_WRAP(AUGUR_EV_WIN_DETACH, PMPI_Win_detach(win, base));
  aug_rma_sync(ev, win, AUG_RMA_NO_TARGET, 0, 0);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Win_free(MPI_Win *win) {
  augur_event *ev = aug_rec_begin(AUGUR_EV_WIN_FREE, AUG_CALLER());
  if (!ev) return PMPI_Win_free(win);
  aug_rma_freed(ev, *win); /* before: the handle is MPI_WIN_NULL afterwards */
  int rc = PMPI_Win_free(win);
  aug_rec_exit_in(ev);
  aug_rec_commit_in(ev);
  return rc;
}

/* ---- synchronisation ---- */

/* A call on WIN with an optional target rank, lock type and assertion. */
#define SYNC_WRAPPER(NAME, TYPE, PARAMS, ARGS, TARGET, LOCK, ASSERT)                               \
  AUGUR_API int MPI_##NAME(AUG_UNPAREN PARAMS) {                                                   \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_##NAME(AUG_UNPAREN ARGS));                                      \
    aug_rma_sync(ev, win, TARGET, LOCK, ASSERT);                                                   \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
#define NT AUG_RMA_NO_TARGET

SYNC_WRAPPER(Win_fence, WIN_FENCE, (int assert_, MPI_Win win), (assert_, win), NT, 0, assert_)
SYNC_WRAPPER(Win_complete, WIN_COMPLETE, (MPI_Win win), (win), NT, 0, 0)
SYNC_WRAPPER(Win_wait, WIN_WAIT, (MPI_Win win), (win), NT, 0, 0)
SYNC_WRAPPER(Win_lock, WIN_LOCK, (int lock_type, int rank, int assert_, MPI_Win win),
             (lock_type, rank, assert_, win), rank, lock_type, assert_)
SYNC_WRAPPER(Win_unlock, WIN_UNLOCK, (int rank, MPI_Win win), (rank, win), rank, 0, 0)
SYNC_WRAPPER(Win_lock_all, WIN_LOCK_ALL, (int assert_, MPI_Win win), (assert_, win), NT, 0, assert_)
SYNC_WRAPPER(Win_unlock_all, WIN_UNLOCK_ALL, (MPI_Win win), (win), NT, 0, 0)
SYNC_WRAPPER(Win_flush, WIN_FLUSH, (int rank, MPI_Win win), (rank, win), rank, 0, 0)
SYNC_WRAPPER(Win_flush_all, WIN_FLUSH_ALL, (MPI_Win win), (win), NT, 0, 0)
SYNC_WRAPPER(Win_flush_local, WIN_FLUSH_LOCAL, (int rank, MPI_Win win), (rank, win), rank, 0, 0)
SYNC_WRAPPER(Win_flush_local_all, WIN_FLUSH_LOCAL_ALL, (MPI_Win win), (win), NT, 0, 0)
SYNC_WRAPPER(Win_sync, WIN_SYNC, (MPI_Win win), (win), NT, 0, 0)

AUGUR_API int MPI_Win_test(MPI_Win win, int *flag) {
  AUG_WRAP(AUGUR_EV_WIN_TEST, PMPI_Win_test(win, flag));
  aug_rma_sync(ev, win, NT, 0, 0);
  if (rc == MPI_SUCCESS && !*flag) ev->flags |= AUGUR_F_NOTDONE;
  aug_rec_commit_in(ev);
  return rc;
}

#define GROUP_WRAPPER(NAME, TYPE)                                                                  \
  AUGUR_API int MPI_##NAME(MPI_Group group, int assert_, MPI_Win win) {                            \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_##NAME(group, assert_, win));                                   \
    aug_rma_group(ev, win, group, assert_);                                                        \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
GROUP_WRAPPER(Win_post, WIN_POST)
GROUP_WRAPPER(Win_start, WIN_START)

/* ---- data ---- */

#define PUTGET_WRAPPER(NAME, TYPE, CONST, IS_GET, REQ_PARAM, REQ_ARG, SET_REQ)                     \
  AUGUR_API int MPI_##NAME(CONST void *oaddr, int ocount, MPI_Datatype odt, int target,            \
                           MPI_Aint tdisp, int tcount, MPI_Datatype tdt,                           \
                           MPI_Win win AUG_UNPAREN REQ_PARAM) {                                    \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_##NAME(oaddr, ocount, odt, target, tdisp, tcount, tdt,          \
                                          win AUG_UNPAREN REQ_ARG));                               \
    uint64_t b = aug_bytes(ocount, odt);                                                           \
    aug_rma_data(ev, win, target, IS_GET ? 0 : b, IS_GET ? b : 0);                                 \
    SET_REQ;                                                                                       \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
PUTGET_WRAPPER(Put, PUT, const, 0, (), (), (void)0)
PUTGET_WRAPPER(Get, GET, , 1, (), (), (void)0)
PUTGET_WRAPPER(Rput, RPUT, const, 0, (, MPI_Request *req), (, req), ev->req = aug_req_id(*req))
PUTGET_WRAPPER(Rget, RGET, , 1, (, MPI_Request *req), (, req), ev->req = aug_req_id(*req))

AUGUR_API int MPI_Accumulate(const void *oaddr, int ocount, MPI_Datatype odt, int target,
                             MPI_Aint tdisp, int tcount, MPI_Datatype tdt, MPI_Op op, MPI_Win win) {
  AUG_WRAP(AUGUR_EV_ACCUMULATE,
           PMPI_Accumulate(oaddr, ocount, odt, target, tdisp, tcount, tdt, op, win));
  aug_rma_data(ev, win, target, aug_rma_acc_bytes(ocount, odt, op), 0);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Raccumulate(const void *oaddr, int ocount, MPI_Datatype odt, int target,
                              MPI_Aint tdisp, int tcount, MPI_Datatype tdt, MPI_Op op, MPI_Win win,
                              MPI_Request *req) {
  AUG_WRAP(AUGUR_EV_RACCUMULATE,
           PMPI_Raccumulate(oaddr, ocount, odt, target, tdisp, tcount, tdt, op, win, req));
  aug_rma_data(ev, win, target, aug_rma_acc_bytes(ocount, odt, op), 0);
  ev->req = aug_req_id(*req);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Get_accumulate(const void *oaddr, int ocount, MPI_Datatype odt, void *raddr,
                                 int rcount, MPI_Datatype rdt, int target, MPI_Aint tdisp,
                                 int tcount, MPI_Datatype tdt, MPI_Op op, MPI_Win win) {
  AUG_WRAP(AUGUR_EV_GET_ACCUMULATE, PMPI_Get_accumulate(oaddr, ocount, odt, raddr, rcount, rdt,
                                                        target, tdisp, tcount, tdt, op, win));
  aug_rma_data(ev, win, target, aug_rma_acc_bytes(ocount, odt, op), aug_bytes(rcount, rdt));
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Rget_accumulate(const void *oaddr, int ocount, MPI_Datatype odt, void *raddr,
                                  int rcount, MPI_Datatype rdt, int target, MPI_Aint tdisp,
                                  int tcount, MPI_Datatype tdt, MPI_Op op, MPI_Win win,
                                  MPI_Request *req) {
  AUG_WRAP(AUGUR_EV_RGET_ACCUMULATE,
           PMPI_Rget_accumulate(oaddr, ocount, odt, raddr, rcount, rdt, target, tdisp, tcount, tdt,
                                op, win, req));
  aug_rma_data(ev, win, target, aug_rma_acc_bytes(ocount, odt, op), aug_bytes(rcount, rdt));
  ev->req = aug_req_id(*req);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Fetch_and_op(const void *oaddr, void *raddr, MPI_Datatype dt, int target,
                               MPI_Aint tdisp, MPI_Op op, MPI_Win win) {
  AUG_WRAP(AUGUR_EV_FETCH_AND_OP, PMPI_Fetch_and_op(oaddr, raddr, dt, target, tdisp, op, win));
  aug_rma_data(ev, win, target, aug_rma_acc_bytes(1, dt, op), aug_bytes(1, dt));
  aug_rec_commit_in(ev);
  return rc;
}

/* The origin and the compare value both travel: bytes = 2 elements. */
AUGUR_API int MPI_Compare_and_swap(const void *oaddr, const void *caddr, void *raddr,
                                   MPI_Datatype dt, int target, MPI_Aint tdisp, MPI_Win win) {
  AUG_WRAP(AUGUR_EV_COMPARE_AND_SWAP,
           PMPI_Compare_and_swap(oaddr, caddr, raddr, dt, target, tdisp, win));
  aug_rma_data(ev, win, target, aug_bytes(2, dt), aug_bytes(1, dt));
  aug_rec_commit_in(ev);
  return rc;
}
