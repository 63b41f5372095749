/* Signature and signature-result files (cmocka): a written file reads back
 * field for field and writes back byte for byte; every kind of damage is
 * refused with the file, the line and what was expected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "augur/event.h"
#include "augur/signature.h"

static char dir[] = "/tmp/augur-test-sigfile-XXXXXX";

static const char *path_of(const char *name) {
  static char p[256];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return p;
}

static void put(const char *name, const char *text) {
  FILE *f = fopen(path_of(name), "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return strdup(buf);
}

/* A 2-rank signature: phase 1 (init, weight 1), phase 7 (loop, sync), phase 9 (late). */
static augur_signature *sample(void) {
  augur_signature *s = calloc(1, sizeof *s);
  s->nranks = 2;
  s->base_run_seconds = 12.5;
  s->base_pre_seconds = 0.25;
  s->base_rest_seconds = 0.125;
  s->nmodules = 2;
  s->module = calloc(2, sizeof *s->module);
  s->module[0] = strdup("solver");
  s->module[1] = strdup("libfoo.so.1");
  s->nphases = 3;
  s->phase = calloc(3, sizeof *s->phase);
  uint32_t ids[3] = {1, 7, 9};
  uint64_t w[3] = {1, 400, 1};
  for (int i = 0; i < 3; i++) {
    augur_sig_phase *p = &s->phase[i];
    p->id = ids[i];
    p->weight = w[i];
    p->base_seconds = 0.03125 * (i + 1);
    p->sample_seconds = 0.015625 * (i + 1);
    p->start = i == 1;
    p->measure = i == 1 ? 10 : 1;
    p->late = i == 2;
    p->sync = i == 1;
    if (i == 1) { /* version 4: the loop's first half is cheap, its second costly */
      static const uint64_t rep[3] = {0, 200, 400};
      static const double sec[3] = {0, 2, 10}, at[3] = {1, 3, 11}; /* version 5: START */
      p->ncurve = 3;
      p->curve_rep = malloc(sizeof rep);
      p->curve_seconds = malloc(sizeof sec);
      p->curve_start = malloc(sizeof at);
      memcpy(p->curve_rep, rep, sizeof rep);
      memcpy(p->curve_seconds, sec, sizeof sec);
      memcpy(p->curve_start, at, sizeof at);
    }
    p->ncalls = calloc(2, sizeof *p->ncalls);
    p->calls = calloc(2, sizeof *p->calls);
    for (uint32_t r = 0; r < 2; r++) {
      uint32_t n = i == 1 ? 3 : (r == 0 ? 1 : 0); /* rank 1 has no call in phases 1, 9 */
      p->ncalls[r] = n;
      if (!n) continue;
      p->calls[r] = calloc(n, sizeof *p->calls[r]);
      for (uint32_t k = 0; k < n; k++) {
        augur_sig_call *c = &p->calls[r][k];
        c->type = k == 0 ? AUGUR_EV_ISEND : k == 1 ? AUGUR_EV_WAITALL : AUGUR_EV_ALLREDUCE;
        c->peer = k == 0 ? (r ? -1 : 1) : AUGUR_SIG_PEER_ANY;
        c->size_class = k == 1 ? AUGUR_SIG_SIZE_ANY : (uint8_t)(14 - k);
        c->module = (uint16_t)(1 + (k == 2));
        c->offset = 0x1000u + 16 * k + r;
        c->bytes = k == 1 ? AUGUR_SIG_BYTES_ANY : 4096u + 1000 * k; /* version 5 */
      }
    }
  }
  /* Version 5: a guard (phase 5, not in the signature), rank 0's Isend only. */
  s->nguards = 1;
  s->guard = calloc(1, sizeof *s->guard);
  s->guard->id = 5;
  s->guard->weight = 400;
  s->guard->ncalls = calloc(2, sizeof *s->guard->ncalls);
  s->guard->calls = calloc(2, sizeof *s->guard->calls);
  s->guard->ncalls[0] = 1;
  s->guard->calls[0] = calloc(1, sizeof *s->guard->calls[0]);
  *s->guard->calls[0] = (augur_sig_call){.type = AUGUR_EV_ISEND,
                                         .peer = 0,
                                         .size_class = 13,
                                         .module = 1,
                                         .offset = 0x1000u,
                                         .bytes = 3744};
  return s;
}

/* Writes S to NAME in the scratch directory. */
static void write_sig(const augur_signature *s, const char *name) {
  FILE *f = fopen(path_of(name), "w");
  assert_non_null(f);
  assert_int_equal(augur_signature_write(f, s), AUGUR_OK);
  fclose(f);
}

/* R (read from a.sig) written again gives the same bytes. */
static void rewrites_same(const augur_signature *r) {
  write_sig(r, "b.sig");
  char *ta = slurp(path_of("a.sig")), *tb = slurp(path_of("b.sig"));
  assert_string_equal(ta, tb);
  free(ta);
  free(tb);
}

static void test_round_trip(void **state) {
  (void)state;
  augur_signature *s = sample();
  write_sig(s, "a.sig");
  augur_signature *r = NULL;
  augur_error err = {0};
  assert_int_equal(augur_signature_read(path_of("a.sig"), &r, &err), AUGUR_OK);
  assert_int_equal(r->nranks, 2);
  assert_true(r->base_run_seconds == 12.5 && r->base_pre_seconds == 0.25 &&
              r->base_rest_seconds == 0.125);
  assert_int_equal(r->nmodules, 2);
  assert_string_equal(r->module[1], "libfoo.so.1");
  assert_int_equal(augur_signature_module(r, "solver"), 1);
  assert_int_equal(augur_signature_module(r, "other"), 0);
  assert_int_equal(r->nphases, 3);
  for (uint32_t i = 0; i < 3; i++) {
    augur_sig_phase *a = &s->phase[i], *b = &r->phase[i];
    assert_int_equal(a->id, b->id);
    assert_int_equal(a->weight, b->weight);
    assert_true(a->base_seconds == b->base_seconds);
    assert_true(a->sample_seconds == b->sample_seconds);
    assert_int_equal(a->start, b->start);
    assert_int_equal(a->measure, b->measure);
    assert_int_equal(a->late, b->late);
    assert_int_equal(a->sync, b->sync);
    assert_int_equal(a->ncurve, b->ncurve);
    for (uint32_t k = 0; k < a->ncurve; k++)
      assert_true(a->curve_rep[k] == b->curve_rep[k] &&
                  a->curve_seconds[k] == b->curve_seconds[k] &&
                  a->curve_start[k] == b->curve_start[k]);
    for (uint32_t q = 0; q < 2; q++) {
      assert_int_equal(a->ncalls[q], b->ncalls[q]);
      for (uint32_t k = 0; k < a->ncalls[q]; k++) {
        augur_sig_call *x = &a->calls[q][k], *y = &b->calls[q][k];
        assert_int_equal(x->type, y->type);
        assert_int_equal(x->peer, y->peer);
        assert_int_equal(x->size_class, y->size_class);
        assert_int_equal(x->module, y->module);
        assert_int_equal(x->offset, y->offset);
        assert_true(x->bytes == y->bytes);
      }
    }
  }
  assert_int_equal(r->nguards, 1);
  assert_int_equal(r->guard->id, 5);
  assert_int_equal(r->guard->weight, 400);
  assert_int_equal(r->guard->ncalls[0], 1);
  assert_int_equal(r->guard->ncalls[1], 0);
  assert_true(r->guard->calls[0]->bytes == 3744 && r->guard->calls[0]->peer == 0);
  assert_true(augur_sig_call_same(r->guard->calls[0], r->guard->calls[0]));
  assert_false(augur_sig_call_same(&r->phase[1].calls[0][0], r->guard->calls[0])); /* peer */
  rewrites_same(r); /* written again: the same bytes */
  augur_signature_free(r);
  augur_signature_free(s);
}

/* Replaces the first occurrence of FROM in the good file by TO and expects
 * the reader to refuse it with a message holding WANT. */
static void refuse(const char *from, const char *to, const char *want) {
  char *good = slurp(path_of("a.sig"));
  char *at = strstr(good, from);
  assert_non_null(at);
  size_t n = strlen(good) + strlen(to) + 1;
  char *bad = malloc(n);
  snprintf(bad, n, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
  put("bad.sig", bad);
  augur_signature *r = NULL;
  augur_error err = {0};
  int rc = augur_signature_read(path_of("bad.sig"), &r, &err);
  if (rc == AUGUR_OK || !strstr(err.msg, want) || !strstr(err.msg, "bad.sig"))
    fail_msg("'%s' -> '%s': rc %d, message '%s', wanted '%s'", from, to, rc, err.msg, want);
  assert_null(r);
  free(bad);
  free(good);
}

static void test_validation(void **state) {
  (void)state;
  augur_signature *s = sample();
  write_sig(s, "a.sig");
  augur_signature_free(s);
  refuse("augur-signature 5", "augur-trace 1", "not an augur signature");
  refuse("augur-signature 5", "augur-signature 6", "version 6");
  refuse(" 0.015625000\ncurve 0\nrank 0 1", " -0.5\ncurve 0\nrank 0 1",
         "expected a time in seconds");
  refuse(" 0.015625000\ncurve 0\nrank 0 1", "\ncurve 0\nrank 0 1", "SAMPLE_SECONDS");
  /* Version 4's curve: counts, order, the last point at WEIGHT. */
  refuse("curve 3\n", "\n", "'curve N'");
  refuse("curve 3\n", "curve 66\n", "a point count up to 65");
  refuse("curve 3\nat 0 0.000000000 1.000000000\n", "curve 1\nat 0 0.000000000 1.000000000\n",
         "0 points, or from 2");
  refuse("at 0 0.000000000", "at 1 0.000000000", "repetitions growing from 0");
  refuse("at 0 0.000000000", "at 0 0.500000000", "times not decreasing, from 0");
  refuse("at 200 2.000000000", "at 0 2.000000000", "repetitions growing from 0");
  refuse("at 200 2.000000000", "at 200 20.000000000", "times not decreasing");
  refuse("at 400 10.000000000", "at 399 10.000000000", "a last point at WEIGHT");
  refuse("at 400 10.000000000", "at 401 10.000000000", "a repetition up to WEIGHT");
  refuse("at 400 10.000000000 11.000000000\n", "", "'at REP SECONDS START'");
  /* Version 5: where each point's repetition started, each call's bytes, the guards. */
  refuse("at 200 2.000000000 3.000000000", "at 200 2.000000000 0.500000000",
         "START not decreasing");
  refuse("at 200 2.000000000 3.000000000", "at 200 2.000000000", "'at REP SECONDS START'");
  refuse("at 200 2.000000000 3.000000000", "at 200 2.000000000 -3", "a time in seconds");
  refuse("call 14 1 14 1 0x1000 4096", "call 14 1 14 1 0x1000 zz", "a byte count or '*'");
  refuse("guards 1", "guards x", "a guard count");
  refuse("guards 1\n", "", "'guards N'");
  refuse("guard 5 400", "guard 7 400", "a guard id that is no phase's");
  refuse("guard 5 400", "guard 5 0", "a weight >= 1");
  refuse("guard 5 400\nrank 0 1", "guard 5 400\nrank 1 1", "the next rank number");
  refuse("ranks 2", "ranks 0", ":3: expected a rank count");
  refuse("ranks 2", "ranks two", ":3: expected a rank count");
  refuse("base 12.5", "base -12.5", ":6: expected a time");
  refuse("module 2 libfoo.so.1", "module 3 libfoo.so.1", "next module index");
  refuse("phase 7 400", "phase 7 0", "a weight >= 1");
  refuse("phase 7 400 0.062500000 1 10", "phase 7 400 0.062500000 1 400", "MEASURE from 1");
  refuse("phase 7 400 0.062500000 1", "phase 7 400 0.062500000 400", "START below WEIGHT");
  refuse("phase 9", "phase 7", "distinct phase ids");
  refuse("rank 1 3", "rank 0 3", "the next rank number");
  refuse("1 0 0 0.015625000\ncurve 0\nrank 0 1", "1 1 1 0.015625000\ncurve 0\nrank 0 1",
         "a sync phase that is not late");
  refuse("call 14 1 14", "call 120 1 13", "not a sub-record");
  refuse("call 14 1 14", "call 14 x 13", "a peer offset");
  refuse("call 14 1 14", "call 14 1 99", "a size class");
  refuse("call 14 1 14 1", "call 14 1 14 7", "a module index");
  refuse("call 14 1 14 1 0x1000", "call 14 1 14 1 zz", "a call-site offset");
  refuse("call 14 1 14 1 0x1000", "call 14 1 14 1", "'call TYPE PEER SIZE MODULE OFFSET BYTES'");
  refuse("\nend\n", "\n", "expected 'end'");
  refuse("\nend\n", "\nend\nmore\n", "nothing after 'end'");
  refuse("rank 1 0\nend", "rank 1 0\n", "expected 'end'");
  /* Truncated in the middle of a phase. */
  char *good = slurp(path_of("a.sig"));
  good[strlen(good) / 2] = '\0';
  put("cut.sig", good);
  free(good);
  augur_signature *r = NULL;
  augur_error err = {0};
  assert_int_not_equal(augur_signature_read(path_of("cut.sig"), &r, &err), AUGUR_OK);
  assert_non_null(strstr(err.msg, "cut.sig:"));
  assert_int_not_equal(augur_signature_read(path_of("missing.sig"), &r, &err), AUGUR_OK);
  assert_non_null(strstr(err.msg, "missing.sig"));
  put("bin.sig", "augur-signature 1\n");
  FILE *f = fopen(path_of("bin.sig"), "ab");
  fputc('\0', f);
  fclose(f);
  assert_int_not_equal(augur_signature_read(path_of("bin.sig"), &r, &err), AUGUR_OK);
  assert_non_null(strstr(err.msg, "binary"));
}

/* What the repetitions still to come took in the base run: from the curve
 * (version 4), linear between its points, so a phase whose first half is
 * cheap is not predicted at its mean; without a curve (version 3), the
 * phase's mean each. A version 3 file (no curve lines) still reads. */
static void test_base_left(void **state) {
  (void)state;
  augur_signature *s = sample();
  const augur_sig_phase *p = &s->phase[1]; /* 400 repetitions: 2 s, then 8 s */
  assert_true(augur_sig_base_left(p, 0) == 10);
  assert_true(augur_sig_base_left(p, 100) == 9);
  assert_true(augur_sig_base_left(p, 200) == 8);
  assert_true(augur_sig_base_left(p, 300) == 4);
  assert_true(augur_sig_base_left(p, 400) == 0);
  assert_true(augur_sig_base_left(p, 500) == 0);
  /* The mean (0.0625 s) times the 200 left would say 12.5 s, not 8. */
  assert_true(augur_sig_base_left(&s->phase[0], 0) == s->phase[0].base_seconds);
  write_sig(s, "a.sig");
  char *text = slurp(path_of("a.sig")), *v3 = malloc(strlen(text) + 1), *o = v3;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (!strncmp(line, "curve ", 6) || !strncmp(line, "at ", 3)) continue;
    if (!strncmp(line, "guard", 5)) break; /* version 5's guards: the last lines but "end" */
    char *hash = strstr(line, " #"), *bytes = NULL;
    if (!strncmp(line, "call ", 5) && hash) { /* version 5's BYTES column out */
      *hash = '\0';
      bytes = strrchr(line, ' ');
      *bytes = '\0';
    }
    o += sprintf(o, "%s\n", !strcmp(line, "augur-signature 5") ? "augur-signature 3" : line);
  }
  o += sprintf(o, "end\n");
  put("v3.sig", v3);
  augur_signature *r = NULL;
  augur_error err = {0};
  assert_int_equal(augur_signature_read(path_of("v3.sig"), &r, &err), AUGUR_OK);
  assert_int_equal(r->phase[1].ncurve, 0);
  assert_true(augur_sig_base_left(&r->phase[1], 200) == 200 * r->phase[1].base_seconds);
  augur_signature_free(r);
  free(v3);
  free(text);
  augur_signature_free(s);
}

static void test_result_round_trip(void **state) {
  (void)state;
  augur_sigres_phase ph[2] = {
      {.id = 1, .status = AUGUR_SIGRES_MEASURED, .measured = 1, .seconds = 0.5, .seen = 12},
      {.id = 7, .status = AUGUR_SIGRES_LATE}};
  augur_sigresult r = {.nranks = 4,
                       .stopped = 1,
                       .pre_seconds = 0.125,
                       .run_seconds = 2.5,
                       .nphases = 2,
                       .phase = ph};
  FILE *f = fopen(path_of("r.txt"), "w");
  assert_int_equal(augur_sigresult_write(f, &r), AUGUR_OK);
  fclose(f);
  augur_sigresult *b = NULL;
  augur_error err = {0};
  assert_int_equal(augur_sigresult_read(path_of("r.txt"), &b, &err), AUGUR_OK);
  assert_int_equal(b->nranks, 4);
  assert_int_equal(b->stopped, 1);
  assert_true(b->pre_seconds == 0.125 && b->run_seconds == 2.5);
  assert_int_equal(b->nphases, 2);
  assert_int_equal(b->phase[1].id, 7);
  assert_int_equal(b->phase[1].status, AUGUR_SIGRES_LATE);
  assert_true(b->phase[0].seconds == 0.5);
  assert_int_equal(b->phase[0].seen, 12); /* version 3: repetitions completed by the stop */
  assert_int_equal(b->phase[1].seen, 0);
  augur_sigresult_free(b);
  /* A version 1 result has no SEEN: unknown, not 0. */
  put("r1.txt", "augur-sigresult 1\nranks 1\nstopped 1\npre 0\nrun 1\nphases 1\n"
                "phase 3 measured 2 0.25\nend\n");
  assert_int_equal(augur_sigresult_read(path_of("r1.txt"), &b, &err), AUGUR_OK);
  assert_true(b->phase[0].seen == UINT64_MAX);
  augur_sigresult_free(b);
  /* Version 3 without SEEN is refused. */
  put("r4.txt", "augur-sigresult 3\nranks 1\nmode global\nstopped 1\npre 0\nrun 1\n"
                "phases 1\nphase 3 measured 2 0.25\nend\n");
  assert_int_not_equal(augur_sigresult_read(path_of("r4.txt"), &b, &err), AUGUR_OK);
  assert_non_null(strstr(err.msg, "SEEN"));
  /* Unfinished (no end line) and a bad status word. */
  char *t = slurp(path_of("r.txt"));
  *strstr(t, "end") = '\0';
  put("r2.txt", t);
  assert_int_not_equal(augur_sigresult_read(path_of("r2.txt"), &b, &err), AUGUR_OK);
  assert_non_null(strstr(err.msg, "did not finish"));
  free(t);
  t = slurp(path_of("r.txt"));
  memcpy(strstr(t, "late"), "lame", 4);
  put("r3.txt", t);
  assert_int_not_equal(augur_sigresult_read(path_of("r3.txt"), &b, &err), AUGUR_OK);
  assert_non_null(strstr(err.msg, "a status"));
  free(t);
}

/* The sample made irregular: per-rank weights, base times and plans. */
static augur_signature *sample_irregular(void) {
  augur_signature *s = sample();
  s->irregular = 1;
  for (uint32_t i = 0; i < s->nphases; i++) {
    augur_sig_phase *p = &s->phase[i];
    p->rank_weight = calloc(2, sizeof *p->rank_weight);
    p->rank_base = calloc(2, sizeof *p->rank_base);
    p->rank_start = calloc(2, sizeof *p->rank_start);
    p->rank_measure = calloc(2, sizeof *p->rank_measure);
    p->rank_first_unit = calloc(2, sizeof *p->rank_first_unit);
    p->rank_units = calloc(2, sizeof *p->rank_units);
    p->rank_unit_base = calloc(2, sizeof *p->rank_unit_base);
    for (uint32_t r = 0; r < 2; r++) {
      if (!p->ncalls[r]) continue;
      p->rank_weight[r] = r ? p->weight / 2 : p->weight; /* rank 1 repeats half as often */
      p->rank_base[r] = p->base_seconds * (r + 1);
      p->rank_start[r] = p->start;
      p->rank_measure[r] = p->measure;
      p->rank_first_unit[r] = 100 * i; /* stretches 100, 101, ... for phase 7 */
      p->rank_units[r] = calloc(p->measure, sizeof *p->rank_units[r]);
      p->rank_unit_base[r] = calloc(p->measure, sizeof *p->rank_unit_base[r]);
      for (uint32_t m = 0; m < p->measure; m++) {
        p->rank_units[r][m] = 100 * i + p->start + m;
        p->rank_unit_base[r][m] = 0.5 + m; /* exact in the file's 9 decimals */
      }
    }
  }
  return s;
}

/* Version 3 names the program: written when known, read back, refused when
 * missing or malformed; versions 1 and 2 (no program) stay readable. */
static void test_program(void **state) {
  (void)state;
  augur_signature *s = sample();
  s->program = strdup("solver");
  s->build_id = strdup("0123abcd");
  write_sig(s, "a.sig");
  char *text = slurp(path_of("a.sig"));
  assert_non_null(strstr(text, "augur-signature 5\nranks") || strstr(text, "augur-signature 5\n#"));
  assert_non_null(strstr(text, "mode global\nprogram solver 0123abcd\n"));
  augur_signature *r = NULL;
  augur_error err = {0};
  assert_int_equal(augur_signature_read(path_of("a.sig"), &r, &err), AUGUR_OK);
  assert_string_equal(r->program, "solver");
  assert_string_equal(r->build_id, "0123abcd");
  rewrites_same(r);
  augur_signature_free(r);
  refuse("program solver 0123abcd", "program solver", "'program NAME BUILD_ID'");
  refuse("program solver 0123abcd", "program solver 0123ABCZ", "BUILD_ID of 2 to 128 hex");
  refuse("program solver 0123abcd\n", "", "'program NAME BUILD_ID'");
  refuse("mode global\n", "", "'mode global|irregular'");
  free(s->build_id);
  s->build_id = strdup("-"); /* unknown, or portable */
  write_sig(s, "a.sig");
  assert_int_equal(augur_signature_read(path_of("a.sig"), &r, &err), AUGUR_OK);
  assert_string_equal(r->build_id, "-");
  augur_signature_free(r);
  free(text);
  augur_signature_free(s);
  /* The program of an executable: this test's own build id, as file(1) shows it. */
  char name[64], bid[160];
  assert_int_equal(augur_program_id("/proc/self/exe", name, sizeof name, bid, sizeof bid), 0);
  assert_string_equal(name, "exe");
  assert_true(strlen(bid) >= 2 && strspn(bid, "0123456789abcdef") == strlen(bid));
  assert_int_equal(augur_program_id("/nonexistent/prog", name, sizeof name, bid, sizeof bid), 0);
  assert_string_equal(name, "prog");
  assert_string_equal(bid, "-");
}

static void test_irregular(void **state) {
  (void)state;
  augur_signature *s = sample_irregular();
  write_sig(s, "a.sig");
  char *text = slurp(path_of("a.sig"));
  assert_non_null(strstr(text, "augur-signature 5\n"));
  assert_non_null(strstr(text, "mode irregular\n"));
  assert_null(strstr(text, "curve")); /* global mode only */
  free(text);
  augur_signature *r = NULL;
  augur_error err = {0};
  assert_int_equal(augur_signature_read(path_of("a.sig"), &r, &err), AUGUR_OK);
  assert_true(r->irregular);
  for (uint32_t i = 0; i < 3; i++)
    for (uint32_t q = 0; q < 2; q++) {
      augur_sig_phase *a = &s->phase[i], *b = &r->phase[i];
      assert_int_equal(a->rank_weight[q], b->rank_weight[q]);
      assert_true(a->rank_base[q] == b->rank_base[q]);
      assert_int_equal(a->rank_start[q], b->rank_start[q]);
      assert_int_equal(a->rank_measure[q], b->rank_measure[q]);
      assert_int_equal(a->rank_first_unit[q], b->rank_first_unit[q]);
      for (uint32_t m = 0; m < a->rank_measure[q]; m++) {
        assert_int_equal(a->rank_units[q][m], b->rank_units[q][m]);
        assert_true(a->rank_unit_base[q][m] == b->rank_unit_base[q][m]);
      }
    }
  assert_int_equal(r->phase[1].rank_weight[1], 200);
  rewrites_same(r);
  augur_signature_free(r);
  augur_signature_free(s);
  /* Per-rank damage: a weight above the phase's, calls without a weight,
   * a plan outside the rank's repetitions, a rank line of version 1. */
  refuse("mode irregular", "mode sometimes", "'mode global|irregular'");
  refuse("rank 1 3 200 ", "rank 1 3 401 ", "a weight up to the phase's");
  refuse("rank 1 3 200 ", "rank 1 3 0 ", "WEIGHT 0 exactly when NCALLS is 0");
  refuse("rank 1 0 0 0.000000000 0 0", "rank 1 0 0 0.000000000 0 1", "START 0 MEASURE 0");
  refuse("rank 1 3 200 0.125000000 1 10", "rank 1 3 200 0.125000000 200 10", "START below WEIGHT");
  refuse("rank 1 3 200 0.125000000 1 10", "rank 1 3 200 0.125000000 1 200", "MEASURE from 1");
  refuse("rank 1 3 200 0.125000000 1 10", "rank 1 3", "'rank R NCALLS WEIGHT");
  refuse("unit 102 ", "unit 101 ", "stretch numbers that grow");
  refuse("unit 101 ", "unit 100 ", "stretch numbers that grow"); /* START 1: after the first */
  refuse("unit 101 ", "unt 101 ", "'unit U BASE_SECONDS'");
  refuse("unit 101 0.500000000", "unit 101", "'unit U BASE_SECONDS'");
  refuse("unit 101 0.500000000", "unit 101 -0.5", "a time in seconds");
  refuse("comm 0x", "com 0x", "'comm ID VOTE_FROM'");
  refuse("comm 0x0 0", "comm 0x0", "'comm ID VOTE_FROM'");

  /* Results with per-rank figures. */
  uint32_t m0[2] = {10, 5}, m1[2] = {0, 0};
  double s0[2] = {0.25, 0.5}, s1[2] = {0, 0}, b0[2] = {0.125, 0.75}, b1[2] = {0, 0};
  augur_sigres_phase ph[2] = {{.id = 7,
                               .status = AUGUR_SIGRES_MEASURED,
                               .measured = 5,
                               .seconds = 0.375,
                               .rank_measured = m0,
                               .rank_seconds = s0,
                               .rank_base_seconds = b0},
                              {.id = 9,
                               .status = AUGUR_SIGRES_LATE,
                               .rank_measured = m1,
                               .rank_seconds = s1,
                               .rank_base_seconds = b1}};
  augur_sigresult res = {.nranks = 2, .nphases = 2, .phase = ph, .irregular = 1};
  FILE *f = fopen(path_of("r.txt"), "w");
  assert_int_equal(augur_sigresult_write(f, &res), AUGUR_OK);
  fclose(f);
  augur_sigresult *b = NULL;
  assert_int_equal(augur_sigresult_read(path_of("r.txt"), &b, &err), AUGUR_OK);
  assert_true(b->irregular);
  assert_int_equal(b->phase[0].rank_measured[1], 5);
  assert_true(b->phase[0].rank_seconds[1] == 0.5);
  assert_true(b->phase[0].rank_base_seconds[1] == 0.75);
  assert_int_equal(b->phase[1].rank_measured[0], 0);
  augur_sigresult_free(b);
  char *t = slurp(path_of("r.txt"));
  *strstr(t, "rank 1 5") = '\0'; /* cut inside the per-rank lines */
  put("r2.txt", t);
  free(t);
  assert_int_not_equal(augur_sigresult_read(path_of("r2.txt"), &b, &err), AUGUR_OK);
  assert_non_null(strstr(err.msg, "'rank R MEASURED SECONDS BASE_SECONDS'"));
}

static int setup(void **state) {
  (void)state;
  return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip), cmocka_unit_test(test_validation),
      cmocka_unit_test(test_base_left),  cmocka_unit_test(test_result_round_trip),
      cmocka_unit_test(test_irregular),  cmocka_unit_test(test_program),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
