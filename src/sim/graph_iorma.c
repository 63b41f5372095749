/* MPI-IO and one-sided calls in the execution graph (docs/simulate.md "I/O
 * and one-sided operations"). Each call becomes operations the simulator
 * already runs (sim_int.h):
 *   - a collective file call (open, close, set_view, set_size, preallocate,
 *     sync, seek_shared, *_all and their split *_begin): a barrier-like
 *     instance of the file's communicator, then the transfer (all members'
 *     bytes at the collective bandwidth: everybody ends together);
 *   - an independent read or write: the transfer;
 *   - an _ordered call: the rank-order token (a zero-byte message from the
 *     previous comm rank), its own transfer, the token to the next rank;
 *   - window creation and free, MPI_Win_fence: a barrier-like instance of
 *     the window's communicator;
 *   - PSCW: post sends a token to each origin of its group, start waits for
 *     one from each target; complete sends one to each target, wait waits
 *     for one from each origin of the matching post;
 *   - Put, Get, accumulates: latency + bytes / bandwidth at the origin (in
 *     fence and PSCW epochs bytes / bandwidth: the latency is the sync's);
 *     lock, unlock, flush: the call's overhead.
 * MPI_Win_test is replayed with its recorded time and counted as such. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "augur/mpiio.h"
#include "sim_int.h"

struct sim_iorma_pend { /* a member's transfer of a collective I/O instance */
  uint64_t inst, op, bytes;
  uint32_t rank;
};

struct sim_iorma_epoch { /* per (rank, window or file) */
  uint64_t id;
  uint64_t post, start; /* group ids of the last Win_post / Win_start */
  uint64_t dirty;       /* bytes written since the last File_sync */
  uint32_t rank;
  uint32_t locks; /* passive-target epochs open (Win_lock, Win_lock_all) */
  uint32_t next;  /* 1 + the rank's previous entry (0: none) */
};

void sim_iorma_free(sim_iorma *st) {
  free(st->pend);
  free(st->ep);
  free(st->head);
  memset(st, 0, sizeof *st);
}

static sim_iorma_epoch *epoch(sim_src *b, sim_iorma *st, uint32_t rank, uint64_t id) {
  /* a rank's entries are chained: a lookup reads its few windows and files,
   * not every rank's (each one-sided operation looks its epoch up) */
  for (uint32_t i = rank < st->head_cap ? st->head[rank] : 0; i; i = st->ep[i - 1].next)
    if (st->ep[i - 1].id == id) return &st->ep[i - 1];
  size_t had = st->head_cap;
  if (rank >= had) {
    if (aug_grow((void **)&st->head, &st->head_cap, (size_t)rank + 1, sizeof *st->head)) {
      sim_b_nomem(b);
      return NULL;
    }
    memset(st->head + had, 0, (st->head_cap - had) * sizeof *st->head);
  }
  if (aug_grow((void **)&st->ep, &st->ep_cap, st->nep + 1, sizeof *st->ep)) {
    sim_b_nomem(b);
    return NULL;
  }
  st->ep[st->nep] = (sim_iorma_epoch){.id = id, .rank = rank, .next = st->head[rank]};
  st->head[rank] = (uint32_t)++st->nep;
  return &st->ep[st->nep - 1];
}

static uint64_t mix(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  x ^= x >> 31;
  return x * 0x94D049BB133111EBull ^ c;
}

/* A modelled transfer of BYTES (0: the call's latency only). */
static int64_t xfer(sim_src *b, const augur_event *ev, uint64_t bytes, uint64_t bits) {
  augur_sim_op op = {0};
  op.kind = AUGUR_SIM_LOCAL;
  op.flags = AUGUR_SIM_F_MODEL;
  op.type = ev->type;
  op.callsite = (uint32_t)ev->callsite;
  op.peer = ev->peer >= 0 && augur_event_is_rma(ev->type) ? ev->peer : -1;
  op.a = bytes;
  op.b = bits;
  return sim_b_add(b, ev->rank, &op);
}

/* A zero-byte token end of EV's rank to or from PEER. */
static int64_t token(sim_src *b, const augur_event *ev, int send, uint32_t peer, uint64_t key,
                     int nonblocking) {
  augur_sim_op op = {0};
  op.kind = send ? AUGUR_SIM_SEND : AUGUR_SIM_RECV;
  op.type = ev->type;
  op.callsite = (uint32_t)ev->callsite;
  op.peer = (int32_t)peer;
  op.a = AUGUR_SIM_NONE;
  op.flags = nonblocking ? AUGUR_SIM_F_NONBLOCKING : 0;
  int64_t i = sim_b_add(b, ev->rank, &op);
  if (i >= 0) sim_b_token(b, send, ev->rank, peer, key, (uint64_t)i);
  return i;
}

/* The members of a communicator or group definition ID (world ranks). */
static const augur_comm_def *members(sim_src *b, uint64_t id) {
  const augur_comm_def *cd = augur_trace_comm(sim_b_trace(b), id);
  return cd && cd->size && cd->members ? cd : NULL;
}

/* A member's part of collective instance INST after its synchronisation:
 * operation O (of EV's rank) holds V in a until all members came, then
 * every member's holds the sum of their V (a collective transfer: all
 * members' bytes) or, with MIN, the smallest (the set-up of a window or
 * file: the fastest member's recorded time, the part of it that was not
 * waiting for the others). */
static void coll_part(sim_src *b, sim_iorma *st, const augur_event *ev, uint64_t inst,
                      uint64_t reached, uint32_t size, int64_t o, uint64_t v, int min) {
  if (o < 0) return;
  uint64_t bytes = v;
  if (aug_grow((void **)&st->pend, &st->pend_cap, st->npend + 1, sizeof *st->pend)) {
    sim_b_nomem(b);
    return;
  }
  st->pend[st->npend++] = (sim_iorma_pend){inst, (uint64_t)o, bytes, ev->rank};
  if (reached < size) return;
  uint64_t sum = min ? UINT64_MAX : 0;
  for (size_t i = 0; i < st->npend; i++)
    if (st->pend[i].inst == inst) {
      uint64_t x = st->pend[i].bytes;
      sum = !min ? sum + x : x < sum ? x : sum;
    }
  size_t k = 0;
  for (size_t i = 0; i < st->npend; i++) {
    if (st->pend[i].inst == inst)
      sim_b_op(b, st->pend[i].rank, st->pend[i].op)->a = sum;
    else
      st->pend[k++] = st->pend[i];
  }
  st->npend = k;
}

/* A window's or file's set-up or release (creation, free, open, close):
 * a synchronisation of its communicator, then the fastest member's time. */
static void setup(sim_src *b, sim_iorma *st, const augur_event *ev, uint32_t ci, uint32_t size,
                  unsigned space) {
  if (size <= 1) { /* MPI_COMM_SELF: nobody to wait for (its id is every rank's) */
    sim_b_local(b, ev);
    return;
  }
  uint64_t reached = 0;
  int64_t o = sim_b_sync(b, ev, ci, space, &reached);
  if (o < 0) return;
  uint64_t inst = sim_b_op(b, ev->rank, (uint64_t)o)->a;
  augur_sim_op op = {0};
  op.kind = AUGUR_SIM_LOCAL;
  op.type = ev->type;
  op.callsite = (uint32_t)ev->callsite;
  op.peer = -1;
  uint64_t d = ev->t_end > ev->t_start ? ev->t_end - ev->t_start : 0;
  op.a = d;
  coll_part(b, st, ev, inst, reached, size, sim_b_add(b, ev->rank, &op), d, 1);
}

static uint64_t io_bytes(const augur_event *ev) {
  return augur_io_is_read(ev->type) ? ev->bytes_recv : ev->bytes;
}

static int is_ordered(unsigned t) {
  return t == AUGUR_EV_FILE_READ_ORDERED || t == AUGUR_EV_FILE_WRITE_ORDERED ||
         t == AUGUR_EV_FILE_READ_ORDERED_BEGIN || t == AUGUR_EV_FILE_WRITE_ORDERED_BEGIN;
}

static int is_shared(unsigned t) {
  return t == AUGUR_EV_FILE_READ_SHARED || t == AUGUR_EV_FILE_WRITE_SHARED ||
         t == AUGUR_EV_FILE_IREAD_SHARED || t == AUGUR_EV_FILE_IWRITE_SHARED;
}

static void io_event(sim_src *b, sim_iorma *st, const augur_event *ev, augur_sim_graph *g) {
  unsigned t = ev->type;
  uint64_t bytes = augur_io_is_data(t) ? io_bytes(ev) : 0;
  if (augur_io_is_write(t)) {
    sim_iorma_epoch *e = epoch(b, st, ev->rank, ev->hash);
    if (e) e->dirty += bytes;
  }
  if (t == AUGUR_EV_FILE_SEEK || augur_io_is_end(t)) { /* local: the call's overhead */
    augur_sim_op op = {0};
    op.kind = AUGUR_SIM_LOCAL;
    op.flags = AUGUR_SIM_F_MODEL;
    op.type = (uint16_t)t;
    op.callsite = (uint32_t)ev->callsite;
    op.peer = -1;
    op.b = SIM_XFER_NONE;
    sim_b_add(b, ev->rank, &op);
    g->iorma_modelled++;
    return;
  }
  if (augur_io_is_nonblocking(t) || is_shared(t)) g->iorma_approx++;
  uint32_t size = 0;
  int64_t ci = augur_io_is_collective(t) ? sim_b_comm(b, ev->comm, &size) : -1;
  if (augur_io_is_collective(t) && ci < 0) { /* its communicator is not in the trace */
    sim_b_local(b, ev);
    g->iorma_recorded++;
    g->iorma_replayed[(t - 128) / 64] |= 1ull << ((t - 128) % 64);
    return;
  }
  g->iorma_modelled++;
  if (t == AUGUR_EV_FILE_SYNC) {
    sim_iorma_epoch *e = epoch(b, st, ev->rank, ev->hash);
    if (size > 1) sim_b_sync(b, ev, (uint32_t)ci, SIM_SYNC_FILE, NULL);
    xfer(b, ev, e ? e->dirty : 0, 0);
    if (e) e->dirty = 0;
    return;
  }
  if (is_ordered(t)) { /* the shared pointer in rank order: a token along the comm ranks */
    const augur_comm_def *cd = members(b, ev->comm);
    int64_t me = cd ? sim_comm_rank(&g->comms[ci], ev->rank) : -1;
    uint64_t key = mix(ev->comm, ev->hash, 3);
    if (me > 0) token(b, ev, 0, (uint32_t)cd->members[me - 1], key, 0);
    xfer(b, ev, bytes, 0);
    if (me >= 0 && (uint32_t)me + 1 < size) token(b, ev, 1, (uint32_t)cd->members[me + 1], key, 0);
    return;
  }
  if (t == AUGUR_EV_FILE_OPEN || t == AUGUR_EV_FILE_CLOSE) {
    setup(b, st, ev, (uint32_t)ci, size, SIM_SYNC_FILE);
    return;
  }
  if (t == AUGUR_EV_FILE_DELETE) { /* local: its recorded time */
    sim_b_local(b, ev);
    return;
  }
  if (ci >= 0 && size <= 1) { /* MPI_COMM_SELF: a collective of one */
    xfer(b, ev, bytes, 0);
    return;
  }
  if (ci >= 0) { /* collective: all wait for the last, then the transfer */
    uint64_t reached = 0;
    int64_t o = sim_b_sync(b, ev, (uint32_t)ci, SIM_SYNC_FILE, &reached);
    if (o < 0) return;
    uint64_t inst = sim_b_op(b, ev->rank, (uint64_t)o)->a;
    if (augur_io_is_data(t))
      coll_part(b, st, ev, inst, reached, size, xfer(b, ev, bytes, SIM_XFER_COLLECTIVE), bytes, 0);
    else
      xfer(b, ev, 0, 0);
    return;
  }
  xfer(b, ev, bytes, 0); /* independent: read, write, their _at and i forms, delete */
}

/* PSCW: tokens to (SEND) or from each member of group GID but the rank;
 * receives are waited for together. KIND tells post->start (1) from
 * complete->wait (2); the key names the window and the token's sender. */
static void pscw(sim_src *b, const augur_event *ev, uint64_t gid, int send, int kind) {
  const augur_comm_def *gd = members(b, gid);
  if (!gd) {
    sim_b_local(b, ev);
    return;
  }
  uint64_t *w = send ? NULL : malloc(gd->size * sizeof *w);
  if (!send && !w) {
    sim_b_nomem(b);
    return;
  }
  uint32_t n = 0;
  for (uint32_t i = 0; i < gd->size; i++) {
    int32_t p = gd->members[i];
    if (p < 0 || (uint32_t)p == ev->rank) continue;
    uint32_t sender = send ? ev->rank : (uint32_t)p;
    int64_t o = token(b, ev, send, (uint32_t)p, mix(ev->comm, sender, (uint64_t)kind), !send);
    if (!send && o >= 0) w[n++] = (uint64_t)o;
  }
  if (!send && n) sim_b_wait(b, ev, w, n);
  if (!send && !n) xfer(b, ev, 0, 0);
  free(w);
}

static void rma_event(sim_src *b, sim_iorma *st, const augur_event *ev, augur_sim_graph *g) {
  unsigned t = ev->type;
  uint32_t size;
  int64_t ci;
  g->iorma_modelled++;
  switch (t) {
  case AUGUR_EV_WIN_CREATE:
  case AUGUR_EV_WIN_ALLOCATE:
  case AUGUR_EV_WIN_ALLOCATE_SHARED:
  case AUGUR_EV_WIN_CREATE_DYNAMIC:
  case AUGUR_EV_WIN_FREE:
  case AUGUR_EV_WIN_FENCE:
    /* creation: over the communicator (ev->comm); free and fence: the window's */
    ci = sim_b_comm(b, ev->comm, &size);
    if (ci < 0) break;
    if (t == AUGUR_EV_WIN_FENCE && size > 1)
      sim_b_sync(b, ev, (uint32_t)ci, SIM_SYNC_WIN, NULL);
    else if (t != AUGUR_EV_WIN_FENCE)
      setup(b, st, ev, (uint32_t)ci, size,
            t == AUGUR_EV_WIN_FREE ? SIM_SYNC_WIN : SIM_SYNC_WINCREATE);
    return;
  case AUGUR_EV_WIN_POST:
  case AUGUR_EV_WIN_START: {
    sim_iorma_epoch *e = epoch(b, st, ev->rank, ev->comm);
    if (!e) return;
    if (t == AUGUR_EV_WIN_POST)
      e->post = ev->req;
    else
      e->start = ev->req;
    pscw(b, ev, ev->req, t == AUGUR_EV_WIN_POST, 1);
    return;
  }
  case AUGUR_EV_WIN_COMPLETE:
  case AUGUR_EV_WIN_WAIT: {
    sim_iorma_epoch *e = epoch(b, st, ev->rank, ev->comm);
    if (!e) return;
    pscw(b, ev, t == AUGUR_EV_WIN_COMPLETE ? e->start : e->post, t == AUGUR_EV_WIN_COMPLETE, 2);
    return;
  }
  case AUGUR_EV_WIN_TEST:
    break;
  case AUGUR_EV_WIN_LOCK:
  case AUGUR_EV_WIN_LOCK_ALL:
  case AUGUR_EV_WIN_UNLOCK:
  case AUGUR_EV_WIN_UNLOCK_ALL: {
    sim_iorma_epoch *e = epoch(b, st, ev->rank, ev->comm);
    if (!e) return;
    int lock = t == AUGUR_EV_WIN_LOCK || t == AUGUR_EV_WIN_LOCK_ALL;
    if (lock)
      e->locks++;
    else if (e->locks)
      e->locks--;
    if (t == AUGUR_EV_WIN_LOCK && ev->tag == AUGUR_RMA_LOCK_EXCLUSIVE) g->iorma_approx++;
    xfer(b, ev, 0, SIM_XFER_NONE);
    return;
  }
  case AUGUR_EV_WIN_ATTACH:
  case AUGUR_EV_WIN_DETACH:
  case AUGUR_EV_WIN_FLUSH:
  case AUGUR_EV_WIN_FLUSH_ALL:
  case AUGUR_EV_WIN_FLUSH_LOCAL:
  case AUGUR_EV_WIN_FLUSH_LOCAL_ALL:
  case AUGUR_EV_WIN_SYNC:
    xfer(b, ev, 0, SIM_XFER_NONE); /* the overhead only */
    return;
  default: { /* Put, Get, accumulates, their R* forms */
    sim_iorma_epoch *e = epoch(b, st, ev->rank, ev->comm);
    if (!e) return;
    xfer(b, ev, ev->bytes + ev->bytes_recv, e->locks ? 0 : SIM_XFER_ACTIVE);
    return;
  }
  }
  /* Not modelled: replayed with its recorded time, and said so. */
  g->iorma_modelled--;
  g->iorma_recorded++;
  g->iorma_replayed[(t - 128) / 64] |= 1ull << ((t - 128) % 64);
  sim_b_local(b, ev);
}

void sim_iorma_event(sim_src *b, sim_iorma *st, const augur_event *ev) {
  assert(b && st && ev && (augur_event_is_io(ev->type) || augur_event_is_rma(ev->type)));
  augur_sim_graph *g = sim_b_graph(b);
  if (augur_event_is_io(ev->type))
    io_event(b, st, ev, g);
  else
    rma_event(b, st, ev, g);
}

double sim_iorma_cost(const augur_machine *m, const augur_sim_op *op, int same_node) {
  assert(m && op && (op->flags & AUGUR_SIM_F_MODEL));
  const double bytes = (double)op->a;
  const unsigned t = op->type;
  if (op->b & SIM_XFER_NONE) return 0;
  if (augur_event_is_io(t)) {
    if (t == AUGUR_EV_FILE_SYNC)
      return m->io_latency + (m->io_sync_bandwidth > 0 ? bytes / m->io_sync_bandwidth : 0);
    if (!augur_io_is_data(t)) return m->io_latency;
    double bw = op->b & SIM_XFER_COLLECTIVE ? m->io_coll_bandwidth
                : augur_io_is_read(t)       ? m->io_read_bandwidth
                                            : m->io_write_bandwidth;
    return m->io_latency + bytes / bw;
  }
  double lat = m->rma_latency > 0 ? m->rma_latency : same_node ? m->shm_latency : m->latency;
  double bw = m->rma_bandwidth > 0 ? m->rma_bandwidth : same_node ? m->shm_bandwidth : m->bandwidth;
  return (op->b & SIM_XFER_ACTIVE ? 0 : lat) + bytes / bw;
}

void sim_graph_iorma_stats(const augur_sim_graph *g, const sim_iorma *st, size_t st_size,
                           augur_sim_graph_stats *s) {
  const size_t counters = sizeof g->iorma_modelled + sizeof g->iorma_recorded +
                          sizeof g->iorma_approx + sizeof g->iorma_replayed;
  s->bytes -= counters;
  if (g->iorma_modelled + g->iorma_recorded) {
    s->bytes += counters + st_size;
    if (st)
      s->bytes += st->pend_cap * sizeof *st->pend + st->ep_cap * sizeof *st->ep +
                  st->head_cap * sizeof *st->head;
  }
  s->iorma_modelled = g->iorma_modelled;
  s->iorma_recorded = g->iorma_recorded;
  s->iorma_approx = g->iorma_approx;
  s->iorma_replayed[0] = g->iorma_replayed[0];
  s->iorma_replayed[1] = g->iorma_replayed[1];
}

size_t augur_sim_iorma_notes(const augur_sim_graph_stats *gs, char lines[2][320]) {
  assert(gs && lines);
  size_t n = 0;
  if (gs->iorma_recorded) {
    int k = snprintf(lines[n], sizeof lines[0],
                     "note: %llu I/O or one-sided call%s not in the model replayed with %s "
                     "recorded time:",
                     (unsigned long long)gs->iorma_recorded, gs->iorma_recorded > 1 ? "s" : "",
                     gs->iorma_recorded > 1 ? "their" : "its");
    for (unsigned t = 128; t < 256 && k > 0 && (size_t)k < sizeof lines[0] - 40; t++)
      if (gs->iorma_replayed[(t - 128) / 64] >> ((t - 128) % 64) & 1)
        k += snprintf(lines[n] + k, sizeof lines[0] - (size_t)k, " %s", augur_event_name(t));
    n++;
  }
  if (gs->iorma_approx)
    snprintf(lines[n++], sizeof lines[0],
             "note: %llu I/O or one-sided call%s simplified: nonblocking I/O charged at its "
             "call, exclusive locks without contention, shared file pointers not serialised "
             "(docs/simulate.md)",
             (unsigned long long)gs->iorma_approx, gs->iorma_approx > 1 ? "s" : "");
  return n;
}

double sim_iorma_default_cost(const augur_sim_op *op) {
  augur_machine m;
  augur_machine_default(&m);
  return sim_iorma_cost(&m, op, 1);
}
