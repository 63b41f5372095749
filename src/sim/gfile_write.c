/* Writes an execution graph as a graph file (docs/graph-format.md "augur
 * graph"): each operation becomes a statement with a relative peer, the
 * longest-covering tandem repeat of statements becomes a loop (recursively:
 * before, after and inside it), compute costs in a loop body are averaged
 * (--exact: kept per iteration), and consecutive ranks with identical
 * programs share a class. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfile_int.h"
#include "sim_int.h"

#define W_MAX_BLOCK 4096
#define EXACT_CHUNK 1000 /* --exact: iterations per loop (costs per statement) */

typedef struct witem {
  int tok; /* interned statement key (without its cost) */
  int val; /* carries a cost (compute, local) */
  double sum, sumsq;
  uint64_t n;
  uint64_t reps;     /* > 0: a loop */
  struct wseq *body; /* loop body */
  /* Outliers kept apart from the mean: iteration XK[k] of the enclosing
   * loop costs XV[k] more (summed over the ranks of a class). */
  uint32_t *xk;
  double *xv;
  size_t nx;
  int exact; /* --exact: XV are the costs themselves, every nonzero one */
} witem;

typedef struct wseq {
  witem *v;
  size_t n, cap;
} wseq;

typedef struct strbuf {
  char *s;
  size_t n, cap;
  int nomem;
} strbuf;

typedef struct wctx {
  const augur_sim_graph *g;
  const augur_gfile_write_opts *o;
  char **keys; /* interned keys */
  size_t nkeys, kcap;
  size_t *hash; /* open addressing: index + 1, 0 = empty */
  size_t hcap;
  int nomem;
  uint64_t skipped;
  uint8_t *comm_used;
  int64_t world; /* the first communicator of every rank in order, or -1 */
} wctx;

static void sb_add(strbuf *b, const char *s, size_t n) {
  if (b->nomem) return;
  if (aug_grow((void **)&b->s, &b->cap, b->n + n + 1, 1)) {
    b->nomem = 1;
    return;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
}

static void sb_printf(strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void sb_printf(strbuf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof tmp) n = sizeof tmp - 1;
  sb_add(b, tmp, (size_t)n);
}

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static int intern(wctx *w, const char *key) {
  if (w->nkeys * 2 >= w->hcap) {
    size_t nc = w->hcap ? w->hcap * 2 : 256;
    size_t *nh = calloc(nc, sizeof *nh);
    if (!nh) return w->nomem = 1, 0;
    for (size_t i = 0; i < w->nkeys; i++) {
      size_t h = hash_str(w->keys[i]) & (nc - 1);
      while (nh[h])
        h = (h + 1) & (nc - 1);
      nh[h] = i + 1;
    }
    free(w->hash);
    w->hash = nh;
    w->hcap = nc;
  }
  size_t h = hash_str(key) & (w->hcap - 1);
  while (w->hash[h]) {
    if (!strcmp(w->keys[w->hash[h] - 1], key)) return (int)(w->hash[h] - 1);
    h = (h + 1) & (w->hcap - 1);
  }
  char *k = strdup(key);
  if (!k || aug_grow((void **)&w->keys, &w->kcap, w->nkeys + 1, sizeof *w->keys)) {
    free(k);
    return w->nomem = 1, 0;
  }
  w->keys[w->nkeys] = k;
  w->hash[h] = w->nkeys + 1;
  return (int)w->nkeys++;
}

static void seq_add(wctx *w, wseq *s, const witem *it) {
  if (aug_grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v)) {
    w->nomem = 1;
    return;
  }
  s->v[s->n++] = *it;
}

static void seq_free(wseq *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++) {
    free(s->v[i].xk);
    free(s->v[i].xv);
    seq_free(s->v[i].body);
    free(s->v[i].body);
  }
  free(s->v);
}

/* ---- statements of one rank ---------------------------------------------- */

static int comm_is_world(const augur_sim_graph *g, uint32_t c) {
  const sim_comm *sc = &g->comms[c];
  if (sc->size != g->nranks) return 0;
  for (uint32_t i = 0; i < sc->size; i++)
    if (sc->members[i] != i) return 0;
  return 1;
}

static void coll_key(wctx *w, const augur_sim_op *op, char *key, size_t n) {
  const augur_sim_graph *g = w->g;
  char on[32] = "";
  /* Only one communicator becomes `world`: collectives on a duplicate of it
   * keep their own sequence (ranks may interleave the two differently). */
  if (op->comm < g->ncomms && (int64_t)op->comm != w->world) {
    snprintf(on, sizeof on, " on c%u", op->comm);
    w->comm_used[op->comm] = 1;
  }
  for (size_t i = 0; i < gf_ncollkws; i++) {
    const gf_collkw *c = &gf_collkws[i];
    if (c->type != op->type || (c->root && op->peer < 0)) continue;
    int k = snprintf(key, n, "%s", c->kw);
    if (c->root) k += snprintf(key + k, n - (size_t)k, " %d", op->peer);
    if (c->bytes) k += snprintf(key + k, n - (size_t)k, " %llu", (unsigned long long)op->b);
    snprintf(key + k, n - (size_t)k, "%s", on);
    return;
  }
  char root[16] = "none";
  if (op->peer >= 0) snprintf(root, sizeof root, "%d", op->peer);
  snprintf(key, n, "coll %s %s %llu%s", augur_event_name(op->type), root, (unsigned long long)op->b,
           on);
}

/* Leaves of rank R: one per operation the file can express. */
static int rank_leaves(wctx *w, uint32_t r, witem **out, size_t *nout) {
  const augur_sim_graph *g = w->g;
  size_t n = augur_sim_graph_nops(g, r), k = 0, nout_req = 0, cap_req = 0;
  const augur_sim_op *ops = augur_sim_graph_ops(g, r);
  witem *v = malloc((n + 1) * sizeof *v);
  uint32_t *outst = NULL; /* outstanding nonblocking op indices */
  uint8_t *hit = NULL;    /* per outstanding one: completed by the current wait */
  size_t hit_cap = 0;
  if (!v) return -1;
  char key[256];
  for (size_t i = 0; i < n; i++) {
    const augur_sim_op *op = &ops[i];
    witem it = {0};
    switch (op->kind) {
    case AUGUR_SIM_COMPUTE:
    case AUGUR_SIM_LOCAL: {
      double s = (double)op->a * 1e-9;
      if (op->flags & AUGUR_SIM_F_MODEL) s = sim_iorma_default_cost(op); /* graph_iorma.c */
      it.tok = intern(w, op->kind == AUGUR_SIM_COMPUTE ? "compute" : "local");
      it.val = 1;
      it.sum = s;
      it.sumsq = s * s;
      it.n = 1;
      break;
    }
    case AUGUR_SIM_SEND:
    case AUGUR_SIM_RECV: {
      if (op->flags & AUGUR_SIM_F_UNMATCHED || op->peer < 0) {
        w->skipped++;
        continue;
      }
      int nb = (op->flags & AUGUR_SIM_F_NONBLOCKING) != 0;
      int sync = (op->flags & AUGUR_SIM_F_SYNC) ||
                 (op->a < g->nmsgs && (g->msgs[op->a].flags & AUGUR_SIM_MSG_SYNC));
      const char *verb = op->kind == AUGUR_SIM_RECV ? (nb ? "irecv" : "recv")
                         : nb                       ? (sync ? "issend" : "isend")
                                                    : (sync ? "ssend" : "send");
      uint32_t d = ((uint32_t)op->peer + g->nranks - r) % g->nranks;
      if (d <= g->nranks / 2)
        snprintf(key, sizeof key, "%s +%u %llu", verb, d, (unsigned long long)op->b);
      else
        snprintf(key, sizeof key, "%s -%u %llu", verb, g->nranks - d, (unsigned long long)op->b);
      it.tok = intern(w, key);
      if (nb) {
        if (aug_grow((void **)&outst, &cap_req, nout_req + 1, sizeof *outst)) goto nomem;
        outst[nout_req++] = (uint32_t)i;
      }
      break;
    }
    case AUGUR_SIM_WAIT: {
      size_t nl = (size_t)op->b, found = 0;
      const uint32_t *wl = nl ? g->waits + op->a : NULL;
      int len = snprintf(key, sizeof key, "wait");
      if (aug_grow((void **)&hit, &hit_cap, nout_req + 1, 1)) goto nomem;
      memset(hit, 0, nout_req + 1);
      for (size_t j = 0; j < nl; j++)
        for (size_t q = 0; q < nout_req; q++)
          if (outst[q] == wl[j] && !hit[q]) {
            hit[q] = 1;
            found++;
            if (len < (int)sizeof key - 16)
              len += snprintf(key + len, sizeof key - (size_t)len, " %zu", q);
            break;
          }
      if (found == 0)
        snprintf(key, sizeof key, "wait -");
      else if (found == nout_req)
        snprintf(key, sizeof key, "wait");
      else if (len >= (int)sizeof key - 16)
        snprintf(key, sizeof key, "wait"); /* too long to list: an approximation */
      size_t q2 = 0;
      for (size_t q = 0; q < nout_req; q++)
        if (!hit[q]) outst[q2++] = outst[q];
      nout_req = q2;
      it.tok = intern(w, key);
      break;
    }
    case AUGUR_SIM_COLL:
      if (op->flags & AUGUR_SIM_F_UNMATCHED) {
        w->skipped++;
        continue;
      }
      coll_key(w, op, key, sizeof key);
      it.tok = intern(w, key);
      break;
    default:
      w->skipped++;
      continue;
    }
    v[k++] = it;
  }
  free(outst);
  free(hit);
  *out = v;
  *nout = k;
  return w->nomem ? -1 : 0;
nomem:
  free(outst);
  free(hit);
  free(v);
  return -1;
}

/* ---- folding ------------------------------------------------------------- */

static void merge(witem *a, const witem *b) {
  a->sum += b->sum;
  a->sumsq += b->sumsq;
  a->n += b->n;
}

/* The costs at position P of a repeat (REPS x L leaves) sorted into V;
 * returns their median. */
static double sorted_costs(const witem *in, size_t L, size_t reps, size_t p, double *v) {
  for (size_t r = 0; r < reps; r++)
    v[r] = in[r * L + p].sum / (double)in[r * L + p].n;
  qsort(v, reps, sizeof *v, aug_cmp_double);
  return v[reps / 2];
}

/* Outlier test for the costs at one position of a repeat: 4 times the
 * median and 10 us above it (a preemption on a loaded machine, a page
 * fault). Averaged into the loop such a cost would vanish from the critical
 * path: a collective waits for the slowest rank of each iteration, not for
 * the mean. Returns the threshold (infinite: none, or too many to be
 * outliers - more than a quarter of the iterations). */
static double outlier_cut(const witem *in, size_t L, size_t reps, size_t p, double *tmp) {
  double med = sorted_costs(in, L, reps, p, tmp),
         cut = 4 * med > med + 10e-6 ? 4 * med : med + 10e-6;
  size_t over = 0;
  for (size_t r = 0; r < reps; r++)
    over += tmp[r] > cut;
  /* (at most 1000 a statement: a line stays well below the parser's limit) */
  return over && over * 4 <= reps && over <= 1000 ? cut : INFINITY;
}

/* Do the costs at some position of the repeat differ systematically from
 * one iteration to the next (over a quarter of them 4 times above or below
 * the median, by 10 us or more)? Then the repeat is not a loop of one body:
 * `compute 0.4 ms; isend` then `compute 2 us; isend` averaged into `loop 2`
 * would post the first send 0.2 ms early. -1 when out of memory. */
static int dispersed(const witem *in, size_t L, size_t reps) {
  double *v = malloc(reps * sizeof *v);
  if (!v) return -1;
  int bad = 0;
  for (size_t p = 0; p < L && !bad; p++) {
    if (!in[p].val) continue;
    double med = sorted_costs(in, L, reps, p, v);
    size_t far = 0;
    for (size_t r = 0; r < reps; r++)
      far += (v[r] > 4 * med && v[r] - med >= 10e-6) || (v[r] * 4 < med && med - v[r] >= 10e-6);
    bad = far * 4 > reps;
  }
  free(v);
  return bad;
}

static int has_loop(const wseq *s) {
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i].reps) return 1;
  return 0;
}

/* The body of REP (REPS x L leaves) merged over its iterations into BODY;
 * with CUTS, costs above their position's cut are left out of the mean and
 * kept as outliers (iteration, excess over the mean) in BODY's leaves. */
static int merge_body(const witem *rep, size_t L, size_t reps, const double *cuts, witem *body) {
  for (size_t p = 0; p < L; p++) {
    witem *b = &body[p];
    *b = rep[p];
    b->sum = b->sumsq = 0;
    b->n = 0;
    b->xk = NULL;
    b->xv = NULL;
    b->nx = 0;
    for (size_t r = 0; r < reps; r++) {
      const witem *it = &rep[r * L + p];
      if (!cuts || !(it->sum / (double)it->n > cuts[p])) merge(b, it);
    }
    if (!cuts || !isfinite(cuts[p]) || !b->val) continue;
    size_t k = 0;
    for (size_t r = 0; r < reps; r++)
      k += rep[r * L + p].sum / (double)rep[r * L + p].n > cuts[p];
    b->xk = malloc(k * sizeof *b->xk);
    b->xv = malloc(k * sizeof *b->xv);
    if (!b->xk || !b->xv) return -1;
    double mean = b->n ? b->sum / (double)b->n : 0;
    for (size_t r = 0; r < reps; r++) {
      const witem *it = &rep[r * L + p];
      double v = it->sum / (double)it->n;
      if (v > cuts[p]) {
        b->xk[b->nx] = (uint32_t)r;
        b->xv[b->nx++] = v - mean;
      }
    }
  }
  return 0;
}

/* --exact: BODY's leaves hold every iteration's cost of REP (REPS x L). */
static int exact_body(const witem *rep, size_t L, size_t reps, witem *body) {
  if (merge_body(rep, L, reps, NULL, body)) return -1;
  for (size_t p = 0; p < L; p++) {
    witem *b = &body[p];
    if (!b->val) continue;
    b->exact = 1;
    b->xk = malloc(reps * sizeof *b->xk);
    b->xv = malloc(reps * sizeof *b->xv);
    if (!b->xk || !b->xv) return -1;
    for (size_t r = 0; r < reps; r++) {
      const witem *it = &rep[r * L + p];
      if (it->sum == 0) continue;
      b->xk[b->nx] = (uint32_t)r;
      b->xv[b->nx++] = it->sum / (double)it->n;
    }
  }
  return 0;
}

static void fold(wctx *w, const witem *in, size_t n, wseq *out);

/* Appends REP (REPS repetitions of L leaves) to OUT as one loop. */
static void add_loop(wctx *w, const witem *rep, size_t L, size_t reps, wseq *out) {
  witem *body = calloc(L, sizeof *body);
  double *cuts = malloc(L * sizeof *cuts), *tmp = malloc(reps * sizeof *tmp);
  wseq *bs = calloc(1, sizeof *bs);
  if (!body || !cuts || !tmp || !bs) goto nomem;
  if (w->o && w->o->exact) {
    /* Every cost as it was, the body flat: `i` is this loop's index. */
    if (exact_body(rep, L, reps, body)) goto nomem;
    for (size_t p = 0; p < L; p++)
      seq_add(w, bs, &body[p]);
    goto done;
  }
  /* Outliers stay apart (at(i, ...)) unless --smooth; only in a body
   * without inner loops, where `i` is this loop's index. */
  int any = 0;
  for (size_t p = 0; p < L; p++) {
    cuts[p] = INFINITY;
    if (!(w->o && w->o->smooth) && reps >= 4 && rep[p].val)
      cuts[p] = outlier_cut(rep, L, reps, p, tmp);
    any |= isfinite(cuts[p]);
  }
  if (merge_body(rep, L, reps, any ? cuts : NULL, body)) goto nomem;
  fold(w, body, L, bs);
  if (any && (bs->n != L || has_loop(bs))) {
    /* Inner loops: merge everything instead. */
    seq_free(bs);
    memset(bs, 0, sizeof *bs);
    for (size_t p = 0; p < L; p++) {
      free(body[p].xk);
      free(body[p].xv);
      body[p].xk = NULL;
      body[p].xv = NULL;
    }
    if (merge_body(rep, L, reps, NULL, body)) goto nomem;
    fold(w, body, L, bs);
  } else if (any) {
    for (size_t p = 0; p < L; p++) { /* fold copied the leaves: hand the outliers over */
      bs->v[p].xk = body[p].xk;
      bs->v[p].xv = body[p].xv;
      bs->v[p].nx = body[p].nx;
    }
  }
done:;
  witem loop = {0};
  loop.tok = -1;
  loop.reps = reps;
  loop.body = bs;
  seq_add(w, out, &loop);
  free(body);
  free(cuts);
  free(tmp);
  return;
nomem:
  w->nomem = 1;
  for (size_t p = 0; body && p < L; p++) { /* not handed over yet */
    free(body[p].xk);
    free(body[p].xv);
  }
  free(body);
  free(cuts);
  free(tmp);
  seq_free(bs);
  free(bs);
}

/* Appends the folded form of leaves IN[0..n) to OUT. */
static void fold(wctx *w, const witem *in, size_t n, wseq *out) {
  size_t best_cov = 0, best_s = 0, best_l = 0, best_reps = 0;
  size_t lmax = n / 2;
  if (lmax > W_MAX_BLOCK) lmax = W_MAX_BLOCK;
  /* Bound the search on very long ranks: blocks up to 30 M / n long. */
  if (n > 0 && lmax > 64 && lmax > 30000000 / n) lmax = 30000000 / n > 64 ? 30000000 / n : 64;
  for (size_t L = 1; L <= lmax; L++) {
    size_t run = 0;
    for (size_t i = 0; i + L <= n; i++) {
      int m = i + L < n && in[i].tok == in[i + L].tok;
      if (m) {
        run++;
        continue;
      }
      if (run >= L) {
        size_t reps = run / L + 1, cov = reps * L;
        int d = cov > best_cov ? dispersed(in + i - run, L, reps) : 0;
        if (d < 0) w->nomem = 1;
        if (cov > best_cov && d == 0) {
          best_cov = cov;
          best_s = i - run;
          best_l = L;
          best_reps = reps;
        }
      }
      run = 0;
    }
  }
  if (best_cov == 0) {
    for (size_t i = 0; i < n; i++) {
      witem it = in[i];
      it.xk = NULL; /* leaves are copied; outliers belong to loop bodies */
      it.xv = NULL;
      it.nx = 0;
      seq_add(w, out, &it);
    }
    return;
  }
  fold(w, in, best_s, out);
  /* --exact: loops of at most EXACT_CHUNK iterations, so that a statement's
   * costs stay within the parser's line limits. */
  size_t chunk = w->o && w->o->exact ? EXACT_CHUNK : best_reps;
  for (size_t k = 0; k < best_reps; k += chunk)
    add_loop(w, in + best_s + k * best_l, best_l, best_reps - k < chunk ? best_reps - k : chunk,
             out);
  size_t end = best_s + best_reps * best_l;
  fold(w, in + end, n - end, out);
}

/* How far apart the costs of two programs of the same shape are: DEV, the
 * sum over statements of |cost difference| x executions; TOT, A's total.
 * MULT: executions of the enclosing body, OUTER: of one iteration of it. */
static void tree_dev(const wseq *a, const wseq *b, double mult, double outer, double *dev,
                     double *tot) {
  for (size_t i = 0; i < a->n && i < b->n; i++) {
    const witem *x = &a->v[i], *y = &b->v[i];
    if (x->body && y->body) {
      tree_dev(x->body, y->body, mult * (double)x->reps, mult, dev, tot);
      continue;
    }
    if (!x->val || !y->val) continue;
    double mx = x->sum / (double)x->n, my = y->sum / (double)y->n;
    *dev += fabs(mx - my) * mult;
    *tot += mx * mult;
    for (size_t k = 0; k < x->nx && k < y->nx; k++) {
      *dev += fabs(x->xv[k] - y->xv[k]) * outer;
      *tot += x->xv[k] * outer;
    }
  }
}

/* Ranks share a class when their programs have the same shape and their
 * costs differ by at most 5 % of the larger total, or 0.5 % of the
 * recorded run (RUN; 0 if unknown), plus 20 us: averaging ranks further
 * apart would erase a load imbalance. */
static int alike(const wseq *a, const wseq *b, const strbuf *sa, const strbuf *sb, double run) {
  if (strcmp(sa->s, sb->s)) return 0;
  double dev = 0, ta = 0, tb = 0, dummy = 0;
  tree_dev(a, b, 1, 1, &dev, &ta);
  tree_dev(b, a, 1, 1, &dummy, &tb);
  double lim = 0.05 * (ta > tb ? ta : tb);
  if (run > 0 && 0.005 * run > lim) lim = 0.005 * run;
  return dev <= lim + 20e-6;
}

/* Adds SRC's costs into DST (both of the same shape). */
static void merge_tree(wseq *dst, const wseq *src) {
  for (size_t i = 0; i < dst->n && i < src->n; i++) {
    witem *d = &dst->v[i];
    const witem *s = &src->v[i];
    if (d->body) {
      merge_tree(d->body, s->body);
      continue;
    }
    merge(d, s);
    /* Same shape: the same outlier iterations. */
    for (size_t k = 0; k < d->nx && k < s->nx; k++)
      d->xv[k] += s->xv[k];
  }
}

/* Outliers as " + at(i, ITER:EXCESS, ...)" (SHAPE: only the iterations);
 * NM ranks were merged into the item. */
static void render_at(const witem *it, strbuf *b, int shape, uint32_t nm) {
  if (!it->nx) return;
  if (shape || it->exact)
    sb_add(b, " at(i", 5);
  else
    sb_add(b, " + at(i", 7);
  for (size_t k = 0; k < it->nx; k++) {
    if (shape)
      sb_printf(b, ", %u", it->xk[k]);
    else
      sb_printf(b, ", %u:%.9g", it->xk[k], it->xv[k] / nm);
  }
  sb_add(b, ")", 1);
}

/* SHAPE: statements without their costs (classes group ranks by it). */
static void render(wctx *w, const wseq *s, int depth, strbuf *b, int shape, uint32_t nm) {
  for (size_t i = 0; i < s->n; i++) {
    const witem *it = &s->v[i];
    for (int d = 0; d < depth; d++)
      sb_add(b, "  ", 2);
    if (it->reps) {
      sb_printf(b, "loop %llu {\n", (unsigned long long)it->reps);
      render(w, it->body, depth + 1, b, shape, nm);
      for (int d = 0; d < depth; d++)
        sb_add(b, "  ", 2);
      sb_add(b, "}\n", 2);
      continue;
    }
    const char *key = w->keys[it->tok];
    if (!it->val || shape) {
      sb_printf(b, "%s", key);
      render_at(it, b, 1, nm);
      sb_add(b, "\n", 1);
      continue;
    }
    if (it->exact) { /* the costs themselves: 0 where at() has no key */
      sb_printf(b, "%s", key);
      if (it->nx)
        render_at(it, b, 0, nm);
      else
        sb_add(b, " 0", 2);
      sb_add(b, "\n", 1);
      continue;
    }
    double mean = it->sum / (double)it->n;
    double var = it->sumsq / (double)it->n - mean * mean;
    double sd = var > 0 ? sqrt(var) : 0;
    /* normal() is clamped at 0, which raises its mean once sd is more than
     * about a third of it; lognormal() keeps the mean. */
    if (w->o && w->o->spread && it->n > 1 && mean > 0 && sd > 0.01 * mean)
      sb_printf(b, "%s %s(%.9g,%.9g)", key, sd * 3 > mean ? "lognormal" : "normal", mean, sd);
    else
      sb_printf(b, "%s %.9g", key, mean);
    render_at(it, b, 0, nm);
    sb_add(b, "\n", 1);
  }
}

/* ---- driver -------------------------------------------------------------- */

int augur_gfile_write(FILE *out, const augur_sim_graph *g, const augur_gfile_write_opts *o,
                      augur_error *err) {
  wctx w = {0};
  w.g = g;
  w.o = o;
  uint32_t n = g->nranks;
  wseq *trees = calloc(n, sizeof *trees);
  strbuf *shape = calloc(n, sizeof *shape), prog = {0};
  uint32_t *end = calloc(n, sizeof *end);
  w.comm_used = calloc(g->ncomms + 1, 1);
  int rc = AUGUR_OK;
  if (!trees || !shape || !end || !w.comm_used) goto nomem;
  w.world = -1;
  for (uint32_t c = 0; c < g->ncomms && w.world < 0; c++)
    if (comm_is_world(g, c)) w.world = c;
  uint64_t ops = 0;
  for (uint32_t r = 0; r < n; r++) {
    witem *leaves = NULL;
    size_t nl = 0;
    ops += augur_sim_graph_nops(g, r);
    if (rank_leaves(&w, r, &leaves, &nl)) goto nomem;
    fold(&w, leaves, nl, &trees[r]);
    free(leaves);
    render(&w, &trees[r], 1, &shape[r], 1, 1);
    if (!shape[r].s) sb_add(&shape[r], "", 0);
    if (w.nomem || shape[r].nomem) goto nomem;
  }
  fprintf(out, "%s\n", AUGUR_GFILE_MAGIC);
  fprintf(out, "# written by augur graph%s%s: %u ranks, %llu operations\n",
          o && o->source ? " from " : "", o && o->source ? o->source : "", n,
          (unsigned long long)ops);
  if (o && o->exact)
    fprintf(out, "# costs in seconds, in loops every iteration's: at(i, ITERATION:COST, ...),\n");
  else
    fprintf(out, "# costs in seconds (means over loop iterations and the ranks of a class),\n");
  fprintf(out, "# sizes in bytes, peers relative (+d: d ranks up, modulo the number of ranks)\n");
  if (w.skipped)
    fprintf(out, "# %llu operations without a partner in the trace are left out\n",
            (unsigned long long)w.skipped);
  /* Consecutive ranks of the same shape form a class: END[r] is the end of
   * the class that starts at r. */
  for (uint32_t r = 0; r < n;) {
    uint32_t e = r + 1;
    while (!(o && (o->no_classes || o->exact)) && e < n &&
           alike(&trees[r], &trees[e], &shape[r], &shape[e], g->measured))
      e++;
    end[r] = e;
    r = e;
  }
  for (uint32_t c = 0; c < g->ncomms; c++) {
    if (!w.comm_used[c]) continue;
    fprintf(out, "comm c%u", c);
    if (comm_is_world(g, c)) { /* every class: stays every rank when counts change */
      for (uint32_t r = 0; r < n; r = end[r])
        fprintf(out, " r%u[*]", r);
    } else {
      for (uint32_t i = 0; i < g->comms[c].size; i++)
        fprintf(out, " %u", g->comms[c].members[i]);
    }
    fputc('\n', out);
  }
  for (uint32_t r = 0; r < n; r++)
    if (g->ranks[r].start > 0) fprintf(out, "start %u %.9g\n", r, g->ranks[r].start);
  /* A class's costs are the means over its ranks. */
  for (uint32_t r = 0; r < n;) {
    uint32_t e = end[r];
    for (uint32_t k = r + 1; k < e; k++)
      merge_tree(&trees[r], &trees[k]);
    prog.n = 0;
    render(&w, &trees[r], 1, &prog, 0, e - r);
    if (prog.nomem) goto nomem;
    fprintf(out, "\nclass r%u count %u {\n%s}\n", r, e - r, prog.s ? prog.s : "");
    r = e;
  }
  if (fflush(out) || ferror(out)) rc = augur_fail(err, AUGUR_E_IO, "write failed");
  goto done;
nomem:
  rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory while writing the graph");
done:
  for (uint32_t r = 0; r < n; r++) {
    if (trees) seq_free(&trees[r]);
    if (shape) free(shape[r].s);
  }
  free(trees);
  free(shape);
  free(end);
  free(prog.s);
  free(w.comm_used);
  for (size_t i = 0; i < w.nkeys; i++)
    free(w.keys[i]);
  free(w.keys);
  free(w.hash);
  return rc;
}
