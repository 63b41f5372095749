/* augur recorder — Fortran bindings (mpif.h, `use mpi`) of the one-sided
 * calls. See fortran_wrap.h for the scheme; the fields are filled by the
 * same rec_rma.c helpers as the C wrappers (wrap_rma.c), from the C
 * handles. INTEGER(KIND=MPI_ADDRESS_KIND) arguments arrive as MPI_Aint *. */
#include "fortran_wrap.h"
#include "rec_rma.h"

#define WIN(h)  PMPI_Win_f2c(*(h))
#define TYPE(h) PMPI_Type_f2c(*(h))
#define OP(h)   PMPI_Op_f2c(*(h))
#define NT      AUG_RMA_NO_TARGET

/* One binding: PARAMS/ARGS exclude ierr; FILL runs after the call (ev, ierr
 * and the parameters in scope). */
#define F_RMA(lower, UPPER, TYPE_, PARAMS, ARGS, FILL)                                             \
  typedef void (*lower##_fn)(AUG_F_UNPAREN PARAMS, F_INT * ierr);                                  \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower);                                                 \
  static void f_##lower(const void *caller, AUG_F_UNPAREN PARAMS, F_INT *ierr) {                   \
    lower##_fn real = (lower##_fn)aug_f_real(&s_##lower);                                          \
    augur_event ev;                                                                                \
    int rec = aug_rec_enter(&ev, AUGUR_EV_##TYPE_, caller);                                        \
    real(AUG_F_UNPAREN ARGS, ierr);                                                                \
    if (!rec) return;                                                                              \
    aug_rec_exit(&ev);                                                                             \
    ev.flags |= AUGUR_F_FORTRAN;                                                                   \
    FILL;                                                                                          \
    aug_rec_commit(&ev);                                                                           \
  }                                                                                                \
  AUG_F_SPELLINGS(lower, UPPER, (AUG_F_UNPAREN PARAMS, F_INT * ierr),                              \
                  f_##lower(AUG_CALLER(), AUG_F_UNPAREN ARGS, ierr))

/* The new window, or MPI_WIN_NULL when the call failed. */
#define NEWWIN(h) (*ierr == MPI_SUCCESS ? WIN(h) : MPI_WIN_NULL)

/* ---- windows ---- */

F_RMA(mpi_win_create, MPI_WIN_CREATE, WIN_CREATE,
      (void *base, MPI_Aint *size, F_INT *disp_unit, F_INT *info, F_INT *comm, F_INT *win),
      (base, size, disp_unit, info, comm, win),
      aug_rma_created(&ev, PMPI_Comm_f2c(*comm), NEWWIN(win), *size, *disp_unit, 0))
F_RMA(mpi_win_allocate, MPI_WIN_ALLOCATE, WIN_ALLOCATE,
      (MPI_Aint * size, F_INT *disp_unit, F_INT *info, F_INT *comm, void *baseptr, F_INT *win),
      (size, disp_unit, info, comm, baseptr, win),
      aug_rma_created(&ev, PMPI_Comm_f2c(*comm), NEWWIN(win), *size, *disp_unit, 0))
F_RMA(mpi_win_allocate_shared, MPI_WIN_ALLOCATE_SHARED, WIN_ALLOCATE_SHARED,
      (MPI_Aint * size, F_INT *disp_unit, F_INT *info, F_INT *comm, void *baseptr, F_INT *win),
      (size, disp_unit, info, comm, baseptr, win),
      aug_rma_created(&ev, PMPI_Comm_f2c(*comm), NEWWIN(win), *size, *disp_unit, 0))
F_RMA(mpi_win_create_dynamic, MPI_WIN_CREATE_DYNAMIC, WIN_CREATE_DYNAMIC,
      (F_INT * info, F_INT *comm, F_INT *win), (info, comm, win),
      aug_rma_created(&ev, PMPI_Comm_f2c(*comm), NEWWIN(win), 0, 0, 1))
F_RMA(mpi_win_attach, MPI_WIN_ATTACH, WIN_ATTACH, (F_INT * win, void *base, MPI_Aint *size),
      (win, base, size), aug_rma_sync(&ev, WIN(win), NT, 0, 0);
      ev.bytes = *size > 0 ? (uint64_t)*size : 0)
F_RMA(mpi_win_detach, MPI_WIN_DETACH, WIN_DETACH, (F_INT * win, void *base), (win, base),
      aug_rma_sync(&ev, WIN(win), NT, 0, 0))

/* Win_free: the window's id is taken before the call nulls the handle. */
typedef void (*win_free_fn)(F_INT *, F_INT *);
static aug_f_slot s_win_free = AUG_F_SLOT(mpi_win_free);

static void f_win_free(const void *caller, F_INT *win, F_INT *ierr) {
  win_free_fn real = (win_free_fn)aug_f_real(&s_win_free);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_WIN_FREE, caller)) {
    real(win, ierr);
    return;
  }
  aug_rma_freed(&ev, WIN(win));
  real(win, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_win_free, MPI_WIN_FREE, (F_INT * win, F_INT *ierr),
                f_win_free(AUG_CALLER(), win, ierr))

/* ---- synchronisation ---- */

F_RMA(mpi_win_fence, MPI_WIN_FENCE, WIN_FENCE, (F_INT * assert_, F_INT *win), (assert_, win),
      aug_rma_sync(&ev, WIN(win), NT, 0, *assert_))
F_RMA(mpi_win_post, MPI_WIN_POST, WIN_POST, (F_INT * group, F_INT *assert_, F_INT *win),
      (group, assert_, win), aug_rma_group(&ev, WIN(win), PMPI_Group_f2c(*group), *assert_))
F_RMA(mpi_win_start, MPI_WIN_START, WIN_START, (F_INT * group, F_INT *assert_, F_INT *win),
      (group, assert_, win), aug_rma_group(&ev, WIN(win), PMPI_Group_f2c(*group), *assert_))
F_RMA(mpi_win_complete, MPI_WIN_COMPLETE, WIN_COMPLETE, (F_INT * win), (win),
      aug_rma_sync(&ev, WIN(win), NT, 0, 0))
F_RMA(mpi_win_wait, MPI_WIN_WAIT, WIN_WAIT, (F_INT * win), (win),
      aug_rma_sync(&ev, WIN(win), NT, 0, 0))
/* flag is a Fortran LOGICAL: nonzero is .true. */
F_RMA(mpi_win_test, MPI_WIN_TEST, WIN_TEST, (F_INT * win, F_INT *flag), (win, flag),
      aug_rma_sync(&ev, WIN(win), NT, 0, 0);
      if (*ierr == MPI_SUCCESS && !*flag) ev.flags |= AUGUR_F_NOTDONE)
F_RMA(mpi_win_lock, MPI_WIN_LOCK, WIN_LOCK,
      (F_INT * lock_type, F_INT *rank, F_INT *assert_, F_INT *win), (lock_type, rank, assert_, win),
      aug_rma_sync(&ev, WIN(win), *rank, *lock_type, *assert_))
F_RMA(mpi_win_unlock, MPI_WIN_UNLOCK, WIN_UNLOCK, (F_INT * rank, F_INT *win), (rank, win),
      aug_rma_sync(&ev, WIN(win), *rank, 0, 0))
F_RMA(mpi_win_lock_all, MPI_WIN_LOCK_ALL, WIN_LOCK_ALL, (F_INT * assert_, F_INT *win),
      (assert_, win), aug_rma_sync(&ev, WIN(win), NT, 0, *assert_))
F_RMA(mpi_win_unlock_all, MPI_WIN_UNLOCK_ALL, WIN_UNLOCK_ALL, (F_INT * win), (win),
      aug_rma_sync(&ev, WIN(win), NT, 0, 0))
F_RMA(mpi_win_flush, MPI_WIN_FLUSH, WIN_FLUSH, (F_INT * rank, F_INT *win), (rank, win),
      aug_rma_sync(&ev, WIN(win), *rank, 0, 0))
F_RMA(mpi_win_flush_all, MPI_WIN_FLUSH_ALL, WIN_FLUSH_ALL, (F_INT * win), (win),
      aug_rma_sync(&ev, WIN(win), NT, 0, 0))
F_RMA(mpi_win_flush_local, MPI_WIN_FLUSH_LOCAL, WIN_FLUSH_LOCAL, (F_INT * rank, F_INT *win),
      (rank, win), aug_rma_sync(&ev, WIN(win), *rank, 0, 0))
F_RMA(mpi_win_flush_local_all, MPI_WIN_FLUSH_LOCAL_ALL, WIN_FLUSH_LOCAL_ALL, (F_INT * win), (win),
      aug_rma_sync(&ev, WIN(win), NT, 0, 0))
F_RMA(mpi_win_sync, MPI_WIN_SYNC, WIN_SYNC, (F_INT * win), (win),
      aug_rma_sync(&ev, WIN(win), NT, 0, 0))

/* ---- data ---- */

#define PG_PARAMS                                                                                  \
  (void *oaddr, F_INT *ocount, F_INT *odt, F_INT *target, MPI_Aint *tdisp, F_INT *tcount,          \
   F_INT *tdt, F_INT *win)
#define PG_ARGS (oaddr, ocount, odt, target, tdisp, tcount, tdt, win)
#define PG_REQ_PARAMS                                                                              \
  (void *oaddr, F_INT *ocount, F_INT *odt, F_INT *target, MPI_Aint *tdisp, F_INT *tcount,          \
   F_INT *tdt, F_INT *win, F_INT *req)
#define PG_REQ_ARGS (oaddr, ocount, odt, target, tdisp, tcount, tdt, win, req)
#define REQ         ev.req = aug_req_id(PMPI_Request_f2c(*req))

F_RMA(mpi_put, MPI_PUT, PUT, PG_PARAMS, PG_ARGS,
      aug_rma_data(&ev, WIN(win), *target, aug_bytes(*ocount, TYPE(odt)), 0))
F_RMA(mpi_get, MPI_GET, GET, PG_PARAMS, PG_ARGS,
      aug_rma_data(&ev, WIN(win), *target, 0, aug_bytes(*ocount, TYPE(odt))))
F_RMA(mpi_rput, MPI_RPUT, RPUT, PG_REQ_PARAMS, PG_REQ_ARGS,
      aug_rma_data(&ev, WIN(win), *target, aug_bytes(*ocount, TYPE(odt)), 0);
      REQ)
F_RMA(mpi_rget, MPI_RGET, RGET, PG_REQ_PARAMS, PG_REQ_ARGS,
      aug_rma_data(&ev, WIN(win), *target, 0, aug_bytes(*ocount, TYPE(odt)));
      REQ)

#define ACC_PARAMS                                                                                 \
  (void *oaddr, F_INT *ocount, F_INT *odt, F_INT *target, MPI_Aint *tdisp, F_INT *tcount,          \
   F_INT *tdt, F_INT *op, F_INT *win)
#define ACC_ARGS (oaddr, ocount, odt, target, tdisp, tcount, tdt, op, win)
F_RMA(mpi_accumulate, MPI_ACCUMULATE, ACCUMULATE, ACC_PARAMS, ACC_ARGS,
      aug_rma_data(&ev, WIN(win), *target, aug_rma_acc_bytes(*ocount, TYPE(odt), OP(op)), 0))
F_RMA(mpi_raccumulate, MPI_RACCUMULATE, RACCUMULATE,
      (void *oaddr, F_INT *ocount, F_INT *odt, F_INT *target, MPI_Aint *tdisp, F_INT *tcount,
       F_INT *tdt, F_INT *op, F_INT *win, F_INT *req),
      (oaddr, ocount, odt, target, tdisp, tcount, tdt, op, win, req),
      aug_rma_data(&ev, WIN(win), *target, aug_rma_acc_bytes(*ocount, TYPE(odt), OP(op)), 0);
      REQ)

#define GACC_PARAMS                                                                                \
  (void *oaddr, F_INT *ocount, F_INT *odt, void *raddr, F_INT *rcount, F_INT *rdt, F_INT *target,  \
   MPI_Aint *tdisp, F_INT *tcount, F_INT *tdt, F_INT *op, F_INT *win)
#define GACC_ARGS (oaddr, ocount, odt, raddr, rcount, rdt, target, tdisp, tcount, tdt, op, win)
#define GACC_FILL                                                                                  \
  aug_rma_data(&ev, WIN(win), *target, aug_rma_acc_bytes(*ocount, TYPE(odt), OP(op)),              \
               aug_bytes(*rcount, TYPE(rdt)))
F_RMA(mpi_get_accumulate, MPI_GET_ACCUMULATE, GET_ACCUMULATE, GACC_PARAMS, GACC_ARGS, GACC_FILL)
F_RMA(mpi_rget_accumulate, MPI_RGET_ACCUMULATE, RGET_ACCUMULATE,
      (void *oaddr, F_INT *ocount, F_INT *odt, void *raddr, F_INT *rcount, F_INT *rdt,
       F_INT *target, MPI_Aint *tdisp, F_INT *tcount, F_INT *tdt, F_INT *op, F_INT *win,
       F_INT *req),
      (oaddr, ocount, odt, raddr, rcount, rdt, target, tdisp, tcount, tdt, op, win, req), GACC_FILL;
      REQ)

F_RMA(mpi_fetch_and_op, MPI_FETCH_AND_OP, FETCH_AND_OP,
      (void *oaddr, void *raddr, F_INT *dt, F_INT *target, MPI_Aint *tdisp, F_INT *op, F_INT *win),
      (oaddr, raddr, dt, target, tdisp, op, win),
      aug_rma_data(&ev, WIN(win), *target, aug_rma_acc_bytes(1, TYPE(dt), OP(op)),
                   aug_bytes(1, TYPE(dt))))
/* The origin and the compare value both travel: bytes = 2 elements. */
F_RMA(mpi_compare_and_swap, MPI_COMPARE_AND_SWAP, COMPARE_AND_SWAP,
      (void *oaddr, void *caddr, void *raddr, F_INT *dt, F_INT *target, MPI_Aint *tdisp,
       F_INT *win),
      (oaddr, caddr, raddr, dt, target, tdisp, win),
      aug_rma_data(&ev, WIN(win), *target, aug_bytes(2, TYPE(dt)), aug_bytes(1, TYPE(dt))))
