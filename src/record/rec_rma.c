/* augur recorder — one-sided (RMA) fields: window ids, the groups of
 * Win_post / Win_start, lock types and assertions in augur's own values.
 *
 * A window is recorded like a communicator made from its communicator (same
 * members, so a target rank, stored window-local, becomes a world rank in
 * the reader like any peer): comm.c computes its id from (kind, communicator,
 * members, how many windows that communicator made before), equal on every
 * member because window creation is collective, and maps the window handle
 * to it. Groups of Post/Start are not collective objects: their id is a hash
 * of their sorted world ranks, so every rank that names the same set of
 * processes writes the same definition. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "rec_internal.h"
#include "rec_rma.h"
#include "u64map.h"

static uint64_t win_key(MPI_Win win) {
  uint64_t k = 0;
  memcpy(&k, &win, sizeof win < sizeof k ? sizeof win : sizeof k);
  return k;
}

uint64_t aug_win_id(MPI_Win win) {
  if (win == MPI_WIN_NULL) return AUGUR_COMM_NONE;
  return aug_comm_object_id(win_key(win));
}

void aug_rma_created(augur_event *ev, MPI_Comm comm, MPI_Win win, MPI_Aint size, int disp_unit,
                     int dynamic) {
  ev->comm = aug_comm_id(comm);
  ev->peer = AUGUR_PEER_NONE;
  ev->tag = dynamic ? AUGUR_TAG_NONE : disp_unit;
  ev->bytes = size > 0 ? (uint64_t)size : 0;
  if (win != MPI_WIN_NULL)
    ev->req = aug_comm_define_object(comm, win_key(win), AUGUR_COMM_KIND_WINDOW);
}

void aug_rma_freed(augur_event *ev, MPI_Win win) {
  ev->comm = aug_win_id(win);
  ev->peer = AUGUR_PEER_NONE;
  ev->tag = AUGUR_TAG_NONE;
  if (win != MPI_WIN_NULL) aug_comm_object_freed(win_key(win));
}

/* MPI_MODE_* differ between the MPIs (MPICH 1024.., Open MPI 1..): augur's own bits. */
static uint32_t mode_bits(int a) {
  uint32_t m = 0;
  if (a & MPI_MODE_NOCHECK) m |= AUGUR_RMA_MODE_NOCHECK;
  if (a & MPI_MODE_NOSTORE) m |= AUGUR_RMA_MODE_NOSTORE;
  if (a & MPI_MODE_NOPUT) m |= AUGUR_RMA_MODE_NOPUT;
  if (a & MPI_MODE_NOPRECEDE) m |= AUGUR_RMA_MODE_NOPRECEDE;
  if (a & MPI_MODE_NOSUCCEED) m |= AUGUR_RMA_MODE_NOSUCCEED;
  return m;
}

void aug_rma_sync(augur_event *ev, MPI_Win win, int target, int lock_type, int assert_) {
  ev->comm = aug_win_id(win);
  ev->peer = target == AUG_RMA_NO_TARGET ? AUGUR_PEER_NONE : aug_peer(target);
  ev->tag = lock_type == MPI_LOCK_EXCLUSIVE ? AUGUR_RMA_LOCK_EXCLUSIVE
            : lock_type == MPI_LOCK_SHARED  ? AUGUR_RMA_LOCK_SHARED
                                            : AUGUR_TAG_NONE;
  ev->aux = mode_bits(assert_);
}

/* Group ids this rank already defined. */
static aug_u64map groups_defined;
static pthread_mutex_t groups_lock = PTHREAD_MUTEX_INITIALIZER;

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

static uint64_t group_id(MPI_Group group) {
  int n = 0;
  if (group == MPI_GROUP_NULL || PMPI_Group_size(group, &n) != MPI_SUCCESS || n <= 0)
    return AUGUR_COMM_NONE;
  int32_t *w = aug_group_world(group, n);
  if (!w) return AUGUR_COMM_NONE;
  qsort(w, (size_t)n, sizeof *w, cmp_i32);
  /* seeded with the kind: never the id of a communicator's hash input */
  uint64_t id = XXH3_64bits_withSeed(w, (size_t)n * sizeof *w, AUGUR_COMM_KIND_GROUP);
  if (id <= AUGUR_COMM_SELF) id += 3;
  pthread_mutex_lock(&groups_lock);
  int fresh = 0;
  uint32_t *seen = aug_u64map_slot(&groups_defined, id, &fresh);
  pthread_mutex_unlock(&groups_lock);
  if (seen && fresh) {
    augur_comm_def def;
    memset(&def, 0, sizeof def);
    def.id = id;
    def.kind = AUGUR_COMM_KIND_GROUP;
    def.size = (uint32_t)n;
    def.members = w;
    aug_comm_queue_def(&def);
  }
  free(w);
  return id;
}

void aug_rma_group(augur_event *ev, MPI_Win win, MPI_Group group, int assert_) {
  aug_rma_sync(ev, win, AUG_RMA_NO_TARGET, 0, assert_);
  ev->req = group_id(group);
}

void aug_rma_data(augur_event *ev, MPI_Win win, int target, uint64_t obytes, uint64_t rbytes) {
  ev->comm = aug_win_id(win);
  ev->peer = aug_peer(target);
  ev->tag = AUGUR_TAG_NONE;
  ev->bytes = obytes;
  ev->bytes_recv = rbytes;
}

uint64_t aug_rma_acc_bytes(int count, MPI_Datatype dt, MPI_Op op) {
  return op == MPI_NO_OP ? 0 : aug_bytes(count, dt);
}
