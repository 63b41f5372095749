/* augur monitoring store — the collector's library (augur_monitor,
 * src/collector): the job database (SQLite, or PostgreSQL when built with
 * libpq) and the job record as JSON, on top of the protocol (src/mon/mon.h).
 * docs/monitoring.md describes the schema. */
#ifndef AUGUR_MON_STORE_H
#define AUGUR_MON_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "mon.h"

/* ---- store (mon_db.c: SQLite, mon_db_pg.c: PostgreSQL) ---- */
typedef struct mon_db mon_db; /* opaque; either backend */
/* 1 if path names a PostgreSQL database: a libpq URI (postgresql://...,
 * postgres://...) or a conninfo string (holds '=', does not start with '/'
 * or '.'); else it is a SQLite file. */
int mon_db_is_postgres(const char *path);
/* path without its password, for logs: "user:secret@" -> "user@",
 * "password=secret" -> "password=***". */
void mon_db_redact(const char *path, char *out, size_t n);
/* Opens (and creates the schema if absent) the SQLite file or PostgreSQL
 * database path names. 0, or -1 with why (a PostgreSQL path in a build
 * without libpq says so). */
int mon_db_open(mon_db **db, const char *path, char *why, size_t whyn);
void mon_db_close(mon_db *db);
/* Inserts a batch of validated job payloads in one transaction; status[i]
 * gets MON_ACK_STORED or MON_ACK_DUPLICATE. Returns 0, or -1 if the
 * transaction failed (nothing stored; why says; PostgreSQL: also when the
 * server is gone — the next call reconnects). */
int mon_db_insert(mon_db *db, const uint8_t *const *payloads, const uint32_t *lens, int n,
                  int *status, char *why, size_t whyn);

/* ---- JSON (mon_json.c) ---- */
/* The job record as JSON text (malloc'd), as documented. */
char *mon_job_json(const uint8_t *payload, uint32_t len);

#endif
