/* augur monitoring protocol — the library shared by augurd, `augur profile`,
 * `augur jobs` and the SPANK plugin (augur_mon, src/mon): wire format,
 * job-record validation, MUNGE, the sender with its spool, a job's scratch
 * directory, site configuration files. The store and JSON are the
 * collector's (src/collector/mon_store.h).
 * docs/monitoring.md describes the wire format and the schema. */
#ifndef AUGUR_MON_H
#define AUGUR_MON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "mon_record.h"

/* ---- wire format (mon_wire.c) ----
 * frame = header (16 bytes) | payload (len bytes) | trailer
 * header = "AUGR" | u16 version | u16 type | u32 len | u32 auth
 * all little-endian. auth = 0: the trailer is an HMAC-SHA256 (32 bytes) of
 * header and payload under a shared key. auth > 0: the trailer is a MUNGE
 * credential of auth bytes (base64 text) whose own payload is the SHA-256
 * of header[0..12) and the payload (docs/monitoring.md, "Authentication"). */
#define MON_MAGIC       "AUGR"
#define MON_VERSION     1
#define MON_HDR         16
#define MON_MAC         32
#define MON_CRED_MAX    4096 /* largest MUNGE credential accepted */
#define MON_T_JOB       1    /* payload: augp_job + nprocs augp_proc */
#define MON_T_ACK       2    /* payload: u32 status + 16-byte record uid */
#define MON_ACK_LEN     20
#define MON_MAX_DEFAULT (16u << 20)
/* Bytes after the payload of a frame whose header says AUTH. */
#define MON_TRAILER(auth) ((auth) ? (size_t)(auth) : (size_t)MON_MAC)

enum mon_ack_status {
  MON_ACK_STORED = 0,    /* committed */
  MON_ACK_DUPLICATE = 1, /* this record uid was committed before */
  MON_ACK_REJECTED = 2,  /* invalid record: do not send again */
  MON_ACK_RETRY = 3      /* the store failed (disk full, locked): try later */
};

/* How frames are authenticated: a shared HMAC key, or MUNGE credentials
 * from the local munged (SLURM sites run it), which also name the sender's
 * uid. */
typedef struct mon_key {
  uint8_t bytes[256];
  size_t len;
  int munge;              /* 1: MUNGE credentials, bytes/len unused */
  char munge_socket[256]; /* munged's socket, "" = libmunge's default */
} mon_key;

/* SPEC is a key file (at least 16 bytes, trailing newline ignored, must not
 * be readable by group/others), or "munge" / "munge:SOCKET". 0 or -1 with
 * why (also when augur was built without libmunge). */
int mon_key_load(mon_key *k, const char *spec, char *why, size_t whyn);

/* Builds header | payload | trailer into a malloc'd buffer. With MUNGE
 * each call makes a new credential (munged refuses a replayed one). 0, or
 * -1 with why. */
int mon_frame_build(const mon_key *k, uint16_t type, const void *payload, uint32_t len,
                    uint8_t **out, size_t *outlen, char *why, size_t whyn);
/* Checks a header: magic, version, known type, len <= max, auth <=
 * MON_CRED_MAX. */
int mon_header_check(const uint8_t *hdr, uint32_t max, uint16_t *type, uint32_t *len,
                     uint32_t *auth, char *why, size_t whyn);
/* Authenticates a whole contiguous frame (header, LEN payload bytes, AUTH
 * trailer) under K: the HMAC in constant time, or the MUNGE credential.
 * *uid gets the credential's uid, or -1 under HMAC (no uid known).
 * 0, or -1 with why ("unauthenticated: ..."). */
int mon_auth_check(const mon_key *k, const uint8_t *frame, uint32_t len, uint32_t auth,
                   int64_t *uid, char *why, size_t whyn);
/* Validates a job payload: sizes, strings terminated, plausible values. */
int mon_job_validate(const uint8_t *payload, uint32_t len, char *why, size_t whyn);
/* The checks of one process record (number I, for the message) within
 * mon_job_validate. 0, or -1 with why. */
int mon_proc_validate(const augp_proc *p, uint64_t i, char *why, size_t whyn);
/* Whole-frame parse of a buffer (the fuzz target's entry): 0 valid job or
 * ack, -1 with why. */
int mon_frame_parse(const mon_key *k, const uint8_t *buf, size_t n, uint32_t max, char *why,
                    size_t whyn);

void mon_uid_hex(const uint8_t uid[16], char out[33]);
int mon_random(void *buf, size_t n);

/* ---- MUNGE (mon_munge.c; stubs that fail when built without libmunge) ---- */
/* A credential carrying DIGEST (32 bytes): malloc'd text, its length. */
int mon_munge_encode(const char *socket, const uint8_t digest[32], char **cred, size_t *credlen,
                     char *why, size_t whyn);
/* Decodes CRED (CREDLEN bytes, not NUL-terminated): its 32-byte payload and
 * the uid that made it. 0, or -1 with why. */
int mon_munge_decode(const char *socket, const char *cred, size_t credlen, uint8_t digest[32],
                     int64_t *uid, char *why, size_t whyn);
int mon_munge_available(void);

/* ---- sender and spool (mon_client.c) ---- */
typedef struct mon_sender {
  char collectors[1024]; /* host:port[,host:port...] */
  mon_key key;
  char spool[4096]; /* directory */
  int deadline_ms;  /* whole send, all retries (default 10000) */
  /* Told about each spool file set aside (which, why); NULL: stderr. */
  void (*note)(const char *msg);
} mon_sender;

/* The spool (docs/monitoring.md, "The spool"): a directory that must be the
 * caller's own (effective uid), not a link, with no access for group or
 * others; created mode 0700 when absent, refused otherwise, and then used
 * only through its fd (openat, O_NOFOLLOW, O_EXCL). Each record is a frame
 * HMAC-signed when spooled with the spool's own key (MON_SPOOL_KEY, 32
 * random bytes, mode 0600, made with the first record): a drain sends only
 * regular files of the caller whose signature is right, and sets anything
 * else aside as NAME.rejected with a note. */
#define MON_SPOOL_KEY ".key"

/* Sends one job payload; on failure stores it in the spool. Returns 0 sent
 * (stored or duplicate), 1 spooled, 2 invalid or rejected by the collector:
 * spooled as UID.rec.rejected for inspection, not to be sent again, -1 lost
 * (why says). */
int mon_send_or_spool(const mon_sender *s, const uint8_t *payload, uint32_t len, char *why,
                      size_t whyn);
/* Sends spooled records until the spool is empty or the deadline passes;
 * *sent and *left get the counts. 0 (also when the spool does not exist),
 * or -1 if the spool is unusable (why says: a link, another owner, open
 * to others, unreadable). */
int mon_spool_drain(const mon_sender *s, int *sent, int *left, char *why, size_t whyn);

/* ---- a job's scratch directory (mon_collect.c) ---- */
/* At most this many bytes of records are read from one job's scratch
 * directory, per file and in total: 4 x augurd's default max_record, i.e.
 * 31,400 processes (docs/monitoring.md, "Limits"). */
#define MON_COLLECT_MAX ((uint64_t)MON_MAX_DEFAULT * 4)
/* Reads the .rec files of DIR owned by UID (regular files, links not
 * followed: the directory may belong to the job's user and be read by root)
 * into *procs (malloc'd), MPI ranks first in rank order, then the other
 * processes by start. DIR itself must be UID's. Files that do not fit in
 * MON_COLLECT_MAX are skipped whole; a process that ends before it starts
 * (a clock step) is kept with AUGP_PF_BADTIME and end = start. 0 (why then
 * holds a note of what was skipped, or is empty), or -1 with why. */
int mon_records_collect(const char *dir, uid_t uid, augp_proc **procs, uint64_t *n, char *why,
                        size_t whyn);
/* Removes DIR and the files in it (no recursion, links not followed). */
void mon_dir_remove(const char *dir);

/* ---- POP efficiencies of a job (mon_pop.c, docs/monitoring.md) ---- */
typedef struct mon_pop {
  uint32_t ranks; /* MPI ranks counted; 0: no figures (note says why) */
  int64_t useful_max_rank;
  double run_ns;                       /* T: the longest rank window */
  double useful_avg_ns, useful_max_ns; /* useful: window less MPI time */
  double lb, comm, pe;                 /* LB, CommE, PE; -1 when ranks == 0 */
  double omp_pe;                       /* OpenMP parallel efficiency; -1: not measured */
  int trusted;                         /* 0: note says why (or why there are no figures) */
  char note[512];
} mon_pop;
/* The POP MPI efficiencies of a validated job payload (augp_job + its
 * processes): per MPI rank, window = its life less MPI_Init/Finalize,
 * useful = its life less its initial thread's MPI time; LB = avg useful /
 * max useful, CommE = max useful / max window, PE = LB x CommE
 * (augur/efficiency.h). */
void mon_job_pop(const uint8_t *payload, uint32_t len, mon_pop *out);
/* Flags a job below THRESHOLD (a fraction): the factor that limits it (the
 * smallest of LB, CommE and, when >= 0, OMP_PE: "load balance",
 * "communication", "OpenMP"), or NULL when PE < 0 (unknown) or PE >=
 * THRESHOLD. */
const char *mon_pop_limiter(double pe, double lb, double comm, double omp_pe, double threshold);
/* The flag threshold as a percentage ("60", "60%", 0..100) into a fraction.
 * 0, or -1 when TEXT is not one. */
int mon_pop_threshold(const char *text, double *out);
#define MON_PE_THRESHOLD_ENV     "AUGUR_PE_THRESHOLD"
#define MON_PE_THRESHOLD_DEFAULT 0.60

/* ---- site configuration files (mon_conf.c) ---- */
/* One setting of a configuration file; WHERE is "PATH:LINE" for messages.
 * Nonzero stops the reading. */
typedef int (*mon_conf_fn)(void *ctx, const char *name, const char *value, const char *where);
/* Calls FN for each `name = value` line of F (PATH names it in messages;
 * '#' starts a comment). Returns 0, FN's first nonzero return, or -1 with
 * why for a line that is not a setting. */
int mon_conf_read(FILE *f, const char *path, mon_conf_fn fn, void *ctx, char *why, size_t whyn);

#endif
