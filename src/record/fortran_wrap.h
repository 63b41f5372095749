/* augur recorder — machinery shared by the Fortran wrappers (fortran_*.c).
 *
 * A Fortran code (mpif.h or `use mpi`; `use mpi_f08` has its own names, see
 * fortran_f08.h, whose wrappers forward to these) calls mpi_send_ (gfortran,
 * ifort, flang), mpi_send__ (g77/f2c style), MPI_SEND (upper-case
 * conventions) or mpi_send (xlf, -fno-underscoring), depending on its
 * compiler: we define all four, each a
 * thin function that passes its own return address (the application's call
 * site) and the arguments to one static implementation.
 *
 * The implementation calls the MPI library's own Fortran profiling entry
 * pmpi_send_ (resolved once with dlsym), so MPI_IN_PLACE, MPI_BOTTOM, status
 * and LOGICAL conversion stay the library's business. Handles are converted
 * with PMPI_*_f2c only to fill the event, so C and Fortran calls in one
 * program record the same communicator ids and request values. The library's
 * Fortran layer may call C MPI_* functions internally: the nesting rule of
 * rec.h makes those pass through unrecorded. Not a public API. */
#ifndef AUGUR_FORTRAN_WRAP_H
#define AUGUR_FORTRAN_WRAP_H

#include <mpi.h>
#include <stdatomic.h>

/* rec.h plus the C wrappers' shared helpers (sub-record pairs, matched-probe
 * and receive-hash bookkeeping, Comm_idup): using the same ones keeps C and
 * Fortran calls of one program recorded identically. */
#include "wrap.h"

/* Fortran argument types: everything is passed by reference. */
typedef MPI_Fint F_INT;

/* One Fortran status in MPI_Fint units (MPI_STATUS_SIZE): 5 in MPICH, 6 in
 * Open MPI. Both lay a Fortran status out as the C MPI_Status, which is also
 * what MPI-4's MPI_F_STATUS_SIZE says where the header defines it. */
#ifdef MPI_F_STATUS_SIZE
#define AUG_F_STATUS_SIZE MPI_F_STATUS_SIZE
#else
#define AUG_F_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#endif

/* Generic function pointer: casting it to the real prototype is well defined
 * and does not trip -Wcast-function-type. */
typedef void (*aug_f_fn)(void);

/* Lazily resolved pmpi_*_ entry of the MPI Fortran library. */
typedef struct aug_f_slot {
  const char *name; /* e.g. "pmpi_send_" */
  _Atomic(aug_f_fn) fn;
} aug_f_slot;

/* Static storage: fn starts NULL without being named (clang rejects NULL as
 * a constant initializer of an _Atomic function pointer). */
#define AUG_F_SLOT(lower)                                                                          \
  { .name = "p" #lower "_" }

/* Returns the resolved function; on the first call looks it up with
 * dlsym(RTLD_NEXT) then dlsym(RTLD_DEFAULT). Exits with a one-line message if
 * the MPI library has no such Fortran entry (nothing sensible to run). */
aug_f_fn aug_f_resolve(aug_f_slot *slot);
static inline aug_f_fn aug_f_real(aug_f_slot *slot) {
  aug_f_fn fn = atomic_load_explicit(&slot->fn, memory_order_acquire);
  return fn ? fn : aug_f_resolve(slot);
}

/* Status helpers. A Fortran status pointer that is MPI_F_STATUS_IGNORE is
 * replaced by `scratch` so the recorder still sees source/tag/count. */
MPI_Fint *aug_f_status_or(MPI_Fint *st, MPI_Fint *scratch);
/* Same for arrays (MPI_F_STATUSES_IGNORE); scratch holds enough statuses. */
MPI_Fint *aug_f_statuses_or(MPI_Fint *st, MPI_Fint *scratch);
/* Per-thread MPI_Fint scratch of n entries (NULL if out of memory). */
MPI_Fint *aug_f_scratch(int n);
/* Fortran status -> C status (PMPI_Status_f2c). */
void aug_f_status_c(const MPI_Fint *fst, MPI_Status *cst);
/* 1 if buf is the Fortran MPI_IN_PLACE of the running MPI library. */
int aug_f_in_place(const void *buf);
/* The C buffer argument equivalent to a Fortran one: the library's Fortran
 * MPI_IN_PLACE / MPI_BOTTOM become the C constants (MPI_BOTTOM is NULL), so
 * the C field helpers (hashing, in-place detection) treat them alike. */
const void *aug_f_cbuf(const void *buf);
/* Looks up where the library keeps its Fortran MPI_IN_PLACE and MPI_BOTTOM
 * (once; called by mpi_init_ / mpi_init_thread_, and lazily on first use). */
void aug_f_after_init(void);
/* Comm_free / Comm_disconnect (TYPE) through the library's entry in SLOT:
 * the communicator's release is recorded before the handle is nulled
 * (fortran_comm.c). */
void aug_f_comm_release(const void *caller, unsigned type, aug_f_slot *slot, F_INT *comm,
                        F_INT *ierr);

/* The application's call site for the spellings below. A Fortran 2008
 * binding (fortran_f08.c) forwards to one of them from inside the recorder,
 * so it hands over its own return address first (aug_f08_hand_over): the
 * first spelling reached takes that one instead of its own, once. */
extern _Thread_local const void *aug_f08_caller __attribute__((tls_model("initial-exec")));
static inline const void *aug_f_caller(const void *own) {
  const void *handed = aug_f08_caller;
  if (__builtin_expect(handed == NULL, 1)) return own;
  aug_f08_caller = NULL;
  return handed;
}
#undef AUG_CALLER
#define AUG_CALLER() aug_f_caller(__builtin_return_address(0))

/* Expands a parenthesised list without its parentheses. */
#define AUG_F_UNPAREN(...) __VA_ARGS__

/* Defines the four exported spellings of one Fortran binding. `params` is the
 * parenthesised parameter list, `call` the statement each spelling runs; it
 * may use AUG_CALLER(), which is the application's call site there. */
#define AUG_F_SPELLINGS(lower, UPPER, params, call)                                                \
  AUGUR_API void lower params;                                                                     \
  AUGUR_API void lower##_ params;                                                                  \
  AUGUR_API void lower##__ params;                                                                 \
  AUGUR_API void UPPER params;                                                                     \
  void lower params {                                                                              \
    call;                                                                                          \
  }                                                                                                \
  void lower##_ params {                                                                           \
    call;                                                                                          \
  }                                                                                                \
  void lower##__ params {                                                                          \
    call;                                                                                          \
  }                                                                                                \
  void UPPER params {                                                                              \
    call;                                                                                          \
  }

/* Real-call shorthand: `real` is an aug_f_fn, T the family's function type. */
#define AUG_F_CALL(T, real, ...) ((T)(real))(__VA_ARGS__)

#endif
