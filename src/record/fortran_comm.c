/* augur recorder — Fortran bindings of the communicator and topology
 * constructors, Comm_idup and Comm_free. As in wrap_comm.c: `comm` is the
 * parent, `req` the new communicator's id, and the new communicator is
 * defined in the trace (members, topology). */
#include <stdatomic.h>

#include "fortran_wrap.h"

#define CC(h) PMPI_Comm_f2c(*(h))

/* PARAMS/ARGS exclude ierr; PARENT and NEWCOMM name Fortran handle pointers. */
#define F_COMM(lower, UPPER, TYPE, KIND, PARAMS, ARGS, PARENT, NEWCOMM)                            \
  typedef void (*lower##_fn)(AUG_F_UNPAREN PARAMS, F_INT * ierr);                                  \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower);                                                 \
  static void f_##lower(const void *caller, AUG_F_UNPAREN PARAMS, F_INT *ierr) {                   \
    lower##_fn real = (lower##_fn)aug_f_real(&s_##lower);                                          \
    augur_event ev;                                                                                \
    int rec = aug_rec_enter(&ev, AUGUR_EV_##TYPE, caller);                                         \
    real(AUG_F_UNPAREN ARGS, ierr);                                                                \
    if (!rec) return;                                                                              \
    aug_rec_exit(&ev);                                                                             \
    ev.flags |= AUGUR_F_FORTRAN;                                                                   \
    aug_comm_created(&ev, CC(PARENT), *ierr == MPI_SUCCESS ? CC(NEWCOMM) : MPI_COMM_NULL,          \
                     AUGUR_COMM_KIND_##KIND);                                                      \
    aug_rec_commit(&ev);                                                                           \
  }                                                                                                \
  AUG_F_SPELLINGS(lower, UPPER, (AUG_F_UNPAREN PARAMS, F_INT * ierr),                              \
                  f_##lower(AUG_CALLER(), AUG_F_UNPAREN ARGS, ierr))

F_COMM(mpi_comm_dup, MPI_COMM_DUP, COMM_DUP, DUP, (F_INT * comm, F_INT *newcomm), (comm, newcomm),
       comm, newcomm)
F_COMM(mpi_comm_split, MPI_COMM_SPLIT, COMM_SPLIT, SPLIT,
       (F_INT * comm, F_INT *color, F_INT *key, F_INT *newcomm), (comm, color, key, newcomm), comm,
       newcomm)
F_COMM(mpi_comm_split_type, MPI_COMM_SPLIT_TYPE, COMM_SPLIT_TYPE, SPLIT_TYPE,
       (F_INT * comm, F_INT *type, F_INT *key, F_INT *info, F_INT *newcomm),
       (comm, type, key, info, newcomm), comm, newcomm)
F_COMM(mpi_comm_create, MPI_COMM_CREATE, COMM_CREATE, CREATE,
       (F_INT * comm, F_INT *group, F_INT *newcomm), (comm, group, newcomm), comm, newcomm)
F_COMM(mpi_cart_create, MPI_CART_CREATE, CART_CREATE, CART,
       (F_INT * old, F_INT *ndims, F_INT *dims, F_INT *periods, F_INT *reorder, F_INT *newcomm),
       (old, ndims, dims, periods, reorder, newcomm), old, newcomm)
F_COMM(mpi_cart_sub, MPI_CART_SUB, CART_SUB, CART_SUB,
       (F_INT * comm, F_INT *remain_dims, F_INT *newcomm), (comm, remain_dims, newcomm), comm,
       newcomm)
F_COMM(mpi_graph_create, MPI_GRAPH_CREATE, GRAPH_CREATE, GRAPH,
       (F_INT * old, F_INT *nnodes, F_INT *index, F_INT *edges, F_INT *reorder, F_INT *newcomm),
       (old, nnodes, index, edges, reorder, newcomm), old, newcomm)
F_COMM(mpi_dist_graph_create, MPI_DIST_GRAPH_CREATE, DIST_GRAPH_CREATE, DIST_GRAPH,
       (F_INT * old, F_INT *n, F_INT *sources, F_INT *degrees, F_INT *dests, F_INT *weights,
        F_INT *info, F_INT *reorder, F_INT *newcomm),
       (old, n, sources, degrees, dests, weights, info, reorder, newcomm), old, newcomm)
F_COMM(mpi_dist_graph_create_adjacent, MPI_DIST_GRAPH_CREATE_ADJACENT, DIST_GRAPH_CREATE_ADJACENT,
       DIST_GRAPH,
       (F_INT * old, F_INT *indegree, F_INT *sources, F_INT *sourceweights, F_INT *outdegree,
        F_INT *dests, F_INT *destweights, F_INT *info, F_INT *reorder, F_INT *newcomm),
       (old, indegree, sources, sourceweights, outdegree, dests, destweights, info, reorder,
        newcomm),
       old, newcomm)
F_COMM(mpi_intercomm_create, MPI_INTERCOMM_CREATE, INTERCOMM_CREATE, INTERCOMM,
       (F_INT * local, F_INT *local_leader, F_INT *peer_comm, F_INT *remote_leader, F_INT *tag,
        F_INT *newcomm),
       (local, local_leader, peer_comm, remote_leader, tag, newcomm), local, newcomm)
F_COMM(mpi_intercomm_merge, MPI_INTERCOMM_MERGE, INTERCOMM_MERGE, MERGE,
       (F_INT * inter, F_INT *high, F_INT *newcomm), (inter, high, newcomm), inter, newcomm)

/* Comm_idup: comm.c maps the new handle when the request completes and reads
 * it through the pointer given at the call. A Fortran handle is not a C one
 * (Open MPI), so the C handle, valid as soon as the call returns in both
 * libraries, is kept in a cell of this ring; more than IDUP_CELLS idups in
 * flight at once would reuse a cell still waited for. */
#define IDUP_CELLS 256
static MPI_Comm idup_cells[IDUP_CELLS];
static atomic_uint idup_next;

typedef void (*comm_idup_fn)(F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_comm_idup = AUG_F_SLOT(mpi_comm_idup);

static void f_comm_idup(const void *caller, F_INT *comm, F_INT *newcomm, F_INT *req, F_INT *ierr) {
  comm_idup_fn real = (comm_idup_fn)aug_f_real(&s_comm_idup);
  augur_event ev;
  int rec = aug_rec_enter(&ev, AUGUR_EV_COMM_IDUP, caller);
  real(comm, newcomm, req, ierr);
  if (!rec) return;
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  MPI_Request creq = PMPI_Request_f2c(*req);
  if (*ierr == MPI_SUCCESS) {
    MPI_Comm *cell = &idup_cells[atomic_fetch_add(&idup_next, 1u) % IDUP_CELLS];
    *cell = CC(newcomm);
    aug_comm_idup_started(&ev, CC(comm), cell, creq);
  }
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_comm_idup, MPI_COMM_IDUP,
                (F_INT * comm, F_INT *newcomm, F_INT *req, F_INT *ierr),
                f_comm_idup(AUG_CALLER(), comm, newcomm, req, ierr))

typedef void (*comm_release_fn)(F_INT *, F_INT *);
static aug_f_slot s_comm_free = AUG_F_SLOT(mpi_comm_free);

void aug_f_comm_release(const void *caller, unsigned type, aug_f_slot *slot, F_INT *comm,
                        F_INT *ierr) {
  comm_release_fn real = (comm_release_fn)aug_f_real(slot);
  augur_event ev;
  if (!aug_rec_enter(&ev, type, caller)) {
    real(comm, ierr);
    return;
  }
  aug_comm_freed(&ev, CC(comm)); /* before: the handle is MPI_COMM_NULL afterwards */
  real(comm, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  aug_rec_commit(&ev);
}

static void f_comm_free(const void *caller, F_INT *comm, F_INT *ierr) {
  aug_f_comm_release(caller, AUGUR_EV_COMM_FREE, &s_comm_free, comm, ierr);
}

AUG_F_SPELLINGS(mpi_comm_free, MPI_COMM_FREE, (F_INT * comm, F_INT *ierr),
                f_comm_free(AUG_CALLER(), comm, ierr))
