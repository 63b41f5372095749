/* augur recorder — neighbourhood collectives (rec_neigh.c), shared by the C
 * wrappers (wrap_neigh.c) and the Fortran ones (fortran_neigh.c).
 *
 * A neighbourhood collective is recorded as its parent event (comm, bytes =
 * Σ sent, bytes_recv = Σ received, aux = outdegree + indegree) followed by
 * one NEIGH_SEND sub-record per out-neighbour and one NEIGH_RECV per
 * in-neighbour, in the topology's order (docs/trace-format.md,
 * "Neighbourhood and process records"). */
#ifndef AUGUR_NEIGH_H
#define AUGUR_NEIGH_H

#include "wrap.h"

/* One side (send or receive) of a neighbourhood collective: the same COUNT
 * of DT for every neighbour (COUNTS NULL), or COUNTS[i] of DT, or COUNTS[i]
 * of DTS[i] (C handles) or of FDTS[i] (Fortran handles). */
typedef struct aug_neigh_side {
  int count;
  const int *counts;
  MPI_Datatype dt;
  const MPI_Datatype *dts;
  const MPI_Fint *fdts;
} aug_neigh_side;

/* Fills EV (a NEIGHBOR_* / INEIGHBOR_* parent, after aug_rec_exit) for a call
 * on COMM and commits it with its sub-records. The neighbours come from
 * COMM's topology (Cart: −1 then +1 neighbour of each dimension; graph;
 * distributed graph); MPI_PROC_NULL neighbours get a sub-record with peer
 * AUGUR_PEER_PROC_NULL and 0 bytes and count in no sum. A communicator
 * without a topology (the call failed) gets the parent alone, aux 0. */
void aug_neigh_commit(augur_event *ev, MPI_Comm comm, const aug_neigh_side *send,
                      const aug_neigh_side *recv);

/* Comm_spawn(_multiple), connect, accept, join, after the call: comm = the
 * parent's id, req = INTER's id (0 when its other side is outside our world,
 * or the call failed: RC), aux = INTER's remote size, F_ROOT when this rank
 * is ROOT of PARENT. */
void aug_process_fill(augur_event *ev, MPI_Comm parent, int root, int rc, MPI_Comm inter);

#endif
