/* augur import TRACE.otf2 -o NAME.augur */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "augur/export.h"
#include "cli.h"

static void on_progress(void *ctx, uint64_t done, uint64_t total) {
  if (total)
    cli_progress_update(ctx, "%llu events (archive: %llu records)", (unsigned long long)done,
                        (unsigned long long)total);
  else
    cli_progress_update(ctx, "%llu events", (unsigned long long)done);
}

int cmd_import(int argc, char **argv) {
  const char *out = NULL;
  const cli_opt options[] = {CLI_STRING("--output", "-o", "NAME.augur", &out, NULL,
                                        "trace directory to write (required; must not exist)"),
                             {0}};
  const cli_spec spec = {
      .usage = "usage: augur import ARCHIVE.otf2 -o NAME.augur\n"
               "\n"
               "Reads an OTF2 archive (its .otf2 anchor file, or the directory holding\n"
               "traces.otf2) and writes an augur trace (details: docs/otf2.md).\n"
               "Archives written by 'augur export --format otf2' come back exactly; archives\n"
               "of other tools (Score-P, ...) are mapped from their MPI records, and the\n"
               "notes printed say what they lack (call sites, counters, clock sync, ...).\n",
      .opts = options,
      .max_operands = 1,
      .operand = "archive",
      .required = "ARCHIVE.otf2"};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *in = args.operand[0];
  if (!out || !*out)
    return cli_usage("missing -o NAME.augur (usage: augur import ARCHIVE.otf2 -o NAME.augur)");
  struct stat sb;
  char anchor[4200];
  snprintf(anchor, sizeof anchor, "%s", in);
  if (stat(in, &sb) == 0 && S_ISDIR(sb.st_mode)) /* the export's output directory */
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", in);
  if (stat(out, &sb) == 0)
    return cli_fail("%s already exists: import writes a new trace directory", out);

  cli_progress prog;
  cli_progress_init(&prog, "importing");
  augur_export_opts opts = {0};
  opts.progress = on_progress;
  opts.progress_ctx = &prog;
  augur_import_report rep = {0};
  augur_error err = {0};
  int rc = augur_import_otf2(anchor, out, &opts, &rep, &err);
  cli_progress_done(&prog);
  if (rc != AUGUR_OK) {
    augur_import_report_free(&rep);
    return cli_fail("%s", err.msg[0] ? err.msg : "import failed");
  }
  for (size_t i = 0; i < rep.nnotes; i++)
    printf("note: %s\n", rep.notes[i]);
  printf("%s: %u ranks, %llu events imported from %s%s\n", out, rep.nranks,
         (unsigned long long)rep.events, anchor, rep.nnotes ? "" : " (exact: written by augur)");
  augur_import_report_free(&rep);
  return CLI_OK;
}
