/* augur monitoring — the queries shared by `augur jobs` and `augur web`
 * (libaugur_monitor). SQL is built only from names checked against fixed
 * lists or against the columns of the database's own views; every value a
 * user gives is a bound parameter. docs/monitoring.md describes the schema. */
#ifndef AUGUR_MON_QUERY_H
#define AUGUR_MON_QUERY_H

#include <sqlite3.h>
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

/* Opens a monitoring database read-only (never creates or changes it) and
 * checks it has the job table. 0, or -1 with why. */
int mon_query_open(const char *path, sqlite3 **db, char *why, size_t whyn);

/* 1 if name is a column of the relation the resolution reads (the
 * process_derived view, or the per-thread relation for MON_BY_THREAD). */
int mon_query_metric_ok(sqlite3 *db, int by, const char *name);

/* The job row id from a spec: "#N", a job id (newest wins) or a record uid
 * prefix of at least 6 characters. Returns the number of matches (0 none,
 * -1 query failed); *id gets the newest. */
int mon_query_find_job(sqlite3 *db, const char *spec, sqlite3_int64 *id);

#define MON_Q_MAXCOL  32
#define MON_Q_MAXBIND 10

typedef struct mon_query {
  int by; /* enum mon_by */
  /* Filters, NULL / 0 = any. */
  const char *cluster, *user, *step, *node, *program;
  sqlite3_int64 job, proc; /* row ids */
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

/* Builds the SQL of q into sql (its text, for "show the SQL"), prepares and
 * binds it. The metrics must have passed mon_query_metric_ok. 0, or -1 with
 * why (the statement is then NULL). */
int mon_query_prepare(sqlite3 *db, const mon_query *q, sqlite3_stmt **st, char *sql, size_t sqln,
                      char *why, size_t whyn);

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
