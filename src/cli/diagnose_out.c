/* `augur diagnose`'s options and output (cli_diagnose.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_diagnose.h"
#include "cli_summary.h"
#include "dx_html.h"

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

int cli_diagnose_html(const augur_diagnosis *d, augur_trace *t, const augur_pop *pop,
                      struct augur_timeline *tl, const cli_diagnose_opts *o) {
  augur_error err = {0};
  augur_pop_section sec[2];
  augur_dx_figure rows[2][AUGUR_POP_ROWS];
  augur_dx_figures figs[2];
  size_t nfigs = cli_pop_figures(pop, sec, rows, figs);
  FILE *f = fopen(o->html, "w");
  if (!f) {
    augur_timeline_free(tl);
    return cli_fail("cannot write %s: %s", o->html, strerror(errno));
  }
  int rc = aug_dx_write_html_tl(d, t, tl, f, augur_trace_path(t), figs, nfigs, &err);
  if (fclose(f) && rc == 0) return cli_fail("writing %s failed: %s", o->html, strerror(errno));
  if (rc < 0) return cli_fail("%s: %s", o->html, err.msg);
  return CLI_OK;
}

int cli_diagnose_args(int argc, char **argv, cli_diagnose_opts *o, int *status) {
  memset(o, 0, sizeof *o);
  long long eager = 0;
  double io_mbs = 0;
  const cli_opt options[] = {
      CLI_FLAG("--json", NULL, &o->json, "print the diagnosis as JSON (schema: docs/diagnose.md)"),
      CLI_STRING("--html", NULL, "FILE", &o->html, NULL,
                 "also write a self-contained page with the POP\n"
                 "efficiencies, the timeline, the problem spots marked,\n"
                 "and the findings"),
      CLI_CALL("--min-share", NULL, "F", parse_share, &o->dx.min_share,
               "report findings from this share of process-time on:\n"
               "a fraction (0.05) or a percentage (5%). Default 2%"),
      CLI_INT("--eager-limit", "BYTES", &eager, 1, LLONG_MAX,
              "standard sends up to BYTES complete without their\n"
              "receive (default: inferred from the trace)"),
      CLI_REAL("--io-bandwidth", "MB/S", &io_mbs, 1e-6, 1e9, "a bandwidth > 0 in MB/s",
               "the file system's write bandwidth per rank for\n"
               "large requests (default 268 = 256 MiB/s): io_collective\n"
               "counts time beyond moving the data at it as overhead"),
      CLI_FLAG("--no-ideal", NULL, &o->no_ideal,
               "with --html: the efficiencies without the replay on\n"
               "the ideal network (serialisation and transfer not\n"
               "computed; docs/pop.md)"),
      CLI_FLAG("--parallel", NULL, &o->parallel,
               "run as an MPI job: mpiexec -n M augur diagnose\n"
               "--parallel TRACE, M <= the trace's ranks\n"
               "(docs/parallel.md)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur diagnose TRACE [--json] [--html FILE] [--min-share F]\n"
               "                      [--eager-limit BYTES] [--io-bandwidth MB/S] [--no-ideal]\n"
               "                      [--parallel]\n"
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
  if (!cli_parse_args(argc, argv, &spec, &args)) {
    *status = args.status;
    return 0;
  }
  o->path = args.operand[0];
  if (o->no_ideal && !o->html) {
    *status = cli_usage("--no-ideal goes with --html FILE");
    return 0;
  }
  o->dx.eager_limit = (uint64_t)eager;
  o->dx.io_bandwidth = io_mbs * 1e6;
  return 1;
}

int cli_diagnose_print(augur_trace *t, const augur_diagnosis *d, const cli_diagnose_opts *o) {
  augur_error err = {0};
  int st;
  char ibuf[AUGUR_INCOMPLETE_MAX];
  const char *inc = cli_incomplete(t, ibuf, sizeof ibuf);
  if (o->json) {
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
  fflush(stdout);
  return st < 0 ? cli_fail("%s", err.msg) : CLI_OK;
}
