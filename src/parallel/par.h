/* augur-parallel-<flavour> (par_main.c): the commands it runs, and what
 * they share (par_util.c). Every function here is collective over
 * MPI_COMM_WORLD: every analysis rank calls it, in the same order. */
#ifndef AUGUR_PAR_H
#define AUGUR_PAR_H

#include <mpi.h>
#include <stdint.h>

#include "augur/omp.h"
#include "augur/reader.h"

/* `augur report --parallel` (par_report.c): ARGV as cmd_report gets it.
 * Returns the exit status, the same on every analysis rank. */
int par_report(int argc, char **argv);

/* The thread states of a block of ranks, for the POP efficiencies
 * (par_states.c): RS has every rank of the trace, filled for [lo, hi) by
 * the scan and for the blocks merged after it; DAMAGED the first damaged
 * rank's message; HYBRID: a rank had OpenMP records, which are not packed
 * (then the efficiencies are computed serially). */
typedef struct par_states {
  augur_rank_states *rs;
  uint32_t n, lo, hi;
  int hybrid;
  char damaged[AUGUR_ERROR_MSG_MAX];
} par_states;
/* 0, or -1 when out of memory. */
int par_states_begin(par_states *ps, uint32_t nranks);
/* The states of ranks [lo, hi). AUGUR_OK or AUGUR_E_NOMEM. */
int par_states_scan(augur_trace *t, par_states *ps, uint32_t lo, uint32_t hi, augur_error *err);
/* As bytes (malloc'd): 0, or -1 when out of memory. */
int par_states_pack(const par_states *ps, unsigned char **buf, size_t *n);
/* Takes the packed states of a block after PS's: 0, -1 when out of
 * memory, -2 when BUF is not such states. */
int par_states_merge(par_states *ps, const unsigned char *buf, size_t n);
void par_states_free(par_states *ps);

/* While quiet, this analysis rank's stdout and stderr go to /dev/null:
 * every rank runs the same checks (options, the trace's opening) and only
 * analysis rank 0 says what they found. par_quiet(1) on ranks other than
 * 0 only; par_quiet(0) restores. */
void par_quiet(int on);
/* The largest of every rank's V (exit statuses: CLI_OK < CLI_FAIL <
 * CLI_USAGE). */
int par_max(int v);
/* Opens PATH on every analysis rank (analysis rank 0 says why it cannot)
 * and checks that there are at most as many analysis ranks as the trace
 * has ranks. CLI_OK with *T open, or the exit status. */
int par_open(const char *path, augur_trace **t);
/* The block of application ranks [*lo, *hi) of analysis rank ME of M: M
 * contiguous blocks of at least one rank each, cut where the records on
 * disk (the block index) are shared most evenly. */
void par_block(const augur_trace *t, int me, int m, uint32_t *lo, uint32_t *hi);

/* Waits for REQ without spinning a CPU: MPI_Test, then a sleep. An
 * analysis rank that is done waits for rank 0 (the efficiencies) this way,
 * instead of taking CPU time from it on an oversubscribed node. */
void par_wait(MPI_Request *req);
/* One nap of such a wait: sleeps *NS ns (start with 100000) and doubles it
 * up to 10 ms. */
void par_nap(long *ns);

/* With AUGUR_PARALLEL_TIMES=1 in the environment, one line per analysis
 * rank and step on stderr: "augur-parallel: rank K STEP wall S cpu S"
 * (since the previous call), for the performance model of
 * docs/parallel.md. Nothing otherwise. */
void par_time(const char *step);

#endif
