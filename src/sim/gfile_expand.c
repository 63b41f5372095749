/* Expansion of an execution-graph file into an augur_sim_graph: every rank's
 * program is unrolled (loops, chosen branch arms, drawn random values) into
 * operations, then sends and receives are paired in program order per
 * (sender, receiver) and collective calls by their number on the
 * communicator, and the graph is built through augur_sim_add_* so the
 * simulator runs it unchanged (docs/graph-format.md "Expansion"). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfile_int.h"
#include "sim_int.h"

/* ---- random numbers: xoshiro256** seeded through splitmix64 --------------- */

typedef struct rng {
  uint64_t s[4];
} rng;

static void rng_seed(rng *r, uint64_t seed, uint64_t stream) {
  uint64_t x = seed * 0x9e3779b97f4a7c15ull ^ (stream + 1) * 0xd1b54a32d192ed03ull;
  for (int i = 0; i < 4; i++)
    r->s[i] = sim_splitmix(&x);
}

static uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(rng *r) {
  uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return out;
}

/* Uniform in [0, 1). */
static double rng_unit(rng *r) {
  return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Standard normal (Box-Muller). */
static double rng_gauss(rng *r) {
  double u1 = rng_unit(r), u2 = rng_unit(r);
  return sqrt(-2 * log(1 - u1)) * cos(6.283185307179586 * u2);
}

/* ---- expansion state ----------------------------------------------------- */

typedef struct xrank {
  uint32_t *lines; /* source line of each of the rank's ops, for pairing errors */
  size_t cap;
} xrank;

typedef struct shared_ctr {
  const gstmt *s;
  uint64_t k;
} shared_ctr;

typedef struct ex {
  const augur_gfile *f;
  augur_error *err;
  uint64_t seed, max, total;
  uint64_t steps; /* loop iterations: empty loops cost time, not operations */
  uint32_t nranks;
  uint32_t *cfirst; /* first rank of each class */
  /* the rank being expanded */
  uint32_t rank, me;
  rng rng;
  double rate;
  double vars[GF_MAX_DEPTH];
  uint32_t *outst; /* its outstanding nonblocking op indices, oldest first */
  size_t nout, outcap;
  shared_ctr *sh;
  size_t nsh, shcap;
  uint64_t *ccalls;   /* per comm: this rank's calls so far (its row of ccount) */
  augur_sim_graph *g; /* expanded straight into: ops, wait lists, then messages */
  xrank *rk;
  /* communicators: members (world ranks) and each rank's position or -1 */
  uint32_t **cmem;
  uint32_t *csize;
  int32_t **cpos;
  uint64_t *ccount; /* [rank * ncomms + comm]: calls */
} ex;

static int xfail(ex *x, uint32_t line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int xfail(ex *x, uint32_t line, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (line)
    augur_fail(x->err, AUGUR_E_FORMAT, "%s:%u: %s", x->f->name, line, msg);
  else
    augur_fail(x->err, AUGUR_E_FORMAT, "%s: %s", x->f->name, msg);
  return -1;
}

static int xnomem(ex *x) {
  augur_fail(x->err, AUGUR_E_NOMEM, "%s: out of memory while expanding", x->f->name);
  return -1;
}

/* ---- expressions --------------------------------------------------------- */

static int eval(ex *x, const gx *e, double *out) {
  double a = 0, b = 0;
  if (e->a && eval(x, e->a, &a)) return -1;
  if (e->b && eval(x, e->b, &b)) return -1;
  const gclass *c;
  switch (e->kind) {
  case GX_NUM:
    *out = e->num;
    return 0;
  case GX_VAR:
    *out = x->vars[e->idx];
    return 0;
  case GX_ME:
    *out = x->me;
    return 0;
  case GX_RANK:
    *out = x->rank;
    return 0;
  case GX_NRANKS:
    *out = x->nranks;
    return 0;
  case GX_COUNT:
    *out = x->f->classes[e->idx].count;
    return 0;
  case GX_MEMBER: {
    c = &x->f->classes[e->idx];
    if (c->count == 0)
      return xfail(x, e->line, "%s[...]: class '%s' has no ranks", c->name, c->name);
    if (!isfinite(a)) return xfail(x, e->line, "%s[...]: index is not a number", c->name);
    double k = fmod(floor(a + 0.5), (double)c->count);
    if (k < 0) k += c->count;
    *out = x->cfirst[e->idx] + k;
    return 0;
  }
  case GX_NEG:
    *out = -a;
    return 0;
  case GX_BIN:
    switch (e->op) {
    case '+':
      *out = a + b;
      return 0;
    case '-':
      *out = a - b;
      return 0;
    case '*':
      *out = a * b;
      return 0;
    default:
      if (b == 0) return xfail(x, e->line, "division by zero");
      if (e->op == '/') {
        *out = a / b;
      } else if (e->op == 'F') {
        *out = floor(a / b);
      } else {
        double r = fmod(a, b);
        if (r < 0) r += fabs(b);
        *out = r;
      }
      return 0;
    }
  case GX_UNIFORM:
    if (!(b >= a)) return xfail(x, e->line, "uniform(%g, %g): expected a <= b", a, b);
    *out = a + (b - a) * rng_unit(&x->rng);
    return 0;
  case GX_NORMAL: {
    if (!(b >= 0)) return xfail(x, e->line, "normal(%g, %g): expected sd >= 0", a, b);
    double v = a + b * rng_gauss(&x->rng);
    *out = v > 0 ? v : 0;
    return 0;
  }
  case GX_LOGNORMAL: {
    /* Parameterised by its own mean and sd: always > 0, and the mean is kept
     * (augur graph --spread writes costs that vary a lot this way). */
    if (!(a > 0) || !(b >= 0))
      return xfail(x, e->line, "lognormal(%g, %g): expected mean > 0 and sd >= 0", a, b);
    double s2 = log(1 + (b * b) / (a * a)), mu = log(a) - s2 / 2;
    *out = exp(mu + sqrt(s2) * rng_gauss(&x->rng));
    return 0;
  }
  case GX_EXP:
    if (!(a >= 0)) return xfail(x, e->line, "exponential(%g): expected a mean >= 0", a);
    *out = -a * log(1 - rng_unit(&x->rng));
    return 0;
  case GX_AT: {
    *out = 0;
    if (!isfinite(a)) return 0;
    double k = floor(a + 0.5);
    size_t lo = 0, hi = e->n;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (e->tv[mid] < k)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo < e->n && e->tv[lo] == k) *out = e->tp[lo];
    return 0;
  }
  case GX_TABLE: {
    double u = rng_unit(&x->rng), acc = 0;
    *out = e->tv[e->n - 1];
    for (size_t i = 0; i < e->n; i++) {
      acc += e->tp[i];
      if (u < acc) {
        *out = e->tv[i];
        break;
      }
    }
    return 0;
  }
  }
  return xfail(x, e->line, "bad expression");
}

/* A whole number in [0, max] (rounded to the nearest). */
static int eval_int(ex *x, const gx *e, uint32_t line, const char *what, double max,
                    uint64_t *out) {
  double v;
  if (eval(x, e, &v)) return -1;
  if (!isfinite(v) || v < -0.5)
    return xfail(x, line, "%s: expected a number >= 0, got %g", what, v);
  v = floor(v + 0.5);
  if (v > max) return xfail(x, line, "%s: %g is more than the limit %g", what, v, max);
  *out = (uint64_t)v;
  return 0;
}

static int eval_nonneg(ex *x, const gx *e, uint32_t line, const char *what, double *out) {
  if (eval(x, e, out)) return -1;
  if (!isfinite(*out) || *out < 0)
    return xfail(x, line, "%s: expected a value >= 0, got %g", what, *out);
  return 0;
}

/* ---- statements ---------------------------------------------------------- */

static int emit(ex *x, const augur_sim_op *op, uint32_t line) {
  if (x->total >= x->max)
    return xfail(x, line, "expansion exceeds %llu operations (see docs/graph-format.md)",
                 (unsigned long long)x->max);
  sim_rank_ops *ro = &x->g->ranks[x->rank];
  xrank *r = &x->rk[x->rank];
  if (ro->n >= UINT32_MAX - 1) return xnomem(x); /* op indices are 32-bit in wait lists */
  if (aug_grow((void **)&ro->ops, &ro->cap, ro->n + 1, sizeof *ro->ops) ||
      aug_grow((void **)&r->lines, &r->cap, ro->n + 1, sizeof *r->lines))
    return xnomem(x);
  ro->ops[ro->n] = *op;
  r->lines[ro->n++] = line;
  x->total++;
  return 0;
}

static int run_block(ex *x, const gblock *b);

static int run_wait(ex *x, const gstmt *s) {
  augur_sim_graph *g = x->g;
  size_t first = g->nwaits, n = 0;
  if (s->all) {
    if (aug_grow((void **)&g->waits, &g->wait_cap, g->nwaits + x->nout, sizeof *g->waits))
      return xnomem(x);
    if (x->nout) memcpy(g->waits + g->nwaits, x->outst, x->nout * sizeof *x->outst);
    n = x->nout;
    x->nout = 0;
  } else {
    if (aug_grow((void **)&g->waits, &g->wait_cap, g->nwaits + s->npos, sizeof *g->waits))
      return xnomem(x);
    for (size_t i = 0; i < s->npos; i++) {
      if (s->pos[i] >= x->nout)
        return xfail(x, s->line,
                     "wait: rank %u has no outstanding request at position %u (%zu outstanding)",
                     x->rank, s->pos[i], x->nout);
      for (size_t k = 0; k < i; k++)
        if (s->pos[k] == s->pos[i])
          return xfail(x, s->line, "wait: position %u listed twice", s->pos[i]);
      g->waits[first + n++] = x->outst[s->pos[i]];
    }
    /* Remove the completed ones, keeping the others' order. */
    size_t k = 0;
    for (size_t i = 0; i < x->nout; i++) {
      int done = 0;
      for (size_t j = 0; j < s->npos; j++)
        done |= s->pos[j] == i;
      if (!done) x->outst[k++] = x->outst[i];
    }
    x->nout = k;
  }
  g->nwaits += n;
  augur_sim_op op = {0};
  op.kind = AUGUR_SIM_WAIT;
  op.type = n == 1 ? AUGUR_EV_WAIT : AUGUR_EV_WAITALL;
  op.a = first;
  op.b = n;
  return emit(x, &op, s->line);
}

static int run_p2p(ex *x, const gstmt *s) {
  const char *what = s->kind == GS_SEND ? "send" : "recv";
  double pv;
  uint64_t bytes = 0;
  if (eval(x, s->e[0], &pv)) return -1;
  if (!isfinite(pv)) return xfail(x, s->line, "%s: peer is not a number", what);
  pv = floor(pv + 0.5);
  if (s->rel) {
    pv = fmod((double)x->rank + pv, (double)x->nranks);
    if (pv < 0) pv += x->nranks;
  } else if (pv < 0 || pv >= x->nranks) {
    return xfail(x, s->line, "%s: peer %g is not a rank (0 ... %u)", what, pv, x->nranks - 1);
  }
  if (eval_int(x, s->e[1], s->line, what, 0x1p62, &bytes)) return -1;
  augur_sim_op op = {0};
  op.kind = s->kind == GS_SEND ? AUGUR_SIM_SEND : AUGUR_SIM_RECV;
  op.type = s->type;
  op.flags = (uint8_t)s->flags;
  op.peer = (int32_t)pv;
  op.a = AUGUR_SIM_NONE;
  op.b = bytes;
  if (emit(x, &op, s->line)) return -1;
  if (s->flags & AUGUR_SIM_F_NONBLOCKING) {
    if (aug_grow((void **)&x->outst, &x->outcap, x->nout + 1, sizeof *x->outst)) return xnomem(x);
    x->outst[x->nout++] = (uint32_t)(x->g->ranks[x->rank].n - 1);
  }
  return 0;
}

static int run_coll(ex *x, const gstmt *s) {
  const char *what = augur_event_name(s->type);
  int c = s->comm;
  if (x->cpos[c][x->rank] < 0)
    return xfail(x, s->line, "%s: rank %u is not a member of communicator '%s'", what, x->rank,
                 x->f->comms[c].name);
  int32_t root = -1;
  uint64_t v = 0;
  if (s->e[0]) {
    if (eval_int(x, s->e[0], s->line, what, (double)x->nranks - 1, &v)) return -1;
    if (x->cpos[c][v] < 0)
      return xfail(x, s->line, "%s: root %llu is not a member of communicator '%s'", what,
                   (unsigned long long)v, x->f->comms[c].name);
    root = (int32_t)v;
  }
  v = 0;
  if (s->e[1] && eval_int(x, s->e[1], s->line, what, 0x1p62, &v)) return -1;
  augur_sim_op op = {0};
  op.kind = AUGUR_SIM_COLL;
  op.type = s->type;
  op.comm = (uint32_t)c;
  op.peer = root;
  op.a = x->ccalls[c]++;
  op.b = v;
  return emit(x, &op, s->line);
}

static int run_branch(ex *x, const gstmt *s) {
  double u;
  if (s->shared) {
    size_t i = 0;
    while (i < x->nsh && x->sh[i].s != s)
      i++;
    if (i == x->nsh) {
      if (aug_grow((void **)&x->sh, &x->shcap, x->nsh + 1, sizeof *x->sh)) return xnomem(x);
      x->sh[x->nsh].s = s;
      x->sh[x->nsh++].k = 0;
    }
    rng r;
    rng_seed(&r, x->seed ^ 0x5bd1e995u, (uint64_t)s->line << 32 ^ x->sh[i].k++);
    u = rng_unit(&r);
  } else {
    u = rng_unit(&x->rng);
  }
  double acc = 0;
  const gblock *pick = NULL;
  for (size_t i = 0; i < s->narms; i++) {
    double p;
    if (eval(x, s->arms[i].p, &p)) return -1;
    if (!(p >= 0 && p <= 1)) return xfail(x, s->line, "branch: probability %g not in [0, 1]", p);
    acc += p;
    if (!pick && u < acc) pick = &s->arms[i].body;
  }
  if (acc > 1 + 1e-9) return xfail(x, s->line, "branch: probabilities sum to %g, more than 1", acc);
  return pick ? run_block(x, pick) : 0;
}

static int run_block(ex *x, const gblock *b) {
  for (size_t i = 0; i < b->n; i++) {
    const gstmt *s = &b->v[i];
    double v;
    augur_sim_op op = {0};
    switch (s->kind) {
    case GS_COMPUTE:
    case GS_LOCAL:
      if (eval_nonneg(x, s->e[0], s->line, s->kind == GS_COMPUTE ? "compute" : "local", &v))
        return -1;
      if (s->instr) v /= x->rate;
      if (v > 1e9) return xfail(x, s->line, "cost of %g seconds is beyond reason", v);
      op.kind = s->kind == GS_COMPUTE ? AUGUR_SIM_COMPUTE : AUGUR_SIM_LOCAL;
      op.a = (uint64_t)(v * 1e9 + 0.5);
      if (emit(x, &op, s->line)) return -1;
      break;
    case GS_RATE:
      if (eval(x, s->e[0], &v)) return -1;
      if (!(v > 0) || !isfinite(v))
        return xfail(x, s->line, "rate: expected a positive number, got %g", v);
      x->rate = v;
      break;
    case GS_SEND:
    case GS_RECV:
      if (run_p2p(x, s)) return -1;
      break;
    case GS_WAIT:
      if (run_wait(x, s)) return -1;
      break;
    case GS_COLL:
      if (run_coll(x, s)) return -1;
      break;
    case GS_LOOP: {
      uint64_t n = 0;
      if (eval_int(x, s->e[0], s->line, "loop", (double)x->max, &n)) return -1;
      for (uint64_t it = 0; it < n; it++) {
        if (++x->steps > 4 * x->max)
          return xfail(x, s->line,
                       "expansion exceeds %llu loop iterations (see docs/graph-format.md)",
                       (unsigned long long)(4 * x->max));
        x->vars[s->var] = (double)it;
        if (run_block(x, &s->body)) return -1;
      }
      break;
    }
    case GS_BRANCH:
      if (run_branch(x, s)) return -1;
      break;
    }
  }
  return 0;
}

/* ---- communicators ------------------------------------------------------- */

static int setup_comms(ex *x) {
  const augur_gfile *f = x->f;
  x->cmem = calloc(f->ncomms, sizeof *x->cmem);
  x->csize = calloc(f->ncomms, sizeof *x->csize);
  x->cpos = calloc(f->ncomms, sizeof *x->cpos);
  if (!x->cmem || !x->csize || !x->cpos) return xnomem(x);
  for (size_t c = 0; c < f->ncomms; c++) {
    const gcomm *gc = &f->comms[c];
    size_t cap = 0, n = 0;
    if (!(x->cpos[c] = malloc(x->nranks * sizeof **x->cpos))) return xnomem(x);
    for (uint32_t r = 0; r < x->nranks; r++)
      x->cpos[c][r] = -1;
    if (c == 0) { /* world */
      if (!(x->cmem[0] = malloc(x->nranks * sizeof **x->cmem))) return xnomem(x);
      for (uint32_t r = 0; r < x->nranks; r++) {
        x->cmem[0][r] = r;
        x->cpos[0][r] = (int32_t)r;
      }
      x->csize[0] = x->nranks;
      continue;
    }
    for (size_t k = 0; k < gc->n; k++) {
      const gcspec *sp = &gc->specs[k];
      uint32_t lo, hi;
      if (sp->e) {
        uint64_t v = 0;
        if (eval_int(x, sp->e, sp->line, "comm", 1e12, &v)) return -1;
        if (v >= x->nranks)
          return xfail(x, sp->line, "comm %s: rank %llu is not a rank (0 ... %u)", gc->name,
                       (unsigned long long)v, x->nranks - 1);
        lo = (uint32_t)v;
        hi = lo + 1;
      } else {
        lo = x->cfirst[sp->cls];
        hi = lo + f->classes[sp->cls].count;
      }
      for (uint32_t r = lo; r < hi; r++) {
        if (x->cpos[c][r] >= 0)
          return xfail(x, sp->line, "comm %s: rank %u listed twice", gc->name, r);
        if (aug_grow((void **)&x->cmem[c], &cap, n + 1, sizeof **x->cmem)) return xnomem(x);
        x->cpos[c][r] = (int32_t)n;
        x->cmem[c][n++] = r;
      }
    }
    if (n == 0) return xfail(x, gc->line, "comm %s: no members", gc->name);
    x->csize[c] = (uint32_t)n;
  }
  return 0;
}

/* ---- pairing ------------------------------------------------------------- */

typedef struct endp {
  uint64_t key; /* sender << 32 | receiver */
  uint32_t rank, idx;
} endp;

static int endp_cmp(const void *a, const void *b) {
  const endp *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int pair_messages(ex *x, augur_sim_graph *g) {
  size_t ns = 0, nr = 0;
  for (uint32_t r = 0; r < x->nranks; r++)
    for (size_t i = 0; i < g->ranks[r].n; i++) {
      uint8_t k = g->ranks[r].ops[i].kind;
      ns += k == AUGUR_SIM_SEND;
      nr += k == AUGUR_SIM_RECV;
    }
  endp *S = malloc((ns + 1) * sizeof *S), *R = malloc((nr + 1) * sizeof *R);
  if (!S || !R) {
    free(S);
    free(R);
    return xnomem(x);
  }
  ns = nr = 0;
  for (uint32_t r = 0; r < x->nranks; r++)
    for (size_t i = 0; i < g->ranks[r].n; i++) {
      const augur_sim_op *op = &g->ranks[r].ops[i];
      if (op->kind == AUGUR_SIM_SEND)
        S[ns++] = (endp){(uint64_t)r << 32 | (uint32_t)op->peer, r, (uint32_t)i};
      else if (op->kind == AUGUR_SIM_RECV)
        R[nr++] = (endp){(uint64_t)(uint32_t)op->peer << 32 | r, r, (uint32_t)i};
    }
  qsort(S, ns, sizeof *S, endp_cmp);
  qsort(R, nr, sizeof *R, endp_cmp);
  size_t i = 0, j = 0;
  int rc = 0;
  while (i < ns || j < nr) {
    uint64_t key = i < ns && (j >= nr || S[i].key <= R[j].key) ? S[i].key : R[j].key;
    size_t i2 = i, j2 = j;
    while (i2 < ns && S[i2].key == key)
      i2++;
    while (j2 < nr && R[j2].key == key)
      j2++;
    size_t cs = i2 - i, cr = j2 - j;
    uint32_t snd = (uint32_t)(key >> 32), rcv = (uint32_t)key;
    if (cs != cr) {
      const endp *e = cs > cr ? &S[i + cr] : &R[j + cs];
      rc = xfail(
          x, x->rk[e->rank].lines[e->idx],
          "unpaired messages: rank %u sends %zu to rank %u, rank %u receives %zu from rank %u", snd,
          cs, rcv, rcv, cr, snd);
      break;
    }
    for (size_t k = 0; k < cs; k++) {
      augur_sim_op *so = &g->ranks[snd].ops[S[i + k].idx], *ro = &g->ranks[rcv].ops[R[j + k].idx];
      int64_t m = augur_sim_add_message(g, snd, rcv, so->b,
                                        so->flags & AUGUR_SIM_F_SYNC ? AUGUR_SIM_MSG_SYNC : 0);
      if (m < 0) {
        rc = xnomem(x);
        break;
      }
      so->a = ro->a = (uint64_t)m;
      ro->b = so->b;
    }
    if (rc) break;
    i = i2;
    j = j2;
  }
  free(S);
  free(R);
  return rc;
}

/* Collective call k of every member on communicator c is one instance.
 * Kinds and roots are compared first (the k-th calls must agree), then the
 * numbers of calls: a mismatch of kinds is the likelier mistake to report. */
static int pair_colls(ex *x, augur_sim_graph *g) {
  const augur_gfile *f = x->f;
  size_t nc = f->ncomms;
  uint64_t *base = calloc(nc + 1, sizeof *base);
  if (!base) return xnomem(x);
  for (size_t c = 0; c < nc; c++) {
    uint64_t kmax = 0;
    for (uint32_t k = 0; k < x->csize[c]; k++) {
      uint64_t kr = x->ccount[(size_t)x->cmem[c][k] * nc + c];
      if (kr > kmax) kmax = kr;
    }
    base[c + 1] = base[c] + kmax;
  }
  uint64_t total = base[nc];
  augur_sim_op *first = total ? malloc(total * sizeof *first) : NULL;
  uint32_t *who = total ? malloc(total * sizeof *who) : NULL;
  if (total && (!first || !who)) {
    free(base);
    free(first);
    free(who);
    return xnomem(x);
  }
  for (uint64_t k = 0; k < total; k++)
    first[k].kind = 0xff;
  int rc = 0;
  for (uint32_t r = 0; r < x->nranks && !rc; r++)
    for (size_t i = 0; i < g->ranks[r].n; i++) {
      const augur_sim_op *op = &g->ranks[r].ops[i];
      if (op->kind != AUGUR_SIM_COLL) continue;
      uint64_t inst = base[op->comm] + op->a;
      if (first[inst].kind == 0xff) {
        first[inst] = *op;
        who[inst] = r;
      } else if (first[inst].type != op->type || first[inst].peer != op->peer) {
        rc = xfail(
            x, x->rk[r].lines[i],
            "collectives do not match on '%s': rank %u calls %s (root %d), rank %u %s (root %d)",
            f->comms[op->comm].name, who[inst], augur_event_name(first[inst].type),
            first[inst].peer, r, augur_event_name(op->type), op->peer);
        break;
      }
    }
  for (size_t c = 0; c < nc && !rc; c++) {
    uint32_t r0 = x->cmem[c][0];
    uint64_t k0 = x->ccount[(size_t)r0 * nc + c];
    for (uint32_t k = 1; k < x->csize[c]; k++) {
      uint32_t r = x->cmem[c][k];
      uint64_t kr = x->ccount[(size_t)r * nc + c];
      if (kr == k0) continue;
      /* The line of the first call the other rank has no partner for. */
      uint32_t more = kr > k0 ? r : r0, line = 0;
      uint64_t k1 = kr > k0 ? k0 : kr;
      for (size_t i = 0; i < g->ranks[more].n; i++) {
        const augur_sim_op *op = &g->ranks[more].ops[i];
        if (op->kind == AUGUR_SIM_COLL && op->comm == c && op->a == k1) {
          line = x->rk[more].lines[i];
          break;
        }
      }
      rc = xfail(x, line,
                 "unpaired collectives on '%s': rank %u makes %llu calls, rank %u makes %llu",
                 f->comms[c].name, r0, (unsigned long long)k0, r, (unsigned long long)kr);
      break;
    }
  }
  for (uint32_t r = 0; r < x->nranks && !rc; r++)
    for (size_t i = 0; i < g->ranks[r].n; i++) {
      augur_sim_op *op = &g->ranks[r].ops[i];
      if (op->kind == AUGUR_SIM_COLL) op->a += base[op->comm];
    }
  g->ninstances = total;
  free(base);
  free(first);
  free(who);
  return rc;
}

/* ---- driver -------------------------------------------------------------- */

static void ex_free(ex *x) {
  for (uint32_t r = 0; x->rk && r < x->nranks; r++)
    free(x->rk[r].lines);
  free(x->rk);
  augur_sim_graph_free(x->g);
  free(x->cfirst);
  free(x->outst);
  free(x->sh);
  free(x->ccount);
  for (size_t c = 0; x->cmem && c < x->f->ncomms; c++) {
    free(x->cmem[c]);
    free(x->cpos[c]);
  }
  free(x->cmem);
  free(x->cpos);
  free(x->csize);
}

static int expand(ex *x, augur_sim_graph **out) {
  const augur_gfile *f = x->f;
  uint64_t n = 0;
  if (!(x->cfirst = calloc(f->nclasses, sizeof *x->cfirst))) return xnomem(x);
  for (size_t c = 0; c < f->nclasses; c++) {
    x->cfirst[c] = (uint32_t)n;
    n += f->classes[c].count;
  }
  if (n == 0) return xfail(x, 0, "no ranks: every class has count 0");
  if (n > (1u << 24))
    return xfail(x, 0, "%llu ranks is more than %u", (unsigned long long)n, 1u << 24);
  x->nranks = (uint32_t)n;
  size_t nc = f->ncomms;
  x->g = augur_sim_graph_new(x->nranks);
  x->rk = calloc(n, sizeof *x->rk);
  x->ccount = calloc((size_t)n * nc, sizeof *x->ccount);
  if (!x->g || !x->rk || !x->ccount) return xnomem(x);
  if (setup_comms(x)) return -1;
  for (uint32_t c = 0; c < f->nclasses; c++)
    for (uint32_t me = 0; me < f->classes[c].count; me++) {
      x->rank = x->cfirst[c] + me;
      x->me = me;
      x->rate = f->rate;
      x->nout = 0;
      x->nsh = 0;
      x->ccalls = x->ccount + (size_t)x->rank * nc;
      /* Streams by (class, index) so resizing one class leaves the others' draws alone. */
      rng_seed(&x->rng, x->seed, (uint64_t)c << 32 | me);
      if (run_block(x, &f->classes[c].body)) return -1;
    }
  augur_sim_graph *g = x->g;
  for (size_t c = 0; c < nc; c++)
    if (augur_sim_add_comm(g, x->cmem[c], x->csize[c]) < 0) return xnomem(x);
  if (pair_messages(x, g) || pair_colls(x, g)) return -1;
  for (size_t i = 0; i < f->nstarts; i++)
    if (f->starts[i].rank < x->nranks) g->ranks[f->starts[i].rank].start = f->starts[i].seconds;
  *out = g;
  x->g = NULL;
  return 0;
}

int augur_gfile_expand(const augur_gfile *f, uint64_t seed, uint64_t max_ops, augur_sim_graph **out,
                       augur_error *err) {
  *out = NULL;
  ex x = {0};
  x.f = f;
  x.err = err;
  x.seed = seed;
  x.max = max_ops ? max_ops : AUGUR_GFILE_MAX_OPS;
  int rc = expand(&x, out);
  ex_free(&x);
  return rc ? (err->code ? err->code : AUGUR_E_FORMAT) : AUGUR_OK;
}
