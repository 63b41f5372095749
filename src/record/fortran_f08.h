/* augur recorder — the Fortran 2008 bindings (`use mpi_f08`), shared by
 * fortran_f08*.c. Not a public API.
 *
 * A `use mpi_f08` program calls each MPI procedure under its own external
 * name, which differs by library (found with `nm -D` on Debian 12):
 *
 *   Open MPI 4.1 (libmpi_usempif08.so)  mpi_send_f08_        profiling: pmpi_send_f08_
 *   MPICH 4.0 (libmpichfort.so)         mpi_send_f08ts_      profiling: pmpir_send_f08ts_
 *                                       (choice buffers: "ts"), mpi_barrier_f08_ (none)
 *
 * Their arguments are passed as in the `mpi` bindings (by reference;
 * TYPE(MPI_Comm) and the other handle types are one INTEGER MPI_VAL, so a
 * handle is an MPI_Fint; TYPE(MPI_Status) is laid out like the `mpi` status
 * array), except:
 *   - the optional ierror is a NULL pointer when the caller leaves it out;
 *   - MPICH's choice buffers (TYPE(*), DIMENSION(..)) arrive as gfortran's
 *     own array descriptor (base address first), not as an address; Open
 *     MPI's (ignore-TKR, DIMENSION(*)) are plain addresses;
 *   - MPICH's mpi_f08 has its own MPI_IN_PLACE, MPI_BOTTOM,
 *     MPI_STATUS(ES)_IGNORE and MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY objects;
 *     Open MPI's are those of the `mpi` bindings.
 *
 * So each f08 wrapper converts its arguments to the `mpi` form (this
 * header's aug_f08_* functions; identities for Open MPI) and calls the
 * recorder's own `mpi` spelling (mpi_send_), which records the call exactly
 * as for a `use mpi` program, after handing over the application's call site
 * (aug_f08_hand_over; fortran_wrap.h's AUG_CALLER takes it). */
#ifndef AUGUR_FORTRAN_F08_H
#define AUGUR_FORTRAN_F08_H

#include "fortran_wrap.h"

/* The next Fortran spelling reached on this thread records `caller` as its
 * call site (fortran_wrap.h's aug_f_caller consumes it). */
static inline void aug_f08_hand_over(const void *caller) {
  aug_f08_caller = caller;
}

/* 1 if every choice buffer of a call can be passed to the `mpi` binding as
 * an address: always with Open MPI; with MPICH, when its descriptor
 * describes contiguous memory (a scalar, a whole array, a contiguous
 * section). Otherwise the wrapper passes the call to the library's own f08
 * entry, which builds a datatype for the section. */
int aug_f08_fit(void *const *bufs, int n);
#define AUG_F08_FIT(...)                                                                           \
  aug_f08_fit((void *const[]){__VA_ARGS__},                                                        \
              (int)(sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *)))
/* The `mpi` binding's buffer argument for an f08 choice buffer that fits:
 * its address, MPI_IN_PLACE / MPI_BOTTOM for the f08 constants. */
void *aug_f08_buf(void *buf);
/* The `mpi` binding's MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE for the f08
 * ones; any other status pointer unchanged. */
F_INT *aug_f08_status(F_INT *st);
F_INT *aug_f08_statuses(F_INT *sts);
/* Dist_graph weights: the f08 MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY as the
 * `mpi` binding passes them on (the C constants). */
F_INT *aug_f08_weights(F_INT *w);

/* ---- the wrapper macros: one line per binding (fortran_f08.c; a new
 * family's f08 bindings use them the same way in their own file) ---- */

/* The body of every binding: hands over the application's call site (the
 * return address of the exported function, where this is expanded) and
 * calls the `mpi` spelling with CALLARGS, in which F08_IERRP is the
 * application's ierr or, when it left it out (NULL), our own. */
#define F08_IERRP (ierr ? ierr : &own_ierr)
#define F08_FORWARD(fn, CALLARGS)                                                                  \
  F_INT own_ierr;                                                                                  \
  aug_f08_hand_over(__builtin_return_address(0));                                                  \
  mpi_##fn##_ CALLARGS

/* A binding without choice buffer, mpi_NAME_f08_ in both libraries. PARAMS
 * end with ierr; ARGS are the `mpi` spelling's arguments but ierr. */
#define F08_DEF(fn, PARAMS, CALLARGS)                                                              \
  void mpi_##fn##_ PARAMS;                                                                         \
  AUGUR_API void mpi_##fn##_f08_ PARAMS;                                                           \
  void mpi_##fn##_f08_ PARAMS {                                                                    \
    F08_FORWARD(fn, CALLARGS);                                                                     \
  }
#define F08(fn, PARAMS, ARGS) F08_DEF(fn, PARAMS, (AUG_F_UNPAREN ARGS, F08_IERRP))
/* A binding whose only argument is ierr. */
#define F08_IERR(fn) F08_DEF(fn, (F_INT * ierr), (F08_IERRP))

/* A binding with choice buffers BUFS (their parameter names); NAMES are all
 * parameter names but ierr, for MPICH's own entry when a buffer is a
 * non-contiguous section; ARGS convert buffers with F08_B(). */
#if defined(MPICH)
#define F08TS(fn, PARAMS, BUFS, NAMES, ARGS)                                                       \
  typedef void(*fn##_f08ts_fn) PARAMS;                                                             \
  static aug_f_slot s08_##fn = {.name = "pmpir_" #fn "_f08ts_"};                                   \
  void mpi_##fn##_ PARAMS;                                                                         \
  AUGUR_API void mpi_##fn##_f08ts_ PARAMS;                                                         \
  void mpi_##fn##_f08ts_ PARAMS {                                                                  \
    if (!AUG_F08_FIT BUFS) {                                                                       \
      ((fn##_f08ts_fn)aug_f_real(&s08_##fn))(AUG_F_UNPAREN NAMES, ierr);                           \
      return;                                                                                      \
    }                                                                                              \
    F08_FORWARD(fn, (AUG_F_UNPAREN ARGS, F08_IERRP));                                              \
  }
#else
#define F08TS(fn, PARAMS, BUFS, NAMES, ARGS) F08(fn, PARAMS, ARGS)
#endif

#define F08_B(buf)   aug_f08_buf(buf)
#define F08_ST(st)   aug_f08_status(st)
#define F08_STS(sts) aug_f08_statuses(sts)

#endif
