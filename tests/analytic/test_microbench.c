/* The [microbench] section (include/augur/microbench.h): protocol lines of
 * augur-calibrate-<flavour> and augur-calibrate-omp read into figures,
 * written as the section and read back, the message cost between and
 * beyond the measured sizes, and the formula's terms by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "augur/microbench.h"

static void near(double got, double want) {
  if (fabs(got - want) > 1e-12 * fabs(want) + 1e-18) fail_msg("got %.17g, want %.17g", got, want);
}

static void protocol(augur_microbench *b) {
  static const char *const lines[] = {
      "pingpong 1024 9e-06 2e-06 3e-06\n", /* median, best, mean: the best is kept */
      "pingpong 0 5e-06 1e-06 2e-06\n",    /* sizes out of order: sorted */
      "pingpong 101024 9e-05 0.000102 1e-4\n",
      "omp 1 1.5e-06 2e-07 5e-07 1e10\n",
      "omp 2 3e-06 5e-07 1e-06 1.5e10\n",
      "omp 0 1 1 1 1\n",      /* no such thread count */
      "omp 257 1 1 1 1\n",    /* beyond the limit */
      "omp 3 -1e-6 1 1 1\n",  /* a negative figure */
      "omp 4 nan 1 1 1\n",    /* not a number */
      "pingpong 1.5 1 1 1\n", /* not a whole size */
      "memlatency 9e-08\n",
      "latency 1e-06 2e-06\n", /* the MPI calibration's, not ours */
      "garbage\n",
      "omp 1 1e-06 2e-07 5e-07\n" /* too short: ignored, the first omp 1 stays */
  };
  augur_mb_init(b);
  for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
    augur_mb_line(b, lines[i]);
}

static void test_protocol(void **state) {
  (void)state;
  augur_microbench b;
  protocol(&b);
  assert_int_equal(b.nsizes, 3);
  near(b.msg_bytes[0], 0);
  near(b.msg_time[0], 1e-6);
  near(b.msg_bytes[1], 1024);
  near(b.msg_time[1], 2e-6);
  near(b.msg_time[2], 102e-6);
  near(b.parallel[0], 1.5e-6);
  near(b.forloop[1], 1e-6);
  near(b.bandwidth[1], 1.5e10);
  assert_true(b.parallel[2] < 0 && b.parallel[3] < 0 && b.parallel[255] < 0);
  near(b.mem_latency, 9e-8);
  assert_true(augur_mb_has_openmp(&b));
}

static void test_roundtrip(void **state) {
  (void)state;
  augur_microbench b, r;
  protocol(&b);
  char path[] = "/tmp/augur-mb-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fprintf(f, "[machine]\nname = x\n");
  assert_int_equal(augur_mb_write(f, &b), AUGUR_OK);
  fclose(f);
  augur_error err = {0};
  int rc = augur_mb_load(&r, path, &err);
  unlink(path);
  if (rc) fail_msg("%s", err.msg);
  assert_int_equal(r.nsizes, b.nsizes);
  for (size_t i = 0; i < b.nsizes; i++) {
    near(r.msg_bytes[i], b.msg_bytes[i]);
    near(r.msg_time[i], b.msg_time[i]);
  }
  for (size_t t = 0; t < 2; t++) {
    near(r.parallel[t], b.parallel[t]);
    near(r.barrier[t], b.barrier[t]);
    near(r.forloop[t], b.forloop[t]);
    near(r.bandwidth[t], b.bandwidth[t]);
  }
  assert_true(r.parallel[2] < 0);
  near(r.mem_latency, 9e-8);
}

static void test_message(void **state) {
  (void)state;
  augur_microbench b;
  protocol(&b);
  near(augur_mb_message(&b, 0), 1e-6);
  near(augur_mb_message(&b, 512), 1.5e-6); /* halfway between 0 and 1024 */
  near(augur_mb_message(&b, 1024), 2e-6);
  near(augur_mb_message(&b, 51024), 52e-6);   /* 1 ns per byte above 1024 */
  near(augur_mb_message(&b, 201024), 202e-6); /* beyond: the last slope */
  b.msg_time[2] = 1e-6;                       /* a falling last segment */
  near(augur_mb_message(&b, 1e9), 1e-6);
}

static void test_formula(void **state) {
  (void)state;
  augur_microbench b;
  protocol(&b);
  augur_error err = {0};
  augur_analytic_app app = {.power = 1};
  assert_int_equal(augur_analytic_bytes("8*W + 24 + 16*W/workers", "--send", app.send, &err),
                   AUGUR_OK);
  near(app.send[0], 24);
  near(app.send[1], 8);
  near(app.send[2], 16);
  assert_int_equal(augur_analytic_bytes("W", "--reply", app.recv, &err), AUGUR_OK);
  near(app.recv[1], 1);
  assert_int_equal(augur_analytic_bytes("8*V", "--reply", app.recv, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "--reply: expected bytes"));
  /* Calibrated at W 1000, 1 x 2: x = 500, Theta(2) = 4 us: per element 2e-6 s;
   * send 24024 bytes 25e-6, reply 1000 bytes 1e-6 + 1e-6 * 1000/1024: the
   * terms 1.0309765625e-3, the master the rest of T_iter, 5e-5. */
  assert_int_equal(
      augur_analytic_calibrate(&app, &b, 1000, 1, 2, 1e-3 + 4e-6, 1.0809765625e-3, &err), AUGUR_OK);
  near(app.per_element, 2e-6);
  near(app.master, 5e-5);
  /* W 2000, 2 x 1: x = 1000 -> 2e-3; Theta(1) 2e-6; send 8*2000 + 24 + 16*1000 = 32024
   * bytes -> 2e-6 + 31000 ns = 33e-6, twice; reply 2000 -> 2e-6 + 976 ns. */
  augur_analytic_terms x;
  assert_int_equal(augur_analytic_eval(&app, &b, 2000, 2, 1, &x, &err), AUGUR_OK);
  near(x.compute, 2e-3);
  near(x.omp, 2e-6);
  near(x.sends, 66e-6);
  near(x.reply, 2.976e-6);
  near(x.master, 5e-5);
  near(x.t_iter, 2e-3 + 2e-6 + 66e-6 + 2.976e-6 + 5e-5);
  /* 3 threads: no figures. */
  assert_int_equal(augur_analytic_eval(&app, &b, 2000, 1, 3, &x, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "3 threads"));
  assert_int_equal(augur_analytic_calibrate(&app, &b, 1000, 1, 1, 1e-6, 0, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "not more than the OpenMP overhead"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_protocol), cmocka_unit_test(test_roundtrip),
      cmocka_unit_test(test_message), cmocka_unit_test(test_formula)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
