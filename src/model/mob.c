/* augur_model — growing the tree as partykit's mob() with lmtree's fit:
 * weighted least squares per node, the fluctuation tests of the decorrelated
 * scores (supLM for numeric, chi^2 for factor partitioning variables), the
 * Bonferroni-adjusted choice of the split variable, the exhaustive split
 * search, and optional AIC/BIC post-pruning (docs/model.md, "MOB"). */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "model_int.h"

/* Levels of a factor partitioning variable: the split search tries all
 * 2^(L-1) - 1 binary partitions (partykit does too), 32767 at 16. */
#define MAX_LEVELS 16

void augur_model_options_default(augur_model_options *o) {
  assert(o);
  *o = (augur_model_options){.alpha = 0.05, .bonferroni = 1, .trim = 0.1};
}

/* The rows the fit uses, as matrices. */
typedef struct data {
  size_t n, k;   /* rows (after NA removal), coefficients */
  double *X;     /* n x k, row-major */
  double *y, *w; /* n */
  size_t nz;     /* partitioning variables */
  double **z;    /* [nz][n]: number or level index */
  int *zfactor;
  size_t *zlevels;
  double minsize;
} data;

typedef struct grower {
  const data *d;
  augur_model *m;
  size_t cap;
  augur_error *err;
  double *coef, *resid; /* scratch, k and n */
} grower;

/* WLS on rows IDX[0..n): coef (k), *objective; resid for those rows
 * (optional). Returns the rank, or -1 without memory. */
static int fit_rows(const data *d, const size_t *idx, size_t n, double *coef, double *resid,
                    double *objective) {
  size_t k = d->k;
  double *X = calloc(n * k + 3 * n + 1, sizeof *X);
  if (!X) return -1;
  double *y = X + n * k, *w = y + n, *r = w + n;
  for (size_t i = 0; i < n; i++) {
    memcpy(X + i * k, d->X + idx[i] * k, k * sizeof *X);
    y[i] = d->y[idx[i]];
    w[i] = d->w[idx[i]];
  }
  int rank = model_wls(n, k, X, y, w, coef, r);
  double obj = 0;
  for (size_t i = 0; i < n; i++)
    obj += w[i] * r[i] * r[i];
  if (resid) memcpy(resid, r, n * sizeof *r);
  *objective = obj;
  free(X);
  return rank;
}

static int cmp_key(const void *a, const void *b) {
  const double *x = a, *y = b; /* {value, position}: stable order */
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Instability tests at a node (rows IDX, residuals R, coefficients COEF).
 * Fills tests[nz] (p NaN: not testable); returns the index of the best
 * variable, -1 if none is testable, -2 when the scores' covariance is
 * singular (no tests, as partykit's failing chol()), -3 without memory. */
static int fluctests(const data *d, const augur_model_options *o, const size_t *idx, size_t n,
                     const double *coef, const double *r, augur_model_test *tests) {
  size_t k = d->k, kk = 0, cols[k];
  for (size_t j = 0; j < k; j++)
    if (!isnan(coef[j])) cols[kk++] = j;
  size_t np = 0;
  for (size_t i = 0; i < n; i++)
    np += d->w[idx[i]] > 0;
  if (kk == 0 || np == 0) return -2;
  double *proc = malloc((np * kk + np) * sizeof *proc);
  size_t *row = malloc(np * sizeof *row);
  double *key = malloc(2 * np * sizeof *key);
  if (!proc || !row || !key) {
    free(proc), free(row), free(key);
    return -3;
  }
  double *pw = proc + np * kk;
  double nobs = 0, meat[kk * kk], J[kk * kk];
  memset(meat, 0, sizeof meat);
  for (size_t i = 0, p = 0; i < n; i++) {
    double w = d->w[idx[i]];
    if (!(w > 0)) continue;
    row[p] = idx[i];
    pw[p] = w;
    nobs += w;
    for (size_t a = 0; a < kk; a++)
      proc[p * kk + a] = r[i] * w * d->X[idx[i] * k + cols[a]];
    for (size_t a = 0; a < kk; a++)
      for (size_t b = 0; b < kk; b++)
        meat[a * kk + b] += proc[p * kk + a] * proc[p * kk + b] / w;
    p++;
  }
  for (size_t a = 0; a < kk * kk; a++)
    meat[a] /= nobs;
  if (model_inv_sqrt(kk, meat, J)) {
    free(proc), free(row), free(key);
    return -2;
  }
  double sq = sqrt(nobs), tmp[kk];
  for (size_t p = 0; p < np; p++) {
    for (size_t a = 0; a < kk; a++) {
      double s = 0;
      for (size_t b = 0; b < kk; b++)
        s += J[a * kk + b] * proc[p * kk + b];
      tmp[a] = s / sq;
    }
    memcpy(proc + p * kk, tmp, sizeof tmp);
  }
  /* trimming: from = trim (a count when > 1, else a fraction), at least minsize */
  double from = o->trim > 1 ? o->trim : ceil(nobs * o->trim);
  if (from < d->minsize) from = d->minsize;
  double to = nobs - from;
  double lambda = ((nobs - from) * to) / (from * (nobs - to));
  size_t ntested = 0;
  for (size_t v = 0; v < d->nz; v++) {
    tests[v] = (augur_model_test){0, NAN, NAN};
    const double *z = d->z[v];
    for (size_t p = 0; p < np; p++) {
      key[2 * p] = z[row[p]];
      key[2 * p + 1] = (double)p;
    }
    qsort(key, np, 2 * sizeof *key, cmp_key);
    if (key[0] == key[2 * (np - 1)]) continue; /* fewer than 2 distinct values */
    double W[kk], stat = 0, tw = 0;
    memset(W, 0, sizeof W);
    if (d->zfactor[v]) {
      size_t nl = 0;
      for (size_t q = 0; q < np; q++) {
        size_t p = (size_t)key[2 * q + 1];
        for (size_t a = 0; a < kk; a++)
          W[a] += proc[p * kk + a];
        tw += pw[p];
        if (q + 1 == np || key[2 * (q + 1)] != key[2 * q]) {
          for (size_t a = 0; a < kk; a++)
            stat += W[a] * W[a] / (tw / nobs);
          memset(W, 0, sizeof W);
          tw = 0;
          nl++;
        }
      }
      tests[v].statistic = stat;
      tests[v].p_value = model_chisq_upper(stat, (double)(kk * (nl - 1)));
    } else {
      int any = 0;
      for (size_t q = 0; q < np; q++) {
        size_t p = (size_t)key[2 * q + 1];
        for (size_t a = 0; a < kk; a++)
          W[a] += proc[p * kk + a];
        tw += pw[p];
        if (tw < from || tw > to) continue;
        double xx = 0, t = tw / nobs;
        for (size_t a = 0; a < kk; a++)
          xx += W[a] * W[a];
        xx /= t * (1 - t);
        if (!any || xx > stat) stat = xx;
        any = 1;
      }
      tests[v].statistic = stat;
      if (any) tests[v].p_value = model_suplm_pvalue(stat, kk, lambda);
    }
    ntested += !isnan(tests[v].p_value);
  }
  int best = -1;
  for (size_t v = 0; v < d->nz; v++) {
    double p = tests[v].p_value;
    if (isnan(p)) continue;
    if (best < 0 || p < tests[best].p_value) best = (int)v;
    double adj = p;
    if (o->bonferroni) {
      double mm = (double)ntested;
      double cut = o->party_compat ? 0.01 : 0.001;
      adj = p > cut ? 1 - pow(1 - p, mm) : fmin(1, mm * p);
    }
    tests[v].p_adjusted = adj;
  }
  free(proc), free(row), free(key);
  return best;
}

/* Splits rows IDX by variable V at the node: numeric (first minimum of the
 * two sides' objective over the sorted distinct values) or factor (every
 * binary partition of the levels present). Returns 1 and the split in
 * *point / levels, 0 when no split is admissible, -1 without memory. */
static int find_split(const data *d, const size_t *idx, size_t n, size_t v, double *point,
                      signed char *levels) {
  const double *z = d->z[v];
  size_t *l = malloc(2 * n * sizeof *l);
  double *c = malloc((2 * d->k + n) * sizeof *c);
  if (!l || !c) {
    free(l), free(c);
    return -1;
  }
  size_t *rr = l + n;
  double *uz = c + 2 * d->k;
  int found = 0, rc = 0;
  double best = INFINITY;
  if (!d->zfactor[v]) {
    for (size_t i = 0; i < n; i++)
      uz[i] = z[idx[i]];
    size_t nu = 0;
    double *tmp = malloc(2 * n * sizeof *tmp);
    if (!tmp) {
      free(l), free(c);
      return -1;
    }
    for (size_t i = 0; i < n; i++)
      tmp[2 * i] = uz[i], tmp[2 * i + 1] = (double)i;
    qsort(tmp, n, 2 * sizeof *tmp, cmp_key);
    for (size_t i = 0; i < n; i++)
      if (nu == 0 || uz[nu - 1] != tmp[2 * i]) uz[nu++] = tmp[2 * i];
    free(tmp);
    for (size_t u = 0; u < nu; u++) {
      size_t nl = 0, nr = 0;
      double wl = 0, wr = 0;
      for (size_t i = 0; i < n; i++) {
        if (z[idx[i]] <= uz[u])
          l[nl++] = idx[i], wl += d->w[idx[i]];
        else
          rr[nr++] = idx[i], wr += d->w[idx[i]];
      }
      if (wl < d->minsize || wr < d->minsize) continue;
      double ol, orr;
      if (fit_rows(d, l, nl, c, NULL, &ol) < 0 || fit_rows(d, rr, nr, c + d->k, NULL, &orr) < 0) {
        rc = -1;
        break;
      }
      if (ol + orr < best || !found) {
        best = ol + orr;
        *point = uz[u];
        found = 1;
      }
    }
  } else {
    size_t nlev = d->zlevels[v], present[nlev], np = 0;
    int has[nlev];
    memset(has, 0, sizeof has);
    for (size_t i = 0; i < n; i++)
      has[(size_t)z[idx[i]]] = 1;
    for (size_t e = 0; e < nlev; e++)
      if (has[e]) present[np++] = e;
    if (np >= 2) {
      assert(np <= MAX_LEVELS);
      unsigned long nsplit = (1ul << (np - 1)) - 1, bestmask = 0;
      for (unsigned long s = 1; s <= nsplit; s++) {
        size_t nl = 0, nr = 0;
        double wl = 0, wr = 0;
        for (size_t i = 0; i < n; i++) {
          size_t e = (size_t)z[idx[i]], pos = 0;
          while (present[pos] != e)
            pos++;
          if (s >> pos & 1)
            l[nl++] = idx[i], wl += d->w[idx[i]];
          else
            rr[nr++] = idx[i], wr += d->w[idx[i]];
        }
        if (wl < d->minsize || wr < d->minsize) continue;
        double dev = 1, ol, orr;
        if (nsplit > 1) {
          if (fit_rows(d, l, nl, c, NULL, &ol) < 0 ||
              fit_rows(d, rr, nr, c + d->k, NULL, &orr) < 0) {
            rc = -1;
            break;
          }
          dev = ol + orr;
        }
        if (dev < best || !found) {
          best = dev;
          bestmask = s;
          found = 1;
        }
      }
      if (found) {
        memset(levels, 0, nlev);
        for (size_t pos = 0; pos < np; pos++)
          levels[present[pos]] = (bestmask >> pos & 1) ? 1 : 2;
      }
    }
  }
  free(l), free(c);
  return rc < 0 ? -1 : found;
}

static int add_node(grower *g, int parent, int depth) {
  augur_model *m = g->m;
  if (aug_grow((void **)&m->nodes, &g->cap, m->nnodes + 1, sizeof *m->nodes)) return -1;
  augur_model_node *nd = &m->nodes[m->nnodes++];
  memset(nd, 0, sizeof *nd);
  nd->id = (int)m->nnodes;
  nd->parent = parent;
  nd->depth = depth;
  nd->split_var = -1;
  nd->split_point = NAN;
  nd->coef = malloc(g->d->k * sizeof *nd->coef);
  if (!nd->coef) return -1;
  return nd->id;
}

#define NODE(g, id) (&(g)->m->nodes[(id)-1])

/* Grows the subtree of rows IDX; returns its root id, or an AUGUR_E_*. */
static int grow(grower *g, size_t *idx, size_t n, int parent, int depth) {
  const data *d = g->d;
  const augur_model_options *o = &g->m->options;
  int id = add_node(g, parent, depth);
  if (id < 0) return augur_fail(g->err, AUGUR_E_NOMEM, "model fit: out of memory");
  double *resid = malloc((n ? n : 1) * sizeof *resid), obj;
  if (!resid) return augur_fail(g->err, AUGUR_E_NOMEM, "model fit: out of memory");
  augur_model_node *nd = NODE(g, id);
  int rank = fit_rows(d, idx, n, nd->coef, resid, &obj);
  if (rank < 0) {
    free(resid);
    return augur_fail(g->err, AUGUR_E_NOMEM, "model fit: out of memory");
  }
  double nobs = 0;
  for (size_t i = 0; i < n; i++)
    nobs += d->w[idx[i]];
  nd->rank = rank;
  nd->objective = obj;
  nd->nobs = nobs;
  nd->nrows = n;
  nd->sigma2 = nobs > rank ? obj / (nobs - rank) : NAN;
  if (nobs < 2 * d->minsize || (o->maxdepth > 0 && depth >= o->maxdepth) || rank == 0) {
    free(resid);
    return id;
  }
  augur_model_test *tests = calloc(d->nz, sizeof *tests);
  if (!tests) {
    free(resid);
    return augur_fail(g->err, AUGUR_E_NOMEM, "model fit: out of memory");
  }
  int best = fluctests(d, o, idx, n, nd->coef, resid, tests);
  free(resid);
  if (best == -3) {
    free(tests);
    return augur_fail(g->err, AUGUR_E_NOMEM, "model fit: out of memory");
  }
  if (best == -2) {
    free(tests);
    return id;
  }
  nd->tested = 1;
  nd->tests = tests;
  if (best < 0 || !(tests[best].p_adjusted <= o->alpha)) return id;
  size_t v = (size_t)best;
  double point = NAN;
  signed char *lev = NULL;
  if (d->zfactor[v] && !(lev = calloc(d->zlevels[v] ? d->zlevels[v] : 1, 1)))
    return augur_fail(g->err, AUGUR_E_NOMEM, "model fit: out of memory");
  int found = find_split(d, idx, n, v, &point, lev);
  if (found <= 0) {
    free(lev);
    return found < 0 ? augur_fail(g->err, AUGUR_E_NOMEM, "model fit: out of memory") : id;
  }
  /* partition IDX in place: left rows first, order kept */
  size_t *tmp = malloc(n * sizeof *tmp), nl = 0, nr = 0;
  if (!tmp) {
    free(lev);
    return augur_fail(g->err, AUGUR_E_NOMEM, "model fit: out of memory");
  }
  for (size_t i = 0; i < n; i++) {
    double zv = d->z[v][idx[i]];
    int left = lev ? lev[(size_t)zv] == 1 : zv <= point;
    if (left)
      idx[nl++] = idx[i];
    else
      tmp[nr++] = idx[i];
  }
  memcpy(idx + nl, tmp, nr * sizeof *tmp);
  free(tmp);
  nd->split_var = g->m->partition[v];
  nd->split_point = point;
  nd->split_levels = lev;
  int left = grow(g, idx, nl, id, depth + 1);
  if (left < 0) return left;
  int right = grow(g, idx + nl, nr, id, depth + 1);
  if (right < 0) return right;
  NODE(g, id)->left = left;
  NODE(g, id)->right = right;
  return id;
}

static void node_clear(augur_model_node *nd) {
  free(nd->split_levels);
  free(nd->coef);
  free(nd->tests);
}

/* Renumbers the nodes reachable from the root in preorder (partykit's ids)
 * and drops the rest. */
static int renumber(augur_model *m) {
  augur_model_node *old = m->nodes, *nw = calloc(m->nnodes, sizeof *nw);
  if (!nw) return -1;
  int map[m->nnodes + 1], stack[m->nnodes + 1], sp = 0, n = 0;
  memset(map, 0, sizeof map);
  stack[sp++] = 1;
  while (sp) {
    int id = stack[--sp];
    map[id] = ++n;
    nw[n - 1] = old[id - 1];
    if (old[id - 1].right) stack[sp++] = old[id - 1].right;
    if (old[id - 1].left) stack[sp++] = old[id - 1].left;
  }
  for (size_t i = 0; i < m->nnodes; i++)
    if (!map[i + 1]) node_clear(&old[i]);
  for (int i = 0; i < n; i++) {
    augur_model_node *nd = &nw[i];
    nd->id = i + 1;
    nd->parent = nd->parent ? map[nd->parent] : 0;
    nd->left = nd->left ? map[nd->left] : 0;
    nd->right = nd->right ? map[nd->right] : 0;
  }
  free(old);
  m->nodes = nw;
  m->nnodes = (size_t)n;
  return 0;
}

/* lmtree's post-pruning: collapse every inner node whose children are both
 * leaves when the criterion prefers it; repeat until none does. */
static int prune(augur_model *m, double nall) {
  double k = (double)m->k;
  for (;;) {
    int any = 0;
    for (size_t i = 0; i < m->nnodes; i++) {
      augur_model_node *nd = &m->nodes[i];
      if (!nd->left || m->nodes[nd->left - 1].left || m->nodes[nd->right - 1].left) continue;
      double o1 = nd->objective;
      double o2 = m->nodes[nd->left - 1].objective + m->nodes[nd->right - 1].objective;
      double pen = m->options.prune == AUGUR_MODEL_PRUNE_AIC ? 2 : log(nall);
      double n = nd->nobs;
      if (n * log(o1) + pen * k < n * log(o2) + pen * (2 * k + 1)) {
        nd->split_var = -2; /* marked: collapse after this round */
        any = 1;
      }
    }
    if (!any) return 0;
    for (size_t i = 0; i < m->nnodes; i++) {
      augur_model_node *nd = &m->nodes[i];
      if (nd->split_var != -2) continue;
      nd->split_var = -1;
      nd->split_point = NAN;
      free(nd->split_levels);
      nd->split_levels = NULL;
      nd->left = nd->right = 0;
    }
    if (renumber(m)) return -1;
  }
}

void augur_model_free(augur_model *m) {
  if (!m) return;
  free(m->formula);
  free(m->response);
  for (size_t i = 0; i < m->nvars; i++) {
    free(m->vars[i].name);
    for (size_t l = 0; l < m->vars[i].nlevels; l++)
      free(m->vars[i].levels[l]);
    free(m->vars[i].levels);
  }
  free(m->vars);
  for (size_t j = 0; j < m->k; j++)
    free(m->coef_names ? m->coef_names[j] : NULL);
  free(m->coef_names);
  free(m->coef_var);
  free(m->partition);
  free(m->weights);
  for (size_t i = 0; i < m->nnodes; i++)
    node_clear(&m->nodes[i]);
  free(m->nodes);
  free(m);
}

int augur_model_var_index(const augur_model *m, const char *name) {
  assert(m && name);
  for (size_t i = 0; i < m->nvars; i++)
    if (!strcmp(m->vars[i].name, name)) return (int)i;
  return -1;
}

/* Adds column NAME of T as a model variable (once); returns its index. */
static int add_var(augur_model *m, const augur_model_table *t, const char *name, int col) {
  int v = augur_model_var_index(m, name);
  if (v >= 0) return v;
  augur_model_var *mv = &m->vars[m->nvars];
  memset(mv, 0, sizeof *mv);
  if (!(mv->name = strdup(name))) return -1;
  mv->is_factor = augur_model_table_is_factor(t, (size_t)col);
  mv->nlevels = augur_model_table_nlevels(t, (size_t)col);
  if (mv->nlevels) {
    if (!(mv->levels = calloc(mv->nlevels, sizeof *mv->levels))) return -1;
    for (size_t l = 0; l < mv->nlevels; l++)
      if (!(mv->levels[l] = strdup(augur_model_table_level(t, (size_t)col, l)))) return -1;
  }
  return (int)m->nvars++;
}

static char *join_formula(const augur_model_formula *f) {
  size_t len = strlen(f->response) + 16;
  for (size_t i = 0; i < f->nregressors; i++)
    len += strlen(f->regressors[i]) + 3;
  for (size_t i = 0; i < f->npartition; i++)
    len += strlen(f->partition[i]) + 3;
  char *s = malloc(len);
  if (!s) return NULL;
  strcpy(s, f->response);
  strcat(s, " ~ ");
  if (f->nregressors == 0) strcat(s, "1");
  for (size_t i = 0; i < f->nregressors; i++) {
    if (i) strcat(s, " + ");
    strcat(s, f->regressors[i]);
  }
  if (!f->intercept) strcat(s, " - 1");
  strcat(s, " | ");
  for (size_t i = 0; i < f->npartition; i++) {
    if (i) strcat(s, " + ");
    strcat(s, f->partition[i]);
  }
  return s;
}

int augur_model_fit(augur_model **out, const augur_model_table *t, const char *formula,
                    const augur_model_options *opt, augur_error *err) {
  assert(out && t && formula);
  *out = NULL;
  augur_model_options o;
  if (opt)
    o = *opt;
  else
    augur_model_options_default(&o);
  if (!(o.alpha > 0 && o.alpha <= 1) || !(o.trim >= 0) || o.minsize < 0 || o.maxdepth < 0)
    return augur_fail(err, AUGUR_E_ARG,
                      "model fit: alpha must be in (0, 1], trim, minsize and "
                      "maxdepth not negative");
  augur_model_formula f;
  int rc = augur_model_formula_parse(&f, formula, err);
  if (rc != AUGUR_OK) return rc;
  augur_model *m = calloc(1, sizeof *m);
  data d = {0};
  size_t *idx = NULL;
  int *cols = NULL;
  const char **need = calloc(f.nregressors + f.npartition + 2, sizeof *need);
  if (!m || !need) {
    free(m), free(need);
    augur_model_formula_free(&f);
    return augur_fail(err, AUGUR_E_NOMEM, "model fit: out of memory");
  }
#define NOMEM()                                                                                    \
  do {                                                                                             \
    rc = augur_fail(err, AUGUR_E_NOMEM, "model fit: out of memory");                               \
    goto out;                                                                                      \
  } while (0)
  m->options = o;
  m->k = (size_t)f.intercept + f.nregressors;
  m->npartition = f.npartition;
  if (!(m->formula = join_formula(&f)) || !(m->response = strdup(f.response)) ||
      !(m->vars = calloc(f.nregressors + f.npartition, sizeof *m->vars)) ||
      !(m->coef_names = calloc(m->k, sizeof *m->coef_names)) ||
      !(m->coef_var = calloc(m->k, sizeof *m->coef_var)) ||
      !(m->partition = calloc(f.npartition, sizeof *m->partition)) ||
      !(cols = calloc(f.nregressors + f.npartition + 2, sizeof *cols)))
    NOMEM();
  /* columns: response, weights, regressors, partitioning variables */
  size_t nneed = 0;
  need[nneed++] = f.response;
  if (o.weights) need[nneed++] = o.weights;
  for (size_t i = 0; i < f.nregressors; i++)
    need[nneed++] = f.regressors[i];
  for (size_t i = 0; i < f.npartition; i++)
    need[nneed++] = f.partition[i];
  for (size_t i = 0; i < nneed; i++) {
    cols[i] = augur_model_table_column(t, need[i]);
    if (cols[i] < 0) {
      rc = augur_fail(err, AUGUR_E_ARG, "model fit: no column '%s' in the data", need[i]);
      goto out;
    }
    if (i >= nneed - f.npartition && augur_model_table_nlevels(t, (size_t)cols[i]) > MAX_LEVELS) {
      rc = augur_fail(err, AUGUR_E_ARG,
                      "model fit: factor '%s' has %zu levels; the split search tries every "
                      "binary partition (2^(L-1)) and takes at most %d levels",
                      need[i], augur_model_table_nlevels(t, (size_t)cols[i]), MAX_LEVELS);
      goto out;
    }
    if (i < nneed - f.npartition && augur_model_table_is_factor(t, (size_t)cols[i])) {
      rc = augur_fail(err, AUGUR_E_ARG,
                      "model fit: column '%s' is not numeric (the response, weights and "
                      "regressors must be; factor regressors are not supported)",
                      need[i]);
      goto out;
    }
  }
  if (o.weights && !(m->weights = strdup(o.weights))) NOMEM();
  m->options.weights = m->weights;
  size_t ji = 0;
  if (f.intercept) {
    if (!(m->coef_names[ji] = strdup("(Intercept)"))) NOMEM();
    m->coef_var[ji++] = -1;
  }
  size_t c0 = o.weights ? 2 : 1;
  for (size_t i = 0; i < f.nregressors; i++) {
    int v = add_var(m, t, f.regressors[i], cols[c0 + i]);
    if (v < 0 || !(m->coef_names[ji] = strdup(f.regressors[i]))) NOMEM();
    m->coef_var[ji++] = v;
  }
  for (size_t i = 0; i < f.npartition; i++) {
    int v = add_var(m, t, f.partition[i], cols[c0 + f.nregressors + i]);
    if (v < 0) NOMEM();
    m->partition[i] = v;
  }
  /* rows: drop those with a missing value in a used column */
  size_t nr = augur_model_table_nrows(t), k = m->k, nz = f.npartition;
  d.k = k;
  d.nz = nz;
  if (!(d.X = malloc(nr * k * sizeof *d.X)) || !(d.y = malloc(nr * sizeof *d.y)) ||
      !(d.w = malloc(nr * sizeof *d.w)) || !(d.z = calloc(nz ? nz : 1, sizeof *d.z)) ||
      !(d.zfactor = calloc(nz ? nz : 1, sizeof *d.zfactor)) ||
      !(d.zlevels = calloc(nz ? nz : 1, sizeof *d.zlevels)))
    NOMEM();
  for (size_t v = 0; v < nz; v++) {
    if (!(d.z[v] = malloc(nr * sizeof **d.z))) NOMEM();
    d.zfactor[v] = m->vars[m->partition[v]].is_factor;
    d.zlevels[v] = m->vars[m->partition[v]].nlevels;
  }
  for (size_t r = 0; r < nr; r++) {
    int miss = 0;
    for (size_t i = 0; i < nneed; i++)
      miss |= isnan(augur_model_table_value(t, (size_t)cols[i], r));
    if (miss) {
      m->nrows_dropped++;
      continue;
    }
    size_t n = d.n;
    d.y[n] = augur_model_table_value(t, (size_t)cols[0], r);
    double w = o.weights ? augur_model_table_value(t, (size_t)cols[1], r) : 1;
    if (!(w >= 0)) {
      rc = augur_fail(err, AUGUR_E_ARG,
                      "model fit: weights column '%s', data row %zu: %g is negative", o.weights,
                      r + 1, w);
      goto out;
    }
    if (o.party_compat && w != floor(w)) {
      rc = augur_fail(
          err, AUGUR_E_ARG,
          "model fit: --party-compat needs whole-number weights ('%s', data row %zu: %g)",
          o.weights, r + 1, w);
      goto out;
    }
    d.w[n] = w;
    size_t j = 0;
    if (f.intercept) d.X[n * k + j++] = 1;
    for (size_t i = 0; i < f.nregressors; i++)
      d.X[n * k + j++] = augur_model_table_value(t, (size_t)cols[c0 + i], r);
    for (size_t v = 0; v < nz; v++)
      d.z[v][n] = augur_model_table_value(t, (size_t)cols[c0 + f.nregressors + v], r);
    d.n++;
  }
  m->nrows_used = d.n;
  size_t npos = 0;
  for (size_t i = 0; i < d.n; i++)
    npos += d.w[i] > 0;
  if (npos == 0) {
    rc = augur_fail(err, AUGUR_E_ARG, "model fit: no rows left (%zu dropped for a missing value%s)",
                    m->nrows_dropped, o.weights ? " or weight 0" : "");
    goto out;
  }
  if (npos < k) {
    rc = augur_fail(err, AUGUR_E_ARG, "model fit: %zu rows for %zu coefficients: too few rows",
                    npos, k);
    goto out;
  }
  /* party::mob replicates a row of integer weight w w times (party_compat) */
  if (o.party_compat && o.weights) {
    size_t tot = 0;
    for (size_t i = 0; i < d.n; i++)
      tot += (size_t)d.w[i];
    data e = d;
    e.n = tot;
    if (!(e.X = malloc((tot ? tot : 1) * k * sizeof *e.X)) ||
        !(e.y = malloc((tot ? tot : 1) * sizeof *e.y)) ||
        !(e.w = malloc((tot ? tot : 1) * sizeof *e.w))) {
      free(e.X), free(e.y);
      NOMEM();
    }
    double **ez = calloc(nz ? nz : 1, sizeof *ez);
    if (!ez) NOMEM();
    for (size_t v = 0; v < nz; v++)
      if (!(ez[v] = malloc((tot ? tot : 1) * sizeof **ez))) NOMEM();
    size_t q = 0;
    for (size_t i = 0; i < d.n; i++)
      for (size_t c = 0; c < (size_t)d.w[i]; c++, q++) {
        memcpy(e.X + q * k, d.X + i * k, k * sizeof *e.X);
        e.y[q] = d.y[i];
        e.w[q] = 1;
        for (size_t v = 0; v < nz; v++)
          ez[v][q] = d.z[v][i];
      }
    free(d.X), free(d.y), free(d.w);
    for (size_t v = 0; v < nz; v++)
      free(d.z[v]);
    free(d.z);
    d.X = e.X, d.y = e.y, d.w = e.w, d.z = ez, d.n = tot;
  }
  if (o.minsize <= 0) o.minsize = o.party_compat ? 20 : ceil(10.0 * (double)k);
  d.minsize = o.minsize;
  m->options.minsize = o.minsize;
  if (!(idx = malloc(d.n * sizeof *idx))) NOMEM();
  for (size_t i = 0; i < d.n; i++)
    idx[i] = i;
  grower g = {.d = &d, .m = m, .err = err};
  int root = grow(&g, idx, d.n, 0, 1);
  if (root < 0) {
    rc = root;
    goto out;
  }
  if (m->nodes[0].rank == 0) {
    rc = augur_fail(err, AUGUR_E_ARG, "model fit: every coefficient is aliased (singular fit)");
    goto out;
  }
  if (o.prune != AUGUR_MODEL_PRUNE_NONE && prune(m, (double)d.n)) NOMEM();
  rc = AUGUR_OK;
out:
  augur_model_formula_free(&f);
  free(idx);
  free(cols);
  free(need);
  free(d.X), free(d.y), free(d.w);
  if (d.z)
    for (size_t v = 0; v < d.nz; v++)
      free(d.z[v]);
  free(d.z), free(d.zfactor), free(d.zlevels);
  if (rc != AUGUR_OK) {
    augur_model_free(m);
    return rc;
  }
  *out = m;
  return AUGUR_OK;
#undef NOMEM
}
