/* The report analysis called from C, without the CLI (library core, thin
 * CLI): figures of the gen_trace trace, and a damaged rank still yields the
 * other ranks' figures plus the reader's error.
 *
 * usage: test_report_api KNOWN.augur DAMAGED.augur
 * (DAMAGED: the same trace with rank 1's file truncated, made by the test) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/report.h"

static const char *known_path, *damaged_path;

static void known_figures(void **state) {
  (void)state;
  augur_trace *t = NULL;
  augur_error err = {0};
  assert_int_equal(augur_trace_open(&t, known_path, &err), AUGUR_OK);
  augur_report *r = NULL;
  assert_int_equal(augur_report_compute(t, &r, NULL, NULL, &err), AUGUR_OK);
  assert_non_null(r);
  assert_int_equal(r->nranks, 3);
  assert_true(r->complete);
  assert_int_equal(r->wall_ns, 8700);
  assert_int_equal(r->ranks[0].compute_ns, 3700);
  assert_int_equal(r->ranks[1].compute_ns, 4290);
  assert_int_equal(r->ranks[2].mpi_ns, 4760);
  assert_int_equal(r->ncalls, 6);
  assert_int_equal(r->calls[0].type, AUGUR_EV_RECV);
  assert_int_equal(r->calls[0].nsites, 2);
  assert_int_equal(r->calls[0].sites[0].time_ns, 4100);
  assert_int_equal(r->messages, 5);
  /* the matrix's non-zero cells, by (from, to): 0->2 5000 bytes, 1->2 two messages */
  uint64_t msgs12 = 0, bytes02 = 0, sum = 0;
  for (size_t i = 0; i < r->npairs; i++) {
    const augur_report_pair *c = &r->pairs[i];
    if (i)
      assert_true(r->pairs[i - 1].from < c->from ||
                  (r->pairs[i - 1].from == c->from && r->pairs[i - 1].to < c->to));
    assert_true(c->messages > 0);
    if (c->from == 1 && c->to == 2) msgs12 = c->messages;
    if (c->from == 0 && c->to == 2) bytes02 = c->bytes;
    sum += c->messages;
  }
  assert_int_equal(msgs12, 2);
  assert_int_equal(bytes02, 5000);
  assert_int_equal(sum, r->messages);
  assert_int_equal(r->compute_min_rank, 2);
  assert_int_equal(r->compute_max_rank, 1);
  assert_string_equal(r->error, "");

  char *json = augur_report_json(r, t, 2);
  assert_non_null(json);
  assert_non_null(strstr(json, "\"calls_total\": 6"));
  free(json);
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_int_equal(augur_report_print_text(f, r, t, 3), AUGUR_OK);
  assert_true(ftell(f) > 0);
  fclose(f);
  augur_report_free(r);
  augur_trace_close(t);
}

static void damaged_rank(void **state) {
  (void)state;
  augur_trace *t = NULL;
  augur_error err = {0};
  assert_int_equal(augur_trace_open(&t, damaged_path, &err), AUGUR_OK);
  augur_report *r = NULL;
  int rc = augur_report_compute(t, &r, NULL, NULL, &err);
  assert_true(rc < 0);
  assert_non_null(r); /* partial figures survive */
  assert_false(r->complete);
  assert_true(r->ranks[1].damaged);
  assert_false(r->ranks[0].damaged);
  assert_int_equal(r->ranks[0].compute_ns, 3700);
  assert_int_equal(r->ranks[2].compute_ns, 2240);
  assert_non_null(strstr(r->error, "rank-00001.evt"));
  assert_non_null(strstr(err.msg, "rank-00001.evt"));
  augur_report_free(r);
  augur_trace_close(t);
}

static void formatting(void **state) {
  (void)state;
  char b[32];
  augur_fmt_ns(b, sizeof b, 999);
  assert_string_equal(b, "999 ns");
  augur_fmt_ns(b, sizeof b, 1500);
  assert_string_equal(b, "1.5 us");
  augur_fmt_ns(b, sizeof b, 2500000);
  assert_string_equal(b, "2.50 ms");
  augur_fmt_ns(b, sizeof b, 3000000000ULL);
  assert_string_equal(b, "3.000 s");
  augur_fmt_bytes(b, sizeof b, 1023);
  assert_string_equal(b, "1023 B");
  augur_fmt_bytes(b, sizeof b, 1536);
  assert_string_equal(b, "1.5 KiB");
  augur_fmt_bytes(b, sizeof b, 3u << 20);
  assert_string_equal(b, "3.0 MiB");
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_report_api KNOWN.augur DAMAGED.augur\n");
    return 2;
  }
  known_path = argv[1];
  damaged_path = argv[2];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(known_figures),
      cmocka_unit_test(damaged_rank),
      cmocka_unit_test(formatting),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
