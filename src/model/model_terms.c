/* augur_model — the leaf regressors chosen from a PMNF-style family of
 * terms by leave-one-out error (docs/model.md, "Leaf terms chosen
 * automatically"): `augur model fit --terms auto`. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

static const double exponents[] = {0, 0.5, 1, 1.5, 2};
#define NEXP (sizeof exponents / sizeof exponents[0])
#define NLOG 3 /* j = 0, 1, 2 */

/* Leverage this close to 1: the row's leave-one-out residual is undefined. */
#define LEVERAGE_MAX (1 - 1e-9)

augur_model_term augur_model_term_at(size_t idx) {
  assert(idx < AUGUR_MODEL_NTERMS);
  /* 0 is i = j = k = 0, the intercept; k = 3 (W^0 and W^1 times Wk) are the last two */
  size_t c = idx + 1;
  if (c >= NLOG * NEXP * 3) {
    augur_model_term t = {(double)(c - NLOG * NEXP * 3), 0, 3};
    return t;
  }
  augur_model_term t = {exponents[(c / NLOG) % NEXP], (int)(c % NLOG), (int)(c / (NLOG * NEXP))};
  return t;
}

const char *augur_model_term_name(augur_model_term t, char *buf, size_t n) {
  static const char *const per[] = {"", "perWT", "perWk", "xWk"};
  assert(buf && n && t.k >= 0 && t.k <= 3);
  if (t.i == 1 && t.j == 0 && t.k <= 1)
    snprintf(buf, n, "%s", t.k ? "w1" : "workload");
  else if (t.i == 2 && t.j == 0 && t.k == 1)
    snprintf(buf, n, "w2");
  else if (t.i == 1 && t.j == 0 && t.k == 2)
    snprintf(buf, n, "local_workload");
  else if (t.i == 0 && t.j == 0 && t.k == 3)
    snprintf(buf, n, "workers");
  else {
    char w[16] = "", l[16] = "";
    if (t.i > 0) snprintf(w, sizeof w, "W%g", t.i);
    if (t.j) snprintf(l, sizeof l, "%slog2W%s", *w ? "_" : "", t.j == 2 ? "sq" : "");
    snprintf(buf, n, "%s%s%s%s", w, l, t.k && (*w || *l) ? "_" : "", per[t.k]);
  }
  return buf;
}

int augur_model_term_parse(const char *name, augur_model_term *t) {
  assert(name);
  char buf[64];
  for (size_t idx = 0; idx < AUGUR_MODEL_NTERMS; idx++) {
    augur_model_term c = augur_model_term_at(idx);
    if (!strcmp(name, augur_model_term_name(c, buf, sizeof buf))) {
      if (t) *t = c;
      return 1;
    }
  }
  return 0;
}

double augur_model_term_value(augur_model_term t, double w, double wk, double thr) {
  if (!(w > 0) || !(wk * thr > 0)) return NAN;
  double v = pow(w, t.i);
  for (int j = 0; j < t.j; j++)
    v *= log2(w);
  switch (t.k) {
  case 1:
    return v / (wk * thr);
  case 2:
    return v / wk;
  case 3:
    return v * wk;
  }
  return v;
}

/* Column NAME of T, numeric: its index, or -1 after ERR. */
static int numeric_column(const augur_model_table *t, const char *name, const char *why,
                          augur_error *err) {
  int c = augur_model_table_column(t, name);
  if (c < 0)
    augur_fail(err, AUGUR_E_ARG, "no column '%s' in the data (%s)", name, why);
  else if (augur_model_table_is_factor(t, (size_t)c))
    augur_fail(err, AUGUR_E_ARG, "column '%s' is not numeric (%s)", name, why), c = -1;
  return c;
}

/* The base columns workload, workers, threads into COL[3]. */
static int base_columns(const augur_model_table *t, int col[3], augur_error *err) {
  static const char *const base[] = {"workload", "workers", "threads"};
  for (size_t b = 0; b < 3; b++)
    if ((col[b] = numeric_column(t, base[b],
                                 "the PMNF terms are computed from workload, "
                                 "workers and threads",
                                 err)) < 0)
      return AUGUR_E_ARG;
  return AUGUR_OK;
}

/* Adds term TM's column NAME, or checks the one already there. */
static int add_term(augur_model_table *t, const int col[3], const char *name, augur_model_term tm,
                    augur_error *err) {
  size_t n = augur_model_table_nrows(t);
  double *v = malloc((n ? n : 1) * sizeof *v);
  if (!v) return augur_fail(err, AUGUR_E_NOMEM, "terms: out of memory");
  for (size_t r = 0; r < n; r++)
    v[r] = augur_model_term_value(tm, augur_model_table_value(t, (size_t)col[0], r),
                                  augur_model_table_value(t, (size_t)col[1], r),
                                  augur_model_table_value(t, (size_t)col[2], r));
  int rc = AUGUR_OK, have = augur_model_table_column(t, name);
  if (have < 0)
    rc = augur_model_table_add_column(t, name, v, err);
  else if (augur_model_table_is_factor(t, (size_t)have))
    rc = augur_fail(err, AUGUR_E_ARG, "column '%s' is not numeric (the term %s is)", name, name);
  else
    for (size_t r = 0; r < n && rc == AUGUR_OK; r++) {
      double x = augur_model_table_value(t, (size_t)have, r);
      if (!isnan(x) && !isnan(v[r]) && fabs(x - v[r]) > 1e-6 * fabs(v[r]))
        rc = augur_fail(err, AUGUR_E_ARG,
                        "row %zu: column '%s' is %g, not the term's %g from workload, workers, "
                        "threads",
                        r + 1, name, x, v[r]);
    }
  free(v);
  return rc;
}

int augur_model_table_add_terms(augur_model_table *t, const char *const *names, size_t n,
                                augur_error *err) {
  assert(t && (names || !n));
  int col[3] = {-1, -1, -1}, rc = AUGUR_OK;
  for (size_t i = 0; i < n && rc == AUGUR_OK; i++) {
    augur_model_term tm;
    if (!augur_model_term_parse(names[i], &tm) || augur_model_table_column(t, names[i]) >= 0)
      continue;
    if (col[0] < 0 && (rc = base_columns(t, col, err)) != AUGUR_OK) break;
    rc = add_term(t, col, names[i], tm, err);
  }
  return rc;
}

/* ---- the choice --------------------------------------------------------- */

typedef struct rows {
  size_t n;
  double *y, *w;
  double *term; /* [AUGUR_MODEL_NTERMS][n], each scaled to weighted RMS 1 */
} rows;

/* PRESS of the set S (n terms) on D with scratch X, coef, resid: sum of
 * w_i (e_i / (1 - h_ii))^2, the terms into PART when not NULL; INFINITY when
 * not estimable; NAN without memory. */
static double press(const rows *d, const size_t *s, size_t ns, double *X, double *coef,
                    double *resid, double *part) {
  size_t k = ns + 1, n = d->n;
  if (n <= k) return INFINITY;
  for (size_t i = 0; i < n; i++) {
    X[i * k] = 1;
    for (size_t c = 0; c < ns; c++)
      if (!isfinite(X[i * k + c + 1] = d->term[s[c] * n + i]))
        return INFINITY; /* a term beyond double's range (W^2 of W > 1e154) */
  }
  int rank = model_wls(n, k, X, d->y, d->w, coef, resid);
  if (rank < 0) return NAN;
  if ((size_t)rank < k) return INFINITY;
  double A[k * k], S[k * k];
  memset(A, 0, sizeof A);
  for (size_t i = 0; i < n; i++)
    for (size_t p = 0; p < k; p++)
      for (size_t q = 0; q < k; q++)
        A[p * k + q] += d->w[i] * X[i * k + p] * X[i * k + q];
  if (model_inv_sqrt(k, A, S) != 0) return INFINITY;
  double sum = 0;
  for (size_t i = 0; i < n; i++) {
    double h = 0;
    for (size_t p = 0; p < k; p++) {
      double v = 0;
      for (size_t q = 0; q < k; q++)
        v += S[p * k + q] * X[i * k + q];
      h += v * v;
    }
    h *= d->w[i];
    if (h >= LEVERAGE_MAX) return INFINITY;
    double e = resid[i] / (1 - h);
    sum += d->w[i] * e * e;
    if (part) part[i] = d->w[i] * e * e;
  }
  return sum;
}

/* Keeps SET among R's best (sorted; an equal PRESS does not displace an
 * earlier set: fewer terms, then the family's order). */
static void keep_top(augur_model_terms_result *r, const augur_model_terms_set *set) {
  size_t pos = r->ntop;
  while (pos > 0 && set->press < r->top[pos - 1].press)
    pos--;
  if (pos >= AUGUR_MODEL_TERMS_TOP) return;
  size_t last = r->ntop < AUGUR_MODEL_TERMS_TOP ? r->ntop : AUGUR_MODEL_TERMS_TOP - 1;
  memmove(&r->top[pos + 1], &r->top[pos], (last - pos) * sizeof *r->top);
  r->top[pos] = *set;
  if (r->ntop < AUGUR_MODEL_TERMS_TOP) r->ntop++;
}

/* Reads the rows of T the fit of F would use into D. */
static int rows_read(rows *d, const augur_model_table *t, const augur_model_formula *f,
                     const char *weights, augur_error *err) {
  int col[3], cy, cw = -1;
  if (base_columns(t, col, err) != AUGUR_OK) return AUGUR_E_ARG;
  if ((cy = numeric_column(t, f->response, "the response", err)) < 0) return AUGUR_E_ARG;
  if (weights && (cw = numeric_column(t, weights, "the weights", err)) < 0) return AUGUR_E_ARG;
  int cz[f->npartition ? f->npartition : 1];
  for (size_t z = 0; z < f->npartition; z++)
    if ((cz[z] = augur_model_table_column(t, f->partition[z])) < 0)
      return augur_fail(err, AUGUR_E_ARG, "no column '%s' in the data", f->partition[z]);
  size_t nr = augur_model_table_nrows(t);
  d->y = malloc((nr ? nr : 1) * sizeof *d->y);
  d->w = malloc((nr ? nr : 1) * sizeof *d->w);
  d->term = malloc((nr ? nr : 1) * AUGUR_MODEL_NTERMS * sizeof *d->term);
  double *base = malloc((nr ? nr : 1) * 3 * sizeof *base);
  int rc = AUGUR_OK;
  if (!d->y || !d->w || !d->term || !base) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "terms: out of memory (%zu rows)", nr);
    goto out;
  }
  d->n = 0;
  for (size_t r = 0; r < nr; r++) {
    double y = augur_model_table_value(t, (size_t)cy, r);
    double w = cw >= 0 ? augur_model_table_value(t, (size_t)cw, r) : 1;
    double b[3];
    int keep = !isnan(y) && !isnan(w) && w > 0;
    for (size_t c = 0; c < 3; c++)
      keep = keep && !isnan(b[c] = augur_model_table_value(t, (size_t)col[c], r));
    for (size_t z = 0; z < f->npartition && keep; z++)
      keep = !isnan(augur_model_table_value(t, (size_t)cz[z], r));
    if (!keep) continue;
    if (!(b[0] > 0) || !(b[1] >= 1) || !(b[2] >= 1)) {
      rc = augur_fail(err, AUGUR_E_ARG,
                      "row %zu: workload %g, workers %g, threads %g: the terms need workload > 0 "
                      "and workers, threads >= 1",
                      r + 1, b[0], b[1], b[2]);
      goto out;
    }
    d->y[d->n] = y;
    d->w[d->n] = w;
    memcpy(base + 3 * d->n, b, sizeof b);
    d->n++;
  }
  size_t n = d->n;
  double w0 = NAN, y0 = NAN;
  int wconst = 1, yconst = 1;
  for (size_t i = 0; i < n; i++) {
    if (i == 0) w0 = base[0], y0 = d->y[0];
    wconst &= base[3 * i] == w0;
    yconst &= d->y[i] == y0;
  }
  if (n < 3) {
    rc = augur_fail(err, AUGUR_E_ARG,
                    "--terms auto: %zu usable rows: too few to choose terms (at least 3)", n);
    goto out;
  }
  if (wconst) {
    rc = augur_fail(err, AUGUR_E_ARG,
                    "--terms auto: workload is %g in every usable row: the terms' exponents "
                    "cannot be told apart (sweep at least 2 workloads)",
                    w0);
    goto out;
  }
  if (yconst) {
    rc =
        augur_fail(err, AUGUR_E_ARG, "--terms auto: %s is %g in every usable row: nothing to model",
                   f->response, y0);
    goto out;
  }
  double sw = 0;
  for (size_t i = 0; i < n; i++)
    sw += d->w[i];
  for (size_t c = 0; c < AUGUR_MODEL_NTERMS; c++) {
    augur_model_term tm = augur_model_term_at(c);
    double *v = d->term + c * n, ss = 0;
    for (size_t i = 0; i < n; i++) {
      v[i] = augur_model_term_value(tm, base[3 * i], base[3 * i + 1], base[3 * i + 2]);
      ss += d->w[i] * v[i] * v[i];
    }
    double s = ss > 0 && isfinite(ss) ? sqrt(ss / sw) : 1; /* the hat matrix does not change */
    for (size_t i = 0; i < n; i++)
      v[i] /= s;
  }
out:
  free(base);
  return rc;
}

void augur_model_terms_result_free(augur_model_terms_result *r) {
  if (!r) return;
  free(r->formula);
  memset(r, 0, sizeof *r);
}

/* "RESPONSE ~ names | partitioning part of FORMULA". */
static char *chosen_formula(const char *formula, const char *response,
                            const augur_model_terms_set *s) {
  const char *bar = strchr(formula, '|');
  assert(bar);
  size_t len = strlen(response) + strlen(bar) + 8 + s->n * 32;
  char *out = malloc(len), buf[32];
  if (!out) return NULL;
  int o = snprintf(out, len, "%s ~ ", response);
  if (!s->n) o += snprintf(out + o, len - (size_t)o, "1");
  for (size_t c = 0; c < s->n; c++)
    o += snprintf(out + o, len - (size_t)o, "%s%s", c ? " + " : "",
                  augur_model_term_name(augur_model_term_at(s->term[c]), buf, sizeof buf));
  snprintf(out + o, len - (size_t)o, " %s", bar);
  return out;
}

int augur_model_terms_choose(augur_model_table *t, const char *formula, const char *weights,
                             size_t max_terms, augur_model_terms_result *r, augur_error *err) {
  assert(t && formula && r);
  memset(r, 0, sizeof *r);
  if (max_terms < 1 || max_terms > AUGUR_MODEL_MAX_TERMS)
    return augur_fail(err, AUGUR_E_ARG, "--max-terms must be 1..%d, got %zu", AUGUR_MODEL_MAX_TERMS,
                      max_terms);
  augur_model_formula f;
  int rc = augur_model_formula_parse(&f, formula, err);
  if (rc != AUGUR_OK) return rc;
  rows d = {0};
  double *X = NULL, *coef = NULL, *resid = NULL;
  if (f.nregressors || !f.intercept) {
    rc = augur_fail(err, AUGUR_E_ARG,
                    "--terms auto chooses the regressors: write the formula as '%s ~ 1 | %s...'",
                    f.response, f.npartition ? f.partition[0] : "z");
    goto out;
  }
  if ((rc = rows_read(&d, t, &f, weights, err)) != AUGUR_OK) goto out;
  size_t k = max_terms + 1;
  X = malloc(d.n * k * sizeof *X);
  coef = malloc(k * sizeof *coef);
  resid = malloc(d.n * sizeof *resid);
  if (!X || !coef || !resid) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "terms: out of memory");
    goto out;
  }
  r->nrows = d.n;
  for (size_t ns = 0; ns <= max_terms; ns++)
    r->by_size[ns] = (augur_model_terms_set){.n = ns, .press = INFINITY};
  /* Every set of 0..max_terms terms, by size, then in the family's order. */
  for (size_t ns = 0; ns <= max_terms; ns++) {
    augur_model_terms_set s = {.n = ns};
    for (size_t c = 0; c < ns; c++)
      s.term[c] = c;
    for (;;) {
      s.press = press(&d, s.term, ns, X, coef, resid, NULL);
      if (isnan(s.press)) {
        rc = augur_fail(err, AUGUR_E_NOMEM, "terms: out of memory");
        goto out;
      }
      r->nsets++;
      if (isinf(s.press))
        r->nrejected++;
      else {
        keep_top(r, &s);
        if (s.press < r->by_size[ns].press) r->by_size[ns] = s;
      }
      /* next combination */
      size_t c = ns;
      while (c > 0 && s.term[c - 1] == AUGUR_MODEL_NTERMS - ns + c - 1)
        c--;
      if (c == 0) break;
      s.term[c - 1]++;
      for (size_t e = c; e < ns; e++)
        s.term[e] = s.term[e - 1] + 1;
    }
  }
  if (!r->ntop) {
    rc = augur_fail(err, AUGUR_E_ARG,
                    "--terms auto: no set of terms can be estimated on the %zu usable rows", d.n);
    goto out;
  }
  /* The one-standard-error rule: the fewest terms whose PRESS is within
   * one standard error of the smallest (the standard error of a sum of n
   * leave-one-out terms: sqrt(n) times their standard deviation). */
  double *part = resid; /* scratch no longer needed */
  double *rs = malloc(d.n * sizeof *rs);
  if (!rs) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "terms: out of memory");
    goto out;
  }
  press(&d, r->top[0].term, r->top[0].n, X, coef, rs, part);
  free(rs);
  double mean = r->top[0].press / (double)d.n, var = 0;
  for (size_t i = 0; i < d.n; i++)
    var += (part[i] - mean) * (part[i] - mean);
  r->press_se = sqrt(var / (double)(d.n - 1)) * sqrt((double)d.n);
  size_t ns = 0;
  while (!(r->by_size[ns].press <= r->top[0].press + r->press_se))
    ns++;
  r->chosen = r->by_size[ns];
  int col[3];
  if ((rc = base_columns(t, col, err)) != AUGUR_OK) goto out;
  for (size_t c = 0; c < r->chosen.n; c++) { /* added, or checked when the data has it */
    char buf[32];
    augur_model_term tm = augur_model_term_at(r->chosen.term[c]);
    if ((rc = add_term(t, col, augur_model_term_name(tm, buf, sizeof buf), tm, err)) != AUGUR_OK)
      goto out;
  }
  if (!(r->formula = chosen_formula(formula, f.response, &r->chosen)))
    rc = augur_fail(err, AUGUR_E_NOMEM, "terms: out of memory");
out:
  free(X);
  free(coef);
  free(resid);
  free(d.y);
  free(d.w);
  free(d.term);
  augur_model_formula_free(&f);
  if (rc != AUGUR_OK) augur_model_terms_result_free(r);
  return rc;
}
