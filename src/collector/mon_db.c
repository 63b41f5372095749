/* augur monitoring — the store: dispatch, what both backends share, and
 * the SQLite backend (schema in docs/monitoring.md; PostgreSQL in
 * mon_db_pg.c).
 *
 * One row per process and per thread in wide tables (one column per
 * metric), not one row per metric value: a process is one INSERT, not the
 * hundreds of the 2008 design. Metadata ids (cluster, user, node, program)
 * are cached in memory, so a batch of jobs costs only its own rows. A batch
 * is one transaction; the caller acks only after it returns. A record uid
 * seen before is skipped (INSERT OR IGNORE on job.record_uid): senders may
 * repeat a record whose ack they lost. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mon_db_int.h"
#include "mon_store.h"

/* ---- dispatch ---- */

int mon_db_is_postgres(const char *path) {
  /* A conninfo string holds '='; a path that starts like one (/, .) is a
   * file even if a directory name holds '='. */
  return !strncmp(path, "postgresql://", 13) || !strncmp(path, "postgres://", 11) ||
         (strchr(path, '=') != NULL && path[0] != '/' && path[0] != '.');
}

void mon_db_redact(const char *path, char *out, size_t n) {
  snprintf(out, n, "%s", path);
  if (!mon_db_is_postgres(path)) return;
  char *p = strstr(out, "://");
  if (p) { /* URI: scheme://user:password@host/... */
    char *auth = p + 3, *end = auth + strcspn(auth, "/?");
    char *at = memchr(auth, '@', (size_t)(end - auth));
    char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
    if (colon) memmove(colon, at, strlen(at) + 1);
    char *q = strstr(out, "password=");
    if (q) *q = 0; /* ...?password=...: cut there */
    return;
  }
  for (char *q = strstr(out, "password"); q; q = strstr(q + 1, "password")) {
    char *v = q + 8;
    while (*v == ' ')
      v++;
    if (*v != '=') continue;
    v++;
    while (*v == ' ')
      v++;
    char *end = v;
    if (*end == '\'') /* quoted value, \' inside */
      for (end++; *end && *end != '\''; end++)
        if (*end == '\\' && end[1]) end++;
    while (*end && *end != ' ')
      end++;
    if (end - v >= 3) {
      memmove(v + 3, end, strlen(end) + 1);
      memcpy(v, "***", 3);
    } else {
      memset(v, '*', (size_t)(end - v)); /* never longer than the original */
    }
  }
}

static int sqlite_open(mon_db **out, const char *path, char *why, size_t whyn);

int mon_db_open(mon_db **out, const char *path, char *why, size_t whyn) {
  *out = NULL;
  if (mon_db_is_postgres(path)) return mon_db_pg_open(out, path, why, whyn);
  return sqlite_open(out, path, why, whyn);
}

void mon_db_close(mon_db *db) {
  if (db) db->ops->close(db);
}

int mon_db_insert(mon_db *db, const uint8_t *const *payloads, const uint32_t *lens, int n,
                  int *status, char *why, size_t whyn) {
  return db->ops->insert(db, payloads, lens, n, status, why, whyn);
}

/* ---- shared: metadata id cache ---- */

const char *const mon_meta_table[MON_META_N] = {"cluster", "\"user\"", "program", "node"};

static uint64_t hash(const char *s) {
  uint64_t h = 1469598103934665603u;
  for (; *s; s++)
    h = (h ^ (uint8_t)*s) * 1099511628211u;
  return h;
}

static void cache_key(char *key, size_t n, int table, const char *name) {
  snprintf(key, n, "%d:%s", table, name);
}

int64_t mon_cache_get(const mon_cache *c, int table, const char *name) {
  char key[300];
  cache_key(key, sizeof key, table, name);
  for (uint64_t i = hash(key) & (MON_CACHE_SLOTS - 1); c->slot[i].key;
       i = (i + 1) & (MON_CACHE_SLOTS - 1))
    if (!strcmp(c->slot[i].key, key)) return c->slot[i].id;
  return -1;
}

void mon_cache_put(mon_cache *c, int table, const char *name, int64_t id) {
  char key[300];
  cache_key(key, sizeof key, table, name);
  if (c->n >= MON_CACHE_SLOTS / 2) mon_cache_clear(c); /* bounded memory */
  char *k = strdup(key);
  if (!k) return; /* only a cache */
  uint64_t i = hash(key) & (MON_CACHE_SLOTS - 1);
  while (c->slot[i].key)
    i = (i + 1) & (MON_CACHE_SLOTS - 1);
  c->slot[i].key = k;
  c->slot[i].id = id;
  c->n++;
}

void mon_cache_clear(mon_cache *c) {
  for (int i = 0; i < MON_CACHE_SLOTS; i++) {
    free(c->slot[i].key);
    c->slot[i].key = NULL;
  }
  c->n = 0;
}

/* ---- shared: schema and row values ---- */

/* Process columns after the identity ones; counters are NULL when the
 * slot was not measured. */
static const char *const proc_cols[] = {
    "pid",      "ppid",     "rank",      "nranks",   "flags",         "start_ns",        "end_ns",
    "utime_us", "stime_us", "maxrss_kb", "minflt",   "majflt",        "nvcsw",           "nivcsw",
    "inblock",  "oublock",  "ctr_mask",  "nthreads", "io_bytes_read", "io_bytes_written"};
#define NPROC_COLS (sizeof proc_cols / sizeof proc_cols[0])
static const char *const thread_cols[] = {"slot",   "tid",   "start_ns", "end_ns", "cpu_ns",
                                          "mpi_ns", "io_ns", "nfolded",  "flags"};
#define NTHREAD_COLS (sizeof thread_cols / sizeof thread_cols[0])
_Static_assert(MON_NPROC_VALUES == NPROC_COLS + AUGP_CTR_RESERVED + 2 * AUGP_NMPI + 2 * AUGP_NIO,
               "process columns");
_Static_assert(MON_NTHREAD_VALUES == NTHREAD_COLS + AUGP_CTR_RESERVED, "thread columns");

typedef struct sbuf {
  char *b;
  size_t n, at;
  int oom;
} sbuf;

/* Appends len bytes of t (and keeps the text terminated). */
static void putn(sbuf *s, const char *t, size_t len) {
  if (s->oom) return;
  if (s->at + len + 1 > s->n) {
    size_t n = (s->n ? s->n * 2 : 4096) + len;
    char *nb = realloc(s->b, n);
    if (!nb) {
      s->oom = 1;
      return;
    }
    s->b = nb;
    s->n = n;
  }
  memcpy(s->b + s->at, t, len);
  s->at += len;
  s->b[s->at] = 0;
}

/* Appends fmt with up to two string arguments. */
static void put(sbuf *s, const char *fmt, const char *a, const char *b) {
  char tmp[512];
  int w = snprintf(tmp, sizeof tmp, fmt, a, b);
  if (w < 0 || (size_t)w >= sizeof tmp) {
    s->oom = 1; /* only our own short names pass through here */
    return;
  }
  putn(s, tmp, (size_t)w);
}

/* Every column name of a list, each through fmt (%s = the name). */
static void each_col(sbuf *s, int thread, const char *fmt) {
  const char *const *base = thread ? thread_cols : proc_cols;
  size_t nbase = thread ? NTHREAD_COLS : NPROC_COLS;
  for (size_t i = 0; i < nbase; i++)
    put(s, fmt, base[i], "");
  for (int i = 0; i < AUGP_CTR_RESERVED; i++)
    put(s, fmt, augp_ctr_names[i], "");
  if (thread) return;
  char col[64];
  for (int i = 0; i < AUGP_NMPI; i++) {
    snprintf(col, sizeof col, "mpi_%s_ns", augp_mpi_names[i]);
    put(s, fmt, col, "");
    snprintf(col, sizeof col, "mpi_%s_calls", augp_mpi_names[i]);
    put(s, fmt, col, "");
  }
  for (int i = 0; i < AUGP_NIO; i++) {
    snprintf(col, sizeof col, "io_%s_ns", augp_io_names[i]);
    put(s, fmt, col, "");
    snprintf(col, sizeof col, "io_%s_calls", augp_io_names[i]);
    put(s, fmt, col, "");
  }
}

void mon_db_columns(int thread, char *out, size_t n) {
  sbuf s = {NULL, 0, 0, 0};
  each_col(&s, thread, ",%s");
  snprintf(out, n, "%s", s.b && !s.oom ? s.b + 1 : "");
  free(s.b);
}

void mon_db_proc_values(const augp_proc *p, int64_t *v, unsigned char *isnull) {
  const uint64_t base[] = {p->pid,      p->ppid,      (uint64_t)p->rank, (uint64_t)p->nranks,
                           p->flags,    p->start_ns,  p->end_ns,         p->utime_us,
                           p->stime_us, p->maxrss_kb, p->minflt,         p->majflt,
                           p->nvcsw,    p->nivcsw,    p->inblock,        p->oublock,
                           p->ctr_mask, p->nthreads,  p->io_bytes_read,  p->io_bytes_written};
  _Static_assert(sizeof base / sizeof base[0] == NPROC_COLS, "process columns");
  int k = 0;
  memset(isnull, 0, MON_NPROC_VALUES);
  for (size_t i = 0; i < NPROC_COLS; i++)
    v[k++] = (int64_t)base[i];
  for (int c = 0; c < AUGP_CTR_RESERVED; c++, k++) {
    v[k] = (int64_t)p->ctr[c];
    isnull[k] = !(p->ctr_mask & (1u << c));
  }
  for (int c = 0; c < AUGP_NMPI; c++) {
    v[k++] = (int64_t)p->mpi_ns[c];
    v[k++] = (int64_t)p->mpi_calls[c];
  }
  for (int c = 0; c < AUGP_NIO; c++) {
    v[k++] = (int64_t)p->io_ns[c];
    v[k++] = (int64_t)p->io_calls[c];
  }
}

void mon_db_thread_values(const augp_proc *p, int slot, int64_t *v, unsigned char *isnull) {
  const augp_thread *th = &p->threads[slot];
  const uint64_t base[] = {(uint64_t)slot, th->tid,   th->start_ns, th->end_ns, th->cpu_ns,
                           th->mpi_ns,     th->io_ns, th->nfolded,  th->flags};
  _Static_assert(sizeof base / sizeof base[0] == NTHREAD_COLS, "thread columns");
  int k = 0;
  memset(isnull, 0, MON_NTHREAD_VALUES);
  for (size_t i = 0; i < NTHREAD_COLS; i++)
    v[k++] = (int64_t)base[i];
  for (int c = 0; c < AUGP_CTR_RESERVED; c++, k++) {
    v[k] = (int64_t)th->ctr[c];
    isnull[k] = !(p->ctr_mask & (1u << c));
  }
}

static const char *const schema_tables =
    "CREATE TABLE IF NOT EXISTS cluster(id @ID@, name TEXT UNIQUE NOT NULL);"
    "CREATE TABLE IF NOT EXISTS \"user\"(id @ID@, name TEXT UNIQUE NOT NULL);"
    "CREATE TABLE IF NOT EXISTS program(id @ID@, name TEXT UNIQUE NOT NULL);"
    "CREATE TABLE IF NOT EXISTS node(id @ID@, name TEXT UNIQUE NOT NULL);"
    "CREATE TABLE IF NOT EXISTS job(id @ID@, record_uid TEXT UNIQUE NOT NULL,"
    " cluster_id @INT@ NOT NULL REFERENCES cluster(id), job_name TEXT NOT NULL,"
    " user_id @INT@ REFERENCES \"user\"(id), uid @INT@, command TEXT, level @INT@,"
    " start_ns @INT@, end_ns @INT@, exit_status @INT@, nprocs @INT@,"
    " counter_note TEXT, received_ns @INT@@POPCOLS@);"
    "CREATE INDEX IF NOT EXISTS job_by_name ON job(cluster_id, job_name);"
    "CREATE TABLE IF NOT EXISTS step(id @ID@,"
    " job_id @INT@ NOT NULL REFERENCES job(id), name TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS step_by_job ON step(job_id);"
    "CREATE TABLE IF NOT EXISTS metric(name TEXT PRIMARY KEY, scope TEXT NOT NULL,"
    " unit TEXT NOT NULL, aggregations TEXT NOT NULL, preferred TEXT NOT NULL,"
    " derived TEXT, description TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS process(id @ID@,"
    " step_id @INT@ NOT NULL@REF:step@,"
    " node_id @INT@@REF:node@,"
    " program_id @INT@@REF:program@, counter_note TEXT";
static const char *const schema_thread = "CREATE TABLE IF NOT EXISTS thread(id @ID@,"
                                         " process_id @INT@ NOT NULL@REF:process@";
static const char *const schema_index =
    "CREATE INDEX IF NOT EXISTS process_by_step ON process(step_id);"
    "CREATE INDEX IF NOT EXISTS thread_by_process ON thread(process_id);";

/* Metric metadata and the derived metrics (also in docs/monitoring.md). */
static const char *const metric_rows =
    "('wall_s','process','s','avg,min,max,sum,stddev,balance','max',"
    " '(end_ns-start_ns)/1e9','elapsed time of the process'),"
    "('cpu_s','process','s','avg,min,max,sum,stddev,balance','sum',"
    " '(utime_us+stime_us)/1e6','user+system CPU time (rusage)'),"
    "('maxrss_kb','process','KiB','avg,min,max,sum','max',NULL,'peak resident memory'),"
    "('task_clock','process,thread','ns','avg,min,max,sum,stddev,balance','sum',NULL,"
    " 'time on CPU (perf software event)'),"
    "('cycles','process,thread','count','avg,min,max,sum,stddev,balance','sum',NULL,'CPU cycles'),"
    "('instructions','process,thread','count','avg,min,max,sum,stddev,balance','sum',NULL,"
    " 'instructions retired'),"
    "('fp_ops','process,thread','count','avg,min,max,sum','sum',NULL,'floating-point operations'),"
    "('loads','process,thread','count','avg,min,max,sum','sum',NULL,'load instructions'),"
    "('stores','process,thread','count','avg,min,max,sum','sum',NULL,'store instructions'),"
    "('l1_dcm','process,thread','count','avg,min,max,sum','sum',NULL,'L1 data cache misses'),"
    "('l2_dcm','process,thread','count','avg,min,max,sum','sum',NULL,'L2 data cache misses'),"
    "('tlb_dm','process,thread','count','avg,min,max,sum','sum',NULL,'data TLB misses'),"
    "('branches','process,thread','count','avg,min,max,sum','sum',NULL,'branch instructions'),"
    "('branch_misses','process,thread','count','avg,min,max,sum','sum',NULL,"
    " 'mispredicted branches'),"
    "('mpi_s','process','s','avg,min,max,sum,stddev,balance','avg',"
    " '(mpi_p2p_ns+mpi_wait_ns+mpi_coll_ns+mpi_init_fini_ns+mpi_other_ns)/1e9',"
    " 'time in MPI calls'),"
    "('compute_s','process','s','avg,min,max,sum,stddev,balance','balance',"
    " '(end_ns-start_ns)/1e9-mpi_s-io_s','elapsed time outside MPI and I/O'),"
    "('io_s','process','s','avg,min,max,sum,stddev,balance','avg',"
    " '(io_read_ns+io_write_ns+io_meta_ns+io_sync_ns)/1e9','time in I/O calls'),"
    "('ipc','process','ratio','avg,min,max','avg','1.0*instructions/cycles',"
    " 'instructions per cycle'),"
    "('mflops','process','Mflop/s','avg,min,max,sum','sum','fp_ops*1e3/(end_ns-start_ns)',"
    " 'floating-point rate'),"
    "('mpi_pct','process','%','avg,min,max,stddev','avg',"
    " '100.0*(mpi_p2p_ns+mpi_wait_ns+mpi_coll_ns+mpi_init_fini_ns+mpi_other_ns)/(end_ns-start_ns)',"
    " 'share of the elapsed time in MPI'),"
    "('io_pct','process','%','avg,min,max,stddev','avg',"
    " '100.0*(io_read_ns+io_write_ns+io_meta_ns+io_sync_ns)/(end_ns-start_ns)',"
    " 'share of the elapsed time in I/O'),"
    "('cpu_util','process','ratio','avg,min,max','avg','(utime_us+stime_us)*1e3/(end_ns-start_ns)',"
    " 'CPU time / elapsed time'),"
    "('l2_mpki','process','per 1000 ins','avg,min,max','avg','1000.0*l2_dcm/instructions',"
    " 'L2 misses per 1000 instructions'),"
    "('job_pe','job','ratio','min,max,avg','min','job.pop_pe',"
    " 'parallel efficiency of the job (POP: load balance x communication)'),"
    "('job_lb','job','ratio','min,max,avg','min','job.pop_lb',"
    " 'MPI load balance of the job (avg / max useful time of its ranks)'),"
    "('job_comm','job','ratio','min,max,avg','min','job.pop_comm',"
    " 'communication efficiency of the job (max useful time / run time)'),"
    "('job_omp_pe','job','ratio','min,max,avg','min','job.pop_omp_pe',"
    " 'OpenMP parallel efficiency of the job (NULL: not measured)')";

static const char *const view_sql =
    "@VIEW@ process_derived AS SELECT p.*,"
    " (p.end_ns-p.start_ns)/1e9 AS wall_s, (p.utime_us+p.stime_us)/1e6 AS cpu_s,"
    " (p.mpi_p2p_ns+p.mpi_wait_ns+p.mpi_coll_ns+p.mpi_init_fini_ns+p.mpi_other_ns)/1e9 AS mpi_s,"
    " (p.io_read_ns+p.io_write_ns+p.io_meta_ns+p.io_sync_ns)/1e9 AS io_s,"
    " (p.end_ns-p.start_ns-p.mpi_p2p_ns-p.mpi_wait_ns-p.mpi_coll_ns-p.mpi_init_fini_ns"
    "-p.mpi_other_ns-p.io_read_ns-p.io_write_ns-p.io_meta_ns-p.io_sync_ns)/1e9 AS compute_s,"
    " 1.0*p.instructions/NULLIF(p.cycles,0) AS ipc,"
    " p.fp_ops*1e3/NULLIF(p.end_ns-p.start_ns,0) AS mflops,"
    " 100.0*(p.mpi_p2p_ns+p.mpi_wait_ns+p.mpi_coll_ns+p.mpi_init_fini_ns+p.mpi_other_ns)"
    "/NULLIF(p.end_ns-p.start_ns,0) AS mpi_pct,"
    " 100.0*(p.io_read_ns+p.io_write_ns+p.io_meta_ns+p.io_sync_ns)/NULLIF(p.end_ns-p.start_ns,0)"
    " AS io_pct,"
    " (p.utime_us+p.stime_us)*1e3/NULLIF(p.end_ns-p.start_ns,0) AS cpu_util,"
    " 1000.0*p.l2_dcm/NULLIF(p.instructions,0) AS l2_mpki,"
    " s.job_id AS job_pk, s.name AS step, n.name AS node, g.name AS program,"
    " jb.pop_pe AS job_pe, jb.pop_lb AS job_lb, jb.pop_comm AS job_comm,"
    " jb.pop_omp_pe AS job_omp_pe"
    " FROM process p JOIN step s ON s.id=p.step_id JOIN job jb ON jb.id=s.job_id"
    " LEFT JOIN node n ON n.id=p.node_id LEFT JOIN program g ON g.id=p.program_id;";

/* The job's POP efficiencies (mon_job_pop), added in schema version 2: a
 * database made before gets them by ALTER TABLE (mon_db_migrate_sql). */
const char *const mon_job_pop_cols[MON_NJOB_POP][2] = {{"pop_ranks", "@INT@"},
                                                       {"pop_run_ns", "@REAL@"},
                                                       {"pop_useful_avg_ns", "@REAL@"},
                                                       {"pop_useful_max_ns", "@REAL@"},
                                                       {"pop_lb", "@REAL@"},
                                                       {"pop_comm", "@REAL@"},
                                                       {"pop_pe", "@REAL@"},
                                                       {"pop_omp_pe", "@REAL@"},
                                                       {"pop_note", "TEXT"}};

void mon_db_pop_values(const uint8_t *payload, uint32_t len, mon_pop_row *r) {
  mon_pop p;
  mon_job_pop(payload, len, &p);
  memset(r, 0, sizeof *r);
  r->ranks = p.ranks;
  r->isnull[0] = !p.ranks;
  const double v[] = {p.run_ns, p.useful_avg_ns, p.useful_max_ns, p.lb, p.comm, p.pe, p.omp_pe};
  for (int i = 0; i < MON_NJOB_POP - 2; i++) {
    r->v[i] = v[i];
    /* sums: unknown without ranks; ratios: unknown when negative */
    r->isnull[1 + i] = !p.ranks || v[i] < 0;
  }
  snprintf(r->note, sizeof r->note, "%s", p.note);
}

/* Replaces the @WORD@ tokens of a template by the dialect's words. */
static void expand(sbuf *s, const mon_dialect *d, const char *t) {
  const struct {
    const char *tok, *val;
  } w[] = {{"@ID@", d->id},
           {"@INT@", d->int64},
           {"@VIEW@", d->view},
           {"@METRIC@", d->metric},
           {"@METRIC_END@", d->metric_end},
           {"@REAL@", d->real}};
  while (*t) {
    const char *at = strchr(t, '@');
    putn(s, t, at ? (size_t)(at - t) : strlen(t));
    if (!at) break;
    const char *end = strchr(at + 1, '@');
    if (!strncmp(at, "@POPCOLS@", 9)) { /* the job's efficiency columns */
      for (int i = 0; i < MON_NJOB_POP; i++) {
        put(s, ", %s ", mon_job_pop_cols[i][0], "");
        expand(s, d, mon_job_pop_cols[i][1]);
      }
      t = at + 9;
      continue;
    }
    if (!strncmp(at, "@REF:", 5) && end) { /* a reference of a per-row table */
      if (d->row_refs) {
        put(s, " REFERENCES ", "", "");
        putn(s, at + 5, (size_t)(end - at - 5));
        put(s, "(id)", "", "");
      }
      t = end + 1;
      continue;
    }
    size_t i = 0;
    while (i < sizeof w / sizeof w[0] && strncmp(at, w[i].tok, strlen(w[i].tok)))
      i++;
    putn(s, i < sizeof w / sizeof w[0] ? w[i].val : "@",
         i < sizeof w / sizeof w[0] ? strlen(w[i].val) : 1);
    t = at + (i < sizeof w / sizeof w[0] ? strlen(w[i].tok) : 1);
  }
}

void mon_db_add_column_sql(const mon_dialect *d, int i, int if_not_exists, char *out, size_t n) {
  sbuf s = {NULL, 0, 0, 0};
  put(&s, "ALTER TABLE job ADD COLUMN %s%s ", if_not_exists ? "IF NOT EXISTS " : "",
      mon_job_pop_cols[i][0]);
  expand(&s, d, mon_job_pop_cols[i][1]);
  snprintf(out, n, "%s", s.b && !s.oom ? s.b : "");
  free(s.b);
}

char *mon_db_view_sql(const mon_dialect *d) {
  sbuf s = {NULL, 0, 0, 0};
  expand(&s, d, view_sql);
  if (s.oom) {
    free(s.b);
    return NULL;
  }
  return s.b;
}

char *mon_db_schema_sql(const mon_dialect *d) {
  sbuf s = {NULL, 0, 0, 0};
  char fmt[64];
  expand(&s, d, schema_tables);
  snprintf(fmt, sizeof fmt, ", %%s %s", d->int64);
  each_col(&s, 0, fmt);
  put(&s, ");", "", "");
  expand(&s, d, schema_thread);
  each_col(&s, 1, fmt);
  put(&s, ");", "", "");
  putn(&s, schema_index, strlen(schema_index));
  expand(&s, d, "@METRIC@ VALUES");
  putn(&s, metric_rows, strlen(metric_rows));
  expand(&s, d, " @METRIC_END@;");
  expand(&s, d, view_sql);
  if (s.oom) {
    free(s.b);
    return NULL;
  }
  return s.b;
}

/* ---- the SQLite backend ---- */

typedef struct sq_db {
  mon_db base;
  sqlite3 *db;
  sqlite3_stmt *ins_job, *ins_step, *ins_proc, *ins_thread;
  sqlite3_stmt *sel_meta[MON_META_N], *ins_meta[MON_META_N];
  mon_cache cache;
} sq_db;

/* SQLite declares every reference (and, like any SQLite without
 * PRAGMA foreign_keys, does not enforce them). */
static const mon_dialect sqlite_dialect = {"INTEGER PRIMARY KEY",
                                           "INTEGER",
                                           "CREATE VIEW IF NOT EXISTS",
                                           "INSERT OR REPLACE INTO metric",
                                           "",
                                           1,
                                           "REAL"};

static int exec_sql(sqlite3 *db, const char *sql, char *why, size_t whyn) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
    snprintf(why, whyn, "sqlite: %s", err ? err : "error");
    sqlite3_free(err);
    return -1;
  }
  return 0;
}

static int prep(sqlite3 *db, const char *sql, sqlite3_stmt **st, char *why, size_t whyn) {
  if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK) {
    snprintf(why, whyn, "sqlite prepare: %s", sqlite3_errmsg(db));
    return -1;
  }
  return 0;
}

/* INSERT INTO table(first,cols) VALUES(?,...) for nfirst + ncols values. */
static int prep_insert(sq_db *m, const char *table, const char *first, int nfirst, int thread,
                       int ncols, sqlite3_stmt **st, char *why, size_t whyn) {
  char cols[4096];
  mon_db_columns(thread, cols, sizeof cols);
  sbuf s = {NULL, 0, 0, 0};
  put(&s, "INSERT INTO %s(%s,", table, first);
  putn(&s, cols, strlen(cols));
  put(&s, ") VALUES(?", "", "");
  for (int i = 1; i < nfirst + ncols; i++)
    put(&s, ",?", "", "");
  put(&s, ")", "", "");
  int rc = s.oom ? -1 : prep(m->db, s.b, st, why, whyn);
  if (s.oom) snprintf(why, whyn, "out of memory");
  free(s.b);
  return rc;
}

/* Brings a database of an older schema version to MON_SCHEMA_VERSION
 * (inside the schema transaction; the tables exist): the job's efficiency
 * columns, the view re-created with its job_* columns. Jobs stored before
 * keep NULL efficiencies. A newer version is refused. */
static int sqlite_migrate(sq_db *m, char *why, size_t whyn) {
  sqlite3_stmt *st = NULL;
  int version = -1;
  if (prep(m->db, "PRAGMA user_version", &st, why, whyn)) return -1;
  if (sqlite3_step(st) == SQLITE_ROW) version = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  if (version < 0) {
    snprintf(why, whyn, "sqlite: cannot read the schema version: %s", sqlite3_errmsg(m->db));
    return -1;
  }
  if (version > MON_SCHEMA_VERSION) {
    snprintf(why, whyn,
             "the database's schema is version %d, newer than this augur's (%d): use a newer "
             "augurd",
             version, MON_SCHEMA_VERSION);
    return -1;
  }
  if (version == MON_SCHEMA_VERSION) return 0;
  /* Version 0 is a file made before versions were recorded, or a new one
   * (whose job table the schema just made with the columns). */
  if (prep(m->db, "SELECT 1 FROM pragma_table_info('job') WHERE name=?", &st, why, whyn)) return -1;
  int rc = 0;
  for (int i = 0; i < MON_NJOB_POP && !rc; i++) {
    sqlite3_bind_text(st, 1, mon_job_pop_cols[i][0], -1, SQLITE_STATIC);
    int present = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    char sql[256];
    mon_db_add_column_sql(&sqlite_dialect, i, 0, sql, sizeof sql);
    if (!present) rc = exec_sql(m->db, sql, why, whyn);
  }
  sqlite3_finalize(st);
  char *view = mon_db_view_sql(&sqlite_dialect);
  if (!view) snprintf(why, whyn, "out of memory");
  char ver[64];
  snprintf(ver, sizeof ver, "PRAGMA user_version=%d", MON_SCHEMA_VERSION);
  rc = rc || !view || exec_sql(m->db, "DROP VIEW IF EXISTS process_derived", why, whyn) ||
       exec_sql(m->db, view, why, whyn) || exec_sql(m->db, ver, why, whyn);
  free(view);
  return rc;
}

static void sqlite_close(mon_db *db);
static int sqlite_insert(mon_db *db, const uint8_t *const *payloads, const uint32_t *lens, int n,
                         int *status, char *why, size_t whyn);
static const mon_db_ops sqlite_ops = {sqlite_insert, sqlite_close};

static int sqlite_open(mon_db **out, const char *path, char *why, size_t whyn) {
  sq_db *m = calloc(1, sizeof *m);
  if (!m) {
    snprintf(why, whyn, "out of memory");
    return -1;
  }
  m->base.ops = &sqlite_ops;
  if (sqlite3_open_v2(path, &m->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
      SQLITE_OK) {
    snprintf(why, whyn, "cannot open database %s: %s", path,
             m->db ? sqlite3_errmsg(m->db) : "out of memory");
    sqlite_close(&m->base);
    return -1;
  }
  sqlite3_busy_timeout(m->db, 5000);
  char *schema = mon_db_schema_sql(&sqlite_dialect);
  if (!schema) snprintf(why, whyn, "out of memory");
  /* IMMEDIATE: two collectors opening one old file migrate it once. */
  int rc = !schema ||
           exec_sql(m->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL", why, whyn) ||
           exec_sql(m->db, "BEGIN IMMEDIATE", why, whyn) || exec_sql(m->db, schema, why, whyn) ||
           sqlite_migrate(m, why, whyn) || exec_sql(m->db, "COMMIT", why, whyn);
  free(schema);
  if (rc) {
    char ignore[64];
    exec_sql(m->db, "ROLLBACK", ignore, sizeof ignore);
  }
  char cols[1024] = "", qs[64] = "";
  for (int i = 0; i < MON_NJOB_POP; i++) {
    size_t at = strlen(cols);
    snprintf(cols + at, sizeof cols - at, ",%s", mon_job_pop_cols[i][0]);
    at = strlen(qs);
    snprintf(qs + at, sizeof qs - at, ",?");
  }
  char ins_job[2048];
  snprintf(ins_job, sizeof ins_job,
           "INSERT OR IGNORE INTO job(record_uid,cluster_id,job_name,user_id,uid,command,"
           "level,start_ns,end_ns,exit_status,nprocs,counter_note,received_ns%s)"
           " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?%s)",
           cols, qs);
  if (!rc)
    rc =
        prep(m->db, ins_job, &m->ins_job, why, whyn) ||
        prep(m->db, "INSERT INTO step(job_id,name) VALUES(?,?)", &m->ins_step, why, whyn) ||
        prep_insert(m, "process", "step_id,node_id,program_id,counter_note", 4, 0, MON_NPROC_VALUES,
                    &m->ins_proc, why, whyn) ||
        prep_insert(m, "thread", "process_id", 1, 1, MON_NTHREAD_VALUES, &m->ins_thread, why, whyn);
  for (int i = 0; i < MON_META_N && !rc; i++) {
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT id FROM %s WHERE name=?", mon_meta_table[i]);
    rc = prep(m->db, sql, &m->sel_meta[i], why, whyn);
    snprintf(sql, sizeof sql, "INSERT INTO %s(name) VALUES(?)", mon_meta_table[i]);
    if (!rc) rc = prep(m->db, sql, &m->ins_meta[i], why, whyn);
  }
  if (rc) {
    sqlite_close(&m->base);
    return -1;
  }
  *out = &m->base;
  return 0;
}

static void sqlite_close(mon_db *db) {
  sq_db *m = (sq_db *)db;
  sqlite3_stmt *all[] = {m->ins_job, m->ins_step, m->ins_proc, m->ins_thread};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    sqlite3_finalize(all[i]);
  for (int i = 0; i < MON_META_N; i++) {
    sqlite3_finalize(m->sel_meta[i]);
    sqlite3_finalize(m->ins_meta[i]);
  }
  sqlite3_close(m->db);
  mon_cache_clear(&m->cache);
  free(m);
}

/* Id of name in a metadata table: cache, else SELECT, else INSERT. */
static int64_t meta_id(sq_db *m, int table, const char *name) {
  int64_t id = mon_cache_get(&m->cache, table, name);
  if (id >= 0) return id;
  sqlite3_stmt *s = m->sel_meta[table];
  sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
  if (sqlite3_step(s) == SQLITE_ROW) id = sqlite3_column_int64(s, 0);
  sqlite3_reset(s);
  if (id < 0) {
    s = m->ins_meta[table];
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(s) == SQLITE_DONE) id = sqlite3_last_insert_rowid(m->db);
    sqlite3_reset(s);
  }
  if (id >= 0) mon_cache_put(&m->cache, table, name, id);
  return id;
}

static int step_done(sqlite3_stmt *s) {
  int rc = sqlite3_step(s);
  sqlite3_reset(s);
  sqlite3_clear_bindings(s);
  return rc == SQLITE_DONE ? 0 : -1;
}

static void bind_u64(sqlite3_stmt *s, int i, uint64_t v) {
  sqlite3_bind_int64(s, i, (sqlite3_int64)v);
}

static void bind_values(sqlite3_stmt *s, int k, const int64_t *v, const unsigned char *isnull,
                        int n) {
  for (int i = 0; i < n; i++, k++) {
    if (isnull[i])
      sqlite3_bind_null(s, k);
    else
      sqlite3_bind_int64(s, k, v[i]);
  }
}

static int insert_proc(sq_db *m, int64_t step, const augp_proc *p) {
  sqlite3_stmt *s = m->ins_proc;
  char node[80];
  snprintf(node, sizeof node, "%s", p->host);
  sqlite3_bind_int64(s, 1, step);
  sqlite3_bind_int64(s, 2, meta_id(m, MON_META_NODE, node));
  sqlite3_bind_int64(s, 3, meta_id(m, MON_META_PROGRAM, p->program[0] ? p->program : "?"));
  if (p->counter_note[0])
    sqlite3_bind_text(s, 4, p->counter_note, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null(s, 4);
  int64_t v[MON_NPROC_VALUES];
  unsigned char isnull[MON_NPROC_VALUES];
  mon_db_proc_values(p, v, isnull);
  bind_values(s, 5, v, isnull, MON_NPROC_VALUES);
  if (step_done(s)) return -1;
  int64_t pid = sqlite3_last_insert_rowid(m->db);
  uint64_t nt = p->nthreads < AUGP_MAX_THREADS ? p->nthreads : AUGP_MAX_THREADS;
  for (uint64_t t = 0; t < nt; t++) {
    s = m->ins_thread;
    sqlite3_bind_int64(s, 1, pid);
    mon_db_thread_values(p, (int)t, v, isnull);
    bind_values(s, 2, v, isnull, MON_NTHREAD_VALUES);
    if (step_done(s)) return -1;
  }
  return 0;
}

/* One job; *status = STORED or DUPLICATE. */
static int insert_job(sq_db *m, const uint8_t *payload, uint32_t len, int *status) {
  augp_job j;
  memcpy(&j, payload, sizeof j);
  char hex[33];
  mon_uid_hex(j.uid, hex);
  int64_t cluster = meta_id(m, MON_META_CLUSTER, j.cluster);
  int64_t user = meta_id(m, MON_META_USER, j.user[0] ? j.user : "?");
  if (cluster < 0 || user < 0) return -1;
  const augp_proc *first = (const augp_proc *)(const void *)(payload + sizeof j);
  augp_proc p0;
  if (j.nprocs) memcpy(&p0, first, sizeof p0);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  sqlite3_stmt *s = m->ins_job;
  sqlite3_bind_text(s, 1, hex, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(s, 2, cluster);
  sqlite3_bind_text(s, 3, j.job_id, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(s, 4, user);
  bind_u64(s, 5, j.uid_num);
  sqlite3_bind_text(s, 6, j.command, -1, SQLITE_TRANSIENT);
  bind_u64(s, 7, j.level);
  bind_u64(s, 8, j.start_ns);
  bind_u64(s, 9, j.end_ns);
  sqlite3_bind_int64(s, 10, j.exit_status);
  bind_u64(s, 11, j.nprocs);
  if (j.nprocs && p0.counter_note[0])
    sqlite3_bind_text(s, 12, p0.counter_note, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null(s, 12);
  sqlite3_bind_int64(s, 13, (sqlite3_int64)ts.tv_sec * 1000000000 + ts.tv_nsec);
  mon_pop_row pop;
  mon_db_pop_values(payload, len, &pop);
  if (pop.isnull[0])
    sqlite3_bind_null(s, 14);
  else
    sqlite3_bind_int64(s, 14, pop.ranks);
  for (int i = 0; i < MON_NJOB_POP - 2; i++) {
    if (pop.isnull[1 + i])
      sqlite3_bind_null(s, 15 + i);
    else
      sqlite3_bind_double(s, 15 + i, pop.v[i]);
  }
  if (pop.note[0])
    sqlite3_bind_text(s, 13 + MON_NJOB_POP, pop.note, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null(s, 13 + MON_NJOB_POP);
  if (step_done(s)) return -1;
  if (sqlite3_changes(m->db) == 0) {
    *status = MON_ACK_DUPLICATE;
    return 0;
  }
  int64_t job = sqlite3_last_insert_rowid(m->db);
  s = m->ins_step;
  sqlite3_bind_int64(s, 1, job);
  sqlite3_bind_text(s, 2, j.step, -1, SQLITE_TRANSIENT);
  if (step_done(s)) return -1;
  int64_t step = sqlite3_last_insert_rowid(m->db);
  for (uint64_t i = 0; i < j.nprocs; i++) {
    augp_proc p;
    memcpy(&p, payload + sizeof j + i * sizeof p, sizeof p);
    if (insert_proc(m, step, &p)) return -1;
  }
  *status = MON_ACK_STORED;
  return 0;
}

static int sqlite_insert(mon_db *db, const uint8_t *const *payloads, const uint32_t *lens, int n,
                         int *status, char *why, size_t whyn) {
  sq_db *m = (sq_db *)db;
  if (exec_sql(m->db, "BEGIN IMMEDIATE", why, whyn)) return -1;
  for (int i = 0; i < n; i++) {
    if (insert_job(m, payloads[i], lens[i], &status[i])) {
      snprintf(why, whyn, "sqlite insert: %s", sqlite3_errmsg(m->db));
      char ignore[64];
      exec_sql(m->db, "ROLLBACK", ignore, sizeof ignore);
      mon_cache_clear(&m->cache); /* ids created in the rolled-back transaction are gone */
      return -1;
    }
  }
  if (exec_sql(m->db, "COMMIT", why, whyn)) {
    char ignore[64];
    exec_sql(m->db, "ROLLBACK", ignore, sizeof ignore);
    mon_cache_clear(&m->cache);
    return -1;
  }
  return 0;
}
