/* augur diagnose — the one-sided (RMA) wait states of Scalasca (Hermanns et
 * al.; issue 28): late post, early wait, late complete, wait at fence and lock
 * contention, with KappaPi-style causes and recommendations.
 *
 * The streaming pass keeps each rank's one-sided calls (dx_rma_event); after
 * it, dx_rma replays every (window, rank) in program order into epochs,
 * matches the epochs of different ranks (the k-th access epoch of origin o
 * that names target t with the k-th exposure epoch of t that names o; the
 * k-th fence of every member of a window; lock epochs on one target in the
 * order their locks were called) and charges each wait to the call that
 * spent it: MPI implementations block in different calls (Win_start, the
 * first Put, Win_complete, Win_unlock), so a wait is the part of *each* call
 * of the epoch that lies before the moment the partner let it go.
 * Then the time origins spend completing large transfers (rma_volume: the
 * slow_communication rule for one-sided data), outside those waits.
 * docs/diagnose.md, "One-sided wait states". Memory: 72 bytes per one-sided
 * call of the trace (the only part of diagnose that grows with events). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "augur/event.h"
#include "augur/report.h" /* augur_fmt_bytes */
#include "dx_int.h"
#include "grow.h"

#define NS 1e-9

typedef struct rma_call {
  uint64_t t0, t1;
  uint64_t win;    /* the window's id */
  uint64_t ref;    /* WIN_POST, WIN_START: the group's id */
  uint64_t seq;    /* order in the stream (a rank's program order) */
  uint64_t bytes;  /* an RMA operation's origin bytes, put plus got */
  uint64_t waited; /* the end of the waits charged to this call (0: none) */
  uint32_t rank;   /* world rank */
  uint32_t cs;     /* call site */
  int32_t peer;    /* target (world rank), or < 0 */
  uint16_t type;
  uint16_t x; /* WIN_LOCK: lock type; WIN_TEST: 1 when it found the epoch not done */
} rma_call;

struct dx_rmas {
  rma_call *c;
  size_t n, cap;
  uint64_t ns;          /* time in one-sided calls */
  uint64_t unmatched;   /* epochs and fences whose partners are not in the trace */
  uint64_t unknown_win; /* fences of a window without its definition */
};

/* An access (start .. complete) or exposure (post .. wait) epoch. */
typedef struct epoch {
  size_t first, last;    /* call indices; last = SIZE_MAX: not closed by a Win_complete/Win_wait */
  uint64_t lastop;       /* access: end of the last RMA operation (or of Win_start) */
  uint64_t until;        /* access: the latest matching post; exposure: the latest complete */
  uint64_t until_lastop; /* exposure: that origin's last RMA operation */
  uint32_t partner, partner_cs;
} epoch;

/* A lock epoch: lock .. unlock of one target. */
typedef struct lockep {
  size_t first, last;
  uint64_t t0; /* its Win_lock's start */
  uint64_t win;
  int32_t target;
  uint32_t origin;
  int exclusive;
} lockep;

/* One (origin, target) pair of an access or exposure epoch, for matching. */
typedef struct pairing {
  uint32_t o, t;
  uint32_t kind; /* 0 access, 1 exposure */
  uint64_t seq;  /* order of the epoch's opening call */
  size_t ep;
} pairing;

typedef struct rma_ctx {
  dx *d;
  rma_call *c;
  epoch *acc, *exp;
  size_t nacc, capacc, nexp, capexp;
  lockep *locks;
  size_t nlocks, caplocks;
  pairing *pairs;
  size_t npairs, cappairs;
} rma_ctx;

static uint64_t min64(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}
static uint64_t max64(uint64_t a, uint64_t b) {
  return a > b ? a : b;
}

static int is_op(unsigned t) {
  return t >= AUGUR_EV_PUT && t <= AUGUR_EV_RGET_ACCUMULATE;
}

int dx_rma_event(dx *d, const augur_event *ev) {
  assert(d && ev && augur_event_is_rma(ev->type));
  if (ev->rank >= d->nranks || d->ranks[ev->rank].finalized) return 0;
  if (!d->rma && !(d->rma = calloc(1, sizeof *d->rma))) return -1;
  dx_rmas *R = d->rma;
  R->ns += ev->t_end > ev->t_start ? ev->t_end - ev->t_start : 0;
  unsigned t = ev->type;
  if (t <= AUGUR_EV_WIN_CREATE_DYNAMIC || t == AUGUR_EV_WIN_ATTACH || t == AUGUR_EV_WIN_DETACH)
    return 0; /* no epoch */
  if (aug_grow((void **)&R->c, &R->cap, R->n + 1, sizeof *R->c)) return -1;
  R->c[R->n] = (rma_call){.t0 = ev->t_start,
                          .t1 = ev->t_end > ev->t_start ? ev->t_end : ev->t_start,
                          .win = ev->comm,
                          .ref = ev->req,
                          .seq = R->n,
                          .rank = ev->rank,
                          .cs = (uint32_t)ev->callsite,
                          .peer = ev->peer,
                          .bytes = is_op(t) ? ev->bytes + ev->bytes_recv : 0,
                          .type = (uint16_t)t,
                          .x = (uint16_t)(t == AUGUR_EV_WIN_LOCK   ? (uint16_t)ev->tag
                                          : t == AUGUR_EV_WIN_TEST ? !!(ev->flags & AUGUR_F_NOTDONE)
                                                                   : 0)};
  R->n++;
  return 0;
}

void dx_rma_free(dx *d) {
  if (!d->rma) return;
  free(d->rma->c);
  free(d->rma);
  d->rma = NULL;
}

static int by_win_rank(const void *a, const void *b) {
  const rma_call *x = a, *y = b;
  if (x->win != y->win) return x->win < y->win ? -1 : 1;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

static int by_pair(const void *a, const void *b) {
  const pairing *x = a, *y = b;
  if (x->o != y->o) return x->o < y->o ? -1 : 1;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

static int by_lock(const void *a, const void *b) {
  const lockep *x = a, *y = b;
  if (x->win != y->win) return x->win < y->win ? -1 : 1;
  if (x->target != y->target) return x->target < y->target ? -1 : 1;
  return (x->t0 > y->t0) - (x->t0 < y->t0);
}

/* Charges [t0, t1) of RANK at call site CS to PATTERN, caused by PARTNER (at
 * PCS), clipped to the rank's window (docs/diagnose.md "Window"). Returns the
 * group, -1 when nothing was charged, -2 when out of memory. */
static int32_t charge(dx *d, int pattern, rma_call *c, uint64_t t0, uint64_t t1, uint32_t partner,
                      uint32_t pcs) {
  const dx_rank *r = &d->ranks[c->rank];
  c->waited = max64(c->waited, t1);
  t0 = max64(t0, d->t_ready);
  if (r->finalized) t1 = min64(t1, r->win_end);
  if (t1 <= t0) return -1;
  int32_t g = dx_group_get(&d->groups, pattern, -1, c->cs, -1);
  if (g < 0) return -2;
  dx_group_add(d, g, c->rank, c->cs, t0, t1, c->win);
  if (partner < d->nranks) dx_group_partner(&d->groups, &d->groups.g[g], partner, pcs);
  return g;
}

/* Each call of [first, last] of one rank (those on TARGET, or on no target,
 * when TARGET >= 0) waited from its start until UNTIL. */
static int charge_calls(rma_ctx *X, int pattern, size_t first, size_t last, int32_t target,
                        uint64_t until, uint32_t partner, uint32_t pcs) {
  for (size_t j = first; j <= last; j++) {
    rma_call *c = &X->c[j];
    if (target >= 0 && c->peer >= 0 && c->peer != target) continue;
    if (c->t0 >= until) break;
    if (charge(X->d, pattern, c, c->t0, min64(c->t1, until), partner, pcs) == -2) return -1;
  }
  return 0;
}

static const augur_comm_def *group_def(const rma_ctx *X, uint64_t id) {
  const augur_comm_def *g = augur_trace_comm(X->d->trace, id);
  return g && g->kind == AUGUR_COMM_KIND_GROUP ? g : NULL;
}

static int add_pairs(rma_ctx *X, const epoch *e, size_t ei, uint32_t kind) {
  const rma_call *c = &X->c[e->first];
  const augur_comm_def *g = group_def(X, c->ref);
  if (!g) {
    X->d->rma->unmatched++;
    return 0;
  }
  for (uint32_t i = 0; i < g->size; i++) {
    uint32_t m = (uint32_t)g->members[i];
    if (g->members[i] < 0 || m == c->rank) continue;
    if (aug_grow((void **)&X->pairs, &X->cappairs, X->npairs + 1, sizeof *X->pairs)) return -1;
    X->pairs[X->npairs++] = (pairing){
        .o = kind ? m : c->rank, .t = kind ? c->rank : m, .kind = kind, .seq = c->seq, .ep = ei};
  }
  return 0;
}

/* Replays one rank's calls on one window, [b, e), into epochs. */
static int replay(rma_ctx *X, size_t b, size_t e) {
  size_t acc = SIZE_MAX, exp = SIZE_MAX;
  for (size_t i = b; i < e; i++) {
    const rma_call *c = &X->c[i];
    switch (c->type) {
    case AUGUR_EV_WIN_START:
      if (aug_grow((void **)&X->acc, &X->capacc, X->nacc + 1, sizeof *X->acc)) return -1;
      acc = X->nacc++;
      X->acc[acc] = (epoch){.first = i, .last = SIZE_MAX, .lastop = c->t1, .partner = DX_NONE_U32};
      break;
    case AUGUR_EV_WIN_COMPLETE:
      if (acc != SIZE_MAX) X->acc[acc].last = i;
      acc = SIZE_MAX;
      break;
    case AUGUR_EV_WIN_POST:
      if (aug_grow((void **)&X->exp, &X->capexp, X->nexp + 1, sizeof *X->exp)) return -1;
      exp = X->nexp++;
      X->exp[exp] = (epoch){.first = i, .last = SIZE_MAX, .partner = DX_NONE_U32};
      break;
    case AUGUR_EV_WIN_WAIT:
      if (exp != SIZE_MAX) X->exp[exp].last = i;
      exp = SIZE_MAX;
      break;
    case AUGUR_EV_WIN_TEST:
      if (!c->x) exp = SIZE_MAX; /* closed by a test: no wait to measure */
      break;
    case AUGUR_EV_WIN_LOCK:
      if (aug_grow((void **)&X->locks, &X->caplocks, X->nlocks + 1, sizeof *X->locks)) return -1;
      X->locks[X->nlocks++] = (lockep){.first = i,
                                       .last = SIZE_MAX,
                                       .t0 = c->t0,
                                       .win = c->win,
                                       .target = c->peer,
                                       .origin = c->rank,
                                       .exclusive = c->x == AUGUR_RMA_LOCK_EXCLUSIVE};
      break;
    case AUGUR_EV_WIN_UNLOCK:
      for (size_t k = X->nlocks; k-- > 0 && X->locks[k].first >= b;)
        if (X->locks[k].target == c->peer && X->locks[k].last == SIZE_MAX) {
          X->locks[k].last = i;
          break;
        }
      break;
    default:
      if (is_op(c->type) && acc != SIZE_MAX) X->acc[acc].lastop = max64(X->acc[acc].lastop, c->t1);
      break;
    }
  }
  return 0;
}

/* PSCW: match access and exposure epochs per (origin, target) in order. */
static int match_pscw(rma_ctx *X) {
  X->npairs = 0;
  for (size_t i = 0; i < X->nacc; i++)
    if (add_pairs(X, &X->acc[i], i, 0)) return -1;
  for (size_t i = 0; i < X->nexp; i++)
    if (add_pairs(X, &X->exp[i], i, 1)) return -1;
  if (X->npairs) qsort(X->pairs, X->npairs, sizeof *X->pairs, by_pair);
  for (size_t i = 0; i < X->npairs;) {
    size_t j = i;
    while (j < X->npairs && X->pairs[j].o == X->pairs[i].o && X->pairs[j].t == X->pairs[i].t)
      j++;
    size_t na = i;
    while (na < j && X->pairs[na].kind == 0)
      na++;
    size_t nacc = na - i, nexp = j - na;
    if (nacc != nexp) X->d->rma->unmatched += nacc > nexp ? nacc - nexp : nexp - nacc;
    for (size_t k = 0; k < nacc && k < nexp; k++) {
      epoch *a = &X->acc[X->pairs[i + k].ep], *x = &X->exp[X->pairs[na + k].ep];
      const rma_call *post = &X->c[x->first];
      if (post->t0 > a->until || a->partner == DX_NONE_U32) {
        a->until = max64(a->until, post->t0);
        a->partner = post->rank;
        a->partner_cs = post->cs;
      }
      if (a->last == SIZE_MAX) continue;
      const rma_call *done = &X->c[a->last];
      if (done->t0 > x->until || x->partner == DX_NONE_U32) {
        x->until = max64(x->until, done->t0);
        x->until_lastop = a->lastop;
        x->partner = done->rank;
        x->partner_cs = done->cs;
      }
    }
    i = j;
  }
  return 0;
}

static int charge_pscw(rma_ctx *X) {
  dx *d = X->d;
  /* late post: every call of the access epoch, from its start to the post */
  for (size_t i = 0; i < X->nacc; i++) {
    const epoch *a = &X->acc[i];
    if (a->partner == DX_NONE_U32) continue;
    size_t last = a->last != SIZE_MAX ? a->last : a->first;
    if (charge_calls(X, AUGUR_DX_LATE_POST, a->first, last, -1, a->until, a->partner,
                     a->partner_cs))
      return -1;
  }
  /* early wait: Win_wait before the last origin's Win_complete; the part
   * after that origin's last RMA operation is late complete */
  for (size_t i = 0; i < X->nexp; i++) {
    const epoch *x = &X->exp[i];
    if (x->partner == DX_NONE_U32 || x->last == SIZE_MAX) continue;
    rma_call *w = &X->c[x->last];
    uint64_t end = min64(w->t1, x->until);
    if (end <= w->t0) continue;
    uint64_t split = min64(end, max64(w->t0, x->until_lastop));
    if (charge(d, AUGUR_DX_EARLY_WAIT, w, w->t0, split, x->partner, x->partner_cs) == -2 ||
        charge(d, AUGUR_DX_LATE_COMPLETE, w, split, end, x->partner, x->partner_cs) == -2)
      return -1;
  }
  return 0;
}

/* Wait at fence: the k-th fences of a window's members are one instance;
 * each member waits in its fence until the last member enters. */
static int fences(rma_ctx *X, size_t b, size_t e) {
  dx *d = X->d;
  const augur_comm_def *w = augur_trace_comm(d->trace, X->c[b].win);
  size_t nf = 0;
  for (size_t i = b; i < e; i++)
    nf += X->c[i].type == AUGUR_EV_WIN_FENCE;
  if (!nf) return 0;
  if (!w || !w->size) {
    d->rma->unknown_win += nf;
    return 0;
  }
  /* per member: its fences in order */
  size_t *idx = malloc(nf * sizeof *idx), *start = calloc((size_t)w->size + 1, sizeof *start);
  uint32_t *member = malloc((size_t)d->nranks * sizeof *member);
  int rc = idx && start && member ? 0 : -1;
  if (rc == 0) {
    for (uint32_t r = 0; r < d->nranks; r++)
      member[r] = DX_NONE_U32;
    for (uint32_t m = 0; m < w->size; m++)
      if (w->members[m] >= 0 && (uint32_t)w->members[m] < d->nranks) member[w->members[m]] = m;
    for (size_t i = b; i < e; i++) /* counts per member, then prefix sums */
      if (X->c[i].type == AUGUR_EV_WIN_FENCE && member[X->c[i].rank] != DX_NONE_U32)
        start[member[X->c[i].rank] + 1]++;
    size_t least = SIZE_MAX, most = 0;
    for (uint32_t m = 0; m < w->size; m++) {
      least = min64(least, start[m + 1]);
      most = max64(most, start[m + 1]);
      start[m + 1] += start[m];
    }
    size_t *fill = calloc(w->size, sizeof *fill);
    if (!fill) rc = -1;
    for (size_t i = b; rc == 0 && i < e; i++) {
      uint32_t m = member[X->c[i].rank];
      if (X->c[i].type == AUGUR_EV_WIN_FENCE && m != DX_NONE_U32) idx[start[m] + fill[m]++] = i;
    }
    free(fill);
    d->rma->unmatched += most - least;
    for (size_t k = 0; rc == 0 && k < least; k++) {
      uint32_t L = 0;
      for (uint32_t m = 1; m < w->size; m++)
        if (X->c[idx[start[m] + k]].t0 > X->c[idx[start[L] + k]].t0) L = m;
      const rma_call *late = &X->c[idx[start[L] + k]];
      uint64_t maxw = 0;
      int32_t g0 = -1;
      for (uint32_t m = 0; rc == 0 && m < w->size; m++) {
        rma_call *c = &X->c[idx[start[m] + k]];
        if (m == L) continue;
        int32_t g = charge(d, AUGUR_DX_WAIT_AT_FENCE, c, c->t0, min64(c->t1, late->t0), late->rank,
                           late->cs);
        if (g == -2) rc = -1;
        if (g < 0) continue;
        if (g0 < 0) g0 = g;
        maxw = max64(maxw, min64(c->t1, late->t0) - c->t0);
      }
      if (g0 >= 0) {
        d->groups.g[g0].saving_ns += maxw;
        d->groups.g[g0].lateness_ns += maxw;
        dx_vote(&d->groups.g[g0], late->rank);
      }
    }
  }
  free(idx);
  free(start);
  free(member);
  return rc;
}

/* Lock contention: an origin's lock epoch on a target waits, in whichever of
 * its calls the MPI blocks, until the lock another origin took before it
 * and that conflicts (one of them exclusive) is released (that origin's
 * Win_unlock ends). */
static int contention(rma_ctx *X) {
  if (X->nlocks) qsort(X->locks, X->nlocks, sizeof *X->locks, by_lock);
  for (size_t i = 0; i < X->nlocks;) {
    size_t j = i;
    while (j < X->nlocks && X->locks[j].win == X->locks[i].win &&
           X->locks[j].target == X->locks[i].target)
      j++;
    uint64_t excl = 0, shared = 0; /* latest release of an exclusive / shared lock so far */
    const rma_call *excl_by = NULL, *shared_by = NULL;
    for (size_t k = i; k < j; k++) {
      const lockep *l = &X->locks[k];
      if (l->last == SIZE_MAX) continue;
      uint64_t until = excl;
      const rma_call *by = excl_by;
      if (l->exclusive && shared > until) until = shared, by = shared_by;
      if (by && by->rank != l->origin && until > X->c[l->first].t0 &&
          charge_calls(X, AUGUR_DX_LOCK_CONTENTION, l->first, l->last, l->target, until, by->rank,
                       by->cs))
        return -1;
      const rma_call *unlock = &X->c[l->last];
      if (l->exclusive && unlock->t1 > excl) excl = unlock->t1, excl_by = unlock;
      if (!l->exclusive && unlock->t1 > shared) shared = unlock->t1, shared_by = unlock;
    }
    i = j;
  }
  return 0;
}

/* One-sided data movement (the slow_communication rule, seed 3.1.2, for
 * one-sided data): an origin's call that completes at least DX_LARGE_MESSAGE
 * bytes of its RMA operations (a flush or unlock of their target; a
 * flush_all, unlock_all, Win_complete or fence: all of them), and an RMA
 * operation of that size itself (the MPI may copy inside it), spends the
 * part of the call after its waits (late post, wait at fence, lock
 * contention) moving the data. Request-based operations (MPI_Rput, ...)
 * complete in MPI_Wait, which is not followed: they are left out. Calls of
 * one rank on one window, [b, e), in program order; PEND holds the bytes not
 * yet completed per target. */
typedef struct pend {
  int32_t target;
  uint64_t bytes;
} pend;

/* BYTES: what the call moved or completed; COUNT: add them to the finding's
 * volume (an operation's bytes count once, when they are completed). */
static int volume_call(dx *d, rma_call *c, uint64_t bytes, int count) {
  if (bytes < DX_LARGE_MESSAGE) return 0;
  uint64_t t0 = max64(max64(c->t0, c->waited), d->t_ready), t1 = c->t1;
  if (d->ranks[c->rank].finalized) t1 = min64(t1, d->ranks[c->rank].win_end);
  if (t1 <= t0) return 0;
  int32_t g = dx_group_get(&d->groups, AUGUR_DX_RMA_VOLUME, -1, c->cs, -1);
  if (g < 0) return -1;
  dx_group *G = &d->groups.g[g];
  G->call_type = c->type;
  G->bytes += count ? bytes : 0;
  dx_group_add(d, g, c->rank, c->cs, t0, t1, c->win);
  return 0;
}

static int volume(rma_ctx *X, size_t b, size_t e, pend **pv, size_t *cap) {
  size_t np = 0;
  for (size_t i = b; i < e; i++) {
    rma_call *c = &X->c[i];
    unsigned t = c->type;
    uint64_t done = 0;
    if (t >= AUGUR_EV_RPUT && t <= AUGUR_EV_RGET_ACCUMULATE) continue;
    if (is_op(t)) {
      if (volume_call(X->d, c, c->bytes, 0)) return -1;
      size_t k = 0;
      while (k < np && (*pv)[k].target != c->peer)
        k++;
      if (k == np) {
        if (aug_grow((void **)pv, cap, np + 1, sizeof **pv)) return -1;
        (*pv)[np++] = (pend){.target = c->peer, .bytes = 0};
      }
      (*pv)[k].bytes += c->bytes;
      continue;
    }
    if (t == AUGUR_EV_WIN_FLUSH || t == AUGUR_EV_WIN_FLUSH_LOCAL || t == AUGUR_EV_WIN_UNLOCK) {
      for (size_t k = 0; k < np; k++)
        if ((*pv)[k].target == c->peer) {
          done = (*pv)[k].bytes;
          (*pv)[k] = (*pv)[--np];
          break;
        }
    } else if (t == AUGUR_EV_WIN_FLUSH_ALL || t == AUGUR_EV_WIN_FLUSH_LOCAL_ALL ||
               t == AUGUR_EV_WIN_UNLOCK_ALL || t == AUGUR_EV_WIN_COMPLETE ||
               t == AUGUR_EV_WIN_FENCE) {
      for (size_t k = 0; k < np; k++)
        done += (*pv)[k].bytes;
      np = 0;
    }
    if (done && volume_call(X->d, c, done, 1)) return -1;
  }
  return 0;
}

int dx_rma(dx *d) {
  dx_rmas *R = d->rma;
  if (!R || !R->n) return 0;
  qsort(R->c, R->n, sizeof *R->c, by_win_rank);
  rma_ctx X = {.d = d, .c = R->c};
  int rc = 0;
  for (size_t b = 0; rc == 0 && b < R->n;) {
    size_t e = b; /* one window: [b, e) */
    while (e < R->n && R->c[e].win == R->c[b].win)
      e++;
    X.nacc = X.nexp = 0;
    for (size_t r = b; rc == 0 && r < e;) {
      size_t q = r;
      while (q < e && R->c[q].rank == R->c[r].rank)
        q++;
      rc = replay(&X, r, q);
      r = q;
    }
    if (rc == 0) rc = match_pscw(&X);
    if (rc == 0) rc = charge_pscw(&X);
    if (rc == 0) rc = fences(&X, b, e);
    b = e;
  }
  if (rc == 0) rc = contention(&X);
  pend *pv = NULL;
  size_t cap = 0;
  for (size_t b = 0; rc == 0 && b < R->n;) {
    size_t e = b; /* one rank on one window: [b, e) */
    while (e < R->n && R->c[e].win == R->c[b].win && R->c[e].rank == R->c[b].rank)
      e++;
    rc = volume(&X, b, e, &pv, &cap);
    b = e;
  }
  free(pv);
  free(X.acc);
  free(X.exp);
  free(X.locks);
  free(X.pairs);
  return rc;
}

int dx_rma_words(const dx_group *g, const char *who, const char *site, const char *partner,
                 int many, char **cause, char **rec) {
  const char *wait = many ? "wait" : "waits";
  switch (g->pattern) {
  case AUGUR_DX_LATE_POST:
    *cause = dx_strdup_printf(
        "%s %s in %s for %s to open its exposure epoch (MPI_Win_post): the target posts late, "
        "after computing, so the origins' access epochs (Win_start, the RMA operations, "
        "Win_complete: the MPI blocks in one of them) stand still (%llu calls).",
        who, wait, site, partner, (unsigned long long)g->instances);
    *rec = dx_strdup_printf("Let %s call MPI_Win_post earlier: before its computation (the window "
                            "may stay exposed while it computes, MPI_Win_wait then closes it), or "
                            "use fence or passive-target synchronisation (MPI_Win_lock) so the "
                            "origins do not wait for the target. Where the MPI moves one-sided "
                            "data only inside MPI calls (MPICH by default) the origins then wait "
                            "in MPI_Win_complete until the target calls MPI: let it enter MPI now "
                            "and then while it computes (an MPI_Iprobe), or turn on asynchronous "
                            "progress (MPICH_ASYNC_PROGRESS=1).",
                            partner);
    break;
  case AUGUR_DX_EARLY_WAIT:
    *cause = dx_strdup_printf("%s %s in %s (MPI_Win_wait) for %s to close its access epoch "
                              "(MPI_Win_complete), which it does late: the exposure epoch "
                              "cannot end before it (%llu waits).",
                              who, wait, site, partner, (unsigned long long)g->instances);
    *rec = dx_strdup_printf("Give the target work to do between MPI_Win_post and MPI_Win_wait "
                            "(or test with MPI_Win_test and compute), or let %s reach "
                            "MPI_Win_complete sooner (balance its work).",
                            partner);
    break;
  case AUGUR_DX_LATE_COMPLETE:
    *cause = dx_strdup_printf("%s %s in %s (MPI_Win_wait) for %s to call MPI_Win_complete after "
                              "its last RMA operation was already done: the origin computes "
                              "inside its access epoch (%llu waits).",
                              who, wait, site, partner, (unsigned long long)g->instances);
    *rec = dx_strdup_printf("Let %s call MPI_Win_complete right after its last RMA operation "
                            "and do its computation after the epoch, so the target's "
                            "MPI_Win_wait returns sooner.",
                            partner);
    break;
  case AUGUR_DX_WAIT_AT_FENCE: {
    char late[64] = "a different rank each time";
    if (g->syncs && (double)g->late_votes / (double)g->syncs > 0.5)
      snprintf(late, sizeof late, "most often rank %u", g->late_rank);
    *cause = dx_strdup_printf("%s %s in MPI_Win_fence at %s for the last rank to enter it (%s): "
                              "summed over %llu fences the longest waits come to %.3f s.",
                              who, wait, site, late, (unsigned long long)g->syncs,
                              (double)g->lateness_ns * NS);
    *rec = dx_strdup_printf("Balance the work between the fences at %s, or synchronise only the "
                            "ranks that communicate (post/start/complete/wait, or passive target "
                            "with MPI_Win_lock) instead of a fence of the whole window.",
                            site);
    break;
  }
  case AUGUR_DX_LOCK_CONTENTION:
    *cause = dx_strdup_printf("%s %s in %s for a lock on a window that %s holds first, "
                              "exclusively or against an exclusive request (%llu calls): "
                              "lock contention.",
                              who, wait, site, partner, (unsigned long long)g->instances);
    *rec = dx_strdup_printf("Hold the lock for less time (lock, transfer, unlock; no computation "
                            "inside), take MPI_LOCK_SHARED when the accesses do not conflict, use "
                            "atomic operations (MPI_Accumulate, MPI_Fetch_and_op) instead of an "
                            "exclusive lock, or spread the data over several targets.");
    break;
  case AUGUR_DX_RMA_VOLUME: {
    char vol[32], rate[32] = "?";
    augur_fmt_bytes(vol, sizeof vol, g->bytes);
    if (g->ns) augur_fmt_bytes(rate, sizeof rate, (uint64_t)((double)g->bytes / (g->ns * NS)));
    *cause = dx_strdup_printf(
        "%s spend%s the time in %s at %s completing one-sided transfers (%s over %llu calls, "
        "%s/s while in them), outside any wait for another rank: the data movement itself, or "
        "the target not making progress on it (an MPI that moves one-sided data only inside "
        "the target's MPI calls).",
        who, many ? "" : "s", g->call_type ? augur_event_name(g->call_type) : "one-sided calls",
        site, vol, (unsigned long long)g->instances, rate);
    *rec = dx_strdup_printf(
        "Move less data through the window, or overlap the transfer: issue the RMA operations "
        "early and complete them (flush, unlock, Win_complete, fence) after independent "
        "computation. Where the MPI moves one-sided data only inside MPI calls (MPICH by "
        "default) that needs asynchronous progress (MPICH_ASYNC_PROGRESS=1) or request-based "
        "operations (MPI_Rput, MPI_Rget) tested while computing. Ranks on one node can share "
        "the data in place instead of copying it (MPI_Win_allocate_shared).");
    break;
  }
  default:
    return 0;
  }
  return *cause && *rec ? 0 : -1;
}

int dx_rma_notes(const dx *d, augur_diagnosis *o) {
  const dx_rmas *R = d->rma;
  if (!R) return 0;
  double s = (double)R->ns * NS;
  int rc = dx_note(
      o, dx_strdup_printf("one-sided calls: %.6f s (%.1f %% of process-time); their waits are "
                          "diagnosed as late post, early wait, late complete, wait at fence and "
                          "lock contention, the completion of large transfers as rma_volume, "
                          "the rest counts as time in MPI (augur report shows it per epoch "
                          "kind); MPI_Win_lock_all epochs and MPI_Win_test loops are not "
                          "followed",
                          s, o->process_seconds > 0 ? 100.0 * s / o->process_seconds : 0.0));
  if (R->unmatched || R->unknown_win)
    rc |= dx_note(
        o, dx_strdup_printf("one-sided epochs or fences with no partner in the trace: %llu (a run "
                            "cut short, or a group or window not defined); their waits "
                            "are not counted",
                            (unsigned long long)(R->unmatched + R->unknown_win)));
  return rc ? -1 : 0;
}
