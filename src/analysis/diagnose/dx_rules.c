/* augur diagnose — the rules: matched messages and collective instances in,
 * wait states and their causes out (docs/diagnose.md, "Wait states" and
 * "Causes"). Called back by the matcher while diagnose.c streams the trace,
 * so everything here sees the trace up to the current event only. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "dx_int.h"

static uint64_t min64(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}
static uint64_t max64(uint64_t a, uint64_t b) {
  return a > b ? a : b;
}

uint64_t dx_charge(dx *d, int ws, int32_t g, uint32_t rank, uint32_t callsite, uint64_t t0,
                   uint64_t t1, uint64_t comm) {
  if (t0 < d->t_ready) t0 = d->t_ready; /* MPI_Init's skew is not the program's */
  if (t1 <= t0 || rank >= d->nranks) return 0;
  uint64_t ns = t1 - t0;
  if (ws >= 0 && ws < AUGUR_DX_NWAITSTATES) {
    d->wait_ns[ws] += (double)ns;
    d->wait_n[ws]++;
  }
  dx_group_add(d, g, rank, callsite, t0, t1, comm);
  /* A collective's own wait lies inside the call that closes the segment
   * (found when its last member arrives, after the snapshot): it belongs to
   * no segment. */
  if (ws == AUGUR_DX_WAIT_AT_COLLECTIVE || ws == AUGUR_DX_WAIT_AT_BARRIER ||
      ws == AUGUR_DX_LATE_BROADCAST || ws == AUGUR_DX_EARLY_REDUCE)
    return ns;
  dx_seg *s = &d->ranks[rank].seg;
  s->wait_ns += ns;
  if (ns > s->top_wait_ns) {
    s->top_wait_ns = ns;
    s->top_group = g;
  }
  return ns;
}

/* A point-to-point wait of NS in group G, caused by PARTNER. -1: out of memory. */
static int blame(dx *d, int32_t g, uint32_t partner, uint64_t ns) {
  return g >= 0 ? dx_group_blame(&d->groups, &d->groups.g[g], partner, ns) : 0;
}

static size_t cs_index(const dx *d, uint32_t cs) {
  size_t i = (size_t)cs * 2;
  return i + 1 < d->cpw ? i : 0;
}

void dx_cp_join(dx *d, uint32_t rank, uint32_t from, uint32_t cs, uint64_t t) {
  if (!d->cp || rank == from || rank >= d->nranks || from >= d->nranks) return;
  dx_rank *r = &d->ranks[rank], *f = &d->ranks[from];
  if (r->cp_t > t || f->cp_t > t) return; /* already past: keep its own path */
  uint64_t *dst = d->cp + (size_t)rank * d->cpw, *src = d->cp + (size_t)from * d->cpw;
  memcpy(dst, src, d->cpw * sizeof *dst);
  dst[cs_index(d, cs) + 1] += t - f->cp_t;
  r->cp_t = t;
}

static void note_peer(dx_rank *r, uint32_t peer) {
  if (r->peer == DX_NONE_U32)
    r->peer = peer;
  else if (r->peer != peer)
    r->many_peers = 1;
}

static int32_t group(dx *d, int pattern, int ws, uint32_t cs, int32_t upstream) {
  return dx_group_get(&d->groups, pattern, ws, cs, upstream);
}

/* What the data of a blocked sender's forward says (seed 004, section 4). */
static int chain_data(uint64_t in_hash, const augur_match_end *out) {
  if (!in_hash || !out->hash) return DX_DATA_UNKNOWN;
  if (in_hash == out->hash) return DX_DATA_SAME;
  return (out->flags & AUGUR_F_FROM_RECV) ? DX_DATA_MODIFIED : DX_DATA_INDEPENDENT;
}

/* S's recent send to RECEIVER that started at T0, or NULL. */
static dx_sent *sent_entry(dx_rank *S, uint32_t receiver, uint64_t t0) {
  for (unsigned i = 0; i < DX_SEND_RING && i < S->nsent; i++)
    if (S->sent[i].t0 == t0 && S->sent[i].to == receiver) return &S->sent[i];
  return NULL;
}

static uint64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1) {
  uint64_t lo = max64(a0, b0), hi = min64(a1, b1);
  return hi > lo ? hi - lo : 0;
}

/* Events of different ranks closer than this are not ordered: the clock
 * slack, at most 1 % of the wait W being explained. */
static uint64_t slack_of(uint64_t w) {
  return min64(DX_CLOCK_SLACK, w / 100);
}

/* The cause of a late-sender wait [from, to) of R on S's message. *CHAIN:
 * blocked sender, the part of the wait S was blocked too. */
static int late_sender_cause(dx *d, const augur_message *m, uint64_t from, uint64_t to, int *data,
                             uint64_t *chain) {
  dx_rank *S = &d->ranks[m->sender];
  uint64_t w = to - from, ss = m->send.t_start;
  *data = DX_DATA_UNKNOWN;
  *chain = 0;
  /* blocked sender (seed 3.1.1), causal: while R waited for this message,
   * S was itself blocked in a receive from a third rank, and the send comes
   * after that wait, whatever S computed in between. R's wait must begin
   * before S's ends by more than the clock slack: then S's own wait delayed
   * this send. */
  if (S->lw_valid && S->lw_from != m->receiver && S->lw_t1 <= ss) {
    uint64_t ov = overlap(S->lw_t0, S->lw_t1, from, to);
    if (ov > slack_of(w)) {
      *data = chain_data(S->lw_hash, &m->send);
      *chain = ov;
      return AUGUR_DX_BLOCKED_SENDER;
    }
  }
  /* multiple output: S spent most of R's wait sending to other receivers,
   * one after another (seed 3.1.3: served one by one) - sending, not
   * waiting for a late receiver, and with no receive of S in between: in a
   * neighbour exchange S receives between its sends to different
   * neighbours (or sends and receives at once, MPI_Sendrecv). */
  uint64_t busy = 0;
  int same = 1, known = m->send.hash != 0;
  for (unsigned i = 0; i < DX_SEND_RING && i < S->nsent; i++) {
    const dx_sent *x = &S->sent[i];
    if (x->to == m->receiver || x->exchange || x->t1 < S->recv_end) continue;
    uint64_t ov = overlap(max64(x->t0, x->blocked_until), x->t1, from, to);
    if (!ov) continue;
    busy += ov;
    if (!x->hash) known = 0;
    if (x->hash != m->send.hash) same = 0;
  }
  if (busy * 2 >= w) {
    *data = !known ? DX_DATA_UNKNOWN : same ? DX_DATA_SAME : DX_DATA_DIFFERENT;
    return AUGUR_DX_MULTIPLE_OUTPUT;
  }
  /* serialization: S was computing when it sent, and every other rank sat
   * in MPI or had finished: one rank works, the rest wait */
  if (d->nranks >= 3 && d->nranks <= DX_SERIAL_MAX_RANKS && ss >= S->last_end + w / 10) {
    /* The receiver waits by definition (corrected clocks may still put the
     * end of its receive a little before the send); the others count when
     * inside MPI (within the clock slack, at most 1 % of the wait) or
     * finished. */
    uint32_t in_mpi = 1;
    uint64_t slack = slack_of(w);
    for (uint32_t k = 0; k < d->nranks; k++)
      if (k != m->sender && k != m->receiver &&
          (d->ranks[k].in_call_until + slack > ss || d->ranks[k].finalized))
        in_mpi++;
    if (in_mpi + 1 >= d->nranks) return AUGUR_DX_SERIALIZATION;
  }
  return AUGUR_DX_LATE_SENDER;
}

static int counted_send(const augur_match_end *e) {
  return e->kind != AUGUR_MATCH_PERSISTENT;
}

static int late_sender(dx *d, const augur_message *m) {
  const augur_match_end *se = &m->send, *re = &m->recv;
  dx_rank *R = &d->ranks[m->receiver];
  uint64_t rs = re->t_start, ss = se->t_start;
  if (ss <= rs) return 0;
  /* One Waitall may complete several late messages: count each moment of
   * the call once. */
  uint64_t from = rs;
  if (R->acct_call == rs + 1)
    from = max64(rs, R->acct_until);
  else {
    R->acct_call = rs + 1;
    R->acct_until = rs;
  }
  uint64_t to = min64(ss, re->t_end);
  if (to <= from) return 0;
  R->acct_until = to;

  int ws = AUGUR_DX_LATE_SENDER, pattern, data = DX_DATA_UNKNOWN;
  uint64_t chain = 0;
  if (!(re->flags & AUGUR_F_ANY_SOURCE) && R->pending_in > 0) {
    /* messages sent earlier are waiting while R insists on this one */
    ws = pattern = AUGUR_DX_WRONG_ORDER;
  } else {
    pattern = late_sender_cause(d, m, from, to, &data, &chain);
  }
  int32_t g = group(d, pattern, ws, re->wait_callsite, -1);
  if (g >= 0) {
    dx_group *G = &d->groups.g[g];
    dx_group_partner(&d->groups, G, m->sender, se->callsite);
    if (!G->post_cs && re->callsite != re->wait_callsite) G->post_cs = (uint32_t)re->callsite;
    G->data[data]++;
    G->chain_ns += chain;
    /* the sender's wait for a CPU before this send (the newest of its sends), at most the
     * wait: part of why it sends late; in a chain, the forwarder's wait for a CPU while it
     * processed (the burst before the send), at most the wait beyond its own blocked part */
    const dx_sent *x = sent_entry(&d->ranks[m->sender], m->receiver, ss);
    if (x && pattern == AUGUR_DX_BLOCKED_SENDER)
      G->excess_delay_ns += min64(x->burst_delay, to - from > chain ? to - from - chain : 0);
    else if (x)
      G->excess_delay_ns += min64(x->delay, to - from);
  }
  uint64_t ns = dx_charge(d, ws, g, m->receiver, re->wait_callsite, from, to, m->comm);
  R->lw_valid = 1;
  R->lw_t0 = from;
  R->lw_t1 = to;
  R->lw_from = m->sender;
  R->lw_hash = re->hash;
  dx_cp_join(d, m->receiver, m->sender, re->wait_callsite, re->t_end);
  return blame(d, g, m->sender, ns);
}

static int standard_blocking_send(unsigned type) {
  return type == AUGUR_EV_SEND || augur_event_is_sendrecv(type);
}

static int late_receiver(dx *d, const augur_message *m) {
  const augur_match_end *se = &m->send, *re = &m->recv;
  if (se->kind != AUGUR_MATCH_BLOCKING) return 0; /* the wait is in a later Wait: not followed */
  int sync = se->type == AUGUR_EV_SSEND;
  if (!sync && !standard_blocking_send(se->type)) return 0; /* Bsend, Rsend never wait */
  uint64_t ss = se->t_start, post = re->t_post;
  if (post <= ss) return 0; /* the receive was there first */
  if (!sync) {
    /* The protocol, from what the clocks can tell (DX_CLOCK_SLACK): a send
     * that finished before its receive existed went eagerly; one that
     * started well before the receive and did not finish until it was
     * posted waited for it (rendezvous). A send ending close to the post
     * tells nothing: an eager send takes microseconds too. */
    /* An MPI_Sendrecv's end is its receive's too (it waits for the incoming message): it
     * says nothing of its send's protocol (CoMD's 2-rank exchanges of 8 B-19 KiB all "waited
     * for their receive" by it) */
    int exchange = augur_event_is_sendrecv(se->type);
    if (se->t_end + DX_CLOCK_SLACK < post) {
      if (!exchange && m->bytes > d->eager_max) d->eager_max = m->bytes;
      return 0;
    }
    if (se->t_end < post) return 0;
    if (!exchange && post - ss > DX_CLOCK_SLACK &&
        (!d->rendezvous_min || m->bytes < d->rendezvous_min))
      d->rendezvous_min = m->bytes;
    if (d->eager_limit_opt && m->bytes <= d->eager_limit_opt) return 0;
  }
  uint64_t to = min64(post, se->t_end), from = ss;
  if (to <= ss) return 0;
  if (augur_event_is_sendrecv(se->type)) {
    /* MPI_Sendrecv(_replace): its send and its receive wait from the same start, in one
     * call, usually for the same late partner (an exchange): each moment once */
    dx_rank *S = &d->ranks[m->sender];
    if (S->acct_call == ss + 1)
      from = max64(ss, S->acct_until);
    else {
      S->acct_call = ss + 1;
      S->acct_until = ss;
    }
    if (to > S->acct_until) S->acct_until = to;
  }
  dx_sent *x = sent_entry(&d->ranks[m->sender], m->receiver, ss);
  if (x) x->blocked_until = to;
  int32_t g = group(d, AUGUR_DX_LATE_RECEIVER, AUGUR_DX_LATE_RECEIVER, se->callsite, -1);
  if (g >= 0) {
    dx_group *G = &d->groups.g[g];
    dx_group_partner(&d->groups, G, m->receiver, re->callsite);
    G->recv_n++;
    G->recv_nb += re->kind != AUGUR_MATCH_BLOCKING;
  }
  uint64_t ns = dx_charge(d, AUGUR_DX_LATE_RECEIVER, g, m->sender, se->callsite, from, to, m->comm);
  if (re->kind == AUGUR_MATCH_BLOCKING)
    dx_cp_join(d, m->sender, m->receiver, se->callsite, se->t_end);
  return blame(d, g, m->receiver, ns);
}

void dx_flush_transfer(dx *d, dx_rank *S) {
  dx_transfer *x = &S->pending;
  if (!x->valid) return;
  x->valid = 0;
  if (x->in_sequence) return; /* one of a multicast: inherent, see multiple_output */
  uint32_t sender = (uint32_t)(S - d->ranks);
  int32_t g = group(d, AUGUR_DX_SLOW_COMMUNICATION, -1, x->recv_cs, -1);
  if (g < 0) return;
  dx_group_partner(&d->groups, &d->groups.g[g], sender, x->send_cs);
  if (x->recv_ns) dx_charge(d, -1, g, x->receiver, x->recv_cs, x->recv_t0, x->recv_t1, 0);
  if (x->send_ns) dx_charge(d, -1, g, sender, x->send_cs, x->send_t0, x->send_t0 + x->send_ns, 0);
}

/* Large messages: the time both ends spend while the data moves. Held per
 * sender until its next large send tells whether it was part of a sequence
 * to several receivers (a hand-made multicast, whose transfers are not the
 * problem). */
static void transfer(dx *d, const augur_message *m) {
  if (m->bytes < DX_LARGE_MESSAGE) return;
  const augur_match_end *se = &m->send, *re = &m->recv;
  dx_transfer x;
  memset(&x, 0, sizeof x);
  x.valid = 1;
  x.t_send_start = se->t_start;
  x.t_send_end = se->t_end;
  x.receiver = m->receiver;
  x.recv_cs = re->wait_callsite;
  x.send_cs = se->callsite;
  x.recv_t0 = max64(re->t_start, se->t_start);
  x.recv_t1 = re->t_end;
  x.recv_ns = x.recv_t1 > x.recv_t0 ? x.recv_t1 - x.recv_t0 : 0;
  if (se->kind == AUGUR_MATCH_BLOCKING && se->type != AUGUR_EV_BSEND) {
    x.send_t0 = max64(se->t_start, re->t_post);
    x.send_ns = se->t_end > x.send_t0 ? se->t_end - x.send_t0 : 0;
  }
  dx_rank *S = &d->ranks[m->sender];
  dx_transfer *p = &S->pending;
  if (p->valid && p->receiver != m->receiver && x.t_send_start >= p->t_send_start &&
      x.t_send_start - min64(x.t_send_start, p->t_send_end) <=
          (p->t_send_end - p->t_send_start) / 4 + 1000000) {
    p->in_sequence = 1;
    x.in_sequence = 1;
  }
  dx_flush_transfer(d, S);
  S->pending = x;
}

static int is_test(unsigned type) {
  return type == AUGUR_EV_TEST || type == AUGUR_EV_TESTANY || type == AUGUR_EV_TESTALL ||
         type == AUGUR_EV_TESTSOME || type == AUGUR_EV_IPROBE || type == AUGUR_EV_IMPROBE;
}

int dx_poll(dx *d, const augur_event *ev) {
  dx_rank *r = &d->ranks[ev->rank];
  if (r->finalized) return 0;
  int test = is_test(ev->type);
  int gap =
      test && r->poll_end && ev->t_start >= r->poll_end && ev->t_start - r->poll_end <= DX_POLL_GAP;
  uint64_t t0 = gap ? r->poll_end : ev->t_start;
  if (test && (ev->flags & AUGUR_F_NOTDONE)) {
    int32_t g = group(d, AUGUR_DX_POLLING, -1, (uint32_t)ev->callsite, -1);
    if (g >= 0) d->groups.g[g].call_type = ev->type;
    dx_charge(d, -1, g, ev->rank, (uint32_t)ev->callsite, t0, ev->t_end, ev->comm);
    r->poll_end = ev->t_end > r->poll_end ? ev->t_end : r->poll_end;
    r->poll_cs = (uint32_t)ev->callsite;
    return gap;
  }
  if (gap) { /* the loop's last gap, before the test that found its request done */
    int32_t g = group(d, AUGUR_DX_POLLING, -1, r->poll_cs, -1);
    dx_charge(d, -1, g, ev->rank, r->poll_cs, t0, ev->t_start, ev->comm);
    if (g >= 0 && d->groups.g[g].instances) d->groups.g[g].instances--; /* a gap, no call */
  }
  r->poll_end = 0;
  return gap;
}

int dx_on_message(void *ctx, const augur_message *m) {
  dx *d = ctx;
  if (m->sender >= d->nranks || m->receiver >= d->nranks) return AUGUR_OK;
  dx_rank *R = &d->ranks[m->receiver];
  if (counted_send(&m->send) && R->pending_in) R->pending_in--;
  note_peer(&d->ranks[m->sender], m->receiver);
  note_peer(R, m->sender);
  d->ranks[m->sender].did_send = 1;
  R->did_recv = 1;
  if (m->sender == m->receiver) return AUGUR_OK;
  if (late_sender(d, m) || late_receiver(d, m))
    return augur_fail(d->err, AUGUR_E_NOMEM, "diagnose: out of memory");
  transfer(d, m);
  if (m->recv.t_end > R->recv_end) R->recv_end = m->recv.t_end;
  if (dx_isend_message(d, m)) return augur_fail(d->err, AUGUR_E_NOMEM, "diagnose: out of memory");
  return AUGUR_OK;
}

/* ---- collectives ---- */

enum { C_NONE, C_BARRIER, C_NXN, C_1TON, C_NTO1 };

static int coll_class(unsigned t) {
  switch (t) {
  case AUGUR_EV_BARRIER:
    return C_BARRIER;
  case AUGUR_EV_BCAST:
  case AUGUR_EV_SCATTER:
  case AUGUR_EV_SCATTERV:
    return C_1TON;
  case AUGUR_EV_REDUCE:
  case AUGUR_EV_GATHER:
  case AUGUR_EV_GATHERV:
    return C_NTO1;
  default: /* N x N, and synchronising MPI-IO calls (dx_io_pair); not nonblocking (the wait
            * is elsewhere) nor scans (a chain, not a sync) */
    return augur_event_is_nxn(t) || dx_io_sync_type(t) ? C_NXN : C_NONE;
  }
}

static dx_seg take_snap(dx *d, uint32_t rank, uint64_t comm, uint64_t t_start) {
  dx_seg none = {.top_group = -1};
  if (rank >= d->nranks) return none;
  dx_rank *r = &d->ranks[rank];
  for (size_t i = 0; i < r->nsnaps; i++)
    if (r->snaps[i].comm == comm && r->snaps[i].t_start == t_start) {
      dx_seg s = r->snaps[i].seg;
      r->snaps[i] = r->snaps[--r->nsnaps];
      return s;
    }
  return none;
}

void dx_unsnap(dx *d, const augur_coll_instance *c) {
  assert(d && c);
  for (uint32_t i = 0; i < c->nmembers; i++) {
    const augur_coll_member *m = &c->members[i];
    if (m->rank >= d->nranks) continue;
    dx_seg s = take_snap(d, m->rank, c->comm, m->t_start);
    dx_rank *r = &d->ranks[m->rank];
    dx_seg *to = &r->seg; /* the rank's next cut after this call, or its open segment */
    uint64_t next = UINT64_MAX;
    for (size_t k = 0; k < r->nsnaps; k++)
      if (r->snaps[k].t_start > m->t_start && r->snaps[k].t_start < next)
        next = r->snaps[k].t_start, to = &r->snaps[k].seg;
    uint64_t t = m->t_end > m->t_start ? m->t_end - m->t_start : 0;
    to->compute_ns += s.compute_ns;
    to->mpi_ns += s.mpi_ns + t;
    to->wait_ns += s.wait_ns;
    if (s.top_wait_ns > to->top_wait_ns) {
      to->top_wait_ns = s.top_wait_ns;
      to->top_group = s.top_group;
    }
    to->io_ns += s.io_ns;
    to->io_any_ns += s.io_any_ns + t;
    to->io_bytes += s.io_bytes + m->bytes + m->bytes_recv;
    to->io_shared |= s.io_shared;
    to->delay_ns += s.delay_ns;
    to->compute_delay_ns += s.compute_delay_ns;
    to->io_delay_ns += s.io_delay_ns;
  }
}

/* Who arrived last at a synchronising collective, and why: its waits since
 * its previous collective (then this wait is their consequence), or its
 * computation. */
static uint64_t excess(uint64_t late, uint64_t early) {
  return late > early ? late - early : 0;
}

/* A segment's computation net of its wait for a CPU (run-delay; all of it without). */
static uint64_t net_compute(const dx_seg *s) {
  return excess(s->compute_ns, s->compute_delay_ns);
}

static int sync_pattern(int cls, const dx_seg *late, const dx_seg *early, uint64_t lateness,
                        int32_t *upstream) {
  *upstream = -1;
  if (late->top_group >= 0 && late->wait_ns > early->wait_ns &&
      (late->wait_ns - early->wait_ns) * 2 >= lateness) {
    *upstream = late->top_group;
    return AUGUR_DX_LATE_ARRIVAL;
  }
  /* late from file I/O: the same "half of the lateness" as for its waits */
  int io = dx_io_late(late, early, lateness);
  if (io >= 0) return io;
  if (cls == C_BARRIER) return AUGUR_DX_WAIT_AT_BARRIER;
  /* more work, not more time off the CPU: a rank descheduled in its computation (another
   * process or rank on its CPU, run-delay recorded) computes no more than the others */
  if (excess(net_compute(late), net_compute(early)) * 2 >= lateness) return AUGUR_DX_LOAD_IMBALANCE;
  return AUGUR_DX_WAIT_AT_COLLECTIVE;
}

void dx_vote(dx_group *g, uint32_t rank) {
  g->syncs++;
  if (g->late_votes == 0) {
    g->late_rank = rank;
    g->late_votes = 1;
  } else if (g->late_rank == rank) {
    g->late_votes++;
  } else {
    g->late_votes--;
  }
}

/* Collective data movement (seed 3.1.2 applied to collectives): the time
 * each member spends in the call after the last member arrived, when the
 * instance moves large data (a member sends plus receives at least
 * DX_LARGE_MESSAGE bytes, the slow_communication size). Disjoint from the
 * collective's wait states, which end at that arrival. */
static void volume(dx *d, const augur_coll_instance *c) {
  const augur_coll_member *M = c->members;
  uint64_t last = 0, most = 0;
  for (uint32_t i = 0; i < c->nmembers; i++) {
    last = max64(last, M[i].t_start);
    most = max64(most, M[i].bytes + M[i].bytes_recv);
  }
  if (most < DX_LARGE_MESSAGE) return;
  for (uint32_t i = 0; i < c->nmembers; i++) {
    uint64_t t0 = max64(last, M[i].t_start);
    if (M[i].t_end <= t0) continue;
    int32_t g = group(d, AUGUR_DX_COLLECTIVE_VOLUME, -1, (uint32_t)M[i].callsite, -1);
    if (g < 0) continue;
    dx_group *G = &d->groups.g[g];
    G->call_type = c->type;
    G->bytes += max64(M[i].bytes, M[i].bytes_recv); /* what this rank moves */
    dx_group_add(d, g, M[i].rank, (uint32_t)M[i].callsite, t0, M[i].t_end, c->comm);
  }
}

int dx_on_coll(void *ctx, const augur_coll_instance *c) {
  dx *d = ctx;
  uint32_t n = c->nmembers;
  if (n == 0) return AUGUR_OK;
  dx_seg segs_small[16], *segs = segs_small;
  dx_seg *heap = NULL;
  if (n > 16) {
    heap = malloc((size_t)n * sizeof *heap);
    if (!heap) return augur_fail(d->err, AUGUR_E_NOMEM, "diagnose: out of memory");
    segs = heap;
  }
  for (uint32_t i = 0; i < n; i++)
    segs[i] = take_snap(d, c->members[i].rank, c->comm, c->members[i].t_start);
  int cls = c->mixed || n < 2 ? C_NONE : coll_class(c->type);
  const augur_coll_member *M = c->members;
  if (cls == C_BARRIER || cls == C_NXN) {
    uint32_t L = 0, E = 0;
    for (uint32_t i = 1; i < n; i++) {
      if (M[i].t_start > M[L].t_start) L = i;
      if (M[i].t_start < M[E].t_start) E = i;
    }
    uint64_t lateness = M[L].t_start - M[E].t_start;
    if (lateness > 0) {
      int32_t up;
      int pattern = sync_pattern(cls, &segs[L], &segs[E], lateness, &up);
      int ws = cls == C_BARRIER ? AUGUR_DX_WAIT_AT_BARRIER : AUGUR_DX_WAIT_AT_COLLECTIVE;
      uint64_t maxw = 0;
      int32_t g0 = -1;
      for (uint32_t i = 0; i < n; i++) {
        if (i == L) continue;
        uint64_t to = min64(M[L].t_start, M[i].t_end);
        if (to <= M[i].t_start) continue;
        int32_t g = group(d, pattern, ws, M[i].callsite, up);
        if (g < 0) continue;
        if (g0 < 0) g0 = g;
        dx_group_partner(&d->groups, &d->groups.g[g], M[L].rank, M[L].callsite);
        dx_charge(d, ws, g, M[i].rank, M[i].callsite, M[i].t_start, to, c->comm);
        dx_cp_join(d, M[i].rank, M[L].rank, M[i].callsite, M[i].t_end);
        if (to - M[i].t_start > maxw) maxw = to - M[i].t_start;
      }
      if (g0 >= 0) {
        dx_group *G = &d->groups.g[g0];
        G->saving_ns += maxw;
        dx_vote(G, M[L].rank);
        G->lateness_ns += lateness;
        G->excess_compute_ns += excess(segs[L].compute_ns, segs[E].compute_ns);
        G->excess_oncpu_ns += excess(net_compute(&segs[L]), net_compute(&segs[E]));
        G->excess_wait_ns += excess(segs[L].wait_ns, segs[E].wait_ns);
        /* MPI time that is not waiting */
        G->excess_mpi_ns += excess(excess(segs[L].mpi_ns, segs[L].wait_ns),
                                   excess(segs[E].mpi_ns, segs[E].wait_ns));
        /* at most the lateness: the delay in the previous collective may predate its end */
        G->excess_delay_ns += min64(excess(segs[L].delay_ns, segs[E].delay_ns), lateness);
        G->excess_io_ns += excess(segs[L].io_ns, segs[E].io_ns);
        dx_io_coll(G, &segs[L], &segs[E]);
      }
    }
  } else if (cls == C_1TON || cls == C_NTO1) {
    uint32_t root = n;
    for (uint32_t i = 0; i < n && root == n; i++)
      if (M[i].root >= 0 && M[i].rank == (uint32_t)M[i].root) root = i;
    if (root < n && cls == C_1TON) {
      uint64_t maxw = 0;
      int32_t g0 = -1;
      for (uint32_t i = 0; i < n; i++) {
        if (i == root) continue;
        uint64_t to = min64(M[root].t_start, M[i].t_end);
        if (to <= M[i].t_start) continue;
        int32_t g = group(d, AUGUR_DX_LATE_BROADCAST, AUGUR_DX_LATE_BROADCAST, M[i].callsite, -1);
        if (g < 0) continue;
        if (g0 < 0) g0 = g;
        dx_group_partner(&d->groups, &d->groups.g[g], M[root].rank, M[root].callsite);
        dx_charge(d, AUGUR_DX_LATE_BROADCAST, g, M[i].rank, M[i].callsite, M[i].t_start, to,
                  c->comm);
        dx_cp_join(d, M[i].rank, M[root].rank, M[i].callsite, M[i].t_end);
        if (to - M[i].t_start > maxw) maxw = to - M[i].t_start;
      }
      if (g0 >= 0) {
        d->groups.g[g0].saving_ns += maxw;
        dx_vote(&d->groups.g[g0], M[root].rank);
      }
    } else if (root < n) {
      uint32_t L = root;
      for (uint32_t i = 0; i < n; i++)
        if (i != root && (L == root || M[i].t_start > M[L].t_start)) L = i;
      uint64_t to = L == root ? 0 : min64(M[L].t_start, M[root].t_end);
      if (L != root && to > M[root].t_start) {
        int32_t g = group(d, AUGUR_DX_EARLY_REDUCE, AUGUR_DX_EARLY_REDUCE, M[root].callsite, -1);
        if (g >= 0) {
          dx_group_partner(&d->groups, &d->groups.g[g], M[L].rank, M[L].callsite);
          dx_vote(&d->groups.g[g], M[L].rank);
          d->groups.g[g].saving_ns += to - M[root].t_start;
        }
        dx_charge(d, AUGUR_DX_EARLY_REDUCE, g, M[root].rank, M[root].callsite, M[root].t_start, to,
                  c->comm);
        dx_cp_join(d, M[root].rank, M[L].rank, M[root].callsite, M[root].t_end);
      }
    }
  }
  /* a collective MPI-IO call's own time is io_collective's (dx_io_pair) */
  if (cls != C_NONE && cls != C_BARRIER && !augur_event_is_io(c->type)) volume(d, c);
  free(heap);
  return AUGUR_OK;
}
