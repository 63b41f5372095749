/* augur — observation weights for the MOB fit (include/augur/model_best.h):
 * the seed's integer weights (eq. 4.5-4.6) and augur's 1 / sigma^2 weights
 * from the spread of repeated runs, and Student's t quantile for the
 * prediction intervals of `augur model best`. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "augur/model_best.h"
#include "stats.h"

#define PI 3.14159265358979323846

int augur_model_weights_seed(const double *y, size_t n, double *w, augur_error *err) {
  assert(y && w && n > 0);
  double max = -HUGE_VAL;
  for (size_t i = 0; i < n; i++) {
    if (isnan(y[i])) continue;
    if (!isfinite(y[i]) || y[i] <= 0)
      return augur_fail(err, AUGUR_E_ARG, "row %zu: seed weights need a time > 0, got %g", i + 1,
                        y[i]);
    double l = log2(y[i] * 1e4);
    if (l > max) max = l;
  }
  if (isinf(max)) return augur_fail(err, AUGUR_E_ARG, "no row has a time to weight");
  for (size_t i = 0; i < n; i++)
    w[i] = isnan(y[i]) ? NAN : floor(max - log2(y[i] * 1e4) + 1 + 0.5);
  return AUGUR_OK;
}

int augur_model_weights_relative(const double *y, size_t n, double *w, augur_error *err) {
  assert(y && w && n > 0);
  double sum = 0;
  size_t nk = 0;
  for (size_t i = 0; i < n; i++) {
    if (isnan(y[i])) continue;
    if (!isfinite(y[i]) || y[i] <= 0)
      return augur_fail(err, AUGUR_E_ARG, "row %zu: relative weights need a time > 0, got %g",
                        i + 1, y[i]);
    sum += 1 / (y[i] * y[i]);
    nk++;
  }
  if (!nk) return augur_fail(err, AUGUR_E_ARG, "no row has a time to weight");
  if (!isfinite(sum)) /* a time so small that 1 / y^2 overflows */
    return augur_fail(err, AUGUR_E_ARG,
                      "relative weights: a time too close to 0 (1 / y^2 overflows)");
  for (size_t i = 0; i < n; i++)
    w[i] = isnan(y[i]) ? NAN : (double)nk / (y[i] * y[i] * sum);
  return AUGUR_OK;
}

static const size_t *sort_group; /* qsort has no context argument */

static int by_group(const void *a, const void *b) {
  size_t ga = sort_group[*(const size_t *)a], gb = sort_group[*(const size_t *)b];
  if (ga != gb) return ga < gb ? -1 : 1;
  return *(const size_t *)a < *(const size_t *)b ? -1 : *(const size_t *)a > *(const size_t *)b;
}

/* The floor of the relative sigmas REL[0..M): their median, the smallest
 * positive one when that is 0, 0 when none is positive. Sorts REL. */
static double rel_floor(double *rel, size_t m) {
  double med = aug_median(rel, m);
  if (med > 0) return med;
  for (size_t i = 0; i < m; i++)
    if (rel[i] > 0) return rel[i];
  return 0;
}

int augur_model_weights_variance(const double *y, const size_t *group, const double *sd,
                                 const double *iters, size_t n, double *w, augur_weights_info *info,
                                 augur_error *err) {
  assert(y && group && w && n > 0);
  augur_weights_info dummy;
  if (!info) info = &dummy;
  *info = (augur_weights_info){0};
  size_t nk = 0; /* rows with a time */
  for (size_t i = 0; i < n; i++) {
    if (isnan(y[i])) continue;
    if (!isfinite(y[i]) || y[i] <= 0)
      return augur_fail(err, AUGUR_E_ARG, "row %zu: variance weights need a time > 0, got %g",
                        i + 1, y[i]);
    nk++;
  }
  if (!nk) return augur_fail(err, AUGUR_E_ARG, "no row has a time to weight");
  size_t *ix = malloc(n * sizeof *ix);
  double *rel = malloc(n * sizeof *rel); /* sigma / T_iter, one per configuration */
  double *mu = malloc(n * sizeof *mu);   /* the configuration's mean T_iter, per row */
  if (!ix || !rel || !mu) {
    free(ix);
    free(rel);
    free(mu);
    return augur_fail(err, AUGUR_E_NOMEM, "variance weights: out of memory (%zu rows)", n);
  }
  for (size_t i = 0, k = 0; i < n; i++) {
    w[i] = NAN;
    if (!isnan(y[i])) ix[k++] = i;
  }
  sort_group = group;
  qsort(ix, nk, sizeof *ix, by_group);
  size_t m = 0;
  int rc = AUGUR_OK;
  for (size_t a = 0, b; a < nk && rc == AUGUR_OK; a = b) { /* rows ix[a..b) share a group */
    double sum = 0, ss = 0;
    for (b = a; b < nk && group[ix[b]] == group[ix[a]]; b++)
      sum += y[ix[b]];
    size_t r = b - a;
    double mean = sum / (double)r;
    if (r >= 2) {
      for (size_t k = a; k < b; k++)
        ss += (y[ix[k]] - mean) * (y[ix[k]] - mean);
      double s = sqrt(ss / (double)(r - 1));
      for (size_t k = a; k < b; k++) {
        w[ix[k]] = s; /* sigma for now */
        mu[ix[k]] = mean;
      }
      info->from_reps += r;
      rel[m++] = s / mean;
      continue;
    }
    size_t i = ix[a];
    if (!sd || !iters || !isfinite(sd[i]) || sd[i] < 0 || !isfinite(iters[i]) || iters[i] < 2) {
      rc = augur_fail(err, AUGUR_E_ARG,
                      "row %zu: one run of its configuration and no t_iter_sd over >= 2 "
                      "iterations: variance weights need repetitions or t_iter_sd",
                      i + 1);
      break;
    }
    w[i] = sd[i] / sqrt(iters[i]);
    mu[i] = y[i];
    info->from_sd++;
    rel[m++] = w[i] / y[i];
  }
  if (rc == AUGUR_OK) {
    double r = rel_floor(rel, m), sum = 0;
    info->floor_rel = r;
    for (size_t k = 0; k < nk; k++) {
      size_t i = ix[k];
      double s = w[i];
      if (r > 0 && s < r * mu[i]) {
        s = r * mu[i];
        info->floored++;
      }
      w[i] = r > 0 ? 1 / (s * s) : 1;
      sum += w[i];
    }
    double lo = HUGE_VAL, hi = 0;
    for (size_t k = 0; k < nk; k++) {
      size_t i = ix[k];
      w[i] *= (double)nk / sum;
      if (w[i] < lo) lo = w[i];
      if (w[i] > hi) hi = w[i];
    }
    info->max_ratio = hi / lo;
  }
  free(ix);
  free(rel);
  free(mu);
  return rc;
}

/* P(|T| <= T) for Student's t with DF (whole, >= 1) degrees of freedom:
 * Abramowitz & Stegun 26.7.3 (odd DF) and 26.7.4 (even DF). */
static double t_central(double t, long df) {
  double th = atan(t / sqrt((double)df)), c2 = cos(th) * cos(th), s = sin(th);
  double term = 1, sum = 1;
  if (df % 2 == 0) {
    for (long k = 2; k <= df - 2; k += 2) {
      term *= c2 * (double)(k - 1) / (double)k;
      sum += term;
    }
    return s * sum;
  }
  if (df == 1) return 2 * th / PI;
  sum = cos(th);
  term = cos(th);
  for (long k = 3; k <= df - 2; k += 2) {
    term *= c2 * (double)(k - 1) / (double)k;
    sum += term;
  }
  return 2 / PI * (th + s * sum);
}

double augur_t_quantile(double level, long df) {
  assert(level > 0 && level < 1 && df >= 1);
  double lo = 0, hi = 1;
  while (t_central(hi, df) < level)
    hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    double mid = 0.5 * (lo + hi);
    if (t_central(mid, df) < level)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}
