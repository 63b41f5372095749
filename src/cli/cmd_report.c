/* augur report TRACE [--json] [--top N] [--no-ideal] [--parallel] */
#include <stdio.h>

#include "augur/pop.h"
#include "augur/report.h"
#include "cli.h"
#include "cli_report.h"

int cmd_report(int argc, char **argv) {
  cli_report_opts o;
  int status;
  if (cli_parallel_asked(argc, argv)) return cli_parallel_exec("report", argc, argv);
  if (!cli_report_args(argc, argv, &o, &status)) return status;
  if (o.parallel) return cli_parallel_exec("report", argc, argv);

  augur_trace *t = NULL;
  int rc = cli_open_trace(o.path, &t);
  if (rc != CLI_OK) return rc;

  cli_progress prog;
  cli_progress_init(&prog, "reading");
  augur_report *r = NULL;
  augur_error err = {0};
  int st = augur_report_compute(t, &r, cli_progress_ranks, &prog, &err);
  cli_progress_done(&prog);
  if (!r) {
    augur_trace_close(t);
    return cli_fail("%s", err.msg);
  }
  augur_pop pop;
  rc = cli_report_pop(t, &o, &pop);
  if (rc == CLI_OK) {
    rc = cli_report_print(t, r, &pop, st, &err, &o);
    augur_pop_free(&pop);
  }
  augur_report_free(r);
  augur_trace_close(t);
  return rc;
}
