/* `augur report`'s command line and output, shared by cmd_report.c and the
 * per-flavour MPI executable of `augur report --parallel` (src/parallel),
 * so both parse the same options and print the same bytes. */
#ifndef AUGUR_CLI_REPORT_H
#define AUGUR_CLI_REPORT_H

#include "augur/pop.h"
#include "augur/report.h"

typedef struct cli_report_opts {
  const char *path;
  int json, no_ideal, parallel;
  long long top;
} cli_report_opts;

/* Parses `augur report`'s ARGV[1..ARGC) into O. 1: go on; 0: stop with
 * exit status *STATUS (after --help, or a usage line on stderr). */
int cli_report_args(int argc, char **argv, cli_report_opts *o, int *status);
/* The efficiencies of T as O asks (docs/pop.md). CLI_OK, or CLI_FAIL after
 * saying why. */
int cli_report_pop(augur_trace *t, const cli_report_opts *o, augur_pop *pop);
/* augur_pop_trace (IDEAL: with the replay on the ideal network) with a progress line for
 * the replay on a terminal. */
int cli_pop_trace(augur_trace *t, int ideal, augur_pop *pop, augur_error *err);
/* Prints report R of T with the efficiencies POP, as text or JSON (O), and
 * the error line when ST (augur_report_compute's status, message in ERR) is
 * not AUGUR_OK. Returns the command's exit status. */
int cli_report_print(augur_trace *t, const augur_report *r, const augur_pop *pop, int st,
                     const augur_error *err, const cli_report_opts *o);

/* `augur CMD --parallel ...` (src/cli/parallel.c): run under mpiexec, execs
 * the analysis executable built for the launcher's MPI,
 * <prefix>/lib/augur-parallel-<flavour>, with CMD and ARGV[1..ARGC) minus
 * --parallel. Returns only when it cannot: CLI_USAGE when not started by
 * mpiexec, CLI_FAIL when that executable is missing (both said). */
int cli_parallel_exec(const char *cmd, int argc, char **argv);
/* 1 when ARGV[1..ARGC) asks for --parallel and mpiexec started this
 * process. The command then execs at once (cli_parallel_exec), before
 * parsing its options: the analysis executable parses them, and only its
 * analysis rank 0 says what is wrong with them (parsed here, every process
 * mpiexec started would say it). Not under mpiexec, the command parses
 * them (--help works) and cli_parallel_exec says how to run it. */
int cli_parallel_asked(int argc, char **argv);
/* For a command without a parallel version (simulate): with --parallel in ARGV, says so
 * once (launcher rank 0, or not under a launcher) and returns CLI_USAGE; else -1. */
int cli_parallel_none(const char *cmd, int argc, char **argv);

#endif
