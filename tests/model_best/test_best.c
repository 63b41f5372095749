/* Unit tests of augur_best_search (include/augur/model_best.h) on a tree
 * built in memory whose leaves hold the true model of synth.py:
 * T = A + B*W/(workers*threads) + C*workers + D*threads. The training table
 * is the grid synth.py trains on (10 configurations x 4 workloads). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/model_best.h"

#define A 0.002
#define B 1e-5
#define C 1e-3
#define D 1.5e-3

/* |A - B| <= TOL * |B|. */
static int near(double a, double b, double tol) {
  return fabs(a - b) <= tol * fabs(b);
}
#define NEAR(a, b, tol) assert_true(near((a), (b), (tol)))

static double truth(double w, double wk, double thr) {
  return A + B * w / (wk * thr) + C * wk + D * thr;
}

static const int configs[][2] = {{1, 1}, {1, 2}, {1, 4}, {1, 8}, {2, 1},
                                 {2, 2}, {2, 4}, {4, 1}, {4, 2}, {8, 1}};
#define NCONF (sizeof configs / sizeof configs[0])
static const double workloads[] = {1000, 2000, 4000, 8000};

/* The training table: workload, workers, threads, w1, t_comm (a measured
 * column that differs run to run), t_iter; REPS runs of each. */
static augur_model_table *table(int reps) {
  static char text[1 << 16];
  size_t len = (size_t)snprintf(text, sizeof text, "workload,workers,threads,w1,t_comm,t_iter\n");
  int k = 0;
  for (size_t i = 0; i < 4; i++)
    for (size_t c = 0; c < NCONF; c++)
      for (int r = 0; r < reps; r++) {
        double w = workloads[i], wk = configs[c][0], thr = configs[c][1];
        len += (size_t)snprintf(text + len, sizeof text - len, "%g,%g,%g,%.9g,%g,%.9g\n", w, wk,
                                thr, w / (wk * thr), 0.001 * ++k, truth(w, wk, thr));
      }
  augur_model_table *t = NULL;
  augur_error err = {0};
  assert_int_equal(augur_model_table_parse(&t, "synth", text, len, &err), AUGUR_OK);
  return t;
}

/* Variables: w1, workers, threads, workload (the last only splits). */
static char *names[] = {"w1", "workers", "threads", "workload", "t_comm"};
static char *coef_names[] = {"(Intercept)", "w1", "workers", "threads", "t_comm"};
static int coef_var[] = {-1, 0, 1, 2, 4};
static int partition[] = {3, 1, 2};
static augur_model_var vars[5];
static double coef[3][5];
static augur_model_node nodes[3];
static augur_model model;

/* One leaf (SPLIT 0), or a split at workers <= 2 into two leaves whose
 * rows are the training rows of each side. USE_COMM: the leaves also read
 * t_comm (with coefficient 0). */
static const augur_model *tree(int split, int reps, int use_comm) {
  memset(&model, 0, sizeof model);
  memset(nodes, 0, sizeof nodes);
  for (size_t v = 0; v < 5; v++)
    vars[v] = (augur_model_var){.name = names[v]};
  model.response = "t_iter";
  model.nvars = use_comm ? 5 : 4;
  model.vars = vars;
  model.k = use_comm ? 5 : 4;
  model.coef_names = coef_names;
  model.coef_var = coef_var;
  model.npartition = 3;
  model.partition = partition;
  model.nnodes = split ? 3 : 1;
  model.nodes = nodes;
  double sigma2 = 1e-8; /* s = 1e-4 s */
  size_t left = 0;
  for (size_t c = 0; c < NCONF; c++)
    left += configs[c][0] <= 2 ? 4 * (size_t)reps : 0;
  for (int i = 0; i < 3; i++) {
    double b[] = {A, B, C, D, 0};
    memcpy(coef[i], b, sizeof b);
    nodes[i] = (augur_model_node){.id = i + 1,
                                  .depth = i ? 2 : 1,
                                  .parent = i ? 1 : 0,
                                  .split_var = -1,
                                  .coef = coef[i],
                                  .rank = (int)model.k,
                                  .sigma2 = sigma2};
  }
  size_t n = NCONF * 4 * (size_t)reps;
  nodes[0].nrows = n;
  if (split) {
    nodes[0].split_var = 1;
    nodes[0].split_point = 2;
    nodes[0].left = 2;
    nodes[0].right = 3;
    nodes[1].nrows = left;
    nodes[2].nrows = n - left;
  }
  for (int i = 0; i < 3; i++)
    nodes[i].nobs = (double)nodes[i].nrows;
  return &model;
}

static augur_best_options opts(double w, long cores) {
  augur_best_options o;
  augur_best_options_default(&o);
  o.workload = w;
  o.cores = cores;
  o.max_workers = cores;
  return o;
}

/* The best of the trained configurations for W on CORES, by brute force. */
static void true_best(double w, long cores, int *wk, int *thr) {
  double best = HUGE_VAL;
  for (size_t c = 0; c < NCONF; c++) {
    double t = truth(w, configs[c][0], configs[c][1]);
    if (configs[c][0] * configs[c][1] <= cores && t < best) {
      best = t;
      *wk = configs[c][0];
      *thr = configs[c][1];
    }
  }
}

static int trained(long wk, long thr) {
  for (size_t c = 0; c < NCONF; c++)
    if (configs[c][0] == wk && configs[c][1] == thr) return 1;
  return 0;
}

static void finds_true_best(void **state) {
  (void)state;
  augur_model_table *t = table(3);
  for (int split = 0; split <= 1; split++)
    for (long cores = 1; cores <= 8; cores++) {
      const augur_model *m = tree(split, 3, 0);
      augur_best_options o = opts(3000, cores);
      augur_best_result r;
      augur_error err = {0};
      if (augur_best_search(m, t, &o, &r, &err) != AUGUR_OK) fail_msg("%s", err.msg);
      int wk = 0, thr = 0;
      true_best(3000, cores, &wk, &thr);
      assert_int_equal(r.configs[0].out, 0);
      assert_int_equal(r.configs[0].workers, wk);
      assert_int_equal(r.configs[0].threads, thr);
      double tt = truth(3000, wk, thr);
      assert_true(r.configs[0].lo < tt && tt < r.configs[0].hi);
      /* t(0.95, 116) * 1e-4 * sqrt(1 + h): a little over 1.98e-4 */
      double half = (r.configs[0].hi - r.configs[0].lo) / 2;
      assert_true(half > 1.98e-4 && half < 2.5e-4);
      int seen_out = 0;
      for (size_t i = 0; i < r.nconfigs; i++) {
        const augur_best_config *c = &r.configs[i];
        assert_true(c->workers * c->threads <= cores);
        assert_int_equal(!trained(c->workers, c->threads), !!(c->out & AUGUR_BEST_OUT_UNTRIED));
        if (c->out)
          seen_out = 1;
        else
          assert_false(seen_out); /* flagged ones after the others */
        if (split) assert_int_equal(c->node, c->workers <= 2 ? 2 : 3);
      }
      /* every admissible workers x threads, 1..cores each */
      size_t adm = 0;
      for (long a = 1; a <= cores; a++)
        for (long b = 1; b <= cores; b++)
          adm += a * b <= cores;
      assert_int_equal(r.nconfigs, adm);
      augur_best_result_free(&r);
    }
  augur_model_table_free(t);
}

/* W beyond the training workloads: every configuration flagged. */
/* x0' (X'X)^-1 x0 over the one-leaf training rows (REPS runs each), by
 * Gaussian elimination on the normal equations: regressors 1, w1, workers,
 * threads. */
static double leverage_by_hand(double w, double wk, double thr, int reps) {
  double a[4][5] = {{0}}, x0[4] = {1, w / (wk * thr), wk, thr};
  for (size_t i = 0; i < 4; i++)
    for (size_t c = 0; c < NCONF; c++) {
      double z[4] = {1, workloads[i] / (configs[c][0] * configs[c][1]), configs[c][0],
                     configs[c][1]};
      for (int p = 0; p < 4; p++)
        for (int q = 0; q < 4; q++)
          a[p][q] += reps * z[p] * z[q];
    }
  for (int p = 0; p < 4; p++)
    a[p][4] = x0[p];
  for (int p = 0; p < 4; p++) /* solve (X'X) u = x0 */
    for (int q = 0; q < 4; q++) {
      if (q == p) continue;
      double f = a[q][p] / a[p][p];
      for (int c = p; c < 5; c++)
        a[q][c] -= f * a[p][c];
    }
  double h = 0;
  for (int p = 0; p < 4; p++)
    h += x0[p] * a[p][4] / a[p][p];
  return h;
}

/* The interval: t(0.95, n - 4) * s * sqrt(1 + h), h exact with the data and
 * the mean leverage 4 / n without. */
static void interval_by_hand(void **state) {
  (void)state;
  augur_model_table *t = table(3);
  augur_best_options o = opts(3000, 8);
  augur_best_result r;
  for (int data = 0; data <= 1; data++) {
    assert_int_equal(augur_best_search(tree(0, 3, 0), data ? t : NULL, &o, &r, NULL), AUGUR_OK);
    for (size_t i = 0; i < r.nconfigs; i++) {
      const augur_best_config *c = &r.configs[i];
      double h =
          data ? leverage_by_hand(3000, (double)c->workers, (double)c->threads, 3) : 4.0 / 120;
      double half = augur_t_quantile(0.95, 116) * 1e-4 * sqrt(1 + h);
      assert_true(fabs((c->hi - c->lo) / 2 - half) < 1e-9 * half);
      assert_true(fabs((c->hi + c->lo) / 2 - c->t_iter) < 1e-12);
    }
    assert_int_equal(r.range_checked, data);
    augur_best_result_free(&r);
  }
  augur_model_table_free(t);
}

/* A leaf too noisy for its prediction (s = 0.1 s against T_iter of ms):
 * the interval's lower end is 0, not a negative time; its upper end is
 * still T_iter + half. */
static void interval_cut_at_zero(void **state) {
  (void)state;
  tree(0, 3, 0);
  nodes[0].sigma2 = 1e-2;
  augur_best_options o = opts(3000, 8);
  augur_best_result r;
  assert_int_equal(augur_best_search(&model, NULL, &o, &r, NULL), AUGUR_OK);
  assert_true(r.nconfigs > 0);
  for (size_t i = 0; i < r.nconfigs; i++) {
    const augur_best_config *c = &r.configs[i];
    double half = augur_t_quantile(0.95, 116) * 0.1 * sqrt(1 + 4.0 / 120);
    assert_true(c->t_iter < half);
    assert_true(c->lo == 0);
    assert_true(fabs(c->hi - (c->t_iter + half)) < 1e-9 * half);
  }
  augur_best_result_free(&r);
}

static const char *runs_csv; /* argv[1]: tests/model_best/runs.csv */

/* R's lm on runs.csv and predict.lm's prediction intervals (interval.R):
 * best's interval for a one-leaf tree with R's coefficients equals them. */
static void interval_matches_r(void **state) {
  (void)state;
  augur_model_table *t = NULL;
  augur_error err = {0};
  if (augur_model_table_read(&t, runs_csv, &err) != AUGUR_OK) fail_msg("%s", err.msg);
  tree(0, 3, 0);
  double b[] = {0.00200249975323174, 1.0024817187070893e-05, 0.0010044623220719752,
                0.0014921563281301755};
  memcpy(coef[0], b, sizeof b);
  nodes[0].sigma2 = 6.9181619466969288e-08;
  static const double r[][5] = {{4, 2, 0.0127639681429316, 0.0122394650606156, 0.0132884712252475},
                                {3, 1, 0.0165328602346487, 0.016007943166477, 0.0170577773028205},
                                {8, 1, 0.0152896611030893, 0.0147520333702951, 0.0158272888358835}};
  augur_best_options o = opts(3000, 8);
  augur_best_result res;
  if (augur_best_search(&model, t, &o, &res, &err) != AUGUR_OK) fail_msg("%s", err.msg);
  for (size_t k = 0; k < 3; k++) {
    size_t i = 0;
    while (i < res.nconfigs &&
           (res.configs[i].workers != (long)r[k][0] || res.configs[i].threads != (long)r[k][1]))
      i++;
    assert_true(i < res.nconfigs);
    NEAR(res.configs[i].t_iter, r[k][2], 1e-12);
    NEAR(res.configs[i].lo, r[k][3], 1e-12);
    NEAR(res.configs[i].hi, r[k][4], 1e-12);
  }
  augur_best_result_free(&res);
  augur_model_table_free(t);
}

static void flags_extrapolation(void **state) {
  (void)state;
  augur_model_table *t = table(1);
  augur_best_options o = opts(20000, 8);
  augur_best_result r;
  assert_int_equal(augur_best_search(tree(0, 1, 0), t, &o, &r, NULL), AUGUR_OK);
  for (size_t i = 0; i < r.nconfigs; i++) {
    assert_true(r.configs[i].out & AUGUR_BEST_OUT_WORKLOAD);
    /* w1 above its training maximum 8000 (1 x 1, 1 x 2, 2 x 1); workload is
     * not named again among the variables */
    int w1_out = 20000.0 / (double)(r.configs[i].workers * r.configs[i].threads) > 8000;
    assert_int_equal(!!(r.configs[i].out & AUGUR_BEST_OUT_RANGE), w1_out);
  }
  assert_true(r.range_checked && r.wmin == 1000 && r.wmax == 8000);
  augur_best_result_free(&r);
  /* Inside the workloads but w1 below its training minimum (125): 3000/64. */
  o = opts(3000, 64);
  o.max_workers = 8;
  assert_int_equal(augur_best_search(tree(0, 1, 0), t, &o, &r, NULL), AUGUR_OK);
  for (size_t i = 0; i < r.nconfigs; i++)
    if (3000.0 / (double)(r.configs[i].workers * r.configs[i].threads) < 125)
      assert_string_equal(r.configs[i].out_var, "w1");
  augur_best_result_free(&r);
  augur_model_table_free(t);
}

/* Two placements, the model splits on places: "spread" costs 2 ms more. */
static void chooses_placement(void **state) {
  (void)state;
  static char text[1 << 14];
  size_t len = (size_t)snprintf(text, sizeof text, "workload,workers,threads,places,w1,t_iter\n");
  for (size_t i = 0; i < 4; i++)
    for (size_t c = 0; c < NCONF; c++)
      for (int pl = 0; pl < 2; pl++) {
        double w = workloads[i], wk = configs[c][0], thr = configs[c][1];
        len += (size_t)snprintf(text + len, sizeof text - len, "%g,%g,%g,%s,%.9g,%.9g\n", w, wk,
                                thr, pl ? "spread" : "close", w / (wk * thr),
                                truth(w, wk, thr) + 0.002 * pl);
      }
  augur_model_table *t = NULL;
  assert_int_equal(augur_model_table_parse(&t, "placed", text, len, NULL), AUGUR_OK);
  static char *levels[] = {"close", "spread"};
  static signed char sides[] = {1, 2};
  tree(1, 1, 0);
  vars[3] = (augur_model_var){.name = "places", .is_factor = 1, .nlevels = 2, .levels = levels};
  nodes[0].split_var = 3;
  nodes[0].split_levels = sides;
  nodes[1].nrows = nodes[2].nrows = NCONF * 4;
  nodes[1].nobs = nodes[2].nobs = NCONF * 4;
  coef[2][0] += 0.002;
  augur_best_options o = opts(3000, 8);
  augur_best_result r;
  augur_error err = {0};
  if (augur_best_search(&model, t, &o, &r, &err) != AUGUR_OK) fail_msg("%s", err.msg);
  assert_int_equal(r.nplacements, 2);
  char b[64];
  assert_string_equal(augur_best_placement(&r, r.configs[0].placement, b, sizeof b), "close/-");
  assert_int_equal(r.configs[0].workers, 4);
  assert_int_equal(r.configs[0].threads, 2);
  size_t spread = 0;
  for (size_t i = 0; i < r.nconfigs; i++) {
    const augur_best_config *c = &r.configs[i];
    int is_spread = !strcmp(r.places[c->placement], "spread");
    spread += (size_t)is_spread;
    assert_int_equal(c->node, is_spread ? 3 : 2);
  }
  assert_int_equal(spread * 2, r.nconfigs);
  augur_best_result_free(&r);
  /* A model that does not read the placement: each configuration once. */
  if (augur_best_search(tree(0, 2, 0), t, &o, &r, &err) != AUGUR_OK) fail_msg("%s", err.msg);
  assert_int_equal(r.nconfigs, 20); /* workers x threads <= 8 */
  for (size_t i = 0; i < r.nconfigs; i++)
    assert_int_equal(r.configs[i].placement, -1);
  augur_best_result_free(&r);
  augur_model_table_free(t);
}

static void refuses(void **state) {
  (void)state;
  augur_model_table *t = table(2), *t1 = table(1);
  augur_best_result r;
  augur_error err = {0};
  augur_best_options o = opts(0, 8);
  assert_int_equal(augur_best_search(tree(0, 2, 0), t, &o, &r, &err), AUGUR_E_ARG);
  o = opts(3000, 0);
  assert_int_equal(augur_best_search(tree(0, 2, 0), t, &o, &r, &err), AUGUR_E_ARG);
  o = opts(3000, 8);
  o.objective = AUGUR_BEST_EINDEX;
  assert_int_equal(augur_best_search(tree(0, 2, 0), t, &o, &r, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "T_c"));
  /* Not the model's data: the leaf says 80 rows, the table has 40. */
  o = opts(3000, 8);
  assert_int_equal(augur_best_search(tree(0, 2, 0), t1, &o, &r, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "not the model's training data"));
  /* A measured column: best cannot choose it. */
  assert_int_equal(augur_best_search(tree(0, 2, 1), t, &o, &r, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "t_comm"));
  /* ... and without the data, it says the model needs it. */
  assert_int_equal(augur_best_search(tree(0, 2, 1), NULL, &o, &r, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "--data"));
  augur_model_table_free(t);
  augur_model_table_free(t1);
}

int main(int argc, char **argv) {
  runs_csv = argc > 1 ? argv[1] : "runs.csv";
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(finds_true_best),
      cmocka_unit_test(interval_by_hand),
      cmocka_unit_test(interval_cut_at_zero),
      cmocka_unit_test(interval_matches_r),
      cmocka_unit_test(flags_extrapolation),
      cmocka_unit_test(chooses_placement),
      cmocka_unit_test(refuses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
