/* augur — the streaming message matcher (see include/augur/match.h).
 *
 * Three tables, all holding only what is in flight:
 *  - channels: per (sender, receiver, comm, tag) a FIFO of the ends waiting
 *    for a partner; it holds sends or receives, never both, because a new end
 *    of the other side matches the oldest waiting one;
 *  - requests: per (rank, handle) what the call that posted the request
 *    said (Irecv post time, persistent send's destination...), until its
 *    completion (or Request_free for persistent ones). A FIFO again, because
 *    MPICH hands out one shared handle for several in-flight requests;
 *  - collectives: per communicator, each member's call count and the window
 *    of instances some member has not reached yet. */
#include <stdlib.h>
#include <string.h>

#include "augur/match.h"
#include "check.h"
#include "grow.h"
#include "qtab.h"

/* ---- collectives ---------------------------------------------------------- */

typedef struct coll_inst {
  augur_coll_member *mem;
  uint32_t arrived;
  uint16_t type; /* the first arrival's call */
  uint16_t mixed;
} coll_inst;

typedef struct coll_comm {
  uint64_t id;
  uint32_t n;      /* the group's members, then the remote group's (an intercommunicator) */
  uint32_t local;  /* the group's */
  uint64_t *calls; /* per member: collective calls made so far */
  coll_inst *ring; /* instances base .. base+len-1, in flight */
  size_t head, len, cap;
  uint64_t base;
  augur_coll_member *spare; /* a finished instance's members, for the next one */
} coll_comm;

/* ---- the matcher ---------------------------------------------------------- */

/* What a sub-record takes from its parent call. */
typedef struct call_times {
  uint64_t t_start, t_end, callsite;
  uint64_t call; /* the feeder's tag (augur_match_feed_call) */
} call_times;

/* What the call that started a request said. */
typedef struct post {
  augur_match_end e; /* posting call: t_post, callsite, type, kind, sync, bytes */
  uint64_t comm;
  int32_t peer, tag;
  int is_send, persistent;
} post;

struct augur_matcher {
  augur_trace *trace;
  augur_message_fn on_message;
  augur_coll_fn on_coll;
  void *ctx;
  aug_qtab chan, req;
  coll_comm *comms;
  size_t ncomms, capcomms, lastcomm;
  call_times parent;         /* last non-sub-record: sub-records take its times */
  uint16_t parent_type;      /* its type */
  uint8_t act[AUGUR_EV_MAX]; /* per event type: what feeding it does (enum act) */
  uint64_t horizon;
  augur_match_counts cnt;
  size_t waiting; /* ends in channels */
};

/* What augur_match_feed does with an event type, decided once per type. */
enum act {
  A_NONE,
  A_POST_PERSISTENT, /* *_INIT: a persistent request */
  A_SEND_BLOCKING,   /* Send, Sendrecv...: a send end */
  A_SEND_NONBLOCKING,
  A_IRECV, /* Irecv, Imrecv: a receive request */
  A_RECV,  /* Recv, Mrecv, SUB_RECV: a receive end */
  A_START, /* Start, SUB_START */
  A_FREE,  /* Request_free */
  A_COMPLETION,
  A_COLL,
  A_NEIGH /* NEIGH_SEND / NEIGH_RECV: one end of a neighbourhood exchange */
};

static int is_send_init(unsigned type) {
  return type >= AUGUR_EV_SEND_INIT && type <= AUGUR_EV_RSEND_INIT;
}

static uint8_t act_of(unsigned t) {
  if (is_send_init(t) || t == AUGUR_EV_RECV_INIT) return A_POST_PERSISTENT;
  if (augur_event_is_p2p_send(t))
    return augur_event_is_nonblocking(t) ? A_SEND_NONBLOCKING : A_SEND_BLOCKING;
  switch (t) {
  case AUGUR_EV_IRECV:
  case AUGUR_EV_IMRECV:
    return A_IRECV;
  case AUGUR_EV_RECV:
  case AUGUR_EV_MRECV:
  case AUGUR_EV_SUB_RECV:
    return A_RECV;
  case AUGUR_EV_START:
  case AUGUR_EV_SUB_START:
    return A_START;
  case AUGUR_EV_REQUEST_FREE:
    return A_FREE;
  case AUGUR_EV_COMPLETION:
    return A_COMPLETION;
  case AUGUR_EV_NEIGH_SEND:
  case AUGUR_EV_NEIGH_RECV:
    return A_NEIGH;
  default:
    return augur_event_is_collective(t) ? A_COLL : A_NONE;
  }
}

augur_matcher *augur_matcher_new(augur_trace *trace, augur_message_fn on_message,
                                 augur_coll_fn on_coll, void *ctx) {
  augur_matcher *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->trace = trace;
  m->on_message = on_message;
  m->on_coll = on_coll;
  m->ctx = ctx;
  m->horizon = UINT64_MAX;
  m->parent.call = AUGUR_MATCH_NO_CALL;
  for (unsigned t = 0; t < AUGUR_EV_MAX; t++)
    m->act[t] = act_of(t);
  if (aug_qt_init(&m->chan, sizeof(augur_match_end)) || aug_qt_init(&m->req, sizeof(post))) {
    aug_qt_free(&m->chan);
    free(m);
    return NULL;
  }
  return m;
}

static void comm_free(coll_comm *c) {
  for (size_t i = 0; i < c->len; i++)
    free(c->ring[(c->head + i) % c->cap].mem);
  free(c->ring);
  free(c->spare);
  free(c->calls);
}

void augur_matcher_free(augur_matcher *m) {
  if (!m) return;
  aug_qt_free(&m->chan);
  aug_qt_free(&m->req);
  for (size_t i = 0; i < m->ncomms; i++)
    comm_free(&m->comms[i]);
  free(m->comms);
  free(m);
}

void augur_matcher_set_horizon(augur_matcher *m, uint64_t t) {
  m->horizon = t;
}

uint64_t augur_match_sends_by_horizon(const augur_matcher *m) {
  return m->cnt.sends_by_horizon;
}

#if AUG_CHECKS
/* A communicator's window: its instances fit the ring; every member has
 * made the calls of the instances already emitted (calls >= base) and none
 * has gone past the newest open one (calls <= base + len); no open
 * instance has all members yet (it would have been emitted: a member
 * reaches instance k only after every earlier one). */
static int comm_check(const coll_comm *c) {
  if (c->len > c->cap || (c->cap && c->head >= c->cap)) return 0;
  for (uint32_t i = 0; i < c->n; i++)
    if (c->calls[i] < c->base || c->calls[i] > c->base + c->len) return 0;
  for (size_t i = 0; i < c->len; i++)
    if (c->ring[(c->head + i) % c->cap].arrived >= c->n) return 0;
  return 1;
}

/* The matcher's tables hold (aug_qt_check), the channels' ends add up to
 * m->waiting, and every communicator's window holds (comm_check). */
static int matcher_check(const augur_matcher *m) {
  size_t waiting = 0;
  if (!aug_qt_check(&m->chan) || !aug_qt_check(&m->req) || m->ncomms > m->capcomms) return 0;
  for (size_t i = 0; i < m->chan.cap; i++)
    waiting += aug_qt_at(&m->chan, i)->used ? aug_qt_at(&m->chan, i)->len : 0;
  if (waiting != m->waiting || waiting > AUGUR_MATCH_MAX_PENDING) return 0;
  for (size_t i = 0; i < m->ncomms; i++)
    if (!comm_check(&m->comms[i])) return 0;
  return 1;
}
#endif

void augur_match_counts_get(const augur_matcher *m, augur_match_counts *c) {
  assert(m && c);
  AUG_CHECK(matcher_check(m));
  *c = m->cnt;
  c->unmatched_send = c->unmatched_recv = c->open_recv = c->open_coll = 0;
  for (size_t i = 0; i < m->chan.cap; i++) {
    const aug_queue *q = aug_qt_at(&m->chan, i);
    if (q->used) *(q->side ? &c->unmatched_recv : &c->unmatched_send) += q->len;
  }
  for (size_t i = 0; i < m->req.cap; i++) {
    const aug_queue *q = aug_qt_at(&m->req, i);
    for (size_t j = 0; q->used && j < q->len; j++) {
      const post *p = aug_q_at(q, sizeof(post), j);
      if (!p->is_send && !p->persistent) c->open_recv++;
    }
  }
  for (size_t i = 0; i < m->ncomms; i++)
    c->open_coll += m->comms[i].len;
}

void augur_match_each_waiting(const augur_matcher *m, augur_waiting_fn fn, void *ctx) {
  for (size_t i = 0; i < m->chan.cap; i++) {
    const aug_queue *q = aug_qt_at(&m->chan, i);
    for (size_t j = 0; q->used && j < q->len; j++)
      fn(ctx, q->k.a, q->k.b, q->k.c, q->k.d, aug_q_at(q, sizeof(augur_match_end), j), !q->side);
  }
}

static int nomem(augur_error *err) {
  return augur_fail(err, AUGUR_E_NOMEM, "match: out of memory matching messages");
}

/* Where an end arriving on channel K (hash H) goes; side 0 = send. If the
 * other side waits, its oldest end moves into MSG and the new end is to be
 * written into MSG too (*matched = 1); else the new end is to be written
 * at the back of the channel's queue. NULL: not kept (*rc = AUGUR_OK: too
 * many waiting, counted as dropped; or out of memory). */
static augur_match_end *end_slot(augur_matcher *m, int side, const aug_qkey *k, augur_message *msg,
                                 int *matched, int *rc, augur_error *err) {
  assert((side == 0 || side == 1) && m->waiting <= AUGUR_MATCH_MAX_PENDING);
  uint32_t h = aug_qkey_hash(k);
  aug_queue *q = aug_qt_slot(&m->chan, k, h);
  *rc = AUGUR_OK;
  if (q->used && q->len && q->side != side) { /* the other side waits: match the oldest */
    aug_q_pop(q, side == 0 ? &msg->recv : &msg->send, sizeof msg->send);
    m->waiting--;
    *matched = 1;
    return side == 0 ? &msg->send : &msg->recv;
  }
  *matched = 0;
  if (m->waiting >= AUGUR_MATCH_MAX_PENDING) {
    m->cnt.dropped++;
    return NULL;
  }
  augur_match_end *e = NULL;
  if (q->used || (q = aug_qt_add(&m->chan, q, k, h))) {
    q->side = (uint8_t)side;
    e = aug_q_push(&m->chan, q, sizeof *e);
  }
  if (!e) *rc = nomem(err);
  return e;
}

/* The end end_slot gave is filled in: count it, or report the message. */
static int end_done(augur_matcher *m, int side, const aug_qkey *k, const augur_match_end *e,
                    augur_message *msg, int matched) {
  assert(e && (side == 0 || side == 1));
  if (!matched) {
    m->waiting++;
    if (side == 0 && e->t_start <= m->horizon) m->cnt.sends_by_horizon++;
    return AUGUR_OK;
  }
  if (side == 1 && msg->send.t_start <= m->horizon) m->cnt.sends_by_horizon--;
  msg->id = m->cnt.messages++;
  msg->sender = k->a;
  msg->receiver = k->b;
  msg->comm = k->c;
  msg->tag = k->d;
  msg->bytes = msg->send.bytes;
  return m->on_message ? m->on_message(m->ctx, msg) : AUGUR_OK;
}

/* One end E, built elsewhere, arrives on channel (sender, receiver, comm,
 * tag); side 0 = send. */
static int add_end(augur_matcher *m, int side, uint32_t sender, uint32_t receiver, uint64_t comm,
                   int32_t tag, const augur_match_end *e, augur_error *err) {
  aug_qkey k = {comm, sender, receiver, tag, 0};
  augur_message msg;
  int matched, rc;
  augur_match_end *d = end_slot(m, side, &k, &msg, &matched, &rc, err);
  if (!d) return rc;
  *d = *e;
  return end_done(m, side, &k, d, &msg, matched);
}

static int is_sync(unsigned type) {
  return type == AUGUR_EV_SSEND || type == AUGUR_EV_ISSEND || type == AUGUR_EV_SSEND_INIT;
}

/* Fills E, the end a call posts, in place: the call's times (P is the
 * parent for a sub-record) and the event's own rank, thread and type. */
static inline void end_fill(augur_match_end *e, const augur_event *ev, const call_times *p,
                            int kind, uint64_t bytes) {
  memset(e, 0, sizeof *e);
  e->t_post = p->t_start;
  e->t_start = p->t_start;
  e->t_end = p->t_end;
  e->bytes = bytes;
  e->callsite = p->callsite;
  e->wait_callsite = p->callsite;
  e->rank = ev->rank;
  e->thread = ev->thread;
  e->type = ev->type;
  e->hash = ev->hash;
  e->flags = ev->flags;
  e->kind = (uint8_t)kind;
  e->sync = (uint8_t)is_sync(ev->type);
  e->call = p->call;
}

/* What a completed receive takes from the Irecv that posted it. */
typedef struct post_info {
  uint64_t t_post, callsite;
  uint16_t type;
} post_info;

/* The end EV posts (see end_fill) arrives on channel (sender, receiver,
 * comm, tag), written straight where it goes. POSTED: a receive request's
 * post, whose time, call site and type the end takes; else TYPE, if not 0,
 * replaces the end's type. */
static int post_end(augur_matcher *m, int side, uint32_t sender, uint32_t receiver,
                    const augur_event *ev, const call_times *par, int kind, uint64_t bytes,
                    const post_info *posted, uint16_t type, augur_error *err) {
  aug_qkey k = {ev->comm, sender, receiver, ev->tag, 0};
  augur_message msg;
  int matched, rc;
  augur_match_end *e = end_slot(m, side, &k, &msg, &matched, &rc, err);
  if (!e) return rc;
  end_fill(e, ev, par, kind, bytes);
  if (posted) {
    e->t_post = posted->t_post;
    e->callsite = posted->callsite;
    e->type = posted->type;
  } else if (type) {
    e->type = type;
  }
  return end_done(m, side, &k, e, &msg, matched);
}

/* EV starts a request (Irecv, Imrecv; PERSISTENT: *_INIT): what it says
 * is queued under its handle, written in place. */
static int post_request(augur_matcher *m, const augur_event *ev, const call_times *par, int kind,
                        uint64_t bytes, int is_send, int persistent, augur_error *err) {
  aug_qkey k = {ev->req, ev->rank, 0, 0, 0};
  aug_queue *q = aug_qt_get(&m->req, &k, aug_qkey_hash(&k));
  if (!q) return nomem(err);
  if (persistent) /* an *_INIT replaces whatever the handle held */
    aug_q_clear(q);
  post *p = aug_q_push(&m->req, q, sizeof *p);
  if (!p) return nomem(err);
  end_fill(&p->e, ev, par, kind, bytes);
  p->comm = ev->comm;
  p->peer = ev->peer;
  p->tag = ev->tag;
  p->is_send = is_send;
  p->persistent = persistent;
  return AUGUR_OK;
}

/* A (persistent) request restarted by Start or Startall's SUB_START. */
static int start_request(augur_matcher *m, const augur_event *ev, const call_times *par,
                         augur_error *err) {
  aug_qkey k = {ev->req, ev->rank, 0, 0, 0};
  aug_queue *q = aug_qt_find(&m->req, &k, aug_qkey_hash(&k));
  if (!q) return AUGUR_OK; /* started before the trace began: nothing known */
  post *p = aug_q_at(q, sizeof *p, 0);
  if (!p->persistent) return AUGUR_OK;
  p->e.t_post = par->t_start;
  if (!p->is_send || p->peer < 0) return AUGUR_OK;
  /* A persistent send joins its channel when started: that is its place in
   * the non-overtaking order. */
  augur_match_end e = p->e;
  e.t_start = par->t_start;
  e.t_end = par->t_end;
  e.call = par->call;
  e.wait_callsite = par->callsite;
  e.thread = ev->thread;
  return add_end(m, 0, ev->rank, (uint32_t)p->peer, p->comm, p->tag, &e, err);
}

static int complete_recv(augur_matcher *m, const augur_event *ev, const call_times *par,
                         augur_error *err) {
  aug_qkey k = {ev->req, ev->rank, 0, 0, 0};
  aug_queue *q = aug_qt_find(&m->req, &k, aug_qkey_hash(&k));
  /* What the receive's post said, read in place (no copy of the post). */
  post_info pi;
  int posted = 0;
  if (q) {
    const post *p = aug_q_at(q, sizeof *p, 0);
    posted = !p->is_send;
    pi = (post_info){p->e.t_post, p->e.callsite, p->e.type};
    if (!p->persistent) aug_q_pop(q, NULL, sizeof *p);
  }
  if ((ev->flags & AUGUR_F_CANCELLED) || ev->peer < 0 || ev->tag < 0) return AUGUR_OK;
  int kind = (ev->flags & AUGUR_F_PERSISTENT) ? AUGUR_MATCH_PERSISTENT : AUGUR_MATCH_NONBLOCKING;
  /* not posted in the trace: posted before it began */
  return post_end(m, 1, (uint32_t)ev->peer, ev->rank, ev, par, kind, ev->bytes_recv,
                  posted ? &pi : NULL, AUGUR_EV_IRECV, err);
}

static void request_free(augur_matcher *m, const augur_event *ev) {
  aug_qkey k = {ev->req, ev->rank, 0, 0, 0};
  aug_queue *q = aug_qt_find(&m->req, &k, aug_qkey_hash(&k));
  if (q) aug_q_pop(q, NULL, sizeof(post)); /* never completed in the trace after this */
}

/* ---- collective instances ---- */

static coll_comm *comm_state(augur_matcher *m, uint64_t id, augur_error *err, int *rc) {
  *rc = AUGUR_OK;
  if (m->lastcomm < m->ncomms && m->comms[m->lastcomm].id == id) return &m->comms[m->lastcomm];
  for (size_t i = 0; i < m->ncomms; i++)
    if (m->comms[i].id == id) return &m->comms[m->lastcomm = i];
  const augur_comm_def *d = augur_trace_comm(m->trace, id);
  /* Unknown communicators and COMM_SELF (one member, different per rank)
   * form no instances across ranks. */
  if (!d || id == AUGUR_COMM_SELF || d->size == 0) return NULL;
  if (aug_grow((void **)&m->comms, &m->capcomms, m->ncomms + 1, sizeof *m->comms)) goto oom;
  coll_comm *c = &m->comms[m->ncomms];
  memset(c, 0, sizeof *c);
  c->id = id;
  /* An intercommunicator's collectives involve both groups. */
  c->n = d->size + d->remote_size;
  c->local = d->size;
  c->calls = calloc(c->n, sizeof *c->calls);
  if (!c->calls) goto oom;
  m->lastcomm = m->ncomms++;
  return c;
oom:
  *rc = nomem(err);
  return NULL;
}

static int emit_ready(augur_matcher *m, coll_comm *c) {
  assert(c->len <= c->cap);
  int rc = AUGUR_OK;
  while (c->len && c->ring[c->head].arrived == c->n) {
    coll_inst *in = &c->ring[c->head];
    augur_coll_instance ci = {c->id, c->base, in->type, in->mixed, c->n, in->mem};
    m->cnt.collectives++;
    if (m->on_coll && rc == AUGUR_OK) rc = m->on_coll(m->ctx, &ci);
    if (!c->spare)
      c->spare = in->mem;
    else
      free(in->mem);
    c->head = (c->head + 1) % c->cap;
    c->len--;
    c->base++;
  }
  return rc;
}

static int add_collective(augur_matcher *m, const augur_event *ev, uint64_t call,
                          augur_error *err) {
  int rc;
  coll_comm *c = comm_state(m, ev->comm, err, &rc);
  if (!c) return rc;
  /* the member's position: its rank in the group, or after the group in the remote one */
  int64_t pos = augur_trace_comm_rank(m->trace, ev->comm, (int32_t)ev->rank, 0);
  if (pos < 0 && (pos = augur_trace_comm_rank(m->trace, ev->comm, (int32_t)ev->rank, 1)) >= 0)
    pos += c->local;
  if (pos < 0) return AUGUR_OK; /* not a member: the definitions disagree */
  assert(pos < c->n && c->len <= c->cap);
  uint64_t k = c->calls[pos]++;
  if (k < c->base) return AUGUR_OK; /* cannot happen in rank order; be safe */
  while (k >= c->base + c->len) {   /* this rank is the first to reach instance k */
    if (c->len == c->cap) {
      size_t ncap = c->cap ? c->cap * 2 : 4;
      coll_inst *nr = malloc(ncap * sizeof *nr);
      if (!nr) return nomem(err);
      for (size_t i = 0; i < c->len; i++)
        nr[i] = c->ring[(c->head + i) % c->cap];
      free(c->ring);
      c->ring = nr;
      c->head = 0;
      c->cap = ncap;
    }
    coll_inst *in = &c->ring[(c->head + c->len) % c->cap];
    if (c->spare) {
      in->mem = c->spare;
      c->spare = NULL;
      memset(in->mem, 0, c->n * sizeof *in->mem);
    } else if (!(in->mem = calloc(c->n, sizeof *in->mem))) {
      return nomem(err);
    }
    in->arrived = 0;
    in->mixed = 0;
    c->len++;
  }
  coll_inst *in = &c->ring[(c->head + (size_t)(k - c->base)) % c->cap];
  assert(k < c->base + c->len && in->arrived < c->n);
  if (in->arrived == 0)
    in->type = ev->type;
  else if (in->type != ev->type)
    in->mixed = 1;
  in->mem[pos] =
      (augur_coll_member){ev->rank,       ev->thread,   ev->t_start, ev->t_end, ev->bytes,
                          ev->bytes_recv, ev->callsite, ev->peer,    ev->type,  call};
  in->arrived++;
  return emit_ready(m, c);
}

/* ---- feeding -------------------------------------------------------------- */

/* A neighbourhood collective's exchange with one neighbour is a message on
 * the channel (sender, receiver, comm, AUGUR_TAG_NONE), a tag no
 * point-to-point end has: MPI orders a rank's neighbourhood collectives on a
 * communicator, so the k-th send from a to b there pairs with b's k-th receive
 * from a. Both ends take the call's times (Ineighbor_*: the call that started
 * it, kind NONBLOCKING; its wait is not followed); the end's type is the
 * parent's. A rank that is its own neighbour twice (a periodic dimension of
 * size 2) pairs its blocks in order, which may swap two blocks' sizes. */
static int neigh_end(augur_matcher *m, const augur_event *ev, const call_times *par,
                     augur_error *err) {
  if (ev->peer < 0) return AUGUR_OK; /* PROC_NULL */
  int kind =
      augur_event_is_nonblocking(m->parent_type) ? AUGUR_MATCH_NONBLOCKING : AUGUR_MATCH_BLOCKING;
  augur_event e = *ev;
  e.tag = AUGUR_TAG_NONE;
  if (ev->type == AUGUR_EV_NEIGH_SEND)
    return post_end(m, 0, ev->rank, (uint32_t)ev->peer, &e, par, kind, ev->bytes, NULL,
                    m->parent_type, err);
  return post_end(m, 1, (uint32_t)ev->peer, ev->rank, &e, par, kind, ev->bytes_recv, NULL,
                  m->parent_type, err);
}

int augur_match_feed(augur_matcher *m, const augur_event *ev, augur_error *err) {
  return augur_match_feed_call(m, ev, AUGUR_MATCH_NO_CALL, err);
}

int augur_match_feed_call(augur_matcher *m, const augur_event *ev, uint64_t call,
                          augur_error *err) {
  assert(m && ev);
  unsigned type = ev->type;
  call_times own;
  const call_times *par = &m->parent;
  if (type - AUGUR_EV_COMPLETION > AUGUR_EV_SUB_START - AUGUR_EV_COMPLETION &&
      type - AUGUR_EV_NEIGH_SEND >
          AUGUR_EV_NEIGH_RECV - AUGUR_EV_NEIGH_SEND) { /* not a sub-record */
    own = (call_times){ev->t_start, ev->t_end, ev->callsite, call};
    m->parent = own;
    m->parent_type = (uint16_t)type;
    par = &own;
  }
  switch (type < AUGUR_EV_MAX ? m->act[type] : A_NONE) {
  case A_POST_PERSISTENT:
    return post_request(m, ev, par, AUGUR_MATCH_PERSISTENT, ev->bytes, type != AUGUR_EV_RECV_INIT,
                        1, err);
  case A_SEND_BLOCKING:
  case A_SEND_NONBLOCKING: {
    if (ev->peer < 0) return AUGUR_OK; /* PROC_NULL */
    int kind = m->act[type] == A_SEND_NONBLOCKING ? AUGUR_MATCH_NONBLOCKING : AUGUR_MATCH_BLOCKING;
    return post_end(m, 0, ev->rank, (uint32_t)ev->peer, ev, par, kind, ev->bytes, NULL, 0, err);
  }
  case A_IRECV:
    return post_request(m, ev, par, AUGUR_MATCH_NONBLOCKING, 0, 0, 0, err);
  case A_RECV:
    if (ev->peer < 0 || ev->tag < 0) return AUGUR_OK; /* PROC_NULL or unresolved */
    return post_end(m, 1, (uint32_t)ev->peer, ev->rank, ev, par, AUGUR_MATCH_BLOCKING,
                    ev->bytes_recv, NULL, 0, err);
  case A_START:
    return start_request(m, ev, par, err);
  case A_FREE:
    request_free(m, ev);
    return AUGUR_OK;
  case A_COMPLETION:
    if (ev->flags & AUGUR_F_RECVREQ) return complete_recv(m, ev, par, err);
    return AUGUR_OK; /* sends joined their channel when called or started */
  case A_COLL:
    if (m->trace && m->on_coll) return add_collective(m, ev, call, err);
    return AUGUR_OK;
  case A_NEIGH:
    return neigh_end(m, ev, par, err);
  default:
    return AUGUR_OK;
  }
}
