/* The execution graph of a trace: one pass over the merged stream.
 *
 * Per rank, every MPI call after MPI_Init becomes an operation preceded by
 * the compute burst since the previous call. Point-to-point ends and
 * collective calls are entered in a table under (rank, posting time, side)
 * — the key the shared matcher reports them by — and get their message or
 * instance id when the matcher calls back. Requests are followed per
 * (rank, handle) in FIFO order like the reader does, so a Wait knows which
 * Isend/Irecv operations it completes. Memory beyond the graph holds only
 * in-flight ends and requests.
 *
 * The same builder streams (sim_src_*, for augur_simulate_trace): it reads
 * only as far as the simulator needs, operations are numbered absolutely
 * so the run ones can be dropped from the front of each rank's array, and
 * messages go straight to the simulator's slots (docs/simulate.md
 * "Memory"). */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/match.h"
#include "extent.h"
#include "sim_int.h"

/* ---- A multimap (rank, t, side) -> value, FIFO among equal keys ----------
 * Each rank has its own (rank_state.map): what a record posts and takes
 * (its requests, its receive ends) is in a small table of its rank, in
 * the cache while the merged stream hands out the rank's run of records,
 * not in one table as large as everything in flight (a miss per probe at
 * thousands of ranks). Keys of different ranks never meet, so the order
 * among equal keys is the one a single table gave. */

enum {
  SIDE_SEND = 1,
  SIDE_RECV = 2,
  SIDE_REQ = 4,
  SIDE_PERSIST = 5,
  SIDE_COMMGMT = 6,
  SIDE_NEIGH = 7, /* an Ineighbor_* request -> its send and receive ends */
  SIDE_SYNC = 8,  /* graph_iorma.c: per rank and (space, communicator), its calls so far */
  SIDE_TOKS = 9,  /* graph_iorma.c: a token's send end waiting for its receive end */
  SIDE_TOKR = 10  /* ... and a receive end waiting for its send end */
};

typedef struct mm_slot {
  uint64_t t, val, seq; /* seq 0 = empty */
  uint32_t rank, side;
} mm_slot;

typedef struct mmap {
  mm_slot *s;
  uint32_t cap, n; /* cap is 0 or a power of two */
  uint64_t seq;
} mmap;

/* Slots of a table's first allocation: a rank's in-flight requests and
 * ends are few (a halo's four), and a rank that never posts one allocates
 * nothing. */
#define MM_CAP0 16

static size_t mm_hash(uint64_t t, uint32_t rank, uint32_t side) {
  uint64_t h = t * 0x9E3779B97F4A7C15ull ^ ((uint64_t)rank << 32 | side) * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 29;
  return (size_t)h;
}

static int mm_put(mmap *m, uint32_t rank, uint32_t side, uint64_t t, uint64_t val) {
  if ((m->n + 1) * 2 > m->cap) {
    if (m->cap > UINT32_MAX / 2) return -1;
    uint32_t ncap = m->cap ? m->cap * 2 : MM_CAP0;
    mm_slot *ns = calloc(ncap, sizeof *ns);
    if (!ns) return -1;
    for (size_t i = 0; i < m->cap; i++) {
      if (!m->s[i].seq) continue;
      size_t j = mm_hash(m->s[i].t, m->s[i].rank, m->s[i].side) & (ncap - 1);
      while (ns[j].seq)
        j = (j + 1) & (ncap - 1);
      ns[j] = m->s[i];
    }
    free(m->s);
    m->s = ns;
    m->cap = ncap;
  }
  size_t j = mm_hash(t, rank, side) & (m->cap - 1);
  while (m->s[j].seq)
    j = (j + 1) & (m->cap - 1);
  m->s[j] = (mm_slot){t, val, ++m->seq, rank, side};
  m->n++;
  return 0;
}

/* Finds the oldest entry under the key; returns its slot index or -1. */
static int64_t mm_find(const mmap *m, uint32_t rank, uint32_t side, uint64_t t) {
  if (!m->cap) return -1;
  int64_t best = -1;
  for (size_t j = mm_hash(t, rank, side) & (m->cap - 1); m->s[j].seq; j = (j + 1) & (m->cap - 1))
    if (m->s[j].t == t && m->s[j].rank == rank && m->s[j].side == side &&
        (best < 0 || m->s[j].seq < m->s[best].seq))
      best = (int64_t)j;
  return best;
}

/* Removes slot i (backward-shift deletion keeps probe runs intact). */
static void mm_del(mmap *m, size_t i) {
  size_t mask = m->cap - 1, j = i;
  m->s[i].seq = 0;
  for (;;) {
    j = (j + 1) & mask;
    if (!m->s[j].seq) break;
    size_t h = mm_hash(m->s[j].t, m->s[j].rank, m->s[j].side) & mask;
    /* Move j into the hole at i unless its home lies cyclically in (i, j]. */
    if ((j > i && (h <= i || h > j)) || (j < i && (h <= i && h > j))) {
      m->s[i] = m->s[j];
      m->s[j].seq = 0;
      i = j;
    }
  }
  m->n--;
}

/* The oldest entry under the key for which KEEP(ctx, val) holds, else the
 * oldest; its slot index or -1. */
static int64_t mm_find_pref(const mmap *m, uint32_t rank, uint32_t side, uint64_t t,
                            int (*keep)(const void *, uint64_t), const void *ctx) {
  if (!m->cap) return -1;
  int64_t best = -1, pref = -1;
  for (size_t j = mm_hash(t, rank, side) & (m->cap - 1); m->s[j].seq; j = (j + 1) & (m->cap - 1)) {
    if (m->s[j].t != t || m->s[j].rank != rank || m->s[j].side != side) continue;
    if (best < 0 || m->s[j].seq < m->s[best].seq) best = (int64_t)j;
    if ((pref < 0 || m->s[j].seq < m->s[pref].seq) && keep(ctx, m->s[j].val)) pref = (int64_t)j;
  }
  return pref >= 0 ? pref : best;
}

static int mm_take(mmap *m, uint32_t rank, uint32_t side, uint64_t t, uint64_t *val) {
  int64_t i = mm_find(m, rank, side, t);
  if (i < 0) return 0;
  *val = m->s[i].val;
  mm_del(m, (size_t)i);
  return 1;
}

/* ---- Builder ----------------------------------------------------------- */

typedef struct persist {
  uint16_t type;
  int32_t peer;
  uint64_t bytes;
  int is_send;
} persist;

typedef struct rank_state {
  uint64_t last_end; /* end of the previous call (start of the current burst) */
  size_t win;        /* the first compute window not yet passed */
  uint64_t init_end, fin_start;
  int started, done;
  mmap map; /* the rank's in-flight ends, requests, persistent requests, syncs */
} rank_state;

/* One cache line: burst() reads the first fields for every record, the
 * map follows in the same line. */
_Static_assert(sizeof(rank_state) == 64, "rank_state is one cache line");

/* Operation numbers are absolute (the rank's count since its start): in
 * memory they are indices into the rank's array, streaming they stay valid
 * while the front of the array is released. */
struct builder {
  augur_sim_graph *g;
  augur_trace *t;
  int cpu_ctr;    /* counter slot of the bursts' CPU time (task-clock), -1: none */
  int delay_ctr;  /* counter slot of the bursts' wait for a CPU (run-delay), -1: none */
  mmap cnt;       /* communicator creations: instance -> members that reached it */
  rank_state *rs; /* nrs, a cache line each */
  uint32_t nrs;
  persist *pers;
  size_t npers, pers_cap;
  /* The pending parent call (a Wait/Test/Sendrecv/Startall whose
   * sub-records follow it in the stream). */
  int have_parent;
  augur_event parent;
  uint64_t *wl; /* op numbers the pending Wait completes */
  size_t nwl, wl_cap;
  int64_t sendrecv_send; /* Sendrecv's send op, waiting for its SUB_RECV */
  /* The matcher's tag of the event being read (augur_match_feed_call): the
   * op number of the one end or member it posts, or AUGUR_MATCH_NO_CALL
   * when that end goes through the map (see tagged_end). */
  uint64_t tag;
  const sim_windows *win;
  int nomem;
  /* Reading. */
  augur_stream *s;
  augur_matcher *mt;
  int eof;
  uint32_t nstarted;
  augur_error err;
  /* Streaming (sim_src): messages go to the simulator, --scale SITE is
   * applied as operations come, counts replace the graph's arrays. */
  int stream;
  sim_msg_fn new_msg;
  void *msg_ctx;
  augur_progress_fn progress; /* sim_src_set_progress */
  void *progress_arg;
  uint64_t progress_total; /* the trace's records, counted once (a sum over its ranks) */
  const augur_sim_site_scale *sites;
  size_t nsites;
  uint64_t held, nops, ncompute, nwaitops, nmsgs, nunmatched;
  sim_iorma iorma; /* graph_iorma.c */
};

typedef struct builder builder;

static augur_sim_op *op_ref(builder *b, uint32_t rank, uint64_t i) {
  sim_rank_ops *ro = &b->g->ranks[rank];
  return &ro->ops[i - ro->base];
}

static int64_t comm_index(builder *b, uint64_t id) {
  augur_sim_graph *g = b->g;
  for (size_t i = 0; i < g->ncomms; i++)
    if (g->comms[i].id == id) return (int64_t)i;
  const augur_comm_def *cd = augur_trace_comm(b->t, id);
  if (!cd || cd->size == 0) return -1;
  uint32_t *m = malloc(cd->size * sizeof *m);
  if (!m) return -1;
  for (uint32_t i = 0; i < cd->size; i++) {
    if (cd->members[i] < 0 || (uint32_t)cd->members[i] >= g->nranks) {
      free(m);
      return -1;
    }
    m[i] = (uint32_t)cd->members[i];
  }
  int64_t ci = augur_sim_add_comm(g, m, cd->size);
  free(m);
  if (ci >= 0) g->comms[ci].id = id;
  return ci;
}

/* --scale SITE=xF while streaming: OP is appended after a compute burst
 * (still held: a burst is not run before what follows it is known). */
static void scale_sites(builder *b, sim_rank_ops *ro, const augur_sim_op *op) {
  if (!b->nsites || op->kind == AUGUR_SIM_COMPUTE || !ro->n ||
      ro->ops[ro->n - 1].kind != AUGUR_SIM_COMPUTE)
    return;
  augur_sim_op *prev = &ro->ops[ro->n - 1];
  for (size_t k = 0; k < b->nsites; k++) {
    if (op->callsite == b->sites[k].site) sim_scale_compute(prev, b->sites[k].factor);
  }
}

static int64_t add(builder *b, uint32_t rank, augur_sim_op *op) {
  int64_t i;
  if (b->stream) {
    sim_rank_ops *ro = &b->g->ranks[rank];
    scale_sites(b, ro, op);
    if (aug_grow((void **)&ro->ops, &ro->cap, ro->n + 1, sizeof *ro->ops)) {
      b->nomem = 1;
      return -1;
    }
    ro->ops[ro->n] = *op;
    i = (int64_t)(ro->base + ro->n++);
    b->held++;
    b->nops++;
    b->ncompute += op->kind == AUGUR_SIM_COMPUTE;
    b->nwaitops += op->kind == AUGUR_SIM_WAIT;
  } else {
    i = augur_sim_add_op(b->g, rank, op);
    if (i < 0) b->nomem = 1;
  }
  return i;
}

/* The compute burst before EV; EV's end starts the next one. */
static void burst(builder *b, const augur_event *ev) {
  rank_state *rs = &b->rs[ev->rank];
  if (ev->t_start > rs->last_end) {
    augur_sim_op op = {0};
    op.kind = AUGUR_SIM_COMPUTE;
    op.a = ev->t_start - rs->last_end;
    if (b->delay_ctr >= 0) { /* the turns the recorded run took: the model shares the cores */
      uint64_t d = ev->ctr[b->delay_ctr];
      op.a = d < op.a ? op.a - d : 0;
    }
    if (b->cpu_ctr >= 0) { /* CPU time over the burst, at most its wall time */
      op.flags = AUGUR_SIM_F_CPU;
      op.b = ev->ctr[b->cpu_ctr] < op.a ? ev->ctr[b->cpu_ctr] : op.a;
    }
    if (b->win) { /* bursts come in time order per rank: one pass over the windows */
      const sim_window *w = b->win->w[ev->rank];
      size_t n = b->win->n[ev->rank];
      while (rs->win < n && w[rs->win].t1 <= rs->last_end)
        rs->win++;
      if (rs->win < n && w[rs->win].t0 <= rs->last_end) sim_scale_compute(&op, w[rs->win].factor);
    }
    add(b, ev->rank, &op);
  }
  if (ev->t_end > rs->last_end) rs->last_end = ev->t_end;
}

static void local(builder *b, const augur_event *ev) {
  augur_sim_op op = {0};
  op.kind = AUGUR_SIM_LOCAL;
  op.type = ev->type;
  op.callsite = (uint32_t)ev->callsite;
  op.a = ev->t_end > ev->t_start ? ev->t_end - ev->t_start : 0;
  add(b, ev->rank, &op);
}

/* A send or receive end; returns its op number. */
static int64_t end_op(builder *b, uint32_t rank, uint16_t type, int32_t peer, uint64_t bytes,
                      uint64_t callsite, int send, int nonblocking, int sync) {
  augur_sim_op op = {0};
  op.kind = send ? AUGUR_SIM_SEND : AUGUR_SIM_RECV;
  op.type = type;
  op.callsite = (uint32_t)callsite;
  op.peer = peer;
  op.a = AUGUR_SIM_NONE;
  op.b = bytes;
  op.flags = (uint8_t)((nonblocking ? AUGUR_SIM_F_NONBLOCKING : 0) | (sync ? AUGUR_SIM_F_SYNC : 0));
  return add(b, rank, &op);
}

/* A send or receive end posted at time T, which the matcher's callback
 * finds in the map under (rank, T, side); returns its op number. */
static int64_t p2p(builder *b, uint32_t rank, uint16_t type, int32_t peer, uint64_t bytes,
                   uint64_t t, uint64_t callsite, int send, int nonblocking, int sync) {
  int64_t i = end_op(b, rank, type, peer, bytes, callsite, send, nonblocking, sync);
  if (i >= 0 && mm_put(&b->rs[rank].map, rank, send ? SIDE_SEND : SIDE_RECV, t, (uint64_t)i))
    b->nomem = 1;
  return i;
}

/* The end or member OP that the event being read posts itself, found by
 * the matcher's tag of the call instead of the map (one probe of a table
 * as large as what is in flight less per end: a cache miss at thousands
 * of ranks). Only an event whose one end or member is its own call's is
 * tagged: a send (its send end; a Sendrecv's receive end is its SUB_RECV's
 * and goes through the map), a blocking receive, a collective that is no
 * communicator creation. Ends posted by a request's start (Start,
 * Startall), completed by a Wait, or of a neighbourhood collective carry
 * another call's tag or none: the map. */
static int64_t tagged_end(builder *b, int64_t op) {
  if (op >= 0) b->tag = (uint64_t)op;
  return op;
}

static void track_request(builder *b, uint32_t rank, uint64_t req, int64_t op) {
  if (op >= 0 && mm_put(&b->rs[rank].map, rank, SIDE_REQ, req, (uint64_t)op)) b->nomem = 1;
}

static void wl_push(builder *b, uint64_t op) {
  if (aug_grow((void **)&b->wl, &b->wl_cap, b->nwl + 1, sizeof *b->wl)) {
    b->nomem = 1;
    return;
  }
  b->wl[b->nwl++] = op;
}

/* The WAIT of call P over the N operations OPS (of P's rank). In memory
 * the list goes to the graph's wait lists, streaming to the rank's own. */
static void add_wait(builder *b, const augur_event *p, const uint64_t *ops, uint32_t n) {
  augur_sim_graph *g = b->g;
  int64_t first;
  if (b->stream) {
    sim_rank_ops *ro = &g->ranks[p->rank];
    if (aug_grow((void **)&ro->wl, &ro->wl_cap, ro->nwl + n, sizeof *ro->wl)) {
      b->nomem = 1;
      return;
    }
    memcpy(ro->wl + ro->nwl, ops, n * sizeof *ops);
    first = (int64_t)(ro->wl_base + ro->nwl);
    ro->nwl += n;
  } else {
    if (aug_grow((void **)&g->waits, &g->wait_cap, g->nwaits + n, sizeof *g->waits)) {
      b->nomem = 1;
      return;
    }
    for (uint32_t i = 0; i < n; i++)
      g->waits[g->nwaits + i] = (uint32_t)ops[i];
    first = (int64_t)g->nwaits;
    g->nwaits += n;
  }
  augur_sim_op op = {0};
  op.kind = AUGUR_SIM_WAIT;
  op.type = p->type;
  op.callsite = (uint32_t)p->callsite;
  op.a = (uint64_t)first;
  op.b = n;
  add(b, p->rank, &op);
}

/* Starts RANK's persistent request REQ at T: an end followed like a
 * nonblocking one. 0 if REQ is no persistent request followed. */
static int start_persistent(builder *b, uint32_t rank, uint64_t req, uint64_t t,
                            uint64_t callsite) {
  const mmap *m = &b->rs[rank].map;
  int64_t i = mm_find(m, rank, SIDE_PERSIST, req);
  if (i < 0) return 0;
  const persist *ps = &b->pers[m->s[i].val];
  int64_t o = p2p(b, rank, ps->type, ps->peer, ps->bytes, t, callsite, ps->is_send, 1,
                  ps->type == AUGUR_EV_SSEND_INIT);
  track_request(b, rank, req, o);
  return 1;
}

/* Ends the pending parent: a Wait/Test becomes a WAIT over the requests its
 * completions named (or a local call if it completed none we follow). */
static void flush_parent(builder *b) {
  if (!b->have_parent) return;
  augur_event *p = &b->parent;
  b->have_parent = 0;
  if (augur_event_is_completion(p->type)) {
    if (b->nwl == 0 && b->iorma.req) { /* I/O or one-sided: charged at the call (graph_iorma.c) */
      augur_sim_op op = {.kind = AUGUR_SIM_LOCAL, .flags = AUGUR_SIM_F_MODEL, .b = SIM_XFER_NONE};
      op.type = p->type;
      op.callsite = (uint32_t)p->callsite;
      op.peer = -1;
      add(b, p->rank, &op);
      b->iorma.req = 0;
      return;
    }
    b->iorma.req = 0;
    if (b->nwl == 0) {
      local(b, p);
      return;
    }
    add_wait(b, p, b->wl, (uint32_t)b->nwl);
    b->nwl = 0;
  } else if (augur_event_is_neighbor(p->type)) {
    /* blocking: a WAIT over its exchanges (neighbour_sub); nonblocking: the
     * call itself, its exchanges are waited for at the completion */
    if (b->nwl == 0 || augur_event_is_nonblocking(p->type))
      local(b, p);
    else
      add_wait(b, p, b->wl, (uint32_t)b->nwl);
    b->nwl = 0;
  } else if (augur_event_is_sendrecv(p->type)) {
    /* No SUB_RECV (the receive was from MPI_PROC_NULL): wait for the send only. */
    if (b->sendrecv_send >= 0) {
      uint64_t s = (uint64_t)b->sendrecv_send;
      add_wait(b, p, &s, 1);
    } else {
      local(b, p);
    }
    b->sendrecv_send = -1;
  }
}

/* A neighbourhood collective is replayed as the point-to-point exchanges
 * it stands for (docs/simulate.md "Neighbourhood collectives"): each
 * NEIGH_SEND / NEIGH_RECV sub-record of its parent P is a nonblocking send or
 * receive end posted at the call (the matcher pairs them), which the call
 * waits for (blocking) or its request's completion (Ineighbor_*). */
static void neighbour_sub(builder *b, const augur_event *p, const augur_event *ev) {
  if (!augur_event_is_neighbor(p->type) || ev->peer < 0) return;
  int send = ev->type == AUGUR_EV_NEIGH_SEND;
  int64_t o = p2p(b, ev->rank, p->type, ev->peer, send ? ev->bytes : ev->bytes_recv, p->t_start,
                  p->callsite, send, 1, 0);
  if (o < 0) return;
  if (augur_event_is_nonblocking(p->type)) {
    if (mm_put(&b->rs[ev->rank].map, ev->rank, SIDE_NEIGH, p->req, (uint64_t)o)) b->nomem = 1;
  } else {
    wl_push(b, (uint64_t)o);
  }
}

static void on_sub(builder *b, const augur_event *ev) {
  augur_event *p = &b->parent;
  if (!b->have_parent || p->rank != ev->rank) return;
  uint64_t v;
  switch (ev->type) {
  case AUGUR_EV_COMPLETION:
    if (!(ev->flags & (AUGUR_F_SENDREQ | AUGUR_F_RECVREQ | AUGUR_F_COLLREQ | AUGUR_F_UNMATCHED)) &&
        (augur_event_is_io((unsigned)ev->tag) || augur_event_is_rma((unsigned)ev->tag)))
      b->iorma.req = 1;
    if ((ev->flags & AUGUR_F_COLLREQ) && !(ev->flags & AUGUR_F_UNMATCHED))
      while (mm_take(&b->rs[ev->rank].map, ev->rank, SIDE_NEIGH, ev->req, &v))
        wl_push(b, v);
    if (!(ev->flags & (AUGUR_F_SENDREQ | AUGUR_F_RECVREQ)) || (ev->flags & AUGUR_F_UNMATCHED))
      return;
    if (mm_take(&b->rs[ev->rank].map, ev->rank, SIDE_REQ, ev->req, &v)) wl_push(b, v);
    return;
  case AUGUR_EV_NEIGH_SEND:
  case AUGUR_EV_NEIGH_RECV:
    neighbour_sub(b, p, ev);
    return;
  case AUGUR_EV_SUB_RECV: {
    uint64_t w[2];
    uint32_t n = 0;
    if (b->sendrecv_send >= 0) w[n++] = (uint64_t)b->sendrecv_send;
    if (ev->peer >= 0) {
      int64_t r = p2p(b, ev->rank, AUGUR_EV_SUB_RECV, ev->peer, ev->bytes_recv, p->t_start,
                      p->callsite, 0, 1, 0);
      if (r >= 0) w[n++] = (uint64_t)r;
    }
    b->sendrecv_send = -1;
    b->have_parent = 0; /* the Sendrecv is complete */
    if (n == 0) {
      local(b, p);
      return;
    }
    add_wait(b, p, w, n);
    return;
  }
  case AUGUR_EV_SUB_START:
    start_persistent(b, ev->rank, ev->req, p->t_start, p->callsite);
    return;
  default:
    return;
  }
}

static int is_comm_create(unsigned type) {
  switch (type) {
  case AUGUR_EV_COMM_DUP:
  case AUGUR_EV_COMM_IDUP:
  case AUGUR_EV_COMM_SPLIT:
  case AUGUR_EV_COMM_SPLIT_TYPE:
  case AUGUR_EV_COMM_CREATE:
  case AUGUR_EV_CART_CREATE:
  case AUGUR_EV_CART_SUB:
  case AUGUR_EV_GRAPH_CREATE:
  case AUGUR_EV_DIST_GRAPH_CREATE:
  case AUGUR_EV_DIST_GRAPH_CREATE_ADJACENT:
  case AUGUR_EV_INTERCOMM_MERGE:
    return 1;
  default:
    return 0;
  }
}

/* The instance of RANK's next call in SPACE (0: communicator creations,
 * SIM_SYNC_* of graph_iorma.c) on communicator CI, a barrier-like
 * synchronisation of CI's members: the K-th such call of every member is
 * one instance. *MEMBERS (may be NULL) gets how many members reached it so
 * far. */
static uint64_t sync_instance(builder *b, uint32_t rank, uint32_t ci, unsigned space,
                              uint64_t *members) {
  assert(space < 4 && ci < (1u << 28));
  uint32_t side = space ? SIDE_SYNC : SIDE_COMMGMT;
  uint64_t key = (uint64_t)space << 32 | ci;
  mmap *m = &b->rs[rank].map;
  int64_t slot = mm_find(m, rank, side, key);
  uint64_t k = 0;
  if (slot >= 0)
    k = ++m->s[slot].val;
  else if (mm_put(m, rank, side, key, 0))
    b->nomem = 1;
  uint64_t inst = SIM_INST_COMMGMT | (uint64_t)space << 60 | (uint64_t)ci << 32 | (k & 0xffffffffu);
  /* A call some member never reached (a run cut short) would wait forever:
   * members are counted, the count checked when it runs. */
  int64_t c = mm_find(&b->cnt, 0, SIDE_COMMGMT, inst);
  uint64_t n = 1;
  if (c >= 0)
    n = ++b->cnt.s[c].val;
  else if (mm_put(&b->cnt, 0, SIDE_COMMGMT, inst, 1))
    b->nomem = 1;
  if (members) *members = n;
  return inst;
}

/* ---- For graph_iorma.c (sim_int.h) ---- */

int64_t sim_b_add(sim_src *b, uint32_t rank, augur_sim_op *op) {
  return add(b, rank, op);
}

augur_sim_op *sim_b_op(sim_src *b, uint32_t rank, uint64_t i) {
  return op_ref(b, rank, i);
}

int64_t sim_b_comm(sim_src *b, uint64_t id, uint32_t *size) {
  int64_t ci = comm_index(b, id);
  if (ci >= 0 && ci < (1 << 28)) {
    *size = b->g->comms[ci].size;
    return ci;
  }
  return -1;
}

augur_trace *sim_b_trace(sim_src *b) {
  return b->t;
}

augur_sim_graph *sim_b_graph(sim_src *b) {
  return b->g;
}

void sim_b_local(sim_src *b, const augur_event *ev) {
  local(b, ev);
}

void sim_b_nomem(sim_src *b) {
  b->nomem = 1;
}

int64_t sim_b_sync(sim_src *b, const augur_event *ev, uint32_t ci, unsigned space,
                   uint64_t *members) {
  augur_sim_op op = {0};
  op.kind = AUGUR_SIM_COLL;
  op.type = ev->type;
  op.callsite = (uint32_t)ev->callsite;
  op.comm = ci;
  op.peer = -1;
  op.a = sync_instance(b, ev->rank, ci, space, members);
  return add(b, ev->rank, &op);
}

/* A zero-byte message from one end to the other, both made by the
 * builder (not the matcher): pairs end OP of RANK with the oldest opposite
 * end under (PEER, KEY), or waits for it. */
void sim_b_token(sim_src *b, int send, uint32_t rank, uint32_t peer, uint64_t key, uint64_t op) {
  uint32_t recv_rank = send ? peer : rank;
  uint64_t other;
  mmap *m = &b->rs[recv_rank].map;
  if (!mm_take(m, recv_rank, send ? SIDE_TOKR : SIDE_TOKS, key, &other)) {
    if (mm_put(m, recv_rank, send ? SIDE_TOKS : SIDE_TOKR, key, op)) b->nomem = 1;
    return;
  }
  uint32_t sender = send ? rank : peer;
  uint64_t so = send ? op : other, ro = send ? other : op;
  uint64_t id;
  if (b->stream) {
    id = b->new_msg(b->msg_ctx, sender, recv_rank, 0, 0);
    if (id == AUGUR_SIM_NONE) {
      b->nomem = 1;
      return;
    }
    b->nmsgs++;
  } else {
    int64_t i = augur_sim_add_message(b->g, sender, recv_rank, 0, 0);
    if (i < 0) {
      b->nomem = 1;
      return;
    }
    id = (uint64_t)i;
  }
  augur_sim_op *s = op_ref(b, sender, so), *r = op_ref(b, recv_rank, ro);
  s->a = r->a = id;
  s->peer = (int32_t)recv_rank;
  r->peer = (int32_t)sender;
}

int64_t sim_b_wait(sim_src *b, const augur_event *p, const uint64_t *ops, uint32_t n) {
  add_wait(b, p, ops, n);
  return 0;
}

static void on_event(builder *b, const augur_event *ev) {
  if (augur_event_is_sub(ev->type)) {
    on_sub(b, ev);
    return;
  }
  b->tag = AUGUR_MATCH_NO_CALL;
  flush_parent(b);
  if (ev->rank >= b->g->nranks) return;
  rank_state *rs = &b->rs[ev->rank];
  unsigned type = ev->type;
  if (type == AUGUR_EV_INIT || type == AUGUR_EV_INIT_THREAD) {
    b->nstarted += !rs->started;
    rs->started = 1;
    rs->last_end = rs->init_end = ev->t_end;
    return;
  }
  if (!rs->started) { /* no MPI_Init in the trace (imported): start at the first call */
    b->nstarted++;
    rs->started = 1;
    rs->last_end = rs->init_end = ev->t_start;
  }
  if (rs->done) return;
  if (type == AUGUR_EV_FINALIZE || type == AUGUR_EV_ABORT) {
    burst(b, ev);
    rs->done = 1;
    rs->fin_start = ev->t_start;
    return;
  }
  burst(b, ev);
  if (augur_event_is_io(type) || augur_event_is_rma(type)) { /* graph_iorma.c */
    sim_iorma_event(b, &b->iorma, ev);
    return;
  }
  if (augur_event_is_neighbor(type)) { /* its sub-records follow (neighbour_sub) */
    b->have_parent = 1;
    b->parent = *ev;
    b->nwl = 0;
    return;
  }
  int nb = augur_event_is_nonblocking(type);
  if (augur_event_is_p2p_send(type) && type != AUGUR_EV_SEND_INIT && type != AUGUR_EV_BSEND_INIT &&
      type != AUGUR_EV_SSEND_INIT && type != AUGUR_EV_RSEND_INIT) {
    int sr = augur_event_is_sendrecv(type);
    int64_t o = -1;
    if (ev->peer >= 0)
      o = tagged_end(b, end_op(b, ev->rank, (uint16_t)type, ev->peer, ev->bytes, ev->callsite, 1,
                               nb || sr, type == AUGUR_EV_SSEND || type == AUGUR_EV_ISSEND));
    if (sr) {
      b->have_parent = 1;
      b->parent = *ev;
      b->sendrecv_send = o;
    } else if (o < 0) {
      local(b, ev);
    } else if (nb) {
      track_request(b, ev->rank, ev->req, o);
    }
    return;
  }
  switch (type) {
  case AUGUR_EV_RECV:
  case AUGUR_EV_MRECV:
    if (ev->peer >= 0 && ev->tag >= 0)
      tagged_end(
          b, end_op(b, ev->rank, (uint16_t)type, ev->peer, ev->bytes_recv, ev->callsite, 0, 0, 0));
    else
      local(b, ev);
    return;
  case AUGUR_EV_IRECV:
  case AUGUR_EV_IMRECV: {
    int64_t o = p2p(b, ev->rank, (uint16_t)type, ev->peer, ev->bytes_recv, ev->t_start,
                    ev->callsite, 0, 1, 0);
    track_request(b, ev->rank, ev->req, o);
    return;
  }
  case AUGUR_EV_SEND_INIT:
  case AUGUR_EV_BSEND_INIT:
  case AUGUR_EV_SSEND_INIT:
  case AUGUR_EV_RSEND_INIT:
  case AUGUR_EV_RECV_INIT: {
    local(b, ev);
    if (ev->peer < 0) return;
    if (aug_grow((void **)&b->pers, &b->pers_cap, b->npers + 1, sizeof *b->pers)) {
      b->nomem = 1;
      return;
    }
    int is_send = type != AUGUR_EV_RECV_INIT;
    b->pers[b->npers] =
        (persist){(uint16_t)type, ev->peer, is_send ? ev->bytes : ev->bytes_recv, is_send};
    uint64_t old;
    while (mm_take(&b->rs[ev->rank].map, ev->rank, SIDE_PERSIST, ev->req, &old))
      ;
    if (mm_put(&b->rs[ev->rank].map, ev->rank, SIDE_PERSIST, ev->req, b->npers++)) b->nomem = 1;
    return;
  }
  case AUGUR_EV_START:
    if (!start_persistent(b, ev->rank, ev->req, ev->t_start, ev->callsite)) local(b, ev);
    return;
  case AUGUR_EV_STARTALL:
    b->have_parent = 1;
    b->parent = *ev;
    return;
  case AUGUR_EV_REQUEST_FREE: {
    uint64_t old;
    mm_take(&b->rs[ev->rank].map, ev->rank, SIDE_PERSIST, ev->req, &old);
    local(b, ev);
    return;
  }
  default:
    break;
  }
  if (augur_event_is_completion(type)) {
    b->have_parent = 1;
    b->parent = *ev;
    b->nwl = 0;
    return;
  }
  int create = is_comm_create(type);
  if (augur_event_is_collective(type) || create) {
    int64_t ci = comm_index(b, ev->comm);
    if (ci < 0) {
      local(b, ev);
      return;
    }
    augur_sim_op op = {0};
    op.kind = AUGUR_SIM_COLL;
    op.type = (uint16_t)type;
    op.callsite = (uint32_t)ev->callsite;
    op.comm = (uint32_t)ci;
    op.peer = ev->peer;
    op.a = AUGUR_SIM_NONE;
    op.flags = (uint8_t)((ev->flags & AUGUR_F_FRESH_BUF ? AUGUR_SIM_F_FRESH : 0) |
                         (ev->flags & AUGUR_F_UNTOUCHED ? AUGUR_SIM_F_UNTOUCHED : 0));
    if (create) {
      /* Every member waits for the others: a barrier over the parent. */
      op.peer = -1;
      op.a = sync_instance(b, ev->rank, (uint32_t)ci, 0, NULL);
      add(b, ev->rank, &op);
      return;
    }
    tagged_end(b, add(b, ev->rank, &op));
    return;
  }
  local(b, ev); /* probes, Comm_free, tests that completed nothing, ... */
}

/* An end of a message under (rank, posting time, side) in the map: one
 * call may post several at one time (a neighbourhood collective's
 * exchanges, Startall's requests), and the matcher pairs them in the order
 * their partners come, not in the order posted. The end whose op names the
 * message's partner is taken (the oldest of them), else the oldest: which
 * end gets which message does not depend on the order the ranks are read
 * in (the builder's slack). */
typedef struct end_want {
  builder *b;
  uint32_t rank;
  int32_t peer;
} end_want;

static int end_peer_is(const void *ctx, uint64_t op) {
  const end_want *w = ctx;
  return op_ref(w->b, w->rank, op)->peer == w->peer;
}

static int end_take(builder *b, uint32_t rank, uint32_t side, uint64_t t, uint32_t peer,
                    uint64_t *op) {
  end_want w = {b, rank, (int32_t)peer};
  mmap *m = &b->rs[rank].map;
  int64_t i = mm_find_pref(m, rank, side, t, end_peer_is, &w);
  if (i < 0) return 0;
  *op = m->s[i].val;
  mm_del(m, (size_t)i);
  return 1;
}

static int on_message(void *ctx, const augur_message *m) {
  builder *b = ctx;
  uint64_t s = m->send.call, r = m->recv.call;
  if (m->sender >= b->g->nranks || m->receiver >= b->g->nranks) return AUGUR_OK;
  /* tagged_end: a send's end carries its call's tag; a receive's only when
   * it was a blocking Recv or Mrecv (a SUB_RECV has its Sendrecv's, a
   * completed request its Wait's) */
  int ts = s != AUGUR_MATCH_NO_CALL,
      tr = r != AUGUR_MATCH_NO_CALL &&
           (m->recv.type == AUGUR_EV_RECV || m->recv.type == AUGUR_EV_MRECV);
  int hs = ts || end_take(b, m->sender, SIDE_SEND, m->send.t_post, m->receiver, &s);
  int hr = tr || end_take(b, m->receiver, SIDE_RECV, m->recv.t_post, m->sender, &r);
  if (!hs || !hr) { /* one end was outside the replayed part (before Init, after Finalize) */
    if (hs && !ts) mm_put(&b->rs[m->sender].map, m->sender, SIDE_SEND, m->send.t_post, s);
    if (hr && !tr) mm_put(&b->rs[m->receiver].map, m->receiver, SIDE_RECV, m->recv.t_post, r);
    return AUGUR_OK;
  }
  uint64_t id;
  unsigned mf = (m->send.sync ? AUGUR_SIM_MSG_SYNC : 0) |
                (m->recv.flags & AUGUR_F_FRESH_BUF ? AUGUR_SIM_MSG_FRESH : 0) |
                (m->recv.flags & AUGUR_F_UNTOUCHED ? AUGUR_SIM_MSG_UNTOUCHED : 0);
  if (b->stream) {
    id = b->new_msg(b->msg_ctx, m->sender, m->receiver, m->bytes, mf);
    if (id == AUGUR_SIM_NONE) return AUGUR_E_NOMEM;
    b->nmsgs++;
  } else {
    int64_t i = augur_sim_add_message(b->g, m->sender, m->receiver, m->bytes, mf);
    if (i < 0) return AUGUR_E_NOMEM;
    id = (uint64_t)i;
  }
  /* Neither end has run: an unpaired end is never ready. */
  augur_sim_op *so = op_ref(b, m->sender, s);
  augur_sim_op *ro = op_ref(b, m->receiver, r);
  so->a = ro->a = id;
  so->b = ro->b = m->bytes;
  so->peer = (int32_t)m->receiver;
  ro->peer = (int32_t)m->sender;
  return AUGUR_OK;
}

/* The size the algorithm moves, from the members' own counts. */
static uint64_t coll_bytes(const augur_coll_instance *c, const sim_comm *sc) {
  uint64_t best = 0;
  for (uint32_t i = 0; i < c->nmembers; i++) {
    const augur_coll_member *mb = &c->members[i];
    uint64_t v;
    switch (c->type) {
    case AUGUR_EV_BCAST:
    case AUGUR_EV_IBCAST:
    case AUGUR_EV_SCATTER:
    case AUGUR_EV_SCATTERV:
    case AUGUR_EV_ISCATTER:
    case AUGUR_EV_ISCATTERV:
      v = mb->bytes_recv > mb->bytes / (sc->size ? sc->size : 1) ? mb->bytes_recv
                                                                 : mb->bytes / sc->size;
      break;
    case AUGUR_EV_ALLTOALL:
    case AUGUR_EV_ALLTOALLV:
    case AUGUR_EV_ALLTOALLW:
    case AUGUR_EV_IALLTOALL:
    case AUGUR_EV_IALLTOALLV:
    case AUGUR_EV_IALLTOALLW:
      v = mb->bytes / (sc->size ? sc->size : 1);
      break;
    default:
      v = mb->bytes;
      break;
    }
    if (v > best) best = v;
  }
  return best;
}

static int on_coll(void *ctx, const augur_coll_instance *c) {
  builder *b = ctx;
  uint64_t inst = b->g->ninstances;
  int found = 0;
  uint64_t idx[1];
  /* The size is the instance's, over all members: computed once per
   * communicator the members' operations name (one, in a sane trace), not
   * once per member (a world collective at 4,096 ranks would read its
   * members 4,096 times). */
  uint32_t bytes_comm = UINT32_MAX;
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < c->nmembers; i++) {
    const augur_coll_member *mb = &c->members[i];
    if (mb->rank >= b->g->nranks) continue;
    idx[0] = mb->call; /* tagged_end; NO_CALL: a creation, or the rank's call was not replayed */
    if (idx[0] == AUGUR_MATCH_NO_CALL) continue;
    augur_sim_op *op = op_ref(b, mb->rank, idx[0]);
    const sim_comm *sc = &b->g->comms[op->comm];
    if (sc->size != c->nmembers) continue;
    if (op->comm != bytes_comm) {
      bytes_comm = op->comm;
      bytes = coll_bytes(c, sc);
    }
    op->a = inst;
    op->b = bytes;
    op->peer = mb->root;
    found++;
  }
  if (found) b->g->ninstances++;
  return AUGUR_OK;
}

/* Ranks start where they left MPI_Init: the launcher's skew is part of the run. */
static void set_starts(builder *b) {
  uint64_t first = UINT64_MAX;
  for (uint32_t r = 0; r < b->g->nranks; r++)
    if (b->rs[r].started && b->rs[r].init_end < first) first = b->rs[r].init_end;
  for (uint32_t r = 0; r < b->g->nranks; r++)
    if (b->rs[r].started && first != UINT64_MAX)
      b->g->ranks[r].start = (double)(b->rs[r].init_end - first) * 1e-9;
}

static int nomem(builder *b) {
  return augur_fail(&b->err, AUGUR_E_NOMEM, "out of memory building the execution graph");
}

/* The trace ended: creations some member never reached and ends the
 * matcher never paired are replayed as no-ops. Streaming, the operations
 * run so far were all resolved already. */
static int finish(builder *b) {
  flush_parent(b);
  if (b->nomem) return nomem(b);
  augur_sim_graph *g = b->g;
  for (uint32_t r = 0; r < g->nranks; r++)
    for (size_t i = 0; i < g->ranks[r].n; i++) {
      augur_sim_op *op = &g->ranks[r].ops[i];
      if (op->kind == AUGUR_SIM_COLL && (op->a & SIM_INST_COMMGMT)) {
        int64_t k = mm_find(&b->cnt, 0, SIDE_COMMGMT, op->a);
        if (k < 0 || b->cnt.s[k].val != g->comms[op->comm].size) op->a = AUGUR_SIM_NONE;
      }
      if ((op->kind == AUGUR_SIM_SEND || op->kind == AUGUR_SIM_RECV ||
           op->kind == AUGUR_SIM_COLL) &&
          op->a == AUGUR_SIM_NONE) {
        op->flags |= AUGUR_SIM_F_UNMATCHED;
        b->nunmatched++;
      }
    }
  uint64_t first = UINT64_MAX, last = 0;
  for (uint32_t r = 0; r < g->nranks; r++) {
    if (!b->rs[r].started) continue;
    if (b->rs[r].init_end < first) first = b->rs[r].init_end;
    uint64_t end = b->rs[r].done ? b->rs[r].fin_start : b->rs[r].last_end;
    if (end > last) last = end;
  }
  g->measured = first != UINT64_MAX && last > first ? (double)(last - first) * 1e-9 : 0;
  set_starts(b);
  b->eof = 1;
  return 0;
}

/* Reads one event: 1, 0 at the end of the trace (after finish), < 0 on error. */
static int step(builder *b) {
  if (b->eof) return 0;
  augur_event ev;
  int rc = augur_stream_next(b->s, &ev, &b->err);
  if (rc < 0) return rc;
  if (rc == 0) return finish(b);
  b->g->trace_events++;
  on_event(b, &ev);
  rc = augur_match_feed_call(b->mt, &ev, b->tag, &b->err);
  if (rc < 0) return rc;
  if (b->nomem) return nomem(b);
  return 1;
}

static void builder_free(builder *b) {
  if (!b) return;
  augur_stream_close(b->s);
  augur_matcher_free(b->mt);
  augur_sim_graph_free(b->g);
  if (b->rs)
    for (uint32_t r = 0; r < b->nrs; r++)
      free(b->rs[r].map.s);
  free(b->rs);
  free(b->pers);
  free(b->wl);
  free(b->cnt.s);
  sim_iorma_free(&b->iorma);
  free(b);
}

typedef struct cpu_change {
  double t;
  uint32_t rank, cpu;
} cpu_change;

static int by_time(const void *a, const void *b) {
  const cpu_change *x = a, *y = b;
  return x->t < y->t ? -1 : x->t > y->t ? 1 : (x->rank > y->rank) - (x->rank < y->rank);
}

/* A rank's local time on rank 0's clock (the MPI_Init sync). */
static double global_s(const augur_rank_def *d, uint64_t ns) {
  return ((double)ns + (double)(d->nsync ? d->sync[0].offset_ns : 0)) * 1e-9;
}

void augur_sim_placements_free(augur_sim_placements *p) {
  free(p->cpu);
  free(p->share);
  memset(p, 0, sizeof *p);
}

/* Adds DT seconds of the placement CUR (ranks' CPUs renumbered in order of
 * first use into KEY) to P's table; beyond AUGUR_SIM_MAX_PLACEMENTS to
 * P->dropped. */
static void placement_add(augur_sim_placements *p, const uint32_t *cur, uint32_t *key, double dt) {
  uint32_t n = p->nranks, next = 0;
  for (uint32_t r = 0; r < n; r++) {
    uint32_t q = 0;
    while (q < r && cur[q] != cur[r])
      q++;
    key[r] = q < r ? key[q] : next++;
  }
  for (uint32_t k = 0; k < p->n; k++)
    if (!memcmp(&p->cpu[(size_t)k * n], key, n * sizeof *key)) {
      p->share[k] += dt;
      return;
    }
  if (p->n == AUGUR_SIM_MAX_PLACEMENTS) {
    p->dropped += dt;
    return;
  }
  memcpy(&p->cpu[(size_t)p->n * n], key, n * sizeof *key);
  p->share[p->n++] = dt;
}

int augur_sim_recorded_placements(const augur_trace *t, augur_sim_placements *p, augur_error *err) {
  assert(t && p);
  memset(p, 0, sizeof *p);
  uint32_t n = augur_trace_nranks(t);
  p->nranks = n;
  size_t nch = 0;
  double start = 0, end = HUGE_VAL;
  for (uint32_t r = 0; r < n; r++) {
    const augur_rank_def *d = augur_trace_rank(t, r);
    if (!d || !d->nmoves || !d->moves) {
      snprintf(p->why, sizeof p->why, "rank %u did not record its CPUs", r);
      return AUGUR_OK;
    }
    if (d->moves_lost) {
      snprintf(p->why, sizeof p->why, "rank %u changed CPUs more than %d times", r,
               AUGUR_MAX_MOVES);
      return AUGUR_OK;
    }
    if (!d->finalize_ns) {
      snprintf(p->why, sizeof p->why, "rank %u did not reach MPI_Finalize", r);
      return AUGUR_OK;
    }
    double a = global_s(d, d->moves[0].ns), z = global_s(d, d->finalize_ns);
    if (!r || a > start) start = a;
    if (z < end) end = z;
    nch += d->nmoves;
  }
  if (!n || !(end > start)) {
    snprintf(p->why, sizeof p->why, "the ranks' CPU records do not overlap in time");
    return AUGUR_OK;
  }
  if ((uint64_t)n * AUGUR_SIM_MAX_PLACEMENTS > (1u << 26)) {
    snprintf(p->why, sizeof p->why, "more ranks than the placement table takes");
    return AUGUR_OK;
  }
  cpu_change *ch = malloc(nch * sizeof *ch);
  uint32_t *cur = malloc(n * sizeof *cur), *key = malloc(n * sizeof *key);
  p->cpu = malloc((size_t)n * AUGUR_SIM_MAX_PLACEMENTS * sizeof *p->cpu);
  p->share = calloc(AUGUR_SIM_MAX_PLACEMENTS, sizeof *p->share);
  if (!ch || !cur || !key || !p->cpu || !p->share) {
    free(ch);
    free(cur);
    free(key);
    augur_sim_placements_free(p);
    return augur_fail(err, AUGUR_E_NOMEM, "placement: out of memory for %u ranks", n);
  }
  size_t m = 0;
  for (uint32_t r = 0; r < n; r++) { /* each rank's CPU at START, then its changes */
    const augur_rank_def *d = augur_trace_rank(t, r);
    cur[r] = d->moves[0].cpu;
    for (uint32_t i = 1; i < d->nmoves; i++) {
      double at = global_s(d, d->moves[i].ns);
      if (at <= start)
        cur[r] = d->moves[i].cpu;
      else if (at < end)
        ch[m++] = (cpu_change){at, r, d->moves[i].cpu};
    }
  }
  qsort(ch, m, sizeof *ch, by_time);
  double at = start;
  for (size_t i = 0; i < m; i++) {
    if (ch[i].t > at) placement_add(p, cur, key, ch[i].t - at);
    at = ch[i].t;
    cur[ch[i].rank] = ch[i].cpu;
  }
  placement_add(p, cur, key, end - at);
  p->moves = (uint32_t)m;
  p->seconds = end - start;
  for (uint32_t k = 0; k < p->n; k++) /* most held first (insertion sort) */
    for (uint32_t j = k; j > 0 && p->share[j] > p->share[j - 1]; j--) {
      double x = p->share[j];
      p->share[j] = p->share[j - 1];
      p->share[j - 1] = x;
      for (uint32_t r = 0; r < n; r++) {
        uint32_t y = p->cpu[(size_t)j * n + r];
        p->cpu[(size_t)j * n + r] = p->cpu[(size_t)(j - 1) * n + r];
        p->cpu[(size_t)(j - 1) * n + r] = y;
      }
    }
  for (uint32_t k = 0; k < p->n; k++)
    p->share[k] /= p->seconds;
  p->dropped /= p->seconds;
  free(ch);
  free(cur);
  free(key);
  return AUGUR_OK;
}

/* The slot of the counter of SOURCE named A or B, or -1: CPU nanoseconds
 * (perf's task-clock or cpu-clock: `augur record --counters task-clock`),
 * nanoseconds waiting for a CPU (run-delay: recorded by default with more
 * ranks than CPUs). A before B. */
static int counter_slot(augur_trace *t, uint32_t source, const char *a, const char *b) {
  int slot = augur_trace_counter_slot(t, source, a);
  return slot >= 0 ? slot : augur_trace_counter_slot(t, source, b);
}

int augur_sim_recorded_load(augur_trace *t, const char *host, uint32_t cores, double *load,
                            augur_error *err) {
  assert(t && host && load);
  *load = -1;
  int slot = augur_trace_counter_slot(t, AUGUR_CTR_OS, "run-delay");
  /* The delay inside the calls, where polling ranks lose their CPU (a
   * burst starts on a CPU: a short one is rarely preempted): with it the
   * share is over the whole span, calls included. */
  int in_mpi = augur_trace_counter_slot(t, AUGUR_CTR_OS, "run-delay-mpi");
  if (slot < 0 || !cores) return AUGUR_OK;
  double wall = 0, off = 0;
  uint32_t n = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    const augur_rank_def *d = augur_trace_rank(t, r);
    if (!d || strcmp(d->host ? d->host : "", host) != 0) continue;
    n++;
    augur_stream *st = NULL;
    int rc = augur_stream_rank(t, r, &st, err);
    if (rc < 0) return rc;
    augur_event ev;
    uint64_t last = 0, prev_start = 0, prev_end = 0;
    while ((rc = augur_stream_next(st, &ev, err)) == 1) {
      if (last && ev.t_start > last) {
        uint64_t w = ev.t_start - last, dl = ev.ctr[slot] < w ? ev.ctr[slot] : w;
        wall += (double)w;
        off += (double)dl;
      }
      if (ev.t_end > last) last = ev.t_end;
      if (in_mpi < 0 || augur_event_is_sub(ev.type) || augur_event_is_omp(ev.type)) continue;
      if (prev_end > prev_start) { /* this call carries the previous call's */
        uint64_t w = prev_end - prev_start, dl = ev.ctr[in_mpi] < w ? ev.ctr[in_mpi] : w;
        wall += (double)w;
        off += (double)dl;
      }
      /* MPI_Init's span is start-up, not the run simulated */
      int init = ev.type == AUGUR_EV_INIT || ev.type == AUGUR_EV_INIT_THREAD;
      prev_start = init ? 0 : ev.t_start;
      prev_end = init ? 0 : ev.t_end;
    }
    augur_stream_close(st);
    if (rc < 0) return rc;
  }
  if (!(wall > 0) || !n) return AUGUR_OK;
  double got = (wall - off) / wall * n / cores;
  *load = got >= 1 ? 0 : got <= 0.05 ? 0.95 : 1 - got;
  return AUGUR_OK;
}

/* The builder needs each rank's calls in order, not the ranks interleaved
 * by time (the matcher's rule, include/augur/match.h; a parent's
 * sub-records still follow it): with a slack the merged stream hands out a
 * rank's records in runs, so the reader's batch, the builder's rank state
 * and operation array, and the matcher's per-rank tables stay in the cache
 * for a run instead of one record (issue 27: at 4,096 ranks every record
 * was a cache miss in each). The result is the same: the ends and
 * instances pair as before, and a message's or instance's number orders
 * nothing in the simulator; what is held in flight grows by the slack's
 * window (graph.bytes; docs/simulate.md "Memory").
 *
 * The slack is set in records, not in time: the time in which an average
 * rank writes SIM_RUN records (from the block index: the run's extent,
 * augur_run_extent, over the records per rank), so a sparse trace gets
 * runs as long as a dense one. SIM_RUN is SIM_WINDOW / ranks within [SIM_RUN_MIN,
 * SIM_RUN_MAX]: about SIM_WINDOW records in flight (~100 bytes each in
 * the builder and the matcher) at thousands of ranks, and no more than
 * SIM_RUN_MAX per rank at a few (whose state stays in the cache anyway).
 * Never under SIM_SLACK_MIN_NS, the fixed slack of stop 40.
 * AUGUR_SIM_SLACK_NS=N in the environment sets it (0: strict time order,
 * what the tests compare with). */
#define SIM_WINDOW       (8u << 20) /* records */
#define SIM_RUN_MIN      128u
#define SIM_RUN_MAX      1024u
#define SIM_SLACK_MIN_NS 1000000u /* 1 ms, as the logical timeline's LT_SLACK_NS */

static uint64_t sim_slack_of(augur_trace *t) {
  uint32_t n = augur_trace_nranks(t);
  uint64_t records = augur_trace_total_events(t), first, last;
  augur_run_extent(t, &first, &last, NULL);
  if (n == 0 || records == 0 || last <= first) return SIM_SLACK_MIN_NS;
  uint32_t run = SIM_WINDOW / n;
  run = run < SIM_RUN_MIN ? SIM_RUN_MIN : run > SIM_RUN_MAX ? SIM_RUN_MAX : run;
  /* a rank's time for RUN records: the run's extent over its records per rank */
  double ns = (double)run * (double)(last - first) * n / (double)records;
  if (!(ns > SIM_SLACK_MIN_NS)) return SIM_SLACK_MIN_NS;
  return ns >= 1e18 ? (uint64_t)1e18 : (uint64_t)ns;
}

static int sim_slack_ns(augur_trace *t, uint64_t *ns, augur_error *err) {
  const char *e = getenv("AUGUR_SIM_SLACK_NS");
  if (!e || !*e) {
    *ns = sim_slack_of(t);
    return AUGUR_OK;
  }
  char *end;
  unsigned long long v = strtoull(e, &end, 10);
  if (*end || e[0] < '0' || e[0] > '9')
    return augur_fail(err, AUGUR_E_ARG, "AUGUR_SIM_SLACK_NS=%s: not a number of nanoseconds", e);
  *ns = (uint64_t)v;
  return AUGUR_OK;
}

static int builder_open(builder **out, augur_trace *t, const sim_windows *win, augur_error *err) {
  *out = NULL;
  uint32_t n = augur_trace_nranks(t);
  for (uint32_t r = 0; r < n; r++) {
    const char *msg = NULL; /* the count is over all ranks, the message per rank */
    if (augur_trace_damage(t, r, &msg) && msg)
      return augur_fail(err, AUGUR_E_FORMAT, "damaged trace: %s", msg);
  }
  if (n == 0)
    return augur_fail(err, AUGUR_E_FORMAT, "%s: the trace has no ranks", augur_trace_path(t));
  builder *b = calloc(1, sizeof *b);
  if (!b) return augur_fail(err, AUGUR_E_NOMEM, "out of memory building the execution graph");
  b->t = t;
  b->win = win;
  b->sendrecv_send = -1;
  b->cpu_ctr = counter_slot(t, AUGUR_CTR_PERF, "task-clock", "cpu-clock");
  b->delay_ctr = augur_trace_counter_slot(t, AUGUR_CTR_OS, "run-delay");
  b->g = augur_sim_graph_new(n);
  b->rs = aligned_alloc(64, n * sizeof *b->rs);
  if (b->rs) {
    memset(b->rs, 0, n * sizeof *b->rs);
    b->nrs = n;
  }
  b->mt = augur_matcher_new(t, on_message, on_coll, b);
  if (!b->g || !b->rs || !b->mt) {
    builder_free(b);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory building the execution graph");
  }
  uint64_t slack = 0;
  int rc = sim_slack_ns(t, &slack, err);
  if (rc == AUGUR_OK) rc = augur_stream_merged(t, &b->s, err);
  if (rc == AUGUR_OK) rc = augur_stream_set_slack(b->s, slack, err);
  if (rc < 0) {
    builder_free(b);
    return rc;
  }
  *out = b;
  return AUGUR_OK;
}

int augur_sim_graph_from_trace(augur_sim_graph **out, augur_trace *t, augur_error *err) {
  return sim_graph_build(out, t, NULL, err);
}

int sim_graph_build(augur_sim_graph **out, augur_trace *t, const sim_windows *win,
                    augur_error *err) {
  *out = NULL;
  builder *b;
  int rc = builder_open(&b, t, win, err);
  if (rc < 0) return rc;
  while ((rc = step(b)) > 0)
    ;
  if (rc < 0) {
    *err = b->err;
  } else {
    *out = b->g;
    b->g = NULL;
    rc = AUGUR_OK;
  }
  builder_free(b);
  return rc;
}

/* ---- Streaming ---------------------------------------------------------- */

int sim_src_open(sim_src **out, augur_trace *t, const sim_windows *win,
                 const augur_sim_site_scale *sites, size_t nsites, augur_error *err) {
  int rc = builder_open(out, t, win, err);
  if (rc < 0) return rc;
  (*out)->stream = 1;
  (*out)->sites = sites;
  (*out)->nsites = nsites;
  return AUGUR_OK;
}

void sim_src_set_msg(sim_src *b, sim_msg_fn fn, void *ctx) {
  b->new_msg = fn;
  b->msg_ctx = ctx;
}

void sim_src_set_progress(sim_src *b, augur_progress_fn fn, void *arg) {
  b->progress = fn;
  b->progress_arg = arg;
  b->progress_total = fn ? augur_trace_total_events(b->t) : 0;
}

void sim_src_progress(sim_src *b, uint64_t ran) {
  if (!b->progress || b->nops == 0) return;
  /* the reading runs ahead of the simulation by its window: the records behind the
   * operations run, at the operations per record read so far */
  double done = (double)ran * (double)b->g->trace_events / (double)b->nops;
  b->progress(b->progress_arg, (uint64_t)done, b->progress_total);
}

int sim_src_start(sim_src *b) {
  int rc = 1;
  while (b->nstarted < b->g->nranks && (rc = step(b)) > 0)
    ;
  if (rc < 0) return rc;
  set_starts(b);
  return AUGUR_OK;
}

/* Forgets RANK's operations before PC once they are as many as those held
 * after it (moving the rest costs no more than what was freed), with the
 * wait lists of the WAITs among them. */
static void release(builder *b, uint32_t rank, uint64_t pc) {
  sim_rank_ops *ro = &b->g->ranks[rank];
  size_t k = (size_t)(pc - ro->base);
  if (k < 64 || k < ro->n - k) return;
  uint64_t wl_end = ro->wl_base;
  for (size_t i = 0; i < k; i++)
    if (ro->ops[i].kind == AUGUR_SIM_WAIT) wl_end = ro->ops[i].a + ro->ops[i].b;
  memmove(ro->ops, ro->ops + k, (ro->n - k) * sizeof *ro->ops);
  ro->n -= k;
  ro->base = pc;
  b->held -= k;
  size_t w = (size_t)(wl_end - ro->wl_base);
  if (w) {
    memmove(ro->wl, ro->wl + w, (ro->nwl - w) * sizeof *ro->wl);
    ro->nwl -= w;
    ro->wl_base = wl_end;
  }
}

/* Can the operation at RANK's PC run before the trace ends? */
static int resolved(builder *b, uint32_t rank, uint64_t pc) {
  const sim_rank_ops *ro = &b->g->ranks[rank];
  const augur_sim_op *op = &ro->ops[pc - ro->base];
  switch (op->kind) {
  case AUGUR_SIM_COMPUTE: /* --scale SITE may still change it: known once what follows is */
    return !b->nsites || pc + 1 < ro->base + ro->n || b->rs[rank].done;
  case AUGUR_SIM_SEND:
  case AUGUR_SIM_RECV:
    return op->a != AUGUR_SIM_NONE;
  case AUGUR_SIM_COLL:
    if (op->a == AUGUR_SIM_NONE) return 0;
    if (op->a & SIM_INST_COMMGMT) {
      int64_t k = mm_find(&b->cnt, 0, SIDE_COMMGMT, op->a);
      return k >= 0 && b->cnt.s[k].val == b->g->comms[op->comm].size;
    }
    return 1;
  default:
    return 1;
  }
}

int sim_src_ready(sim_src *b, uint32_t rank, uint64_t pc) {
  const sim_rank_ops *ro = &b->g->ranks[rank];
  release(b, rank, pc);
  for (;;) {
    if (pc < ro->base + ro->n) {
      if (b->eof || resolved(b, rank, pc)) return 1;
    } else if (b->eof || b->rs[rank].done) {
      return 0; /* a rank's operations end at its MPI_Finalize */
    }
    int rc = step(b);
    if (rc < 0) return rc;
  }
}

int sim_src_drain(sim_src *b) {
  int rc;
  while ((rc = step(b)) > 0)
    ;
  return rc;
}

augur_sim_graph *sim_src_graph(sim_src *b) {
  return b->g;
}

const augur_error *sim_src_error(const sim_src *b) {
  return &b->err;
}

uint64_t sim_src_held(const sim_src *b) {
  return b->held;
}

void sim_src_stats(const sim_src *b, augur_sim_graph_stats *s) {
  const augur_sim_graph *g = b->g;
  memset(s, 0, sizeof *s);
  s->nranks = g->nranks;
  s->ops = b->nops;
  s->compute_ops = b->ncompute;
  s->messages = b->nmsgs;
  s->collectives = g->ninstances;
  s->waits = b->nwaitops;
  s->unmatched = b->nunmatched;
  s->trace_events = g->trace_events;
  s->measured_seconds = g->measured;
  uint64_t bytes = sizeof *b + sizeof *g + g->nranks * (sizeof *g->ranks + sizeof *b->rs);
  for (uint32_t r = 0; r < g->nranks; r++)
    bytes += g->ranks[r].cap * sizeof(augur_sim_op) + g->ranks[r].wl_cap * sizeof(uint64_t);
  for (size_t i = 0; i < g->ncomms; i++)
    bytes += g->comms[i].size * sizeof(uint32_t);
  for (uint32_t r = 0; r < b->nrs; r++)
    bytes += b->rs[r].map.cap * sizeof(mm_slot);
  bytes += b->cnt.cap * sizeof(mm_slot) + b->pers_cap * sizeof *b->pers + b->wl_cap * sizeof *b->wl;
  s->bytes = bytes - sizeof b->iorma;
  sim_graph_iorma_stats(g, &b->iorma, sizeof b->iorma, s);
}

void sim_src_close(sim_src *b) {
  builder_free(b);
}
