/* augur recorder — communicator and topology constructors.
 * Each records the parent communicator in `comm` and the new one's id in
 * `req`, and defines the new communicator (members, topology) in the trace. */
#include "wrap.h"

#define COMM_WRAPPER(NAME, TYPE, KIND, PARAMS, ARGS, PARENT, NEWCOMM)                              \
  AUGUR_API int MPI_##NAME(AUG_UNPAREN PARAMS) {                                                   \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_##NAME(AUG_UNPAREN ARGS));                                      \
    aug_comm_created(ev, PARENT, rc == MPI_SUCCESS ? *(NEWCOMM) : MPI_COMM_NULL,                   \
                     AUGUR_COMM_KIND_##KIND);                                                      \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }

COMM_WRAPPER(Comm_dup, COMM_DUP, DUP, (MPI_Comm comm, MPI_Comm *newcomm), (comm, newcomm), comm,
             newcomm)
COMM_WRAPPER(Comm_split, COMM_SPLIT, SPLIT, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm),
             (comm, color, key, newcomm), comm, newcomm)
COMM_WRAPPER(Comm_split_type, COMM_SPLIT_TYPE, SPLIT_TYPE,
             (MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm),
             (comm, type, key, info, newcomm), comm, newcomm)
COMM_WRAPPER(Comm_create, COMM_CREATE, CREATE, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm),
             (comm, group, newcomm), comm, newcomm)
COMM_WRAPPER(Cart_create, CART_CREATE, CART,
             (MPI_Comm old, int ndims, const int dims[], const int periods[], int reorder,
              MPI_Comm *newcomm),
             (old, ndims, dims, periods, reorder, newcomm), old, newcomm)
COMM_WRAPPER(Cart_sub, CART_SUB, CART_SUB,
             (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm),
             (comm, remain_dims, newcomm), comm, newcomm)
COMM_WRAPPER(Graph_create, GRAPH_CREATE, GRAPH,
             (MPI_Comm old, int nnodes, const int index[], const int edges[], int reorder,
              MPI_Comm *newcomm),
             (old, nnodes, index, edges, reorder, newcomm), old, newcomm)
COMM_WRAPPER(Dist_graph_create, DIST_GRAPH_CREATE, DIST_GRAPH,
             (MPI_Comm old, int n, const int sources[], const int degrees[], const int dests[],
              const int weights[], MPI_Info info, int reorder, MPI_Comm *newcomm),
             (old, n, sources, degrees, dests, weights, info, reorder, newcomm), old, newcomm)
COMM_WRAPPER(Dist_graph_create_adjacent, DIST_GRAPH_CREATE_ADJACENT, DIST_GRAPH,
             (MPI_Comm old, int indegree, const int sources[], const int sourceweights[],
              int outdegree, const int dests[], const int destweights[], MPI_Info info, int reorder,
              MPI_Comm *newcomm),
             (old, indegree, sources, sourceweights, outdegree, dests, destweights, info, reorder,
              newcomm),
             old, newcomm)
COMM_WRAPPER(Intercomm_create, INTERCOMM_CREATE, INTERCOMM,
             (MPI_Comm local, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
              MPI_Comm *newcomm),
             (local, local_leader, peer_comm, remote_leader, tag, newcomm), local, newcomm)
COMM_WRAPPER(Intercomm_merge, INTERCOMM_MERGE, MERGE, (MPI_Comm inter, int high, MPI_Comm *newcomm),
             (inter, high, newcomm), inter, newcomm)

/* The new handle is usable only after the request completes: the id is made
 * now, the handle mapped at completion (see comm.c). */
AUGUR_API int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request) {
  AUG_WRAP(AUGUR_EV_COMM_IDUP, PMPI_Comm_idup(comm, newcomm, request));
  if (rc == MPI_SUCCESS) aug_comm_idup_started(ev, comm, newcomm, *request);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Comm_free(MPI_Comm *comm) {
  augur_event *ev = aug_rec_begin(AUGUR_EV_COMM_FREE, AUG_CALLER());
  if (!ev) return PMPI_Comm_free(comm);
  aug_comm_freed(ev, *comm); /* before: the handle is MPI_COMM_NULL afterwards */
  int rc = PMPI_Comm_free(comm);
  aug_rec_exit_in(ev);
  aug_rec_commit_in(ev);
  return rc;
}
