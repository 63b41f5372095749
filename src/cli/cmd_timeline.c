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

static void help(void) {
  printf("usage: augur timeline TRACE -o FILE.svg|FILE.html [--from T] [--to T]\n"
         "                      [--ranks A-B] [--width PX] [--max-messages N]\n"
         "\n"
         "Draws what every rank did over a window of the run: compute and MPI states\n"
         "(by class), messages as arrows from send to receive, a time axis and a legend.\n"
         "FILE.svg is a standalone picture; FILE.html embeds it with a per-rank summary\n"
         "table and hover details. Large windows are aggregated per pixel column, so\n"
         "the file stays small whatever the trace length (see docs/timeline.md).\n"
         "\n"
         "options:\n"
         "  -o, --output FILE   output file; the format follows the extension\n"
         "  --from T, --to T    window, relative to the trace start; T is a number\n"
         "                      with a unit ns, us, ms or s (default s), e.g. 1.5ms.\n"
         "                      Default: the whole run\n"
         "  --ranks A-B         only ranks A to B (or one rank A). Default: all\n"
         "  --width PX          width of the time axis in pixels (default 1600)\n"
         "  --max-messages N    draw at most N messages one by one, a sample above\n"
         "                      (default 2000)\n"
         "  -h, --help          show this help\n");
}

/* "1.5ms" -> ns. Returns -1 on a malformed value. */
static int parse_time(const char *opt, const char *s, uint64_t *out) {
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

static int parse_ranks(const char *s, uint32_t *lo, uint32_t *hi) {
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
    cli_usage("--ranks: '%s' ends before it starts", s);
    return -1;
  }
  *lo = (uint32_t)a, *hi = (uint32_t)b;
  return 0;
bad:
  cli_usage("--ranks: '%s' is not a rank range (e.g. 0-3 or 5)", s);
  return -1;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n > k && !strcmp(s + n - k, suffix);
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
  const char *path = NULL, *out = NULL, *val = NULL;
  augur_tl_options o = {0};
  uint32_t rank_lo = 0, rank_hi = 0;
  int have_ranks = 0;
  for (int i = 1; i < argc; i++) {
    int m;
    long long n;
    if (cli_is_help(argv[i])) {
      help();
      return CLI_OK;
    } else if ((m = cli_opt_value(argc, argv, &i, "--output", "-o", &val)) != 0) {
      if (m < 0) return CLI_USAGE;
      out = val;
    } else if ((m = cli_opt_value(argc, argv, &i, "--from", NULL, &val)) != 0) {
      if (m < 0 || parse_time("--from", val, &o.from) < 0) return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--to", NULL, &val)) != 0) {
      if (m < 0 || parse_time("--to", val, &o.to) < 0) return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--ranks", NULL, &val)) != 0) {
      if (m < 0 || parse_ranks(val, &rank_lo, &rank_hi) < 0) return CLI_USAGE;
      have_ranks = 1;
    } else if ((m = cli_opt_value(argc, argv, &i, "--width", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_int("--width", val, 100, 20000, &n) < 0) return CLI_USAGE;
      o.width = (uint32_t)n;
    } else if ((m = cli_opt_value(argc, argv, &i, "--max-messages", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_int("--max-messages", val, 1, 1000000, &n) < 0) return CLI_USAGE;
      o.max_arrows = (uint32_t)n;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      return cli_usage("unknown option '%s' (see 'augur timeline --help')", argv[i]);
    } else if (path) {
      return cli_usage("unexpected argument '%s': one trace at a time", argv[i]);
    } else {
      path = argv[i];
    }
  }
  if (!path) return cli_usage("missing TRACE (usage: augur timeline TRACE -o FILE.svg|FILE.html)");
  if (!out) return cli_usage("missing -o FILE.svg|FILE.html");
  int html = ends_with(out, ".html") || ends_with(out, ".htm");
  if (!html && !ends_with(out, ".svg"))
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

  cli_progress prog;
  cli_progress_init(&prog, "reading");
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
