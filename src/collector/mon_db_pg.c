/* augur monitoring — the PostgreSQL store (libpq), for a centre.
 *
 * The same tables and columns as the SQLite store (mon_db.c builds both
 * schemas from one template). A batch is one transaction:
 *   BEGIN
 *   per job: one prepared statement inserts the job (ON CONFLICT on
 *     record_uid DO NOTHING: a repeated record is a duplicate) and, only if
 *     the job is new, its step, returning the step id; sent in pipeline
 *     mode, up to PIPE_JOBS jobs per round trip;
 *   one query reserves the ids of every new process from its sequence;
 *   COPY process ... FROM STDIN and COPY thread ... FROM STDIN stream the
 *     rows (ids known, so threads need no round trip per process);
 *   COMMIT
 * so a batch costs a handful of round trips whatever its size. Metadata ids
 * (cluster, user, node, program) are cached as in SQLite and looked up
 * outside the pipeline and the COPYs (no other query can run inside them).
 *
 * When the server goes away, the failing call returns -1 with libpq's
 * reason, the connection is dropped, and the next batch reconnects; augurd
 * answers retry meanwhile, so senders retry or spool. A commit whose outcome
 * is unknown is harmless: the retried record is a duplicate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/text.h"
#include "mon_db_int.h"

#ifndef AUGUR_HAVE_PQ

int mon_db_pg_open(mon_db **out, const char *conninfo, char *why, size_t whyn) {
  (void)conninfo;
  *out = NULL;
  snprintf(why, whyn,
           "augurd was built without PostgreSQL support (libpq-dev missing at build time); "
           "use a SQLite file for --db");
  return -1;
}

#else

#include <time.h>

typedef struct buf {
  char *b;
  size_t n, at;
} buf;

typedef struct pg_db {
  mon_db base;
  char *conninfo;
  PGconn *conn; /* NULL: reconnect at the next batch */
  mon_cache cache;
  buf copy;
} pg_db;

/* The process and thread rows do not declare their references: PostgreSQL
 * would check each with a trigger, which halves the ingest rate (measured
 * on big jobs: 5,400 -> 11,500 process records/s on a loaded 2-core VM),
 * and augurd writes them with the ids it got in the same transaction. job
 * and step keep theirs. */
static const mon_dialect pg_dialect = {
    "BIGSERIAL PRIMARY KEY",
    "BIGINT",
    "CREATE OR REPLACE VIEW",
    "INSERT INTO metric",
    "ON CONFLICT (name) DO UPDATE SET scope=EXCLUDED.scope, unit=EXCLUDED.unit,"
    " aggregations=EXCLUDED.aggregations, preferred=EXCLUDED.preferred,"
    " derived=EXCLUDED.derived, description=EXCLUDED.description",
    0,
    "DOUBLE PRECISION"};

/* Serialises schema creation between collectors starting together
 * (CREATE TABLE IF NOT EXISTS is not safe against a concurrent twin). */
#define SCHEMA_LOCK "SELECT pg_advisory_xact_lock(7077001)"

#define COPY_CHUNK (256u << 10)

void mon_pg_one_line(char *s) {
  char *o = s;
  for (const char *p = s; *p; p++) {
    char c = *p == '\n' || *p == '\t' ? ' ' : *p;
    if (c != ' ' || (o > s && o[-1] != ' ')) *o++ = c;
  }
  while (o > s && o[-1] == ' ')
    o--;
  *o = 0;
}

PGconn *mon_pg_connect(const char *conninfo, const char *app) {
  /* The user's conninfo comes last, so its settings override ours.
   * Keepalives: a server that vanished without closing the TCP connection
   * is noticed in about a minute instead of never. */
  const char *const kw[] = {
      "connect_timeout",     "application_name", "client_encoding", "keepalives_idle",
      "keepalives_interval", "keepalives_count", "dbname",          NULL};
  const char *const val[] = {"10", app, "UTF8", "30", "10", "3", conninfo, NULL};
  return PQconnectdbParams(kw, val, 1);
}

/* why = "postgresql: WHAT: libpq's message", on one line. */
static int fail(pg_db *m, PGresult *r, const char *what, char *why, size_t whyn) {
  const char *msg = r ? PQresultErrorMessage(r) : "";
  if (!msg[0] && m->conn) msg = PQerrorMessage(m->conn);
  if (!msg[0]) msg = "unknown error";
  snprintf(why, whyn, "postgresql: %s: %s", what, msg);
  mon_pg_one_line(why);
  PQclear(r);
  return -1;
}

static int lost(const pg_db *m) {
  return !m->conn || PQstatus(m->conn) != CONNECTION_OK;
}

static void drop(pg_db *m) {
  PQfinish(m->conn);
  m->conn = NULL;
}

/* Runs sql, expecting want; 0 or -1 with why. */
static int exec_ok(pg_db *m, const char *sql, ExecStatusType want, const char *what, char *why,
                   size_t whyn) {
  PGresult *r = PQexec(m->conn, sql);
  if (PQresultStatus(r) != want) return fail(m, r, what, why, whyn);
  PQclear(r);
  return 0;
}

static void quiet(void *arg, const char *message) {
  (void)arg;
  (void)message; /* "relation ... already exists, skipping" and the like */
}

/* Runs the schema script SQL in one transaction under the schema lock
 * (rolled back on failure); WHAT names it in the message. */
static int schema_txn(pg_db *m, const char *sql, const char *what, char *why, size_t whyn) {
  int rc = exec_ok(m, "BEGIN", PGRES_COMMAND_OK, "BEGIN", why, whyn) ||
           exec_ok(m, SCHEMA_LOCK, PGRES_TUPLES_OK, "schema lock", why, whyn) ||
           exec_ok(m, sql, PGRES_COMMAND_OK, what, why, whyn) ||
           exec_ok(m, "COMMIT", PGRES_COMMAND_OK, what, why, whyn);
  if (rc && !lost(m)) {
    char ignore[256];
    exec_ok(m, "ROLLBACK", PGRES_COMMAND_OK, "ROLLBACK", ignore, sizeof ignore);
  }
  return rc;
}

/* An existing schema of an older version (docs/monitoring.md, "Schema
 * versions"): the job's efficiency columns are added and the view
 * re-created with its job_* columns (appended, so CREATE OR REPLACE keeps
 * the old ones). Nothing is done when every column is there, so a role
 * that may only insert and select runs on a migrated database; on an old
 * one it gets the server's refusal. */
static int pg_migrate(pg_db *m, char *why, size_t whyn) {
  PGresult *r = PQexec(m->conn, "SELECT count(*) FROM information_schema.columns"
                                " WHERE table_schema=current_schema() AND table_name='job'"
                                " AND column_name LIKE 'pop\\_%'");
  if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
    return fail(m, r, "cannot read the catalog", why, whyn);
  int have = atoi(PQgetvalue(r, 0, 0));
  PQclear(r);
  if (have >= MON_NJOB_POP) return 0;
  char *view = mon_db_view_sql(&pg_dialect);
  size_t n = (view ? strlen(view) : 0) + MON_NJOB_POP * 128 + 1;
  char *sql = view ? malloc(n) : NULL;
  if (!sql) {
    free(view);
    snprintf(why, whyn, "out of memory");
    return -1;
  }
  size_t at = 0;
  for (int i = 0; i < MON_NJOB_POP; i++) {
    mon_db_add_column_sql(&pg_dialect, i, 1, sql + at, n - at);
    at += strlen(sql + at);
    at += (size_t)snprintf(sql + at, n - at, ";");
  }
  snprintf(sql + at, n - at, "%s", view);
  free(view);
  int rc = schema_txn(m, sql, "cannot migrate the schema to version 2", why, whyn);
  free(sql);
  return rc;
}

/* Creates the schema unless it is there: a role that may only insert and
 * select can run augurd on a database an owner prepared. */
static int ensure_schema(pg_db *m, char *why, size_t whyn) {
  PGresult *r = PQexec(m->conn, "SELECT to_regclass('process_derived') IS NOT NULL");
  if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
    return fail(m, r, "cannot read the catalog", why, whyn);
  int present = PQgetvalue(r, 0, 0)[0] == 't';
  PQclear(r);
  if (present) return pg_migrate(m, why, whyn);
  char *schema = mon_db_schema_sql(&pg_dialect);
  if (!schema) {
    snprintf(why, whyn, "out of memory");
    return -1;
  }
  int rc = schema_txn(m, schema, "cannot create the schema", why, whyn);
  free(schema);
  return rc;
}

static int prepare(pg_db *m, const char *name, const char *sql, int nparams, char *why,
                   size_t whyn) {
  PGresult *r = PQprepare(m->conn, name, sql, nparams, NULL);
  if (PQresultStatus(r) != PGRES_COMMAND_OK) return fail(m, r, "prepare", why, whyn);
  PQclear(r);
  return 0;
}

/* Connects, creates the schema if absent, prepares the statements. The
 * cache is cleared: after a reconnect nothing of the old session counts. */
static int pg_connect(pg_db *m, char *why, size_t whyn) {
  mon_cache_clear(&m->cache);
  m->conn = mon_pg_connect(m->conninfo, "augurd");
  if (!m->conn) {
    snprintf(why, whyn, "postgresql: cannot connect: out of memory");
    return -1;
  }
  if (PQstatus(m->conn) != CONNECTION_OK) {
    /* The message names host and port, never the password. */
    fail(m, NULL, "cannot connect", why, whyn);
    drop(m);
    return -1;
  }
  PQsetNoticeProcessor(m->conn, quiet, NULL);
  int rc = ensure_schema(m, why, whyn) ||
           prepare(m, "augur_job",
                   "WITH j AS (INSERT INTO job(record_uid,cluster_id,job_name,user_id,uid,command,"
                   "level,start_ns,end_ns,exit_status,nprocs,counter_note,received_ns,"
                   "pop_ranks,pop_run_ns,pop_useful_avg_ns,pop_useful_max_ns,pop_lb,pop_comm,"
                   "pop_pe,pop_omp_pe,pop_note)"
                   " VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,"
                   "$15,$16,$17,$18,$19,$20,$21,$22,$23)"
                   " ON CONFLICT (record_uid) DO NOTHING RETURNING id)"
                   " INSERT INTO step(job_id,name) SELECT id,$14::text FROM j RETURNING id",
                   14 + MON_NJOB_POP, why, whyn) ||
           prepare(m, "augur_ids",
                   "SELECT nextval(pg_get_serial_sequence('process','id'))"
                   " FROM generate_series(1,$1::int)",
                   1, why, whyn);
  for (int i = 0; i < MON_META_N && !rc; i++) {
    char name[32], sql[160];
    snprintf(name, sizeof name, "augur_sel%d", i);
    snprintf(sql, sizeof sql, "SELECT id FROM %s WHERE name=$1", mon_meta_table[i]);
    rc = prepare(m, name, sql, 1, why, whyn);
    snprintf(name, sizeof name, "augur_ins%d", i);
    snprintf(sql, sizeof sql,
             "INSERT INTO %s(name) VALUES($1) ON CONFLICT (name) DO NOTHING RETURNING id",
             mon_meta_table[i]);
    if (!rc) rc = prepare(m, name, sql, 1, why, whyn);
  }
  if (rc) drop(m);
  return rc;
}

static void pg_close(mon_db *db);
static int pg_insert(mon_db *db, const uint8_t *const *payloads, const uint32_t *lens, int n,
                     int *status, char *why, size_t whyn);
static const mon_db_ops pg_ops = {pg_insert, pg_close};

int mon_db_pg_open(mon_db **out, const char *conninfo, char *why, size_t whyn) {
  *out = NULL;
  pg_db *m = calloc(1, sizeof *m);
  if (!m || !(m->conninfo = strdup(conninfo))) {
    free(m);
    snprintf(why, whyn, "out of memory");
    return -1;
  }
  m->base.ops = &pg_ops;
  if (pg_connect(m, why, whyn)) {
    pg_close(&m->base);
    return -1;
  }
  *out = &m->base;
  return 0;
}

static void pg_close(mon_db *db) {
  pg_db *m = (pg_db *)db;
  drop(m);
  mon_cache_clear(&m->cache);
  free(m->copy.b);
  free(m->conninfo);
  free(m);
}

static void i64s(char *out, int64_t v) {
  snprintf(out, 24, "%lld", (long long)v);
}

/* Id of name in a metadata table: cache, else SELECT, else INSERT (and a
 * second SELECT when a concurrent collector inserted it first). */
static int64_t meta_id(pg_db *m, int table, const char *raw, char *why, size_t whyn) {
  char name[300];
  augur_utf8_repair(raw[0] ? raw : "?", name, sizeof name);
  int64_t id = mon_cache_get(&m->cache, table, name);
  if (id >= 0) return id;
  const char *const v[1] = {name};
  char sel[32], ins[32];
  snprintf(sel, sizeof sel, "augur_sel%d", table);
  snprintf(ins, sizeof ins, "augur_ins%d", table);
  const char *const order[3] = {sel, ins, sel};
  for (int i = 0; i < 3 && id < 0; i++) {
    PGresult *r = PQexecPrepared(m->conn, order[i], 1, v, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return fail(m, r, "metadata", why, whyn);
    if (PQntuples(r) == 1) id = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
  }
  if (id < 0) {
    snprintf(why, whyn, "postgresql: metadata: no id for %s", mon_meta_table[table]);
    return -1;
  }
  mon_cache_put(&m->cache, table, name, id);
  return id;
}

typedef struct batch {
  int64_t *step;    /* per job; 0 = duplicate */
  int64_t *cl, *us; /* per job: cluster and user ids */
  int64_t *meta;    /* per new process: node id, program id */
  int64_t *id;      /* per new process: its reserved row id */
  augp_proc *p;     /* scratch (payload bytes may be unaligned) */
  size_t nproc;     /* new processes */
} batch;

/* Queues one job's insert (pipeline mode): the job and, if it is new, its
 * step; the result is the step id, or no row for a duplicate. */
static int send_job(pg_db *m, const augp_job *j, const augp_proc *p0, const mon_pop_row *pop,
                    int64_t cluster, int64_t user) {
  char hex[33], name[sizeof j->job_id * 2], cmd[sizeof j->command * 2], stepn[sizeof j->step * 2],
      note[sizeof p0->counter_note * 2];
  char num[9][24];
  mon_uid_hex(j->uid, hex);
  augur_utf8_repair(j->job_id, name, sizeof name);
  augur_utf8_repair(j->command, cmd, sizeof cmd);
  augur_utf8_repair(j->step, stepn, sizeof stepn);
  int has_note = p0 && p0->counter_note[0];
  if (has_note) augur_utf8_repair(p0->counter_note, note, sizeof note);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  i64s(num[0], cluster);
  i64s(num[1], user);
  i64s(num[2], (int64_t)j->uid_num);
  i64s(num[3], (int64_t)j->level);
  i64s(num[4], (int64_t)j->start_ns);
  i64s(num[5], (int64_t)j->end_ns);
  i64s(num[6], j->exit_status);
  i64s(num[7], (int64_t)j->nprocs);
  i64s(num[8], (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
  char popv[MON_NJOB_POP - 1][32], popnote[sizeof pop->note * 2];
  snprintf(popv[0], sizeof popv[0], "%u", pop->ranks);
  for (int i = 0; i < MON_NJOB_POP - 2; i++)
    snprintf(popv[1 + i], sizeof popv[0], "%.17g", pop->v[i]);
  augur_utf8_repair(pop->note, popnote, sizeof popnote);
  const char *v[14 + MON_NJOB_POP] = {hex,    num[0], name,   num[1],
                                      num[2], cmd,    num[3], num[4],
                                      num[5], num[6], num[7], has_note ? note : NULL,
                                      num[8], stepn};
  for (int i = 0; i < MON_NJOB_POP - 1; i++)
    v[14 + i] = pop->isnull[i] ? NULL : popv[i];
  v[13 + MON_NJOB_POP] = popnote[0] ? popnote : NULL;
  /* libpq copies the values into its buffer: they may go out of scope. */
  return PQsendQueryPrepared(m->conn, "augur_job", 14 + MON_NJOB_POP, v, NULL, NULL, 0) == 1 ? 0
                                                                                             : -1;
}

/* Jobs per pipeline: bounds what the server writes back before we read. */
#define PIPE_JOBS  128

/* Inserts the jobs of a batch, PIPE_JOBS per round trip (pipeline mode)
 * instead of one round trip each; b->step[i] gets the step id, or 0 for a
 * duplicate. A failure drops the connection: the transaction is gone, the
 * whole batch is retried. */
static int insert_jobs(pg_db *m, const uint8_t *const *payloads, const uint32_t *lens, int n,
                       batch *b, char *why, size_t whyn) {
  for (int at = 0; at < n; at += PIPE_JOBS) {
    int end = n - at < PIPE_JOBS ? n : at + PIPE_JOBS, rc = 0;
    if (PQenterPipelineMode(m->conn) != 1) return fail(m, NULL, "pipeline", why, whyn);
    for (int i = at; i < end && !rc; i++) {
      augp_job j;
      memcpy(&j, payloads[i], sizeof j);
      if (j.nprocs) memcpy(b->p, payloads[i] + sizeof j, sizeof *b->p);
      mon_pop_row pop;
      mon_db_pop_values(payloads[i], lens[i], &pop);
      rc = send_job(m, &j, j.nprocs ? b->p : NULL, &pop, b->cl[i], b->us[i]);
    }
    if (rc || PQpipelineSync(m->conn) != 1) {
      fail(m, NULL, "insert job", why, whyn);
      drop(m);
      return -1;
    }
    for (int i = at; i < end; i++) {
      PGresult *r = PQgetResult(m->conn);
      if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        fail(m, r, "insert job", why, whyn);
        drop(m);
        return -1;
      }
      b->step[i] = PQntuples(r) == 1 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : 0;
      PQclear(r);
      PQclear(PQgetResult(m->conn)); /* the NULL that ends this query's results */
    }
    PGresult *r = PQgetResult(m->conn);
    if (PQresultStatus(r) != PGRES_PIPELINE_SYNC || PQexitPipelineMode(m->conn) != 1) {
      fail(m, r, "insert job", why, whyn);
      drop(m);
      return -1;
    }
    PQclear(r);
  }
  return 0;
}

/* ---- COPY rows ---- */

static int put(buf *b, const char *s, size_t len) {
  if (b->at + len + 1 > b->n) {
    size_t n = (b->n ? b->n * 2 : COPY_CHUNK * 2) + len;
    char *nb = realloc(b->b, n);
    if (!nb) return -1;
    b->b = nb;
    b->n = n;
  }
  memcpy(b->b + b->at, s, len);
  b->at += len;
  return 0;
}

/* A number, after the separator sep (0: none, the row's first field). */
static int put_i64(buf *b, char sep, int64_t v) {
  char t[32];
  int w = snprintf(t, sizeof t, "%s%lld", sep == '\t' ? "\t" : "", (long long)v);
  return put(b, t, (size_t)w);
}

/* A text field of COPY's text format: \N for NULL, else escaped. */
static int put_text(buf *b, char sep, const char *raw) {
  if (put(b, &sep, 1)) return -1;
  if (!raw) return put(b, "\\N", 2);
  char s[600];
  augur_utf8_repair(raw, s, sizeof s);
  for (const char *p = s; *p; p++) {
    const char *e = *p == '\\'   ? "\\\\"
                    : *p == '\t' ? "\\t"
                    : *p == '\n' ? "\\n"
                    : *p == '\r' ? "\\r"
                                 : NULL;
    if (put(b, e ? e : p, e ? 2 : 1)) return -1;
  }
  return 0;
}

static int put_values(buf *b, const int64_t *v, const unsigned char *isnull, int n) {
  for (int i = 0; i < n; i++)
    if (isnull[i] ? put(b, "\t\\N", 3) : put_i64(b, '\t', v[i])) return -1;
  return put(b, "\n", 1);
}

/* Sends what is buffered once it is big (force: all of it). */
static int flush(pg_db *m, int force, char *why, size_t whyn) {
  if (!m->copy.at || (!force && m->copy.at < COPY_CHUNK)) return 0;
  if (PQputCopyData(m->conn, m->copy.b, (int)m->copy.at) != 1)
    return fail(m, NULL, "copy", why, whyn);
  m->copy.at = 0;
  return 0;
}

static int copy_begin(pg_db *m, const char *table, const char *first, int thread, char *why,
                      size_t whyn) {
  char cols[4096], sql[4400];
  mon_db_columns(thread, cols, sizeof cols);
  snprintf(sql, sizeof sql, "COPY %s(%s,%s) FROM STDIN", table, first, cols);
  m->copy.at = 0;
  PGresult *r = PQexec(m->conn, sql);
  if (PQresultStatus(r) != PGRES_COPY_IN) return fail(m, r, "copy", why, whyn);
  PQclear(r);
  return 0;
}

/* Ends a COPY: error (our side) aborts it; the server's verdict. */
static int copy_end(pg_db *m, const char *error, char *why, size_t whyn) {
  if ((!error && flush(m, 1, why, whyn)) || PQputCopyEnd(m->conn, error) != 1)
    return fail(m, NULL, "copy", why, whyn);
  PGresult *r = PQgetResult(m->conn);
  int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : fail(m, r, "copy", why, whyn);
  if (!rc) PQclear(r);
  while ((r = PQgetResult(m->conn)) != NULL)
    PQclear(r);
  return error ? -1 : rc;
}

static int reserve_ids(pg_db *m, batch *b, char *why, size_t whyn) {
  if (!b->nproc) return 0;
  char n[24];
  i64s(n, (int64_t)b->nproc);
  const char *const v[1] = {n};
  PGresult *r = PQexecPrepared(m->conn, "augur_ids", 1, v, NULL, NULL, 0);
  if (PQresultStatus(r) != PGRES_TUPLES_OK || (size_t)PQntuples(r) != b->nproc)
    return fail(m, r, "reserve process ids", why, whyn);
  for (size_t i = 0; i < b->nproc; i++)
    b->id[i] = strtoll(PQgetvalue(r, (int)i, 0), NULL, 10);
  PQclear(r);
  return 0;
}

/* The row of new process k (of job i) in COPY text. */
static int put_process(buf *c, const batch *b, int i, size_t k) {
  int64_t v[MON_NPROC_VALUES];
  unsigned char isnull[MON_NPROC_VALUES];
  mon_db_proc_values(b->p, v, isnull);
  return put_i64(c, 0, b->id[k]) || put_i64(c, '\t', b->step[i]) ||
         put_i64(c, '\t', b->meta[2 * k]) || put_i64(c, '\t', b->meta[2 * k + 1]) ||
         put_text(c, '\t', b->p->counter_note[0] ? b->p->counter_note : NULL) ||
         put_values(c, v, isnull, MON_NPROC_VALUES);
}

/* The rows of the threads of new process k. */
static int put_threads(buf *c, const batch *b, size_t k) {
  int64_t v[MON_NTHREAD_VALUES];
  unsigned char isnull[MON_NTHREAD_VALUES];
  uint64_t nt = b->p->nthreads < AUGP_MAX_THREADS ? b->p->nthreads : AUGP_MAX_THREADS;
  for (uint64_t t = 0; t < nt; t++) {
    mon_db_thread_values(b->p, (int)t, v, isnull);
    if (put_i64(c, 0, b->id[k]) || put_values(c, v, isnull, MON_NTHREAD_VALUES)) return -1;
  }
  return 0;
}

/* One COPY over the batch's new processes: their process rows, or (thread)
 * the rows of their threads. */
static int copy_rows(pg_db *m, const uint8_t *const *payloads, int n, batch *b, int thread,
                     char *why, size_t whyn) {
  if (!b->nproc) return 0;
  if (thread ? copy_begin(m, "thread", "process_id", 1, why, whyn)
             : copy_begin(m, "process", "id,step_id,node_id,program_id,counter_note", 0, why, whyn))
    return -1;
  size_t k = 0;
  for (int i = 0; i < n; i++) {
    if (!b->step[i]) continue;
    augp_job j;
    memcpy(&j, payloads[i], sizeof j);
    for (uint64_t q = 0; q < j.nprocs; q++, k++) {
      memcpy(b->p, payloads[i] + sizeof j + q * sizeof *b->p, sizeof *b->p);
      if (thread ? put_threads(&m->copy, b, k) : put_process(&m->copy, b, i, k))
        return copy_end(m, "out of memory", why, whyn);
      if (flush(m, 0, why, whyn)) return -1;
    }
  }
  return copy_end(m, NULL, why, whyn);
}

/* Everything between BEGIN and COMMIT. */
static int store_batch(pg_db *m, const uint8_t *const *payloads, const uint32_t *lens, int n,
                       int *status, batch *b, char *why, size_t whyn) {
  if (n <= 0) return 0;
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    augp_job j;
    memcpy(&j, payloads[i], sizeof j);
    total += j.nprocs;
  }
  b->step = calloc((size_t)n, sizeof *b->step);
  b->cl = calloc((size_t)n, sizeof *b->cl);
  b->us = calloc((size_t)n, sizeof *b->us);
  b->meta = calloc(total * 2 + 1, sizeof *b->meta);
  b->id = calloc(total + 1, sizeof *b->id);
  b->p = malloc(sizeof *b->p);
  if (!b->step || !b->cl || !b->us || !b->meta || !b->id || !b->p) {
    snprintf(why, whyn, "out of memory");
    return -1;
  }
  /* Metadata first: no query can run in the middle of a pipeline. */
  for (int i = 0; i < n; i++) {
    augp_job j;
    memcpy(&j, payloads[i], sizeof j);
    b->cl[i] = meta_id(m, MON_META_CLUSTER, j.cluster, why, whyn);
    b->us[i] = b->cl[i] < 0 ? -1 : meta_id(m, MON_META_USER, j.user, why, whyn);
    if (b->us[i] < 0) return -1;
  }
  if (insert_jobs(m, payloads, lens, n, b, why, whyn)) return -1;
  for (int i = 0; i < n; i++) {
    augp_job j;
    memcpy(&j, payloads[i], sizeof j);
    status[i] = b->step[i] ? MON_ACK_STORED : MON_ACK_DUPLICATE;
    for (uint64_t q = 0; b->step[i] && q < j.nprocs; q++) {
      memcpy(b->p, payloads[i] + sizeof j + q * sizeof *b->p, sizeof *b->p);
      char host[sizeof b->p->host + 1];
      snprintf(host, sizeof host, "%.*s", (int)sizeof b->p->host, b->p->host);
      int64_t node = meta_id(m, MON_META_NODE, host, why, whyn);
      int64_t prog = node < 0 ? -1 : meta_id(m, MON_META_PROGRAM, b->p->program, why, whyn);
      if (prog < 0) return -1;
      b->meta[2 * b->nproc] = node;
      b->meta[2 * b->nproc + 1] = prog;
      b->nproc++;
    }
  }
  return reserve_ids(m, b, why, whyn) || copy_rows(m, payloads, n, b, 0, why, whyn) ||
         copy_rows(m, payloads, n, b, 1, why, whyn);
}

/* A failed batch: roll back, or drop a connection that is gone. */
static void abandon(pg_db *m) {
  mon_cache_clear(&m->cache); /* ids created in the lost transaction are gone */
  if (lost(m)) {
    drop(m);
    return;
  }
  char ignore[256];
  if (exec_ok(m, "ROLLBACK", PGRES_COMMAND_OK, "ROLLBACK", ignore, sizeof ignore)) drop(m);
}

static int pg_insert(mon_db *db, const uint8_t *const *payloads, const uint32_t *lens, int n,
                     int *status, char *why, size_t whyn) {
  pg_db *m = (pg_db *)db;
  /* A connection lost while idle (the server restarted between batches)
   * is only noticed now: reconnect once, nothing was sent yet. */
  for (int attempt = 0;; attempt++) {
    int fresh = !m->conn;
    if (fresh && pg_connect(m, why, whyn)) return -1;
    if (!exec_ok(m, "BEGIN", PGRES_COMMAND_OK, "BEGIN", why, whyn)) break;
    int gone = lost(m);
    abandon(m);
    if (!gone || fresh || attempt) return -1;
  }
  batch b = {NULL, NULL, NULL, NULL, NULL, NULL, 0};
  int rc = store_batch(m, payloads, lens, n, status, &b, why, whyn);
  free(b.step);
  free(b.cl);
  free(b.us);
  free(b.meta);
  free(b.id);
  free(b.p);
  if (!rc) rc = exec_ok(m, "COMMIT", PGRES_COMMAND_OK, "COMMIT", why, whyn);
  if (rc) {
    if (lost(m)) {
      size_t k = strlen(why);
      snprintf(why + k, k < whyn ? whyn - k : 0,
               " (connection lost; reconnecting at the next batch)");
    }
    abandon(m);
    return -1;
  }
  return 0;
}

#endif
