/* augur monitoring — the sender: one job record to the first collector that
 * acknowledges it, retrying with backoff across the configured collectors
 * until a deadline; what could not be delivered goes to a spool directory
 * and is sent by a later drain. A record is only dropped from the spool
 * after an authenticated ack, which augurd sends after its commit; a record
 * sent twice (ack lost) is recognised by its uid and stored once.
 * The bound: the sender never takes longer than deadline_ms plus one spool
 * write (docs/monitoring.md). _GNU_SOURCE for getaddrinfo's flags. */
#define _GNU_SOURCE
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <openssl/crypto.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io.h"
#include "mon.h"

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int64_t ms) {
  if (ms <= 0) return;
  struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* Connects to host:port within timeout_ms; fd or -1. */
static int dial(const char *hostport, int64_t timeout_ms) {
  char host[256];
  const char *colon = strrchr(hostport, ':');
  if (!colon || colon == hostport || (size_t)(colon - hostport) >= sizeof host) return -1;
  memcpy(host, hostport, (size_t)(colon - hostport));
  host[colon - hostport] = 0;
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(host, colon + 1, &hints, &res) != 0) return -1;
  int fd = -1;
  for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) continue;
    int rc = connect(fd, a->ai_addr, a->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS) {
      struct pollfd p = {fd, POLLOUT, 0};
      int err = 0;
      socklen_t el = sizeof err;
      if (poll(&p, 1, (int)(timeout_ms > 0 ? timeout_ms : 1)) == 1 &&
          getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && err == 0)
        rc = 0;
    }
    if (rc != 0) {
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd >= 0) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

static void set_timeouts(int fd, int64_t ms) {
  if (ms < 1) ms = 1;
  struct timeval tv = {(time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

/* Reads and authenticates one ack frame for record UID: its status, or -1. */
static int read_ack(const mon_sender *s, int fd, const uint8_t *uid) {
  uint8_t ack[MON_HDR + MON_ACK_LEN + MON_CRED_MAX];
  uint16_t type;
  uint32_t len, auth;
  char why[256];
  if (aug_read_all(fd, ack, MON_HDR) != 0 ||
      mon_header_check(ack, MON_ACK_LEN, &type, &len, &auth, why, sizeof why) != 0 ||
      type != MON_T_ACK || len != MON_ACK_LEN)
    return -1;
  size_t n = (size_t)MON_HDR + len + MON_TRAILER(auth);
  if (aug_read_all(fd, ack + MON_HDR, n - MON_HDR) != 0 ||
      mon_frame_parse(&s->key, ack, n, MON_ACK_LEN, why, sizeof why) != 0 ||
      memcmp(ack + MON_HDR + 4, uid, 16) != 0)
    return -1;
  return (int)(ack[MON_HDR] | ack[MON_HDR + 1] << 8);
}

/* One attempt at one collector: the ack status, or -1. The frame is built
 * per attempt: a MUNGE credential may be used only once. */
static int send_once(const mon_sender *s, const char *hostport, const uint8_t *payload,
                     uint32_t len, int64_t deadline, char *why, size_t whyn) {
  int64_t left = deadline - now_ms();
  if (left <= 0) return -1;
  int fd = dial(hostport, left < 2000 ? left : 2000);
  if (fd < 0) return -1;
  uint8_t *frame;
  size_t n;
  if (mon_frame_build(&s->key, MON_T_JOB, payload, len, &frame, &n, why, whyn) != 0) {
    close(fd);
    return -1;
  }
  set_timeouts(fd, deadline - now_ms());
  int status = -1;
  if (aug_write_all(fd, frame, n, 1, -1) == 0) status = read_ack(s, fd, payload);
  free(frame);
  close(fd);
  return status;
}

/* Tries every collector, starting at a random one (load balancing), in
 * rounds with doubling pauses, until deadline. Ack status or -1. */
static int deliver(const mon_sender *s, const uint8_t *payload, uint32_t len, int64_t deadline,
                   char *why, size_t whyn) {
  char list[sizeof s->collectors];
  snprintf(list, sizeof list, "%s", s->collectors);
  char *names[32];
  int nn = 0;
  for (char *save = NULL, *t = strtok_r(list, ",", &save); t && nn < 32;
       t = strtok_r(NULL, ",", &save))
    names[nn++] = t;
  if (!nn) {
    snprintf(why, whyn, "no collector configured");
    return -1;
  }
  unsigned start = 0;
  mon_random(&start, sizeof start);
  int64_t pause = 100;
  int status = -1;
  char fwhy[512] = "";
  while (status < 0 && now_ms() < deadline) {
    for (int i = 0; i < nn && status < 0; i++)
      status = send_once(s, names[(start + (unsigned)i) % (unsigned)nn], payload, len, deadline,
                         fwhy, sizeof fwhy);
    if (status == MON_ACK_RETRY) status = -1; /* the collector's store failed: later */
    if (status < 0) {
      int64_t left = deadline - now_ms();
      sleep_ms(pause < left ? pause : left);
      pause = pause * 2 > 2000 ? 2000 : pause * 2;
    }
  }
  if (status < 0)
    snprintf(why, whyn, "no collector of %s acknowledged%s%.300s", s->collectors,
             fwhy[0] ? ": " : "", fwhy);
  if (status == MON_ACK_REJECTED) snprintf(why, whyn, "the collector rejected the record");
  return status;
}

/* ---- the spool ---- */

#define SPOOL_KEY_LEN 32

static void spool_note(const mon_sender *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void spool_note(const mon_sender *s, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (s->note)
    s->note(msg);
  else
    fprintf(stderr, "augur: %s\n", msg);
}

/* Opens the spool directory DIR, creating it (mode 0700) when CREATE: its
 * fd, or -1 with why and errno (ENOENT: absent and not CREATE). Another
 * user can create DIR first in a shared parent such as /var/tmp; so a link,
 * a directory of another owner or one open to group or others is refused,
 * never used. */
static int spool_open(const char *dir, int create, char *why, size_t whyn) {
  assert(dir && why);
  if (!dir[0]) {
    snprintf(why, whyn, "no spool directory configured");
    errno = EINVAL;
    return -1;
  }
  if (create && mkdir(dir, 0700) != 0 && errno != EEXIST) {
    int e = errno;
    snprintf(why, whyn, "cannot create the spool %.300s: %s", dir, strerror(e));
    errno = e;
    return -1;
  }
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd < 0 && errno == EACCES && lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
      st.st_uid != geteuid()) {
    errno = EPERM; /* said below as for one that opens */
  } else if (fd < 0) {
    int e = errno;
    if ((e == ELOOP || e == ENOTDIR) && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
      snprintf(why, whyn,
               "spool %.300s is a symbolic link: refused (it would send your records where "
               "its maker points); remove it, or choose another --spool",
               dir);
    else if (e == ENOTDIR)
      snprintf(why, whyn, "spool %.300s is not a directory: remove it, or choose another --spool",
               dir);
    else
      snprintf(why, whyn, "cannot open the spool %.300s: %s", dir, strerror(e));
    errno = e;
    return -1;
  }
  if (fd >= 0 && fstat(fd, &st) != 0) {
    int e = errno;
    snprintf(why, whyn, "cannot open the spool %.300s: %s", dir, strerror(e));
    close(fd);
    errno = e;
    return -1;
  }
  if (st.st_uid != geteuid()) {
    snprintf(why, whyn,
             "spool %.300s belongs to uid %ld, not to you (uid %ld): refused (its owner could "
             "read, remove or plant records); check what it holds and remove it, or choose "
             "another --spool",
             dir, (long)st.st_uid, (long)geteuid());
    if (fd >= 0) close(fd);
    errno = EPERM;
    return -1;
  }
  if (st.st_mode & 077) {
    snprintf(why, whyn,
             "spool %.300s is open to group or others (mode %03o): refused (records could be "
             "planted or removed); check what it holds, then chmod 700 it, or choose another "
             "--spool",
             dir, (unsigned)(st.st_mode & 0777));
    close(fd);
    errno = EPERM;
    return -1;
  }
  return fd;
}

/* Opens NAME in the spool for reading without following a link or
 * blocking on a FIFO, and checks it: a regular file of the caller, at most
 * MAX bytes. fd and *st, or -1 with why. */
static int spool_open_file(int dfd, const char *name, off_t max, struct stat *st, char *why,
                           size_t whyn) {
  int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, whyn, "%s", errno == ELOOP ? "a symbolic link" : strerror(errno));
    return -1;
  }
  const char *bad = NULL;
  if (fstat(fd, st) != 0)
    bad = strerror(errno);
  else if (!S_ISREG(st->st_mode))
    bad = S_ISFIFO(st->st_mode) ? "a FIFO, not a regular file" : "not a regular file";
  else if (st->st_uid != geteuid())
    bad = "owned by another user";
  else if (st->st_size > max)
    bad = "too large";
  if (bad) {
    snprintf(why, whyn, "%s", bad);
    close(fd);
    return -1;
  }
  return fd;
}

/* Writes DATA as NAME in the spool: a temporary name (O_EXCL, no link
 * followed), fsync (a spooled record must survive a node crash), then
 * rename. REPLACE 0: an existing NAME stays (link instead of rename). */
static int spool_write(int dfd, const char *name, const uint8_t *data, size_t n, int replace) {
  char tmp[300];
  snprintf(tmp, sizeof tmp, ".%s.%ld.tmp", name, (long)getpid());
  int fd = -1;
  for (int tries = 0; fd < 0 && tries < 2; tries++) {
    fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST) unlinkat(dfd, tmp, 0); /* left by a crash: ours */
  }
  if (fd < 0) return -1;
  int ok = aug_write_all(fd, data, n, 0, -1) == 0 && fsync(fd) == 0;
  ok = close(fd) == 0 && ok;
  if (ok)
    ok = replace ? renameat(dfd, tmp, dfd, name) == 0
                 : linkat(dfd, tmp, dfd, name, 0) == 0 || errno == EEXIST;
  int e = errno;
  if (!ok || !replace) unlinkat(dfd, tmp, 0);
  errno = e;
  return ok ? 0 : -1;
}

/* The spool's own key into *k (an HMAC key), made first when CREATE and
 * absent. Only the spool's owner (and root) can read it, so a record
 * signed with it was spooled by them. 0, or -1 with why. */
static int spool_key(int dfd, const char *dir, int create, mon_key *k, char *why, size_t whyn) {
  memset(k, 0, sizeof *k);
  if (create) {
    uint8_t fresh[SPOOL_KEY_LEN];
    struct stat st;
    if (fstatat(dfd, MON_SPOOL_KEY, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT &&
        (mon_random(fresh, sizeof fresh) != 0 ||
         spool_write(dfd, MON_SPOOL_KEY, fresh, sizeof fresh, 0) != 0)) {
      snprintf(why, whyn, "cannot make the spool's key %.300s/%s: %s", dir, MON_SPOOL_KEY,
               strerror(errno));
      return -1;
    }
  }
  struct stat st;
  char fwhy[128];
  int fd = spool_open_file(dfd, MON_SPOOL_KEY, SPOOL_KEY_LEN, &st, fwhy, sizeof fwhy);
  if (fd >= 0 && (st.st_mode & 077 || st.st_size != SPOOL_KEY_LEN)) {
    snprintf(fwhy, sizeof fwhy, "mode %03o, %lld bytes", (unsigned)(st.st_mode & 0777),
             (long long)st.st_size);
    close(fd);
    fd = -1;
  }
  if (fd < 0 || aug_read_all(fd, k->bytes, SPOOL_KEY_LEN) != 0) {
    if (fd >= 0) snprintf(fwhy, sizeof fwhy, "%s", strerror(errno));
    snprintf(why, whyn, "the spool's key %.300s/%s is unusable (%s)", dir, MON_SPOOL_KEY, fwhy);
    if (fd >= 0) close(fd);
    return -1;
  }
  close(fd);
  k->len = SPOOL_KEY_LEN;
  return 0;
}

/* Stores the payload in the spool as NAME (UID.rec, or UID.rec.rejected
 * for a record set aside), signed with the spool's key. */
static int spool_put(const mon_sender *s, const uint8_t *payload, uint32_t len, const char *suffix,
                     char *why, size_t whyn) {
  int dfd = spool_open(s->spool, 1, why, whyn);
  if (dfd < 0) return -1;
  mon_key k;
  uint8_t *frame = NULL;
  size_t n = 0;
  int rc = spool_key(dfd, s->spool, 1, &k, why, whyn);
  if (rc == 0) rc = mon_frame_build(&k, MON_T_JOB, payload, len, &frame, &n, why, whyn);
  char hex[33], name[64];
  mon_uid_hex(payload, hex);
  snprintf(name, sizeof name, "%s%s", hex, suffix);
  if (rc == 0 && spool_write(dfd, name, frame, n, 1) != 0) {
    snprintf(why, whyn, "cannot spool to %.300s: %s", s->spool, strerror(errno));
    rc = -1;
  }
  OPENSSL_cleanse(&k, sizeof k);
  free(frame);
  close(dfd);
  return rc;
}

int mon_send_or_spool(const mon_sender *s, const uint8_t *payload, uint32_t len, char *why,
                      size_t whyn) {
  assert(s && payload && why);
  char bad[300] = "", vwhy[256];
  int st = -1;
  if (mon_job_validate(payload, len, vwhy, sizeof vwhy) != 0) {
    snprintf(bad, sizeof bad, "the job record is invalid (%s)", vwhy);
  } else {
    int64_t deadline = now_ms() + (s->deadline_ms > 0 ? s->deadline_ms : 10000);
    if (s->collectors[0]) st = deliver(s, payload, len, deadline, why, whyn);
    if (st == MON_ACK_STORED || st == MON_ACK_DUPLICATE) return 0;
    if (st == MON_ACK_REJECTED) snprintf(bad, sizeof bad, "the collector rejected the job record");
  }
  char swhy[1024];
  if (!bad[0]) {
    if (spool_put(s, payload, len, ".rec", swhy, sizeof swhy) == 0) return 1;
    snprintf(why, whyn, "%s", swhy);
    return -1;
  }
  /* Invalid or rejected: sending it again would only earn a "rejected";
   * kept for a human instead of waiting in the spool as a normal record. */
  char hex[33] = "?";
  if (len >= sizeof(augp_job)) mon_uid_hex(payload, hex);
  if (len >= sizeof(augp_job) &&
      spool_put(s, payload, len, ".rec.rejected", swhy, sizeof swhy) == 0) {
    snprintf(why, whyn, "%s; set aside as %.300s/%s.rec.rejected", bad, s->spool, hex);
    return 2;
  }
  snprintf(why, whyn, "%s, and cannot be set aside: %.300s", bad,
           len >= sizeof(augp_job) ? swhy : "too short");
  return -1;
}

/* Reads the spool file NAME and checks that this spool signed it (key K:
 * NULL when the spool has none) and that it is a valid record named by its
 * uid. The malloc'd frame; *payload and *len point into it. NULL with why
 * (the file is then set aside). */
static uint8_t *spool_read(int dfd, const char *name, const mon_key *k, const uint8_t **payload,
                           uint32_t *len, char *why, size_t whyn) {
  struct stat st;
  off_t max = (off_t)MON_HDR + (off_t)MON_MAX_DEFAULT * 4 + MON_MAC;
  int fd = spool_open_file(dfd, name, max, &st, why, whyn);
  if (fd < 0) return NULL;
  size_t n = (size_t)st.st_size;
  uint8_t *b = n >= MON_HDR ? malloc(n) : NULL;
  if (!b || aug_read_all(fd, b, n) != 0) {
    snprintf(why, whyn, "%s", b ? "unreadable" : "not a spooled record (too short)");
    free(b);
    close(fd);
    return NULL;
  }
  close(fd);
  uint16_t type;
  uint32_t plen, auth;
  int64_t uid;
  char w[256];
  if (mon_header_check(b, MON_MAX_DEFAULT * 4, &type, &plen, &auth, w, sizeof w) != 0 ||
      type != MON_T_JOB || auth != 0 || n != (size_t)MON_HDR + plen + MON_MAC)
    snprintf(why, whyn, "not a signed spool record (planted, or spooled by an older augur)");
  else if (!k)
    snprintf(why, whyn, "this spool has no key to check it with");
  else if (mon_auth_check(k, b, plen, 0, &uid, w, sizeof w) != 0)
    snprintf(why, whyn, "not signed with this spool's key (planted or copied here)");
  else if (mon_job_validate(b + MON_HDR, plen, w, sizeof w) != 0)
    snprintf(why, whyn, "invalid record: %s", w);
  else {
    char hex[33];
    mon_uid_hex(b + MON_HDR, hex);
    if (strncmp(hex, name, 32) != 0)
      snprintf(why, whyn, "named for another record (%s)", hex);
    else {
      *payload = b + MON_HDR;
      *len = plen;
      return b;
    }
  }
  free(b);
  return NULL;
}

/* Renames NAME to NAME.rejected (never deleted: a human decides) and says
 * why. */
static void set_aside(const mon_sender *s, int dfd, const char *name, const char *why) {
  char bad[80];
  snprintf(bad, sizeof bad, "%s.rejected", name);
  if (renameat(dfd, name, dfd, bad) == 0)
    spool_note(s, "spool %s: %s set aside as %s: %s", s->spool, name, bad, why);
  else
    spool_note(s, "spool %s: %s is %s, and cannot be set aside: %s", s->spool, name, why,
               strerror(errno));
}

int mon_spool_drain(const mon_sender *s, int *sent, int *left, char *why, size_t whyn) {
  assert(s && sent && left && why);
  *sent = *left = 0;
  int dfd = spool_open(s->spool, 0, why, whyn);
  if (dfd < 0) return errno == ENOENT ? 0 : -1;
  mon_key k;
  char kwhy[512];
  int have_key = spool_key(dfd, s->spool, 0, &k, kwhy, sizeof kwhy) == 0;
  int dfd2 = dup(dfd);
  DIR *d = dfd2 >= 0 ? fdopendir(dfd2) : NULL;
  if (!d) {
    snprintf(why, whyn, "cannot read the spool %s: %s", s->spool, strerror(errno));
    if (dfd2 >= 0) close(dfd2);
    close(dfd);
    return -1;
  }
  int64_t deadline = now_ms() + (s->deadline_ms > 0 ? s->deadline_ms : 10000);
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    size_t nl = strlen(de->d_name);
    if (nl != 36 || strcmp(de->d_name + 32, ".rec") != 0) continue;
    if (now_ms() >= deadline || !s->collectors[0]) {
      (*left)++;
      continue;
    }
    const uint8_t *payload = NULL;
    uint32_t len = 0;
    char w[512];
    uint8_t *b = spool_read(dfd, de->d_name, have_key ? &k : NULL, &payload, &len, w, sizeof w);
    if (!b) {
      set_aside(s, dfd, de->d_name, w);
      continue;
    }
    int st = deliver(s, payload, len, deadline, w, sizeof w);
    free(b);
    if (st == MON_ACK_STORED || st == MON_ACK_DUPLICATE) {
      unlinkat(dfd, de->d_name, 0);
      (*sent)++;
    } else if (st == MON_ACK_REJECTED) {
      set_aside(s, dfd, de->d_name, "the collector rejected it");
    } else {
      (*left)++;
    }
  }
  closedir(d);
  close(dfd);
  OPENSSL_cleanse(&k, sizeof k);
  return 0;
}
