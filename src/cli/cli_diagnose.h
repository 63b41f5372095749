/* `augur diagnose`'s command line and output, shared by cmd_diagnose.c and
 * the per-flavour MPI executable of `augur diagnose --parallel`
 * (src/parallel), so both parse the same options and print the same bytes
 * (as cli_report.h for report). */
#ifndef AUGUR_CLI_DIAGNOSE_H
#define AUGUR_CLI_DIAGNOSE_H

#include "augur/diagnose.h"
#include "augur/pop.h"

typedef struct cli_diagnose_opts {
  const char *path;
  const char *html; /* --html FILE, or NULL */
  int json, no_ideal, parallel;
  augur_dx_options dx; /* min_share, eager_limit (no progress callback) */
} cli_diagnose_opts;

/* Parses `augur diagnose`'s ARGV[1..ARGC) into O. 1: go on; 0: stop with
 * exit status *STATUS (after --help, or a usage line on stderr). */
int cli_diagnose_args(int argc, char **argv, cli_diagnose_opts *o, int *status);
/* Prints diagnosis D of T as text or JSON (O). CLI_OK, or CLI_FAIL after
 * saying why. */
int cli_diagnose_print(augur_trace *t, const augur_diagnosis *d, const cli_diagnose_opts *o);
/* Writes O's --html page of D with the efficiencies POP and the timeline TL
 * (augur_dx_html_timeline_build's, taken; NULL: built here). CLI_OK, or
 * CLI_FAIL after saying why. */
int cli_diagnose_html(const augur_diagnosis *d, augur_trace *t, const augur_pop *pop,
                      struct augur_timeline *tl, const cli_diagnose_opts *o);

#endif
