/* augur recorder — the Fortran 2008 bindings (`use mpi_f08`) of the
 * one-sided calls that fortran_rma.c records for `use mpi` (see
 * fortran_f08.h for the scheme). Win_allocate(_shared)'s baseptr is a
 * TYPE(C_PTR) in mpi_f08 and an INTEGER(KIND=MPI_ADDRESS_KIND) in `mpi`:
 * both one address-sized word by reference.
 *
 * Every choice buffer here outlives the call (a window's memory; an origin
 * or result buffer until the epoch's synchronisation), so all go through
 * F08TS: with MPICH a non-contiguous section goes to MPICH's own entry
 * (recorded as its C call), never through a temporary. */
#include "fortran_f08.h"

/* ---- windows ---- */

F08TS(win_create,
      (void *base, MPI_Aint *size, F_INT *disp_unit, F_INT *info, F_INT *comm, F_INT *win,
       F_INT *ierr),
      (base), (base, size, disp_unit, info, comm, win),
      (F08_B(base), size, disp_unit, info, comm, win))
F08(win_allocate,
    (MPI_Aint * size, F_INT *disp_unit, F_INT *info, F_INT *comm, void *baseptr, F_INT *win,
     F_INT *ierr),
    (size, disp_unit, info, comm, baseptr, win))
F08(win_allocate_shared,
    (MPI_Aint * size, F_INT *disp_unit, F_INT *info, F_INT *comm, void *baseptr, F_INT *win,
     F_INT *ierr),
    (size, disp_unit, info, comm, baseptr, win))
F08(win_create_dynamic, (F_INT * info, F_INT *comm, F_INT *win, F_INT *ierr), (info, comm, win))
F08TS(win_attach, (F_INT * win, void *base, MPI_Aint *size, F_INT *ierr), (base), (win, base, size),
      (win, F08_B(base), size))
F08TS(win_detach, (F_INT * win, void *base, F_INT *ierr), (base), (win, base), (win, F08_B(base)))
F08(win_free, (F_INT * win, F_INT *ierr), (win))

/* ---- synchronisation ---- */

F08(win_fence, (F_INT * assert_, F_INT *win, F_INT *ierr), (assert_, win))
F08(win_post, (F_INT * group, F_INT *assert_, F_INT *win, F_INT *ierr), (group, assert_, win))
F08(win_start, (F_INT * group, F_INT *assert_, F_INT *win, F_INT *ierr), (group, assert_, win))
F08(win_complete, (F_INT * win, F_INT *ierr), (win))
F08(win_wait, (F_INT * win, F_INT *ierr), (win))
F08(win_test, (F_INT * win, F_INT *flag, F_INT *ierr), (win, flag))
F08(win_lock, (F_INT * lock_type, F_INT *rank, F_INT *assert_, F_INT *win, F_INT *ierr),
    (lock_type, rank, assert_, win))
F08(win_unlock, (F_INT * rank, F_INT *win, F_INT *ierr), (rank, win))
F08(win_lock_all, (F_INT * assert_, F_INT *win, F_INT *ierr), (assert_, win))
F08(win_unlock_all, (F_INT * win, F_INT *ierr), (win))
F08(win_flush, (F_INT * rank, F_INT *win, F_INT *ierr), (rank, win))
F08(win_flush_all, (F_INT * win, F_INT *ierr), (win))
F08(win_flush_local, (F_INT * rank, F_INT *win, F_INT *ierr), (rank, win))
F08(win_flush_local_all, (F_INT * win, F_INT *ierr), (win))
F08(win_sync, (F_INT * win, F_INT *ierr), (win))

/* ---- data ---- */

#define F08_PG(fn)                                                                                 \
  F08TS(fn,                                                                                        \
        (void *oaddr, F_INT *ocount, F_INT *odt, F_INT *target, MPI_Aint *tdisp, F_INT *tcount,    \
         F_INT *tdt, F_INT *win, F_INT *ierr),                                                     \
        (oaddr), (oaddr, ocount, odt, target, tdisp, tcount, tdt, win),                            \
        (F08_B(oaddr), ocount, odt, target, tdisp, tcount, tdt, win))
#define F08_RPG(fn)                                                                                \
  F08TS(fn,                                                                                        \
        (void *oaddr, F_INT *ocount, F_INT *odt, F_INT *target, MPI_Aint *tdisp, F_INT *tcount,    \
         F_INT *tdt, F_INT *win, F_INT *req, F_INT *ierr),                                         \
        (oaddr), (oaddr, ocount, odt, target, tdisp, tcount, tdt, win, req),                       \
        (F08_B(oaddr), ocount, odt, target, tdisp, tcount, tdt, win, req))
F08_PG(put)
F08_PG(get)
F08_RPG(rput)
F08_RPG(rget)

F08TS(accumulate,
      (void *oaddr, F_INT *ocount, F_INT *odt, F_INT *target, MPI_Aint *tdisp, F_INT *tcount,
       F_INT *tdt, F_INT *op, F_INT *win, F_INT *ierr),
      (oaddr), (oaddr, ocount, odt, target, tdisp, tcount, tdt, op, win),
      (F08_B(oaddr), ocount, odt, target, tdisp, tcount, tdt, op, win))
F08TS(raccumulate,
      (void *oaddr, F_INT *ocount, F_INT *odt, F_INT *target, MPI_Aint *tdisp, F_INT *tcount,
       F_INT *tdt, F_INT *op, F_INT *win, F_INT *req, F_INT *ierr),
      (oaddr), (oaddr, ocount, odt, target, tdisp, tcount, tdt, op, win, req),
      (F08_B(oaddr), ocount, odt, target, tdisp, tcount, tdt, op, win, req))
F08TS(get_accumulate,
      (void *oaddr, F_INT *ocount, F_INT *odt, void *raddr, F_INT *rcount, F_INT *rdt,
       F_INT *target, MPI_Aint *tdisp, F_INT *tcount, F_INT *tdt, F_INT *op, F_INT *win,
       F_INT *ierr),
      (oaddr, raddr), (oaddr, ocount, odt, raddr, rcount, rdt, target, tdisp, tcount, tdt, op, win),
      (F08_B(oaddr), ocount, odt, F08_B(raddr), rcount, rdt, target, tdisp, tcount, tdt, op, win))
F08TS(rget_accumulate,
      (void *oaddr, F_INT *ocount, F_INT *odt, void *raddr, F_INT *rcount, F_INT *rdt,
       F_INT *target, MPI_Aint *tdisp, F_INT *tcount, F_INT *tdt, F_INT *op, F_INT *win, F_INT *req,
       F_INT *ierr),
      (oaddr, raddr),
      (oaddr, ocount, odt, raddr, rcount, rdt, target, tdisp, tcount, tdt, op, win, req),
      (F08_B(oaddr), ocount, odt, F08_B(raddr), rcount, rdt, target, tdisp, tcount, tdt, op, win,
       req))
F08TS(fetch_and_op,
      (void *oaddr, void *raddr, F_INT *dt, F_INT *target, MPI_Aint *tdisp, F_INT *op, F_INT *win,
       F_INT *ierr),
      (oaddr, raddr), (oaddr, raddr, dt, target, tdisp, op, win),
      (F08_B(oaddr), F08_B(raddr), dt, target, tdisp, op, win))
F08TS(compare_and_swap,
      (void *oaddr, void *caddr, void *raddr, F_INT *dt, F_INT *target, MPI_Aint *tdisp, F_INT *win,
       F_INT *ierr),
      (oaddr, caddr, raddr), (oaddr, caddr, raddr, dt, target, tdisp, win),
      (F08_B(oaddr), F08_B(caddr), F08_B(raddr), dt, target, tdisp, win))
