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

/* The choice buffers of one call, as the `mpi` bindings take them: an
 * address each. With Open MPI that is the argument itself (the compiler
 * already copied a non-contiguous section into a temporary, as for
 * `use mpi`). MPICH passes descriptors: a contiguous one gives its base
 * address (MPI_IN_PLACE / MPI_BOTTOM for the f08 constants); a
 * non-contiguous section of a blocking call is copied into a temporary (and
 * back after the call if the call writes it), which is what gfortran does
 * for the `mpi` bindings' DIMENSION(*) buffers; a nonblocking call cannot
 * use a temporary, so it goes to MPICH's own f08 entry instead. */
#define AUG_F08_MAXBUFS 3 /* MPI_Compare_and_swap's origin, compare, result */
typedef struct aug_f08_bufs {
  int n;
  void *desc[AUG_F08_MAXBUFS]; /* the arguments */
  void *addr[AUG_F08_MAXBUFS]; /* what the `mpi` binding gets */
  void *tmp[AUG_F08_MAXBUFS];  /* malloc'd copy of a section, or NULL */
  int out[AUG_F08_MAXBUFS];    /* the call writes it: copy back */
} aug_f08_bufs;
/* Fills b from the call's buffers: ins are only read, outs written (NULL
 * entries are skipped); copy: 1 for a blocking call. Returns 0 when the call
 * must go to the library's own entry (a nonblocking call with a
 * non-contiguous section, or no memory for the copy). */
int aug_f08_prepare(aug_f08_bufs *b, void *const *ins, int nin, void *const *outs, int nout,
                    int copy);
/* The address for argument desc (one of those given to aug_f08_prepare). */
void *aug_f08_addr(const aug_f08_bufs *b, void *desc);
/* After the call: copies the written sections back, frees the copies. */
void aug_f08_finish(aug_f08_bufs *b);
#define AUG_F08_LIST(...) ((void *const[]){__VA_ARGS__})
#define AUG_F08_N(...)    ((int)(sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *)))
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

/* A binding with choice buffers: INS (parameter names of the buffers it
 * reads) and OUTS (those it writes); (NULL) for none. F08TS_B is a blocking
 * call, F08TS a nonblocking one (BUFS: all its buffers). NAMES are all
 * parameter names but ierr, for MPICH's own entry (aug_f08_prepare); ARGS
 * convert buffers with F08_B(). */
#if defined(MPICH)
#define F08TS_ANY(fn, PARAMS, INS, OUTS, COPY, NAMES, ARGS)                                        \
  typedef void(*fn##_f08ts_fn) PARAMS;                                                             \
  static aug_f_slot s08_##fn = {.name = "pmpir_" #fn "_f08ts_"};                                   \
  void mpi_##fn##_ PARAMS;                                                                         \
  AUGUR_API void mpi_##fn##_f08ts_ PARAMS;                                                         \
  void mpi_##fn##_f08ts_ PARAMS {                                                                  \
    aug_f08_bufs f08_bufs;                                                                         \
    if (!aug_f08_prepare(&f08_bufs, AUG_F08_LIST INS, AUG_F08_N INS, AUG_F08_LIST OUTS,            \
                         AUG_F08_N OUTS, COPY)) {                                                  \
      ((fn##_f08ts_fn)aug_f_real(&s08_##fn))(AUG_F_UNPAREN NAMES, ierr);                           \
      return;                                                                                      \
    }                                                                                              \
    F08_FORWARD(fn, (AUG_F_UNPAREN ARGS, F08_IERRP));                                              \
    aug_f08_finish(&f08_bufs);                                                                     \
  }
#define F08TS_B(fn, PARAMS, INS, OUTS, NAMES, ARGS) F08TS_ANY(fn, PARAMS, INS, OUTS, 1, NAMES, ARGS)
#define F08TS(fn, PARAMS, BUFS, NAMES, ARGS)        F08TS_ANY(fn, PARAMS, BUFS, (NULL), 0, NAMES, ARGS)
#define F08_B(buf)                                  aug_f08_addr(&f08_bufs, buf)
#else
#define F08TS_B(fn, PARAMS, INS, OUTS, NAMES, ARGS) F08(fn, PARAMS, ARGS)
#define F08TS(fn, PARAMS, BUFS, NAMES, ARGS)        F08(fn, PARAMS, ARGS)
#define F08_B(buf)                                  (buf)
#endif

/* A blocking collective and its nonblocking twin i##fn (a request before
 * ierr): PARAMS without ierr. */
#define F08_COLL(fn, PARAMS, INS, OUTS, NAMES, ARGS)                                               \
  F08TS_B(fn, (AUG_F_UNPAREN PARAMS, F_INT * ierr), INS, OUTS, NAMES, ARGS)                        \
  F08TS(i##fn, (AUG_F_UNPAREN PARAMS, F_INT * req, F_INT * ierr),                                  \
        (AUG_F_UNPAREN INS, AUG_F_UNPAREN OUTS), (AUG_F_UNPAREN NAMES, req),                       \
        (AUG_F_UNPAREN ARGS, req))

/* The all-to-all shapes (regular and neighbourhood collectives alike). */
#define F08_ALL(fn)                                                                                \
  F08_COLL(                                                                                        \
      fn,                                                                                          \
      (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcount, F_INT *rdt, F_INT *comm), \
      (sbuf), (rbuf), (sbuf, scount, sdt, rbuf, rcount, rdt, comm),                                \
      (F08_B(sbuf), scount, sdt, F08_B(rbuf), rcount, rdt, comm))
#define F08_ALLGV(fn)                                                                              \
  F08_COLL(fn,                                                                                     \
           (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcounts, F_INT *displs,      \
            F_INT *rdt, F_INT *comm),                                                              \
           (sbuf), (rbuf), (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm),                  \
           (F08_B(sbuf), scount, sdt, F08_B(rbuf), rcounts, displs, rdt, comm))
/* Alltoallv's shape: counts and displacements per peer, one datatype each way. */
#define F08_ALLV(fn)                                                                               \
  F08_COLL(fn,                                                                                     \
           (void *sbuf, F_INT *scounts, F_INT *sdispls, F_INT *sdt, void *rbuf, F_INT *rcounts,    \
            F_INT *rdispls, F_INT *rdt, F_INT *comm),                                              \
           (sbuf), (rbuf), (sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm),       \
           (F08_B(sbuf), scounts, sdispls, sdt, F08_B(rbuf), rcounts, rdispls, rdt, comm))

#define F08_ST(st)   aug_f08_status(st)
#define F08_STS(sts) aug_f08_statuses(sts)

#endif
