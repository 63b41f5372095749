/* augur web — the read-only web UI over the monitoring database
 * (libaugur_web, static; `augur web` in src/cli/cmd_web.c starts it).
 *
 * web_server.c  libmicrohttpd: binding, token, routing, headers
 * web_req.c     request parameters: parsed and checked against whitelists
 * web_page.c    the page: pickers, job summary, table, "show the SQL"
 * web_svg.c     bar, line and scatter charts as inline SVG
 * web_buf.c     a growing output buffer with HTML and URL escaping */
#ifndef AUGUR_WEB_H
#define AUGUR_WEB_H

#include <stddef.h>

#include "mon_query.h"

/* ---- output buffer (web_buf.c) ---- */
typedef struct web_buf {
  char *b;
  size_t len, cap;
  int oom; /* an allocation failed: the page is answered with 500 */
} web_buf;

void wb_free(web_buf *w);
void wb_raw(web_buf *w, const char *s);
void wb_printf(web_buf *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Text with & < > " ' escaped: safe in element content and quoted attributes. */
void wb_html(web_buf *w, const char *s);
/* A query-string component, percent-encoded. */
void wb_url(web_buf *w, const char *s);
/* A number as %.6g, or "–" for NaN. */
void wb_num(web_buf *w, double v);

/* ---- request (web_req.c) ---- */
enum web_view { WEB_TABLE, WEB_BAR, WEB_LINE, WEB_SCATTER, WEB_NVIEW };
extern const char *const web_view_names[WEB_NVIEW];

#define WEB_MAXM   12
#define WEB_MAXVAL 256

typedef struct web_req {
  int by;       /* -1: not given (chosen from the filters) */
  int by_given; /* 1 when the URL names the resolution */
  char cluster[WEB_MAXVAL], user[WEB_MAXVAL], step[WEB_MAXVAL], node[WEB_MAXVAL],
      program[WEB_MAXVAL];
  long long job, proc, rank;
  int has_rank;
  int nm; /* metrics the URL names (none: the resolution's defaults) */
  char metric[WEB_MAXM][72];
  int nagg;
  int agg[MON_AGG_N]; /* none: each metric's preferred aggregation */
  int view;
  char order[80]; /* "" (the key) or "metric_agg" */
  int desc;
  long long limit;
  int show_sql;
  /* Not a URL parameter: the server's --pe-threshold (a fraction; default
   * MON_PE_THRESHOLD_DEFAULT): jobs below it are flagged. */
  double pe_threshold;
  char error[300]; /* set when a parameter is bad: answer 400 */
} web_req;

/* One query-string pair; returns 0, or -1 with req->error set. */
int web_req_add(web_req *r, const char *key, const char *value);
void web_req_init(web_req *r);

/* ---- page (web_page.c) ---- */
/* Renders the page for req from the database at dbpath into out. Returns
 * the HTTP status: 200, 400 (bad parameter: out holds the error page) or
 * 500 (database error). */
int web_page(const char *dbpath, web_req *req, web_buf *out);

/* ---- charts (web_svg.c) ---- */
typedef struct web_series {
  const char *title; /* "wall_s max" */
  const double *v;   /* one per row, NaN = none */
} web_series;
/* Charts of n rows; labels[i] names row i, links[i] its drill-down URL
 * (already escaped for an attribute, may be NULL). */
void web_svg(web_buf *w, int view, int n, const char *const *labels, const char *const *links,
             int nseries, const web_series *series);

/* ---- server (web_server.c) ---- */
typedef struct web_opts {
  const char *db;
  const char *host; /* numeric IPv4 address */
  int port;
  const char *token; /* NULL: none (only allowed on loopback) */
  const char *port_file;
  int verbose;
  const char *allow_hosts; /* more Host names accepted, comma list, or NULL */
  int timeout_s;           /* a whole request within this (>= 1) */
  double pe_threshold;     /* flag jobs below this parallel efficiency (a fraction) */
} web_opts;

/* Serves until SIGINT/SIGTERM. 0, or -1 with why. */
int web_run(const web_opts *o, char *why, size_t whyn);

#endif
