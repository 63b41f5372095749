/* augur — command dispatch. Each subcommand lives in its own cmd_*.c. */
#include <stdio.h>
#include <string.h>

#include "augur/api.h"
#include "cli.h"

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
    {"record", cmd_record, "run an MPI program and record a trace of its MPI calls"},
    {"report", cmd_report, "where the time goes: per rank, per call, per call site"},
    {"summary", cmd_summary, "the run at a glance: efficiencies, findings, timeline, phases"},
    {"info", cmd_info, "what a trace holds: ranks, communicators, counters, damage"},
    {"dump", cmd_dump, "print a trace's events, one line each"},
    {"timeline", cmd_timeline, "draw a window of the run as SVG or HTML"},
    {"diagnose", cmd_diagnose, "find where the run loses time, why, and what to change"},
    {"simulate", cmd_simulate, "predict the run on a machine model from its execution graph"},
    {"graph", cmd_graph, "write a trace as an editable execution-graph file for simulate"},
    {"calibrate", cmd_calibrate, "measure this machine and write its model for simulate"},
    {"phases", cmd_phases, "PAS2P phases: repeated stretches, their weights and share of the run"},
    {"signature", cmd_signature, "PAS2P signature: what a new run needs to recognise the phases"},
    {"sweep", cmd_sweep,
     "run a command over a grid of workers x threads x workload, one CSV row each"},
    {"predict", cmd_predict, "run a signature and predict the full run's time (PAS2P)"},
    {"model", cmd_model, "master/worker model: fit, show, predict a MOB tree (docs/model.md)"},
    {"profile", cmd_profile, "run a job in profile mode: one summary record per job"},
    {"jobs", cmd_jobs, "query the monitoring database: jobs, per-rank metrics"},
    {"web", cmd_web, "serve the monitoring database read-only as a web UI"},
    {"export", cmd_export, "write a trace as OTF2, Chrome JSON, Paraver or SimGrid"},
    {"import", cmd_import, "turn an OTF2 archive (e.g. from Score-P) into an augur trace"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f) {
  fprintf(f, "usage: augur COMMAND [options]\n\ncommands:\n");
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\noptions:\n"
             "  -h, --help     show this help (augur COMMAND --help for a command)\n"
             "  --version      print the version\n"
             "\nexample:\n"
             "  augur record -- mpiexec -n 4 ./app\n"
             "  augur report app.augur\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return CLI_USAGE;
  }
  const char *cmd = argv[1];
  if (cli_is_help(cmd) || !strcmp(cmd, "help")) {
    if (argc > 2 && strcmp(cmd, "help") == 0) {
      /* `augur help report` == `augur report --help` */
      for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[2], commands[i].name)) {
          static char name[64];
          snprintf(name, sizeof name, "augur %s", commands[i].name);
          cli_prog = name;
          char *hargv[] = {argv[2], "--help", NULL};
          return commands[i].run(2, hargv);
        }
      return cli_usage("unknown command '%s' (see 'augur --help')", argv[2]);
    }
    usage(stdout);
    return CLI_OK;
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
    printf("augur %s\n", AUGUR_VERSION_STRING);
    return CLI_OK;
  }
  for (size_t i = 0; i < NCOMMANDS; i++) {
    if (strcmp(cmd, commands[i].name)) continue;
    static char name[64];
    snprintf(name, sizeof name, "augur %s", commands[i].name);
    cli_prog = name;
    return commands[i].run(argc - 1, argv + 1);
  }
  if (cmd[0] == '-') return cli_usage("unknown option '%s' (see 'augur --help')", cmd);
  return cli_usage("unknown command '%s' (see 'augur --help')", cmd);
}
