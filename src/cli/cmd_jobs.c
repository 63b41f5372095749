/* augur jobs — queries on the monitoring database that augurd fills.
 *
 *   augur jobs [--db DB] [--json] [--limit N]          the jobs, newest first
 *   augur jobs [--db DB] [--json] JOB [--by ...]       one job's processes
 *
 * DB is a SQLite file or a PostgreSQL URI / conninfo string (mon_query.h).
 *
 * The per-job view lists one row per MPI rank, process, node or thread with
 * the chosen metrics, then the aggregations (avg, min, max, sum, stddev and
 * load balance = avg/max) over the rows. Metric names are checked against
 * the columns of the process_derived view before they reach SQL. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "augur/text.h"
#include "cli.h"
#include "mon.h"
#include "mon_query.h"

static const char *default_metrics =
    "wall_s,compute_s,cpu_s,mpi_s,mpi_pct,io_s,maxrss_kb,task_clock,ipc";

static int open_db(const char *path, mon_qdb **db) {
  char why[512];
  if (mon_query_open(path, db, why, sizeof why) < 0) return cli_fail("%s", why);
  return CLI_OK;
}

static void fmt_time(char *out, size_t n, long long ns) {
  time_t t = (time_t)(ns / 1000000000);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(out, n, "%Y-%m-%d %H:%M:%S", &tm);
}

/* Database text for the terminal: augur_text_safe, NULL as "". The stored
 * strings are at most 256 bytes (mon_record.h); longer ones are cut. */
#define TEXT_SAFE (4 * 256 + 1)
static const char *text_safe(const char *s, char out[TEXT_SAFE]) {
  return augur_text_safe(s ? s : "", out, TEXT_SAFE);
}

/* --sort: the list's order (the efficiencies worst first, jobs without
 * them last). */
static const struct {
  const char *name, *order;
} sorts[] = {
    {"start", "j.start_ns DESC, j.id DESC"},
    {"pe", "(j.pop_pe IS NULL), j.pop_pe, j.start_ns DESC, j.id DESC"},
    {"lb", "(j.pop_lb IS NULL), j.pop_lb, j.start_ns DESC, j.id DESC"},
    {"comm", "(j.pop_comm IS NULL), j.pop_comm, j.start_ns DESC, j.id DESC"},
    {"wall", "(j.end_ns-j.start_ns) DESC, j.id DESC"},
};

/* An efficiency for the text (NULL: "-"). */
static const char *eff_text(mon_rows *st, int col, char out[16]) {
  if (mon_rows_isnull(st, col)) return "-";
  snprintf(out, 16, "%.2f", mon_rows_double(st, col));
  return out;
}

static json_t *eff_json(mon_rows *st, int col) {
  return mon_rows_isnull(st, col) ? json_null() : json_real(mon_rows_double(st, col));
}

static double eff_value(mon_rows *st, int col) {
  return mon_rows_isnull(st, col) ? -1 : mon_rows_double(st, col);
}

static int list_jobs(mon_qdb *db, int json, long long limit, const char *sort, double threshold,
                     int flagged) {
  /* A database no augurd of schema version 2 has opened yet has no
   * efficiency columns: NULLs, and a note. */
  int pop = mon_query_has_pop(db);
  const char *popcols = pop ? ", j.pop_pe, j.pop_lb, j.pop_comm, j.pop_omp_pe, j.pop_note"
                            : ", NULL, NULL, NULL, NULL, NULL";
  size_t k = 0;
  while (strcmp(sorts[k].name, sort))
    k++;
  if (!pop && k != 0 && k != 4)
    return cli_fail("--sort %s: this database has no efficiencies yet (start augurd on it once "
                    "to migrate it, docs/monitoring.md)",
                    sort);
  char sql[2048];
  snprintf(sql, sizeof sql,
           "SELECT j.id, j.job_name, u.name, c.name, j.nprocs,"
           " (SELECT count(*) FROM process p JOIN step s ON s.id=p.step_id"
           "  WHERE s.job_id=j.id AND p.rank>=0), j.level, j.start_ns, (j.end_ns-j.start_ns)/1e9,"
           " j.exit_status, j.command, j.record_uid%s"
           " FROM job j JOIN cluster c ON c.id=j.cluster_id LEFT JOIN \"user\" u ON u.id=j.user_id"
           "%s ORDER BY %s LIMIT ?",
           popcols, flagged && pop ? " WHERE j.pop_pe < ?" : "", sorts[k].order);
  char why[512];
  mon_val val[2] = {{NULL, limit}, {NULL, 0}};
  int nval = 1;
  char thr[32];
  if (flagged && pop) {
    /* the threshold bound as text (a mon_val is text or an integer): both
     * databases compare it with the REAL column as a number */
    snprintf(thr, sizeof thr, "%.17g", threshold);
    val[0] = (mon_val){thr, 0};
    val[1] = (mon_val){NULL, limit};
    nval = 2;
  }
  mon_rows *st = mon_rows_query(db, sql, nval, val, why, sizeof why);
  if (!st) return cli_fail("%s", why);
  json_t *arr = json ? json_array() : NULL;
  if (!json)
    printf("%-5s %-28s %-10s %-10s %6s %6s %5s %-19s %9s %4s %5s %5s %5s %5s  %-15s %s\n", "#",
           "job", "user", "cluster", "procs", "ranks", "level", "start (UTC)", "wall s", "exit",
           "PE", "LB", "CommE", "OMP", "below", "command");
  long nflag = 0, nrows = 0;
  while (mon_rows_next(st)) {
    const char *name = mon_rows_text(st, 1);
    const char *user = mon_rows_text(st, 2);
    const char *cl = mon_rows_text(st, 3);
    const char *cmd = mon_rows_text(st, 10);
    const char *uid = mon_rows_text(st, 11);
    const char *pnote = mon_rows_text(st, 16);
    const char *limit_by = mon_pop_limiter(eff_value(st, 12), eff_value(st, 13), eff_value(st, 14),
                                           eff_value(st, 15), threshold);
    nrows++;
    nflag += limit_by != NULL;
    char when[32];
    fmt_time(when, sizeof when, mon_rows_int(st, 7));
    if (json) {
      json_t *o = json_pack(
          "{s:I,s:o,s:o,s:o,s:o,s:I,s:I,s:I,s:s,s:f,s:I,s:o}", "id",
          (json_int_t)mon_rows_int(st, 0), "job", augur_json_text(name ? name : ""), "record_uid",
          augur_json_text(uid ? uid : ""), "user", augur_json_text(user ? user : ""), "cluster",
          augur_json_text(cl ? cl : ""), "processes", (json_int_t)mon_rows_int(st, 4), "ranks",
          (json_int_t)mon_rows_int(st, 5), "level", (json_int_t)mon_rows_int(st, 6), "start", when,
          "wall_s", mon_rows_double(st, 8), "exit_status", (json_int_t)mon_rows_int(st, 9),
          "command", augur_json_text(cmd ? cmd : ""));
      json_t *e = json_object();
      json_object_set_new(e, "parallel", eff_json(st, 12));
      json_object_set_new(e, "load_balance", eff_json(st, 13));
      json_object_set_new(e, "communication", eff_json(st, 14));
      json_object_set_new(e, "omp_parallel", eff_json(st, 15));
      json_object_set_new(e, "note", pnote ? augur_json_text(pnote) : json_null());
      json_object_set_new(o, "efficiencies", e);
      json_object_set_new(o, "flag",
                          limit_by
                              ? json_pack("{s:f,s:s}", "below", threshold, "limited_by", limit_by)
                              : json_null());
      json_array_append_new(arr, o);
    } else {
      /* Any user sets these (SLURM_JOB_ID, the command line): escaped. */
      char sn[TEXT_SAFE], su[TEXT_SAFE], sc[TEXT_SAFE], sm[TEXT_SAFE];
      char pe[16], lb[16], ce[16], omp[16];
      printf("%-5lld %-28.28s %-10.10s %-10.10s %6lld %6lld %5lld %-19s %9.3f %4lld %5s %5s %5s "
             "%5s  %-15s %.60s\n",
             mon_rows_int(st, 0), text_safe(name, sn), text_safe(user, su), text_safe(cl, sc),
             mon_rows_int(st, 4), mon_rows_int(st, 5), mon_rows_int(st, 6), when,
             mon_rows_double(st, 8), mon_rows_int(st, 9), eff_text(st, 12, pe),
             eff_text(st, 13, lb), eff_text(st, 14, ce), eff_text(st, 15, omp),
             limit_by ? limit_by : "", text_safe(cmd, sm));
    }
  }
  int failed = mon_rows_error(st) != NULL;
  if (failed) snprintf(why, sizeof why, "%s", mon_rows_error(st));
  mon_rows_free(st);
  if (json) {
    if (!failed) {
      char *js = json_dumps(arr, JSON_INDENT(1));
      printf("%s\n", js ? js : "[]");
      free(js);
    }
    json_decref(arr);
  } else if (!failed) {
    if (!pop)
      printf("note: this database predates the efficiency columns (schema version 1): start "
             "augurd on it once to migrate it\n");
    else if (nrows)
      printf("%ld of %ld job%s below %.0f %% parallel efficiency (\"below\": the factor that "
             "limits it)\n",
             nflag, nrows, nrows == 1 ? "" : "s", threshold * 100);
  }
  return failed ? cli_fail("%s", why) : CLI_OK;
}

int cli_pe_threshold(const char *opt, const char *val, void *dst) {
  if (mon_pop_threshold(val, dst) == 0) return 0;
  cli_usage("%s wants a percentage from 0 to 100, got '%s'", opt, val);
  return -1;
}

int cli_pe_threshold_env(double *out) {
  const char *env = getenv(MON_PE_THRESHOLD_ENV);
  *out = MON_PE_THRESHOLD_DEFAULT;
  if (!env || !*env || mon_pop_threshold(env, out) == 0) return CLI_OK;
  return cli_usage("%s wants a percentage from 0 to 100, got '%s'", MON_PE_THRESHOLD_ENV, env);
}

/* The job's row id from JOB: #N, a job id (newest wins), or a uid prefix. */
static int find_job(mon_qdb *db, const char *spec, long long *id) {
  int found = mon_query_find_job(db, spec, id);
  if (found < 0) return cli_fail("query failed looking for job '%s'", spec);
  if (!found) return cli_fail("no job '%s' in the database (see 'augur jobs')", spec);
  if (found > 1)
    cli_note("note: %d jobs match '%s'; showing the newest (#%lld)", found, spec, (long long)*id);
  return CLI_OK;
}

/* Metric names must be columns of process_derived: checked, then quoted. */
static int check_metrics(mon_qdb *db, char *list, char **names, int *n, int max) {
  *n = 0;
  for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (!mon_query_metric_ok(db, MON_BY_PROCESS, t))
      return cli_usage("unknown metric '%s' (see docs/monitoring.md)", t);
    if (*n == max) return cli_usage("at most %d metrics", max);
    names[(*n)++] = t;
  }
  if (!*n) return cli_usage("--metrics is empty");
  return CLI_OK;
}

#define MAXM 32

static int show_job(mon_qdb *db, const char *spec, const char *by, char *metrics, int json) {
  long long id = 0;
  int rc = find_job(db, spec, &id);
  if (rc != CLI_OK) return rc;
  char *names[MAXM];
  int nm = 0;
  if ((rc = check_metrics(db, metrics, names, &nm, MAXM)) != CLI_OK) return rc;

  /* Which grouping: by rank when the job has ranks, unless told. */
  char why[512];
  mon_val idv = {NULL, id};
  if (!by) {
    int ranks = mon_query_job_has_ranks(db, id, why, sizeof why);
    if (ranks < 0) return cli_fail("%s", why);
    by = ranks ? "rank" : "process";
  }
  char sql[4096];
  size_t len = 0;
  const char *key, *where = "", *group = "", *order;
  if (!strcmp(by, "rank")) {
    key = "rank, node, program, pid";
    where = " AND rank>=0";
    order = "rank";
  } else if (!strcmp(by, "process")) {
    key = "rank, node, program, pid";
    order = "start_ns, pid";
  } else if (!strcmp(by, "node")) {
    key = "NULL, node, count(*), NULL";
    group = " GROUP BY node";
    order = "node";
  } else {
    return cli_usage("--by wants rank, process or node, got '%s'", by);
  }
  len += (size_t)snprintf(sql + len, sizeof sql - len, "SELECT %s", key);
  for (int m = 0; m < nm; m++)
    len += (size_t)snprintf(sql + len, sizeof sql - len, group[0] ? ", sum(\"%s\")" : ", \"%s\"",
                            names[m]);
  snprintf(sql + len, sizeof sql - len, " FROM process_derived WHERE job_pk=?%s%s ORDER BY %s",
           where, group, order);
  mon_rows *st = mon_rows_query(db, sql, 1, &idv, why, sizeof why);
  if (!st) return cli_fail("%s", why);

  mon_stat a[MAXM];
  for (int m = 0; m < nm; m++)
    mon_stat_init(&a[m]);
  json_t *rows = json ? json_array() : NULL;
  int bynode = !strcmp(by, "node");
  if (!json) {
    printf("%-6s %-12s %-20s %8s", bynode ? "" : "rank", "node", bynode ? "processes" : "program",
           bynode ? "" : "pid");
    for (int m = 0; m < nm; m++)
      printf(" %14s", names[m]);
    printf("\n");
  }
  while (mon_rows_next(st)) {
    const char *node = mon_rows_text(st, 1);
    const char *prog = mon_rows_text(st, 2);
    const char *base = prog && strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
    json_t *row = NULL, *vals = NULL;
    if (json) {
      row = json_object();
      if (!bynode) {
        json_object_set_new(row, "rank", json_integer(mon_rows_int(st, 0)));
        json_object_set_new(row, "program", augur_json_text(prog ? prog : ""));
        json_object_set_new(row, "pid", json_integer(mon_rows_int(st, 3)));
      } else {
        json_object_set_new(row, "processes", json_integer(mon_rows_int(st, 2)));
      }
      json_object_set_new(row, "node", augur_json_text(node ? node : ""));
      vals = json_object();
    } else if (bynode) {
      char sn[TEXT_SAFE];
      printf("%-6s %-12.12s %-20lld %8s", "", text_safe(node, sn), mon_rows_int(st, 2), "");
    } else {
      char sn[TEXT_SAFE], sb[TEXT_SAFE];
      printf("%-6lld %-12.12s %-20.20s %8lld", mon_rows_int(st, 0), text_safe(node, sn),
             text_safe(base, sb), mon_rows_int(st, 3));
    }
    for (int m = 0; m < nm; m++) {
      int null = mon_rows_isnull(st, 4 + m);
      double v = null ? 0 : mon_rows_double(st, 4 + m);
      if (!null) mon_stat_add(&a[m], v);
      if (json)
        json_object_set_new(vals, names[m], null ? json_null() : json_real(v));
      else if (null)
        printf(" %14s", "-");
      else
        printf(" %14.6g", v);
    }
    if (json) {
      json_object_set_new(row, "values", vals);
      json_array_append_new(rows, row);
    } else {
      printf("\n");
    }
  }
  if (mon_rows_error(st)) {
    snprintf(why, sizeof why, "%s", mon_rows_error(st));
    mon_rows_free(st);
    json_decref(rows);
    return cli_fail("%s", why);
  }
  mon_rows_free(st);

  json_t *aggs = json ? json_object() : NULL;
  for (int k = 0; k < MON_AGG_N; k++) {
    if (!json) printf("%-6s %-12s %-20s %8s", mon_agg_names[k], "", "", "");
    for (int m = 0; m < nm; m++) {
      double v = mon_stat_value(&a[m], k);
      if (json) {
        json_t *o = json_object_get(aggs, names[m]);
        if (!o) {
          o = json_object();
          json_object_set_new(aggs, names[m], o);
        }
        json_object_set_new(o, mon_agg_names[k], isnan(v) ? json_null() : json_real(v));
      } else if (isnan(v)) {
        printf(" %14s", "-");
      } else {
        printf(" %14.6g", v);
      }
    }
    if (!json) printf("\n");
  }
  if (json) {
    json_t *o = json_object();
    json_object_set_new(o, "job_row", json_integer(id));
    json_object_set_new(o, "by", augur_json_text(by));
    json_object_set_new(o, "rows", rows);
    json_object_set_new(o, "aggregates", aggs);
    char *s = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    printf("%s\n", s ? s : "{}");
    free(s);
    json_decref(o);
  }
  return CLI_OK;
}

int cmd_jobs(int argc, char **argv) {
  const char *dbpath = getenv("AUGUR_DB"), *by = NULL, *metrics = default_metrics;
  const char *sort = "start";
  long long limit = 50;
  int json = 0, flagged = 0;
  double threshold;
  int rc = cli_pe_threshold_env(&threshold);
  if (rc != CLI_OK) return rc;
  const cli_opt options[] = {
      CLI_STRING("--db", NULL, "DB", &dbpath, NULL,
                 "the database: a SQLite file, or PostgreSQL as a libpq URI\n"
                 "(postgresql://...) or conninfo ('host=... dbname=...');\n"
                 "default $AUGUR_DB or augur.db"),
      CLI_STRING("--by", NULL, "WHAT", &by, NULL,
                 "rank (default when the job has MPI ranks), process, node"),
      CLI_STRING("--metrics", NULL, "LIST", &metrics, NULL,
                 "comma list of metrics (default: wall_s,compute_s,cpu_s,\n"
                 "mpi_s,mpi_pct,io_s,maxrss_kb,task_clock,ipc)"),
      CLI_INT("--limit", "N", &limit, 1, 1000000000, "at most N jobs in the list (default 50)"),
      CLI_CHOICE("--sort", "KEY", &sort, "start|pe|lb|comm|wall",
                 "order of the list: start (newest first, default), pe, lb,\n"
                 "comm (parallel efficiency, MPI load balance, communication\n"
                 "efficiency: lowest first), wall (longest first)"),
      CLI_CALL("--pe-threshold", NULL, "PCT", cli_pe_threshold, &threshold,
               "flag jobs below PCT % parallel efficiency with the factor\n"
               "that limits them (default $AUGUR_PE_THRESHOLD or 60)"),
      CLI_FLAG("--flagged", NULL, &flagged, "list only the jobs below the threshold"),
      CLI_FLAG("--json", NULL, &json, "JSON instead of aligned text"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur jobs [options] [JOB]\n"
               "\n"
               "Without JOB: the jobs in the monitoring database, newest first, with their\n"
               "POP efficiencies (PE = LB x CommE) and, for those below the threshold, the\n"
               "factor that limits them.\n"
               "With JOB (a job id, a record uid or its prefix, or #N for the row id): one row\n"
               "per rank/process/node/thread with metrics, then avg/min/max/sum/stddev and\n"
               "load balance (avg/max) over the rows.\n",
      .opts = options,
      .trailer = "\n"
                 "examples:\n"
                 "  augur jobs --db /var/lib/augur/augur.db\n"
                 "  augur jobs --db augur.db --sort pe --flagged --pe-threshold 50\n"
                 "  augur jobs --db augur.db 4242 --by rank --metrics wall_s,cpu_s,mpi_pct\n",
      .max_operands = 1,
      .operand = "JOB"};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *job = args.operand[0];
  if (!dbpath || !*dbpath) dbpath = "augur.db";
  mon_qdb *db = NULL;
  rc = open_db(dbpath, &db);
  if (rc != CLI_OK) return rc;
  if (!job) {
    rc = list_jobs(db, json, limit, sort, threshold, flagged);
  } else {
    char *copy = strdup(metrics);
    if (!copy) {
      mon_query_close(db);
      return cli_fail("out of memory");
    }
    rc = show_job(db, job, by, copy, json);
    free(copy);
  }
  mon_query_close(db);
  return rc;
}
