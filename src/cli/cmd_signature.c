/* augur signature TRACE -o FILE [--measure K] [--min-share F] [--max-period N]
 *                 [--portable] [--irregular] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/phases.h"
#include "augur/signature.h"
#include "cli.h"
#include "cli_phases.h"

/* The program S is for (docs/signature.md, "Which program"): the recorded
 * run's executable (argv[0]) by base name, with the build id of the module
 * of that name the trace saw (else of argv[0] itself). A portable signature
 * fits other builds: no build id. */
static int set_program(augur_trace *t, augur_signature *s, int portable) {
  const augur_trace_info *in = augur_trace_info_get(t);
  if (in->argc < 1 || !in->argv[0] || !*in->argv[0]) return 0; /* unknown: version 2 file */
  char name[256], bid[160], mname[256];
  const char *path = in->argv[0];
  augur_signature_module_name(path, name, sizeof name);
  for (uint32_t id = 1; augur_trace_module(t, id); id++) {
    const augur_module_def *md = augur_trace_module(t, id);
    augur_signature_module_name(md->path ? md->path : "", mname, sizeof mname);
    if (!strcmp(mname, name)) path = md->path;
  }
  if (augur_program_id(path, name, sizeof name, bid, sizeof bid) != 0) return 0;
  s->program = strdup(name);
  s->build_id = strdup(portable ? "-" : bid);
  return s->program && s->build_id ? 0 : -1;
}

int cmd_signature(int argc, char **argv) {
  const char *outp = NULL;
  long long measure = 10, max_period;
  int portable = 0, irregular = 0;
  augur_phase_opts o;
  augur_phase_opts_default(&o);
  max_period = o.max_period;
  const cli_opt options[] = {CLI_STRING("--output", "-o", "FILE", &outp, "a file name",
                                        "where to write the signature (required)"),
                             CLI_INT("--measure", "K", &measure, 1, 1000000,
                                     "repetitions measured per phase after the warm-up one\n"
                                     "(default 10)"),
                             CLI_REAL("--min-share", "F", &o.min_share, 0, 1,
                                      "a number from 0 to 1",
                                      "relevance threshold, fraction of the run (default 0.01)"),
                             CLI_INT("--max-period", "N", &max_period, 1, 1 << 20,
                                     "longest phase searched, in ticks (default 512)"),
                             CLI_FLAG("--portable", NULL, &portable,
                                      "leave call sites out: the signature also fits another\n"
                                      "build of the program (e.g. for another MPI)"),
                             CLI_FLAG("--irregular", NULL, &irregular,
                                      "from the phases of 'augur phases --irregular': per-rank\n"
                                      "weights, PET from the rank with the largest sum"),
                             {0}};
  const cli_spec spec = {
      .usage = "usage: augur signature TRACE -o FILE [--measure K] [--min-share F] [--irregular]\n"
               "\n"
               "PAS2P signature: for every relevant phase of the trace (see 'augur phases'),\n"
               "what a new run needs to recognise it online (per rank: call types, peer\n"
               "offsets, size classes, call sites), its weight, and which repetitions to\n"
               "measure. Run it with 'augur predict --signature FILE -- mpiexec ...'.\n"
               "See docs/signature.md.\n",
      .opts = options,
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *path = args.operand[0];
  o.max_period = (uint32_t)max_period;
  if (irregular) o.mode = AUGUR_PHASES_IRREGULAR;
  if (!outp) return cli_usage("missing -o FILE (usage: augur signature TRACE -o FILE)");

  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;
  augur_error err = {0};
  augur_logical *lg = NULL;
  augur_phases *p = NULL;
  augur_signature *s = NULL;
  if (cli_logical_trace(t, "reading", &lg, &err) != AUGUR_OK ||
      augur_phases_detect(lg, &o, &p, &err) != AUGUR_OK ||
      augur_signature_build(lg, p, t, (uint32_t)measure, &s, &err) != AUGUR_OK) {
    augur_phases_free(p);
    augur_logical_free(lg);
    augur_trace_close(t);
    return cli_fail("%s", err.msg);
  }
  /* Module 0 = call site not compared (docs/signature.md): the calls are
   * then recognised by type, peer offset and size alone. */
  for (uint32_t i = 0; portable && i < s->nphases; i++)
    for (uint32_t r = 0; r < s->nranks; r++)
      for (uint32_t c = 0; c < s->phase[i].ncalls[r]; c++)
        s->phase[i].calls[r][c].module = 0;
  rc = CLI_OK;
  if (set_program(t, s, portable) != 0) {
    rc = cli_fail("out of memory");
  } else if (!s->nphases) {
    rc = cli_fail("%s: no relevant phase: nothing to put in a signature", path);
  } else {
    FILE *f = fopen(outp, "w");
    if (!f) {
      rc = cli_fail("cannot write %s: %s", outp, strerror(errno));
    } else {
      int w = augur_signature_write(f, s);
      if (fclose(f) != 0 || w != AUGUR_OK) rc = cli_fail("writing %s failed", outp);
    }
  }
  char ibuf[AUGUR_INCOMPLETE_MAX];
  const char *inc = cli_incomplete(t, ibuf, sizeof ibuf);
  if (inc) printf("%s\n", inc);
  if (rc == CLI_OK) {
    uint32_t late = 0;
    for (uint32_t i = 0; i < s->nphases; i++)
      late += s->phase[i].late != 0;
    printf("%s: %u relevant phase%s (%u late, estimated), %u ranks%s%s", outp, s->nphases,
           s->nphases == 1 ? "" : "s", late, s->nranks, portable ? ", portable" : "",
           s->irregular ? ", irregular" : "");
    if (s->nguards) /* docs/signature.md, "Calls of other phases" */
      printf(", %u guard%s (phases below the threshold with the same calls)", s->nguards,
             s->nguards == 1 ? "" : "s");
    int repeats = 0;
    for (uint32_t i = 0; i < s->nphases; i++)
      repeats |= !s->phase[i].late && s->phase[i].weight > 1;
    if (!repeats)
      printf("; no repeating phase: PAS2P cannot shorten this run (a signature run goes to "
             "the end, and its measured time is the prediction)\n");
    else
      printf("; a signature run stops once every rank has measured its phases\n");
  }
  augur_signature_free(s);
  augur_phases_free(p);
  augur_logical_free(lg);
  augur_trace_close(t);
  return rc;
}
