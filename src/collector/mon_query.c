/* augur monitoring — the queries shared by `augur jobs` and `augur web`.
 *
 * One query shape answers every question of the web UI: pick the processes
 * (or threads) with filters, group them by a resolution, and aggregate the
 * chosen metrics per group. The grouping keys, the aggregation expressions
 * and the relations come from the fixed tables below; metric names are
 * accepted only when they are columns of the relation (checked by asking
 * the database for the relation's columns); every user value is bound. So
 * the SQL text can be shown to the user as it is, and no input reaches it.
 * The SQL is the dialect SQLite and PostgreSQL share; the result sets below
 * hide which of the two answers. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon_db_int.h"
#include "mon_query.h"
#include "mon_store.h"

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

/* ---- the database and its result sets ---- */

struct mon_qdb {
  sqlite3 *sq;
#ifdef AUGUR_HAVE_PQ
  PGconn *pg;
#endif
};

struct mon_rows {
  mon_qdb *db;
  sqlite3_stmt *st;
#ifdef AUGUR_HAVE_PQ
  PGresult *res;
#endif
  int row; /* PostgreSQL: the current row, -1 before the first */
  char err[300];
};

void mon_query_close(mon_qdb *db) {
  if (!db) return;
  sqlite3_close(db->sq);
#ifdef AUGUR_HAVE_PQ
  PQfinish(db->pg);
#endif
  free(db);
}

static int open_pg(mon_qdb *db, const char *path, char *why, size_t whyn) {
#ifdef AUGUR_HAVE_PQ
  db->pg = mon_pg_connect(path, "augur");
  if (!db->pg || PQstatus(db->pg) != CONNECTION_OK) {
    /* libpq's message names host and port, never the password. */
    snprintf(why, whyn, "postgresql: cannot connect: %s",
             db->pg ? PQerrorMessage(db->pg) : "out of memory");
    mon_pg_one_line(why);
    return -1;
  }
  /* Read-only, whatever the role may do. */
  PGresult *r = PQexec(db->pg, "SET default_transaction_read_only = on");
  int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  PQclear(r);
  if (!ok) {
    snprintf(why, whyn, "postgresql: %s", PQerrorMessage(db->pg));
    mon_pg_one_line(why);
    return -1;
  }
  return 0;
#else
  (void)db;
  (void)path;
  snprintf(why, whyn,
           "augur was built without PostgreSQL support (libpq-dev missing at build "
           "time)");
  return -1;
#endif
}

int mon_query_open(const char *path, mon_qdb **out, char *why, size_t whyn) {
  *out = NULL;
  mon_qdb *db = calloc(1, sizeof *db);
  if (!db) {
    snprintf(why, whyn, "out of memory");
    return -1;
  }
  if (mon_db_is_postgres(path)) {
    if (open_pg(db, path, why, whyn) < 0) {
      mon_query_close(db);
      return -1;
    }
  } else {
    if (sqlite3_open_v2(path, &db->sq, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
      snprintf(why, whyn, "cannot open database %s: %s", path,
               db->sq ? sqlite3_errmsg(db->sq) : "?");
      mon_query_close(db);
      return -1;
    }
    sqlite3_busy_timeout(db->sq, 5000);
  }
  char ignore[64];
  mon_rows *r = mon_rows_query(db, "SELECT 1 FROM job LIMIT 0", 0, NULL, ignore, sizeof ignore);
  if (!r) {
    snprintf(why, whyn, "%s is not an augur monitoring database (no job table)",
             mon_db_is_postgres(path) ? "the PostgreSQL database" : path);
    mon_query_close(db);
    return -1;
  }
  mon_rows_free(r);
  *out = db;
  return 0;
}

#ifdef AUGUR_HAVE_PQ
/* '?' and '?N' placeholders as PostgreSQL's $N (not inside quotes). */
static char *dollar_params(const char *sql) {
  char *out = malloc(strlen(sql) * 4 + 1), *o = out;
  if (!out) return NULL;
  int next = 1;
  char quote = 0;
  for (const char *p = sql; *p; p++) {
    if (quote) {
      if (*p == quote) quote = 0;
      *o++ = *p;
    } else if (*p == '\'' || *p == '"') {
      quote = *p;
      *o++ = *p;
    } else if (*p == '?') {
      if (p[1] >= '0' && p[1] <= '9') {
        *o++ = '$';
      } else {
        o += sprintf(o, "$%d", next++);
      }
    } else {
      *o++ = *p;
    }
  }
  *o = 0;
  return out;
}
#endif

mon_rows *mon_rows_query(mon_qdb *db, const char *sql, int nval, const mon_val *val, char *why,
                         size_t whyn) {
  mon_rows *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(why, whyn, "out of memory");
    return NULL;
  }
  r->db = db;
  r->row = -1;
#ifdef AUGUR_HAVE_PQ
  if (db->pg) {
    char *q = dollar_params(sql);
    const char **v = calloc((size_t)nval + 1, sizeof *v);
    char(*num)[24] = calloc((size_t)nval + 1, sizeof *num);
    if (q && v && num) {
      for (int i = 0; i < nval; i++) {
        snprintf(num[i], sizeof num[i], "%lld", val[i].num);
        v[i] = val[i].text ? val[i].text : num[i];
      }
      r->res = PQexecParams(db->pg, q, nval, NULL, v, NULL, NULL, 0);
    }
    free(q);
    free(v);
    free(num);
    if (PQresultStatus(r->res) != PGRES_TUPLES_OK) {
      snprintf(why, whyn, "query failed: %s",
               r->res ? PQresultErrorMessage(r->res) : PQerrorMessage(db->pg));
      mon_pg_one_line(why);
      mon_rows_free(r);
      return NULL;
    }
    return r;
  }
#endif
  if (sqlite3_prepare_v2(db->sq, sql, -1, &r->st, NULL) != SQLITE_OK) {
    snprintf(why, whyn, "query failed: %s", sqlite3_errmsg(db->sq));
    mon_rows_free(r);
    return NULL;
  }
  for (int i = 0; i < nval; i++) {
    if (val[i].text)
      sqlite3_bind_text(r->st, i + 1, val[i].text, -1, SQLITE_TRANSIENT);
    else
      sqlite3_bind_int64(r->st, i + 1, val[i].num);
  }
  return r;
}

int mon_rows_next(mon_rows *r) {
#ifdef AUGUR_HAVE_PQ
  if (r->res) return ++r->row < PQntuples(r->res);
#endif
  int rc = sqlite3_step(r->st);
  if (rc == SQLITE_ROW) return 1;
  if (rc != SQLITE_DONE)
    snprintf(r->err, sizeof r->err, "query failed: %s", sqlite3_errmsg(r->db->sq));
  return 0;
}

const char *mon_rows_error(const mon_rows *r) {
  return r->err[0] ? r->err : NULL;
}

int mon_rows_ncol(const mon_rows *r) {
#ifdef AUGUR_HAVE_PQ
  if (r->res) return PQnfields(r->res);
#endif
  return sqlite3_column_count(r->st);
}

const char *mon_rows_name(const mon_rows *r, int col) {
#ifdef AUGUR_HAVE_PQ
  if (r->res) return PQfname(r->res, col);
#endif
  return sqlite3_column_name(r->st, col);
}

int mon_rows_isnull(mon_rows *r, int col) {
#ifdef AUGUR_HAVE_PQ
  if (r->res) return PQgetisnull(r->res, r->row, col);
#endif
  return sqlite3_column_type(r->st, col) == SQLITE_NULL;
}

const char *mon_rows_text(mon_rows *r, int col) {
#ifdef AUGUR_HAVE_PQ
  if (r->res) return PQgetisnull(r->res, r->row, col) ? NULL : PQgetvalue(r->res, r->row, col);
#endif
  return (const char *)sqlite3_column_text(r->st, col);
}

long long mon_rows_int(mon_rows *r, int col) {
#ifdef AUGUR_HAVE_PQ
  if (r->res) {
    /* Text: an integer, or a numeric from an expression ("2.000"). */
    const char *t = PQgetvalue(r->res, r->row, col);
    return strpbrk(t, ".eE") ? (long long)strtod(t, NULL) : strtoll(t, NULL, 10);
  }
#endif
  return sqlite3_column_int64(r->st, col);
}

double mon_rows_double(mon_rows *r, int col) {
#ifdef AUGUR_HAVE_PQ
  if (r->res) return strtod(PQgetvalue(r->res, r->row, col), NULL);
#endif
  return sqlite3_column_double(r->st, col);
}

void mon_rows_free(mon_rows *r) {
  if (!r) return;
  sqlite3_finalize(r->st);
#ifdef AUGUR_HAVE_PQ
  PQclear(r->res);
#endif
  free(r);
}

/* ---- the queries ---- */

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
    " LEFT JOIN \"user\" u ON u.id=j.user_id";
static const char *const from_thread =
    " FROM " THREAD_REL " x JOIN process_derived p ON p.id=x.process_id"
    " JOIN job j ON j.id=p.job_pk JOIN cluster c ON c.id=j.cluster_id"
    " LEFT JOIN \"user\" u ON u.id=j.user_id";

/* Row key and label per resolution (same order as enum mon_by). */
static const struct {
  const char *key, *label;
} by_sql[MON_BY_N] = {
    {"c.name", "c.name"},
    {"u.name", "u.name"},
    {"j.id",
     "'#'||j.id||' '||j.job_name||' ('||COALESCE(u.name,'?')||') '||substr(j.command,1,60)"},
    {"p.step_id", "p.step"},
    {"p.node", "p.node"},
    {"p.program", "p.program"},
    {"p.rank", "'rank '||p.rank"},
    {"p.id", "p.node||':'||p.pid||' '||p.program"},
    {"x.id", "p.node||':'||p.pid||' tid '||x.tid"},
};

/* Identifiers we splice into SQL: lower-case letters, digits, '_'. */
static int plain_name(const char *s) {
  if (!s || !*s || strlen(s) > 64) return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_')) return 0;
  return 1;
}

int mon_query_metric_ok(mon_qdb *db, int by, const char *name) {
  if (!plain_name(name)) return 0;
  const char *sql = by == MON_BY_THREAD ? "SELECT * FROM " THREAD_REL " x LIMIT 0"
                                        : "SELECT * FROM process_derived LIMIT 0";
  char why[64];
  mon_rows *r = mon_rows_query(db, sql, 0, NULL, why, sizeof why);
  if (!r) return 0;
  int ok = 0;
  for (int c = 0; c < mon_rows_ncol(r) && !ok; c++)
    ok = !strcmp(mon_rows_name(r, c), name);
  mon_rows_free(r);
  return ok;
}

int mon_query_find_job(mon_qdb *db, const char *spec, long long *id) {
  char why[64];
  mon_rows *r;
  if (spec[0] == '#') {
    /* A row id: checked here, so neither database sees a bad number. */
    char *end;
    long long n = strtoll(spec + 1, &end, 10);
    if (!spec[1] || *end) return 0;
    mon_val v = {NULL, n};
    r = mon_rows_query(db, "SELECT id FROM job WHERE id=?", 1, &v, why, sizeof why);
  } else {
    mon_val v = {spec, 0};
    r = mon_rows_query(db,
                       "SELECT id FROM job WHERE job_name=?1 OR (length(?1)>=6 AND "
                       "record_uid LIKE ?1||'%') ORDER BY start_ns DESC, id DESC",
                       1, &v, why, sizeof why);
  }
  if (!r) return -1;
  int found = 0;
  while (mon_rows_next(r)) {
    if (!found) *id = mon_rows_int(r, 0);
    found++;
  }
  int failed = mon_rows_error(r) != NULL;
  mon_rows_free(r);
  return failed ? -1 : found;
}

int mon_query_has_pop(mon_qdb *db) {
  char why[64];
  mon_rows *r =
      mon_rows_query(db, "SELECT pop_pe, pop_note FROM job LIMIT 0", 0, NULL, why, sizeof why);
  mon_rows_free(r);
  return r != NULL;
}

int mon_query_job_has_ranks(mon_qdb *db, long long job, char *why, size_t whyn) {
  mon_val v = {NULL, job};
  mon_rows *r = mon_rows_query(
      db, "SELECT count(*) FROM process_derived WHERE job_pk=? AND rank>=0", 1, &v, why, whyn);
  if (!r) return -1;
  int has = mon_rows_next(r) && mon_rows_int(r, 0) > 0;
  mon_rows_free(r);
  return has;
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
  case MON_AGG_STDDEV: /* population; 1.0* keeps big counters from integer overflow;
                        CASE, not max(v,0), which PostgreSQL spells GREATEST */
    add(s, "sqrt(CASE WHEN avg(1.0*%s*%s)", x, x);
    add(s, "-avg(%s)*avg(%s)>0", x, x);
    add(s, " THEN avg(1.0*%s*%s)", x, x);
    add(s, "-avg(%s)*avg(%s) ELSE 0 END)", x, x);
    break;
  default: /* balance = avg / max */
    add(s, "avg(%s)/NULLIF(max(%s),0)", x, x);
    break;
  }
}

mon_rows *mon_query_run(mon_qdb *db, const mon_query *q, char *sql, size_t sqln, char *why,
                        size_t whyn) {
  if (q->by < 0 || q->by >= MON_BY_N || q->ncol < 0 || q->ncol > MON_Q_MAXCOL || q->limit <= 0 ||
      q->order < -1 || q->order >= q->ncol) {
    snprintf(why, whyn, "bad query");
    return NULL;
  }
  sqlbuf s = {sql, sqln, 0};
  int thr = q->by == MON_BY_THREAD;
  /* min(label): the label follows from the key, but PostgreSQL wants
   * every column outside the GROUP BY aggregated. */
  add(&s, "SELECT %s AS k, min(%s) AS label, count(*) AS n,", by_sql[q->by].key,
      by_sql[q->by].label);
  add(&s, " CASE WHEN min(j.id)=max(j.id) THEN min(j.id) END AS job_pk%s", "", "");
  for (int i = 0; i < q->ncol; i++) {
    char col[80];
    if (!plain_name(q->metric[i]) || q->agg[i] < 0 || q->agg[i] >= MON_AGG_N) {
      snprintf(why, whyn, "bad metric or aggregation");
      return NULL;
    }
    snprintf(col, sizeof col, "%s.\"%s\"", thr ? "x" : "p", q->metric[i]);
    add(&s, ", %s", "", "");
    add_agg(&s, q->agg[i], col);
    add(&s, " AS \"%s_%s\"", q->metric[i], mon_agg_names[q->agg[i]]);
  }
  add(&s, "%s WHERE 1=1", thr ? from_thread : from_process, "");

  /* Filters: each a fixed condition with a bound value. */
  mon_val bind[MON_Q_MAXBIND + 1];
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
    return NULL;
  }
  bind[nb].text = NULL;
  bind[nb++].num = q->limit;
  return mon_rows_query(db, sql, nb, bind, why, whyn);
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
