/* augur monitoring — wire format, authentication and validation of job
 * records. Everything here treats its input as hostile: a sender may be
 * buggy, old, or not augur at all. HMAC-SHA256 from OpenSSL's libcrypto. */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mon.h"

const char *const augp_ctr_names[AUGP_NCTR] = {
    "task_clock", "cycles", "instructions", "fp_ops",   "loads",         "stores",
    "l1_dcm",     "l2_dcm", "tlb_dm",       "branches", "branch_misses", "reserved"};
const char *const augp_mpi_names[AUGP_NMPI] = {"p2p", "wait", "coll", "init_fini", "other"};
const char *const augp_io_names[AUGP_NIO] = {"read", "write", "meta", "sync"};

static void put16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static uint16_t get16(const uint8_t *p) {
  return (uint16_t)(p[0] | (p[1] << 8));
}
static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The records are the in-memory structs; only a little-endian host can
 * produce or read them as they are. */
static int little_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 1;
}

int mon_key_load(mon_key *k, const char *path, char *why, size_t whyn) {
  memset(k, 0, sizeof *k);
  if (!strcmp(path, "munge") || !strncmp(path, "munge:", 6)) {
    if (!mon_munge_available()) {
      snprintf(why, whyn,
               "key '%s': augur was built without MUNGE support (install libmunge-dev, rebuild)",
               path);
      return -1;
    }
    k->munge = 1;
    if (path[5] == ':' && snprintf(k->munge_socket, sizeof k->munge_socket, "%s", path + 6) >=
                              (int)sizeof k->munge_socket) {
      snprintf(why, whyn, "munge socket path too long: %s", path + 6);
      return -1;
    }
    return 0;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, whyn, "cannot open key file %s: %s", path, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    snprintf(why, whyn, "key file %s is not a regular file", path);
    return -1;
  }
  if (st.st_mode & 077) {
    close(fd);
    snprintf(why, whyn, "key file %s is readable by others (mode %03o): chmod 600 it", path,
             (unsigned)(st.st_mode & 0777));
    return -1;
  }
  ssize_t n = read(fd, k->bytes, sizeof k->bytes);
  close(fd);
  if (n < 0) {
    snprintf(why, whyn, "cannot read key file %s: %s", path, strerror(errno));
    return -1;
  }
  while (n > 0 && (k->bytes[n - 1] == '\n' || k->bytes[n - 1] == '\r'))
    n--;
  if (n < 16) {
    snprintf(why, whyn, "key file %s holds %zd bytes, want at least 16", path, n);
    return -1;
  }
  k->len = (size_t)n;
  return 0;
}

static void mac_of(const mon_key *k, const uint8_t *buf, size_t n, uint8_t out[MON_MAC]) {
  unsigned int outlen = MON_MAC;
  HMAC(EVP_sha256(), k->bytes, (int)k->len, buf, n, out, &outlen);
}

/* What a MUNGE credential carries: SHA-256 of the header up to its auth
 * field (which holds the credential's own length) and the payload. */
static void digest_of(const uint8_t *hdr, const void *payload, uint32_t len, uint8_t out[32]) {
  EVP_MD_CTX *c = EVP_MD_CTX_new();
  unsigned int n = 32;
  if (!c || !EVP_DigestInit_ex(c, EVP_sha256(), NULL) || !EVP_DigestUpdate(c, hdr, 12) ||
      !EVP_DigestUpdate(c, payload, len) || !EVP_DigestFinal_ex(c, out, &n))
    memset(out, 0, 32); /* never matches a credential made by a working sender */
  EVP_MD_CTX_free(c);
}

int mon_frame_build(const mon_key *k, uint16_t type, const void *payload, uint32_t len,
                    uint8_t **out, size_t *outlen, char *why, size_t whyn) {
  if (!little_endian()) {
    snprintf(why, whyn, "this host is big-endian; augur records are little-endian");
    return -1;
  }
  uint8_t head[MON_HDR];
  memcpy(head, MON_MAGIC, 4);
  put16(head + 4, MON_VERSION);
  put16(head + 6, type);
  put32(head + 8, len);
  put32(head + 12, 0);
  char *cred = NULL;
  size_t credlen = 0;
  if (k->munge) {
    uint8_t d[32];
    digest_of(head, payload, len, d);
    if (mon_munge_encode(k->munge_socket, d, &cred, &credlen, why, whyn) != 0) return -1;
    if (credlen == 0 || credlen > MON_CRED_MAX) {
      snprintf(why, whyn, "munge credential of %zu bytes (limit %d)", credlen, MON_CRED_MAX);
      free(cred);
      return -1;
    }
    put32(head + 12, (uint32_t)credlen);
  }
  size_t n = (size_t)MON_HDR + len + MON_TRAILER(credlen);
  uint8_t *b = malloc(n);
  if (!b) {
    free(cred);
    snprintf(why, whyn, "out of memory for a %u-byte frame", len);
    return -1;
  }
  memcpy(b, head, MON_HDR);
  if (len) memcpy(b + MON_HDR, payload, len);
  if (cred)
    memcpy(b + MON_HDR + len, cred, credlen);
  else
    mac_of(k, b, (size_t)MON_HDR + len, b + MON_HDR + len);
  free(cred);
  *out = b;
  *outlen = n;
  return 0;
}

int mon_header_check(const uint8_t *hdr, uint32_t max, uint16_t *type, uint32_t *len,
                     uint32_t *auth, char *why, size_t whyn) {
  if (memcmp(hdr, MON_MAGIC, 4) != 0) {
    snprintf(why, whyn, "malformed: bad magic (not an augur frame)");
    return -1;
  }
  uint16_t v = get16(hdr + 4);
  if (v != MON_VERSION) {
    snprintf(why, whyn, "malformed: wire version %u, this augurd speaks %u", v, MON_VERSION);
    return -1;
  }
  *type = get16(hdr + 6);
  *len = get32(hdr + 8);
  *auth = get32(hdr + 12);
  if (*type != MON_T_JOB && *type != MON_T_ACK) {
    snprintf(why, whyn, "malformed: unknown frame type %u", *type);
    return -1;
  }
  if (*auth > MON_CRED_MAX) {
    snprintf(why, whyn, "malformed: credential of %u bytes, limit %d", *auth, MON_CRED_MAX);
    return -1;
  }
  if (*len > max) {
    snprintf(why, whyn, "oversized: %u bytes, limit %u", *len, max);
    return -1;
  }
  return 0;
}

int mon_auth_check(const mon_key *k, const uint8_t *frame, uint32_t len, uint32_t auth,
                   int64_t *uid, char *why, size_t whyn) {
  *uid = -1;
  if (!k->munge) {
    if (auth) {
      snprintf(why, whyn, "unauthenticated: a MUNGE credential, this side uses a shared key");
      return -1;
    }
    uint8_t mac[MON_MAC];
    mac_of(k, frame, (size_t)MON_HDR + len, mac);
    if (CRYPTO_memcmp(mac, frame + MON_HDR + len, MON_MAC) != 0) {
      snprintf(why, whyn, "unauthenticated: bad signature (wrong key?)");
      return -1;
    }
    return 0;
  }
  if (!auth) {
    snprintf(why, whyn, "unauthenticated: an HMAC-signed frame, this side uses MUNGE");
    return -1;
  }
  uint8_t want[32], got[32];
  if (mon_munge_decode(k->munge_socket, (const char *)frame + MON_HDR + len, auth, got, uid, why,
                       whyn) != 0)
    return -1;
  digest_of(frame, frame + MON_HDR, len, want);
  if (CRYPTO_memcmp(want, got, 32) != 0) {
    snprintf(why, whyn, "unauthenticated: the MUNGE credential is for another frame");
    return -1;
  }
  return 0;
}

static int terminated(const char *s, size_t n) {
  return memchr(s, 0, n) != NULL;
}

#define BAD(...)                                                                                   \
  do {                                                                                             \
    snprintf(why, whyn, __VA_ARGS__);                                                              \
    return -1;                                                                                     \
  } while (0)

/* The name of the 64-bit field at byte OFF of an augp_proc (OFF at or past
 * start_ns), for messages: "end_ns", "counter cycles", "thread 2 mpi_ns". */
static void proc_field(size_t off, char *out, size_t n) {
  static const char *const fixed[] = {"start_ns", "end_ns", "utime_us", "stime_us", "maxrss_kb",
                                      "minflt",   "majflt", "nvcsw",    "nivcsw",   "inblock",
                                      "oublock",  "level",  "ctr_mask"};
  static const char *const tail[] = {"io_bytes_read", "io_bytes_written", "flags", "nthreads"};
  static const char *const th[] = {"tid", "start_ns", "end_ns", "cpu_ns", "mpi_ns", "io_ns"};
  size_t i = (off - offsetof(augp_proc, start_ns)) / 8;
  if (off >= offsetof(augp_proc, threads)) {
    size_t t = (off - offsetof(augp_proc, threads)) / sizeof(augp_thread);
    size_t k = (off - offsetof(augp_proc, threads)) % sizeof(augp_thread) / 8;
    if (k < 6)
      snprintf(out, n, "thread %zu %s", t, th[k]);
    else if (k < 6 + AUGP_NCTR)
      snprintf(out, n, "thread %zu counter %s", t, augp_ctr_names[k - 6]);
    else
      snprintf(out, n, "thread %zu %s", t, k == 6 + AUGP_NCTR ? "flags" : "nfolded");
  } else if (i < 13) {
    snprintf(out, n, "%s", fixed[i]);
  } else if ((i -= 13) < AUGP_NCTR) {
    snprintf(out, n, "counter %s", augp_ctr_names[i]);
  } else if ((i -= AUGP_NCTR) < 2 * AUGP_NMPI) {
    snprintf(out, n, "mpi %s %s", augp_mpi_names[i % AUGP_NMPI], i < AUGP_NMPI ? "ns" : "calls");
  } else if ((i -= 2 * AUGP_NMPI) < 2 * AUGP_NIO) {
    snprintf(out, n, "io %s %s", augp_io_names[i % AUGP_NIO], i < AUGP_NIO ? "ns" : "calls");
  } else {
    snprintf(out, n, "%s", tail[i - 2 * AUGP_NIO]);
  }
}

/* The checks of mon_job_validate on one process (docs/monitoring.md,
 * "Bounds"). */
int mon_proc_validate(const augp_proc *p, uint64_t i, char *why, size_t whyn) {
  if (!terminated(p->host, sizeof p->host) || !terminated(p->program, sizeof p->program) ||
      !terminated(p->counter_note, sizeof p->counter_note))
    BAD("malformed: unterminated string in process %llu", (unsigned long long)i);
  if (!p->host[0]) BAD("malformed: process %llu has no host", (unsigned long long)i);
  if (p->end_ns < p->start_ns)
    BAD("malformed: process %llu ends before it starts", (unsigned long long)i);
  if (p->rank < -1 || p->nranks < -1 || (p->rank >= 0 && p->rank >= p->nranks))
    BAD("malformed: process %llu has rank %lld of %lld", (unsigned long long)i, (long long)p->rank,
        (long long)p->nranks);
  if (p->ctr_mask >> AUGP_NCTR) BAD("malformed: process %llu counter mask", (unsigned long long)i);
  /* MPI sizes and pids are C ints: anything larger is not a real value. */
  if (p->nranks > INT32_MAX || p->pid > INT32_MAX || p->ppid > INT32_MAX)
    BAD("implausible: process %llu has nranks %lld, pid %llu, ppid %llu (limit %d)",
        (unsigned long long)i, (long long)p->nranks, (unsigned long long)p->pid,
        (unsigned long long)p->ppid, INT32_MAX);
  /* Every unsigned field is stored as a signed 64-bit integer. */
  const uint8_t *b = (const uint8_t *)p;
  for (size_t off = offsetof(augp_proc, start_ns); off < sizeof *p; off += 8) {
    uint64_t v;
    memcpy(&v, b + off, 8);
    if (v > (uint64_t)INT64_MAX) {
      char name[64];
      proc_field(off, name, sizeof name);
      BAD("implausible: process %llu %s = %llu, above 2^63-1", (unsigned long long)i, name,
          (unsigned long long)v);
    }
  }
  /* MPI and I/O time are summed over the process's threads: at most the
   * wall time per thread, plus 1 s for the two clocks (monotonic for the
   * calls, realtime for start and end). */
  uint64_t wall = p->end_ns - p->start_ns, threads = p->nthreads ? p->nthreads : 1;
  uint64_t mpi = 0, io = 0;
  for (int c = 0; c < AUGP_NMPI; c++)
    mpi += p->mpi_ns[c]; /* each below 2^63, AUGP_NMPI of them: no overflow */
  for (int c = 0; c < AUGP_NIO; c++)
    io += p->io_ns[c];
  double most = (double)wall * (double)threads + 1e9;
  if ((double)mpi > most || (double)io > most)
    BAD("implausible: process %llu spent %.3f s in MPI and %.3f s in I/O in %.3f s of wall time "
        "(%llu threads)",
        (unsigned long long)i, mpi / 1e9, io / 1e9, wall / 1e9, (unsigned long long)threads);
  return 0;
}

int mon_job_validate(const uint8_t *payload, uint32_t len, char *why, size_t whyn) {
  if (!little_endian()) BAD("this host is big-endian; augur records are little-endian");
  if (len < sizeof(augp_job))
    BAD("malformed: job record of %u bytes, header alone is %zu", len, sizeof(augp_job));
  augp_job j;
  memcpy(&j, payload, sizeof j);
  uint64_t room = (len - sizeof j) / sizeof(augp_proc);
  if (j.nprocs != room || (len - sizeof j) % sizeof(augp_proc))
    BAD("malformed: header says %llu processes, payload holds %u bytes",
        (unsigned long long)j.nprocs, len);
  if (!terminated(j.job_id, sizeof j.job_id) || !terminated(j.step, sizeof j.step) ||
      !terminated(j.cluster, sizeof j.cluster) || !terminated(j.user, sizeof j.user) ||
      !terminated(j.command, sizeof j.command))
    BAD("malformed: unterminated string in the job header");
  if (!j.job_id[0] || !j.cluster[0]) BAD("malformed: empty job id or cluster");
  if (j.level > 3) BAD("malformed: level %llu", (unsigned long long)j.level);
  if (j.end_ns < j.start_ns) BAD("malformed: job ends before it starts");
  if (j.start_ns > (uint64_t)INT64_MAX || j.end_ns > (uint64_t)INT64_MAX)
    BAD("implausible: job start_ns %llu, end_ns %llu, above 2^63-1", (unsigned long long)j.start_ns,
        (unsigned long long)j.end_ns);
  if (j.uid_num >= UINT32_MAX) BAD("implausible: uid %llu", (unsigned long long)j.uid_num);
  if (j.exit_status < INT32_MIN || j.exit_status > INT32_MAX)
    BAD("implausible: exit status %lld", (long long)j.exit_status);
  for (uint64_t i = 0; i < j.nprocs; i++) {
    augp_proc p;
    memcpy(&p, payload + sizeof j + i * sizeof p, sizeof p);
    if (mon_proc_validate(&p, i, why, whyn) != 0) return -1;
  }
  return 0;
}

int mon_frame_parse(const mon_key *k, const uint8_t *buf, size_t n, uint32_t max, char *why,
                    size_t whyn) {
  if (n < MON_HDR) BAD("malformed: %zu bytes, shorter than a header", n);
  uint16_t type;
  uint32_t len, auth;
  if (mon_header_check(buf, max, &type, &len, &auth, why, whyn) != 0) return -1;
  size_t want = (size_t)MON_HDR + len + MON_TRAILER(auth);
  if (n != want) BAD("malformed: frame of %zu bytes, header says %zu", n, want);
  int64_t uid;
  if (mon_auth_check(k, buf, len, auth, &uid, why, whyn) != 0) return -1;
  if (type == MON_T_ACK) {
    if (len != MON_ACK_LEN) BAD("malformed: ack of %u bytes", len);
    return 0;
  }
  return mon_job_validate(buf + MON_HDR, len, why, whyn);
}

void mon_uid_hex(const uint8_t uid[16], char out[33]) {
  static const char hex[] = "0123456789abcdef";
  for (int i = 0; i < 16; i++) {
    out[2 * i] = hex[uid[i] >> 4];
    out[2 * i + 1] = hex[uid[i] & 15];
  }
  out[32] = 0;
}

int mon_random(void *buf, size_t n) {
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t r = read(fd, buf, n);
  close(fd);
  return r == (ssize_t)n ? 0 : -1;
}
