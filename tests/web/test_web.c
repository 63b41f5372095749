/* augur web in C: escaping, parameter checks, the shared query builder
 * (src/collector/mon_query.c) on a real (empty) monitoring database, and
 * the page's status codes. The HTTP side is tested end to end in web.sh. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "mon_query.h"
#include "mon_store.h"
#include "web.h"

static char dbpath[256];

static int setup(void **state) {
  (void)state;
  snprintf(dbpath, sizeof dbpath, "%s/augur-web-test-%d.db",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
  mon_db *db;
  char why[256];
  if (mon_db_open(&db, dbpath, why, sizeof why) < 0) return -1; /* creates the schema */
  mon_db_close(db);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char p[300];
  unlink(dbpath);
  snprintf(p, sizeof p, "%s-wal", dbpath);
  unlink(p);
  snprintf(p, sizeof p, "%s-shm", dbpath);
  unlink(p);
  return 0;
}

static void escaping(void **state) {
  (void)state;
  web_buf w = {0};
  wb_html(&w, "<a href=\"x\" onclick='y'>&</a>");
  assert_string_equal(w.b, "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  wb_free(&w);
  wb_url(&w, "a b&c=d/é");
  assert_string_equal(w.b, "a%20b%26c%3Dd%2F%C3%A9");
  wb_free(&w);
  wb_num(&w, NAN);
  wb_num(&w, 1.5);
  assert_string_equal(w.b, "&#8211;1.5");
  wb_free(&w);
  /* Long output grows the buffer. */
  for (int i = 0; i < 10000; i++)
    wb_printf(&w, "%d,", i);
  assert_int_equal(w.oom, 0);
  assert_true(w.len > 40000);
  wb_free(&w);
}

static void parameters(void **state) {
  (void)state;
  web_req r;
  web_req_init(&r);
  assert_int_equal(web_req_add(&r, "by", "rank"), 0);
  assert_int_equal(r.by, MON_BY_RANK);
  assert_int_equal(web_req_add(&r, "m", "wall_s,cpu_s"), 0);
  assert_int_equal(web_req_add(&r, "m", "cpu_s"), 0); /* repeated: kept once */
  assert_int_equal(r.nm, 2);
  assert_int_equal(web_req_add(&r, "agg", "max,avg,max"), 0);
  assert_int_equal(r.nagg, 2);
  assert_int_equal(web_req_add(&r, "job", "12"), 0);
  assert_int_equal(web_req_add(&r, "limit", "10000"), 0);
  assert_int_equal(web_req_add(&r, "user", "o'brien <x>"), 0); /* a value, bound later */
  assert_int_equal(web_req_add(&r, "cluster", ""), 0);         /* "any" */
  assert_int_equal(web_req_add(&r, "token", "whatever"), 0);   /* the server's */
  static const char *const bad[][2] = {
      {"by", "galaxy"}, {"agg", "median"},  {"view", "pie"},
      {"limit", "0"},   {"limit", "10001"}, {"job", "x"},
      {"job", "0"},     {"job", "1e3"},     {"rank", "-1"},
      {"desc", "2"},    {"sql", "yes"},     {"frob", "1"},
      {"frob", ""},     {"proc", " 1"},     {"job", "99999999999999999999"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    web_req b;
    web_req_init(&b);
    assert_int_equal(web_req_add(&b, bad[i][0], bad[i][1]), -1);
    assert_true(strlen(b.error) > 0);
  }
  char big[300];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  web_req b;
  web_req_init(&b);
  assert_int_equal(web_req_add(&b, "node", big), -1);
  web_req_init(&b);
  for (int i = 0; i < WEB_MAXM; i++) {
    char m[16];
    snprintf(m, sizeof m, "m%d", i);
    assert_int_equal(web_req_add(&b, "m", m), 0);
  }
  assert_int_equal(web_req_add(&b, "m", "one_more"), -1);
}

static void query(void **state) {
  (void)state;
  mon_qdb *db;
  char why[512], sql[8192];
  assert_int_equal(mon_query_open(dbpath, &db, why, sizeof why), 0);
  assert_true(mon_query_metric_ok(db, MON_BY_RANK, "wall_s"));
  assert_true(mon_query_metric_ok(db, MON_BY_RANK, "maxrss_kb"));
  assert_true(mon_query_metric_ok(db, MON_BY_THREAD, "cpu_s"));
  assert_false(mon_query_metric_ok(db, MON_BY_THREAD, "maxrss_kb"));
  assert_false(mon_query_metric_ok(db, MON_BY_RANK, "nosuch"));
  assert_false(mon_query_metric_ok(db, MON_BY_RANK, "wall_s\""));
  assert_false(mon_query_metric_ok(db, MON_BY_RANK, "WALL_S"));
  assert_false(mon_query_metric_ok(db, MON_BY_RANK, ""));
  /* Read-only: a write fails. */
  mon_rows *w = mon_rows_query(db, "DELETE FROM job", 0, NULL, why, sizeof why);
  if (w) {
    assert_int_equal(mon_rows_next(w), 0);
    assert_non_null(mon_rows_error(w));
    mon_rows_free(w);
  }

  for (int by = 0; by < MON_BY_N; by++) {
    mon_query q = {0};
    q.by = by;
    q.user = "x'; DROP TABLE job; --";
    q.node = "n";
    q.job = 3;
    q.has_rank = 1;
    q.order = 0;
    q.desc = 1;
    q.limit = 5;
    q.ncol = MON_AGG_N;
    for (int a = 0; a < MON_AGG_N; a++) {
      q.metric[a] = "wall_s";
      q.agg[a] = a;
    }
    mon_rows *st = mon_query_run(db, &q, sql, sizeof sql, why, sizeof why);
    assert_non_null(st);
    assert_null(strstr(sql, "DROP")); /* values are bound, never in the text */
    assert_non_null(strstr(sql, "u.name=?"));
    assert_int_equal(mon_rows_ncol(st), MON_Q_FIRST + MON_AGG_N);
    assert_int_equal(mon_rows_next(st), 0);
    assert_null(mon_rows_error(st));
    mon_rows_free(st);
  }
  mon_query q = {0};
  q.by = MON_BY_JOB;
  q.limit = 0; /* refused */
  assert_null(mon_query_run(db, &q, sql, sizeof sql, why, sizeof why));
  q.limit = 1;
  q.ncol = 1;
  q.metric[0] = "a b";
  q.agg[0] = 0;
  assert_null(mon_query_run(db, &q, sql, sizeof sql, why, sizeof why));
  mon_query_close(db);
  assert_int_equal(mon_query_open("/nonexistent/augur.db", &db, why, sizeof why), -1);
  assert_null(db);
}

static void stats(void **state) {
  (void)state;
  mon_stat s;
  mon_stat_init(&s);
  assert_true(isnan(mon_stat_value(&s, MON_AGG_AVG)));
  mon_stat_add(&s, 1);
  mon_stat_add(&s, 3);
  assert_true(fabs(mon_stat_value(&s, MON_AGG_AVG) - 2) < 1e-12);
  assert_true(fabs(mon_stat_value(&s, MON_AGG_STDDEV) - 1) < 1e-12);
  assert_true(fabs(mon_stat_value(&s, MON_AGG_BALANCE) - 2.0 / 3) < 1e-12);
  assert_true(fabs(mon_stat_value(&s, MON_AGG_SUM) - 4) < 1e-12);
}

static void pages(void **state) {
  (void)state;
  web_req r;
  web_buf w = {0};
  web_req_init(&r);
  assert_int_equal(web_page(dbpath, &r, &w), 200);
  assert_non_null(strstr(w.b, "0 rows by <b>job</b>"));
  wb_free(&w);
  web_req_init(&r);
  web_req_add(&r, "m", "nosuch");
  assert_int_equal(web_page(dbpath, &r, &w), 400);
  wb_free(&w);
  web_req_init(&r);
  web_req_add(&r, "order", "<b>");
  assert_int_equal(web_page(dbpath, &r, &w), 400);
  assert_null(strstr(w.b, "<b>'"));
  wb_free(&w);
  web_req_init(&r);
  web_req_add(&r, "job", "5");
  assert_int_equal(web_page(dbpath, &r, &w), 404);
  wb_free(&w);
  web_req_init(&r);
  assert_int_equal(web_page("/nonexistent/augur.db", &r, &w), 500);
  wb_free(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(escaping), cmocka_unit_test(parameters), cmocka_unit_test(query),
      cmocka_unit_test(stats),    cmocka_unit_test(pages),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
