/* augur monitoring — the queries shared by `augur jobs` and `augur web`
 * (libaugur_monitor), on SQLite or PostgreSQL. SQL is built only from names
 * checked against fixed lists or against the columns of the database's own
 * views; every value a user gives is a bound parameter. docs/monitoring.md
 * describes the schema. */
#ifndef AUGUR_MON_QUERY_H
#define AUGUR_MON_QUERY_H

#include <stddef.h>

/* Resolutions: what one output row stands for (the GROUP BY). */
enum mon_by {
  MON_BY_CLUSTER,
  MON_BY_USER,
  MON_BY_JOB,
  MON_BY_STEP,
  MON_BY_NODE,
  MON_BY_PROGRAM,
  MON_BY_RANK,
  MON_BY_PROCESS,
  MON_BY_THREAD,
  MON_BY_N
};
extern const char *const mon_by_names[MON_BY_N];

/* Aggregations over the processes (threads) of a row, or over rows. */
enum mon_agg {
  MON_AGG_AVG,
  MON_AGG_MIN,
  MON_AGG_MAX,
  MON_AGG_SUM,
  MON_AGG_STDDEV,
  MON_AGG_BALANCE,
  MON_AGG_N
};
extern const char *const mon_agg_names[MON_AGG_N];

/* Name → index in a list, or -1. */
int mon_by_parse(const char *name);
int mon_agg_parse(const char *name);

/* ---- a read-only monitoring database and its result sets ----
 * The same calls read a SQLite file or a PostgreSQL database (a libpq URI or
 * conninfo string, see mon_db_is_postgres in mon.h), so `augur jobs` and
 * `augur web` work on both. The SQL the callers write is the subset both
 * understand: '?' placeholders (or ?N), COALESCE, CASE, the "user" table
 * quoted, every non-grouped column aggregated. */
typedef struct mon_qdb mon_qdb;
typedef struct mon_rows mon_rows;

/* Opens a monitoring database read-only (never creates or changes it) and
 * checks it has the job table. 0, or -1 with why. */
int mon_query_open(const char *path, mon_qdb **db, char *why, size_t whyn);
void mon_query_close(mon_qdb *db);

/* A bound value: text, or (text NULL) an integer. */
typedef struct mon_val {
  const char *text;
  long long num;
} mon_val;

/* Runs sql with the values bound to its placeholders in order; the result
 * set (free it with mon_rows_free), or NULL with why. */
mon_rows *mon_rows_query(mon_qdb *db, const char *sql, int nval, const mon_val *val, char *why,
                         size_t whyn);
/* Steps to the next row: 1, or 0 when there is none left (or the query
 * failed on the way: mon_rows_error says so). */
int mon_rows_next(mon_rows *r);
const char *mon_rows_error(const mon_rows *r); /* NULL: no error */
int mon_rows_ncol(const mon_rows *r);
const char *mon_rows_name(const mon_rows *r, int col);
/* Values of the current row; text is NULL for SQL NULL and lives until the
 * next step. */
int mon_rows_isnull(mon_rows *r, int col);
const char *mon_rows_text(mon_rows *r, int col);
long long mon_rows_int(mon_rows *r, int col);
double mon_rows_double(mon_rows *r, int col);
void mon_rows_free(mon_rows *r);

/* 1 if name is a column of the relation the resolution reads (the
 * process_derived view, or the per-thread relation for MON_BY_THREAD). */
int mon_query_metric_ok(mon_qdb *db, int by, const char *name);

/* The job row id from a spec: "#N", a job id (newest wins) or a record uid
 * prefix of at least 6 characters. Returns the number of matches (0 none,
 * -1 query failed); *id gets the newest. */
int mon_query_find_job(mon_qdb *db, const char *spec, long long *id);

/* 1 if the job table has the efficiency columns (schema version 2: a
 * database no augurd of that version has opened has not), else 0. */
int mon_query_has_pop(mon_qdb *db);

/* 1 if the job (row id) has MPI ranks, 0 if not, -1 with why when the
 * query failed: the default resolution of a job's view. */
int mon_query_job_has_ranks(mon_qdb *db, long long job, char *why, size_t whyn);

#define MON_Q_MAXCOL  32
#define MON_Q_MAXBIND 10

typedef struct mon_query {
  int by; /* enum mon_by */
  /* Filters, NULL / 0 = any. */
  const char *cluster, *user, *step, *node, *program;
  long long job, proc; /* row ids */
  int has_rank;
  long long rank;
  /* Output columns: metric ncol[i] aggregated with agg[i]. */
  int ncol;
  const char *metric[MON_Q_MAXCOL];
  int agg[MON_Q_MAXCOL];
  int order; /* -1: the row key, else an output column */
  int desc;
  long long limit; /* > 0 */
} mon_query;

/* Result columns of the statement: 0 key, 1 label, 2 number of processes
 * (threads), 3 the job row id when the row lies in one job (else NULL),
 * then one per output column. */
#define MON_Q_FIRST 4

/* Builds the SQL of q into sql (its text, for "show the SQL") and runs it
 * with its values bound. The metrics must have passed mon_query_metric_ok.
 * The result set, or NULL with why. */
mon_rows *mon_query_run(mon_qdb *db, const mon_query *q, char *sql, size_t sqln, char *why,
                        size_t whyn);

/* Running statistics for the aggregations over rows (population stddev,
 * balance = avg / max). */
typedef struct mon_stat {
  double sum, sumsq, min, max;
  long n;
} mon_stat;
void mon_stat_init(mon_stat *s);
void mon_stat_add(mon_stat *s, double v);
/* The aggregation's value, NaN when it has none (no values; balance with
 * max <= 0). */
double mon_stat_value(const mon_stat *s, int agg);

#endif
