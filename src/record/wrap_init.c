/* augur recorder — MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Abort.
 * The Fortran bindings (fortran_*.c) do the same through rec.h. */
#include "wrap.h"

AUGUR_API int MPI_Init(int *argc, char ***argv) {
  uint64_t t = aug_now();
  aug_counters_init_mark();
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) {
    aug_lifecycle_caller(AUG_CALLER());
    aug_lifecycle_init(-1, t);
  }
  return rc;
}

AUGUR_API int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  uint64_t t = aug_now();
  aug_counters_init_mark();
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) {
    aug_lifecycle_caller(AUG_CALLER());
    aug_lifecycle_init(*provided, t);
  }
  return rc;
}

AUGUR_API int MPI_Finalize(void) {
  aug_lifecycle_caller(AUG_CALLER());
  aug_lifecycle_finalize();
  return PMPI_Finalize();
}

AUGUR_API int MPI_Abort(MPI_Comm comm, int errorcode) {
  augur_event *ev = aug_rec_begin(AUGUR_EV_ABORT, AUG_CALLER());
  if (ev) {
    aug_rec_exit_in(ev);
    aug_rec_commit_in(ev);
  }
  aug_lifecycle_abort();
  return PMPI_Abort(comm, errorcode);
}
