/* augur timeline TRACE -o FILE.svg|FILE.html [--from T] [--to T] [--ranks A-B]
 *                [--width PX] [--max-messages N] */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/timeline.h"
#include "cli.h"

/* "1.5ms" -> ns. Returns -1 on a malformed value. */
static int parse_time(const char *opt, const char *s, void *dst) {
  uint64_t *out = dst;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno || !(v >= 0)) {
    cli_usage("%s: '%s' is not a time (e.g. 2.5, 300ms, 40us, 1200ns)", opt, s);
    return -1;
  }
  double mul = 1e9;
  if (!*end || !strcmp(end, "s"))
    mul = 1e9;
  else if (!strcmp(end, "ms"))
    mul = 1e6;
  else if (!strcmp(end, "us") || !strcmp(end, "\xc2\xb5s"))
    mul = 1e3;
  else if (!strcmp(end, "ns"))
    mul = 1;
  else {
    cli_usage("%s: unknown unit '%s' in '%s' (use ns, us, ms or s)", opt, end, s);
    return -1;
  }
  if (v * mul > 1.8e19) {
    cli_usage("%s: '%s' is too large", opt, s);
    return -1;
  }
  *out = (uint64_t)(v * mul + 0.5);
  return 0;
}

/* --ranks A-B or A: into RANKS[0..1]. */
static int parse_ranks(const char *opt, const char *s, void *dst) {
  uint32_t *ranks = dst;
  char *end;
  errno = 0;
  unsigned long a = strtoul(s, &end, 10), b = a;
  if (end == s || errno || a > UINT32_MAX - 1 || s[0] == '-' || s[0] == '+') goto bad;
  if (*end == '-') {
    const char *p = end + 1;
    if (*p < '0' || *p > '9') goto bad;
    b = strtoul(p, &end, 10);
    if (errno || b > UINT32_MAX - 1) goto bad;
  }
  if (*end) goto bad;
  if (b < a) {
    cli_usage("%s: '%s' ends before it starts", opt, s);
    return -1;
  }
  ranks[0] = (uint32_t)a, ranks[1] = (uint32_t)b;
  return 0;
bad:
  cli_usage("%s: '%s' is not a rank range (e.g. 0-3 or 5)", opt, s);
  return -1;
}

static void on_progress(void *arg, uint64_t events) {
  cli_progress_update(arg, "%llu events", (unsigned long long)events);
}

/* The trace's name for the title: its directory name. */
static void trace_name(char *b, size_t n, const char *path) {
  size_t len = strlen(path);
  while (len > 1 && path[len - 1] == '/')
    len--;
  size_t start = len;
  while (start > 0 && path[start - 1] != '/')
    start--;
  snprintf(b, n, "%.*s", (int)(len - start), path + start);
}

int cmd_timeline(int argc, char **argv) {
  const char *out = NULL;
  augur_tl_options o = {0};
  uint32_t ranks[2] = {0, UINT32_MAX}; /* UINT32_MAX: no --ranks */
  long long width = 0, max_messages = 0, group = 0;
  const cli_opt options[] = {
      CLI_STRING("--output", "-o", "FILE", &out, NULL,
                 "output file; the format follows the extension"),
      CLI_CALL("--from", NULL, "T", parse_time, &o.from,
               "start of the window, relative to the trace start: a\n"
               "number with a unit ns, us, ms or s (default s), e.g.\n"
               "1.5ms. Default: the start of the run"),
      CLI_CALL("--to", NULL, "T", parse_time, &o.to,
               "end of the window, like --from. Default: the end of the run"),
      CLI_CALL("--ranks", NULL, "A-B", parse_ranks, ranks,
               "only ranks A to B (or one rank A). Default: all"),
      CLI_INT("--group", "G", &group, 1, UINT32_MAX,
              "a row per G consecutive ranks, each column their mean\n"
              "state; 1: a row per rank. Default: a row per rank up to\n"
              "64 ranks, beyond the fewest ranks a row that make 64 rows"),
      CLI_INT("--width", "PX", &width, 100, 20000,
              "width of the time axis in pixels (default 1600)"),
      CLI_INT("--max-messages", "N", &max_messages, 1, 1000000,
              "draw at most N messages one by one, a sample above\n"
              "(default 2000)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur timeline TRACE -o FILE.svg|FILE.html [--from T] [--to T]\n"
               "                      [--ranks A-B] [--group G] [--width PX]\n"
               "                      [--max-messages N]\n"
               "\n"
               "Draws what every rank did over a window of the run: compute and MPI states\n"
               "(by class), messages as arrows from send to receive, a time axis and a legend.\n"
               "FILE.svg is a standalone picture; FILE.html embeds it with a per-rank summary\n"
               "table and hover details. Large windows are aggregated per pixel column, so\n"
               "the file stays small whatever the trace length (see docs/timeline.md).\n",
      .opts = options,
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *path = args.operand[0];
  int have_ranks = ranks[1] != UINT32_MAX;
  uint32_t rank_lo = ranks[0], rank_hi = ranks[1];
  o.width = (uint32_t)width;
  o.max_arrows = (uint32_t)max_messages;
  if (!out) return cli_usage("missing -o FILE.svg|FILE.html");
  int html = cli_ends_with(out, ".html") || cli_ends_with(out, ".htm");
  if (!html && !cli_ends_with(out, ".svg"))
    return cli_usage("output '%s' must end in .svg or .html", out);
  if (o.to && o.to <= o.from) return cli_usage("--to must be after --from");

  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;
  uint32_t nranks = augur_trace_nranks(t);
  if (have_ranks && rank_hi >= nranks) {
    augur_trace_close(t);
    return cli_usage("--ranks: rank %u outside the trace's %u ranks (0-%u)", rank_hi, nranks,
                     nranks ? nranks - 1 : 0);
  }
  if (have_ranks) o.rank_lo = rank_lo, o.rank_count = rank_hi - rank_lo + 1;
  uint32_t drawn = have_ranks ? o.rank_count : nranks;
  o.group = group ? (uint32_t)group : augur_tl_group_for(drawn);
  if (!group && o.group > 1)
    cli_note("%u ranks drawn %u a row, each column their mean state (--group 1: a row per "
             "rank; --ranks A-B: some of them)",
             drawn, o.group);

  cli_progress prog;
  cli_progress_init(&prog, "reading");
  o.threads = 1; /* a row per thread for traces with OpenMP records */
  o.progress = on_progress;
  o.progress_arg = &prog;
  augur_timeline *tl = NULL;
  augur_error err = {0};
  rc = augur_timeline_build(&tl, t, &o, &err);
  cli_progress_done(&prog);
  if (rc < 0) {
    augur_trace_close(t);
    return cli_fail("%s", err.msg);
  }

  /* Write next to the target and rename: a failed run never leaves a
   * half-written picture under the requested name. */
  char tmp[PATH_MAX + 32], name[256];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", out, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) {
    int e = errno;
    augur_timeline_free(tl);
    augur_trace_close(t);
    return cli_fail("cannot write %s: %s", out, strerror(e));
  }
  trace_name(name, sizeof name, path);
  rc = html ? augur_timeline_write_html(tl, f, name, &err)
            : augur_timeline_write_svg(tl, f, name, &err);
  if (fclose(f) && rc == 0) rc = augur_fail(&err, AUGUR_E_IO, "close failed: %s", strerror(errno));
  if (rc == 0 && rename(tmp, out)) rc = augur_fail(&err, AUGUR_E_IO, "%s", strerror(errno));
  augur_timeline_free(tl);
  augur_trace_close(t);
  if (rc < 0) {
    remove(tmp);
    return cli_fail("cannot write %s: %s", out, err.msg);
  }
  return CLI_OK;
}
