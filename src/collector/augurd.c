/* augurd — the augur job-record collector.
 *
 * Threads: one acceptor (main), a pool of connection workers, one database
 * writer. A worker reads a frame (header first, so an oversized or foreign
 * frame is refused before its payload is read), checks the HMAC or the
 * MUNGE credential, validates the record and queues it for the writer. The writer takes everything
 * queued (up to a batch), stores it in one transaction and wakes the
 * workers, which then ack: the ack always follows the commit. Memory is
 * bounded: at most one record per worker is in flight. Bad input is logged
 * with the peer and the reason and the connection closed; it never stops
 * the daemon. Configuration: docs/monitoring.md. */
/* _GNU_SOURCE for accept4 and NI_MAXHOST. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "mon.h"

#ifndef AUGUR_VERSION
#define AUGUR_VERSION "0.0.0"
#endif

typedef struct config {
  char listen[256];
  char db[4096];
  char key_file[4096];
  char log[4096];
  char port_file[4096];
  int threads;
  uint32_t max_record;
  int io_timeout_s;
  int batch;
  int verbose;
} config;

static config cfg = {"127.0.0.1:7077", "augur.db", "", "", "", 4, MON_MAX_DEFAULT, 10, 512, 0};
static mon_key key;
static FILE *log_file;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t stopping;
static int wake_pipe[2] = {-1, -1};

static void logmsg(const char *level, const char *fmt, ...) {
  char ts[32];
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
  va_list ap;
  va_start(ap, fmt);
  pthread_mutex_lock(&log_lock);
  fprintf(log_file, "%s augurd %s: ", ts, level);
  vfprintf(log_file, fmt, ap);
  fputc('\n', log_file);
  fflush(log_file);
  pthread_mutex_unlock(&log_lock);
  va_end(ap);
}

/* ---- the connection queue (acceptor -> workers) ---- */
#define QCAP 1024
static int conn_q[QCAP];
static int q_head, q_len;
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_nonempty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t q_nonfull = PTHREAD_COND_INITIALIZER;

static void q_push(int fd) {
  pthread_mutex_lock(&q_lock);
  while (q_len == QCAP && !stopping)
    pthread_cond_wait(&q_nonfull, &q_lock);
  if (stopping) {
    pthread_mutex_unlock(&q_lock);
    close(fd);
    return;
  }
  conn_q[(q_head + q_len++) % QCAP] = fd;
  pthread_cond_signal(&q_nonempty);
  pthread_mutex_unlock(&q_lock);
}

static int q_pop(void) {
  pthread_mutex_lock(&q_lock);
  while (q_len == 0 && !stopping)
    pthread_cond_wait(&q_nonempty, &q_lock);
  int fd = -1;
  if (q_len) {
    fd = conn_q[q_head];
    q_head = (q_head + 1) % QCAP;
    q_len--;
    pthread_cond_signal(&q_nonfull);
  }
  pthread_mutex_unlock(&q_lock);
  return fd;
}

/* ---- the writer queue (workers -> writer) ---- */
typedef struct pending {
  struct pending *next;
  const uint8_t *payload;
  uint32_t len;
  int status; /* -1 until the writer is done */
} pending;

static pending *w_head, **w_tail = &w_head;
static pthread_mutex_t w_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t w_work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t w_done = PTHREAD_COND_INITIALIZER;
static mon_db *db;
static uint64_t stored_jobs, stored_procs, dup_jobs, rejected, store_failures;

static int store(const uint8_t *payload, uint32_t len) {
  pending p = {NULL, payload, len, -1};
  pthread_mutex_lock(&w_lock);
  *w_tail = &p;
  w_tail = &p.next;
  pthread_cond_signal(&w_work);
  while (p.status < 0)
    pthread_cond_wait(&w_done, &w_lock);
  pthread_mutex_unlock(&w_lock);
  return p.status;
}

static void *writer(void *arg) {
  (void)arg;
  int cap = cfg.batch;
  pending **batch = calloc((size_t)cap, sizeof *batch);
  const uint8_t **pl = calloc((size_t)cap, sizeof *pl);
  uint32_t *lens = calloc((size_t)cap, sizeof *lens);
  int *st = calloc((size_t)cap, sizeof *st);
  if (!batch || !pl || !lens || !st) {
    logmsg("error", "out of memory for the writer");
    exit(1);
  }
  for (;;) {
    pthread_mutex_lock(&w_lock);
    while (!w_head && !stopping)
      pthread_cond_wait(&w_work, &w_lock);
    if (!w_head && stopping) {
      pthread_mutex_unlock(&w_lock);
      break;
    }
    int n = 0;
    while (w_head && n < cap) {
      batch[n] = w_head;
      w_head = w_head->next;
      n++;
    }
    if (!w_head) w_tail = &w_head;
    pthread_mutex_unlock(&w_lock);

    for (int i = 0; i < n; i++) {
      pl[i] = batch[i]->payload;
      lens[i] = batch[i]->len;
    }
    char why[512];
    int rc = mon_db_insert(db, pl, lens, n, st, why, sizeof why);
    if (rc != 0) logmsg("error", "store failed for %d record(s), senders will retry: %s", n, why);
    pthread_mutex_lock(&w_lock);
    if (rc != 0) store_failures++;
    for (int i = 0; i < n; i++) {
      int s = rc ? MON_ACK_RETRY : st[i];
      if (s == MON_ACK_STORED) {
        augp_job j;
        memcpy(&j, pl[i], sizeof j);
        stored_jobs++;
        stored_procs += j.nprocs;
      } else if (s == MON_ACK_DUPLICATE) {
        dup_jobs++;
      }
      batch[i]->status = s;
    }
    pthread_cond_broadcast(&w_done);
    pthread_mutex_unlock(&w_lock);
  }
  free(batch);
  free(pl);
  free(lens);
  free(st);
  return NULL;
}

/* ---- connection workers ---- */
static int read_all(int fd, uint8_t *p, size_t n) {
  while (n) {
    ssize_t r = recv(fd, p, n, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return r == 0 ? 0 : -1;
    p += r;
    n -= (size_t)r;
  }
  return 1;
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

static void send_ack(int fd, int status, const uint8_t *uid) {
  uint8_t body[MON_ACK_LEN] = {0};
  body[0] = (uint8_t)status;
  memcpy(body + 4, uid, 16);
  uint8_t *frame;
  size_t n;
  char why[512];
  if (mon_frame_build(&key, MON_T_ACK, body, sizeof body, &frame, &n, why, sizeof why) == 0) {
    write_all(fd, frame, n);
    free(frame);
  } else {
    logmsg("error", "cannot sign an ack (the sender will retry): %s", why);
  }
}

static void peer_name(int fd, char *out, size_t n) {
  struct sockaddr_storage ss;
  socklen_t sl = sizeof ss;
  char host[NI_MAXHOST] = "?", port[NI_MAXSERV] = "?";
  if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0)
    getnameinfo((struct sockaddr *)&ss, sl, host, sizeof host, port, sizeof port,
                NI_NUMERICHOST | NI_NUMERICSERV);
  snprintf(out, n, "%s:%s", host, port);
}

static void reject(const char *peer, const char *why) {
  pthread_mutex_lock(&w_lock);
  rejected++;
  pthread_mutex_unlock(&w_lock);
  logmsg("warning", "rejected record from %s: %s", peer, why);
}

/* Under MUNGE the sender's uid is known: a user may only send records of
 * their own jobs. root (slurmstepd runs the SPANK plugin's exit as root)
 * and augurd's own user may send anyone's. */
static int owner_check(const uint8_t *payload, int64_t cred_uid, char *why, size_t whyn) {
  if (cred_uid < 0 || cred_uid == 0 || cred_uid == (int64_t)getuid()) return 0;
  augp_job j;
  memcpy(&j, payload, sizeof j);
  if ((int64_t)j.uid_num == cred_uid) return 0;
  snprintf(why, whyn, "unauthorized: uid %lld sent a record of uid %lld", (long long)cred_uid,
           (long long)j.uid_num);
  return -1;
}

/* One connection: frames until EOF or an error. */
static void serve(int fd) {
  char peer[128];
  peer_name(fd, peer, sizeof peer);
  struct timeval tv = {cfg.io_timeout_s, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  for (;;) {
    uint8_t hdr[MON_HDR];
    int r = read_all(fd, hdr, sizeof hdr);
    if (r == 0) break; /* clean end */
    if (r < 0) {
      reject(peer, "malformed: connection closed or timed out inside a header");
      break;
    }
    uint16_t type;
    uint32_t len, auth;
    char why[512];
    if (mon_header_check(hdr, cfg.max_record, &type, &len, &auth, why, sizeof why) != 0) {
      reject(peer, why);
      break;
    }
    if (type != MON_T_JOB) {
      reject(peer, "malformed: only job records may be sent to augurd");
      break;
    }
    uint8_t *frame = malloc((size_t)MON_HDR + len + MON_TRAILER(auth));
    if (!frame) {
      logmsg("error", "out of memory for a %u-byte record from %s", len, peer);
      break;
    }
    memcpy(frame, hdr, MON_HDR);
    if (read_all(fd, frame + MON_HDR, (size_t)len + MON_TRAILER(auth)) != 1) {
      free(frame);
      reject(peer, "malformed: truncated frame (connection closed or timed out)");
      break;
    }
    int64_t cred_uid;
    if (mon_auth_check(&key, frame, len, auth, &cred_uid, why, sizeof why) != 0) {
      free(frame);
      reject(peer, why);
      break;
    }
    const uint8_t *payload = frame + MON_HDR;
    if (mon_job_validate(payload, len, why, sizeof why) != 0 ||
        owner_check(payload, cred_uid, why, sizeof why) != 0) {
      reject(peer, why);
      /* Authenticated but invalid: tell the sender not to try again. */
      if (len >= 16) send_ack(fd, MON_ACK_REJECTED, payload);
      free(frame);
      break;
    }
    int st = store(payload, len);
    if (cfg.verbose || st != MON_ACK_STORED) {
      augp_job j;
      memcpy(&j, payload, sizeof j);
      char hex[33];
      mon_uid_hex(j.uid, hex);
      logmsg("info", "%s job %s (record %s, %llu processes) from %s",
             st == MON_ACK_STORED      ? "stored"
             : st == MON_ACK_DUPLICATE ? "duplicate, already stored:"
                                       : "could not store",
             j.job_id, hex, (unsigned long long)j.nprocs, peer);
    }
    send_ack(fd, st, payload);
    free(frame);
  }
  close(fd);
}

static void *worker(void *arg) {
  (void)arg;
  for (;;) {
    int fd = q_pop();
    if (fd < 0) break;
    serve(fd);
  }
  return NULL;
}

/* ---- configuration ---- */
static int set_opt(const char *name, const char *val, const char *where) {
  char *end;
  long v;
  if (!strcmp(name, "listen"))
    snprintf(cfg.listen, sizeof cfg.listen, "%s", val);
  else if (!strcmp(name, "db") || !strcmp(name, "database"))
    snprintf(cfg.db, sizeof cfg.db, "%s", val);
  else if (!strcmp(name, "key") || !strcmp(name, "key_file"))
    snprintf(cfg.key_file, sizeof cfg.key_file, "%s", val);
  else if (!strcmp(name, "log"))
    snprintf(cfg.log, sizeof cfg.log, "%s", val);
  else if (!strcmp(name, "port_file") || !strcmp(name, "port-file"))
    snprintf(cfg.port_file, sizeof cfg.port_file, "%s", val);
  else if (!strcmp(name, "threads") || !strcmp(name, "max_record") || !strcmp(name, "max-record") ||
           !strcmp(name, "io_timeout") || !strcmp(name, "io-timeout") || !strcmp(name, "batch")) {
    errno = 0;
    v = strtol(val, &end, 10);
    if (errno || *end || v < 1 || v > 1L << 30) {
      fprintf(stderr, "augurd: %s: %s wants a positive integer, got '%s'\n", where, name, val);
      return -1;
    }
    if (!strcmp(name, "threads"))
      cfg.threads = (int)(v > 256 ? 256 : v);
    else if (!strcmp(name, "batch"))
      cfg.batch = (int)v;
    else if (name[0] == 'm')
      cfg.max_record = (uint32_t)v;
    else
      cfg.io_timeout_s = (int)v;
  } else {
    fprintf(stderr, "augurd: %s: unknown setting '%s'\n", where, name);
    return -1;
  }
  return 0;
}

static int set_conf(void *ctx, const char *name, const char *val, const char *where) {
  (void)ctx;
  return set_opt(name, val, where);
}

static int read_config(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "augurd: cannot open config %s: %s\n", path, strerror(errno));
    return -1;
  }
  char why[4400] = "";
  int rc = mon_conf_read(f, path, set_conf, NULL, why, sizeof why);
  fclose(f);
  if (rc && why[0]) fprintf(stderr, "augurd: %s\n", why);
  return rc ? -1 : 0;
}

static void usage(FILE *f) {
  fprintf(f, "usage: augurd [-c CONFIG] [options]\n"
             "\n"
             "Receives augur job records over TCP and stores them in SQLite or PostgreSQL.\n"
             "\n"
             "options (also settings in CONFIG as 'name = value'):\n"
             "  --listen HOST:PORT   address to listen on (default 127.0.0.1:7077; port 0 = any)\n"
             "  --db FILE|URI        SQLite file (default augur.db), or PostgreSQL:\n"
             "                       postgresql://... or a conninfo 'host=... dbname=...'\n"
             "  --key FILE|munge[:SOCKET]\n"
             "                       HMAC key file (mode 600) or MUNGE (required)\n"
             "  --threads N          connection workers (default 4)\n"
             "  --max-record BYTES   largest record accepted (default 16 MiB)\n"
             "  --io-timeout S       per-connection read/write timeout (default 10)\n"
             "  --batch N            records per transaction at most (default 512)\n"
             "  --log FILE           log file (default: stderr)\n"
             "  --port-file FILE     write the port listened on (for port 0)\n"
             "  -v                   log every stored job\n");
}

static int open_listener(int *port_out) {
  char host[256];
  const char *colon = strrchr(cfg.listen, ':');
  if (!colon || (size_t)(colon - cfg.listen) >= sizeof host) {
    fprintf(stderr, "augurd: --listen wants HOST:PORT, got '%s'\n", cfg.listen);
    return -1;
  }
  memcpy(host, cfg.listen, (size_t)(colon - cfg.listen));
  host[colon - cfg.listen] = 0;
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  int gr = getaddrinfo(host[0] ? host : NULL, colon + 1, &hints, &res);
  if (gr != 0) {
    fprintf(stderr, "augurd: cannot resolve %s: %s\n", cfg.listen, gai_strerror(gr));
    return -1;
  }
  int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
  int one = 1;
  if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 1024) != 0) {
    fprintf(stderr, "augurd: cannot listen on %s: %s\n", cfg.listen, strerror(errno));
    if (fd >= 0) close(fd);
    freeaddrinfo(res);
    return -1;
  }
  freeaddrinfo(res);
  struct sockaddr_storage ss;
  socklen_t sl = sizeof ss;
  getsockname(fd, (struct sockaddr *)&ss, &sl);
  *port_out = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                             : ((struct sockaddr_in *)&ss)->sin_port);
  return fd;
}

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
  if (wake_pipe[1] >= 0) {
    ssize_t w = write(wake_pipe[1], "x", 1);
    (void)w;
  }
}

int main(int argc, char **argv) {
  log_file = stderr;
  /* The config file first, so the command line overrides it. */
  for (int i = 1; i < argc; i++)
    if ((!strcmp(argv[i], "-c") || !strcmp(argv[i], "--config")) && i + 1 < argc) {
      if (read_config(argv[i + 1])) return 2;
    }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--version")) {
      printf("augurd %s\n", AUGUR_VERSION);
      return 0;
    } else if (!strcmp(a, "-v")) {
      cfg.verbose = 1;
    } else if (!strcmp(a, "-c") || !strcmp(a, "--config")) {
      if (++i >= argc) {
        fprintf(stderr, "augurd: %s wants a file\n", a);
        return 2;
      }
    } else if (!strncmp(a, "--", 2) && i + 1 < argc && a[2]) {
      if (set_opt(a + 2, argv[++i], "command line")) return 2;
    } else {
      fprintf(stderr, "augurd: unknown argument '%s' (see augurd --help)\n", a);
      return 2;
    }
  }
  if (!cfg.key_file[0]) {
    fprintf(stderr, "augurd: no key (--key FILE|munge, or 'key = ...' in the config)\n");
    return 2;
  }
  char why[4400];
  if (mon_key_load(&key, cfg.key_file, why, sizeof why)) {
    fprintf(stderr, "augurd: %s\n", why);
    return 1;
  }
  if (cfg.log[0]) {
    log_file = fopen(cfg.log, "a");
    if (!log_file) {
      fprintf(stderr, "augurd: cannot open log %s: %s\n", cfg.log, strerror(errno));
      return 1;
    }
  }
  if (mon_db_open(&db, cfg.db, why, sizeof why)) {
    fprintf(stderr, "augurd: %s\n", why);
    return 1;
  }
  int port = 0;
  int lfd = open_listener(&port);
  if (lfd < 0) return 1;
  if (pipe(wake_pipe) != 0) return 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  pthread_t wt, *ws = calloc((size_t)cfg.threads, sizeof *ws);
  if (!ws || pthread_create(&wt, NULL, writer, NULL) != 0) return 1;
  for (int i = 0; i < cfg.threads; i++)
    if (pthread_create(&ws[i], NULL, worker, NULL) != 0) return 1;
  if (cfg.port_file[0]) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", cfg.port_file);
    FILE *pf = fopen(tmp, "w");
    if (!pf || fprintf(pf, "%d\n", port) < 0 || fclose(pf) != 0 || rename(tmp, cfg.port_file)) {
      fprintf(stderr, "augurd: cannot write %s\n", cfg.port_file);
      return 1;
    }
  }
  char shown[sizeof cfg.db];
  mon_db_redact(cfg.db, shown, sizeof shown); /* never a password in a log */
  logmsg("info", "listening on %s (port %d), database %s, %d workers", cfg.listen, port, shown,
         cfg.threads);

  while (!stopping) {
    struct pollfd p[2] = {{lfd, POLLIN, 0}, {wake_pipe[0], POLLIN, 0}};
    if (poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (p[0].revents & POLLIN) {
      int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
      if (c >= 0) q_push(c);
    }
  }
  close(lfd);
  /* Stop: workers finish what they hold; the writer commits what is queued. */
  pthread_mutex_lock(&q_lock);
  pthread_cond_broadcast(&q_nonempty);
  pthread_cond_broadcast(&q_nonfull);
  pthread_mutex_unlock(&q_lock);
  pthread_mutex_lock(&w_lock);
  pthread_cond_broadcast(&w_work);
  pthread_mutex_unlock(&w_lock);
  pthread_join(wt, NULL);
  logmsg("info",
         "stopping: %llu jobs (%llu processes) stored, %llu duplicates, %llu rejected, "
         "%llu failed transactions (retried by their senders)",
         (unsigned long long)stored_jobs, (unsigned long long)stored_procs,
         (unsigned long long)dup_jobs, (unsigned long long)rejected,
         (unsigned long long)store_failures);
  mon_db_close(db);
  /* Workers still blocked on a slow client are left to the process exit;
   * what they hold was never acked, so its sender keeps it. _exit, not
   * return: exit handlers (libcrypto's, libpq's) must not free what a
   * worker may still be using. */
  free(ws);
  fflush(log_file);
  _exit(0);
}
