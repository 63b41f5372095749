/* Report parts (src/analysis/report/report_part.h) without MPI: for every
 * way of cutting TRACE's ranks into two and into three contiguous blocks,
 * the parts scanned, packed, merged in block order and finished give the
 * serial report's JSON, byte for byte; and a damaged part is refused with
 * a message, never merged.
 *
 * usage: augur-test-report-part TRACE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/report.h"
#include "report_part.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "FAIL: " __VA_ARGS__);                                                       \
      fputc('\n', stderr);                                                                         \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

/* The report of T from the blocks cut at CUTS[0..NCUTS) (increasing, inside
 * (0, N)), merged in order; its JSON, malloc'd, or NULL. */
static char *by_blocks(augur_trace *t, const uint32_t *cuts, int ncuts, int *status) {
  uint32_t n = augur_trace_nranks(t);
  aug_report_part first;
  augur_error err = {0};
  if (aug_report_part_begin(t, &first, &err) != AUGUR_OK) return NULL;
  uint32_t lo = 0;
  for (int b = 0; b <= ncuts; b++) {
    uint32_t hi = b < ncuts ? cuts[b] : n;
    if (b == 0) {
      if (aug_report_part_scan(t, &first, lo, hi, NULL, NULL, &err) != AUGUR_OK) return NULL;
    } else {
      aug_report_part p;
      unsigned char *buf = NULL;
      size_t len = 0;
      if (aug_report_part_begin(t, &p, &err) != AUGUR_OK ||
          aug_report_part_scan(t, &p, lo, hi, NULL, NULL, &err) != AUGUR_OK ||
          aug_report_part_pack(&p, &buf, &len) < 0)
        return NULL;
      int rc = aug_report_part_merge(&first, buf, len, &err);
      CHECK(rc == 0, "merge of block [%u, %u): %d %s", lo, hi, rc, err.msg);
      free(buf);
      aug_report_part_free(&p);
    }
    lo = hi;
  }
  augur_report *r = NULL;
  *status = aug_report_part_finish(&first, &r, &err);
  char *json = r ? augur_report_json(r, t, 10) : NULL;
  augur_report_free(r);
  return json;
}

static void one_trace(const char *path) {
  augur_trace *t = NULL;
  augur_error err = {0};
  if (augur_trace_open(&t, path, &err) != AUGUR_OK) {
    CHECK(0, "%s: %s", path, err.msg);
    return;
  }
  augur_report *r = NULL;
  int st = augur_report_compute(t, &r, NULL, NULL, &err);
  char *serial = r ? augur_report_json(r, t, 10) : NULL;
  augur_report_free(r);
  CHECK(serial, "%s: no serial report", path);
  uint32_t n = augur_trace_nranks(t);
  for (uint32_t a = 1; serial && a < n; a++) {
    for (uint32_t b = a; b < n; b++) { /* b == a: two blocks, else three */
      uint32_t cuts[2] = {a, b};
      int ncuts = b == a ? 1 : 2, pst = -99;
      char *json = by_blocks(t, cuts, ncuts, &pst);
      CHECK(json && !strcmp(json, serial), "%s: blocks cut at %u, %u: JSON differs", path, a, b);
      CHECK(pst == st, "%s: blocks cut at %u, %u: status %d, serial %d", path, a, b, pst, st);
      free(json);
      /* more than 8 ranks: each first cut alone and with one second cut
       * half-way to the end, not every pair */
      if (n > 8) b = b == a && (a + n) / 2 > a ? (a + n) / 2 - 1 : n;
    }
  }
  /* A damaged part: refused with a message, the receiving part unchanged. */
  if (n >= 2) {
    aug_report_part p0, p1;
    unsigned char *buf = NULL;
    size_t len = 0;
    if (aug_report_part_begin(t, &p0, &err) == AUGUR_OK &&
        aug_report_part_scan(t, &p0, 0, 1, NULL, NULL, &err) == AUGUR_OK &&
        aug_report_part_begin(t, &p1, &err) == AUGUR_OK &&
        aug_report_part_scan(t, &p1, 1, n, NULL, NULL, &err) == AUGUR_OK &&
        aug_report_part_pack(&p1, &buf, &len) == 0) {
      augur_error e = {0};
      CHECK(aug_report_part_merge(&p0, buf, len / 2, &e) == -2 && strstr(e.msg, "damaged"),
            "%s: a truncated part: '%s'", path, e.msg);
      buf[0] ^= 1;
      CHECK(aug_report_part_merge(&p0, buf, len, &e) == -2, "%s: a part without its magic", path);
      buf[0] ^= 1;
      CHECK(aug_report_part_merge(&p0, buf, len, &e) == 0, "%s: the part itself: %s", path, e.msg);
      CHECK(aug_report_part_merge(&p0, buf, len, &e) == -2,
            "%s: the same block twice (not the next block)", path);
    }
    free(buf);
    aug_report_part_free(&p0);
    aug_report_part_free(&p1);
  }
  free(serial);
  augur_trace_close(t);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: augur-test-report-part TRACE...\n");
    return 2;
  }
  for (int i = 1; i < argc; i++)
    one_trace(argv[i]);
  if (failures) fprintf(stderr, "test_report_part: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
