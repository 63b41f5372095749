/* augur web — request parameters. Every parameter is checked here against
 * a fixed list (resolutions, aggregations, views), a number range, or a
 * length; metric names are checked later against the database's columns.
 * Unknown parameters are errors too: a typo answers 400 rather than a page
 * that silently ignores it. Empty values mean "not set" (what a form sends
 * for an "any" choice). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon.h"
#include "web.h"

const char *const web_view_names[WEB_NVIEW] = {"table", "bar", "line", "scatter"};

void web_req_init(web_req *r) {
  memset(r, 0, sizeof *r);
  r->by = -1;
  r->limit = 100;
  r->pe_threshold = MON_PE_THRESHOLD_DEFAULT;
}

static int bad(web_req *r, const char *key, const char *why) {
  snprintf(r->error, sizeof r->error, "parameter '%.40s': %s", key, why);
  return -1;
}

static int num(web_req *r, const char *key, const char *v, long long lo, long long hi,
               long long *out) {
  char *end;
  if (!((*v >= '0' && *v <= '9') || *v == '-')) /* strtoll would skip spaces, take '+' */
    return bad(r, key, "not a number in range");
  errno = 0;
  long long x = strtoll(v, &end, 10);
  if (errno || end == v || *end || x < lo || x > hi) return bad(r, key, "not a number in range");
  *out = x;
  return 0;
}

static int text(web_req *r, const char *key, const char *v, char *dst) {
  size_t n = strlen(v);
  if (n >= WEB_MAXVAL) return bad(r, key, "too long");
  memcpy(dst, v, n + 1);
  return 0;
}

/* A metric list "a,b" or a single name; names are checked against the
 * database later, here only their shape. */
static int metrics(web_req *r, const char *v) {
  char copy[1024];
  if (strlen(v) >= sizeof copy) return bad(r, "m", "too long");
  strcpy(copy, v);
  for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (strlen(t) >= sizeof r->metric[0]) return bad(r, "m", "metric name too long");
    int dup = 0;
    for (int i = 0; i < r->nm; i++)
      dup |= !strcmp(r->metric[i], t);
    if (dup) continue;
    if (r->nm == WEB_MAXM) return bad(r, "m", "too many metrics");
    strcpy(r->metric[r->nm++], t);
  }
  return 0;
}

static int aggs(web_req *r, const char *v) {
  char copy[256];
  if (strlen(v) >= sizeof copy) return bad(r, "agg", "too long");
  strcpy(copy, v);
  for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    int a = mon_agg_parse(t);
    if (a < 0) return bad(r, "agg", "want avg, min, max, sum, stddev or balance");
    int dup = 0;
    for (int i = 0; i < r->nagg; i++)
      dup |= r->agg[i] == a;
    if (!dup) r->agg[r->nagg++] = a;
  }
  return 0;
}

int web_req_add(web_req *r, const char *key, const char *v) {
  if (!key) return bad(r, "?", "no name");
  if (!v) v = "";
  if (!strcmp(key, "token")) return 0; /* checked by the server */
  if (!*v) {
    /* An unset choice, but the name must still be known. */
    static const char *const known[] = {"by",      "cluster", "user",  "job", "step", "node",
                                        "program", "rank",    "proc",  "m",   "agg",  "view",
                                        "order",   "desc",    "limit", "sql"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
      if (!strcmp(key, known[i])) return 0;
    return bad(r, key, "unknown parameter");
  }
  if (!strcmp(key, "by")) {
    r->by = mon_by_parse(v);
    r->by_given = 1;
    if (r->by < 0)
      return bad(r, key, "want cluster, user, job, step, node, program, rank, process or thread");
    return 0;
  }
  if (!strcmp(key, "cluster")) return text(r, key, v, r->cluster);
  if (!strcmp(key, "user")) return text(r, key, v, r->user);
  if (!strcmp(key, "step")) return text(r, key, v, r->step);
  if (!strcmp(key, "node")) return text(r, key, v, r->node);
  if (!strcmp(key, "program")) return text(r, key, v, r->program);
  if (!strcmp(key, "job")) return num(r, key, v, 1, (1LL << 62), &r->job);
  if (!strcmp(key, "proc")) return num(r, key, v, 1, (1LL << 62), &r->proc);
  if (!strcmp(key, "rank")) {
    r->has_rank = 1;
    return num(r, key, v, 0, 1 << 30, &r->rank);
  }
  if (!strcmp(key, "m")) return metrics(r, v);
  if (!strcmp(key, "agg")) return aggs(r, v);
  if (!strcmp(key, "view")) {
    for (int i = 0; i < WEB_NVIEW; i++)
      if (!strcmp(v, web_view_names[i])) {
        r->view = i;
        return 0;
      }
    return bad(r, key, "want table, bar, line or scatter");
  }
  if (!strcmp(key, "order")) {
    if (strlen(v) >= sizeof r->order) return bad(r, key, "too long");
    strcpy(r->order, v); /* checked against the output columns */
    return 0;
  }
  if (!strcmp(key, "desc") || !strcmp(key, "sql")) {
    long long b;
    if (num(r, key, v, 0, 1, &b) < 0) return -1;
    *(key[0] == 'd' ? &r->desc : &r->show_sql) = (int)b;
    return 0;
  }
  if (!strcmp(key, "limit")) return num(r, key, v, 1, 10000, &r->limit);
  return bad(r, key, "unknown parameter");
}
