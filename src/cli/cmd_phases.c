/* augur phases TRACE [--json] [--min-share F] [--volume-tol F] [--work-sim F]
 *                    [--per-rank | --rank R | --irregular] [--max-period N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/phases.h"
#include "cli.h"

static void help(void) {
  printf("usage: augur phases TRACE [--json] [--min-share F] [options]\n"
         "\n"
         "PAS2P analysis: the trace's logical trace (Lamport time over matched\n"
         "messages and collectives) cut into phases, repeated runs of the same\n"
         "calls, with their weight (repetitions), time per repetition and share\n"
         "of the run. Only relevant phases (weight x time >= --min-share of the\n"
         "run) are printed as text; --json lists all. See docs/phases.md.\n"
         "\n"
         "options:\n"
         "  --json            print JSON (schema: docs/phases.md)\n"
         "  --min-share F     relevance threshold, fraction of the run (default 0.01)\n"
         "  --volume-tol F    max relative volume difference per call (default 0.05)\n"
         "  --work-sim F      min work similarity of a repetition (default 0.85 with an\n"
         "                    instruction counter, 0 = off when work is time)\n"
         "  --max-period N    longest phase searched, in ticks (default 512)\n"
         "  --per-rank        EPAS mode: each rank alone, the representative rank shown\n"
         "  --rank R          EPAS mode on rank R\n"
         "  --irregular       irregular mode (seed Ch. 3): characteristic communicator,\n"
         "                    send-only stretches, K-means over the ranks' phases\n"
         "  -h, --help        show this help\n");
}

static int parse_frac(const char *opt, const char *val, double *out) {
  return cli_parse_real(opt, val, 0, 1, "a number from 0 to 1", out);
}

int cmd_phases(int argc, char **argv) {
  const char *path = NULL, *val = NULL;
  int json = 0, irregular = 0;
  augur_phase_opts o;
  augur_phase_opts_default(&o);
  for (int i = 1; i < argc; i++) {
    int m;
    long long n;
    if (cli_is_help(argv[i])) {
      help();
      return CLI_OK;
    } else if (!strcmp(argv[i], "--json")) {
      json = 1;
    } else if (!strcmp(argv[i], "--per-rank")) {
      o.mode = AUGUR_PHASES_RANK;
    } else if (!strcmp(argv[i], "--irregular")) {
      irregular = 1;
    } else if ((m = cli_opt_value(argc, argv, &i, "--min-share", NULL, &val)) != 0) {
      if (m < 0 || parse_frac("--min-share", val, &o.min_share) < 0) return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--volume-tol", NULL, &val)) != 0) {
      if (m < 0 || parse_frac("--volume-tol", val, &o.volume_tol) < 0) return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--work-sim", NULL, &val)) != 0) {
      if (m < 0 || parse_frac("--work-sim", val, &o.work_sim) < 0) return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--max-period", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_int("--max-period", val, 1, 1 << 20, &n) < 0) return CLI_USAGE;
      o.max_period = (uint32_t)n;
    } else if ((m = cli_opt_value(argc, argv, &i, "--rank", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_int("--rank", val, 0, 1 << 30, &n) < 0) return CLI_USAGE;
      o.mode = AUGUR_PHASES_RANK;
      o.rank = (int)n;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      return cli_usage("unknown option '%s' (see 'augur phases --help')", argv[i]);
    } else if (path) {
      return cli_usage("unexpected argument '%s': one trace at a time", argv[i]);
    } else {
      path = argv[i];
    }
  }
  if (!path) return cli_usage("missing TRACE (usage: augur phases TRACE [--json] [--min-share F])");
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
