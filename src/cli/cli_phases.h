/* `augur phases`'s command line and output, shared by cmd_phases.c and the
 * per-flavour MPI executable of `augur phases --parallel` (src/parallel),
 * so both parse the same options and print the same bytes (as
 * cli_diagnose.h for diagnose). */
#ifndef AUGUR_CLI_PHASES_H
#define AUGUR_CLI_PHASES_H

#include "augur/phases.h"

typedef struct cli_phases_opts {
  const char *path;
  int json, parallel;
  augur_phase_opts phase; /* mode, rank, thresholds */
} cli_phases_opts;

/* Parses `augur phases`'s ARGV[1..ARGC) into O. 1: go on; 0: stop with
 * exit status *STATUS (after --help, or a usage line on stderr). */
int cli_phases_args(int argc, char **argv, cli_phases_opts *o, int *status);
/* augur_logical_build_opts of T with a progress line labelled WHAT on a terminal (the
 * read is most of the time): phases, signature and summary. */
int cli_logical_trace(augur_trace *t, const char *what, augur_logical **lg, augur_error *err);
/* Detects the phases of LG (T's logical trace) with O's options and prints
 * them as text or JSON. CLI_OK, or CLI_FAIL after saying why. */
int cli_phases_print(augur_trace *t, const augur_logical *lg, const cli_phases_opts *o);

#endif
