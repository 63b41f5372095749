/* augur phases TRACE [--json] [--min-share F] [--volume-tol F] [--work-sim F]
 *                    [--per-rank | --rank R | --irregular] [--max-period N]
 *                    [--parallel] */
#include "augur/phases.h"
#include "cli.h"
#include "cli_phases.h"
#include "cli_report.h"

int cmd_phases(int argc, char **argv) {
  cli_phases_opts o;
  int status;
  if (cli_parallel_asked(argc, argv)) return cli_parallel_exec("phases", argc, argv);
  if (!cli_phases_args(argc, argv, &o, &status)) return status;
  if (o.parallel) return cli_parallel_exec("phases", argc, argv);

  augur_trace *t = NULL;
  int rc = cli_open_trace(o.path, &t);
  if (rc != CLI_OK) return rc;
  augur_error err = {0};
  augur_logical *lg = NULL;
  rc = cli_logical_trace(t, "reading", &lg, &err);
  if (rc != AUGUR_OK) {
    augur_trace_close(t);
    return cli_fail("%s", err.msg);
  }
  rc = cli_phases_print(t, lg, &o);
  augur_logical_free(lg);
  augur_trace_close(t);
  return rc;
}
