/* Shared CLI plumbing: messages, option values, trace opening, progress. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

const char *cli_prog = "augur";

static void vline(const char *fmt, va_list ap) {
  fprintf(stderr, "%s: ", cli_prog);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

int cli_usage(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vline(fmt, ap);
  va_end(ap);
  return CLI_USAGE;
}

int cli_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vline(fmt, ap);
  va_end(ap);
  return CLI_FAIL;
}

void cli_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vline(fmt, ap);
  va_end(ap);
}

int cli_is_help(const char *arg) {
  return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

int cli_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n > k && !strcmp(s + n - k, suffix);
}

int cli_parse_real(const char *opt, const char *val, double min, double max, const char *what,
                   double *out) {
  char *end = NULL;
  double v = strtod(val, &end);
  if (!end || *end || end == val || !(v >= min && v <= max) || !isfinite(v)) {
    cli_usage("%s: expected %s, got '%s'", opt, what, val);
    return -1;
  }
  *out = v;
  return 0;
}

int cli_parse_int(const char *opt, const char *val, long long min, long long max, long long *out) {
  char *end = NULL;
  errno = 0;
  long long v = strtoll(val, &end, 10);
  if (!*val || *end || errno || v < min || v > max) {
    if (max == LLONG_MAX)
      cli_usage("%s wants an integer >= %lld, got '%s'", opt, min, val);
    else
      cli_usage("%s wants an integer in %lld..%lld, got '%s'", opt, min, max, val);
    return -1;
  }
  *out = v;
  return 0;
}

int cli_open_trace(const char *path, augur_trace **t) {
  struct stat st;
  if (stat(path, &st) != 0) return cli_fail("no such trace: %s", path);
  if (!S_ISDIR(st.st_mode))
    return cli_fail("not a trace: %s (a trace is a NAME.augur directory)", path);
  augur_error err = {0};
  if (augur_trace_open(t, path, &err) != AUGUR_OK) return cli_fail("%s", err.msg);
  return CLI_OK;
}

const char *cli_incomplete(const augur_trace *t, char *buf, size_t n) {
  int unfinished = augur_trace_incomplete(t, buf, n);
  /* Blocks the reader dropped (repeated, or back in time): the results use
   * the blocks kept, but the input was damaged and the output says so. */
  size_t dropped = 0;
  uint32_t first = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    size_t k = augur_trace_dropped(t, r, NULL);
    if (k && !dropped) first = r;
    dropped += k;
  }
  if (dropped && n) {
    size_t len = strlen(buf);
    snprintf(buf + len, n - len,
             "%strace damaged: %zu events block%s dropped (repeated or out of time order), the "
             "first in rank %u; results use the blocks kept (see augur info)",
             len ? "; " : "", dropped, dropped > 1 ? "s" : "", first);
  }
  return unfinished > 0 || dropped ? buf : NULL;
}

/* ,"kept": [...] for cli_print_json: per rank, the events that survived, the
 * end of the last one (s, global timeline) and whether it reached
 * MPI_Finalize. */
static void print_kept(const augur_trace *t) {
  fputs(",\"kept\": [", stdout);
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++)
    printf("%s{\"rank\": %u, \"events\": %llu, \"last_s\": %.9g, \"finalized\": %s}", r ? ", " : "",
           r, (unsigned long long)augur_trace_nevents(t, r),
           (double)augur_trace_rank_end_ns(t, r) / 1e9,
           augur_trace_rank_finished(t, r) ? "true" : "false");
  fputc(']', stdout);
}

int cli_print_json(const augur_trace *t, const char *json, size_t len, const char *incomplete) {
  const char *p = json, *end = json + len;
  while (p < end && *p != '{')
    p++;
  if (!incomplete || p == end) {
    fwrite(json, 1, len, stdout);
  } else {
    const char *q = ++p; /* the member keeps the document's own indentation */
    while (q < end && (*q == ' ' || *q == '\n' || *q == '\t'))
      q++;
    fwrite(json, 1, (size_t)(q - json), stdout);
    fputs("\"incomplete\": \"", stdout);
    for (const char *c = incomplete; *c; c++) {
      if (*c == '"' || *c == '\\') fputc('\\', stdout);
      fputc(*c, stdout);
    }
    fputc('"', stdout);
    if (t) print_kept(t);
    if (q < end && *q != '}') {
      fputc(',', stdout);
      fwrite(p, 1, (size_t)(q - p), stdout);
      if (q == p) fputc(' ', stdout);
    }
    fwrite(q, 1, (size_t)(end - q), stdout);
  }
  if (len && json[len - 1] != '\n') fputc('\n', stdout);
  return ferror(stdout) ? CLI_FAIL : CLI_OK;
}

uint64_t cli_mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void cli_progress_init(cli_progress *p, const char *what) {
  /* Only a human watching a terminal wants this; logs and pipes stay clean. */
  p->on = isatty(STDERR_FILENO);
  p->start_ns = p->last_ns = cli_mono_ns();
  p->what = what;
}

void cli_progress_update(cli_progress *p, const char *fmt, ...) {
  if (!p->on) return;
  uint64_t t = cli_mono_ns();
  if (t - p->last_ns < 200000000u) return; /* 5 updates a second is plenty */
  p->last_ns = t;
  fprintf(stderr, "\r%s: %s ", cli_prog, p->what);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\033[K");
  fflush(stderr);
}

void cli_progress_count(cli_progress *p, const char *unit, uint64_t done, uint64_t total) {
  if (!p->on) return;
  unsigned long long d = (unsigned long long)done, n = (unsigned long long)total;
  if (total == 0 || done > total) {
    cli_progress_update(p, "%llu %s", d, unit);
    return;
  }
  double spent = (double)(cli_mono_ns() - p->start_ns) * 1e-9;
  unsigned pct = (unsigned)((double)done * 100.0 / (double)total);
  if (spent < 1 || done == 0) {
    cli_progress_update(p, "%llu of %llu %s (%u %%)", d, n, unit, pct);
    return;
  }
  double left = spent * (double)(total - done) / (double)done;
  /* seconds (a tenth below 10), minutes from 2 min, hours (a tenth) from 2 h */
  const char *in = left < 120 ? "s" : left < 7200 ? "min" : "h";
  double v = left < 120 ? left : left < 7200 ? left / 60 : left / 3600;
  int tenths = left < 10 || left >= 7200;
  cli_progress_update(p, "%llu of %llu %s (%u %%), about %.*f %s left", d, n, unit, pct, tenths, v,
                      in);
}

void cli_progress_records(void *arg, uint64_t done, uint64_t total) {
  cli_progress_count(arg, "records", done, total);
}

void cli_progress_events(void *arg, uint64_t done, uint64_t total) {
  cli_progress_count(arg, "events", done, total);
}

void cli_progress_ranks(void *arg, uint32_t rank, uint32_t nranks, uint64_t events) {
  cli_progress_update(arg, "rank %u/%u, %llu events", rank, nranks, (unsigned long long)events);
}

void cli_progress_done(cli_progress *p) {
  if (!p->on) return;
  fprintf(stderr, "\r\033[K");
  fflush(stderr);
}
