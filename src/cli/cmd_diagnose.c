/* augur diagnose TRACE [--json] [--html FILE] [--min-share F] [--eager-limit BYTES] */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/diagnose.h"
#include "cli.h"

static void help(void) {
  printf("usage: augur diagnose TRACE [--json] [--html FILE] [--min-share F]\n"
         "                      [--eager-limit BYTES]\n"
         "\n"
         "Finds where the run loses time and why: exact wait states at every blocking\n"
         "point (late sender, late receiver, wrong order, waits at collectives and\n"
         "barriers, late broadcast, early reduce), their causes (blocked-sender chains,\n"
         "multiple output, master/worker balance, load imbalance, late arrival,\n"
         "serialization, slow communication), the call sites involved, what to change\n"
         "and what fixing it would save. Method: docs/diagnose.md.\n"
         "\n"
         "options:\n"
         "  --json              print the diagnosis as JSON (schema: docs/diagnose.md)\n"
         "  --html FILE         also write a self-contained page with the timeline,\n"
         "                      the problem spots marked, and the findings\n"
         "  --min-share F       report findings from this share of process-time on:\n"
         "                      a fraction (0.05) or a percentage (5%%). Default 2%%\n"
         "  --eager-limit BYTES standard sends up to BYTES complete without their\n"
         "                      receive (default: inferred from the trace)\n"
         "  -h, --help          show this help\n");
}

static void on_progress(void *arg, uint64_t events, uint64_t total) {
  cli_progress_update(arg, "%llu of %llu events", (unsigned long long)events,
                      (unsigned long long)total);
}

/* "0.05" or "5%" -> 0.05; the share must be in [0, 1). */
static int parse_share(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end != s && *end == '%' && end[1] == '\0') {
    v /= 100;
    end++;
  }
  if (end == s || *end || errno || !(v >= 0 && v < 1)) {
    cli_usage("--min-share: '%s' is not a share in [0, 1) (e.g. 0.05 or 5%%)", s);
    return -1;
  }
  *out = v > 0 ? v : 1e-12; /* 0 means "report everything" */
  return 0;
}

static int write_html(const augur_diagnosis *d, augur_trace *t, const char *file) {
  FILE *f = fopen(file, "w");
  if (!f) return cli_fail("cannot write %s: %s", file, strerror(errno));
  augur_error err = {0};
  int rc = augur_diagnosis_write_html(d, t, f, augur_trace_path(t), &err);
  if (fclose(f) && rc == 0) return cli_fail("writing %s failed: %s", file, strerror(errno));
  if (rc < 0) return cli_fail("%s: %s", file, err.msg);
  return CLI_OK;
}

int cmd_diagnose(int argc, char **argv) {
  const char *path = NULL, *val = NULL, *html = NULL;
  int json = 0;
  augur_dx_options opt;
  memset(&opt, 0, sizeof opt);
  for (int i = 1; i < argc; i++) {
    int m;
    long long v;
    if (cli_is_help(argv[i])) {
      help();
      return CLI_OK;
    } else if (!strcmp(argv[i], "--json")) {
      json = 1;
    } else if ((m = cli_opt_value(argc, argv, &i, "--html", NULL, &val)) != 0) {
      if (m < 0) return CLI_USAGE;
      html = val;
    } else if ((m = cli_opt_value(argc, argv, &i, "--min-share", NULL, &val)) != 0) {
      if (m < 0 || parse_share(val, &opt.min_share) < 0) return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--eager-limit", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_int("--eager-limit", val, 1, LLONG_MAX, &v) < 0) return CLI_USAGE;
      opt.eager_limit = (uint64_t)v;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      return cli_usage("unknown option '%s' (see 'augur diagnose --help')", argv[i]);
    } else if (path) {
      return cli_usage("unexpected argument '%s': one trace at a time", argv[i]);
    } else {
      path = argv[i];
    }
  }
  if (!path) return cli_usage("missing TRACE (usage: augur diagnose TRACE [--json] [--html FILE])");

  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;
  cli_progress prog;
  cli_progress_init(&prog, "diagnosing");
  opt.progress = on_progress;
  opt.progress_arg = &prog;
  augur_diagnosis *d = NULL;
  augur_error err = {0};
  int st = augur_diagnose(t, &opt, &d, &err);
  cli_progress_done(&prog);
  if (st < 0) {
    augur_trace_close(t);
    return cli_fail("%s", err.msg);
  }
  char ibuf[AUGUR_INCOMPLETE_MAX];
  const char *inc = cli_incomplete(t, ibuf, sizeof ibuf);
  if (json) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    st = m ? augur_diagnosis_write_json(d, m, &err)
           : augur_fail(&err, AUGUR_E_NOMEM, "out of memory");
    if (m && fclose(m) == 0 && st >= 0) cli_print_json(t, buf, len, inc);
    free(buf);
  } else {
    if (inc) printf("%s\n\n", inc);
    st = augur_diagnosis_write_text(d, stdout, &err);
  }
  rc = st < 0 ? cli_fail("%s", err.msg) : CLI_OK;
  if (rc == CLI_OK && html) rc = write_html(d, t, html);
  augur_diagnosis_free(d);
  augur_trace_close(t);
  return rc;
}
