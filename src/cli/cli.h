/* augur CLI — helpers shared by the subcommands. The subcommands stay thin:
 * parse arguments, call the library, print. */
#ifndef AUGUR_CLI_H
#define AUGUR_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "augur/event.h" /* before reader.h: defs.h needs AUGUR_MAX_COUNTERS */
#include "augur/reader.h"

/* Exit statuses: 0 ok, 1 the work failed (unreadable trace, damage, the
 * recorded program failed to start), 2 the command line was wrong. */
#define CLI_OK    0
#define CLI_FAIL  1
#define CLI_USAGE 2

/* Name used in messages, e.g. "augur report". Set by main. */
extern const char *cli_prog;

/* One line on stderr: "augur report: <msg>"; returns CLI_USAGE / CLI_FAIL. */
int cli_usage(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
int cli_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void cli_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

int cli_is_help(const char *arg);

/* Runs CMD (execvp) in a child and waits for it; SIGINT and SIGTERM sent to
 * augur itself are passed on. Returns its exit status, 128 + the signal that
 * killed it (said on stderr), 127 when it could not run (said), or CLI_FAIL. */
int cli_run_child(char **cmd);
/* cli_run_child, watched: WATCH(CTX) is asked every ~20 ms while the child
 * runs and says 0 (go on), 1 (stalled: end it) or 2 (done: end it as
 * planned). Once it says 1 or 2 the child gets SIGTERM (and SIGKILL 10 s
 * later if still there) and *ENDED is set to that (ENDED may be NULL). The
 * child's stdout and stderr are relayed through pipes; after a planned end
 * what it still writes (mpiexec's report of the terminated job) is dropped,
 * nothing is said and the status is 0. */
int cli_run_child_watched(char **cmd, int (*watch)(void *ctx), void *ctx, int *ended);
/* <dir of /proc/self/exe>/../lib/NAME: the build tree and an installed
 * prefix both work. Returns 0, or -1 if it does not fit. */
int cli_lib_path(char *out, size_t n, const char *name);
/* 0 when CMD[0] can be run; else says why on stderr and returns 127 (the
 * shell's status for a command not found). */
int cli_command_found(char *const *cmd);
/* "STEM-<flavour>.so", or "STEM.so" for MPI_FLAVOUR_NONE. */
void cli_flavour_lib(char *out, size_t n, const char *stem, int flavour);
/* Puts LIB first in LD_PRELOAD (inherited through mpiexec by every rank); a
 * preload the user already had keeps working. 0, or -1 with errno set. */
int cli_preload(const char *lib);

/* Matches argv[*i] against an option that takes a value, spelled `name`
 * (long, "--top"), `name=VALUE`, or `shortname` ("-o", may be NULL).
 * Returns 0 if argv[*i] is not this option, 1 with *val set (and *i advanced
 * past a separate value), -1 after printing a usage error (value missing). */
int cli_opt_value(int argc, char **argv, int *i, const char *name, const char *shortname,
                  const char **val);

/* Parses a whole decimal integer in [min, max]; prints a usage error naming
 * the option and returns -1 otherwise. */
int cli_parse_int(const char *opt, const char *val, long long min, long long max, long long *out);
/* A finite number in [MIN, MAX]; else "OPT: expected WHAT, got 'VAL'" and -1. */
int cli_parse_real(const char *opt, const char *val, double min, double max, const char *what,
                   double *out);

/* Opens a trace with one clear line on failure ("no such trace: X" or the
 * reader's message). Returns CLI_OK or CLI_FAIL. */
int cli_open_trace(const char *path, augur_trace **t);

/* An interrupted recording (augur_trace_incomplete), and events blocks the
 * reader dropped (augur_trace_dropped): the statement in buf, or NULL when
 * every rank reached MPI_Finalize and nothing was dropped. Every analysis prints it, in
 * text (first line) and in JSON (cli_print_json), and exits 0. */
const char *cli_incomplete(const augur_trace *t, char *buf, size_t n);
/* Prints a JSON document (one top-level object, LEN bytes) and a newline to
 * stdout; with INCOMPLETE non-NULL, "incomplete": INCOMPLETE is its first
 * member and "kept" (what survived of each rank of T: [{"rank", "events",
 * "last_s", "finalized"}], docs/cli.md) its second. CLI_OK, or CLI_FAIL when
 * stdout failed. */
int cli_print_json(const augur_trace *t, const char *json, size_t len, const char *incomplete);

/* Progress line on stderr, only when stderr is a terminal. */
typedef struct cli_progress {
  int on;
  uint64_t last_ns;
  const char *what;
} cli_progress;
/* CLOCK_MONOTONIC in nanoseconds: durations that a wall-clock step cannot
 * make negative. */
uint64_t cli_mono_ns(void);
void cli_progress_init(cli_progress *p, const char *what);
void cli_progress_update(cli_progress *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void cli_progress_done(cli_progress *p);

/* Subcommands: argv[0] is the subcommand name. */
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_diagnose(int argc, char **argv);
int cmd_phases(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_signature(int argc, char **argv);
int cmd_predict(int argc, char **argv);
/* qsort comparator of doubles, ascending. */
int cli_cmp_double(const void *a, const void *b);

int cmd_profile(int argc, char **argv);
int cmd_jobs(int argc, char **argv);
int cmd_web(int argc, char **argv);

#endif
