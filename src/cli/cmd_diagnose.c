/* augur diagnose TRACE [--json] [--html FILE] [--min-share F] [--eager-limit BYTES]
 *                [--io-bandwidth MB/S] [--no-ideal] [--parallel] */
#include <stdio.h>
#include <stdlib.h>

#include "augur/diagnose.h"
#include "augur/pop.h"
#include "cli.h"
#include "cli_diagnose.h"
#include "cli_report.h"

static int write_html(const augur_diagnosis *d, augur_trace *t, const cli_diagnose_opts *o) {
  augur_pop pop;
  augur_error err = {0};
  if (cli_pop_trace(t, !o->no_ideal, &pop, &err) != AUGUR_OK) return cli_fail("%s", err.msg);
  int rc = cli_diagnose_html(d, t, &pop, NULL, o);
  augur_pop_free(&pop);
  return rc;
}

int cmd_diagnose(int argc, char **argv) {
  cli_diagnose_opts o;
  int status;
  if (cli_parallel_asked(argc, argv)) return cli_parallel_exec("diagnose", argc, argv);
  if (!cli_diagnose_args(argc, argv, &o, &status)) return status;
  if (o.parallel) return cli_parallel_exec("diagnose", argc, argv);

  augur_trace *t = NULL;
  int rc = cli_open_trace(o.path, &t);
  if (rc != CLI_OK) return rc;
  cli_progress prog;
  cli_progress_init(&prog, "diagnosing");
  augur_dx_options opt = o.dx;
  opt.progress = cli_progress_events;
  opt.progress_arg = &prog;
  augur_diagnosis *d = NULL;
  augur_error err = {0};
  int st = augur_diagnose(t, &opt, &d, &err);
  cli_progress_done(&prog);
  if (st < 0) {
    augur_trace_close(t);
    return cli_fail("%s", err.msg);
  }
  rc = cli_diagnose_print(t, d, &o);
  if (rc == CLI_OK && o.html) rc = write_html(d, t, &o);
  augur_diagnosis_free(d);
  augur_trace_close(t);
  return rc;
}
