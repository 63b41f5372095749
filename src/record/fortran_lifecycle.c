/* augur recorder — Fortran MPI_Init, MPI_Init_thread, MPI_Finalize,
 * MPI_Abort. A Fortran program never calls the C MPI_Init, so these do what
 * wrap_init.c does: open the trace after the library is initialised, close it
 * before the library finalises. aug_lifecycle_fortran brackets each of them
 * so the INIT / FINALIZE event gets the Fortran call site and flag even when
 * the library's Fortran layer goes through our C MPI_Init wrapper (MPICH). */
#include "fortran_wrap.h"

typedef void (*init_fn)(F_INT *);
static aug_f_slot s_init = AUG_F_SLOT(mpi_init);

static void f_init(const void *caller, F_INT *ierr) {
  init_fn real = (init_fn)aug_f_real(&s_init);
  uint64_t t = aug_now();
  aug_counters_init_mark();
  aug_lifecycle_fortran(caller);
  real(ierr);
  if (*ierr == MPI_SUCCESS) {
    aug_f_after_init();
    aug_lifecycle_init(-1, t); /* no-op if the C MPI_Init wrapper already ran */
  }
  aug_lifecycle_fortran(NULL);
}

AUG_F_SPELLINGS(mpi_init, MPI_INIT, (F_INT * ierr), f_init(AUG_CALLER(), ierr))

typedef void (*init_thread_fn)(F_INT *, F_INT *, F_INT *);
static aug_f_slot s_init_thread = AUG_F_SLOT(mpi_init_thread);

static void f_init_thread(const void *caller, F_INT *required, F_INT *provided, F_INT *ierr) {
  init_thread_fn real = (init_thread_fn)aug_f_real(&s_init_thread);
  uint64_t t = aug_now();
  aug_counters_init_mark();
  aug_lifecycle_fortran(caller);
  real(required, provided, ierr);
  if (*ierr == MPI_SUCCESS) {
    aug_f_after_init();
    aug_lifecycle_init(*provided, t);
  }
  aug_lifecycle_fortran(NULL);
}

AUG_F_SPELLINGS(mpi_init_thread, MPI_INIT_THREAD, (F_INT * required, F_INT *provided, F_INT *ierr),
                f_init_thread(AUG_CALLER(), required, provided, ierr))

typedef void (*finalize_fn)(F_INT *);
static aug_f_slot s_finalize = AUG_F_SLOT(mpi_finalize);

/* The trace is closed before the library's finalize runs, so whatever C
 * MPI_Finalize it calls finds recording already over. */
static void f_finalize(const void *caller, F_INT *ierr) {
  finalize_fn real = (finalize_fn)aug_f_real(&s_finalize);
  aug_lifecycle_fortran(caller);
  aug_lifecycle_finalize();
  aug_lifecycle_fortran(NULL);
  real(ierr);
}

AUG_F_SPELLINGS(mpi_finalize, MPI_FINALIZE, (F_INT * ierr), f_finalize(AUG_CALLER(), ierr))

typedef void (*abort_fn)(F_INT *, F_INT *, F_INT *);
static aug_f_slot s_abort = AUG_F_SLOT(mpi_abort);

static void f_abort(const void *caller, F_INT *comm, F_INT *code, F_INT *ierr) {
  abort_fn real = (abort_fn)aug_f_real(&s_abort);
  augur_event ev;
  if (aug_rec_enter(&ev, AUGUR_EV_ABORT, caller)) {
    aug_rec_exit(&ev);
    ev.flags |= AUGUR_F_FORTRAN;
    aug_rec_commit(&ev);
  }
  aug_lifecycle_abort();
  real(comm, code, ierr);
}

AUG_F_SPELLINGS(mpi_abort, MPI_ABORT, (F_INT * comm, F_INT *code, F_INT *ierr),
                f_abort(AUG_CALLER(), comm, code, ierr))
