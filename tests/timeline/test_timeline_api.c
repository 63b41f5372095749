/* The timeline module called from C on a hand-built 2-rank trace whose every
 * interval and message is known.
 *
 * Both ranks have init_ns = 1000 and no clock sync, so global = local - 1000.
 * Global times:
 *   rank 0: Init 0-1000, Send(->1, tag 7) 2000-2100, Recv(<-1) 3000-4000,
 *           Barrier 5000-6000, Finalize 7000-7500; compute in between.
 *   rank 1: Init 0-500, Irecv(any) 1000-1100, Isend(->0) 1200-1300,
 *           Waitall 2500-3800 (completes both), Barrier 5500-6000,
 *           Finalize 7000-7200.
 * Messages: 0->1 sent at 2000, received at 3800 (end of the Waitall);
 *           1->0 sent at 1200, received at 4000 (end of the Recv). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "augur/timeline.h"
#include "augur/writer.h"

static char trace_dir[256];

static augur_event ev(unsigned type, uint64_t t0, uint64_t t1, int32_t peer, int32_t tag) {
  augur_event e;
  memset(&e, 0, sizeof e);
  e.type = (uint16_t)type;
  e.t_start = t0 + 1000;
  e.t_end = t1 + 1000;
  e.peer = peer;
  e.tag = tag;
  e.comm = type == AUGUR_EV_INIT || type == AUGUR_EV_FINALIZE || type == AUGUR_EV_WAITALL
               ? AUGUR_COMM_NONE
               : AUGUR_COMM_WORLD;
  return e;
}

static augur_event sub(uint64_t req, uint32_t index, int32_t peer, int32_t tag) {
  augur_event e;
  memset(&e, 0, sizeof e);
  e.type = AUGUR_EV_COMPLETION;
  e.req = req;
  e.aux = index;
  e.peer = peer;
  e.tag = tag;
  e.bytes_recv = peer >= 0 ? 10 : 0;
  return e;
}

static void write_rank(uint32_t rank, augur_event *evs, size_t n, uint64_t fin) {
  augur_error err = {0};
  augur_writer *w = NULL;
  assert_int_equal(augur_writer_open(&w, trace_dir, rank, 2, 0, &err), 0);
  int32_t members[2] = {0, 1};
  augur_rank_def rd = {.rank = rank,
                       .nranks = 2,
                       .host = "h",
                       .thread_level = -1,
                       .init_ns = 1000,
                       .finalize_ns = fin + 1000};
  augur_comm_def world = {
      .id = AUGUR_COMM_WORLD, .kind = AUGUR_COMM_KIND_WORLD, .size = 2, .members = members};
  assert_int_equal(augur_writer_def_rank(w, &rd, &err), 0);
  assert_int_equal(augur_writer_def_comm(w, &world, &err), 0);
  assert_int_equal(augur_writer_events(w, 0, evs, n, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
}

static int setup(void **state) {
  (void)state;
  snprintf(trace_dir, sizeof trace_dir, "%s/timeline-api-%ld.augur",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
  augur_error err = {0};
  augur_trace_meta meta = {.nranks = 2, .recorder = "test", .complete = 1};
  if (augur_meta_write(trace_dir, &meta, &err)) return -1;
  augur_event r0[] = {
      ev(AUGUR_EV_INIT, 0, 1000, AUGUR_PEER_NONE, AUGUR_TAG_NONE),
      ev(AUGUR_EV_SEND, 2000, 2100, 1, 7),
      ev(AUGUR_EV_RECV, 3000, 4000, 1, 7),
      ev(AUGUR_EV_BARRIER, 5000, 6000, AUGUR_PEER_NONE, AUGUR_TAG_NONE),
      ev(AUGUR_EV_FINALIZE, 7000, 7500, AUGUR_PEER_NONE, AUGUR_TAG_NONE),
  };
  augur_event irecv = ev(AUGUR_EV_IRECV, 1000, 1100, AUGUR_PEER_ANY, AUGUR_TAG_ANY);
  irecv.req = 0xB1;
  irecv.flags = AUGUR_F_ANY_SOURCE | AUGUR_F_ANY_TAG;
  augur_event isend = ev(AUGUR_EV_ISEND, 1200, 1300, 0, 7);
  isend.req = 0xB2;
  augur_event wall = ev(AUGUR_EV_WAITALL, 2500, 3800, AUGUR_PEER_NONE, AUGUR_TAG_NONE);
  wall.aux = 2;
  augur_event r1[] = {
      ev(AUGUR_EV_INIT, 0, 500, AUGUR_PEER_NONE, AUGUR_TAG_NONE),
      irecv,
      isend,
      wall,
      sub(0xB1, 0, 0, 7),
      sub(0xB2, 1, AUGUR_PEER_NONE, AUGUR_TAG_NONE),
      ev(AUGUR_EV_BARRIER, 5500, 6000, AUGUR_PEER_NONE, AUGUR_TAG_NONE),
      ev(AUGUR_EV_FINALIZE, 7000, 7200, AUGUR_PEER_NONE, AUGUR_TAG_NONE),
  };
  write_rank(0, r0, sizeof r0 / sizeof r0[0], 7500);
  write_rank(1, r1, sizeof r1 / sizeof r1[0], 7200);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", trace_dir);
  return system(cmd) == 0 ? 0 : -1;
}

static augur_timeline *build(augur_tl_options *o, int want_rc) {
  augur_trace *t = NULL;
  augur_error err = {0};
  assert_int_equal(augur_trace_open(&t, trace_dir, &err), 0);
  augur_timeline *tl = NULL;
  int rc = augur_timeline_build(&tl, t, o, &err);
  if (rc != want_rc) fail_msg("build returned %d (%s), want %d", rc, err.msg, want_rc);
  /* the timeline keeps no reference to the trace's streams: close it early */
  augur_trace_close(t);
  return tl;
}

/* TL written as SVG (HTML 0) or as an HTML page titled TITLE, in a string to free. */
static char *render(const augur_timeline *tl, int html, const char *title) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  augur_error err = {0};
  int rc = html ? augur_timeline_write_html(tl, f, title, &err)
                : augur_timeline_write_svg(tl, f, title, &err);
  assert_int_equal(rc, 0);
  fclose(f);
  return buf;
}

static void test_states(void **state) {
  (void)state;
  assert_int_equal(augur_tl_state_of(AUGUR_EV_ISEND), AUGUR_TL_SEND);
  assert_int_equal(augur_tl_state_of(AUGUR_EV_WAITALL), AUGUR_TL_RECV);
  assert_int_equal(augur_tl_state_of(AUGUR_EV_SENDRECV), AUGUR_TL_RECV);
  assert_int_equal(augur_tl_state_of(AUGUR_EV_BARRIER), AUGUR_TL_BARRIER);
  assert_int_equal(augur_tl_state_of(AUGUR_EV_IALLREDUCE), AUGUR_TL_COLL);
  assert_int_equal(augur_tl_state_of(AUGUR_EV_INIT), AUGUR_TL_OTHER);
  assert_string_equal(augur_tl_state_name(AUGUR_TL_COMPUTE), "compute");
}

static void test_whole_run(void **state) {
  (void)state;
  augur_tl_options o = {.width = 75};
  augur_timeline *tl = build(&o, 0);
  augur_tl_summary s;
  augur_timeline_summary(tl, &s);
  assert_int_equal(s.from, 0);
  assert_int_equal(s.to, 7500);
  assert_int_equal(s.rank_lo, 0);
  assert_int_equal(s.rank_hi, 1);
  assert_int_equal(s.messages, 2);
  assert_int_equal(s.messages_drawn, 2);
  assert_int_equal(s.unmatched_sends, 0);
  assert_true(s.exact);

  uint64_t v[AUGUR_TL_NSTATES];
  augur_timeline_rank_totals(tl, 0, v);
  assert_int_equal(v[AUGUR_TL_COMPUTE], 3900);
  assert_int_equal(v[AUGUR_TL_SEND], 100);
  assert_int_equal(v[AUGUR_TL_RECV], 1000);
  assert_int_equal(v[AUGUR_TL_BARRIER], 1000);
  assert_int_equal(v[AUGUR_TL_OTHER], 1500);
  augur_timeline_rank_totals(tl, 1, v);
  assert_int_equal(v[AUGUR_TL_RECV], 100 + 1300);
  assert_int_equal(v[AUGUR_TL_SEND], 100);
  assert_int_equal(v[AUGUR_TL_COMPUTE], 500 + 100 + 1200 + 1700 + 1000);

  size_t n;
  const augur_tl_interval *iv = augur_timeline_intervals(tl, 0, &n);
  assert_non_null(iv);
  assert_int_equal(n, 9);
  assert_int_equal(iv[0].type, AUGUR_EV_INIT);
  assert_int_equal(iv[1].state, AUGUR_TL_COMPUTE);
  assert_int_equal(iv[1].t0, 1000);
  assert_int_equal(iv[1].t1, 2000);
  assert_int_equal(iv[2].type, AUGUR_EV_SEND);

  /* 100 ns per column: column 0 is Init, column 20 the Send */
  float c[AUGUR_TL_NSTATES];
  augur_timeline_column(tl, 0, 0, c);
  assert_float_equal(c[AUGUR_TL_OTHER], 1.0, 1e-5);
  augur_timeline_column(tl, 0, 20, c);
  assert_float_equal(c[AUGUR_TL_SEND], 1.0, 1e-5);
  augur_timeline_column(tl, 1, 5, c); /* rank 1: Init ended at 500 */
  assert_float_equal(c[AUGUR_TL_COMPUTE], 1.0, 1e-5);
  assert_float_equal(c[AUGUR_TL_OTHER], 0.0, 1e-5);

  const augur_tl_message *m = augur_timeline_messages(tl, &n);
  assert_int_equal(n, 2);
  /* kept in the order their receive was seen: 0->1 ends at 3800, 1->0 at 4000 */
  assert_int_equal(m[0].sender, 0);
  assert_int_equal(m[0].receiver, 1);
  assert_int_equal(m[0].t_send, 2000);
  assert_int_equal(m[0].t_recv, 3800);
  assert_int_equal(m[1].sender, 1);
  assert_int_equal(m[1].t_send, 1200);
  assert_int_equal(m[1].t_recv, 4000);
  assert_int_equal(m[1].tag, 7);
  augur_timeline_free(tl);
}

/* Both ranks in one row (group 2): each column the mean of theirs, the totals
 * their sums, no exact intervals, one row drawn for the two. */
static void test_group(void **state) {
  (void)state;
  augur_tl_options o = {.width = 75, .group = 2};
  augur_timeline *tl = build(&o, 0);
  augur_tl_summary s;
  augur_timeline_summary(tl, &s);
  assert_false(s.exact);
  uint64_t v[AUGUR_TL_NSTATES];
  augur_timeline_rank_totals(tl, 1, v);
  assert_int_equal(v[AUGUR_TL_COMPUTE], 3900 + 500 + 100 + 1200 + 1700 + 1000);
  assert_int_equal(v[AUGUR_TL_SEND], 200);
  size_t n;
  assert_null(augur_timeline_intervals(tl, 0, &n));
  assert_int_equal(n, 0);
  float c[AUGUR_TL_NSTATES];
  augur_timeline_column(tl, 0, 5, c); /* rank 0 in Init (other), rank 1 computing */
  assert_float_equal(c[AUGUR_TL_OTHER], 0.5, 1e-5);
  assert_float_equal(c[AUGUR_TL_COMPUTE], 0.5, 1e-5);
  augur_timeline_column(tl, 1, 20, c); /* rank 0 sending, rank 1 computing */
  assert_float_equal(c[AUGUR_TL_SEND], 0.5, 1e-5);
  assert_float_equal(c[AUGUR_TL_COMPUTE], 0.5, 1e-5);
  char *buf = render(tl, 0, "g");
  assert_non_null(strstr(buf, "id=\"ranks-0-1\""));
  assert_null(strstr(buf, "id=\"rank-0\""));
  assert_non_null(strstr(buf, "a row per 2 ranks, their mean"));
  free(buf);
  augur_timeline_free(tl);
  assert_int_equal(augur_tl_group_for(64), 1);
  assert_int_equal(augur_tl_group_for(65), 2);
  assert_int_equal(augur_tl_group_for(65536), 1024);
}

static void test_window(void **state) {
  (void)state;
  augur_tl_options o = {.from = 2050, .to = 3500, .rank_lo = 0, .rank_count = 1};
  augur_timeline *tl = build(&o, 0);
  uint64_t v[AUGUR_TL_NSTATES];
  augur_timeline_rank_totals(tl, 0, v);
  assert_int_equal(v[AUGUR_TL_SEND], 50);
  assert_int_equal(v[AUGUR_TL_COMPUTE], 900);
  assert_int_equal(v[AUGUR_TL_RECV], 500);
  assert_int_equal(v[AUGUR_TL_OTHER], 0);
  augur_tl_summary s;
  augur_timeline_summary(tl, &s);
  assert_int_equal(s.messages, 0); /* rank 1 is outside the range */
  augur_timeline_free(tl);

  augur_tl_options o2 = {.from = 3900, .to = 7500};
  tl = build(&o2, 0);
  size_t n;
  const augur_tl_message *m = augur_timeline_messages(tl, &n);
  assert_int_equal(n, 1); /* 0->1 ended at 3800, before the window */
  assert_int_equal(m[0].sender, 1);
  augur_timeline_free(tl);
}

static void test_sampling_and_overflow(void **state) {
  (void)state;
  augur_tl_options o = {.width = 1, .max_arrows = 1};
  augur_timeline *tl = build(&o, 0);
  augur_tl_summary s;
  augur_timeline_summary(tl, &s);
  assert_int_equal(s.messages, 2);
  assert_int_equal(s.messages_drawn, 1);
  assert_false(s.exact); /* 9 intervals > 2 per column */
  size_t n;
  assert_null(augur_timeline_intervals(tl, 0, &n));
  assert_int_equal(n, 0);
  uint64_t v[AUGUR_TL_NSTATES];
  augur_timeline_rank_totals(tl, 0, v);
  assert_int_equal(v[AUGUR_TL_COMPUTE], 3900); /* totals stay exact */
  float c[AUGUR_TL_NSTATES];
  augur_timeline_column(tl, 0, 0, c);
  assert_float_equal(c[AUGUR_TL_COMPUTE], 3900.0 / 7500, 1e-4);
  augur_timeline_free(tl);
}

static void test_errors(void **state) {
  (void)state;
  augur_tl_options o = {.rank_lo = 0, .rank_count = 3};
  assert_null(build(&o, AUGUR_E_ARG));
  augur_tl_options o2 = {.from = 5000, .to = 4000};
  assert_null(build(&o2, AUGUR_E_ARG));
  augur_tl_options o3 = {.rank_lo = 2};
  assert_null(build(&o3, AUGUR_E_ARG));
  augur_timeline *tl = build(NULL, 0); /* NULL options: whole run, all ranks */
  augur_tl_summary s;
  augur_timeline_summary(tl, &s);
  assert_int_equal(s.rank_hi, 1);
  assert_int_equal(s.width, 1600);
  augur_timeline_free(tl);
}

static void test_marks_and_svg(void **state) {
  (void)state;
  augur_tl_options o = {.width = 300};
  augur_timeline *tl = build(&o, 0);
  augur_error err = {0};
  assert_int_equal(augur_timeline_mark(tl, 1, 2500, 3800, "late <sender> & co", &err), 0);
  assert_int_equal(augur_timeline_mark(tl, 5, 0, 10, "x", &err), AUGUR_E_ARG);
  assert_int_equal(augur_timeline_mark(tl, 0, 10, 5, "x", &err), AUGUR_E_ARG);
  char *buf = render(tl, 0, "t<1>");
  assert_non_null(strstr(buf, "xmlns=\"http://www.w3.org/2000/svg\""));
  assert_non_null(strstr(buf, "class=\"mark\""));
  assert_non_null(strstr(buf, "late &lt;sender&gt; &amp; co"));
  assert_non_null(strstr(buf, ">t&lt;1&gt;</text>"));
  assert_null(strstr(buf, "t<1>"));
  /* two arrows, one row per rank */
  size_t arrows = 0, rows = 0;
  for (const char *p = buf; (p = strstr(p, "class=\"msg\"")) != NULL; p++)
    arrows++;
  for (const char *p = buf; (p = strstr(p, "class=\"row\"")) != NULL; p++)
    rows++;
  assert_int_equal(arrows, 2);
  assert_int_equal(rows, 2);
  free(buf);

  buf = render(tl, 1, "t");
  assert_non_null(strstr(buf, "<!DOCTYPE html>"));
  assert_non_null(strstr(buf, "<table id=\"summary\">"));
  assert_non_null(strstr(buf, "<tr class=\"rank-row\"><td>1</td>"));
  free(buf);
  augur_timeline_free(tl);
}

/* 300 messages 0->1, one tag each, received in the reverse order: every
 * receive but the last waits for its send, queues come and go (the table's
 * deletion path), and each message must still pair with its own tag. */
static void test_many_tags(void **state) {
  (void)state;
  char dir[256];
  snprintf(dir, sizeof dir, "%.240s.tags", trace_dir);
  enum { N = 300 };
  static augur_event r0[N + 2], r1[N + 2];
  r0[0] = ev(AUGUR_EV_INIT, 0, 100, AUGUR_PEER_NONE, AUGUR_TAG_NONE);
  r1[0] = ev(AUGUR_EV_INIT, 0, 100, AUGUR_PEER_NONE, AUGUR_TAG_NONE);
  for (int i = 0; i < N; i++) {
    r0[1 + i] = ev(AUGUR_EV_SEND, 1000 + i * 100, 1000 + i * 100 + 10, 1, i);
    r1[1 + i] = ev(AUGUR_EV_RECV, 1000 + i * 100 + 50, 1000 + i * 100 + 60, 0, N - 1 - i);
  }
  r0[N + 1] = ev(AUGUR_EV_FINALIZE, 100000, 100100, AUGUR_PEER_NONE, AUGUR_TAG_NONE);
  r1[N + 1] = ev(AUGUR_EV_FINALIZE, 100000, 100100, AUGUR_PEER_NONE, AUGUR_TAG_NONE);
  char saved[256];
  memcpy(saved, trace_dir, sizeof saved);
  snprintf(trace_dir, sizeof trace_dir, "%s", dir);
  augur_error err = {0};
  augur_trace_meta meta = {.nranks = 2, .recorder = "test", .complete = 1};
  assert_int_equal(augur_meta_write(trace_dir, &meta, &err), 0);
  write_rank(0, r0, N + 2, 100100);
  write_rank(1, r1, N + 2, 100100);
  augur_tl_options o = {.max_arrows = 1000};
  augur_timeline *tl = build(&o, 0);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", trace_dir);
  memcpy(trace_dir, saved, sizeof saved);
  assert_int_equal(system(cmd), 0);
  size_t n;
  const augur_tl_message *m = augur_timeline_messages(tl, &n);
  assert_int_equal(n, N);
  for (size_t i = 0; i < n; i++) {
    int32_t tag = m[i].tag;
    assert_true(tag >= 0 && tag < N);
    assert_int_equal(m[i].t_send, 1000 + (uint64_t)tag * 100);
    assert_int_equal(m[i].t_recv, 1000 + (uint64_t)(N - 1 - tag) * 100 + 60);
  }
  augur_tl_summary s;
  augur_timeline_summary(tl, &s);
  assert_int_equal(s.unmatched_sends, 0);
  augur_timeline_free(tl);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_states),    cmocka_unit_test(test_whole_run),
      cmocka_unit_test(test_window),    cmocka_unit_test(test_sampling_and_overflow),
      cmocka_unit_test(test_errors),    cmocka_unit_test(test_marks_and_svg),
      cmocka_unit_test(test_many_tags), cmocka_unit_test(test_group),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
