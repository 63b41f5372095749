/* `augur phases`'s options and output (cli_phases.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_phases.h"

int cli_phases_args(int argc, char **argv, cli_phases_opts *o, int *status) {
  memset(o, 0, sizeof *o);
  int irregular = 0, per_rank = 0;
  long long max_period, rank = -1;
  augur_phase_opts_default(&o->phase);
  max_period = o->phase.max_period;
  const char *frac = "a number from 0 to 1";
  const cli_opt options[] = {
      CLI_FLAG("--json", NULL, &o->json, "print JSON (schema: docs/phases.md)"),
      CLI_REAL("--min-share", "F", &o->phase.min_share, 0, 1, frac,
               "relevance threshold, fraction of the run (default 0.01)"),
      CLI_REAL("--volume-tol", "F", &o->phase.volume_tol, 0, 1, frac,
               "max relative volume difference per call (default 0.05)"),
      CLI_REAL("--work-sim", "F", &o->phase.work_sim, 0, 1, frac,
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
      CLI_FLAG("--parallel", NULL, &o->parallel,
               "run as an MPI job: mpiexec -n M augur phases --parallel\n"
               "TRACE, M <= the trace's ranks (docs/parallel.md)"),
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
  if (!cli_parse_args(argc, argv, &spec, &args)) {
    *status = args.status;
    return 0;
  }
  o->path = args.operand[0];
  o->phase.max_period = (uint32_t)max_period;
  if (per_rank || rank >= 0) o->phase.mode = AUGUR_PHASES_RANK;
  if (rank >= 0) o->phase.rank = (int)rank;
  if (irregular) {
    if (o->phase.mode == AUGUR_PHASES_RANK) {
      *status = cli_usage("--irregular and --per-rank/--rank are different modes: choose one");
      return 0;
    }
    o->phase.mode = AUGUR_PHASES_IRREGULAR;
  }
  return 1;
}

int cli_logical_trace(augur_trace *t, const char *what, augur_logical **lg, augur_error *err) {
  cli_progress prog;
  cli_progress_init(&prog, what);
  augur_logical_opts lo = {.progress = cli_progress_records, .progress_arg = &prog};
  int rc = augur_logical_build_opts(t, &lo, lg, err);
  cli_progress_done(&prog);
  return rc;
}

int cli_phases_print(augur_trace *t, const augur_logical *lg, const cli_phases_opts *o) {
  augur_error err = {0};
  augur_phases *p = NULL;
  if (augur_phases_detect(lg, &o->phase, &p, &err) != AUGUR_OK) return cli_fail("%s", err.msg);
  int rc = CLI_OK;
  char ibuf[AUGUR_INCOMPLETE_MAX];
  const char *inc = cli_incomplete(t, ibuf, sizeof ibuf);
  if (o->json) {
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
  return rc;
}
