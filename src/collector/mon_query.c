/* augur monitoring — the queries shared by `augur jobs` and `augur web`.
 *
 * One query shape answers every question of the web UI: pick the processes
 * (or threads) with filters, group them by a resolution, and aggregate the
 * chosen metrics per group. The grouping keys, the aggregation expressions
 * and the relations come from the fixed tables below; metric names are
 * accepted only when they are columns of the relation (checked by asking
 * SQLite for the relation's columns); every user value is bound. So the SQL
 * text can be shown to the user as it is, and no input reaches it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mon_query.h"

const char *const mon_by_names[MON_BY_N] = {"cluster", "user", "job",     "step",  "node",
                                            "program", "rank", "process", "thread"};
const char *const mon_agg_names[MON_AGG_N] = {"avg", "min", "max", "sum", "stddev", "balance"};

int mon_by_parse(const char *name) {
  for (int i = 0; name && i < MON_BY_N; i++)
    if (!strcmp(name, mon_by_names[i])) return i;
  return -1;
}

int mon_agg_parse(const char *name) {
  for (int i = 0; name && i < MON_AGG_N; i++)
    if (!strcmp(name, mon_agg_names[i])) return i;
  return -1;
}

/* Per thread: the thread table with the derived metrics a thread has. */
#define THREAD_REL                                                                                 \
  "(SELECT t.*, (t.end_ns-t.start_ns)/1e9 AS wall_s, t.cpu_ns/1e9 AS cpu_s,"                       \
  " t.mpi_ns/1e9 AS mpi_s, t.io_ns/1e9 AS io_s,"                                                   \
  " (t.end_ns-t.start_ns-t.mpi_ns-t.io_ns)/1e9 AS compute_s,"                                      \
  " 100.0*t.mpi_ns/NULLIF(t.end_ns-t.start_ns,0) AS mpi_pct,"                                      \
  " 100.0*t.io_ns/NULLIF(t.end_ns-t.start_ns,0) AS io_pct,"                                        \
  " 1.0*t.cpu_ns/NULLIF(t.end_ns-t.start_ns,0) AS cpu_util,"                                       \
  " 1.0*t.instructions/NULLIF(t.cycles,0) AS ipc FROM thread t)"

static const char *const from_process =
    " FROM process_derived p JOIN job j ON j.id=p.job_pk JOIN cluster c ON c.id=j.cluster_id"
    " LEFT JOIN user u ON u.id=j.user_id";
static const char *const from_thread =
    " FROM " THREAD_REL " x JOIN process_derived p ON p.id=x.process_id"
    " JOIN job j ON j.id=p.job_pk JOIN cluster c ON c.id=j.cluster_id"
    " LEFT JOIN user u ON u.id=j.user_id";

/* Row key and label per resolution (same order as enum mon_by). */
static const struct {
  const char *key, *label;
} by_sql[MON_BY_N] = {
    {"c.name", "c.name"},
    {"u.name", "u.name"},
    {"j.id", "'#'||j.id||' '||j.job_name||' ('||ifnull(u.name,'?')||') '||substr(j.command,1,60)"},
    {"p.step_id", "p.step"},
    {"p.node", "p.node"},
    {"p.program", "p.program"},
    {"p.rank", "'rank '||p.rank"},
    {"p.id", "p.node||':'||p.pid||' '||p.program"},
    {"x.id", "p.node||':'||p.pid||' tid '||x.tid"},
};

int mon_query_open(const char *path, sqlite3 **db, char *why, size_t whyn) {
  *db = NULL;
  if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    snprintf(why, whyn, "cannot open database %s: %s", path, *db ? sqlite3_errmsg(*db) : "?");
    sqlite3_close(*db);
    *db = NULL;
    return -1;
  }
  sqlite3_busy_timeout(*db, 5000);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(*db, "SELECT 1 FROM job LIMIT 0", -1, &st, NULL) != SQLITE_OK) {
    snprintf(why, whyn, "%s is not an augur monitoring database (no job table)", path);
    sqlite3_close(*db);
    *db = NULL;
    return -1;
  }
  sqlite3_finalize(st);
  return 0;
}

/* Identifiers we splice into SQL: lower-case letters, digits, '_'. */
static int plain_name(const char *s) {
  if (!s || !*s || strlen(s) > 64) return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_')) return 0;
  return 1;
}

int mon_query_metric_ok(sqlite3 *db, int by, const char *name) {
  if (!plain_name(name)) return 0;
  const char *sql = by == MON_BY_THREAD ? "SELECT * FROM " THREAD_REL " LIMIT 0"
                                        : "SELECT * FROM process_derived LIMIT 0";
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return 0;
  int ok = 0;
  for (int c = 0; c < sqlite3_column_count(st) && !ok; c++)
    ok = !strcmp(sqlite3_column_name(st, c), name);
  sqlite3_finalize(st);
  return ok;
}

int mon_query_find_job(sqlite3 *db, const char *spec, sqlite3_int64 *id) {
  sqlite3_stmt *st;
  const char *sql = spec[0] == '#' ? "SELECT id FROM job WHERE id=CAST(?1 AS INTEGER)"
                                   : "SELECT id FROM job WHERE job_name=?1 OR (length(?1)>=6 AND "
                                     "record_uid LIKE ?1||'%') ORDER BY start_ns DESC, id DESC";
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return -1;
  sqlite3_bind_text(st, 1, spec[0] == '#' ? spec + 1 : spec, -1, SQLITE_TRANSIENT);
  int found = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    if (!found) *id = sqlite3_column_int64(st, 0);
    found++;
  }
  sqlite3_finalize(st);
  return found;
}

typedef struct sqlbuf {
  char *b;
  size_t n, at;
} sqlbuf;

static void add(sqlbuf *s, const char *fmt, const char *a, const char *b) {
  int w = snprintf(s->b + s->at, s->at < s->n ? s->n - s->at : 0, fmt, a, b);
  if (w > 0) s->at += (size_t)w;
}

/* The aggregation of the column expression x (already qualified). */
static void add_agg(sqlbuf *s, int agg, const char *x) {
  switch (agg) {
  case MON_AGG_AVG:
    add(s, "avg(%s)", x, "");
    break;
  case MON_AGG_MIN:
    add(s, "min(%s)", x, "");
    break;
  case MON_AGG_MAX:
    add(s, "max(%s)", x, "");
    break;
  case MON_AGG_SUM:
    add(s, "sum(%s)", x, "");
    break;
  case MON_AGG_STDDEV: /* population; 1.0* keeps big counters from integer overflow */
    add(s, "sqrt(max(avg(1.0*%s*%s)", x, x);
    add(s, "-avg(%s)*avg(%s),0))", x, x);
    break;
  default: /* balance = avg / max */
    add(s, "avg(%s)/NULLIF(max(%s),0)", x, x);
    break;
  }
}

int mon_query_prepare(sqlite3 *db, const mon_query *q, sqlite3_stmt **st, char *sql, size_t sqln,
                      char *why, size_t whyn) {
  *st = NULL;
  if (q->by < 0 || q->by >= MON_BY_N || q->ncol < 0 || q->ncol > MON_Q_MAXCOL || q->limit <= 0 ||
      q->order < -1 || q->order >= q->ncol) {
    snprintf(why, whyn, "bad query");
    return -1;
  }
  sqlbuf s = {sql, sqln, 0};
  int thr = q->by == MON_BY_THREAD;
  add(&s, "SELECT %s AS k, %s AS label, count(*) AS n,", by_sql[q->by].key, by_sql[q->by].label);
  add(&s, " CASE WHEN min(j.id)=max(j.id) THEN min(j.id) END AS job_pk%s", "", "");
  for (int i = 0; i < q->ncol; i++) {
    char col[80];
    if (!plain_name(q->metric[i]) || q->agg[i] < 0 || q->agg[i] >= MON_AGG_N) {
      snprintf(why, whyn, "bad metric or aggregation");
      return -1;
    }
    snprintf(col, sizeof col, "%s.\"%s\"", thr ? "x" : "p", q->metric[i]);
    add(&s, ", %s", "", "");
    add_agg(&s, q->agg[i], col);
    add(&s, " AS \"%s_%s\"", q->metric[i], mon_agg_names[q->agg[i]]);
  }
  add(&s, "%s WHERE 1", thr ? from_thread : from_process, "");

  /* Filters: each a fixed condition with a bound value. */
  struct {
    const char *text;
    sqlite3_int64 num;
  } bind[MON_Q_MAXBIND];
  int nb = 0;
#define FILTER_TEXT(v, cond)                                                                       \
  if (v) {                                                                                         \
    add(&s, " AND " cond, "", "");                                                                 \
    bind[nb].text = (v);                                                                           \
    bind[nb++].num = 0;                                                                            \
  }
#define FILTER_NUM(on, v, cond)                                                                    \
  if (on) {                                                                                        \
    add(&s, " AND " cond, "", "");                                                                 \
    bind[nb].text = NULL;                                                                          \
    bind[nb++].num = (v);                                                                          \
  }
  FILTER_TEXT(q->cluster, "c.name=?");
  FILTER_TEXT(q->user, "u.name=?");
  FILTER_NUM(q->job, q->job, "j.id=?");
  FILTER_TEXT(q->step, "p.step=?");
  FILTER_TEXT(q->node, "p.node=?");
  FILTER_TEXT(q->program, "p.program=?");
  FILTER_NUM(q->has_rank, q->rank, "p.rank=?");
  FILTER_NUM(q->proc, q->proc, "p.id=?");
#undef FILTER_TEXT
#undef FILTER_NUM
  if (q->by == MON_BY_RANK) add(&s, " AND p.rank>=0%s", "", "");
  char ord[16];
  snprintf(ord, sizeof ord, "%d", q->order < 0 ? 1 : MON_Q_FIRST + 1 + q->order);
  add(&s, " GROUP BY 1 ORDER BY %s%s", ord, q->desc ? " DESC" : "");
  add(&s, ", 1 LIMIT ?%s", "", "");
  if (s.at >= sqln) {
    snprintf(why, whyn, "query too long");
    return -1;
  }
  if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK) {
    snprintf(why, whyn, "query failed: %s", sqlite3_errmsg(db));
    *st = NULL;
    return -1;
  }
  for (int i = 0; i < nb; i++) {
    if (bind[i].text)
      sqlite3_bind_text(*st, i + 1, bind[i].text, -1, SQLITE_TRANSIENT);
    else
      sqlite3_bind_int64(*st, i + 1, bind[i].num);
  }
  sqlite3_bind_int64(*st, nb + 1, q->limit);
  return 0;
}

void mon_stat_init(mon_stat *s) {
  *s = (mon_stat){0, 0, INFINITY, -INFINITY, 0};
}

void mon_stat_add(mon_stat *s, double v) {
  s->sum += v;
  s->sumsq += v * v;
  if (v < s->min) s->min = v;
  if (v > s->max) s->max = v;
  s->n++;
}

double mon_stat_value(const mon_stat *s, int agg) {
  if (!s->n) return NAN;
  double avg = s->sum / (double)s->n;
  double var = s->sumsq / (double)s->n - avg * avg;
  switch (agg) {
  case MON_AGG_AVG:
    return avg;
  case MON_AGG_MIN:
    return s->min;
  case MON_AGG_MAX:
    return s->max;
  case MON_AGG_SUM:
    return s->sum;
  case MON_AGG_STDDEV:
    return sqrt(var > 0 ? var : 0);
  default:
    return s->max > 0 ? avg / s->max : NAN;
  }
}
