/* augur web — the HTTP side (libmicrohttpd). Read-only by construction:
 * only GET and HEAD, and every request opens the database with
 * SQLITE_OPEN_READONLY (one connection per request keeps the threads of
 * the pool independent). Bound to 127.0.0.1 unless told otherwise, and
 * elsewhere only with a token: given once as ?token=T (answered with a
 * cookie and a redirect that drops it from the URL), as the cookie, or as
 * "Authorization: Bearer T"; compared in constant time.
 *
 * Against DNS rebinding (a page the user visits pointing its own name at
 * 127.0.0.1), a request whose Host is not one of this server's names gets
 * 421. Against slot exhaustion: epoll (no select() limit), many
 * connections, and a deadline per request: a connection has timeout_s
 * from its opening (or the end of its previous request) to deliver a whole
 * request, else the main thread shuts it down, which frees its slot; a
 * nearly full table sheds the connections waiting longest. */
#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "augur/text.h"
#include "mon.h"
#include "web.h"

/* One open connection, from MHD's "started" notice to its "closed" one
 * (which MHD gives before it closes the socket, so fd is valid while the
 * entry is in the list, under lock). */
typedef struct track {
  struct track *prev, *next;
  int fd;
  int64_t since; /* ms: opened, or its previous request answered */
  int busy;      /* in the handler: not timed */
  int cut;       /* shut down by the sweep, not yet closed by MHD */
} track;

typedef struct server {
  const web_opts *o;
  int port;            /* the one listened on */
  char names[32][256]; /* the Host names accepted, lower case */
  int nnames;
  pthread_mutex_t lock; /* the list and the counters */
  track *head;
  int open, limit; /* connections open, at most */
  uint64_t cut_slow, cut_full;
} server;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void add_name(server *s, const char *name, size_t n) {
  if (s->nnames == 32 || n == 0 || n >= sizeof s->names[0]) return;
  for (size_t i = 0; i < n; i++)
    s->names[s->nnames][i] = (char)((name[i] >= 'A' && name[i] <= 'Z') ? name[i] + 32 : name[i]);
  s->names[s->nnames++][n] = 0;
}

/* HOST (a Host header: name, name:port, [v6]:port) is one of ours: its
 * name in the list, its port, if any, the one listened on. */
static int host_ok(const server *s, const char *host) {
  const char *end = host[0] == '[' ? strchr(host, ']') : strchr(host, ':');
  size_t n = host[0] == '[' ? (end ? (size_t)(end - host) + 1 : 0)
                            : (end ? (size_t)(end - host) : strlen(host));
  if (n == 0) return 0;
  const char *port = host + n;
  if (*port) {
    char want[16];
    snprintf(want, sizeof want, ":%d", s->port);
    if (strcmp(port, want)) return 0;
  }
  for (int i = 0; i < s->nnames; i++)
    if (strlen(s->names[i]) == n && !strncasecmp(s->names[i], host, n)) return 1;
  return 0;
}

/* libmicrohttpd's own messages (one per connection a client drops or the
 * sweep cuts): at most one a second, the others counted into the next. */
static void mhd_log(void *cls, const char *fmt, va_list ap) {
  (void)cls;
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static int64_t last = -1000000;
  static unsigned long unsaid;
  char msg[512], safe[4 * 512 + 1];
  vsnprintf(msg, sizeof msg, fmt, ap);
  size_t n = strlen(msg);
  while (n && msg[n - 1] == '\n')
    msg[--n] = 0;
  pthread_mutex_lock(&lock);
  int64_t now = now_ms();
  if (now - last < 1000) {
    unsaid++;
  } else {
    fprintf(stderr, "augur web: libmicrohttpd: %s", augur_text_safe(msg, safe, sizeof safe));
    if (unsaid) fprintf(stderr, " (%lu more messages not shown)", unsaid);
    fputc('\n', stderr);
    last = now;
    unsaid = 0;
  }
  pthread_mutex_unlock(&lock);
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe) {
  server *s = cls;
  if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    track *t = calloc(1, sizeof *t);
    if (!t || !ci) {
      free(t);
      *socket_context = NULL;
      return;
    }
    t->fd = ci->connect_fd;
    t->since = now_ms();
    pthread_mutex_lock(&s->lock);
    t->next = s->head;
    if (s->head) s->head->prev = t;
    s->head = t;
    s->open++;
    pthread_mutex_unlock(&s->lock);
    *socket_context = t;
  } else if (*socket_context) {
    track *t = *socket_context;
    pthread_mutex_lock(&s->lock);
    if (t->prev)
      t->prev->next = t->next;
    else
      s->head = t->next;
    if (t->next) t->next->prev = t->prev;
    s->open--;
    pthread_mutex_unlock(&s->lock);
    free(t);
    *socket_context = NULL;
  }
}

static track *tracked(struct MHD_Connection *c) {
  const union MHD_ConnectionInfo *ci =
      MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return ci ? ci->socket_context : NULL;
}

/* A request answered: the connection's next one gets a new deadline. */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe) {
  (void)con_cls;
  (void)toe;
  server *s = cls;
  track *t = tracked(c);
  if (!t) return;
  pthread_mutex_lock(&s->lock);
  t->busy = 0;
  t->since = now_ms();
  pthread_mutex_unlock(&s->lock);
}

/* Shuts down connections past the deadline and, when the table is nearly
 * full, the ones waiting longest; MHD then sees them end and frees their
 * slots. Called by the main thread a few times a second. */
static void sweep(server *s) {
  int64_t now = now_ms(), limit = (int64_t)s->o->timeout_s * 1000;
  uint64_t slow = 0, full = 0;
  pthread_mutex_lock(&s->lock);
  int open = s->open;
  for (track *t = s->head; t; t = t->next)
    if (!t->busy && !t->cut && now - t->since >= limit) {
      shutdown(t->fd, SHUT_RDWR);
      t->cut = 1;
      slow++;
      open--;
    }
  /* Nearly full: the oldest waiting connections go, down to 7/8. */
  while (open > s->limit - s->limit / 8) {
    track *old = NULL;
    for (track *t = s->head; t; t = t->next)
      if (!t->busy && !t->cut && (!old || t->since < old->since)) old = t;
    if (!old) break;
    shutdown(old->fd, SHUT_RDWR);
    old->cut = 1;
    full++;
    open--;
  }
  s->cut_slow += slow;
  s->cut_full += full;
  pthread_mutex_unlock(&s->lock);
  /* One line a sweep at most (the sweep runs 4 times a second; a flood
   * gives one line per deadline, not one per connection). */
  if (slow || full)
    fprintf(stderr,
            "augur web: closed %llu connection(s) without a whole request within %d s, "
            "%llu more to keep room\n",
            (unsigned long long)slow, s->o->timeout_s, (unsigned long long)full);
}

static int same(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  unsigned char d = na != nb;
  for (size_t i = 0; i < na; i++)
    d |= (unsigned char)(a[i] ^ b[i % (nb ? nb : 1)]);
  return d == 0;
}

static enum MHD_Result answer(struct MHD_Connection *c, unsigned status, const char *type,
                              const char *body, size_t len, const char *cookie,
                              const char *location) {
  struct MHD_Response *r =
      MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
  if (!r) return MHD_NO;
  MHD_add_response_header(r, "Content-Type", type);
  /* Nothing but this page's own styles and inline SVG: a value that ever
   * slipped through escaping could still not run script. */
  MHD_add_response_header(r, "Content-Security-Policy",
                          "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
                          "form-action 'self'; frame-ancestors 'none'");
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
  MHD_add_response_header(r, "Cache-Control", "no-store");
  if (cookie) MHD_add_response_header(r, "Set-Cookie", cookie);
  if (location) MHD_add_response_header(r, "Location", location);
  enum MHD_Result ret = MHD_queue_response(c, status, r);
  MHD_destroy_response(r);
  return ret;
}

static enum MHD_Result text(struct MHD_Connection *c, unsigned status, const char *msg) {
  return answer(c, status, "text/plain; charset=utf-8", msg, strlen(msg), NULL, NULL);
}

typedef struct collect {
  web_req *req;
  int bad;
} collect;

static enum MHD_Result one_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                               const char *value) {
  (void)kind;
  collect *k = cls;
  if (!k->bad && web_req_add(k->req, key, value) < 0) k->bad = 1;
  return MHD_YES;
}

static void log_req(const server *s, const char *method, const char *url, int status) {
  if (!s->o->verbose) return;
  char m[4 * 16 + 1], u[4 * 200 + 1], cut[201];
  snprintf(cut, sizeof cut, "%s", url);
  fprintf(stderr, "augur web: %s %s -> %d\n", augur_text_safe(method, m, sizeof m),
          augur_text_safe(cut, u, sizeof u), status);
}

/* The answer to a whole request (handle's second call). */
static enum MHD_Result respond(server *s, struct MHD_Connection *c, const char *url,
                               const char *method, const char *version, size_t *upload_len) {
  /* Only our own names (DNS rebinding). HTTP/1.1 requires a Host (RFC 9112
   * 3.2); HTTP/1.0 may omit it (no browser does). */
  const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
  if (!host && strcmp(version, MHD_HTTP_VERSION_1_0)) {
    log_req(s, method, url, 400);
    *upload_len = 0;
    return text(c, MHD_HTTP_BAD_REQUEST, "bad request: HTTP/1.1 without a Host header\n");
  }
  if (host && !host_ok(s, host)) {
    log_req(s, method, url, 421);
    *upload_len = 0;
    return text(c, 421,
                "misdirected request: the Host header is not a name of this augur web "
                "(add one with --allow-host NAME)\n");
  }
  if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
    log_req(s, method, url, 405);
    *upload_len = 0;
    return text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "read-only: GET only\n");
  }
  if (s->o->token) {
    const char *t = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
    const char *ck = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, "augur_token");
    const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
    int ok = (ck && same(ck, s->o->token)) ||
             (auth && !strncmp(auth, "Bearer ", 7) && same(auth + 7, s->o->token));
    if (!ok && t && same(t, s->o->token)) {
      /* Logged in: keep the token in a cookie, not in the address bar. */
      char cookie[600];
      snprintf(cookie, sizeof cookie, "augur_token=%.500s; HttpOnly; SameSite=Strict; Path=/",
               s->o->token);
      log_req(s, method, url, 303);
      return answer(c, MHD_HTTP_SEE_OTHER, "text/plain", "", 0, cookie, "/");
    }
    if (!ok) {
      log_req(s, method, url, 403);
      return text(c, MHD_HTTP_FORBIDDEN,
                  "forbidden: this augur web needs its token "
                  "(open /?token=TOKEN once)\n");
    }
  }
  if (strcmp(url, "/")) {
    log_req(s, method, url, 404);
    return text(c, MHD_HTTP_NOT_FOUND, "not found\n");
  }
  web_req *req = malloc(sizeof *req);
  if (!req) return text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
  web_req_init(req);
  req->pe_threshold = s->o->pe_threshold;
  collect k = {req, 0};
  MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, one_arg, &k);
  web_buf page = {0};
  int status;
  if (k.bad) {
    status = 400;
    wb_raw(&page, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>augur: "
                  "bad request</title></head><body><p class=\"err\" id=\"error\">bad request: ");
    wb_html(&page, req->error);
    wb_raw(&page, "</p><p><a href=\"/\">start again</a></p></body></html>\n");
  } else {
    status = web_page(s->o->db, req, &page);
  }
  free(req);
  enum MHD_Result ret;
  if (page.oom) {
    status = 500;
    ret = text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
  } else {
    ret = answer(c, (unsigned)status, "text/html; charset=utf-8", page.b ? page.b : "", page.len,
                 NULL, NULL);
  }
  log_req(s, method, url, status);
  wb_free(&page);
  return ret;
}

/* The deadline does not run while a page is being made (a large database
 * may take a while); it starts again when the answer is queued, for its
 * sending and the next request. */
static void mark_busy(server *s, struct MHD_Connection *c, int busy) {
  track *t = tracked(c);
  if (!t) return;
  pthread_mutex_lock(&s->lock);
  t->busy = busy;
  t->since = now_ms();
  pthread_mutex_unlock(&s->lock);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_len, void **con_cls) {
  (void)upload;
  server *s = cls;
  /* The first call only announces the request (headers); answer on the
   * second so a body, which we refuse anyway, is not half-read. */
  if (!*con_cls) {
    *con_cls = s;
    return MHD_YES;
  }
  mark_busy(s, c, 1);
  enum MHD_Result ret = respond(s, c, url, method, version, upload_len);
  mark_busy(s, c, 0);
  return ret;
}

int web_run(const web_opts *o, char *why, size_t whyn) {
  struct sockaddr_in sa;
  memset(&sa, 0, sizeof sa);
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)o->port);
  if (inet_pton(AF_INET, o->host, &sa.sin_addr) != 1) {
    snprintf(why, whyn, "'%s' is not an IPv4 address", o->host);
    return -1;
  }
  /* The pool's threads must not take SIGINT/SIGTERM: the main thread waits
   * for them below and shuts down cleanly. */
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, &old);
  static server s; /* large (the names); one per process */
  memset(&s, 0, sizeof s);
  s.o = o;
  pthread_mutex_init(&s.lock, NULL);
  /* The names a browser may use for us: the bind address, loopback's, this
   * host's name, and the ones given. */
  add_name(&s, o->host, strlen(o->host));
  add_name(&s, "localhost", 9);
  add_name(&s, "127.0.0.1", 9);
  add_name(&s, "[::1]", 5);
  char me[256] = "";
  if (gethostname(me, sizeof me - 1) == 0) add_name(&s, me, strlen(me));
  for (const char *a = o->allow_hosts; a && *a;) {
    size_t n = strcspn(a, ",");
    add_name(&s, a, n);
    a += n + (a[n] == ',');
  }
  /* Each connection is a descriptor: up to 4096, within the open-file limit. */
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  s.limit = 4096;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      rl.rlim_cur < (rlim_t)s.limit + 64)
    s.limit = rl.rlim_cur > 128 ? (int)rl.rlim_cur - 64 : 64;
  struct MHD_Daemon *d = MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG, 0, NULL, NULL, handle,
      &s, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
      MHD_OPTION_THREAD_POOL_SIZE, 4u, MHD_OPTION_CONNECTION_LIMIT, (unsigned)s.limit,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)o->timeout_s, MHD_OPTION_NOTIFY_CONNECTION,
      on_connection, &s, MHD_OPTION_NOTIFY_COMPLETED, on_completed, &s, MHD_OPTION_END);
  if (!d) {
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    snprintf(why, whyn, "cannot listen on %s:%d (in use, or not an address of this host?)", o->host,
             o->port);
    return -1;
  }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
  int port = info ? info->port : o->port;
  s.port = port;
  fprintf(stderr, "augur web: serving %s on http://%s:%d/%s\n", o->db, o->host, port,
          o->token ? " (token required)" : "");
  if (o->port_file) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", o->port_file);
    FILE *f = fopen(tmp, "w");
    if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f) != 0 || rename(tmp, o->port_file) != 0) {
      MHD_stop_daemon(d);
      pthread_sigmask(SIG_SETMASK, &old, NULL);
      snprintf(why, whyn, "cannot write the port file %s", o->port_file);
      return -1;
    }
  }
  int sig = -1;
  struct timespec quarter = {0, 250000000};
  while (sig < 0) {
    sig = sigtimedwait(&set, NULL, &quarter);
    if (sig < 0 && errno != EAGAIN && errno != EINTR) break;
    sweep(&s);
  }
  fprintf(stderr, "augur web: signal %d, stopping\n", sig);
  MHD_stop_daemon(d);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return 0;
}
