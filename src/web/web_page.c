/* augur web — the one page: pickers, the job's summary, a chart and the
 * table of the query, its SQL on request. Drill-down is a link per row (and
 * per bar or point) to the same page with the row's key as a filter and
 * the next resolution down: cluster → user → job → rank (or process) →
 * thread; node and program → process; step → its ranks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mon.h"
#include "web.h"

static const char *const style =
    "body{font:14px/1.4 'DejaVu Sans',sans-serif;margin:1em 2em;color:#222}"
    "h1{font-size:20px}h1 a{color:inherit;text-decoration:none}"
    "form{background:#f3f5f8;padding:.6em;border-radius:4px}"
    "form label{margin-right:1em;display:inline-block}"
    "table{border-collapse:collapse;margin-top:1em}"
    "td,th{border-bottom:1px solid #ddd;padding:2px 8px}td.n{text-align:right}"
    "tfoot td{background:#f6f6f6}.crumbs a{margin-right:.6em}"
    ".err{color:#a00;font-weight:bold}pre{background:#f6f6f6;padding:.6em;white-space:pre-wrap}"
    ".chart{display:block;margin:.6em 0}.ct{font-weight:bold;font-size:13px}"
    ".cl,.cv{font-size:11px}.chart a:hover rect,.chart a:hover circle{opacity:.6}"
    ".flag{color:#a00}";

/* Parameters carried by links, in this order; the first NFILTERS are the
 * filters. */
static const char *const carried[] = {"cluster", "user", "job",   "step", "node", "program",
                                      "rank",    "proc", "by",    "m",    "agg",  "view",
                                      "order",   "desc", "limit", "sql"};
#define NCARRIED (int)(sizeof carried / sizeof carried[0])
#define NFILTERS 8

/* The request's value of a carried parameter, into buf ("" = unset). */
static void req_value(const web_req *r, const char *key, char *buf, size_t n) {
  buf[0] = '\0';
  if (!strcmp(key, "cluster"))
    snprintf(buf, n, "%s", r->cluster);
  else if (!strcmp(key, "user"))
    snprintf(buf, n, "%s", r->user);
  else if (!strcmp(key, "step"))
    snprintf(buf, n, "%s", r->step);
  else if (!strcmp(key, "node"))
    snprintf(buf, n, "%s", r->node);
  else if (!strcmp(key, "program"))
    snprintf(buf, n, "%s", r->program);
  else if (!strcmp(key, "job") && r->job)
    snprintf(buf, n, "%lld", r->job);
  else if (!strcmp(key, "proc") && r->proc)
    snprintf(buf, n, "%lld", r->proc);
  else if (!strcmp(key, "rank") && r->has_rank)
    snprintf(buf, n, "%lld", r->rank);
  else if (!strcmp(key, "by") && r->by_given)
    snprintf(buf, n, "%s", mon_by_names[r->by]);
  else if (!strcmp(key, "view") && r->view)
    snprintf(buf, n, "%s", web_view_names[r->view]);
  else if (!strcmp(key, "order"))
    snprintf(buf, n, "%s", r->order);
  else if (!strcmp(key, "desc") && r->desc)
    snprintf(buf, n, "1");
  else if (!strcmp(key, "sql") && r->show_sql)
    snprintf(buf, n, "1");
  else if (!strcmp(key, "limit") && r->limit != 100)
    snprintf(buf, n, "%lld", r->limit);
  else if (!strcmp(key, "m")) {
    size_t at = 0;
    for (int i = 0; i < r->nm && at < n; i++)
      at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? "," : "", r->metric[i]);
  } else if (!strcmp(key, "agg")) {
    size_t at = 0;
    for (int i = 0; i < r->nagg && at < n; i++)
      at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? "," : "", mon_agg_names[r->agg[i]]);
  }
}

/* A link to the page with r's parameters, changed by (key, value) pairs
 * (NULL value: remove the key); written URL-encoded and HTML-escaped. */
static void web_link(web_buf *w, const web_req *r, int npairs, const char *const *pairs) {
  wb_raw(w, "/?");
  int first = 1;
  for (int k = 0; k < NCARRIED; k++) {
    char val[1024];
    req_value(r, carried[k], val, sizeof val);
    for (int p = 0; p < npairs; p++)
      if (!strcmp(pairs[2 * p], carried[k])) { /* a longer value is cut, as req_value does */
        const char *v = pairs[2 * p + 1] ? pairs[2 * p + 1] : "";
        size_t len = strnlen(v, sizeof val - 1);
        memcpy(val, v, len);
        val[len] = '\0';
      }
    if (!val[0]) continue;
    if (!first) wb_raw(w, "&amp;");
    first = 0;
    wb_raw(w, carried[k]);
    wb_raw(w, "=");
    web_buf u = {0};
    wb_url(&u, val);
    wb_html(w, u.b ? u.b : "");
    wb_free(&u);
  }
}

static void head(web_buf *w, const char *title) {
  wb_raw(w, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
  wb_html(w, title);
  wb_printf(w, "</title><style>%s</style></head><body>\n", style);
  wb_raw(w, "<h1><a href=\"/\">augur</a> &#8212; job monitoring</h1>\n");
}

static int error_page(web_buf *w, int status, const char *msg) {
  head(w, "augur: error");
  wb_raw(w, "<p class=\"err\" id=\"error\">");
  wb_html(w, msg);
  wb_raw(w, "</p><p><a href=\"/\">start again</a></p></body></html>\n");
  return status;
}

/* <option>s of a one-column query, the current value selected. */
static void options(web_buf *w, mon_qdb *db, const char *sql, const char *cur) {
  char why[256];
  mon_rows *st = mon_rows_query(db, sql, 0, NULL, why, sizeof why);
  if (!st) return;
  while (mon_rows_next(st)) {
    const char *v = mon_rows_text(st, 0);
    if (!v) continue;
    wb_raw(w, "<option value=\"");
    wb_html(w, v);
    wb_printf(w, "\"%s>", !strcmp(v, cur) ? " selected" : "");
    wb_html(w, v);
    wb_raw(w, "</option>");
  }
  mon_rows_free(st);
}

static void hidden(web_buf *w, const char *name, const char *value) {
  if (!value || !*value) return;
  wb_printf(w, "<input type=\"hidden\" name=\"%s\" value=\"", name);
  wb_html(w, value);
  wb_raw(w, "\">");
}

static void form(web_buf *w, mon_qdb *db, const web_req *r, int by, int ncol, char (*colname)[80],
                 const char *const *eff, int ne) {
  wb_raw(w, "<form method=\"get\" action=\"/\" id=\"pick\">\n<label>cluster <select "
            "name=\"cluster\"><option value=\"\">any</option>");
  options(w, db, "SELECT name FROM cluster ORDER BY name LIMIT 500", r->cluster);
  wb_raw(w, "</select></label><label>user <select name=\"user\"><option value=\"\">any</option>");
  options(w, db, "SELECT name FROM \"user\" ORDER BY name LIMIT 500", r->user);
  wb_raw(w, "</select></label><label>job <select name=\"job\"><option value=\"\">any</option>");
  char why[256];
  mon_rows *st = mon_rows_query(db,
                                "SELECT j.id, j.job_name, u.name, j.command FROM job j LEFT JOIN "
                                "\"user\" u ON u.id=j.user_id ORDER BY j.id DESC LIMIT 300",
                                0, NULL, why, sizeof why);
  if (st) {
    while (mon_rows_next(st)) {
      long long id = mon_rows_int(st, 0);
      wb_printf(w, "<option value=\"%lld\"%s>#%lld ", id, id == r->job ? " selected" : "", id);
      wb_html(w, mon_rows_text(st, 1));
      wb_raw(w, " (");
      wb_html(w, mon_rows_text(st, 2));
      wb_raw(w, ") ");
      const char *cmd = mon_rows_text(st, 3);
      char shortcmd[48];
      snprintf(shortcmd, sizeof shortcmd, "%s", cmd ? cmd : "");
      wb_html(w, shortcmd);
      wb_raw(w, "</option>");
    }
    mon_rows_free(st);
  }
  wb_raw(w, "</select></label><label>step <input name=\"step\" size=\"6\" value=\"");
  wb_html(w, r->step);
  wb_raw(w, "\"></label><br>\n<label>resolution <select name=\"by\"><option value=\"\">auto"
            "</option>");
  for (int i = 0; i < MON_BY_N; i++)
    wb_printf(w, "<option%s>%s</option>", r->by_given && i == by ? " selected" : "",
              mon_by_names[i]);
  wb_raw(w, "</select></label><label>metrics <select name=\"m\" multiple size=\"5\">");
  st = mon_rows_query(db, "SELECT name, unit, description FROM metric ORDER BY name", 0, NULL, why,
                      sizeof why);
  if (st) {
    while (mon_rows_next(st)) {
      const char *name = mon_rows_text(st, 0);
      int sel = 0;
      for (int i = 0; name && i < ne; i++)
        sel |= !strcmp(eff[i], name);
      wb_raw(w, "<option value=\"");
      wb_html(w, name);
      wb_printf(w, "\"%s title=\"", sel ? " selected" : "");
      wb_html(w, mon_rows_text(st, 2));
      wb_raw(w, "\">");
      wb_html(w, name);
      wb_raw(w, " (");
      wb_html(w, mon_rows_text(st, 1));
      wb_raw(w, ")</option>");
    }
    mon_rows_free(st);
  }
  wb_raw(w, "</select></label><span>aggregations ");
  for (int a = 0; a < MON_AGG_N; a++) {
    int on = 0;
    for (int i = 0; i < r->nagg; i++)
      on |= r->agg[i] == a;
    wb_printf(w, "<label><input type=\"checkbox\" name=\"agg\" value=\"%s\"%s>%s</label>",
              mon_agg_names[a], on ? " checked" : "", mon_agg_names[a]);
  }
  wb_raw(w, "(none: each metric's preferred)</span><br>\n<label>view <select name=\"view\">");
  for (int v = 0; v < WEB_NVIEW; v++)
    wb_printf(w, "<option%s>%s</option>", v == r->view ? " selected" : "", web_view_names[v]);
  wb_raw(w, "</select></label><label>order by <select name=\"order\"><option value=\"\">key"
            "</option>");
  for (int c = 0; c < ncol; c++) {
    wb_printf(w, "<option%s>", !strcmp(r->order, colname[c]) ? " selected" : "");
    wb_html(w, colname[c]);
    wb_raw(w, "</option>");
  }
  wb_printf(w,
            "</select></label><label><input type=\"checkbox\" name=\"desc\" value=\"1\"%s>"
            "descending</label><label>rows <input name=\"limit\" size=\"5\" value=\"%lld\">"
            "</label><label><input type=\"checkbox\" name=\"sql\" value=\"1\"%s>show the SQL"
            "</label>",
            r->desc ? " checked" : "", r->limit, r->show_sql ? " checked" : "");
  hidden(w, "node", r->node);
  hidden(w, "program", r->program);
  char num[32];
  snprintf(num, sizeof num, "%lld", r->rank);
  if (r->has_rank) hidden(w, "rank", num);
  snprintf(num, sizeof num, "%lld", r->proc);
  if (r->proc) hidden(w, "proc", num);
  wb_raw(w, " <button type=\"submit\">show</button></form>\n");
}

/* Active filters, each with a link that drops it. */
static void crumbs(web_buf *w, const web_req *r) {
  int any = 0;
  for (int k = 0; k < NFILTERS; k++) {
    char val[WEB_MAXVAL + 32];
    req_value(r, carried[k], val, sizeof val);
    if (!val[0]) continue;
    if (!any) wb_raw(w, "<p class=\"crumbs\">filters: ");
    any = 1;
    const char *drop[] = {carried[k], NULL};
    wb_raw(w, "<a class=\"filter\" href=\"");
    web_link(w, r, 1, drop);
    wb_printf(w, "\" title=\"remove this filter\">%s = ", carried[k]);
    wb_html(w, val);
    wb_raw(w, " &#215;</a>");
  }
  if (any) wb_raw(w, "</p>\n");
}

/* The job's POP efficiencies in its summary (nothing on a database
 * without them: schema version 1). */
static void job_efficiencies(web_buf *w, mon_qdb *db, long long job, double thr) {
  if (!mon_query_has_pop(db)) return;
  char why[256];
  mon_val v = {NULL, job};
  mon_rows *st = mon_rows_query(
      db, "SELECT pop_pe, pop_lb, pop_comm, pop_omp_pe, pop_note FROM job WHERE id=?", 1, &v, why,
      sizeof why);
  if (!st) return;
  if (mon_rows_next(st)) {
    double e[4];
    for (int i = 0; i < 4; i++)
      e[i] = mon_rows_isnull(st, i) ? -1 : mon_rows_double(st, i);
    wb_raw(w, "<br><span id=\"pop\">efficiencies (POP): ");
    if (e[0] >= 0) {
      wb_printf(w, "parallel %.3f = load balance %.3f &#215; communication %.3f", e[0], e[1], e[2]);
      if (e[3] >= 0) wb_printf(w, ", OpenMP %.3f", e[3]);
      const char *limit = mon_pop_limiter(e[0], e[1], e[2], e[3], thr);
      if (limit)
        wb_printf(w, " <b class=\"flag\">below %.0f %%: limited by %s</b>", thr * 100, limit);
    } else {
      wb_raw(w, "none");
    }
    const char *note = mon_rows_text(st, 4);
    if (e[0] < 0 && !note) note = "stored before augur computed them: schema version 1";
    if (note && *note) {
      wb_raw(w, " (");
      wb_html(w, note);
      wb_raw(w, ")");
    }
    wb_raw(w, "</span>");
  }
  mon_rows_free(st);
}

/* The job's facts above its table; 0, or -1 when there is no such job. */
static int job_summary(web_buf *w, mon_qdb *db, long long job, double thr) {
  char why[256];
  mon_val v = {NULL, job};
  mon_rows *st = mon_rows_query(db,
                                "SELECT j.job_name, u.name, c.name, j.command, j.start_ns,"
                                " (j.end_ns-j.start_ns)/1e9, j.nprocs, j.exit_status, j.level,"
                                " j.record_uid, j.counter_note FROM job j JOIN cluster c ON "
                                "c.id=j.cluster_id LEFT JOIN \"user\" u ON u.id=j.user_id"
                                " WHERE j.id=?",
                                1, &v, why, sizeof why);
  if (!st) return -1;
  if (!mon_rows_next(st)) {
    mon_rows_free(st);
    return -1;
  }
  time_t t = (time_t)(mon_rows_int(st, 4) / 1000000000);
  struct tm tm;
  char when[32];
  gmtime_r(&t, &tm);
  strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
  wb_printf(w, "<section id=\"job\"><h2>job #%lld ", job);
  wb_html(w, mon_rows_text(st, 0));
  wb_raw(w, "</h2><p>user ");
  wb_html(w, mon_rows_text(st, 1));
  wb_raw(w, ", cluster ");
  wb_html(w, mon_rows_text(st, 2));
  wb_printf(w,
            ", started %s, %.3f s, %lld processes, level %lld, exit status %lld<br>command: "
            "<code>",
            when, mon_rows_double(st, 5), mon_rows_int(st, 6), mon_rows_int(st, 8),
            mon_rows_int(st, 7));
  wb_html(w, mon_rows_text(st, 3));
  wb_raw(w, "</code><br>record ");
  wb_html(w, mon_rows_text(st, 9));
  const char *note = mon_rows_text(st, 10);
  if (note && *note) {
    wb_raw(w, "<br>counters: ");
    wb_html(w, note);
  }
  mon_rows_free(st);
  job_efficiencies(w, db, job, thr);
  wb_raw(w, "</p></section>\n");
  return 0;
}

/* Drill-down from a row: the row's key as a filter, one resolution down. */
static void drill(web_buf *w, const web_req *r, int by, const char *key, const char *label,
                  const char *jobpk) {
  const char *p[8];
  int n = 0;
  switch (by) {
  case MON_BY_CLUSTER:
    p[0] = "cluster", p[1] = key, p[2] = "by", p[3] = "user", n = 2;
    break;
  case MON_BY_USER:
    p[0] = "user", p[1] = key, p[2] = "by", p[3] = "job", n = 2;
    break;
  case MON_BY_JOB:
    p[0] = "job", p[1] = key, p[2] = "by", p[3] = NULL, n = 2;
    break;
  case MON_BY_STEP:
    p[0] = "job", p[1] = jobpk, p[2] = "step", p[3] = label, p[4] = "by", p[5] = NULL, n = 3;
    break;
  case MON_BY_NODE:
    p[0] = "node", p[1] = key, p[2] = "by", p[3] = "process", n = 2;
    break;
  case MON_BY_PROGRAM:
    p[0] = "program", p[1] = key, p[2] = "by", p[3] = "process", n = 2;
    break;
  /* Threads lack some process columns: the order may not exist there. */
  case MON_BY_RANK:
    p[0] = "rank", p[1] = key, p[2] = "by", p[3] = "thread", p[4] = "order", p[5] = NULL, n = 3;
    break;
  case MON_BY_PROCESS:
    p[0] = "proc", p[1] = key, p[2] = "by", p[3] = "thread", p[4] = "order", p[5] = NULL, n = 3;
    break;
  default:
    return;
  }
  web_link(w, r, n, p);
}

typedef struct rows {
  int n, cap, ncol;
  char **key, **label, **jobpk, **link;
  const char **flag; /* by job: the factor limiting a job below the threshold, or NULL */
  long long *count;
  double *v; /* column by column, cap rows each: a column is a chart's series */
} rows;

/* Column c's values, one per row. */
static double *col(const rows *t, int c) {
  return t->v + (size_t)c * (size_t)t->cap;
}

static char *dupstr(const char *s) {
  return strdup(s ? s : "");
}

static void rows_free(rows *t) {
  for (int i = 0; i < t->n; i++) {
    free(t->key[i]);
    free(t->label[i]);
    free(t->jobpk[i]);
    free(t->link[i]);
  }
  free(t->key);
  free(t->label);
  free(t->jobpk);
  free(t->link);
  free(t->flag);
  free(t->count);
  free(t->v);
}

static int rows_fetch(mon_rows *st, rows *t, int ncol, long long limit) {
  memset(t, 0, sizeof *t);
  t->ncol = ncol;
  int cap = t->cap = (int)(limit < 10000 ? limit : 10000);
  t->key = calloc((size_t)cap, sizeof(char *));
  t->label = calloc((size_t)cap, sizeof(char *));
  t->jobpk = calloc((size_t)cap, sizeof(char *));
  t->link = calloc((size_t)cap, sizeof(char *));
  t->count = calloc((size_t)cap, sizeof(long long));
  t->v = calloc((size_t)cap * (size_t)(ncol ? ncol : 1), sizeof(double));
  if (!t->key || !t->label || !t->jobpk || !t->link || !t->count || !t->v) return -1;
  while (t->n < cap && mon_rows_next(st)) {
    int i = t->n++;
    t->key[i] = dupstr(mon_rows_text(st, 0));
    t->label[i] = dupstr(mon_rows_text(st, 1));
    t->count[i] = mon_rows_int(st, 2);
    t->jobpk[i] = dupstr(mon_rows_text(st, 3));
    for (int c = 0; c < ncol; c++)
      col(t, c)[i] =
          mon_rows_isnull(st, MON_Q_FIRST + c) ? NAN : mon_rows_double(st, MON_Q_FIRST + c);
    if (!t->key[i] || !t->label[i] || !t->jobpk[i]) return -1;
  }
  return 0;
}

/* By job: which rows are jobs below the parallel-efficiency threshold,
 * and what limits each (one query, the rows' job ids bound). */
static int job_flags(mon_qdb *db, rows *t, double thr, char *why, size_t whyn) {
  t->flag = calloc((size_t)(t->n ? t->n : 1), sizeof *t->flag);
  if (!t->flag) return -1;
  if (!t->n || !mon_query_has_pop(db)) return 0;
  size_t n = 80 + 2 * (size_t)t->n;
  char *sql = malloc(n);
  mon_val *v = calloc((size_t)t->n, sizeof *v);
  if (!sql || !v) {
    free(sql);
    free(v);
    return -1;
  }
  size_t at = (size_t)snprintf(sql, n,
                               "SELECT id, pop_pe, pop_lb, pop_comm, pop_omp_pe FROM job "
                               "WHERE id IN (");
  for (int i = 0; i < t->n; i++) {
    at += (size_t)snprintf(sql + at, n - at, i ? ",?" : "?");
    v[i].num = strtoll(t->key[i], NULL, 10);
  }
  snprintf(sql + at, n - at, ")");
  mon_rows *st = mon_rows_query(db, sql, t->n, v, why, whyn);
  free(sql);
  free(v);
  if (!st) return -2;
  while (mon_rows_next(st)) {
    long long id = mon_rows_int(st, 0);
    double e[4];
    for (int c = 0; c < 4; c++)
      e[c] = mon_rows_isnull(st, 1 + c) ? -1 : mon_rows_double(st, 1 + c);
    for (int i = 0; i < t->n; i++)
      if (strtoll(t->key[i], NULL, 10) == id)
        t->flag[i] = mon_pop_limiter(e[0], e[1], e[2], e[3], thr);
  }
  int rc = mon_rows_error(st) ? -2 : 0;
  if (rc) snprintf(why, whyn, "%s", mon_rows_error(st));
  mon_rows_free(st);
  return rc;
}

/* The preferred aggregation of a metric, from the metric table (avg if the
 * metric has none there, e.g. a raw column). */
static int preferred(mon_qdb *db, const char *metric) {
  int a = MON_AGG_AVG;
  char why[256];
  mon_val v = {metric, 0};
  mon_rows *st =
      mon_rows_query(db, "SELECT preferred FROM metric WHERE name=?", 1, &v, why, sizeof why);
  if (!st) return a;
  if (mon_rows_next(st)) {
    int p = mon_agg_parse(mon_rows_text(st, 0));
    /* balance and stddev describe a set of rows; per row, where a group is
     * often one process, they say nothing: show the mean (the table's
     * footer has them over the rows). */
    if (p >= 0 && p != MON_AGG_BALANCE && p != MON_AGG_STDDEV) a = p;
  }
  mon_rows_free(st);
  return a;
}

/* Without a resolution: a job's ranks (or processes), else the jobs. */
static int auto_by(mon_qdb *db, const web_req *r) {
  if (r->proc || r->has_rank) return MON_BY_THREAD;
  if (r->node[0] || r->program[0]) return MON_BY_PROCESS;
  if (!r->job) return MON_BY_JOB;
  char why[256];
  return mon_query_job_has_ranks(db, r->job, why, sizeof why) > 0 ? MON_BY_RANK : MON_BY_PROCESS;
}

static void table(web_buf *w, const web_req *r, int by, const rows *t, char (*colname)[80]) {
  wb_printf(w, "<table id=\"rows\"><thead><tr><th>%s</th><th>%s</th>", mon_by_names[by],
            by == MON_BY_THREAD ? "threads" : "processes");
  for (int c = 0; c < t->ncol; c++) {
    const char *o[] = {"order", colname[c], "desc",
                       !strcmp(r->order, colname[c]) && !r->desc ? "1" : NULL};
    wb_raw(w, "<th><a href=\"");
    web_link(w, r, 2, o);
    wb_raw(w, "\" title=\"order by this column\">");
    wb_html(w, colname[c]);
    wb_raw(w, "</a></th>");
  }
  if (t->flag)
    wb_printf(w,
              "<th title=\"jobs below %.0f %% parallel efficiency, and the factor that "
              "limits them\">below %.0f %%</th>",
              r->pe_threshold * 100, r->pe_threshold * 100);
  wb_raw(w, "</tr></thead>\n<tbody>\n");
  for (int i = 0; i < t->n; i++) {
    wb_raw(w, "<tr><td>");
    if (t->link[i]) {
      wb_printf(w, "<a class=\"drill\" href=\"%s\">", t->link[i]);
      wb_html(w, t->label[i]);
      wb_raw(w, "</a>");
    } else {
      wb_html(w, t->label[i]);
    }
    wb_printf(w, "</td><td class=\"n\">%lld</td>", t->count[i]);
    for (int c = 0; c < t->ncol; c++) {
      wb_raw(w, "<td class=\"n\">");
      wb_num(w, col(t, c)[i]);
      wb_raw(w, "</td>");
    }
    if (t->flag) wb_printf(w, "<td class=\"flag\">%s</td>", t->flag[i] ? t->flag[i] : "");
    wb_raw(w, "</tr>\n");
  }
  wb_raw(w, "</tbody><tfoot>\n");
  for (int a = 0; a < MON_AGG_N && t->n > 1; a++) {
    wb_printf(w, "<tr><td>%s over the rows</td><td></td>", mon_agg_names[a]);
    for (int c = 0; c < t->ncol; c++) {
      mon_stat s;
      mon_stat_init(&s);
      for (int i = 0; i < t->n; i++) {
        double v = col(t, c)[i];
        if (!isnan(v)) mon_stat_add(&s, v);
      }
      wb_raw(w, "<td class=\"n\">");
      wb_num(w, mon_stat_value(&s, a));
      wb_raw(w, "</td>");
    }
    if (t->flag) wb_raw(w, "<td></td>");
    wb_raw(w, "</tr>\n");
  }
  wb_raw(w, "</tfoot></table>\n");
}

int web_page(const char *dbpath, web_req *r, web_buf *w) {
  mon_qdb *db = NULL;
  char why[512];
  if (mon_query_open(dbpath, &db, why, sizeof why) < 0) return error_page(w, 500, why);
  int status = 200;
  int by = r->by_given ? r->by : auto_by(db, r);
  /* The metrics: the URL's, else the resolution's defaults. A process
   * metric that a thread does not have (maxrss_kb, ...) is skipped with a
   * note when drilling down to threads; an unknown name is a bad request. */
  static const char *const def_proc[] = {"wall_s", "cpu_s", "compute_s", "mpi_pct", "maxrss_kb"};
  static const char *const def_thr[] = {"wall_s", "cpu_s", "compute_s", "mpi_s"};
  /* Jobs: their POP efficiencies too (absent from a database of schema
   * version 1: left out). */
  static const char *const def_job[] = {"wall_s", "cpu_s",  "compute_s", "mpi_pct",
                                        "job_pe", "job_lb", "job_comm",  "job_omp_pe"};
  const char *eff[WEB_MAXM];
  int ne = 0;
  if (r->nm) {
    for (int m = 0; m < r->nm; m++)
      eff[ne++] = r->metric[m];
  } else if (by == MON_BY_THREAD) {
    for (size_t m = 0; m < sizeof def_thr / sizeof def_thr[0]; m++)
      eff[ne++] = def_thr[m];
  } else if (by == MON_BY_JOB) {
    for (size_t m = 0; m < sizeof def_job / sizeof def_job[0]; m++)
      if (strncmp(def_job[m], "job_", 4) || mon_query_metric_ok(db, by, def_job[m]))
        eff[ne++] = def_job[m];
  } else {
    for (size_t m = 0; m < sizeof def_proc / sizeof def_proc[0]; m++)
      eff[ne++] = def_proc[m];
  }
  mon_query q = {0};
  q.by = by;
  q.order = -1;
  char colname[MON_Q_MAXCOL][80];
  char skipped[256] = "";
  for (int m = 0; m < ne; m++) {
    if (!mon_query_metric_ok(db, by, eff[m])) {
      if (by == MON_BY_THREAD && mon_query_metric_ok(db, MON_BY_PROCESS, eff[m])) {
        size_t at = strlen(skipped);
        snprintf(skipped + at, sizeof skipped - at, "%s%s", at ? ", " : "", eff[m]);
        continue;
      }
      snprintf(why, sizeof why, "unknown metric '%.72s' at resolution %s (see docs/monitoring.md)",
               eff[m], mon_by_names[by]);
      mon_query_close(db);
      return error_page(w, 400, why);
    }
    int na = r->nagg ? r->nagg : 1;
    for (int a = 0; a < na; a++) {
      if (q.ncol == MON_Q_MAXCOL) {
        mon_query_close(db);
        return error_page(w, 400, "too many metric and aggregation columns");
      }
      q.metric[q.ncol] = eff[m];
      q.agg[q.ncol] = r->nagg ? r->agg[a] : preferred(db, eff[m]);
      snprintf(colname[q.ncol], sizeof colname[0], "%s_%s", eff[m], mon_agg_names[q.agg[q.ncol]]);
      if (!strcmp(r->order, colname[q.ncol])) q.order = q.ncol;
      q.ncol++;
    }
  }
  if (!q.ncol) {
    mon_query_close(db);
    return error_page(w, 400, "none of the metrics exists at this resolution");
  }
  if (r->order[0] && q.order < 0) {
    snprintf(why, sizeof why, "parameter 'order': '%.72s' is not a column of the table", r->order);
    mon_query_close(db);
    return error_page(w, 400, why);
  }
  q.cluster = r->cluster[0] ? r->cluster : NULL;
  q.user = r->user[0] ? r->user : NULL;
  q.step = r->step[0] ? r->step : NULL;
  q.node = r->node[0] ? r->node : NULL;
  q.program = r->program[0] ? r->program : NULL;
  q.job = r->job;
  q.proc = r->proc;
  q.has_rank = r->has_rank;
  q.rank = r->rank;
  q.desc = r->desc;
  q.limit = r->limit;
  char sql[8192];
  mon_rows *st = mon_query_run(db, &q, sql, sizeof sql, why, sizeof why);
  if (!st) {
    mon_query_close(db);
    return error_page(w, 500, why);
  }
  rows t;
  int frc = rows_fetch(st, &t, q.ncol, q.limit);
  if (frc == 0 && mon_rows_error(st)) {
    snprintf(why, sizeof why, "%s", mon_rows_error(st));
    frc = -2;
  }
  mon_rows_free(st);
  if (frc < 0) {
    rows_free(&t);
    mon_query_close(db);
    return error_page(w, 500, frc == -2 ? why : "out of memory");
  }
  for (int i = 0; i < t.n; i++) {
    web_buf l = {0};
    drill(&l, r, by, t.key[i], t.label[i], t.jobpk[i]);
    t.link[i] = l.b; /* NULL when there is nothing below */
  }
  if (by == MON_BY_JOB && (frc = job_flags(db, &t, r->pe_threshold, why, sizeof why)) < 0) {
    rows_free(&t);
    mon_query_close(db);
    return error_page(w, 500, frc == -2 ? why : "out of memory");
  }

  head(w, "augur web");
  form(w, db, r, by, q.ncol, colname, eff, ne);
  crumbs(w, r);
  if (r->job && job_summary(w, db, r->job, r->pe_threshold) < 0) {
    status = 404;
    wb_printf(w, "<p class=\"err\" id=\"error\">no job #%lld in the database</p>\n", r->job);
  }
  if (skipped[0]) {
    wb_raw(w, "<p class=\"note\">not measured per thread, left out: ");
    wb_html(w, skipped);
    wb_raw(w, "</p>\n");
  }
  wb_printf(w, "<p id=\"what\">%d row%s by <b>%s</b>%s</p>\n", t.n, t.n == 1 ? "" : "s",
            mon_by_names[by], t.n == q.limit ? " (row limit reached)" : "");
  if (r->view != WEB_TABLE && t.n > 0) {
    web_series s[MON_Q_MAXCOL];
    for (int c = 0; c < q.ncol; c++) {
      s[c].title = colname[c];
      s[c].v = col(&t, c);
    }
    web_svg(w, r->view, t.n, (const char *const *)t.label, (const char *const *)t.link, q.ncol, s);
  }
  table(w, r, by, &t, colname);
  if (r->show_sql) {
    wb_raw(w, "<h3>SQL</h3><pre id=\"sql\">");
    wb_html(w, sql);
    wb_raw(w, "</pre><p>bound values, in order: ");
    for (int k = 0; k < NFILTERS; k++) {
      char val[WEB_MAXVAL + 32];
      req_value(r, carried[k], val, sizeof val);
      if (!val[0]) continue;
      wb_printf(w, "%s = <code>", carried[k]);
      wb_html(w, val);
      wb_raw(w, "</code>, ");
    }
    wb_printf(w, "limit = <code>%lld</code></p>\n", q.limit);
  }
  wb_raw(w, "</body></html>\n");
  rows_free(&t);
  mon_query_close(db);
  return status;
}
