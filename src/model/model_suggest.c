/* augur — which runs to add where the model is least sure
 * (include/augur/model_best.h, docs/model.md "Suggested runs"): the
 * configurations augur_best_search evaluates, at the training workloads and
 * between them, ranked by the width (seconds) of their prediction interval
 * and their distance from the training runs. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "augur/model_best.h"
#include "model_int.h"

/* A point of the configuration space: log2 workload, workers, threads,
 * placement. */
typedef struct point {
  double x[3];
  int placement;
} point;

typedef struct space {
  double scale[3]; /* 1 / training range of each coordinate, 0 when the range is 0 */
  int placed;      /* 1: placements count in the distance */
} space;

static double distance(const space *sp, const point *a, const point *b) {
  double d = 0;
  for (size_t c = 0; c < 3; c++) {
    double v = (a->x[c] - b->x[c]) * sp->scale[c];
    d += v * v;
  }
  if (sp->placed && a->placement != b->placement) d += 1;
  return sqrt(d);
}

static point point_of(double w, double wk, double thr, int p) {
  return (point){{log2(w), log2(wk), log2(thr)}, p};
}

static const char *level_of(const augur_model_table *t, int col, size_t row) {
  if (col < 0) return NULL;
  double v = augur_model_table_value(t, (size_t)col, row);
  if (isnan(v) || !augur_model_table_is_factor(t, (size_t)col)) return NULL;
  return augur_model_table_level(t, (size_t)col, (size_t)v);
}

static int same(const char *a, const char *b) {
  return (!a && !b) || (a && b && !strcmp(a, b));
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The training runs as points (rows with the response, workload, workers,
 * threads), their ranges into R, the candidate workloads into *WL. */
static int training(const augur_model *m, const augur_model_table *t, augur_suggest_result *r,
                    point **pts, size_t *npts, double **wl, augur_error *err) {
  int cy = augur_model_table_column(t, m->response), cw = augur_model_table_column(t, "workload"),
      ck = augur_model_table_column(t, "workers"), ct = augur_model_table_column(t, "threads"),
      cp = augur_model_table_column(t, "places"), cb = augur_model_table_column(t, "bind");
  if (cy < 0 || cw < 0 || ck < 0 || ct < 0)
    return augur_fail(err, AUGUR_E_ARG, "training data has no %s column",
                      cy < 0   ? m->response
                      : cw < 0 ? "workload"
                      : ck < 0 ? "workers"
                               : "threads");
  size_t n = augur_model_table_nrows(t);
  *pts = malloc((n ? n : 1) * sizeof **pts);
  double *w = malloc((2 * n + 1) * sizeof *w);
  *wl = w;
  if (!*pts || !w) return augur_fail(err, AUGUR_E_NOMEM, "suggest: out of memory");
  size_t np = 0;
  double wmin = HUGE_VAL, wmax = -HUGE_VAL, kmin = HUGE_VAL, kmax = -HUGE_VAL, tmin = HUGE_VAL,
         tmax = -HUGE_VAL;
  int whole = 1;
  for (size_t i = 0; i < n; i++) {
    double y = augur_model_table_value(t, (size_t)cy, i),
           W = augur_model_table_value(t, (size_t)cw, i),
           k = augur_model_table_value(t, (size_t)ck, i),
           th = augur_model_table_value(t, (size_t)ct, i);
    if (isnan(y) || !(W > 0) || !(k >= 1) || !(th >= 1)) continue;
    int p = -1;
    for (size_t q = 0; q < r->nplacements && p < 0; q++)
      if (same(r->places[q], level_of(t, cp, i)) && same(r->bind[q], level_of(t, cb, i)))
        p = (int)q;
    (*pts)[np++] = point_of(W, k, th, p);
    w[r->nworkloads++] = W;
    whole &= W == floor(W);
    wmin = fmin(wmin, W), wmax = fmax(wmax, W);
    kmin = fmin(kmin, k), kmax = fmax(kmax, k);
    tmin = fmin(tmin, th), tmax = fmax(tmax, th);
  }
  if (!np)
    return augur_fail(err, AUGUR_E_ARG,
                      "training data: no row has %s, workload > 0, workers and threads >= 1",
                      m->response);
  *npts = np;
  r->wmin = wmin, r->wmax = wmax;
  r->wkmin = (long)kmin, r->wkmax = (long)kmax, r->thrmin = (long)tmin, r->thrmax = (long)tmax;
  /* distinct workloads, then the midpoints between neighbours */
  qsort(w, r->nworkloads, sizeof *w, by_value);
  size_t d = 0;
  for (size_t i = 0; i < r->nworkloads; i++)
    if (!d || w[i] != w[d - 1]) w[d++] = w[i];
  size_t nd = d;
  for (size_t i = 0; i + 1 < nd; i++) {
    double mid = (w[i] + w[i + 1]) / 2;
    if (whole) mid = floor(mid + 0.5);
    if (mid > w[i] && mid < w[i + 1]) w[d++] = mid;
  }
  qsort(w, d, sizeof *w, by_value);
  r->nworkloads = d;
  return AUGUR_OK;
}

void augur_suggest_result_free(augur_suggest_result *r) {
  if (!r) return;
  free(r->s);
  free(r->places);
  free(r->bind);
  memset(r, 0, sizeof *r);
}

int augur_suggest(const augur_model *m, const augur_model_table *data,
                  const augur_suggest_options *o, augur_suggest_result *r, augur_error *err) {
  assert(m && data && o && r);
  memset(r, 0, sizeof *r);
  augur_error local = {0};
  if (!err) err = &local;
  if (o->count < 1) return augur_fail(err, AUGUR_E_ARG, "count must be >= 1");
  point *pts = NULL;
  double *wl = NULL;
  augur_suggestion *cand = NULL;
  size_t npts = 0, ncand = 0, cap = 0;
  augur_best_options bo = o->best;
  bo.objective = AUGUR_BEST_TIME;
  /* The placements, from a first search (every search reads the same rows). */
  augur_best_result br;
  bo.workload = 1;
  int rc = augur_best_search(m, data, &bo, &br, err);
  if (rc != AUGUR_OK) return rc;
  r->nplacements = br.nplacements;
  r->places = calloc(br.nplacements + 1, sizeof *r->places);
  r->bind = calloc(br.nplacements + 1, sizeof *r->bind);
  if (r->places && r->bind) {
    memcpy(r->places, br.places, br.nplacements * sizeof *r->places);
    memcpy(r->bind, br.bind, br.nplacements * sizeof *r->bind);
  }
  r->ntrain = br.ntrain;
  r->ntrain_over = br.ntrain_over;
  augur_best_result_free(&br);
  if (!r->places || !r->bind) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "suggest: out of memory");
    goto out;
  }
  if ((rc = training(m, data, r, &pts, &npts, &wl, err)) != AUGUR_OK) goto out;
  space sp = {{0, 0, 0}, 0};
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (size_t i = 0; i < npts; i++)
    for (size_t c = 0; c < 3; c++)
      lo[c] = fmin(lo[c], pts[i].x[c]), hi[c] = fmax(hi[c], pts[i].x[c]);
  for (size_t c = 0; c < 3; c++)
    sp.scale[c] = hi[c] > lo[c] ? 1 / (hi[c] - lo[c]) : 0;
  for (size_t wi = 0; wi < r->nworkloads; wi++) {
    bo.workload = wl[wi];
    if ((rc = augur_best_search(m, data, &bo, &br, err)) != AUGUR_OK) goto out;
    sp.placed |= br.nconfigs && br.configs[0].placement >= 0;
    for (size_t i = 0; i < br.nconfigs; i++) {
      const augur_best_config *c = &br.configs[i];
      if ((c->out & (AUGUR_BEST_OUT_WORKLOAD | AUGUR_BEST_OUT_RANGE)) || c->workers < r->wkmin ||
          c->workers > r->wkmax || c->threads < r->thrmin || c->threads > r->thrmax) {
        r->noutside++;
        continue;
      }
      if (ncand == cap) {
        cap = cap ? 2 * cap : 64;
        augur_suggestion *g = realloc(cand, cap * sizeof *cand);
        if (!g) {
          augur_best_result_free(&br);
          rc = augur_fail(err, AUGUR_E_NOMEM, "suggest: out of memory");
          goto out;
        }
        cand = g;
      }
      augur_suggestion *s = &cand[ncand++];
      *s = (augur_suggestion){.workload = wl[wi],
                              .workers = c->workers,
                              .threads = c->threads,
                              .placement = c->placement,
                              .oversubscribed = c->oversubscribed,
                              .node = c->node,
                              .t_iter = c->t_iter,
                              .lo = c->lo,
                              .hi = c->hi};
      if (isnan(c->lo)) r->nnointerval++;
      s->width = isnan(c->lo) ? INFINITY : 2 * (c->hi - c->t_iter);
    }
    augur_best_result_free(&br);
  }
  r->ncandidates = ncand;
  if (!ncand) {
    rc = augur_fail(err, AUGUR_E_ARG,
                    "no admissible configuration inside the training range (%zu outside)",
                    r->noutside);
    goto out;
  }
  /* distances to the training runs; then greedily the best score, which
   * becomes a run the next distances count */
  for (size_t i = 0; i < ncand; i++) {
    point q = point_of(cand[i].workload, (double)cand[i].workers, (double)cand[i].threads,
                       cand[i].placement);
    cand[i].distance = HUGE_VAL;
    for (size_t j = 0; j < npts; j++)
      cand[i].distance = fmin(cand[i].distance, distance(&sp, &q, &pts[j]));
  }
  size_t want = o->count < ncand ? o->count : ncand;
  r->s = malloc(want * sizeof *r->s);
  if (!r->s) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "suggest: out of memory");
    goto out;
  }
  for (size_t k = 0; k < want; k++) {
    size_t best = ncand;
    for (size_t i = 0; i < ncand; i++) {
      augur_suggestion *c = &cand[i];
      if (c->node < 0) continue; /* taken */
      c->score = c->width * (1 + c->distance);
      /* ties (an infinite width): the farther one, then the earlier one
       * (workload, then best's order) */
      if (best == ncand || c->score > cand[best].score ||
          (c->score == cand[best].score && c->distance > cand[best].distance))
        best = i;
    }
    r->s[r->n++] = cand[best];
    cand[best].node = -1;
    point q = point_of(cand[best].workload, (double)cand[best].workers, (double)cand[best].threads,
                       cand[best].placement);
    for (size_t i = 0; i < ncand; i++) {
      point c = point_of(cand[i].workload, (double)cand[i].workers, (double)cand[i].threads,
                         cand[i].placement);
      cand[i].distance = fmin(cand[i].distance, distance(&sp, &c, &q));
    }
  }
out:
  free(pts);
  free(wl);
  free(cand);
  if (rc != AUGUR_OK) augur_suggest_result_free(r);
  return rc;
}
