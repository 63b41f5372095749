/* augur monitoring — the SQLite store (schema in docs/monitoring.md).
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

#include "mon.h"

#define CACHE_SLOTS 8192 /* power of two; cleared when half full */

typedef struct cache_ent {
  char *key;
  int64_t id;
} cache_ent;

struct mon_db {
  sqlite3 *db;
  sqlite3_stmt *ins_job, *ins_step, *ins_proc, *ins_thread;
  sqlite3_stmt *sel_meta[4], *ins_meta[4];
  cache_ent cache[CACHE_SLOTS];
  int ncache;
};

enum { META_CLUSTER, META_USER, META_PROGRAM, META_NODE };
static const char *const meta_table[4] = {"cluster", "user", "program", "node"};

static const char *const schema =
    "PRAGMA journal_mode=WAL;"
    "CREATE TABLE IF NOT EXISTS cluster(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);"
    "CREATE TABLE IF NOT EXISTS user(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);"
    "CREATE TABLE IF NOT EXISTS program(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);"
    "CREATE TABLE IF NOT EXISTS node(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);"
    "CREATE TABLE IF NOT EXISTS job(id INTEGER PRIMARY KEY, record_uid TEXT UNIQUE NOT NULL,"
    " cluster_id INTEGER NOT NULL REFERENCES cluster(id), job_name TEXT NOT NULL,"
    " user_id INTEGER REFERENCES user(id), uid INTEGER, command TEXT, level INTEGER,"
    " start_ns INTEGER, end_ns INTEGER, exit_status INTEGER, nprocs INTEGER,"
    " counter_note TEXT, received_ns INTEGER);"
    "CREATE INDEX IF NOT EXISTS job_by_name ON job(cluster_id, job_name);"
    "CREATE TABLE IF NOT EXISTS step(id INTEGER PRIMARY KEY,"
    " job_id INTEGER NOT NULL REFERENCES job(id), name TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS step_by_job ON step(job_id);"
    "CREATE TABLE IF NOT EXISTS metric(name TEXT PRIMARY KEY, scope TEXT NOT NULL,"
    " unit TEXT NOT NULL, aggregations TEXT NOT NULL, preferred TEXT NOT NULL,"
    " derived TEXT, description TEXT NOT NULL);";

/* Process columns after the identity ones; counters are NULL when the
 * slot was not measured. */
static const char *const proc_cols[] = {
    "pid",      "ppid",     "rank",      "nranks",   "flags",         "start_ns",        "end_ns",
    "utime_us", "stime_us", "maxrss_kb", "minflt",   "majflt",        "nvcsw",           "nivcsw",
    "inblock",  "oublock",  "ctr_mask",  "nthreads", "io_bytes_read", "io_bytes_written"};
#define NPROC_COLS (sizeof proc_cols / sizeof proc_cols[0])

static int exec_sql(sqlite3 *db, const char *sql, char *why, size_t whyn) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
    snprintf(why, whyn, "sqlite: %s", err ? err : "error");
    sqlite3_free(err);
    return -1;
  }
  return 0;
}

static size_t cat(char *b, size_t n, size_t at, const char *fmt, const char *a) {
  int w = snprintf(b + at, at < n ? n - at : 0, fmt, a);
  return at + (w > 0 ? (size_t)w : 0);
}

/* CREATE TABLE process / thread and their INSERTs, from the column lists. */
static void build_sql(char *create_p, char *insert_p, char *create_t, char *insert_t, size_t n) {
  size_t a = 0, b = 0, c = 0, d = 0;
  a = cat(create_p, n, a, "%s",
          "CREATE TABLE IF NOT EXISTS process(id INTEGER PRIMARY KEY,"
          " step_id INTEGER NOT NULL REFERENCES step(id),"
          " node_id INTEGER REFERENCES node(id),"
          " program_id INTEGER REFERENCES program(id), counter_note TEXT");
  b = cat(insert_p, n, b, "%s", "INSERT INTO process(step_id,node_id,program_id,counter_note");
  int nparams = 4;
  for (size_t i = 0; i < NPROC_COLS; i++) {
    a = cat(create_p, n, a, ", %s INTEGER", proc_cols[i]);
    b = cat(insert_p, n, b, ",%s", proc_cols[i]);
    nparams++;
  }
  c = cat(create_t, n, c, "%s",
          "CREATE TABLE IF NOT EXISTS thread(id INTEGER PRIMARY KEY,"
          " process_id INTEGER NOT NULL REFERENCES process(id),"
          " slot INTEGER, tid INTEGER, start_ns INTEGER, end_ns INTEGER,"
          " cpu_ns INTEGER, mpi_ns INTEGER, io_ns INTEGER,"
          " nfolded INTEGER, flags INTEGER");
  d = cat(insert_t, n, d, "%s",
          "INSERT INTO thread(process_id,slot,tid,start_ns,end_ns,cpu_ns,mpi_ns,io_ns,nfolded,"
          "flags");
  for (int i = 0; i < AUGP_CTR_RESERVED; i++) {
    a = cat(create_p, n, a, ", %s INTEGER", augp_ctr_names[i]);
    b = cat(insert_p, n, b, ",%s", augp_ctr_names[i]);
    c = cat(create_t, n, c, ", %s INTEGER", augp_ctr_names[i]);
    d = cat(insert_t, n, d, ",%s", augp_ctr_names[i]);
    nparams++;
  }
  for (int i = 0; i < AUGP_NMPI; i++) {
    char col[64];
    snprintf(col, sizeof col, "mpi_%s_ns INTEGER, mpi_%s_calls", augp_mpi_names[i],
             augp_mpi_names[i]);
    a = cat(create_p, n, a, ", %s INTEGER", col);
    snprintf(col, sizeof col, "mpi_%s_ns,mpi_%s_calls", augp_mpi_names[i], augp_mpi_names[i]);
    b = cat(insert_p, n, b, ",%s", col);
    nparams += 2;
  }
  for (int i = 0; i < AUGP_NIO; i++) {
    char col[64];
    snprintf(col, sizeof col, "io_%s_ns INTEGER, io_%s_calls", augp_io_names[i], augp_io_names[i]);
    a = cat(create_p, n, a, ", %s INTEGER", col);
    snprintf(col, sizeof col, "io_%s_ns,io_%s_calls", augp_io_names[i], augp_io_names[i]);
    b = cat(insert_p, n, b, ",%s", col);
    nparams += 2;
  }
  a = cat(create_p, n, a, "%s", ");");
  b = cat(insert_p, n, b, "%s", ") VALUES(?");
  for (int i = 1; i < nparams; i++)
    b = cat(insert_p, n, b, "%s", ",?");
  cat(insert_p, n, b, "%s", ")");
  c = cat(create_t, n, c, "%s", ");");
  d = cat(insert_t, n, d, "%s", ") VALUES(?,?,?,?,?,?,?,?,?,?");
  for (int i = 0; i < AUGP_CTR_RESERVED; i++)
    d = cat(insert_t, n, d, "%s", ",?");
  cat(insert_t, n, d, "%s", ")");
}

/* Metric metadata and the derived metrics (also in docs/monitoring.md). */
static const char *const metrics_sql =
    "INSERT OR REPLACE INTO metric VALUES"
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
    " 'L2 misses per 1000 instructions');"
    "CREATE VIEW IF NOT EXISTS process_derived AS SELECT p.*,"
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
    " s.job_id AS job_pk, s.name AS step, n.name AS node, g.name AS program"
    " FROM process p JOIN step s ON s.id=p.step_id LEFT JOIN node n ON n.id=p.node_id"
    " LEFT JOIN program g ON g.id=p.program_id;";

static int prep(sqlite3 *db, const char *sql, sqlite3_stmt **st, char *why, size_t whyn) {
  if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK) {
    snprintf(why, whyn, "sqlite prepare: %s", sqlite3_errmsg(db));
    return -1;
  }
  return 0;
}

int mon_db_open(mon_db **out, const char *path, char *why, size_t whyn) {
  *out = NULL;
  mon_db *m = calloc(1, sizeof *m);
  if (!m) {
    snprintf(why, whyn, "out of memory");
    return -1;
  }
  if (sqlite3_open_v2(path, &m->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
      SQLITE_OK) {
    snprintf(why, whyn, "cannot open database %s: %s", path,
             m->db ? sqlite3_errmsg(m->db) : "out of memory");
    mon_db_close(m);
    return -1;
  }
  sqlite3_busy_timeout(m->db, 5000);
  static char cp[8192], ip[8192], ct[8192], it[8192];
  build_sql(cp, ip, ct, it, sizeof cp);
  int rc = exec_sql(m->db, schema, why, whyn) || exec_sql(m->db, cp, why, whyn) ||
           exec_sql(m->db, ct, why, whyn) ||
           exec_sql(m->db,
                    "CREATE INDEX IF NOT EXISTS process_by_step ON process(step_id);"
                    "CREATE INDEX IF NOT EXISTS thread_by_process ON thread(process_id);"
                    "PRAGMA synchronous=FULL;",
                    why, whyn) ||
           exec_sql(m->db, "BEGIN", why, whyn) || exec_sql(m->db, metrics_sql, why, whyn) ||
           exec_sql(m->db, "COMMIT", why, whyn);
  if (!rc)
    rc = prep(m->db,
              "INSERT OR IGNORE INTO job(record_uid,cluster_id,job_name,user_id,uid,command,"
              "level,start_ns,end_ns,exit_status,nprocs,counter_note,received_ns)"
              " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
              &m->ins_job, why, whyn) ||
         prep(m->db, "INSERT INTO step(job_id,name) VALUES(?,?)", &m->ins_step, why, whyn) ||
         prep(m->db, ip, &m->ins_proc, why, whyn) || prep(m->db, it, &m->ins_thread, why, whyn);
  for (int i = 0; i < 4 && !rc; i++) {
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT id FROM %s WHERE name=?", meta_table[i]);
    rc = prep(m->db, sql, &m->sel_meta[i], why, whyn);
    snprintf(sql, sizeof sql, "INSERT INTO %s(name) VALUES(?)", meta_table[i]);
    if (!rc) rc = prep(m->db, sql, &m->ins_meta[i], why, whyn);
  }
  if (rc) {
    mon_db_close(m);
    return -1;
  }
  *out = m;
  return 0;
}

static void cache_clear(mon_db *m) {
  for (int i = 0; i < CACHE_SLOTS; i++) {
    free(m->cache[i].key);
    m->cache[i].key = NULL;
  }
  m->ncache = 0;
}

void mon_db_close(mon_db *m) {
  if (!m) return;
  sqlite3_stmt *all[] = {m->ins_job,     m->ins_step,    m->ins_proc,    m->ins_thread,
                         m->sel_meta[0], m->sel_meta[1], m->sel_meta[2], m->sel_meta[3],
                         m->ins_meta[0], m->ins_meta[1], m->ins_meta[2], m->ins_meta[3]};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    sqlite3_finalize(all[i]);
  sqlite3_close(m->db);
  cache_clear(m);
  free(m);
}

static uint64_t hash(const char *s) {
  uint64_t h = 1469598103934665603u;
  for (; *s; s++)
    h = (h ^ (uint8_t)*s) * 1099511628211u;
  return h;
}

/* Id of name in a metadata table: cache, else SELECT, else INSERT. */
static int64_t meta_id(mon_db *m, int table, const char *name) {
  char key[300];
  snprintf(key, sizeof key, "%d:%s", table, name);
  uint64_t h = hash(key);
  for (uint64_t i = h & (CACHE_SLOTS - 1);; i = (i + 1) & (CACHE_SLOTS - 1)) {
    if (!m->cache[i].key) break;
    if (!strcmp(m->cache[i].key, key)) return m->cache[i].id;
  }
  int64_t id = -1;
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
  if (id < 0) return -1;
  if (m->ncache >= CACHE_SLOTS / 2) cache_clear(m); /* bounded memory */
  char *k = strdup(key);
  if (!k) return id;
  for (uint64_t i = h & (CACHE_SLOTS - 1);; i = (i + 1) & (CACHE_SLOTS - 1))
    if (!m->cache[i].key) {
      m->cache[i].key = k;
      m->cache[i].id = id;
      m->ncache++;
      break;
    }
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

static int insert_proc(mon_db *m, int64_t step, const augp_proc *p) {
  sqlite3_stmt *s = m->ins_proc;
  int k = 1;
  char node[80];
  snprintf(node, sizeof node, "%s", p->host);
  sqlite3_bind_int64(s, k++, step);
  sqlite3_bind_int64(s, k++, meta_id(m, META_NODE, node));
  sqlite3_bind_int64(s, k++, meta_id(m, META_PROGRAM, p->program[0] ? p->program : "?"));
  if (p->counter_note[0])
    sqlite3_bind_text(s, k++, p->counter_note, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null(s, k++);
  const uint64_t v[] = {p->pid,      p->ppid,      (uint64_t)p->rank, (uint64_t)p->nranks,
                        p->flags,    p->start_ns,  p->end_ns,         p->utime_us,
                        p->stime_us, p->maxrss_kb, p->minflt,         p->majflt,
                        p->nvcsw,    p->nivcsw,    p->inblock,        p->oublock,
                        p->ctr_mask, p->nthreads,  p->io_bytes_read,  p->io_bytes_written};
  _Static_assert(sizeof v / sizeof v[0] == NPROC_COLS, "process columns");
  for (size_t i = 0; i < NPROC_COLS; i++)
    bind_u64(s, k++, v[i]);
  for (int c = 0; c < AUGP_CTR_RESERVED; c++) {
    if (p->ctr_mask & (1u << c))
      bind_u64(s, k++, p->ctr[c]);
    else
      sqlite3_bind_null(s, k++);
  }
  for (int c = 0; c < AUGP_NMPI; c++) {
    bind_u64(s, k++, p->mpi_ns[c]);
    bind_u64(s, k++, p->mpi_calls[c]);
  }
  for (int c = 0; c < AUGP_NIO; c++) {
    bind_u64(s, k++, p->io_ns[c]);
    bind_u64(s, k++, p->io_calls[c]);
  }
  if (step_done(s)) return -1;
  int64_t pid = sqlite3_last_insert_rowid(m->db);
  uint64_t nt = p->nthreads < AUGP_MAX_THREADS ? p->nthreads : AUGP_MAX_THREADS;
  for (uint64_t t = 0; t < nt; t++) {
    const augp_thread *th = &p->threads[t];
    s = m->ins_thread;
    k = 1;
    sqlite3_bind_int64(s, k++, pid);
    bind_u64(s, k++, t);
    const uint64_t tv[] = {th->tid,    th->start_ns, th->end_ns,  th->cpu_ns,
                           th->mpi_ns, th->io_ns,    th->nfolded, th->flags};
    for (size_t i = 0; i < 8; i++)
      bind_u64(s, k++, tv[i]);
    for (int c = 0; c < AUGP_CTR_RESERVED; c++) {
      if (p->ctr_mask & (1u << c))
        bind_u64(s, k++, th->ctr[c]);
      else
        sqlite3_bind_null(s, k++);
    }
    if (step_done(s)) return -1;
  }
  return 0;
}

/* One job; *status = STORED or DUPLICATE. */
static int insert_job(mon_db *m, const uint8_t *payload, int *status) {
  augp_job j;
  memcpy(&j, payload, sizeof j);
  char hex[33];
  mon_uid_hex(j.uid, hex);
  int64_t cluster = meta_id(m, META_CLUSTER, j.cluster);
  int64_t user = meta_id(m, META_USER, j.user[0] ? j.user : "?");
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

int mon_db_insert(mon_db *m, const uint8_t *const *payloads, const uint32_t *lens, int n,
                  int *status, char *why, size_t whyn) {
  (void)lens;
  if (exec_sql(m->db, "BEGIN IMMEDIATE", why, whyn)) return -1;
  for (int i = 0; i < n; i++) {
    if (insert_job(m, payloads[i], &status[i])) {
      snprintf(why, whyn, "sqlite insert: %s", sqlite3_errmsg(m->db));
      char ignore[64];
      exec_sql(m->db, "ROLLBACK", ignore, sizeof ignore);
      cache_clear(m); /* ids created in the rolled-back transaction are gone */
      return -1;
    }
  }
  if (exec_sql(m->db, "COMMIT", why, whyn)) {
    char ignore[64];
    exec_sql(m->db, "ROLLBACK", ignore, sizeof ignore);
    cache_clear(m);
    return -1;
  }
  return 0;
}
