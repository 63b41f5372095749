/* augur CLI — helpers shared by the subcommands. The subcommands stay thin:
 * parse arguments, call the library, print. */
#ifndef AUGUR_CLI_H
#define AUGUR_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "augur/event.h" /* before reader.h: defs.h needs AUGUR_MAX_COUNTERS */
#include "augur/reader.h"
#include "stats.h"

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

/* "-h" or "--help". */
int cli_is_help(const char *arg);

/* S ends with SUFFIX and is longer than it. */
int cli_ends_with(const char *s, const char *suffix);

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
/* Seconds a child may take to end after augur passed it a SIGINT or SIGTERM
 * before it gets SIGKILL (both calls above; default 20). */
extern double cli_child_grace_s;
/* The last SIGINT or SIGTERM augur received while a child ran (from the
 * terminal or sent to it), 0 when none: a caller running several children
 * (sweep) stops instead of starting the next one. */
int cli_child_signal(void);
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

/* The options of a command, stated once: the parser (cli_parse_args) and
 * the --help text (cli_help) both read this table, so a command accepts
 * exactly what its help lists and every command says the same errors.
 * Spellings: "--name VALUE", "--name=VALUE", "-s VALUE" (the short name);
 * a flag takes no value. -h/--help is every command's, not in the table. */
typedef enum cli_opt_kind {
  CLI_OPT_FLAG,   /* *(int *)dst = 1 */
  CLI_OPT_INT,    /* *(long long *)dst, a whole number in [min, max] (cli_parse_int) */
  CLI_OPT_REAL,   /* *(double *)dst, a finite number in [lo, hi] (cli_parse_real, what) */
  CLI_OPT_STRING, /* *(const char **)dst; with `what`, an empty value is refused */
  CLI_OPT_CHOICE, /* *(const char **)dst, one of the '|'-separated `choices` */
  CLI_OPT_CALL    /* call(name, value, dst): 0, or -1 after its own cli_usage */
} cli_opt_kind;

typedef struct cli_opt {
  const char *name;      /* "--top" */
  const char *shortname; /* "-o", or NULL */
  const char *arg;       /* the value in --help ("N"); NULL for a flag */
  cli_opt_kind kind;
  void *dst;
  long long min, max;  /* INT */
  double lo, hi;       /* REAL */
  const char *what;    /* REAL: "expected WHAT"; STRING: "-o wants WHAT" when empty */
  const char *choices; /* CHOICE: "block|cyclic" */
  int (*call)(const char *opt, const char *val, void *dst); /* CALL */
  const char *help; /* --help text; '\n' starts an indented line */
} cli_opt;

#define CLI_FLAG(NAME, SHORT, DST, HELP)                                                           \
  { .name = NAME, .shortname = SHORT, .kind = CLI_OPT_FLAG, .dst = DST, .help = HELP }
#define CLI_INT(NAME, ARG, DST, MIN, MAX, HELP)                                                    \
  {                                                                                                \
    .name = NAME, .arg = ARG, .kind = CLI_OPT_INT, .dst = DST, .min = MIN, .max = MAX,             \
    .help = HELP                                                                                   \
  }
#define CLI_REAL(NAME, ARG, DST, LO, HI, WHAT, HELP)                                               \
  {                                                                                                \
    .name = NAME, .arg = ARG, .kind = CLI_OPT_REAL, .dst = DST, .lo = LO, .hi = HI, .what = WHAT,  \
    .help = HELP                                                                                   \
  }
#define CLI_STRING(NAME, SHORT, ARG, DST, WHAT, HELP)                                              \
  {                                                                                                \
    .name = NAME, .shortname = SHORT, .arg = ARG, .kind = CLI_OPT_STRING, .dst = DST,              \
    .what = WHAT, .help = HELP                                                                     \
  }
#define CLI_CHOICE(NAME, ARG, DST, CHOICES, HELP)                                                  \
  { .name = NAME, .arg = ARG, .kind = CLI_OPT_CHOICE, .dst = DST, .choices = CHOICES, .help = HELP }
#define CLI_CALL(NAME, SHORT, ARG, CALL, DST, HELP)                                                \
  {                                                                                                \
    .name = NAME, .shortname = SHORT, .arg = ARG, .kind = CLI_OPT_CALL, .dst = DST, .call = CALL,  \
    .help = HELP                                                                                   \
  }

/* A command's command line: its options and operands, and its --help. */
typedef struct cli_spec {
  const char *usage;   /* "usage: ..." line(s) and the description, before "options:" */
  const cli_opt *opts; /* ends with an entry whose name is NULL */
  const char *trailer; /* printed after the options (NULL: nothing) */
  int max_operands;    /* operands (TRACE...) accepted before "--" */
  const char *operand; /* "trace": "unexpected argument 'X': one trace at a time" */
  const char
      *required; /* "TRACE": the first operand must be given ("missing TRACE (usage: ...)") */
  int dashdash;  /* 1: "-- COMMAND..." ends the options (record, predict, profile) */
} cli_spec;

/* The operand of a command that reads one trace (report, diagnose, ...). */
#define CLI_ONE_TRACE .max_operands = 1, .operand = "trace", .required = "TRACE"

typedef struct cli_args {
  const char *operand[2]; /* in the order given */
  int noperands;
  int dashdash; /* argv index of "--", or -1 */
  int status;   /* exit status when cli_parse_args returns 0 */
} cli_args;

/* Parses ARGV[1..ARGC) against SPEC into the table's destinations and A.
 * Returns 1 when the command goes on; 0 when it stops with exit status
 * A->status: CLI_OK after printing --help, CLI_USAGE after one line on
 * stderr (unknown option, missing or bad value, an operand too many, the
 * required operand missing). */
int cli_parse_args(int argc, char **argv, const cli_spec *spec, cli_args *a);
/* A CLI_CALL for --mpi: VAL names an MPI flavour (mpi_flavour_parse);
 * stored in *(const char **)DST. */
int cli_opt_mpi(const char *opt, const char *val, void *dst);
/* SPEC's help on stdout: its usage text, the options table, its trailer. */
void cli_help(const cli_spec *spec);

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
  uint64_t start_ns, last_ns;
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
/* "DONE of TOTAL UNIT (N %), about T left": the time left at the rate so far, once a
 * second has passed (TOTAL 0: "DONE UNIT"). */
void cli_progress_count(cli_progress *p, const char *unit, uint64_t done, uint64_t total);
/* augur_progress_fn for a cli_progress ARG: cli_progress_count in records, in events. */
void cli_progress_records(void *arg, uint64_t done, uint64_t total);
void cli_progress_events(void *arg, uint64_t done, uint64_t total);
/* augur_report_progress for a cli_progress ARG: "rank R/N, E events". */
void cli_progress_ranks(void *arg, uint32_t rank, uint32_t nranks, uint64_t events);
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
int cmd_summary(int argc, char **argv);
int cmd_model(int argc, char **argv);
/* augur model: the operand of a sub-command that reads one model file (show,
 * predict, best), and reading it: CLI_OK, or CLI_FAIL after the reader's one
 * line (cmd_model.c). */
#define CLI_ONE_MODEL .max_operands = 1, .operand = "model", .required = "MODEL"
typedef struct augur_model augur_model;
int cli_open_model(const char *path, augur_model **m);
int cmd_phases(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_signature(int argc, char **argv);
int cmd_predict(int argc, char **argv);

int cmd_profile(int argc, char **argv);
int cmd_jobs(int argc, char **argv);
int cmd_web(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
/* augur model best / augur model weights (cmd_model_best.c), dispatched by cmd_model.c. */
int cmd_model_best(int argc, char **argv);
int cmd_model_weights(int argc, char **argv);
int cmd_model_suggest(int argc, char **argv); /* augur model suggest (cmd_model_best.c) */
/* --threads "1,2,4" of augur model best and analytic (cmd_model_best.c): a
 * CLI_CALL into a cli_thread_list, whole numbers >= 1, at most
 * CLI_MAX_THREAD_LIST. */
#define CLI_MAX_THREAD_LIST 64
typedef struct cli_thread_list {
  long v[CLI_MAX_THREAD_LIST];
  size_t n;
} cli_thread_list;
int cli_opt_threads(const char *opt, const char *val, void *dst);
/* augur model analytic (cmd_model_analytic.c), dispatched by cmd_model.c. */
int cmd_model_analytic(int argc, char **argv);
/* fit --weights seed|variance|relative (cmd_model_best.c): when WEIGHTS names a
 * scheme and T (read from DATA) has no such column, adds it, computed for
 * FORMULA's response. CLI_OK, or CLI_FAIL after one line. */
struct augur_model_table;
int cli_model_weights_keyword(struct augur_model_table *t, const char *data, const char *weights,
                              const char *formula);

/* The parallel-efficiency threshold of `augur jobs` and `augur web`
 * (cmd_jobs.c): the --pe-threshold option's parser (a CLI_CALL into a
 * double, the fraction), and the default from $AUGUR_PE_THRESHOLD (60 %
 * without it; CLI_USAGE after the message when it is not a percentage). */
int cli_pe_threshold(const char *opt, const char *val, void *dst);
int cli_pe_threshold_env(double *out);

#endif
