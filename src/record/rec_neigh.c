/* augur recorder — neighbour lists and byte accounting of the
 * neighbourhood collectives (neigh.h). The lists are read from the
 * communicator's topology at every call (MPI_Topo_test, then Cart_shift,
 * Graph_neighbors or Dist_graph_neighbors) into the thread's scratch: no
 * lock, no allocation once the scratch is large enough. */
#include <stdio.h>

#include "neigh.h"

/* In- and out-neighbours of COMM in MPI's order (MPI-4.0 §7.6), in the
 * thread's int scratch. Returns 0, or -1 without a topology / memory. */
static int neighbours(MPI_Comm comm, int *nin, const int **in, int *nout, const int **out) {
  int topo = MPI_UNDEFINED;
  if (comm == MPI_COMM_NULL || PMPI_Topo_test(comm, &topo) != MPI_SUCCESS) return -1;
  if (topo == MPI_CART) {
    int nd = 0;
    PMPI_Cartdim_get(comm, &nd);
    int *v = aug_scratch_ints(2 * nd > 0 ? 2 * nd : 1);
    if (!v) return -1;
    for (int d = 0; d < nd; d++)
      PMPI_Cart_shift(comm, d, 1, &v[2 * d], &v[2 * d + 1]);
    *nin = *nout = 2 * nd;
    *in = *out = v;
    return 0;
  }
  if (topo == MPI_GRAPH) {
    int me = 0, n = 0;
    PMPI_Comm_rank(comm, &me);
    PMPI_Graph_neighbors_count(comm, me, &n);
    int *v = aug_scratch_ints(n > 0 ? n : 1);
    if (!v) return -1;
    PMPI_Graph_neighbors(comm, me, n, v);
    *nin = *nout = n;
    *in = *out = v;
    return 0;
  }
  if (topo == MPI_DIST_GRAPH) {
    int ni = 0, no = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &ni, &no, &weighted);
    int *v = aug_scratch_ints(2 * (ni + no) > 0 ? 2 * (ni + no) : 1);
    if (!v) return -1;
    /* weights land after the lists (read as required when weighted) */
    PMPI_Dist_graph_neighbors(comm, ni, v, v + ni + no, no, v + ni, v + 2 * ni + no);
    *nin = ni;
    *in = v;
    *nout = no;
    *out = v + ni;
    return 0;
  }
  return -1;
}

static uint64_t side_bytes(const aug_neigh_side *s, int i) {
  int count = s->counts ? s->counts[i] : s->count;
  MPI_Datatype dt = s->dts ? s->dts[i] : s->fdts ? PMPI_Type_f2c(s->fdts[i]) : s->dt;
  return aug_bytes(count, dt);
}

static void sub(augur_event *s, const augur_event *parent, unsigned type, int peer, uint32_t i) {
  aug_sub_record(s, parent, type);
  s->comm = parent->comm;
  s->peer = aug_peer(peer);
  s->tag = AUGUR_TAG_NONE;
  s->aux = i;
}

void aug_neigh_commit(augur_event *ev, MPI_Comm comm, const aug_neigh_side *send,
                      const aug_neigh_side *recv) {
  aug_fill_coll(ev, comm, AUGUR_PEER_NONE, 0, 0);
  int nin = 0, nout = 0;
  const int *in = NULL, *out = NULL;
  aug_thread *t = aug_thread_self();
  if (!t || neighbours(comm, &nin, &in, &nout, &out) != 0) {
    aug_rec_commit(ev);
    return;
  }
  size_t n = 1 + (size_t)nout + (size_t)nin;
  augur_event *o = aug_rec_group(&t, ev, n);
  if (!o) {
    aug_rec_commit(ev);
    return;
  }
  ev = o; /* the parent in its place (it may have been the slot of the buffer's next record) */
  ev->aux = (uint32_t)(nout + nin);
  for (int i = 0; i < nout; i++) {
    augur_event *s = &o[1 + i];
    sub(s, ev, AUGUR_EV_NEIGH_SEND, out[i], (uint32_t)i);
    if (out[i] != MPI_PROC_NULL) s->bytes = side_bytes(send, i);
    ev->bytes += s->bytes;
  }
  for (int i = 0; i < nin; i++) {
    augur_event *s = &o[1 + nout + i];
    sub(s, ev, AUGUR_EV_NEIGH_RECV, in[i], (uint32_t)i);
    if (in[i] != MPI_PROC_NULL) s->bytes_recv = side_bytes(recv, i);
    ev->bytes_recv += s->bytes_recv;
  }
  aug_rec_advance(t, n);
}

/* Spawn, connect, accept: comm = the parent, req = the new
 * intercommunicator's id (0 when its other side is outside our world), aux =
 * the remote group's size (0 on failure), F_ROOT on the root. */
void aug_process_fill(augur_event *ev, MPI_Comm parent, int root, int rc, MPI_Comm inter) {
  aug_comm_created(ev, parent, rc == MPI_SUCCESS ? inter : MPI_COMM_NULL, AUGUR_COMM_KIND_OTHER);
  ev->peer = AUGUR_PEER_NONE;
  ev->tag = AUGUR_TAG_NONE;
  if (parent != MPI_COMM_NULL && root == aug_comm_rank_in(parent)) ev->flags |= AUGUR_F_ROOT;
  int n = 0;
  if (rc == MPI_SUCCESS && inter != MPI_COMM_NULL) PMPI_Comm_remote_size(inter, &n);
  ev->aux = (uint32_t)n;
}

int aug_spawned(void) {
  MPI_Comm parent = MPI_COMM_NULL;
  if (PMPI_Comm_get_parent(&parent) != MPI_SUCCESS || parent == MPI_COMM_NULL) return 0;
  if (aug_world_rank == 0)
    fprintf(stderr, "augur: processes started by MPI_Comm_spawn are not recorded (%d here)\n",
            aug_world_size);
  return 1;
}
