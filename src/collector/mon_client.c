/* augur monitoring — the sender: one job record to the first collector that
 * acknowledges it, retrying with backoff across the configured collectors
 * until a deadline; what could not be delivered goes to a spool directory
 * and is sent by a later drain. A record is only dropped from the spool
 * after an authenticated ack, which augurd sends after its commit; a record
 * sent twice (ack lost) is recognised by its uid and stored once.
 * The bound: the sender never takes longer than deadline_ms plus one spool
 * write (docs/monitoring.md). _GNU_SOURCE for getaddrinfo's flags. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

static int write_all(int fd, const uint8_t *p, size_t n) {
  while (n) {
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static int read_all(int fd, uint8_t *p, size_t n) {
  while (n) {
    ssize_t r = recv(fd, p, n, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

/* Reads and authenticates one ack frame for record UID: its status, or -1. */
static int read_ack(const mon_sender *s, int fd, const uint8_t *uid) {
  uint8_t ack[MON_HDR + MON_ACK_LEN + MON_CRED_MAX];
  uint16_t type;
  uint32_t len, auth;
  char why[256];
  if (read_all(fd, ack, MON_HDR) != 0 ||
      mon_header_check(ack, MON_ACK_LEN, &type, &len, &auth, why, sizeof why) != 0 ||
      type != MON_T_ACK || len != MON_ACK_LEN)
    return -1;
  size_t n = (size_t)MON_HDR + len + MON_TRAILER(auth);
  if (read_all(fd, ack + MON_HDR, n - MON_HDR) != 0 ||
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
  if (write_all(fd, frame, n) == 0) status = read_ack(s, fd, payload);
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

static int spool_put(const mon_sender *s, const uint8_t *payload, uint32_t len, char *why,
                     size_t whyn) {
  if (!s->spool[0]) {
    snprintf(why, whyn, "no spool directory configured");
    return -1;
  }
  mkdir(s->spool, 0700);
  char hex[33], path[4200], tmp[4210];
  mon_uid_hex(payload, hex);
  snprintf(path, sizeof path, "%s/%s.rec", s->spool, hex);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    snprintf(why, whyn, "cannot spool to %.300s: %s", s->spool, strerror(errno));
    return -1;
  }
  const uint8_t *p = payload;
  size_t left = len;
  while (left) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    p += w;
    left -= (size_t)w;
  }
  /* fsync before rename: a spooled record must survive a node crash. */
  if (left || fsync(fd) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
    snprintf(why, whyn, "cannot spool to %.300s: %s", s->spool, strerror(errno));
    unlink(tmp);
    return -1;
  }
  return 0;
}

int mon_send_or_spool(const mon_sender *s, const uint8_t *payload, uint32_t len, char *why,
                      size_t whyn) {
  int64_t deadline = now_ms() + (s->deadline_ms > 0 ? s->deadline_ms : 10000);
  int st = s->collectors[0] ? deliver(s, payload, len, deadline, why, whyn) : -1;
  if (st == MON_ACK_STORED || st == MON_ACK_DUPLICATE) return 0;
  char why2[512];
  if (spool_put(s, payload, len, why2, sizeof why2) == 0) return 1;
  snprintf(why, whyn, "%s", why2);
  return -1;
}

static uint8_t *slurp(const char *path, uint32_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size <= 0 || st.st_size > (off_t)MON_MAX_DEFAULT * 4) {
    close(fd);
    return NULL;
  }
  uint8_t *b = malloc((size_t)st.st_size);
  size_t got = 0;
  while (b && got < (size_t)st.st_size) {
    ssize_t r = read(fd, b + got, (size_t)st.st_size - got);
    if (r <= 0) break;
    got += (size_t)r;
  }
  close(fd);
  if (!b || got != (size_t)st.st_size) {
    free(b);
    return NULL;
  }
  *len = (uint32_t)got;
  return b;
}

int mon_spool_drain(const mon_sender *s, int *sent, int *left, char *why, size_t whyn) {
  *sent = *left = 0;
  DIR *d = opendir(s->spool);
  if (!d) {
    if (errno == ENOENT) return 0;
    snprintf(why, whyn, "cannot read spool %s: %s", s->spool, strerror(errno));
    return -1;
  }
  int64_t deadline = now_ms() + (s->deadline_ms > 0 ? s->deadline_ms : 10000);
  struct dirent *de;
  char path[4400];
  while ((de = readdir(d)) != NULL) {
    size_t nl = strlen(de->d_name);
    if (nl != 36 || strcmp(de->d_name + 32, ".rec") != 0) continue;
    snprintf(path, sizeof path, "%s/%s", s->spool, de->d_name);
    if (now_ms() >= deadline || !s->collectors[0]) {
      (*left)++;
      continue;
    }
    uint32_t len = 0;
    uint8_t *b = slurp(path, &len);
    char w[256];
    if (!b || mon_job_validate(b, len, w, sizeof w) != 0) {
      /* Kept aside for a human, never silently deleted. */
      char bad[4420];
      snprintf(bad, sizeof bad, "%s.invalid", path);
      rename(path, bad);
      free(b);
      continue;
    }
    int st = deliver(s, b, len, deadline, w, sizeof w);
    free(b);
    if (st == MON_ACK_STORED || st == MON_ACK_DUPLICATE) {
      unlink(path);
      (*sent)++;
    } else if (st == MON_ACK_REJECTED) {
      char bad[4420];
      snprintf(bad, sizeof bad, "%s.rejected", path);
      rename(path, bad);
    } else {
      (*left)++;
    }
  }
  closedir(d);
  return 0;
}
