/* augur diagnose — late receivers behind nonblocking sends.
 *
 * An MPI_Isend (or Issend) of a synchronous or rendezvous message returns at
 * once; the sender then waits in the call that completes the request
 * (MPI_Wait, Waitall, a Test loop...) until the receive is posted. The
 * matcher pairs the message once both ends are known, the reader pairs the
 * completion with its Isend, and the two can arrive in either order: each
 * waits here for the other, FIFO per channel (sender, receiver, comm, tag),
 * which is MPI's order for the messages of a channel (the matcher's FIFO
 * table, qtab.h). Memory holds only what is in flight. */
#include <stdlib.h>
#include <string.h>

#include "dx_int.h"
#include "qtab.h"

/* One side waiting for the other. */
typedef struct part {
  uint64_t t0, t1; /* message: receive post, -; completion: the completing call */
  uint64_t bytes;
  uint32_t send_cs, recv_cs; /* message: the Isend's, the receive's wait; completion:
                                send_cs = the completing call's (where the wait is) */
  uint8_t sync, can_wait;    /* message only: Issend; Isend or Issend */
  uint8_t nb_recv;           /* message only: the receive was posted nonblocking */
} part;

struct dx_isends {
  aug_qtab t; /* channel (sender, receiver, comm, tag) -> parts; side 0: messages wait */
};

dx_isends *dx_isends_new(void) {
  dx_isends *t = calloc(1, sizeof *t);
  if (t && aug_qt_init(&t->t, sizeof(part))) {
    free(t);
    return NULL;
  }
  return t;
}

void dx_isends_free(dx_isends *t) {
  if (!t) return;
  aug_qt_free(&t->t);
  free(t);
}

/* The message M (receive posted at M->t0) was completed on the sender by
 * the call D (D->t0 .. D->t1). */
static void judge(dx *d, uint32_t sender, uint32_t receiver, uint64_t comm, const part *m,
                  const part *done) {
  uint64_t post = m->t0, t0 = done->t0, t1 = done->t1;
  if (!m->can_wait || post <= t0) return;
  if (!m->sync) {
    if (t1 < post) { /* finished before the receive existed: eager */
      if (m->bytes > d->eager_max) d->eager_max = m->bytes;
      return;
    }
    if (!d->rendezvous_min || m->bytes < d->rendezvous_min) d->rendezvous_min = m->bytes;
    if (d->eager_limit_opt && m->bytes <= d->eager_limit_opt) return;
  }
  dx_rank *S = &d->ranks[sender];
  uint64_t from = t0, to = post < t1 ? post : t1;
  if (S->acct_call == t0 + 1) /* one call, several waits (dx_rank.acct_call): once */
    from = S->acct_until > t0 ? S->acct_until : t0;
  else {
    S->acct_call = t0 + 1;
    S->acct_until = t0;
  }
  if (to <= from) return;
  S->acct_until = to;
  int32_t g =
      dx_group_get(&d->groups, AUGUR_DX_LATE_RECEIVER, AUGUR_DX_LATE_RECEIVER, done->send_cs, -1);
  if (g >= 0) {
    dx_group *G = &d->groups.g[g];
    dx_group_partner(&d->groups, G, receiver, m->recv_cs);
    G->recv_n++;
    G->recv_nb += m->nb_recv;
    /* the wait completes a send posted elsewhere: the words name both */
    if (!G->post_cs && m->send_cs != done->send_cs) G->post_cs = m->send_cs;
  }
  dx_charge(d, AUGUR_DX_LATE_RECEIVER, g, sender, done->send_cs, from, to, comm);
}

/* Either side arrives: pair it with the oldest of the other side, or wait. */
static int meet(dx *d, uint32_t s, uint32_t r, uint64_t comm, int32_t tag, int side,
                const part *p) {
  aug_qtab *t = &d->isends->t;
  aug_qkey k = {comm, s, r, tag, 0};
  aug_queue *c = aug_qt_get(t, &k, aug_qkey_hash(&k));
  if (!c) return -1;
  if (c->len && c->side != side) {
    part other;
    aug_q_pop(c, &other, sizeof other);
    judge(d, s, r, comm, side == 0 ? p : &other, side == 0 ? &other : p);
    return 0;
  }
  c->side = (uint8_t)side;
  part *x = aug_q_push(t, c, sizeof *x);
  if (!x) return -1;
  *x = *p;
  return 0;
}

int dx_isend_message(dx *d, const augur_message *m) {
  if (m->send.kind != AUGUR_MATCH_NONBLOCKING) return 0;
  part p = {m->recv.t_post,
            0,
            m->bytes,
            (uint32_t)m->send.callsite,
            (uint32_t)m->recv.callsite,
            (uint8_t)(m->send.type == AUGUR_EV_ISSEND),
            (uint8_t)(m->send.type == AUGUR_EV_ISEND || m->send.type == AUGUR_EV_ISSEND),
            (uint8_t)(m->recv.kind != AUGUR_MATCH_BLOCKING)};
  return meet(d, m->sender, m->receiver, m->comm, m->tag, 0, &p);
}

int dx_isend_done(dx *d, const augur_event *c, const augur_event *call) {
  if (!(c->flags & AUGUR_F_SENDREQ) || (c->flags & (AUGUR_F_PERSISTENT | AUGUR_F_CANCELLED)) ||
      c->peer < 0 || (uint32_t)c->peer >= d->nranks || c->tag < 0)
    return 0;
  part p = {call->t_start, call->t_end, 0, (uint32_t)call->callsite, 0, 0, 0, 0};
  return meet(d, c->rank, (uint32_t)c->peer, c->comm, c->tag, 1, &p);
}
