/* augur report TRACE [--json] [--top N] [--no-ideal] */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "augur/pop.h"
#include "augur/report.h"
#include "cli.h"

static void on_progress(void *arg, uint32_t rank, uint32_t nranks, uint64_t events) {
  cli_progress_update(arg, "rank %u/%u, %llu events", rank, nranks, (unsigned long long)events);
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

int cmd_report(int argc, char **argv) {
  const char *path = NULL;
  int json = 0, no_ideal = 0;
  long long top = 10;
  const cli_opt options[] = {
      CLI_FLAG("--json", NULL, &json, "print the report as JSON (schema: docs/cli.md)"),
      CLI_INT("--top", "N", &top, 1, INT_MAX,
              "show the N most expensive calls and pairs (default 10)"),
      CLI_FLAG("--no-ideal", NULL, &no_ideal,
               "no replay on the ideal network: serialisation and\n"
               "transfer not computed (the replay is most of the\n"
               "report's time; docs/pop.md)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur report TRACE [--json] [--top N] [--no-ideal]\n"
               "\n"
               "Where the time goes: wall time, compute vs MPI time per rank, the MPI calls\n"
               "that cost most (with their call sites), message sizes, who talks to whom,\n"
               "collectives and load balance, and the POP efficiencies (docs/pop.md).\n",
      .opts = options,
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  path = args.operand[0];

  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;

  cli_progress prog;
  cli_progress_init(&prog, "reading");
  augur_report *r = NULL;
  augur_error err = {0};
  int st = augur_report_compute(t, &r, on_progress, &prog, &err);
  cli_progress_done(&prog);
  if (!r) {
    augur_trace_close(t);
    return cli_fail("%s", err.msg);
  }
  /* With damage, what could be read is still printed: partial answers help
   * more than none, and the error line below says what is missing. */
  char ibuf[AUGUR_INCOMPLETE_MAX];
  const char *inc = cli_incomplete(t, ibuf, sizeof ibuf);
  augur_pop pop;
  augur_error perr = {0};
  if (augur_pop_trace(t, !no_ideal, &pop, &perr) != AUGUR_OK) {
    augur_report_free(r);
    augur_trace_close(t);
    return cli_fail("%s", perr.msg);
  }
  if (json) {
    char *s = with_efficiencies(augur_report_json(r, t, (int)top), &pop, t);
    if (!s) {
      augur_pop_free(&pop);
      augur_report_free(r);
      augur_trace_close(t);
      return cli_fail("out of memory writing JSON");
    }
    cli_print_json(t, s, strlen(s), inc);
    free(s);
  } else {
    if (inc) printf("%s\n\n", inc);
    augur_report_print_text(stdout, r, t, (int)top);
    augur_pop_print_text(stdout, &pop, t, (int)top);
  }
  fflush(stdout);
  augur_pop_free(&pop);
  augur_report_free(r);
  augur_trace_close(t);
  if (st != AUGUR_OK) return cli_fail("%s", err.msg);
  return CLI_OK;
}
