/* augur — the seed's analytic model of a master/worker iteration
 * (approach A, seed 002 eq. 3.1; include/augur/microbench.h, docs/model.md
 * "Analytic baseline"):
 *
 *   T_iter = mu_m + lambda_m-w + mu_w + lambda_w-m
 *
 * mu_m the master's own work, lambda_m-w the K sends of the shares one
 * after another, mu_w the last worker's computation (work per element x
 * per-thread elements + the OpenMP overhead Theta(T)), lambda_w-m the last
 * worker's reply. Message costs and Theta come from the [microbench]
 * section (augur calibrate --openmp). */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "augur/microbench.h"

int augur_analytic_bytes(const char *text, const char *what, double out[3], augur_error *err) {
  assert(text && what && out);
  double a[3] = {0, 0, 0};
  const char *p = text;
  int terms = 0;
  for (;;) {
    while (*p == ' ')
      p++;
    double coef = 1;
    int have = 0;
    if ((*p >= '0' && *p <= '9') || *p == '.') {
      char *end;
      errno = 0;
      coef = strtod(p, &end);
      if (errno || !isfinite(coef) || coef < 0) break;
      p = end;
      have = 1;
      while (*p == ' ')
        p++;
      if (*p != '*') {
        a[0] += coef;
        goto next;
      }
      p++;
      while (*p == ' ')
        p++;
    }
    if (*p != 'W') break;
    p++;
    while (*p == ' ')
      p++;
    if (!strncmp(p, "/workers", 8)) {
      a[2] += coef;
      p += 8;
    } else {
      a[1] += coef;
    }
    have = 1;
  next:
    if (!have) break;
    terms++;
    while (*p == ' ')
      p++;
    if (*p == '+') {
      p++;
      continue;
    }
    if (!*p) {
      memcpy(out, a, sizeof a);
      return AUGUR_OK;
    }
    break;
  }
  return augur_fail(err, AUGUR_E_ARG,
                    "%s: expected bytes as a sum of NUMBER, NUMBER*W and NUMBER*W/workers terms "
                    "(e.g. 32*W or 16*W+8), got '%s'",
                    what, text);
}

double augur_analytic_omp(const augur_microbench *b, long threads) {
  assert(b);
  if (threads < 1 || threads > AUGUR_MB_MAX_THREADS) return -1;
  size_t i = (size_t)threads - 1;
  if (b->parallel[i] < 0 || b->forloop[i] < 0) return -1;
  return b->parallel[i] + b->forloop[i];
}

/* The per-thread work elements x = W^e / (K T). */
static double elements(const augur_analytic_app *app, double w, long k, long t) {
  return (app->power == 2 ? w * w : w) / ((double)k * (double)t);
}

static int no_threads(const augur_microbench *b, long t, augur_error *err) {
  long lo = 0, hi = 0;
  for (long i = 1; i <= AUGUR_MB_MAX_THREADS; i++)
    if (augur_analytic_omp(b, i) >= 0) {
      if (!lo) lo = i;
      hi = i;
    }
  return augur_fail(err, AUGUR_E_ARG,
                    "%ld threads: the machine model's [microbench] has no OpenMP figures for it "
                    "(measured %ld..%ld; run `augur calibrate --openmp` on a machine with more "
                    "cores)",
                    t, lo, hi);
}

int augur_analytic_calibrate(augur_analytic_app *app, const augur_microbench *b, double w, long k,
                             long t, double t_comp_worker, double t_iter, augur_error *err) {
  assert(app && b && (app->power == 1 || app->power == 2) && b->nsizes >= 2);
  assert(w > 0 && k >= 1 && t >= 1);
  double theta = augur_analytic_omp(b, t);
  if (theta < 0) return no_threads(b, t, err);
  if (!(isfinite(t_comp_worker) && t_comp_worker >= 0 && isfinite(t_iter) && t_iter >= 0))
    return augur_fail(err, AUGUR_E_ARG,
                      "the calibration run has no worker computation time and T_iter "
                      "(t_comp_worker %g, t_iter %g)",
                      t_comp_worker, t_iter);
  if (t_comp_worker <= theta)
    return augur_fail(err, AUGUR_E_ARG,
                      "the calibration run's worker computation (%g s per iteration) is not more "
                      "than the OpenMP overhead of %ld threads (%g s): no work per element to fit",
                      t_comp_worker, t, theta);
  app->per_element = (t_comp_worker - theta) / elements(app, w, k, t);
  app->master = 0;
  augur_analytic_terms x;
  int rc = augur_analytic_eval(app, b, w, k, t, &x, err);
  if (rc != AUGUR_OK) return rc;
  /* The rest of the calibration run's iteration is the master's */
  app->master = t_iter > x.t_iter ? t_iter - x.t_iter : 0;
  return AUGUR_OK;
}

int augur_analytic_eval(const augur_analytic_app *app, const augur_microbench *b, double w, long k,
                        long t, augur_analytic_terms *out, augur_error *err) {
  assert(app && b && out && b->nsizes >= 2);
  assert(w > 0 && k >= 1 && t >= 1);
  double theta = augur_analytic_omp(b, t);
  if (theta < 0) return no_threads(b, t, err);
  double send = app->send[0] + app->send[1] * w + app->send[2] * w / (double)k;
  double recv = app->recv[0] + app->recv[1] * w + app->recv[2] * w / (double)k;
  if (!(send >= 0 && recv >= 0))
    return augur_fail(err, AUGUR_E_ARG, "message bytes at W=%g, %ld workers: send %g, reply %g", w,
                      k, send, recv);
  out->master = app->master;
  out->sends = (double)k * augur_mb_message(b, send);
  out->compute = app->per_element * elements(app, w, k, t);
  out->omp = theta;
  out->reply = augur_mb_message(b, recv);
  out->t_iter = out->master + out->sends + out->compute + out->omp + out->reply;
  return AUGUR_OK;
}
