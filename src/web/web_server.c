/* augur web — the HTTP side (libmicrohttpd). Read-only by construction:
 * only GET and HEAD, and every request opens the database with
 * SQLITE_OPEN_READONLY (one connection per request keeps the threads of
 * the pool independent). Bound to 127.0.0.1 unless told otherwise, and
 * elsewhere only with a token: given once as ?token=T (answered with a
 * cookie and a redirect that drops it from the URL), as the cookie, or as
 * "Authorization: Bearer T"; compared in constant time. */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "web.h"

typedef struct server {
  const web_opts *o;
} server;

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
  fprintf(stderr, "augur web: %s %.200s -> %d\n", method, url, status);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_len, void **con_cls) {
  (void)version;
  (void)upload;
  server *s = cls;
  /* The first call only announces the request (headers); answer on the
   * second so a body, which we refuse anyway, is not half-read. */
  if (!*con_cls) {
    *con_cls = s;
    return MHD_YES;
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
  server s = {o};
  struct MHD_Daemon *d = MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL, handle, &s,
      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa, MHD_OPTION_THREAD_POOL_SIZE, 4u,
      MHD_OPTION_CONNECTION_LIMIT, 256u, MHD_OPTION_CONNECTION_TIMEOUT, 30u, MHD_OPTION_END);
  if (!d) {
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    snprintf(why, whyn, "cannot listen on %s:%d (in use, or not an address of this host?)", o->host,
             o->port);
    return -1;
  }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
  int port = info ? info->port : o->port;
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
  int sig = 0;
  sigwait(&set, &sig);
  fprintf(stderr, "augur web: signal %d, stopping\n", sig);
  MHD_stop_daemon(d);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return 0;
}
