/* augur phases TRACE [--json] [--min-share F] [--volume-tol F] [--work-sim F]
 *                    [--per-rank | --rank R | --irregular] [--max-period N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/phases.h"
#include "cli.h"

int cmd_phases(int argc, char **argv) {
  int json = 0, irregular = 0, per_rank = 0;
  long long max_period, rank = -1;
  augur_phase_opts o;
  augur_phase_opts_default(&o);
  max_period = o.max_period;
  const char *frac = "a number from 0 to 1";
  const cli_opt options[] = {CLI_FLAG("--json", NULL, &json, "print JSON (schema: docs/phases.md)"),
                             CLI_REAL("--min-share", "F", &o.min_share, 0, 1, frac,
                                      "relevance threshold, fraction of the run (default 0.01)"),
                             CLI_REAL("--volume-tol", "F", &o.volume_tol, 0, 1, frac,
                                      "max relative volume difference per call (default 0.05)"),
                             CLI_REAL("--work-sim", "F", &o.work_sim, 0, 1, frac,
                                      "min work similarity of a repetition (default 0.85 with an\n"
                                      "instruction counter, 0 = off when work is time)"),
                             CLI_INT("--max-period", "N", &max_period, 1, 1 << 20,
                                     "longest phase searched, in ticks (default 512)"),
                             CLI_FLAG("--per-rank", NULL, &per_rank,
                                      "EPAS mode: each rank alone, the representative rank shown"),
                             CLI_INT("--rank", "R", &rank, 0, 1 << 30, "EPAS mode on rank R"),
                             CLI_FLAG("--irregular", NULL, &irregular,
                                      "irregular mode (seed Ch. 3): characteristic communicator,\n"
                                      "send-only stretches, K-means over the ranks' phases"),
                             {0}};
  const cli_spec spec = {
      .usage = "usage: augur phases TRACE [--json] [--min-share F] [options]\n"
               "\n"
               "PAS2P analysis: the trace's logical trace (Lamport time over matched\n"
               "messages and collectives) cut into phases, repeated runs of the same\n"
               "calls, with their weight (repetitions), time per repetition and share\n"
               "of the run. Only relevant phases (weight x time >= --min-share of the\n"
               "run) are printed as text; --json lists all. See docs/phases.md.\n",
      .opts = options,
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *path = args.operand[0];
  o.max_period = (uint32_t)max_period;
  if (per_rank || rank >= 0) o.mode = AUGUR_PHASES_RANK;
  if (rank >= 0) o.rank = (int)rank;
  if (irregular) {
    if (o.mode == AUGUR_PHASES_RANK)
      return cli_usage("--irregular and --per-rank/--rank are different modes: choose one");
    o.mode = AUGUR_PHASES_IRREGULAR;
  }

  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;
  augur_error err = {0};
  augur_logical *lg = NULL;
  augur_phases *p = NULL;
  if (augur_logical_build(t, &lg, &err) != AUGUR_OK ||
      augur_phases_detect(lg, &o, &p, &err) != AUGUR_OK) {
    augur_logical_free(lg);
    augur_trace_close(t);
    return cli_fail("%s", err.msg);
  }
  rc = CLI_OK;
  char ibuf[AUGUR_INCOMPLETE_MAX];
  const char *inc = cli_incomplete(t, ibuf, sizeof ibuf);
  if (json) {
    char *s = augur_phases_json(p, lg, t);
    if (s) {
      cli_print_json(t, s, strlen(s), inc);
      free(s);
    } else {
      rc = cli_fail("out of memory writing JSON");
    }
  } else {
    if (inc) printf("%s\n\n", inc);
    augur_phases_print_text(stdout, p, lg, t);
  }
  fflush(stdout);
  augur_phases_free(p);
  augur_logical_free(lg);
  augur_trace_close(t);
  return rc;
}
