/* Unit tests of the observation weights and Student's t quantile
 * (include/augur/model_best.h), on cases computed by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "augur/model_best.h"

/* |A - B| <= TOL, relative when |B| > 1. */
static int near(double a, double b, double tol) {
  return fabs(a - b) <= tol * (fabs(b) > 1 ? fabs(b) : 1);
}
#define NEAR(a, b, tol) assert_true(near((a), (b), (tol)))

/* y = 1, 2, 8 ms: log2(y * 1e4) = 3.32, 4.32, 6.32; w = M - l + 1 = 4, 3, 1. */
static void seed_powers_of_two(void **state) {
  (void)state;
  double y[] = {0.001, 0.002, 0.008}, w[3];
  augur_error err = {0};
  assert_int_equal(augur_model_weights_seed(y, 3, w, &err), AUGUR_OK);
  assert_true(w[0] == 4 && w[1] == 3 && w[2] == 1);
}

/* Rounding: log2(3) + 1 = 2.58 -> 3; log2(2.5) + 1 = 2.32 -> 2; the longest 1. */
static void seed_rounds_to_nearest(void **state) {
  (void)state;
  double y[] = {1, 3}, y2[] = {1, 2.5}, w[2];
  assert_int_equal(augur_model_weights_seed(y, 2, w, NULL), AUGUR_OK);
  assert_true(w[0] == 3 && w[1] == 1);
  assert_int_equal(augur_model_weights_seed(y2, 2, w, NULL), AUGUR_OK);
  assert_true(w[0] == 2 && w[1] == 1);
}

static void seed_refuses_nonpositive(void **state) {
  (void)state;
  double y[] = {1, 0, 2}, yn[] = {1, NAN}, w[3];
  augur_error err = {0};
  assert_int_equal(augur_model_weights_seed(y, 3, w, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "row 2"));
  double inf[] = {1, INFINITY}, none[] = {NAN, NAN};
  assert_int_equal(augur_model_weights_seed(inf, 2, w, &err), AUGUR_E_ARG);
  assert_int_equal(augur_model_weights_seed(none, 2, w, &err), AUGUR_E_ARG);
  /* A missing time gets no weight and no say in the maximum. */
  assert_int_equal(augur_model_weights_seed(yn, 2, w, &err), AUGUR_OK);
  assert_true(w[0] == 1 && isnan(w[1]));
}

/* Three configurations of two runs, relative spreads 0.1286, 0.0070, 0.1286:
 * the floor is the median 0.1286, so B (too lucky) is raised to it and every
 * sigma is 0.1286 * its mean: w ~ 1 / mean^2, scaled to sum 6. */
static void variance_by_hand(void **state) {
  (void)state;
  double y[] = {1.0, 2.0, 3.0, 1.2, 2.02, 3.6}, w[6];
  size_t g[] = {0, 1, 2, 0, 1, 2};
  augur_weights_info info;
  augur_error err = {0};
  assert_int_equal(augur_model_weights_variance(y, g, NULL, NULL, 6, w, &info, &err), AUGUR_OK);
  double m[] = {1.1, 2.01, 3.3}, sum = 0;
  for (int i = 0; i < 3; i++)
    sum += 2 / (m[i] * m[i]);
  for (int i = 0; i < 6; i++)
    NEAR(w[i], 6 / sum / (m[i % 3] * m[i % 3]), 1e-9);
  NEAR(info.floor_rel, sqrt(0.02) / 1.1, 1e-12);
  assert_int_equal(info.from_reps, 6);
  assert_int_equal(info.from_sd, 0);
  assert_int_equal(info.floored, 2); /* B's two rows */
}

/* Equal means; C is 20x noisier than A and B, D had two identical runs.
 * C is weighted down by (sigma_A / sigma_C)^2 = 1/400; D, floored at the
 * median spread, weighs what A does, not more. */
static void variance_downweights_noise(void **state) {
  (void)state;
  double y[] = {1.00, 1.02, 1.00, 1.02, 0.80, 1.20, 1.01, 1.01}, w[8];
  size_t g[] = {0, 0, 1, 1, 2, 2, 3, 3};
  augur_weights_info info;
  assert_int_equal(augur_model_weights_variance(y, g, NULL, NULL, 8, w, &info, NULL), AUGUR_OK);
  double sa = sqrt(0.0002), sc = sqrt(0.08);
  NEAR(w[4] / w[0], (sa * sa) / (sc * sc), 1e-9);
  NEAR(w[6] / w[0], 1.0, 1e-9); /* D: mean 1.01 like A, sigma floored to A's */
  double sum = 0;
  for (int i = 0; i < 8; i++)
    sum += w[i];
  NEAR(sum, 8, 1e-12);
  NEAR(info.max_ratio, 400, 1e-9);
}

/* One run per configuration: sigma = t_iter_sd / sqrt(iterations). */
static void variance_from_sd(void **state) {
  (void)state;
  double y[] = {2, 2, 2}, sd[] = {0.2, 0.4, 0.2}, it[] = {4, 4, 16}, w[3];
  size_t g[] = {0, 1, 2};
  augur_weights_info info;
  assert_int_equal(augur_model_weights_variance(y, g, sd, it, 3, w, &info, NULL), AUGUR_OK);
  /* sigma 0.1, 0.2, 0.05: the median 0.1 floors the third to 0.1. */
  assert_int_equal(info.from_sd, 3);
  NEAR(w[0] / w[1], 4, 1e-9);
  NEAR(w[2] / w[0], 1, 1e-9);
  assert_int_equal(info.floored, 1);
}

static void variance_needs_spread(void **state) {
  (void)state;
  double y[] = {1, 1.1, 2}, w[3];
  size_t g[] = {0, 0, 1};
  augur_error err = {0};
  assert_int_equal(augur_model_weights_variance(y, g, NULL, NULL, 3, w, NULL, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "row 3"));
  double same[] = {1, 1, 2, 2}, w4[4];
  size_t g4[] = {0, 0, 1, 1};
  augur_weights_info info;
  assert_int_equal(augur_model_weights_variance(same, g4, NULL, NULL, 4, w4, &info, NULL),
                   AUGUR_OK);
  for (int i = 0; i < 4; i++) /* no spread anywhere: equal weights */
    NEAR(w4[i], 1, 1e-12);
}

/* y = 1, 2, 4 (and a missing one): 1 / y^2 = 1, 1/4, 1/16, sum 21/16, scaled
 * to sum 3 (the rows with a time): 48/21, 12/21, 3/21; the missing row NaN. */
static void relative_by_hand(void **state) {
  (void)state;
  double y[] = {1, 2, NAN, 4}, w[4];
  augur_error err = {0};
  assert_int_equal(augur_model_weights_relative(y, 4, w, &err), AUGUR_OK);
  NEAR(w[0], 48.0 / 21, 1e-12);
  NEAR(w[1], 12.0 / 21, 1e-12);
  assert_true(isnan(w[2]));
  NEAR(w[3], 3.0 / 21, 1e-12);
  /* only ratios matter: seconds or milliseconds, the same weights */
  double ms[] = {1e-3, 2e-3, NAN, 4e-3}, wm[4];
  assert_int_equal(augur_model_weights_relative(ms, 4, wm, &err), AUGUR_OK);
  for (int i = 0; i < 4; i++)
    assert_true(i == 2 ? isnan(wm[i]) : near(wm[i], w[i], 1e-12));
}

static void relative_refuses_nonpositive(void **state) {
  (void)state;
  double y[] = {1, -1, 2}, inf[] = {1, INFINITY}, none[] = {NAN, NAN}, tiny[] = {1e-200, 1}, w[3];
  augur_error err = {0};
  assert_int_equal(augur_model_weights_relative(y, 3, w, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "row 2"));
  assert_int_equal(augur_model_weights_relative(inf, 2, w, &err), AUGUR_E_ARG);
  assert_int_equal(augur_model_weights_relative(none, 2, w, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "no row has a time"));
  assert_int_equal(augur_model_weights_relative(tiny, 2, w, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "too close to 0"));
}

/* R: qt(0.975, c(1, 2, 5, 10, 30, 1000)); qt(0.75, 3). */
static void t_quantile_matches_r(void **state) {
  (void)state;
  NEAR(augur_t_quantile(0.95, 1), 12.7062047362, 1e-9);
  NEAR(augur_t_quantile(0.95, 2), 4.3026527297, 1e-9);
  NEAR(augur_t_quantile(0.95, 5), 2.5705818356, 1e-9);
  NEAR(augur_t_quantile(0.95, 10), 2.2281388520, 1e-9);
  NEAR(augur_t_quantile(0.95, 30), 2.0422724563, 1e-9);
  NEAR(augur_t_quantile(0.95, 1000), 1.9623390808, 1e-9);
  NEAR(augur_t_quantile(0.5, 3), 0.7648923284, 1e-9);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(seed_powers_of_two),         cmocka_unit_test(seed_rounds_to_nearest),
      cmocka_unit_test(seed_refuses_nonpositive),   cmocka_unit_test(variance_by_hand),
      cmocka_unit_test(variance_downweights_noise), cmocka_unit_test(variance_from_sd),
      cmocka_unit_test(variance_needs_spread),      cmocka_unit_test(t_quantile_matches_r),
      cmocka_unit_test(relative_by_hand),           cmocka_unit_test(relative_refuses_nonpositive),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
