/* augur — the best configuration for a workload (include/augur/model_best.h,
 * docs/model.md "best and weights"): every admissible (workers, threads,
 * placement), the derived columns the model reads, the tree's prediction
 * with an interval from its leaf, ranked by T_iter or the seed's E_index;
 * configurations outside what the training runs cover are flagged. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/model_best.h"
#include "model_int.h"

/* The columns best computes from the configuration (docs/model.md). */
enum derived { D_NONE = -1, D_WORKLOAD, D_WORKERS, D_THREADS, D_PROCS, D_W1, D_W2, D_LOCAL };
static const char *const derived_names[] = {"workload", "workers", "threads",       "procs",
                                            "w1",       "w2",      "local_workload"};
#define NDERIVED (sizeof derived_names / sizeof derived_names[0])

static int derived_of(const char *name) {
  for (size_t i = 0; i < NDERIVED; i++)
    if (!strcmp(name, derived_names[i])) return (int)i;
  return D_NONE;
}

static double derived_value(int d, double w, double wk, double thr) {
  switch (d) {
  case D_WORKLOAD:
    return w;
  case D_WORKERS:
    return wk;
  case D_THREADS:
    return thr;
  case D_PROCS:
    return wk + 1;
  case D_W1:
    return w / (wk * thr);
  case D_W2:
    return w * w / (wk * thr);
  case D_LOCAL:
    return w / wk;
  }
  return NAN;
}

/* The training data as best reads it: the rows the model was fitted on
 * (no missing value in a column it uses, weight > 0), their configuration
 * (workers, threads, placement) and each model variable's range. */
typedef struct train {
  const augur_model_table *t;
  int c_workers, c_threads, c_places, c_bind, c_workload;
  size_t nrows;
  size_t *row;         /* table row of each kept row */
  double *wt;          /* its weight; 0: a row the fit holds (nrows) but gives no say */
  size_t npos;         /* rows of weight > 0 */
  int *placement;      /* placement index of each kept row (-1: no placement columns) */
  double *vmin, *vmax; /* per model variable (numeric ones) */
  double wmin, wmax;   /* training workloads (NaN: no workload column) */
} train;

static double cell(const augur_model_table *t, int col, size_t row) {
  return col < 0 ? NAN : augur_model_table_value(t, (size_t)col, row);
}

static const char *cell_level(const augur_model_table *t, int col, size_t row) {
  if (col < 0) return NULL;
  double v = augur_model_table_value(t, (size_t)col, row);
  if (isnan(v)) return NULL;
  if (!augur_model_table_is_factor(t, (size_t)col)) return NULL;
  return augur_model_table_level(t, (size_t)col, (size_t)v);
}

/* The level index of NAME in model variable V, or -1. */
static int model_level(const augur_model *m, size_t v, const char *name) {
  if (!name) return -1;
  for (size_t l = 0; l < m->vars[v].nlevels; l++)
    if (!strcmp(m->vars[v].levels[l], name)) return (int)l;
  return -1;
}

/* Model variable V's value at table row ROW, in the model's coding (a
 * factor by level name); NaN when missing or not a level of the model. */
static double model_cell(const augur_model *m, size_t v, const augur_model_table *t, size_t row) {
  int col = augur_model_table_column(t, m->vars[v].name);
  augur_model_term tm; /* a PMNF term (fit --terms auto) the data set has no column for */
  if (col < 0 && !m->vars[v].is_factor && augur_model_term_parse(m->vars[v].name, &tm))
    return augur_model_term_value(tm, cell(t, augur_model_table_column(t, "workload"), row),
                                  cell(t, augur_model_table_column(t, "workers"), row),
                                  cell(t, augur_model_table_column(t, "threads"), row));
  if (col < 0) return NAN;
  if (!m->vars[v].is_factor) {
    if (augur_model_table_is_factor(t, (size_t)col)) return NAN;
    return cell(t, col, row);
  }
  int l = model_level(m, v, cell_level(t, col, row));
  return l < 0 ? NAN : (double)l;
}

static const char *str_or(const char *s, const char *dflt) {
  return s ? s : dflt;
}

/* Whether placement P (names; NULL: no such column) equals row R's. */
static int same_str(const char *a, const char *b) {
  return (!a && !b) || (a && b && !strcmp(a, b));
}

static void train_free(train *tr) {
  free(tr->row);
  free(tr->placement);
  free(tr->wt);
  free(tr->vmin);
  free(tr->vmax);
}

static int train_read(train *tr, const augur_model *m, const augur_model_table *t,
                      augur_best_result *r, augur_error *err) {
  memset(tr, 0, sizeof *tr);
  tr->t = t;
  tr->c_workers = augur_model_table_column(t, "workers");
  tr->c_threads = augur_model_table_column(t, "threads");
  tr->c_places = augur_model_table_column(t, "places");
  tr->c_bind = augur_model_table_column(t, "bind");
  tr->c_workload = augur_model_table_column(t, "workload");
  int c_over = augur_model_table_column(t, "oversubscribed");
  if (tr->c_workers < 0 || tr->c_threads < 0)
    return augur_fail(err, AUGUR_E_ARG, "training data has no %s column",
                      tr->c_workers < 0 ? "workers" : "threads");
  size_t n = augur_model_table_nrows(t);
  int c_y = augur_model_table_column(t, m->response);
  int c_w = m->weights ? augur_model_table_column(t, m->weights) : -1;
  if (c_y < 0) return augur_fail(err, AUGUR_E_ARG, "training data has no %s column", m->response);
  if (m->weights && c_w < 0)
    return augur_fail(err, AUGUR_E_ARG, "training data has no %s column (the model's weights)",
                      m->weights);
  tr->row = malloc((n ? n : 1) * sizeof *tr->row);
  tr->placement = malloc((n ? n : 1) * sizeof *tr->placement);
  tr->wt = malloc((n ? n : 1) * sizeof *tr->wt);
  tr->vmin = malloc((m->nvars ? m->nvars : 1) * sizeof *tr->vmin);
  tr->vmax = malloc((m->nvars ? m->nvars : 1) * sizeof *tr->vmax);
  r->places = calloc(n ? n : 1, sizeof *r->places);
  r->bind = calloc(n ? n : 1, sizeof *r->bind);
  if (!tr->row || !tr->placement || !tr->wt || !tr->vmin || !tr->vmax || !r->places || !r->bind)
    return augur_fail(err, AUGUR_E_NOMEM, "best: out of memory (%zu training rows)", n);
  for (size_t v = 0; v < m->nvars; v++) {
    tr->vmin[v] = HUGE_VAL;
    tr->vmax[v] = -HUGE_VAL;
  }
  tr->wmin = HUGE_VAL;
  tr->wmax = -HUGE_VAL;
  for (size_t i = 0; i < n; i++) {
    int keep = !isnan(cell(t, c_y, i)) && !isnan(cell(t, tr->c_workers, i)) &&
               !isnan(cell(t, tr->c_threads, i));
    double wt = c_w >= 0 ? cell(t, c_w, i) : 1;
    keep = keep && !isnan(wt);
    for (size_t v = 0; v < m->nvars && keep; v++)
      keep = !isnan(model_cell(m, v, t, i));
    if (!keep) continue;
    tr->wt[tr->nrows] = wt;
    if (!(wt > 0)) { /* in the leaf's row count only (the fit keeps it, weightless) */
      tr->placement[tr->nrows] = -1;
      tr->row[tr->nrows++] = i;
      continue;
    }
    tr->npos++;
    const char *pl = cell_level(t, tr->c_places, i), *bd = cell_level(t, tr->c_bind, i);
    int p = -1;
    if (tr->c_places >= 0 || tr->c_bind >= 0) {
      for (size_t k = 0; k < r->nplacements && p < 0; k++)
        if (same_str(r->places[k], pl) && same_str(r->bind[k], bd)) p = (int)k;
      if (p < 0) {
        p = (int)r->nplacements++;
        r->places[p] = (char *)pl; /* owned by the table */
        r->bind[p] = (char *)bd;
      }
    }
    tr->placement[tr->nrows] = p;
    if (cell(t, c_over, i) > 0) r->ntrain_over++;
    tr->row[tr->nrows++] = i;
    for (size_t v = 0; v < m->nvars; v++) {
      if (m->vars[v].is_factor) continue;
      double x = model_cell(m, v, t, i);
      if (x < tr->vmin[v]) tr->vmin[v] = x;
      if (x > tr->vmax[v]) tr->vmax[v] = x;
    }
    double w = cell(t, tr->c_workload, i);
    if (w < tr->wmin) tr->wmin = w;
    if (w > tr->wmax) tr->wmax = w;
  }
  if (!tr->npos)
    return augur_fail(err, AUGUR_E_ARG, "training data: no row has every column the model uses");
  if (tr->c_workload < 0 || isinf(tr->wmin)) tr->wmin = tr->wmax = NAN;
  return AUGUR_OK;
}

/* Fills X (the model's variables) for configuration (W, WK, THR, P).
 * Returns 1, or 0 with WHY set when a variable can be had neither from the
 * configuration nor from the training runs of this configuration (or a
 * value shared by every training run); -1 with ERR when a variable is
 * measured per run (it varies between runs of one configuration). */
static int fill_x(const augur_model *m, const train *tr, const augur_best_result *r, double w,
                  long wk, long thr, int p, double *x, int *tried, char *why, size_t nwhy,
                  augur_error *err) {
  *tried = 0;
  for (size_t i = 0; tr && i < tr->nrows; i++)
    if (tr->wt[i] > 0 && cell(tr->t, tr->c_workers, tr->row[i]) == (double)wk &&
        cell(tr->t, tr->c_threads, tr->row[i]) == (double)thr && (p < 0 || tr->placement[i] == p))
      *tried = 1;
  for (size_t v = 0; v < m->nvars; v++) {
    const augur_model_var *mv = &m->vars[v];
    int d = derived_of(mv->name);
    augur_model_term tm;
    if (d != D_NONE && !mv->is_factor) {
      x[v] = derived_value(d, w, (double)wk, (double)thr);
      continue;
    }
    if (!mv->is_factor && augur_model_term_parse(mv->name, &tm)) {
      x[v] = augur_model_term_value(tm, w, (double)wk, (double)thr);
      continue;
    }
    if (mv->is_factor && p >= 0 && (!strcmp(mv->name, "places") || !strcmp(mv->name, "bind"))) {
      int l = model_level(m, v, !strcmp(mv->name, "places") ? r->places[p] : r->bind[p]);
      if (l < 0) {
        snprintf(why, nwhy, "%s: the placement is not a level of the model", mv->name);
        return 0;
      }
      x[v] = l;
      continue;
    }
    if (!tr) {
      snprintf(why, nwhy, "the model reads %s: give the training data (--data)", mv->name);
      return 0;
    }
    /* From the training runs of this configuration, else one value of all. */
    double same = NAN, all = NAN;
    int same_ok = 1, all_ok = 1, nsame = 0;
    size_t vary_row = 0;
    for (size_t i = 0; i < tr->nrows; i++) {
      if (!(tr->wt[i] > 0)) continue;
      double xv = model_cell(m, v, tr->t, tr->row[i]);
      if (isnan(all))
        all = xv;
      else if (xv != all)
        all_ok = 0;
      if (cell(tr->t, tr->c_workers, tr->row[i]) != (double)wk ||
          cell(tr->t, tr->c_threads, tr->row[i]) != (double)thr ||
          (p >= 0 && tr->placement[i] != p))
        continue;
      if (!nsame++)
        same = xv;
      else if (xv != same && same_ok) {
        same_ok = 0;
        vary_row = tr->row[i];
      }
    }
    if (nsame && !same_ok)
      return augur_fail(err, AUGUR_E_ARG,
                        "the model reads %s, which differs between training runs of workers=%ld "
                        "threads=%ld (row %zu): it is measured per run, best cannot choose it",
                        mv->name, wk, thr, vary_row + 1),
             -1;
    if (nsame)
      x[v] = same;
    else if (all_ok)
      x[v] = all;
    else {
      snprintf(why, nwhy, "the model reads %s and no training run has workers=%ld threads=%ld%s",
               mv->name, wk, thr, p >= 0 ? " with this placement" : "");
      return 0;
    }
  }
  return 1;
}

/* Leverage data per leaf: S = A^(-1/2) (row-major, model_inv_sqrt) of
 * A = sum of w z z' over the leaf's training rows, z the regressors with
 * the leaf's aliased ones (coefficient NaN) left out (their row and column
 * of A set to the identity, their z to 0). NULL: a leaf without rows, or
 * whose A is not positive definite (the mean leverage stands in). */
typedef struct leaves {
  double **isqrt; /* per node id - 1 */
} leaves;

static void leaves_free(leaves *lv, size_t nnodes) {
  for (size_t i = 0; lv->isqrt && i < nnodes; i++)
    free(lv->isqrt[i]);
  free(lv->isqrt);
}

/* The regressors (with the intercept) of model M at variable values X;
 * 0 for a coefficient NODE does not estimate. */
static void regressors(const augur_model *m, const augur_model_node *node, const double *x,
                       double *z) {
  for (size_t j = 0; j < m->k; j++)
    z[j] = isnan(node->coef[j]) ? 0 : m->coef_var[j] < 0 ? 1 : x[m->coef_var[j]];
}

/* z' A^-1 z = |A^(-1/2) z|^2. */
static double leverage(const double *isqrt, const double *z, size_t k) {
  double h = 0;
  for (size_t p = 0; p < k; p++) {
    double v = 0;
    for (size_t q = 0; q < k; q++)
      v += isqrt[p * k + q] * z[q];
    h += v * v;
  }
  return h;
}

static int leaves_build(leaves *lv, const augur_model *m, const train *tr, augur_error *err) {
  size_t k = m->k, nn = m->nnodes;
  lv->isqrt = calloc(nn, sizeof *lv->isqrt);
  double *A = calloc(nn * k * k, sizeof *A), *x = malloc(m->nvars * sizeof *x),
         *z = malloc(k * sizeof *z);
  size_t *count = calloc(nn, sizeof *count);
  int rc = AUGUR_OK;
  if (!lv->isqrt || !A || !x || !z || !count) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "best: out of memory (leaf matrices)");
    goto out;
  }
  for (size_t i = 0; i < tr->nrows; i++) {
    for (size_t v = 0; v < m->nvars; v++)
      x[v] = model_cell(m, v, tr->t, tr->row[i]);
    int node;
    double yhat, w = tr->wt[i];
    if (augur_model_predict(m, x, &node, &yhat, err) != AUGUR_OK) {
      rc = augur_fail(err, AUGUR_E_ARG, "training data row %zu: %s", tr->row[i] + 1, err->msg);
      goto out;
    }
    assert(node >= 1 && (size_t)node <= nn);
    regressors(m, &m->nodes[node - 1], x, z);
    double *a = A + (size_t)(node - 1) * k * k;
    for (size_t p = 0; p < k; p++)
      for (size_t q = 0; q < k; q++)
        a[p * k + q] += w * z[p] * z[q];
    count[node - 1]++;
  }
  for (size_t i = 0; i < nn; i++) {
    const augur_model_node *nd = &m->nodes[i];
    if (nd->split_var >= 0) continue;
    if (count[i] != nd->nrows) {
      rc = augur_fail(err, AUGUR_E_ARG,
                      "the data given is not the model's training data: leaf %d holds %zu of its "
                      "rows, the model says %zu",
                      nd->id, count[i], nd->nrows);
      goto out;
    }
    double *a = A + i * k * k;
    for (size_t j = 0; j < k; j++)
      if (isnan(nd->coef[j])) {
        for (size_t p = 0; p < k; p++)
          a[j * k + p] = a[p * k + j] = 0;
        a[j * k + j] = 1;
      }
    if (!count[i]) continue;
    lv->isqrt[i] = malloc(k * k * sizeof **lv->isqrt);
    if (!lv->isqrt[i]) {
      rc = augur_fail(err, AUGUR_E_NOMEM, "best: out of memory (leaf matrices)");
      goto out;
    }
    if (model_inv_sqrt(k, a, lv->isqrt[i]) != 0) {
      free(lv->isqrt[i]);
      lv->isqrt[i] = NULL;
    }
  }
out:
  free(A);
  free(x);
  free(z);
  free(count);
  return rc;
}

/* Whether M reads a variable best does not compute from the configuration. */
static int reads_more(const augur_model *m) {
  for (size_t v = 0; v < m->nvars; v++)
    if ((derived_of(m->vars[v].name) == D_NONE && !augur_model_term_parse(m->vars[v].name, NULL)) ||
        m->vars[v].is_factor)
      return 1;
  return 0;
}

static int by_rank(const void *a, const void *b) {
  const augur_best_config *x = a, *y = b;
  if ((x->out != 0) != (y->out != 0)) return x->out ? 1 : -1;
  if (x->score != y->score) return x->score < y->score ? -1 : 1;
  if (x->workers != y->workers) return x->workers < y->workers ? -1 : 1;
  if (x->threads != y->threads) return x->threads < y->threads ? -1 : 1;
  return (x->placement > y->placement) - (x->placement < y->placement);
}

void augur_best_options_default(augur_best_options *o) {
  assert(o);
  memset(o, 0, sizeof *o);
  o->level = 0.95;
  o->objective = AUGUR_BEST_TIME;
}

/* The prediction of model M at configuration C (variables X, scratch Z):
 * value, leaf, interval. */
static int predict_one(const augur_model *m, const leaves *lv, const double *x, double level,
                       augur_best_config *c, double *z, augur_error *err) {
  if (augur_model_predict(m, x, &c->node, &c->t_iter, err) != AUGUR_OK) return err->code;
  const augur_model_node *nd = &m->nodes[c->node - 1];
  c->lo = c->hi = NAN;
  double df = floor(nd->nobs - nd->rank + 1e-9);
  if (isnan(nd->sigma2) || df < 1) return AUGUR_OK;
  regressors(m, nd, x, z);
  /* Without the leaf's rows, the mean leverage rank / nobs stands in. */
  double h = lv && lv->isqrt[c->node - 1] ? leverage(lv->isqrt[c->node - 1], z, m->k)
                                          : (double)nd->rank / nd->nobs;
  double half = augur_t_quantile(level, (long)df) * sqrt(nd->sigma2 * (1 + h));
  /* A time is not negative: the interval is cut at 0 (its coverage is the
   * same); suggest ranks by the whole width, hi - t_iter on both sides. */
  c->lo = fmax(0, c->t_iter - half);
  c->hi = c->t_iter + half;
  return AUGUR_OK;
}

int augur_best_search(const augur_model *m, const augur_model_table *data,
                      const augur_best_options *o, augur_best_result *r, augur_error *err) {
  assert(m && o && r);
  memset(r, 0, sizeof *r);
  augur_error local = {0};
  if (!err) err = &local; /* the steps below read err->code and err->msg */
  if (!(o->workload > 0) || !isfinite(o->workload))
    return augur_fail(err, AUGUR_E_ARG, "workload must be a number > 0, got %g", o->workload);
  if (o->cores < 1) return augur_fail(err, AUGUR_E_ARG, "cores must be >= 1, got %ld", o->cores);
  if (o->max_workers < 1)
    return augur_fail(err, AUGUR_E_ARG, "max workers must be >= 1, got %ld", o->max_workers);
  if (!(o->level > 0 && o->level < 1))
    return augur_fail(err, AUGUR_E_ARG, "interval level must be in (0, 1), got %g", o->level);
  if (o->objective == AUGUR_BEST_EINDEX && !o->tc)
    return augur_fail(err, AUGUR_E_ARG,
                      "objective eindex needs a model of the workers' computation time (T_c)");
  for (size_t i = 0; i < o->nthreads; i++)
    if (o->threads[i] < 1)
      return augur_fail(err, AUGUR_E_ARG, "threads must be >= 1, got %ld", o->threads[i]);
  train tr;
  leaves lv = {0};
  int rc = AUGUR_OK, have = data != NULL;
  r->wmin = r->wmax = NAN;
  if (have) {
    rc = train_read(&tr, m, data, r, err);
    if (rc == AUGUR_OK) rc = leaves_build(&lv, m, &tr, err);
    if (rc != AUGUR_OK) goto out;
    r->range_checked = 1;
    r->ntrain = tr.npos;
    r->wmin = tr.wmin;
    r->wmax = tr.wmax;
  }
  long tmax = o->cores;
  size_t nthr = o->nthreads ? o->nthreads : (size_t)tmax;
  /* Placements matter only to a model that reads more than the derived
   * columns (places, bind, affinity counts); else each would repeat. */
  int use_pl = r->nplacements && (reads_more(m) || (o->tc && reads_more(o->tc)));
  size_t npl = use_pl ? r->nplacements : 1;
  size_t cap = 0; /* the admissible configurations */
  for (long wk = 1; wk <= o->max_workers; wk++)
    if (!o->nthreads)
      cap += o->oversubscribe ? nthr : (size_t)(o->cores / wk);
    else
      for (size_t ti = 0; ti < nthr; ti++)
        cap += o->oversubscribe || wk * o->threads[ti] <= o->cores;
  if (cap > AUGUR_BEST_MAX_CONFIGS / npl) {
    rc = augur_fail(err, AUGUR_E_ARG,
                    "%zu configurations to evaluate, more than %d: lower --cores or "
                    "--max-workers, or give --threads",
                    cap * npl, AUGUR_BEST_MAX_CONFIGS);
    goto out;
  }
  cap *= npl;
  r->configs = calloc(cap ? cap : 1, sizeof *r->configs);
  size_t nv = m->nvars + (o->tc ? o->tc->nvars : 0);
  double *x = malloc((nv ? nv : 1) * sizeof *x);
  double *z = malloc((m->k + (o->tc ? o->tc->k : 0) + 1) * sizeof *z);
  if (!r->configs || !x || !z) {
    free(x);
    free(z);
    rc = augur_fail(err, AUGUR_E_NOMEM, "best: out of memory (%zu configurations)", cap);
    goto out;
  }
  for (long wk = 1; wk <= o->max_workers && rc == AUGUR_OK; wk++)
    for (size_t ti = 0; ti < nthr && rc == AUGUR_OK; ti++) {
      long thr = o->nthreads ? o->threads[ti] : (long)ti + 1;
      int over = wk * thr > o->cores;
      if (over && !o->oversubscribe) {
        if (!o->nthreads) break; /* 1..cores ascending: the rest is over too */
        continue;
      }
      for (size_t pi = 0; pi < npl && rc == AUGUR_OK; pi++) {
        int p = use_pl ? (int)pi : -1, tried = 0;
        char why[256];
        int ok = fill_x(m, have ? &tr : NULL, r, o->workload, wk, thr, p, x, &tried, why,
                        sizeof why, err);
        if (ok < 0) {
          rc = err->code;
          break;
        }
        if (!ok) {
          if (!r->nskipped++) snprintf(r->skip_why, sizeof r->skip_why, "%s", why);
          continue;
        }
        augur_best_config *c = &r->configs[r->nconfigs];
        memset(c, 0, sizeof *c);
        c->workers = wk;
        c->threads = thr;
        c->placement = p;
        c->oversubscribed = over;
        c->t_comp = c->eindex = NAN;
        rc = predict_one(m, have ? &lv : NULL, x, o->level, c, z, err);
        if (rc != AUGUR_OK) {
          rc = augur_fail(err, rc, "workers=%ld threads=%ld: %s", wk, thr, err->msg);
          break;
        }
        c->score = c->t_iter;
        if (o->objective == AUGUR_BEST_EINDEX) {
          double *xt = x + m->nvars;
          int tc_tried;
          int tok = fill_x(o->tc, have ? &tr : NULL, r, o->workload, wk, thr, p, xt, &tc_tried, why,
                           sizeof why, err);
          if (tok <= 0) {
            rc = augur_fail(err, AUGUR_E_ARG, "the T_c model: %s", tok < 0 ? err->msg : why);
            break;
          }
          int tnode;
          if (augur_model_predict(o->tc, xt, &tnode, &c->t_comp, err) != AUGUR_OK) {
            rc = augur_fail(err, err->code, "the T_c model, workers=%ld threads=%ld: %s", wk, thr,
                            err->msg);
            break;
          }
          if (!(c->t_comp > 0)) {
            if (!r->nskipped++)
              snprintf(r->skip_why, sizeof r->skip_why,
                       "the T_c model predicts %g s of computation at workers=%ld threads=%ld",
                       c->t_comp, wk, thr);
            continue;
          }
          /* E_index = Workers * T_iter^2 / T_c, T_c = Workers * t_comp_worker. */
          c->eindex = c->t_iter * c->t_iter / c->t_comp;
          c->score = c->eindex;
        }
        if (have) {
          if (!tried) c->out |= AUGUR_BEST_OUT_UNTRIED;
          if (!isnan(r->wmin) && (o->workload < r->wmin || o->workload > r->wmax))
            c->out |= AUGUR_BEST_OUT_WORKLOAD;
          for (size_t v = 0; v < m->nvars; v++)
            if (!m->vars[v].is_factor && (x[v] < tr.vmin[v] || x[v] > tr.vmax[v]) &&
                !((c->out & AUGUR_BEST_OUT_WORKLOAD) && !strcmp(m->vars[v].name, "workload"))) {
              c->out |= AUGUR_BEST_OUT_RANGE;
              if (!c->out_var) c->out_var = m->vars[v].name;
            }
        }
        r->nconfigs++;
      }
    }
  free(x);
  free(z);
  if (rc == AUGUR_OK && !r->nconfigs)
    rc = r->nskipped
             ? augur_fail(err, AUGUR_E_ARG, "no configuration can be evaluated: %s", r->skip_why)
             : augur_fail(err, AUGUR_E_ARG,
                          "no admissible configuration (workers x threads <= %ld cores)", o->cores);
  if (rc == AUGUR_OK) qsort(r->configs, r->nconfigs, sizeof *r->configs, by_rank);
out:
  if (have) {
    leaves_free(&lv, m->nnodes);
    train_free(&tr);
  }
  if (rc != AUGUR_OK) augur_best_result_free(r);
  return rc;
}

void augur_best_result_free(augur_best_result *r) {
  if (!r) return;
  free(r->configs);
  free(r->places);
  free(r->bind);
  memset(r, 0, sizeof *r);
}

const char *augur_best_placement(const augur_best_result *r, int p, char *buf, size_t n) {
  assert(r && buf && n);
  if (p < 0 || (size_t)p >= r->nplacements) {
    snprintf(buf, n, "-");
    return buf;
  }
  snprintf(buf, n, "%s/%s", str_or(r->places[p], "-"), str_or(r->bind[p], "-"));
  return buf;
}
