/* augur monitoring — what the two stores share (internal to mon_db*.c;
 * mon_query.c also connects to PostgreSQL through it).
 *
 * mon_db is an opaque handle whose first member is its backend's table of
 * operations: mon_db.c holds the SQLite store and the dispatch, mon_db_pg.c
 * the PostgreSQL one. Both create the same tables from the same template,
 * store the same columns from the same value lists, and cache metadata ids
 * the same way; only the SQL dialect and the client library differ. */
#ifndef AUGUR_MON_DB_INT_H
#define AUGUR_MON_DB_INT_H

#include <stddef.h>
#include <stdint.h>

#include "mon_store.h"

typedef struct mon_db_ops {
  int (*insert)(mon_db *db, const uint8_t *const *payloads, const uint32_t *lens, int n,
                int *status, char *why, size_t whyn);
  void (*close)(mon_db *db);
} mon_db_ops;

struct mon_db {
  const mon_db_ops *ops;
};

/* The PostgreSQL store (mon_db_pg.c); conninfo is a libpq URI or a
 * "key=value ..." string. */
int mon_db_pg_open(mon_db **out, const char *conninfo, char *why, size_t whyn);

#ifdef AUGUR_HAVE_PQ
#include <libpq-fe.h>
/* A connection to conninfo with augur's settings (timeout, keepalives,
 * UTF8, application_name app); check PQstatus. Also mon_query.c's. */
PGconn *mon_pg_connect(const char *conninfo, const char *app);
/* libpq's messages span lines ("...\n\tIs the server running"): made one
 * line with single spaces, in place. */
void mon_pg_one_line(char *s);
#endif

/* ---- metadata tables and their id cache ---- */
enum { MON_META_CLUSTER, MON_META_USER, MON_META_PROGRAM, MON_META_NODE, MON_META_N };
/* Table names as SQL identifiers: "user" is quoted, it is reserved in
 * PostgreSQL (quoting is harmless in SQLite and names the same table). */
extern const char *const mon_meta_table[MON_META_N];

#define MON_CACHE_SLOTS 8192 /* power of two; cleared when half full */
typedef struct mon_cache {
  struct {
    char *key;
    int64_t id;
  } slot[MON_CACHE_SLOTS];
  int n;
} mon_cache;
/* The cached id of name in table, or -1. */
int64_t mon_cache_get(const mon_cache *c, int table, const char *name);
void mon_cache_put(mon_cache *c, int table, const char *name, int64_t id);
/* After a rollback: ids created in the lost transaction are gone. */
void mon_cache_clear(mon_cache *c);

/* ---- schema ---- */
/* The schema, with the dialect's words for: @ID@ the row id column
 * declaration, @INT@ a 64-bit integer, @VIEW@ "CREATE VIEW IF NOT EXISTS"
 * or "CREATE OR REPLACE VIEW", @METRIC@ the start of an insert-or-replace
 * into metric, @METRIC_END@ its end; @REF:table@ is " REFERENCES table(id)"
 * on a per-row table (process, thread) when row_refs is set. Tables:
 * cluster, user, program, node, job, step, process, thread, metric; view
 * process_derived. */
typedef struct mon_dialect {
  const char *id, *int64, *view, *metric, *metric_end;
  int row_refs;
  const char *real; /* @REAL@: a double */
} mon_dialect;
/* The schema script for a dialect (malloc'd), or NULL (out of memory). */
char *mon_db_schema_sql(const mon_dialect *d);

/* Schema versions: 1 the first (no version recorded: SQLite user_version
 * 0), 2 adds the job's POP efficiency columns (mon_job_pop_cols) and the
 * job_* columns of process_derived. A database of an older version is
 * migrated when augurd opens it (docs/monitoring.md, "Schema versions"). */
#define MON_SCHEMA_VERSION 2
#define MON_NJOB_POP       9
/* Name and type (a dialect word) of each efficiency column of job:
 * pop_ranks, pop_run_ns, pop_useful_avg_ns, pop_useful_max_ns, pop_lb,
 * pop_comm, pop_pe, pop_omp_pe, pop_note. */
extern const char *const mon_job_pop_cols[MON_NJOB_POP][2];
/* "ALTER TABLE job ADD COLUMN <column i> <type>" for the dialect (IF NOT
 * EXISTS: PostgreSQL) into out. */
void mon_db_add_column_sql(const mon_dialect *d, int i, int if_not_exists, char *out, size_t n);
/* The process_derived view for the dialect (malloc'd; NULL: out of
 * memory), to re-create it after a migration. */
char *mon_db_view_sql(const mon_dialect *d);
/* The values of those columns for one job payload: pop_ranks, then the
 * seven reals (v, isnull[1..7]), then the note ("" = none: NULL). */
typedef struct mon_pop_row {
  uint32_t ranks;
  double v[MON_NJOB_POP - 2];
  unsigned char isnull[MON_NJOB_POP - 1];
  char note[512];
} mon_pop_row;
void mon_db_pop_values(const uint8_t *payload, uint32_t len, mon_pop_row *r);

/* Column lists after the identity columns: process rows start with
 * (step_id, node_id, program_id, counter_note), then the process list;
 * thread rows start with process_id, then the thread list. Writes
 * "a,b,c" (no spaces) into out. */
#define MON_NPROC_VALUES   (20 + AUGP_CTR_RESERVED + 2 * AUGP_NMPI + 2 * AUGP_NIO)
#define MON_NTHREAD_VALUES (9 + AUGP_CTR_RESERVED)
void mon_db_columns(int thread, char *out, size_t n);
/* The values of those columns for one process / thread slot, in order;
 * isnull[i] marks a counter that was not measured. Unsigned values are
 * stored as their 64-bit two's complement (as SQLite does). */
void mon_db_proc_values(const augp_proc *p, int64_t *v, unsigned char *isnull);
void mon_db_thread_values(const augp_proc *p, int slot, int64_t *v, unsigned char *isnull);

#endif
