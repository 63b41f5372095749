/* augur diagnose TRACE [--json] [--html FILE] [--min-share F] [--eager-limit BYTES]
 *                [--no-ideal] */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/diagnose.h"
#include "augur/pop.h"
#include "cli.h"
#include "cli_summary.h"

static void on_progress(void *arg, uint64_t events, uint64_t total) {
  cli_progress_update(arg, "%llu of %llu events", (unsigned long long)events,
                      (unsigned long long)total);
}

/* "0.05" or "5%" -> 0.05; the share must be in [0, 1). */
static int parse_share(const char *opt, const char *s, void *dst) {
  double *out = dst;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end != s && *end == '%' && end[1] == '\0') {
    v /= 100;
    end++;
  }
  if (end == s || *end || errno || !(v >= 0 && v < 1)) {
    cli_usage("%s: '%s' is not a share in [0, 1) (e.g. 0.05 or 5%%)", opt, s);
    return -1;
  }
  *out = v > 0 ? v : 1e-12; /* 0 means "report everything" */
  return 0;
}

/* The POP efficiencies' sections (docs/pop.md) as the page's tables: the
 * diagnosis does not depend on them, so they are composed here. */
size_t cli_pop_figures(const augur_pop *pop, augur_pop_section sec[2],
                       augur_dx_figure rows[2][AUGUR_POP_ROWS], augur_dx_figures figs[2]) {
  static const char *const ids[2] = {"efficiencies", "efficiencies-hybrid"};
  size_t n = augur_pop_sections(pop, sec);
  for (size_t k = 0; k < n; k++) {
    for (size_t i = 0; i < sec[k].nrows; i++) {
      const augur_pop_row *r = &sec[k].rows[i];
      rows[k][i] = (augur_dx_figure){r->key, r->name, r->what, r->depth, r->value};
    }
    figs[k] = (augur_dx_figures){.id = ids[k],
                                 .title = sec[k].title,
                                 .notes = sec[k].notes,
                                 .nnotes = sec[k].nnotes,
                                 .rows = rows[k],
                                 .nrows = sec[k].nrows,
                                 .detail = sec[k].detail};
  }
  return n;
}

static int write_html(const augur_diagnosis *d, augur_trace *t, const char *file, int ideal) {
  augur_pop pop;
  augur_error err = {0};
  if (augur_pop_trace(t, ideal, &pop, &err) != AUGUR_OK) return cli_fail("%s", err.msg);
  augur_pop_section sec[2];
  augur_dx_figure rows[2][AUGUR_POP_ROWS];
  augur_dx_figures figs[2];
  size_t nfigs = cli_pop_figures(&pop, sec, rows, figs);
  FILE *f = fopen(file, "w");
  if (!f) {
    augur_pop_free(&pop);
    return cli_fail("cannot write %s: %s", file, strerror(errno));
  }
  int rc = augur_diagnosis_write_html(d, t, f, augur_trace_path(t), figs, nfigs, &err);
  augur_pop_free(&pop);
  if (fclose(f) && rc == 0) return cli_fail("writing %s failed: %s", file, strerror(errno));
  if (rc < 0) return cli_fail("%s: %s", file, err.msg);
  return CLI_OK;
}

int cmd_diagnose(int argc, char **argv) {
  const char *html = NULL;
  int json = 0, no_ideal = 0;
  long long eager = 0;
  augur_dx_options opt;
  memset(&opt, 0, sizeof opt);
  const cli_opt options[] = {
      CLI_FLAG("--json", NULL, &json, "print the diagnosis as JSON (schema: docs/diagnose.md)"),
      CLI_STRING("--html", NULL, "FILE", &html, NULL,
                 "also write a self-contained page with the POP\n"
                 "efficiencies, the timeline, the problem spots marked,\n"
                 "and the findings"),
      CLI_CALL("--min-share", NULL, "F", parse_share, &opt.min_share,
               "report findings from this share of process-time on:\n"
               "a fraction (0.05) or a percentage (5%). Default 2%"),
      CLI_INT("--eager-limit", "BYTES", &eager, 1, LLONG_MAX,
              "standard sends up to BYTES complete without their\n"
              "receive (default: inferred from the trace)"),
      CLI_FLAG("--no-ideal", NULL, &no_ideal,
               "with --html: the efficiencies without the replay on\n"
               "the ideal network (serialisation and transfer not\n"
               "computed; docs/pop.md)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur diagnose TRACE [--json] [--html FILE] [--min-share F]\n"
               "                      [--eager-limit BYTES] [--no-ideal]\n"
               "\n"
               "Finds where the run loses time and why: exact wait states at every blocking\n"
               "point (late sender, late receiver, wrong order, waits at collectives and\n"
               "barriers, late broadcast, early reduce), their causes (blocked-sender chains,\n"
               "multiple output, master/worker balance, load imbalance, late arrival,\n"
               "serialization, slow communication), the call sites involved, what to change\n"
               "and what fixing it would save. Method: docs/diagnose.md.\n",
      .opts = options,
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *path = args.operand[0];
  if (no_ideal && !html) return cli_usage("--no-ideal goes with --html FILE");
  opt.eager_limit = (uint64_t)eager;

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
  if (rc == CLI_OK && html) rc = write_html(d, t, html, !no_ideal);
  augur_diagnosis_free(d);
  augur_trace_close(t);
  return rc;
}
