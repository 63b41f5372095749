/* augurd — the augur job-record collector.
 *
 * Threads: one event loop (main), a pool of frame workers, one database
 * writer. The event loop owns every connection: it accepts (non-blocking),
 * reads each connection's frame incrementally as bytes arrive (header
 * first, so an oversized or foreign frame is refused before its payload is
 * read) and gives a connection exactly io_timeout to deliver a whole frame
 * (or, between frames, to start one): a silent, idle or dripping client is
 * closed at its deadline and costs no worker meanwhile. Only a complete
 * frame goes to a worker, which checks the HMAC or the MUNGE credential,
 * validates the record and queues it for the writer. The writer takes
 * everything queued (up to a batch), stores it in one transaction and wakes
 * the workers, which then ack: the ack always follows the commit; the
 * connection then returns to the loop for its next frame. Bounds: at most
 * max_connections connections (a full table evicts the one waiting
 * longest), frame bytes buffered at most max(threads, 4) x max_record
 * (a connection that would exceed it waits, its deadline running). Bad
 * input is logged with the peer and the reason and the connection closed
 * (slow clients: rate-limited); it never stops the daemon.
 * Configuration and threat model: docs/monitoring.md. */
/* _GNU_SOURCE for accept4 and NI_MAXHOST. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <assert.h>
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
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "augur/api.h"
#include "augur/text.h"
#include "io.h"
#include "mon_store.h"

typedef struct config {
  char listen[256];
  char db[4096];
  char key_file[4096];
  char log[4096];
  char port_file[4096];
  int threads;
  int max_conns;
  uint32_t max_record;
  int io_timeout_s;
  int batch;
  int verbose;
} config;

static config cfg = {"127.0.0.1:7077", "augur.db", "",  "", "", 4, 4096,
                     MON_MAX_DEFAULT,  10,         512, 0};
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

/* ---- connections ----
 * A connection is either READING (owned by the event loop, in the epoll
 * set, its deadline running) or WORKING (a complete frame handed to a
 * worker; the loop does not look at it until the worker gives it back). */
enum conn_state { C_READING, C_WORKING, C_CLOSED };

typedef struct conn {
  struct conn *next; /* in the work or the return queue */
  int fd;
  int slot; /* index in the loop's table */
  enum conn_state state;
  int paused; /* READING, out of the epoll set until the buffer budget allows */
  char peer[NI_MAXHOST + NI_MAXSERV + 2];
  uint8_t hdr[MON_HDR];
  uint8_t *frame;    /* header | payload | trailer, grown as bytes arrive */
  size_t have, need; /* bytes of the current frame read / the whole frame */
  size_t cap;        /* bytes allocated at frame (counted in the budget) */
  uint32_t len, auth;
  int64_t deadline; /* monotonic ms: the whole frame (or, idle, its start) by then */
  int keep;         /* set by the worker: 1 read the next frame, 0 close */
} conn;

/* Complete frames, loop -> workers (FIFO). At most one per connection, so
 * bounded by max_connections. */
static conn *q_head, **q_tail = &q_head;
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_nonempty = PTHREAD_COND_INITIALIZER;
/* Served connections, workers -> loop (the wake pipe says there are some). */
static conn *r_head;
static pthread_mutex_t r_lock = PTHREAD_MUTEX_INITIALIZER;

static void q_push(conn *c) {
  pthread_mutex_lock(&q_lock);
  c->next = NULL;
  *q_tail = c;
  q_tail = &c->next;
  pthread_cond_signal(&q_nonempty);
  pthread_mutex_unlock(&q_lock);
}

static conn *q_pop(void) {
  pthread_mutex_lock(&q_lock);
  while (!q_head && !stopping)
    pthread_cond_wait(&q_nonempty, &q_lock);
  conn *c = q_head;
  if (c) {
    q_head = c->next;
    if (!q_head) q_tail = &q_head;
  }
  pthread_mutex_unlock(&q_lock);
  return c;
}

static void wake_loop(void) {
  ssize_t w = write(wake_pipe[1], "x", 1);
  (void)w; /* a full pipe already wakes the loop */
}

static void r_push(conn *c) {
  pthread_mutex_lock(&r_lock);
  c->next = r_head;
  r_head = c;
  pthread_mutex_unlock(&r_lock);
  wake_loop();
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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

/* ---- frame workers ---- */
static int send_ack(int fd, int status, const uint8_t *uid) {
  uint8_t body[MON_ACK_LEN] = {0};
  body[0] = (uint8_t)status;
  memcpy(body + 4, uid, 16);
  uint8_t *frame;
  size_t n;
  char why[512];
  if (mon_frame_build(&key, MON_T_ACK, body, sizeof body, &frame, &n, why, sizeof why) != 0) {
    logmsg("error", "cannot sign an ack (the sender will retry): %s", why);
    return -1;
  }
  int rc = aug_write_all(fd, frame, n, 1, (int64_t)cfg.io_timeout_s * 1000);
  free(frame);
  return rc;
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

/* One complete frame of C (header checked by the loop): authenticate,
 * validate, store, ack. Returns 1 to keep the connection for its next
 * frame, 0 to close it. */
static int serve_frame(conn *c) {
  assert(c->state == C_WORKING && c->have == c->need && c->frame);
  char why[512];
  int64_t cred_uid;
  if (mon_auth_check(&key, c->frame, c->len, c->auth, &cred_uid, why, sizeof why) != 0) {
    reject(c->peer, why);
    return 0;
  }
  const uint8_t *payload = c->frame + MON_HDR;
  if (mon_job_validate(payload, c->len, why, sizeof why) != 0 ||
      owner_check(payload, cred_uid, why, sizeof why) != 0) {
    reject(c->peer, why);
    /* Authenticated but invalid: tell the sender not to try again. */
    if (c->len >= 16) send_ack(c->fd, MON_ACK_REJECTED, payload);
    return 0;
  }
  int st = store(payload, c->len);
  if (cfg.verbose || st != MON_ACK_STORED) {
    augp_job j;
    memcpy(&j, payload, sizeof j);
    char hex[33], id[4 * sizeof j.job_id];
    mon_uid_hex(j.uid, hex);
    logmsg("info", "%s job %s (record %s, %llu processes) from %s",
           st == MON_ACK_STORED      ? "stored"
           : st == MON_ACK_DUPLICATE ? "duplicate, already stored:"
                                     : "could not store",
           augur_text_safe(j.job_id, id, sizeof id), hex, (unsigned long long)j.nprocs, c->peer);
  }
  return send_ack(c->fd, st, payload) == 0;
}

static void *worker(void *arg) {
  (void)arg;
  for (;;) {
    conn *c = q_pop();
    if (!c) break;
    c->keep = serve_frame(c);
    r_push(c);
  }
  return NULL;
}

/* ---- the event loop: accepting and reading (main thread only) ---- */
static conn **table; /* max_connections slots, the first n_conns used */
static conn *dead;   /* closed during this batch of events */
static int n_conns, epfd;
static size_t buffered, budget; /* frame bytes allocated, and their bound */
static int n_paused, room_freed, listen_paused;
static uint64_t slow_closed, evicted;
static char tag_listen, tag_wake; /* epoll data of the listener and the pipe */

/* Slow or idle clients closed at their deadline: one log line per second
 * at most; the ones in between are counted and said by slow_flush. */
static int64_t slow_last = -1000000;
static uint64_t slow_unsaid;

static void log_slow(const conn *c, const char *what) {
  if (now_ms() - slow_last < 1000) {
    slow_unsaid++;
    return;
  }
  logmsg("warning", "closed %s: %s", c->peer, what);
  slow_last = now_ms();
}

static void slow_flush(void) {
  if (!slow_unsaid || now_ms() - slow_last < 1000) return;
  logmsg("warning", "closed %llu more slow or idle connections (or evicted them) since",
         (unsigned long long)slow_unsaid);
  slow_last = now_ms();
  slow_unsaid = 0;
}

static void frame_free(conn *c) {
  room_freed |= c->cap > 0;
  buffered -= c->cap;
  free(c->frame);
  c->frame = NULL;
  c->cap = c->have = c->need = 0;
}

static void watch(conn *c, int on) {
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
  epoll_ctl(epfd, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, c->fd, &ev);
}

/* Closes C and takes it out of the table; freed after the current batch of
 * events (one of them may still name it). */
static void conn_close(conn *c) {
  assert(c && c->state != C_CLOSED && table[c->slot] == c);
  if (c->state == C_READING && !c->paused) watch(c, 0);
  if (c->paused) n_paused--;
  close(c->fd);
  frame_free(c);
  table[c->slot] = table[--n_conns];
  table[c->slot]->slot = c->slot;
  c->state = C_CLOSED;
  c->next = dead;
  dead = c;
}

/* Waits for the next frame: the deadline starts again. */
static void conn_rearm(conn *c) {
  frame_free(c);
  c->state = C_READING;
  c->paused = 0;
  c->deadline = now_ms() + (int64_t)cfg.io_timeout_s * 1000;
  watch(c, 1);
}

static void conn_accept(int lfd) {
  for (int k = 0; k < 64; k++) { /* then let the others be read */
    int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        /* Out of descriptors: stop accepting until the next sweep rather
         * than spin on a listener that stays readable; say so once a
         * second at most. */
        static int64_t said = -1000000;
        if (now_ms() - said >= 1000) {
          logmsg("warning", "accept: %s (raise the open-file limit or lower max_connections)",
                 strerror(errno));
          said = now_ms();
        }
        epoll_ctl(epfd, EPOLL_CTL_DEL, lfd, NULL);
        listen_paused = 1;
      }
      return;
    }
    if (n_conns == cfg.max_conns) {
      /* Full: the connection that has waited longest for its frame goes. */
      conn *old = NULL;
      for (int i = 0; i < n_conns; i++)
        if (table[i]->state == C_READING && (!old || table[i]->deadline < old->deadline))
          old = table[i];
      if (!old) { /* every connection has a frame at a worker */
        close(fd);
        continue;
      }
      evicted++;
      log_slow(old, "connection table full, evicted the one waiting longest");
      conn_close(old);
    }
    conn *c = calloc(1, sizeof *c);
    if (!c) {
      close(fd);
      return;
    }
    c->fd = fd;
    c->slot = n_conns;
    table[n_conns++] = c;
    peer_name(fd, c->peer, sizeof c->peer);
    conn_rearm(c);
  }
}

/* Reads what C has. Returns 0 to go on, -1 when C was closed. */
static int conn_read(conn *c) {
  if (c->state != C_READING) return -1; /* closed earlier in this batch */
  char why[512];
  if (c->have < MON_HDR) {
    ssize_t r = recv(c->fd, c->hdr + c->have, MON_HDR - c->have, 0);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return 0;
    if (r <= 0) {
      if (c->have) reject(c->peer, "malformed: connection closed inside a header");
      conn_close(c); /* r == 0 before a header: the clean end */
      return -1;
    }
    c->have += (size_t)r;
    if (c->have < MON_HDR) return 0;
    uint16_t type;
    if (mon_header_check(c->hdr, cfg.max_record, &type, &c->len, &c->auth, why, sizeof why) != 0 ||
        (type != MON_T_JOB &&
         snprintf(why, sizeof why, "malformed: only job records may be sent to augurd"))) {
      reject(c->peer, why);
      conn_close(c);
      return -1;
    }
    c->need = (size_t)MON_HDR + c->len + MON_TRAILER(c->auth);
  }
  if (c->have >= c->cap) { /* grow by doubling, within the budget */
    size_t want = c->cap ? 2 * c->cap : 65536;
    if (want > c->need) want = c->need;
    if (buffered + (want - c->cap) > budget) {
      watch(c, 0);
      c->paused = 1;
      n_paused++;
      return 0;
    }
    uint8_t *f = realloc(c->frame, want);
    if (!f) {
      logmsg("error", "out of memory for a %u-byte record from %s", c->len, c->peer);
      conn_close(c);
      return -1;
    }
    if (!c->frame) memcpy(f, c->hdr, MON_HDR);
    buffered += want - c->cap;
    c->frame = f;
    c->cap = want;
  }
  ssize_t r = recv(c->fd, c->frame + c->have, c->cap - c->have, 0);
  if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return 0;
  if (r <= 0) {
    reject(c->peer, "malformed: truncated frame (connection closed)");
    conn_close(c);
    return -1;
  }
  c->have += (size_t)r;
  if (c->have == c->need) { /* whole: to a worker, out of the loop's sight */
    watch(c, 0);
    c->state = C_WORKING;
    q_push(c);
  }
  return 0;
}

/* Connections waiting for buffer room try again (after room was freed). */
static void unpause(void) {
  for (int i = 0; i < n_conns && n_paused; i++) {
    conn *c = table[i];
    if (!c->paused) continue;
    c->paused = 0;
    n_paused--;
    watch(c, 1);
  }
}

/* Closes the connections past their deadline. */
static void sweep(void) {
  int64_t now = now_ms();
  for (int i = 0; i < n_conns; i++) {
    conn *c = table[i];
    if (c->state != C_READING || now < c->deadline) continue;
    char what[160];
    if (c->have == 0)
      snprintf(what, sizeof what, "idle for %d s", cfg.io_timeout_s);
    else
      snprintf(what, sizeof what, "no whole frame within %d s (%zu of %zu bytes)", cfg.io_timeout_s,
               c->have, c->need ? c->need : (size_t)MON_HDR);
    slow_closed++;
    log_slow(c, what);
    conn_close(c);
    i--; /* the last one moved into slot i */
  }
  slow_flush();
}

/* Served connections come back: the next frame, or closed. */
static void take_back(void) {
  char drain[256];
  while (read(wake_pipe[0], drain, sizeof drain) > 0) {
  }
  pthread_mutex_lock(&r_lock);
  conn *c = r_head;
  r_head = NULL;
  pthread_mutex_unlock(&r_lock);
  while (c) {
    conn *next = c->next;
    if (c->keep)
      conn_rearm(c);
    else
      conn_close(c);
    c = next;
  }
}

static void event_loop(int lfd) {
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &tag_listen};
  epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &ev);
  ev.data.ptr = &tag_wake;
  epoll_ctl(epfd, EPOLL_CTL_ADD, wake_pipe[0], &ev);
  struct epoll_event evs[256];
  int64_t next_sweep = now_ms() + 100;
  while (!stopping) {
    int left = (int)(next_sweep - now_ms());
    int n = epoll_wait(epfd, evs, 256, left > 0 ? left : 0);
    if (n < 0 && errno != EINTR) {
      logmsg("error", "epoll_wait: %s", strerror(errno));
      break;
    }
    for (int i = 0; i < n && !stopping; i++) {
      void *p = evs[i].data.ptr;
      if (p == &tag_listen)
        conn_accept(lfd);
      else if (p == &tag_wake)
        take_back();
      else
        conn_read(p);
    }
    if (now_ms() >= next_sweep) {
      sweep();
      next_sweep = now_ms() + 100;
      if (listen_paused) { /* accept again */
        ev.data.ptr = &tag_listen;
        epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &ev);
        listen_paused = 0;
      }
    }
    if (n_paused && room_freed) unpause(); /* buffer room came back */
    room_freed = 0;
    while (dead) {
      conn *c = dead;
      dead = c->next;
      free(c);
    }
  }
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
           !strcmp(name, "io_timeout") || !strcmp(name, "io-timeout") || !strcmp(name, "batch") ||
           !strcmp(name, "max_connections") || !strcmp(name, "max-connections")) {
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
    else if (!strncmp(name, "max_c", 5) || !strncmp(name, "max-c", 5))
      cfg.max_conns = (int)(v > 1000000 ? 1000000 : v);
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
             "  --threads N          frame workers (default 4)\n"
             "  --max-connections N  open connections at most (default 4096; a full table\n"
             "                       closes the one that has waited longest)\n"
             "  --max-record BYTES   largest record accepted (default 16 MiB)\n"
             "  --io-timeout S       a whole frame must arrive within S seconds of its\n"
             "                       connection or of the previous ack (default 10)\n"
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
  /* Non-blocking: the event loop accepts until EAGAIN. */
  int fd =
      socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, res->ai_protocol);
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
      printf("augurd %s\n", AUGUR_VERSION_STRING);
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

  /* Each connection is a descriptor: as many as the hard limit allows. */
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      (rlim_t)cfg.max_conns + 64 > rl.rlim_cur) {
    int fit = rl.rlim_cur > 128 ? (int)(rl.rlim_cur - 64) : (int)(rl.rlim_cur / 2);
    logmsg("warning", "max_connections %d lowered to %d (open-file limit %llu)", cfg.max_conns, fit,
           (unsigned long long)rl.rlim_cur);
    cfg.max_conns = fit;
  }
  budget = (size_t)(cfg.threads > 4 ? cfg.threads : 4) * cfg.max_record;
  table = calloc((size_t)cfg.max_conns, sizeof *table);
  epfd = epoll_create1(EPOLL_CLOEXEC);
  if (!table || epfd < 0 || fcntl(wake_pipe[0], F_SETFL, O_NONBLOCK) != 0 ||
      fcntl(wake_pipe[1], F_SETFL, O_NONBLOCK) != 0) {
    fprintf(stderr, "augurd: cannot set up the event loop: %s\n", strerror(errno));
    return 1;
  }
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
  logmsg("info", "listening on %s (port %d), database %s, %d workers, %d connections at most",
         cfg.listen, port, shown, cfg.threads, cfg.max_conns);

  event_loop(lfd);
  close(lfd);
  /* Stop: workers finish what they hold; the writer commits what is queued. */
  pthread_mutex_lock(&q_lock);
  pthread_cond_broadcast(&q_nonempty);
  pthread_mutex_unlock(&q_lock);
  pthread_mutex_lock(&w_lock);
  pthread_cond_broadcast(&w_work);
  pthread_mutex_unlock(&w_lock);
  pthread_join(wt, NULL);
  logmsg("info",
         "stopping: %llu jobs (%llu processes) stored, %llu duplicates, %llu rejected, "
         "%llu failed transactions (retried by their senders), %llu slow or idle connections "
         "closed, %llu evicted",
         (unsigned long long)stored_jobs, (unsigned long long)stored_procs,
         (unsigned long long)dup_jobs, (unsigned long long)rejected,
         (unsigned long long)store_failures, (unsigned long long)slow_closed,
         (unsigned long long)evicted);
  mon_db_close(db);
  /* A worker still sending an ack (to a client not reading it) is left to
   * the process exit, which also closes the loop's connections. _exit, not
   * return: exit handlers (libcrypto's, libpq's) must not free what a
   * worker may still be using. */
  free(ws);
  fflush(log_file);
  _exit(0);
}
