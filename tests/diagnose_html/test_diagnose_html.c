/* augur_diagnosis_write_html on a hand-filled diagnosis of a hand-built
 * 3-rank trace (the analysis itself is not exercised here).
 *
 * Every rank has init_ns = 1000 and no clock sync, so global = local - 1000.
 * Global times: Init 0-1000 on every rank; Barrier rank 0 2000-6000, rank 1
 * 3000-6000, rank 2 5900-6000; Finalize 7000-7500. Compute in between.
 *
 * Run with `--write FILE` it writes the page, with a table of figures, to
 * FILE instead of testing (tests/diagnose_html/browser.sh renders that in
 * Chromium). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "augur/diagnose.h"
#include "augur/timeline.h"
#include "augur/writer.h"

#define NRANKS 3

static char trace_dir[256];

static augur_event ev(unsigned type, uint64_t t0, uint64_t t1) {
  augur_event e;
  memset(&e, 0, sizeof e);
  e.type = (uint16_t)type;
  e.t_start = t0 + 1000;
  e.t_end = t1 + 1000;
  e.peer = AUGUR_PEER_NONE;
  e.tag = AUGUR_TAG_NONE;
  e.comm = type == AUGUR_EV_BARRIER ? AUGUR_COMM_WORLD : AUGUR_COMM_NONE;
  return e;
}

static int write_rank(uint32_t rank, uint64_t barrier_start) {
  augur_error err = {0};
  augur_writer *w = NULL;
  if (augur_writer_open(&w, trace_dir, rank, NRANKS, 0, &err)) return -1;
  int32_t members[NRANKS] = {0, 1, 2};
  augur_rank_def rd = {.rank = rank,
                       .nranks = NRANKS,
                       .host = "h",
                       .thread_level = -1,
                       .init_ns = 1000,
                       .finalize_ns = 7500 + 1000};
  augur_comm_def world = {
      .id = AUGUR_COMM_WORLD, .kind = AUGUR_COMM_KIND_WORLD, .size = NRANKS, .members = members};
  augur_event evs[] = {ev(AUGUR_EV_INIT, 0, 1000), ev(AUGUR_EV_BARRIER, barrier_start, 6000),
                       ev(AUGUR_EV_FINALIZE, 7000, 7500)};
  if (augur_writer_def_rank(w, &rd, &err) || augur_writer_def_comm(w, &world, &err) ||
      augur_writer_events(w, 0, evs, 3, &err) || augur_writer_close(w, &err)) {
    fprintf(stderr, "writing rank %u: %s\n", rank, err.msg);
    return -1;
  }
  return 0;
}

static int setup(void **state) {
  (void)state;
  snprintf(trace_dir, sizeof trace_dir, "%s/diagnose-html-%ld.augur",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
  augur_error err = {0};
  augur_trace_meta meta = {.nranks = NRANKS, .recorder = "test", .complete = 1};
  if (augur_meta_write(trace_dir, &meta, &err)) return -1;
  if (write_rank(0, 2000) || write_rank(1, 3000) || write_rank(2, 5900)) return -1;
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", trace_dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* The hand-filled diagnosis. Strings are the caller's: only the writer reads them. */
static uint32_t ranks01[] = {0, 1}, ranks2[] = {2}, ranks012[] = {0, 1, 2};
static augur_dx_callsite sites_barrier[] = {
    {.id = 3, .function = "solve", .file = "solver.c", .line = 42, .seconds = 6.9e-6}};
static augur_dx_callsite sites_imbalance[] = {
    {.id = 4, .function = "f<&>g", .file = "a&b.c", .line = 7, .seconds = 5e-6},
    {.id = 0, .function = NULL, .file = NULL, .line = 0, .seconds = 1e-6}};
static augur_dx_mark marks_barrier[] = {{0, 2000, 5900}, {1, 3000, 5900}};
static augur_dx_mark marks_imbalance[] = {{0, 2000, 5900}};
static augur_dx_mark marks_sender[] = {{2, 6000, 6500}};
static augur_dx_finding findings[] = {
    {.pattern = AUGUR_DX_WAIT_AT_BARRIER,
     .wait_state = AUGUR_DX_WAIT_AT_BARRIER,
     .seconds = 6.9e-6,
     .share = 0.3067,
     .saving_seconds = 3.9e-6,
     .instances = 2,
     .comm = AUGUR_COMM_WORLD,
     .nranks = 2,
     .ranks = ranks01,
     .ncallsites = 1,
     .callsites = sites_barrier,
     .cause = "Rank 2 arrives late at the barrier in solve().",
     .recommendation = "Balance the work before the barrier.",
     .undecided = NULL,
     .nmarks = 2,
     .marks = marks_barrier},
    {.pattern = AUGUR_DX_LOAD_IMBALANCE,
     .wait_state = AUGUR_DX_WAIT_AT_BARRIER,
     .seconds = 6e-6,
     .share = 0.2667,
     .saving_seconds = 3e-6,
     .instances = 1,
     .nranks = 3,
     .ranks = ranks012,
     .ncallsites = 2,
     .callsites = sites_imbalance,
     .cause = "Compute before f<&>g differs: rank 2 takes 2x \"longer\".",
     .recommendation = "Split the <work> evenly.",
     .undecided = "Whether the input or the code causes it.",
     .nmarks = 1,
     .marks = marks_imbalance},
    {.pattern = AUGUR_DX_LATE_SENDER,
     .wait_state = AUGUR_DX_LATE_SENDER,
     .seconds = 5e-7,
     .share = 0.0222,
     .saving_seconds = 0,
     .instances = 1,
     .nranks = 1,
     .ranks = ranks2,
     .ncallsites = 0,
     .cause = "A late sender.",
     .recommendation = "Send earlier.",
     .undecided = "Eager limit unknown.",
     .nmarks = 1,
     .marks = marks_sender},
};
static augur_dx_interval intervals[] = {
    {.t0 = 2000, .t1 = 5900, .lost_seconds = 6.9e-6, .min_active = 1.0, .finding = 0},
    {.t0 = 6000, .t1 = 6500, .lost_seconds = 4e-7, .min_active = 2.0, .finding = -1}};
static float active[10] = {3, 3, 1, 1, 1, 1, 1.5, 2, 3, 3};
static augur_dx_path_site path[] = {
    {.callsite = 0, .compute_seconds = 4.9e-6, .mpi_seconds = 1e-7, .share = 0.82},
    {.callsite = 3,
     .function = "main<int>",
     .file = "x.c",
     .line = 9,
     .compute_seconds = 1e-6,
     .mpi_seconds = 1e-7,
     .share = 0.18}};
static char *notes[] = {"No counters: <cause> of imbalance not split by work."};

/* Figures computed elsewhere (the CLI gives the POP efficiencies): strings
 * are the caller's; one figure unknown (negative), one NaN. */
static const augur_dx_figure figrows[] = {
    {"parallel", "parallel <efficiency>", "= load balance x communication", 0, 0.5},
    {"load_balance", "load balance", "avg / max useful", 1, 2.0 / 3},
    {"communication", "communication", "max useful / run time", 1, 0.75},
    {"serialisation", "serialisation", "max useful / ideal-network run time", 2, -1},
    {"transfer", "transfer", NULL, 2, NAN}};
static const char *const fignotes[] = {"oversubscribed: 3 ranks on 1 CPU (host <h&1>)"};
static const augur_dx_figures pop_figs[] = {{.id = "efficiencies",
                                             .title = "Efficiencies (POP)",
                                             .notes = fignotes,
                                             .nnotes = 1,
                                             .rows = figrows,
                                             .nrows = 5,
                                             .detail = "run time 6 us & more"}};

static augur_diagnosis make_diagnosis(void) {
  augur_diagnosis d;
  memset(&d, 0, sizeof d);
  d.nranks = NRANKS;
  d.t_begin = 1000;
  d.t_end = 7000;
  d.total_seconds = 6e-6;
  d.process_seconds = 18e-6;
  d.events = 9;
  d.wait_seconds[AUGUR_DX_WAIT_AT_BARRIER] = 6.9e-6;
  d.wait_instances[AUGUR_DX_WAIT_AT_BARRIER] = 2;
  d.nfindings = 3;
  d.findings = findings;
  d.nbelow = 1;
  d.min_share = 0.02;
  d.nintervals = 2;
  d.intervals = intervals;
  d.nbins = 10;
  d.bin_ns = 600;
  d.active = active;
  d.path_seconds = 6e-6;
  d.npath = 2;
  d.path = path;
  d.nnotes = 1;
  d.notes = notes;
  return d;
}

/* Renders d (with the trace when with_trace, and the NFIGS tables FIGS)
 * into memory; returns the writer's status, the page in *page (caller
 * frees). */
static int render_figures(const augur_diagnosis *d, int with_trace, const augur_dx_figures *figs,
                          size_t nfigs, char **page, augur_error *err) {
  augur_trace *t = NULL;
  if (with_trace) assert_int_equal(augur_trace_open(&t, trace_dir, err), 0);
  FILE *f = tmpfile();
  assert_non_null(f);
  int rc = augur_diagnosis_write_html(d, t, f, "diagnosis of <demo> & co", figs, nfigs, err);
  if (t) augur_trace_close(t);
  long n = ftell(f);
  assert_true(n >= 0);
  rewind(f);
  *page = calloc((size_t)n + 1, 1);
  assert_non_null(*page);
  assert_int_equal(fread(*page, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  return rc;
}

static int render(const augur_diagnosis *d, int with_trace, char **page, augur_error *err) {
  return render_figures(d, with_trace, NULL, 0, page, err);
}

static int count(const char *s, const char *needle) {
  int n = 0;
  for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
    n++;
  return n;
}

static void test_page(void **state) {
  (void)state;
  augur_diagnosis d = make_diagnosis();
  augur_error err = {0};
  char *page = NULL;
  int rc = render(&d, 1, &page, &err);
  if (rc) fail_msg("write_html returned %d: %s", rc, err.msg);

  assert_true(strncmp(page, "<!DOCTYPE html>", 15) == 0);
  assert_null(strstr(page, "<?xml"));
  assert_non_null(strstr(page, "</html>\n"));
  /* one <svg> per drawing: the timeline and the active-process curve */
  assert_int_equal(count(page, "<svg"), 2);
  assert_int_equal(count(page, "</svg>"), 2);
  assert_non_null(strstr(page, "id=\"augur-timeline\""));
  assert_non_null(strstr(page, "id=\"active-curve\""));
  /* the timeline shows the analysed window (t_begin .. t_end), not the whole trace */
  assert_non_null(strstr(page, "window 1 \xc2\xb5s to 7 \xc2\xb5s after the trace start"));

  /* exactly the findings, ranked as given, with their pattern */
  assert_int_equal(count(page, "<tr class=\"finding\""), 3);
  assert_non_null(strstr(page, "<tr class=\"finding\" id=\"finding-1\" "
                               "data-pattern=\"wait_at_barrier\">"));
  assert_non_null(strstr(page, "id=\"finding-2\" data-pattern=\"load_imbalance\""));
  assert_non_null(strstr(page, "id=\"finding-3\" data-pattern=\"late_sender\""));
  assert_null(strstr(page, "id=\"finding-4\""));
  assert_true(strstr(page, "id=\"finding-1\"") < strstr(page, "id=\"finding-2\""));
  assert_non_null(strstr(page, "3 findings above 2 % of process-time"));

  /* everything from the trace or the analysis is escaped */
  assert_non_null(strstr(page, "<code>f&lt;&amp;&gt;g</code>"));
  assert_non_null(strstr(page, "a&amp;b.c:7"));
  assert_null(strstr(page, "f<&>g"));
  assert_null(strstr(page, "<work>"));
  assert_null(strstr(page, "<demo>"));
  assert_null(strstr(page, "<cause>"));
  assert_non_null(strstr(page, "<title>diagnosis of &lt;demo&gt; &amp; co</title>"));
  assert_non_null(strstr(page, "rank 2 takes 2x &quot;longer&quot;"));
  assert_non_null(strstr(page, "No counters: &lt;cause&gt; of imbalance"));
  assert_non_null(strstr(page, "<code>main&lt;int&gt;</code>"));

  /* the marks of every finding on the timeline, and the intervals */
  assert_int_equal(count(page, "<rect class=\"mark\""), 4);
  assert_non_null(strstr(page, "<title>wait_at_barrier: 0.00000390 s lost on rank 0 "
                               "(finding #1)</title>"));
  assert_non_null(strstr(page, "wait_at_barrier: 0.00000290 s lost on rank 1 (finding #1)"));
  assert_non_null(strstr(page, "load_imbalance: 0.00000390 s lost on rank 0 (finding #2)"));
  assert_non_null(strstr(page, "late_sender: 0.000000500 s lost on rank 2 (finding #3)"));
  assert_int_equal(count(page, "<g class=\"band\">"), 2);
  assert_int_equal(count(page, "<rect class=\"interval-band\""), 2);
  assert_int_equal(count(page, "<tr class=\"interval\""), 2);
  assert_non_null(strstr(page, "<a href=\"#finding-1\">#1 wait_at_barrier</a>"));

  /* wait states: all seven, the totals; the critical path */
  assert_int_equal(count(page, "<tr class=\"wait-state\""), AUGUR_DX_NWAITSTATES);
  assert_non_null(strstr(page, "data-pattern=\"wait_at_barrier\"><td><code>wait_at_barrier"
                               "</code> Wait at barrier</td><td class=\"num\">0.00000690 s"));
  assert_int_equal(count(page, "<tr class=\"path-site\""), 2);
  assert_non_null(strstr(page, "program start"));
  assert_non_null(strstr(page, "82.0 %"));
  free(page);
}

/* The caller's figures: a table under the run's facts, before the
 * timeline, the notes first, every string escaped, each row with its key,
 * depth and value (an unknown one said, no number); without figures, no
 * table (the page as before). */
static void test_figures(void **state) {
  (void)state;
  augur_diagnosis d = make_diagnosis();
  augur_error err = {0};
  char *page = NULL;
  int rc = render_figures(&d, 1, pop_figs, 1, &page, &err);
  if (rc) fail_msg("write_html returned %d: %s", rc, err.msg);
  const char *table = strstr(page, "<table class=\"figures\" id=\"efficiencies\">");
  assert_non_null(table);
  assert_true(strstr(page, "id=\"run\"") < table);
  assert_true(table < strstr(page, "<h2>Timeline</h2>"));
  assert_true(strstr(page, "<h2>Efficiencies (POP)</h2>") < table);
  assert_non_null(strstr(page, "<li class=\"warning\">warning: oversubscribed: 3 ranks on 1 CPU "
                               "(host &lt;h&amp;1&gt;)</li>"));
  assert_int_equal(count(page, "<tr class=\"figure\""), 5);
  assert_non_null(strstr(page, "<tr class=\"figure\" data-key=\"parallel\"><th "
                               "style=\"padding-left:8px\">parallel &lt;efficiency&gt;</th><td "
                               "class=\"num\" data-value=\"0.5\">0.500</td><td>= load balance x "
                               "communication</td></tr>"));
  assert_non_null(strstr(page, "data-key=\"load_balance\"><th style=\"padding-left:26px\">load "
                               "balance</th><td class=\"num\" "
                               "data-value=\"0.66666666666666663\">0.667</td>"));
  /* unknown: negative and NaN alike, no number invented */
  assert_non_null(strstr(page, "data-key=\"serialisation\"><th style=\"padding-left:44px\">"
                               "serialisation</th><td class=\"num unknown\">unknown</td>"));
  assert_non_null(strstr(page, "data-key=\"transfer\"><th style=\"padding-left:44px\">transfer"
                               "</th><td class=\"num unknown\">unknown</td><td></td></tr>"));
  assert_null(strstr(page, "nan"));
  assert_non_null(strstr(page, "<p class=\"explain\">run time 6 us &amp; more</p>"));
  free(page);

  /* no rows (nothing to measure): the notes and the detail, no table */
  augur_dx_figures none = pop_figs[0];
  none.nrows = 0;
  none.detail = "no rank has a window";
  assert_int_equal(render_figures(&d, 0, &none, 1, &page, &err), 0);
  assert_null(strstr(page, "<table class=\"figures\""));
  assert_non_null(strstr(page, "<li class=\"warning\">"));
  assert_non_null(strstr(page, "no rank has a window"));
  free(page);

  assert_int_equal(render(&d, 1, &page, &err), 0);
  assert_null(strstr(page, "<table class=\"figures\""));
  assert_null(strstr(page, "<tr class=\"figure\""));
  assert_null(strstr(page, "Efficiencies"));
  free(page);
}

static void test_nothing_found_no_trace(void **state) {
  (void)state;
  augur_diagnosis d = make_diagnosis();
  d.nfindings = 0;
  d.nintervals = 0;
  d.active = NULL;
  d.nbins = 0;
  augur_error err = {0};
  char *page = NULL;
  int rc = render(&d, 0, &page, &err);
  if (rc) fail_msg("write_html returned %d: %s", rc, err.msg);
  assert_non_null(strstr(page, "nothing above the threshold"));
  assert_int_equal(count(page, "<tr class=\"finding\""), 0);
  assert_int_equal(count(page, "<svg"), 1); /* the (empty) curve; no timeline without a trace */
  assert_non_null(strstr(page, "no active-process curve"));
  free(page);
}

static void test_write_errors(void **state) {
  (void)state;
  augur_diagnosis d = make_diagnosis();
  augur_trace *t = NULL;
  augur_error err = {0};
  assert_int_equal(augur_trace_open(&t, trace_dir, &err), 0);

  FILE *f = fopen("/dev/full", "w");
  assert_non_null(f);
  assert_int_equal(augur_diagnosis_write_html(&d, t, f, NULL, NULL, 0, &err), -1);
  assert_int_equal(err.code, AUGUR_E_IO);
  assert_non_null(strstr(err.msg, "No space left"));
  fclose(f);

  /* a stream not open for writing */
  memset(&err, 0, sizeof err);
  f = fopen("/dev/null", "r");
  assert_non_null(f);
  assert_int_equal(augur_diagnosis_write_html(&d, NULL, f, NULL, NULL, 0, &err), -1);
  assert_int_equal(err.code, AUGUR_E_IO);
  fclose(f);

  memset(&err, 0, sizeof err);
  assert_int_equal(augur_diagnosis_write_html(NULL, t, stdout, NULL, NULL, 0, &err), -1);
  assert_int_equal(err.code, AUGUR_E_ARG);
  augur_trace_close(t);
}

static void test_bad_mark(void **state) {
  (void)state;
  /* A mark on a rank the trace does not have: the timeline's error is passed
   * on and nothing is written. */
  augur_diagnosis d = make_diagnosis();
  augur_dx_mark bad = {7, 100, 200};
  augur_dx_finding fd = findings[0];
  fd.nmarks = 1;
  fd.marks = &bad;
  d.findings = &fd;
  d.nfindings = 1;
  augur_error err = {0};
  char *page = NULL;
  assert_int_equal(render(&d, 1, &page, &err), -1);
  assert_int_equal(err.code, AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "rank 7"));
  assert_string_equal(page, "");
  free(page);
}

/* What the page needs from the timeline module: bands over all rows and the
 * bare <svg> element. */
static void test_timeline_band(void **state) {
  (void)state;
  augur_trace *t = NULL;
  augur_error err = {0};
  assert_int_equal(augur_trace_open(&t, trace_dir, &err), 0);
  augur_tl_options o = {.width = 200};
  augur_timeline *tl = NULL;
  assert_int_equal(augur_timeline_build(&tl, t, &o, &err), 0);
  augur_trace_close(t);

  char *page = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&page, &n);
  assert_int_equal(augur_timeline_write_svg(tl, f, "t", &err), 0);
  fclose(f);
  assert_null(strstr(page, "data-state=\"band\"")); /* no band, no legend entry */
  free(page);

  assert_int_equal(augur_timeline_band(tl, 300, 200, "x", &err), AUGUR_E_ARG);
  assert_int_equal(augur_timeline_band(tl, 2000, 5900, "a <band> & more", &err), 0);
  f = open_memstream(&page, &n);
  assert_int_equal(augur_timeline_write_svg_element(tl, f, "t", &err), 0);
  fclose(f);
  assert_true(strncmp(page, "<svg ", 5) == 0);
  assert_int_equal(count(page, "<g class=\"band\">"), 1);
  assert_non_null(strstr(page, "<title>a &lt;band&gt; &amp; more</title>"));
  assert_non_null(strstr(page, "data-state=\"band\""));
  free(page);
  augur_timeline_free(tl);
}

static int write_page(const char *out) {
  if (setup(NULL)) return 1;
  augur_diagnosis d = make_diagnosis();
  augur_error err = {0};
  augur_trace *t = NULL;
  int rc = augur_trace_open(&t, trace_dir, &err);
  FILE *f = rc ? NULL : fopen(out, "w");
  if (f) {
    rc = augur_diagnosis_write_html(&d, t, f, "diagnosis of <demo> & co", pop_figs, 1, &err);
    if (fclose(f)) rc = -1;
  } else if (!rc) {
    perror(out);
    rc = -1;
  }
  if (t) augur_trace_close(t);
  if (rc) fprintf(stderr, "write_html: %s\n", err.msg);
  return teardown(NULL) || rc ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--write")) return write_page(argv[2]);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_page),
      cmocka_unit_test(test_figures),
      cmocka_unit_test(test_nothing_found_no_trace),
      cmocka_unit_test(test_write_errors),
      cmocka_unit_test(test_bad_mark),
      cmocka_unit_test(test_timeline_band),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
