/* augur export TRACE --format chrome|paraver|simgrid|otf2 -o OUT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "augur/export.h"
#include "cli.h"

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total) {
  if (total)
    cli_progress_update(ctx, "%llu/%llu events (%llu%%)", (unsigned long long)done,
                        (unsigned long long)total, (unsigned long long)(done * 100 / total));
  else
    cli_progress_update(ctx, "%llu events", (unsigned long long)done);
}

typedef int (*export_fn)(augur_trace *, const char *, const augur_export_opts *,
                         augur_export_stats *, augur_error *);

static const struct {
  const char *name;
  export_fn fn;
} formats[] = {
    {"chrome", augur_export_chrome},
    {"paraver", augur_export_paraver},
    {"simgrid", augur_export_simgrid},
    {"otf2", augur_export_otf2},
};

int cmd_export(int argc, char **argv) {
  const char *format = NULL, *out = NULL, *flops = NULL;
  const cli_opt options[] = {
      CLI_STRING("--format", "-f", "FORMAT", &format, NULL,
                 "one of chrome, paraver, simgrid, otf2 (required)"),
      CLI_STRING("--output", "-o", "OUT", &out, NULL, "where to write (required)"),
      CLI_STRING("--flops", NULL, "RATE", &flops, NULL,
                 "simgrid: flop/s a compute burst is converted at\n"
                 "(default 1e9: compute <flops> = seconds x 1e9)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur export TRACE --format FORMAT -o OUT [--flops RATE]\n"
               "\n"
               "Writes the trace in another tool's format (details: docs/export.md).\n"
               "\n"
               "formats (OUT is):\n"
               "  chrome    Chrome trace-event JSON for Perfetto / chrome://tracing (a file):\n"
               "            a track per rank, MPI calls as slices with their arguments,\n"
               "            matched messages as flow arrows\n"
               "  paraver   Paraver trace (a path prefix: writes OUT.prv, OUT.pcf, OUT.row):\n"
               "            MPI states, call events, communication records\n"
               "  simgrid   SimGrid time-independent trace (a directory: rank-N.txt per rank\n"
               "            and index.txt listing them, for smpirun -replay OUT/index.txt)\n"
               "  otf2      OTF2 archive (a directory) for Vampir, Scalasca, otf2-print\n",
      .opts = options,
      .trailer = "\n"
                 "Prints one summary line: events read, records and bytes written, events/s.\n"
                 "A damaged trace is refused (exit 1); a wrong command line exits 2.\n",
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *path = args.operand[0];
  const char *usage = "usage: augur export TRACE --format chrome|paraver|simgrid|otf2 -o OUT";
  if (!format) return cli_usage("missing --format (%s)", usage);
  if (!out || !*out) return cli_usage("missing -o OUT (%s)", usage);
  export_fn fn = NULL;
  for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++)
    if (!strcmp(format, formats[k].name)) fn = formats[k].fn;
  if (!fn) return cli_usage("unknown format '%s' (one of chrome, paraver, simgrid, otf2)", format);
  augur_export_opts opts = {0};
  if (flops) {
    char *end = NULL;
    double r = strtod(flops, &end);
    if (!end || *end || !(r > 0) || r > 1e30)
      return cli_usage("--flops wants a positive number of flop/s, got '%s'", flops);
    if (strcmp(format, "simgrid") != 0) return cli_usage("--flops applies to --format simgrid");
    opts.simgrid_flops_per_s = r;
  }

  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    const char *msg = NULL;
    augur_trace_damage(t, r, &msg);
    if (msg) {
      int st = cli_fail("damaged trace, not exported: %s", msg);
      augur_trace_close(t);
      return st;
    }
  }

  char ibuf[AUGUR_INCOMPLETE_MAX];
  const char *inc = cli_incomplete(t, ibuf, sizeof ibuf);
  if (inc) printf("%s\n", inc); /* the export holds what was recorded */

  cli_progress prog;
  cli_progress_init(&prog, "exporting");
  opts.progress = on_progress;
  opts.progress_ctx = &prog;
  augur_export_stats st = {0};
  augur_error err = {0};
  uint64_t t0 = now_ns();
  rc = fn(t, out, &opts, &st, &err);
  uint64_t dt = now_ns() - t0;
  cli_progress_done(&prog);
  augur_trace_close(t);
  if (rc != AUGUR_OK) return cli_fail("%s", err.msg[0] ? err.msg : "export failed");
  double secs = dt > 0 ? (double)dt * 1e-9 : 1e-9;
  printf("%s: %llu events -> %llu %s records, %llu bytes in %.3f s (%.0f events/s)\n", out,
         (unsigned long long)st.events, (unsigned long long)st.records, format,
         (unsigned long long)st.bytes, secs, (double)st.events / secs);
  if (st.omp_unpaired)
    printf("warning: %llu OpenMP begin/end records unpaired (trace cut short or damaged?): "
           "the threads' OpenMP states are approximate\n",
           (unsigned long long)st.omp_unpaired);
  if (st.as_compute)
    printf("note: %llu MPI-IO, one-sided, neighbourhood or process calls written as compute: "
           "SimGrid's "
           "time-independent traces have no action for them (their time is kept)\n",
           (unsigned long long)st.as_compute);
  return CLI_OK;
}
