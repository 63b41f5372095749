/* augur recorder — filling event fields (shared by the C and Fortran
 * wrappers) and committing parents with their sub-records. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "grow.h"
#include "wrap.h"

uint64_t aug_bytes_v(const int *counts, MPI_Datatype dt, int n) {
  if (!counts || n <= 0) return 0;
  uint64_t sum = 0;
  for (int i = 0; i < n; i++)
    if (counts[i] > 0) sum += (uint64_t)counts[i];
  return sum ? aug_bytes(1, dt) * sum : 0;
}

uint64_t aug_bytes_w(const int *counts, const MPI_Datatype *dts, int n) {
  if (!counts || !dts || n <= 0) return 0;
  uint64_t sum = 0;
  for (int i = 0; i < n; i++)
    sum += aug_bytes(counts[i], dts[i]);
  return sum;
}

int aug_in_place(const void *buf) {
  return buf == MPI_IN_PLACE;
}

int aug_hash_on(void) {
  return aug_cfg.payload_hash;
}

uint64_t aug_hash(const void *buf, int count, MPI_Datatype dt) {
  if (!aug_cfg.payload_hash || count <= 0 || dt == MPI_DATATYPE_NULL || buf == MPI_IN_PLACE)
    return 0;
  int size = 0;
  MPI_Aint lb = 0, ext = 0, tlb = 0, text = 0;
  PMPI_Type_size(dt, &size);
  PMPI_Type_get_extent(dt, &lb, &ext);
  PMPI_Type_get_true_extent(dt, &tlb, &text);
  if (size > 0 && tlb == 0 && text == size && ext == size) /* contiguous: in place */
    return buf ? XXH3_64bits(buf, (size_t)count * (size_t)size) : 0;
  /* MPI_BOTTOM (NULL) with absolute-address datatypes: MPICH's PMPI_Pack rejects a
   * NULL input buffer as a fatal error, so such messages go unhashed. */
  if (!buf) return 0;
  int psize = 0, pos = 0;
  if (PMPI_Pack_size(count, dt, MPI_COMM_WORLD, &psize) != MPI_SUCCESS || psize <= 0) return 0;
  unsigned char *scratch = aug_scratch_pack((size_t)psize);
  if (!scratch) return 0;
  if (PMPI_Pack(buf, count, dt, scratch, psize, &pos, MPI_COMM_WORLD) != MPI_SUCCESS) return 0;
  return XXH3_64bits(scratch, (size_t)pos);
}

/* The buffer of this thread's most recently completed receive (hashing mode
 * only): a send from an overlapping buffer gets AUGUR_F_FROM_RECV, so the
 * diagnosis can tell forwarded or modified data from independent data. */
static _Thread_local uintptr_t last_recv_lo, last_recv_hi;

void aug_buffer_span(const void *buf, int count, MPI_Datatype dt, uintptr_t *lo, uintptr_t *hi) {
  MPI_Aint tlb = 0, text = 0, lb = 0, ext = 0;
  *lo = *hi = 0;
  if (!buf || count <= 0 || dt == MPI_DATATYPE_NULL || buf == MPI_IN_PLACE) return;
  PMPI_Type_get_true_extent(dt, &tlb, &text);
  PMPI_Type_get_extent(dt, &lb, &ext);
  *lo = (uintptr_t)buf + (uintptr_t)tlb;
  *hi = *lo + (uintptr_t)((MPI_Aint)(count - 1) * ext + text);
}

static void note_recv_buffer(const void *buf, int count, MPI_Datatype dt) {
  aug_buffer_span(buf, count, dt, &last_recv_lo, &last_recv_hi);
}

static int overlaps_last_recv(const void *buf, int count, MPI_Datatype dt) {
  uintptr_t lo, hi;
  aug_buffer_span(buf, count, dt, &lo, &hi);
  return lo < hi && last_recv_lo < last_recv_hi && lo < last_recv_hi && last_recv_lo < hi;
}

void aug_fill_comm(augur_event *ev, MPI_Comm comm) {
  ev->comm = aug_comm_id(comm);
  if (aug_comm_is_inter(comm)) ev->flags |= AUGUR_F_INTER;
}

void aug_fill_send_hash(augur_event *ev, const void *buf, int count, MPI_Datatype dt) {
  ev->hash = aug_hash(buf, count, dt);
  if (overlaps_last_recv(buf, count, dt)) ev->flags |= AUGUR_F_FROM_RECV;
}

void aug_fill_p2p(augur_event *ev, int count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
                  const void *sendbuf) {
  aug_fill_p2p_dir(ev, count, dt, peer, tag, comm, sendbuf, sendbuf != NULL);
}

uint64_t aug_status_bytes(const MPI_Status *st) {
  int n = 0;
  if (PMPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS || n < 0 || n == MPI_UNDEFINED) return 0;
  return (uint64_t)n;
}

void aug_fill_status(augur_event *ev, const MPI_Status *st, const void *recvbuf, MPI_Datatype dt) {
  ev->peer = aug_peer(st->MPI_SOURCE);
  ev->tag = st->MPI_SOURCE == MPI_PROC_NULL ? ev->tag : aug_tag(st->MPI_TAG);
  ev->bytes_recv = aug_status_bytes(st);
  if (aug_cfg.payload_hash && recvbuf && dt != MPI_DATATYPE_NULL) {
    int n = 0;
    if (PMPI_Get_count(st, dt, &n) == MPI_SUCCESS && n != MPI_UNDEFINED) {
      ev->hash = aug_hash(recvbuf, n, dt);
      note_recv_buffer(recvbuf, n, dt);
    }
  }
}

static int is_rooted(unsigned type) {
  switch (type) {
  case AUGUR_EV_BCAST:
  case AUGUR_EV_REDUCE:
  case AUGUR_EV_GATHER:
  case AUGUR_EV_GATHERV:
  case AUGUR_EV_SCATTER:
  case AUGUR_EV_SCATTERV:
  case AUGUR_EV_IBCAST:
  case AUGUR_EV_IREDUCE:
  case AUGUR_EV_IGATHER:
  case AUGUR_EV_IGATHERV:
  case AUGUR_EV_ISCATTER:
  case AUGUR_EV_ISCATTERV:
    return 1;
  default:
    return 0;
  }
}

void aug_fill_coll(augur_event *ev, MPI_Comm comm, int root, uint64_t sent, uint64_t recvd) {
  ev->comm = aug_comm_id(comm);
  ev->tag = AUGUR_TAG_NONE;
  ev->bytes = sent;
  ev->bytes_recv = recvd;
  /* Decided by the type, not by root: AUGUR_PEER_NONE (-1) is MPI_PROC_NULL
   * in MPICH, a legal root on an intercommunicator. */
  if (!is_rooted(ev->type)) {
    ev->peer = AUGUR_PEER_NONE;
    if (aug_comm_is_inter(comm)) ev->flags |= AUGUR_F_INTER;
    return;
  }
  if (aug_comm_is_inter(comm)) {
    /* Rooted intercomm collectives: MPI_ROOT on the root, MPI_PROC_NULL on
     * the root's other local ranks, the root's remote rank elsewhere. */
    ev->flags |= AUGUR_F_INTER;
    if (root == MPI_ROOT) {
      ev->flags |= AUGUR_F_ROOT;
      ev->peer = AUGUR_PEER_NONE;
    } else {
      ev->peer = root == MPI_PROC_NULL ? AUGUR_PEER_PROC_NULL : root;
    }
    return;
  }
  ev->peer = root;
  if (root == aug_comm_rank_in(comm)) ev->flags |= AUGUR_F_ROOT;
}

/* ---- receive buffers kept for hashing at completion (hashing mode only) ---- */

typedef struct tracked {
  uint64_t req;
  void *buf;
  int count;
  MPI_Datatype dt;
  int persistent;
} tracked;
static tracked *trk;
static size_t ntrk, trk_cap;
static pthread_mutex_t trk_lock = PTHREAD_MUTEX_INITIALIZER;

/* A plain array: only used with AUGUR_PAYLOAD_HASH=1, where a few in-flight
 * receives are the common case and hashing dominates the cost anyway. */
void aug_recv_track(MPI_Request req, void *buf, int count, MPI_Datatype dt, int persistent) {
  if (!aug_cfg.payload_hash || req == MPI_REQUEST_NULL) return;
  pthread_mutex_lock(&trk_lock);
  if (aug_grow((void **)&trk, &trk_cap, ntrk + 1, sizeof *trk) == 0)
    trk[ntrk++] = (tracked){aug_req_id(req), buf, count, dt, persistent};
  pthread_mutex_unlock(&trk_lock);
}

void aug_recv_untrack(uint64_t req) {
  if (!aug_cfg.payload_hash) return;
  pthread_mutex_lock(&trk_lock);
  for (size_t i = 0; i < ntrk; i++)
    if (trk[i].req == req) {
      trk[i] = trk[--ntrk];
      break;
    }
  pthread_mutex_unlock(&trk_lock);
}

uint64_t aug_recv_hash(uint64_t req, const MPI_Status *st) {
  if (!aug_cfg.payload_hash) return 0;
  tracked found = {0};
  pthread_mutex_lock(&trk_lock);
  for (size_t i = 0; i < ntrk; i++)
    if (trk[i].req == req) {
      found = trk[i];
      if (!trk[i].persistent) trk[i] = trk[--ntrk];
      break;
    }
  pthread_mutex_unlock(&trk_lock);
  if (!found.req || !st) return 0;
  int n = 0;
  if (PMPI_Get_count(st, found.dt, &n) != MPI_SUCCESS || n == MPI_UNDEFINED) return 0;
  note_recv_buffer(found.buf, n, found.dt);
  return aug_hash(found.buf, n, found.dt);
}

/* ---- parents with sub-records ---- */

/* A sub-record of parent: its times, call site, thread and language. */
static augur_event *sub_record(augur_event *s, const augur_event *parent, unsigned type) {
  aug_zero_event(s);
  s->type = (uint16_t)type;
  s->t_start = parent->t_start;
  s->t_end = parent->t_end;
  s->callsite = parent->callsite;
  s->thread = parent->thread;
  s->flags = parent->flags & AUGUR_F_FORTRAN;
  return s;
}

augur_event *aug_sub_record(augur_event *s, const augur_event *parent, unsigned type) {
  return sub_record(s, parent, type);
}

void aug_commit_completions(augur_event *parent, int ncompleted, const uint64_t *reqs,
                            const int *index, const MPI_Status *st) {
  aug_commit_completions_ex(parent, ncompleted, reqs, index, st, 0);
}

void aug_commit_completions_ex(augur_event *parent, int ncompleted, const uint64_t *reqs,
                               const int *index, const MPI_Status *st, int st_by_index) {
  if (ncompleted < 0) ncompleted = 0;
  if (parent->type != AUGUR_EV_WAITANY && parent->type != AUGUR_EV_TESTANY)
    parent->aux = (uint32_t)ncompleted;
  if (ncompleted == 0) { /* a poll that completed nothing: the parent alone */
    aug_rec_commit_in(parent);
    return;
  }
  aug_thread *t;
  augur_event *out = aug_rec_group(&t, parent, 1 + (size_t)ncompleted);
  if (!out) return;
  parent = out;
  int idup = atomic_load_explicit(&aug_idup_pending, memory_order_relaxed) > 0;
  for (int i = 0; i < ncompleted; i++) {
    augur_event *s = sub_record(&out[1 + i], parent, AUGUR_EV_COMPLETION);
    s->req = reqs[index[i]];
    s->aux = (uint32_t)index[i];
    s->peer = AUGUR_PEER_NONE;
    s->tag = AUGUR_TAG_NONE;
    if (st) {
      const MPI_Status *si = &st[st_by_index ? index[i] : i];
      s->peer = aug_peer(si->MPI_SOURCE);
      s->tag = aug_tag(si->MPI_TAG);
      s->bytes_recv = aug_status_bytes(si);
      int c = 0;
      if (PMPI_Test_cancelled(si, &c) == MPI_SUCCESS && c) s->flags |= AUGUR_F_CANCELLED;
      if (aug_cfg.payload_hash) s->hash = aug_recv_hash(s->req, si);
    }
    if (idup) aug_comm_idup_completed(s->req);
  }
  t->n += 1 + (size_t)ncompleted; /* aug_rec_advance */
}

void aug_commit_starts(augur_event *parent, int n, const MPI_Request *reqs) {
  if (n < 0) n = 0;
  parent->aux = (uint32_t)n;
  aug_thread *t;
  augur_event *out = aug_rec_group(&t, parent, 1 + (size_t)n);
  if (!out) return;
  parent = out;
  for (int i = 0; i < n; i++) {
    augur_event *s = sub_record(&out[1 + i], parent, AUGUR_EV_SUB_START);
    s->req = aug_req_id(reqs[i]);
  }
  aug_rec_advance(t, 1 + (size_t)n);
}

void aug_commit_pair(const augur_event *parent, const augur_event *sub) {
  aug_thread *t;
  augur_event *out = aug_rec_group(&t, parent, 2);
  if (!out) return;
  out[1] = *sub;
  aug_rec_advance(t, 2);
}

/* ---- matched probes ---- */

typedef struct probed {
  uint64_t msg, comm;
  int32_t peer, tag;
  uint16_t flags;
} probed;
#define NPROBED 64
static probed probes[NPROBED];
static unsigned probe_next;
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

uint64_t aug_message_id(MPI_Message msg) {
  uint64_t v = 0;
  memcpy(&v, &msg, sizeof msg < sizeof v ? sizeof msg : sizeof v);
  return v;
}

/* A small ring: a matched message is received soon after its probe. */
void aug_message_probed(MPI_Message msg, const augur_event *probe) {
  if (msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC) return;
  pthread_mutex_lock(&probe_lock);
  probes[probe_next++ % NPROBED] =
      (probed){aug_message_id(msg), probe->comm, probe->peer, probe->tag, probe->flags};
  pthread_mutex_unlock(&probe_lock);
}

void aug_message_received(augur_event *ev, uint64_t msg) {
  pthread_mutex_lock(&probe_lock);
  for (unsigned k = 0; k < NPROBED; k++) {
    probed *p = &probes[(probe_next - 1 - k) % NPROBED];
    if (p->msg == msg && msg != 0) {
      ev->comm = p->comm;
      ev->peer = p->peer;
      ev->tag = p->tag;
      ev->flags |= p->flags & (AUGUR_F_INTER | AUGUR_F_ANY_SOURCE | AUGUR_F_ANY_TAG);
      p->msg = 0;
      break;
    }
  }
  pthread_mutex_unlock(&probe_lock);
}
