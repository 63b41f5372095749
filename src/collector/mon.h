/* augur monitoring — the library shared by augurd, `augur profile` and
 * `augur jobs` (libaugur_monitor, static): wire format, job-record
 * validation, the sender with its spool, the SQLite store, JSON.
 * docs/monitoring.md describes the wire format and the schema. */
#ifndef AUGUR_MON_H
#define AUGUR_MON_H

#include <stddef.h>
#include <stdint.h>

#include "mon_record.h"

/* ---- wire format (mon_wire.c) ----
 * frame = header (16 bytes) | payload (len bytes) | HMAC-SHA256 (32 bytes)
 * header = "AUGR" | u16 version | u16 type | u32 len | u32 reserved (0)
 * all little-endian; the MAC covers header and payload. */
#define MON_MAGIC       "AUGR"
#define MON_VERSION     1
#define MON_HDR         16
#define MON_MAC         32
#define MON_T_JOB       1 /* payload: augp_job + nprocs augp_proc */
#define MON_T_ACK       2 /* payload: u32 status + 16-byte record uid */
#define MON_ACK_LEN     20
#define MON_MAX_DEFAULT (16u << 20)

enum mon_ack_status {
  MON_ACK_STORED = 0,    /* committed */
  MON_ACK_DUPLICATE = 1, /* this record uid was committed before */
  MON_ACK_REJECTED = 2,  /* invalid record: do not send again */
  MON_ACK_RETRY = 3      /* the store failed (disk full, locked): try later */
};

typedef struct mon_key {
  uint8_t bytes[256];
  size_t len;
} mon_key;

/* Reads a shared key file (at least 16 bytes, trailing newline ignored,
 * must not be readable by group/others). 0 or -1 with why. */
int mon_key_load(mon_key *k, const char *path, char *why, size_t whyn);

/* Builds header | payload | MAC into a malloc'd buffer. */
int mon_frame_build(const mon_key *k, uint16_t type, const void *payload, uint32_t len,
                    uint8_t **out, size_t *outlen);
/* Checks a header: magic, version, known type, len <= max. */
int mon_header_check(const uint8_t *hdr, uint32_t max, uint16_t *type, uint32_t *len, char *why,
                     size_t whyn);
/* Constant-time check of the MAC over frame[0 .. MON_HDR + len), which
 * must be contiguous; the MAC follows at frame + MON_HDR + len. */
int mon_mac_check(const mon_key *k, const uint8_t *frame, uint32_t len);
/* Validates a job payload: sizes, strings terminated, plausible values. */
int mon_job_validate(const uint8_t *payload, uint32_t len, char *why, size_t whyn);
/* Whole-frame parse of a buffer (the fuzz target's entry): 0 valid job or
 * ack, -1 with why. */
int mon_frame_parse(const mon_key *k, const uint8_t *buf, size_t n, uint32_t max, char *why,
                    size_t whyn);

void mon_uid_hex(const uint8_t uid[16], char out[33]);
int mon_random(void *buf, size_t n);

/* ---- sender and spool (mon_client.c) ---- */
typedef struct mon_sender {
  char collectors[1024]; /* host:port[,host:port...] */
  mon_key key;
  char spool[4096]; /* directory */
  int deadline_ms;  /* whole send, all retries (default 10000) */
} mon_sender;

/* Sends one job payload; on failure stores it in the spool. Returns 0 sent
 * (stored or duplicate), 1 spooled, -1 neither (why says). */
int mon_send_or_spool(const mon_sender *s, const uint8_t *payload, uint32_t len, char *why,
                      size_t whyn);
/* Sends spooled records until the spool is empty or the deadline passes;
 * *sent and *left get the counts. 0, or -1 if the spool is unreadable. */
int mon_spool_drain(const mon_sender *s, int *sent, int *left, char *why, size_t whyn);

/* ---- store (mon_db.c) ---- */
typedef struct mon_db mon_db;
int mon_db_open(mon_db **db, const char *path, char *why, size_t whyn);
void mon_db_close(mon_db *db);
/* Inserts a batch of validated job payloads in one transaction; status[i]
 * gets MON_ACK_STORED or MON_ACK_DUPLICATE. Returns 0, or -1 if the
 * transaction failed (nothing stored; why says). */
int mon_db_insert(mon_db *db, const uint8_t *const *payloads, const uint32_t *lens, int n,
                  int *status, char *why, size_t whyn);

/* ---- JSON (mon_json.c) ---- */
/* The job record as JSON text (malloc'd), as documented. */
char *mon_job_json(const uint8_t *payload, uint32_t len);

#endif
