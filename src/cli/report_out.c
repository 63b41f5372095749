/* `augur report`'s options and output (cli_report.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cli_report.h"

int cli_report_args(int argc, char **argv, cli_report_opts *o, int *status) {
  *o = (cli_report_opts){.top = 10};
  const cli_opt options[] = {
      CLI_FLAG("--json", NULL, &o->json, "print the report as JSON (schema: docs/cli.md)"),
      CLI_INT("--top", "N", &o->top, 1, INT_MAX,
              "show the N most expensive calls and pairs (default 10)"),
      CLI_FLAG("--no-ideal", NULL, &o->no_ideal,
               "no replay on the ideal network: serialisation and\n"
               "transfer not computed (the replay is most of the\n"
               "report's time; docs/pop.md)"),
      CLI_FLAG("--parallel", NULL, &o->parallel,
               "run as an MPI job: mpiexec -n M augur report --parallel\n"
               "TRACE, M <= the trace's ranks (docs/parallel.md)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur report TRACE [--json] [--top N] [--no-ideal] [--parallel]\n"
               "\n"
               "Where the time goes: wall time, compute vs MPI time per rank, the MPI calls\n"
               "that cost most (with their call sites), message sizes, who talks to whom,\n"
               "collectives and load balance, and the POP efficiencies (docs/pop.md).\n",
      .opts = options,
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) {
    *status = args.status;
    return 0;
  }
  o->path = args.operand[0];
  return 1;
}

int cli_pop_trace(augur_trace *t, int ideal, augur_pop *pop, augur_error *err) {
  cli_progress prog;
  cli_progress_init(&prog, "replaying on the ideal network");
  int rc = augur_pop_trace_progress(t, ideal, cli_progress_records, &prog, pop, err);
  cli_progress_done(&prog);
  return rc;
}

int cli_report_pop(augur_trace *t, const cli_report_opts *o, augur_pop *pop) {
  augur_error perr = {0};
  if (cli_pop_trace(t, !o->no_ideal, pop, &perr) != AUGUR_OK) return cli_fail("%s", perr.msg);
  return CLI_OK;
}

/* The report's JSON with the "efficiencies" object added last (the
 * report's own keys unchanged); takes REPORT, NULL when out of memory. */
static char *with_efficiencies(char *report, const augur_pop *pop, augur_trace *t) {
  char *eff = report ? augur_pop_json(pop, t) : NULL;
  json_t *root = eff ? json_loads(report, 0, NULL) : NULL;
  json_t *e = root ? json_loads(eff, 0, NULL) : NULL;
  char *s = NULL;
  if (e && !json_object_set_new(root, "efficiencies", e))
    s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(root);
  free(eff);
  free(report);
  return s;
}

int cli_report_print(augur_trace *t, const augur_report *r, const augur_pop *pop, int st,
                     const augur_error *err, const cli_report_opts *o) {
  /* With damage, what could be read is still printed: partial answers help
   * more than none, and the error line below says what is missing. */
  char ibuf[AUGUR_INCOMPLETE_MAX];
  const char *inc = cli_incomplete(t, ibuf, sizeof ibuf);
  if (o->json) {
    char *s = with_efficiencies(augur_report_json(r, t, (int)o->top), pop, t);
    if (!s) return cli_fail("out of memory writing JSON");
    cli_print_json(t, s, strlen(s), inc);
    free(s);
  } else {
    if (inc) printf("%s\n\n", inc);
    augur_report_print_text(stdout, r, t, (int)o->top);
    augur_pop_print_text(stdout, pop, t, (int)o->top);
  }
  fflush(stdout);
  if (st != AUGUR_OK) return cli_fail("%s", err->msg);
  return CLI_OK;
}
