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

/* `augur diagnose --parallel` (par_diagnose.c): the same contract. */
int par_diagnose(int argc, char **argv);
/* `augur phases --parallel` (par_phases.c): the same contract. */
int par_phases(int argc, char **argv);

/* The tags of what goes up the trees. */
#define PAR_TAG_PART   2701 /* a report part (report_part.h) */
#define PAR_TAG_STATES 2702 /* thread states (par_states) */
#define PAR_TAG_POP    2703 /* diagnose --html: the efficiencies, to analysis rank 0 */
#define PAR_TAG_RECS   2704 /* a block's records, in its merged order (par_stream.c) */
#define PAR_TAG_STOP   2705 /* the receiver of PAR_TAG_RECS is done */

/* Records decoded here, merged elsewhere (par_stream.c): sends the MPI
 * records of ranks [LO, HI) to analysis rank TO in the order
 * augur_stream_merged_sources(T, LO, HI, NULL, 0) gives them (with SLACK
 * > 0: with that slack, augur_stream_set_slack, for a consumer that needs
 * each rank's order only), with their errors, a window of messages at a
 * time; returns once TO said it is done (par_source_close), which it may
 * say before the end. Not collective: TO and this rank only. */
void par_stream_send(augur_trace *t, uint32_t lo, uint32_t hi, int to, uint64_t slack);
/* The receiving end, an augur_stream_source over what analysis rank FROM
 * sends (par_source_next its NEXT, the par_source its ARG). NULL when out
 * of memory. Close it after the stream that reads it: it tells the sender
 * to stop and takes what is still in flight. */
typedef struct par_source par_source;
par_source *par_source_open(int from);
int par_source_next(void *arg, const augur_event **ev, size_t *n, uint64_t *at, augur_error *err);
void par_source_close(par_source *p);
/* The records of analysis ranks 1..M-1 (M >= 2), each the block
 * par_block(t, k - 1, M - 1) of analysis rank k: on analysis rank 0, their
 * sources in block order (par_sources_open, which says so on stderr: the
 * records decoded elsewhere, WHAT ("the diagnosis runs") on analysis rank
 * 0; out of memory ends the job, after saying so), a merged stream over
 * them (par_sources_stream, an open_stream of augur_dx_options or
 * augur_logical_opts with the sources as ARG), closed after that stream
 * (par_sources_close); on analysis rank k >= 1, par_stream_block sends its
 * block (par_stream_send's SLACK). */
augur_stream_source *par_sources_open(augur_trace *t, const char *what);
int par_sources_stream(void *arg, augur_trace *t, augur_stream **s, augur_error *err);
void par_sources_close(augur_stream_source *src);
void par_stream_block(augur_trace *t, uint64_t slack);

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
/* Receives the states of analysis rank FROM (par_states_give) and merges
 * them: CLI_OK, or CLI_FAIL after saying why. */
int par_states_take(par_states *ps, int from);
/* Sends PS to analysis rank TO (nothing when !OK: this rank failed, which
 * fails the receiver's merge). */
void par_states_give(const par_states *ps, int ok, int to);

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
 * has ranks. CLI_OK with *T open, or the exit status. Starts the step
 * clocks of par_time (its first step: "open"). */
int par_open(const char *path, augur_trace **t);
/* The block of application ranks [*lo, *hi) of analysis rank ME of M: M
 * contiguous blocks of at least one rank each, cut where the records on
 * disk (the block index) are shared most evenly. */
void par_block(const augur_trace *t, int me, int m, uint32_t *lo, uint32_t *hi);

/* The end of a command: analysis rank 0's exit status RC, on every rank
 * (the others wait for it without spinning). */
int par_done(int rc);
/* The binomial tree over analysis ranks [BASE, M), rooted at BASE: at step
 * s (1, 2, 4 ...) a rank whose index from BASE is a multiple of 2s calls
 * TAKE(CTX, rank + s) when that rank exists (merging what it holds, which
 * follows its own block); the others call GIVE(CTX, RC == CLI_OK, rank - s)
 * and stop. No rank takes more than ceil(log2(M - BASE)) times. Returns RC,
 * or on a taker the first failed TAKE's status. Ranks below BASE must not
 * call it. */
int par_tree(int base, int rc, int (*take)(void *ctx, int from),
             void (*give)(void *ctx, int ok, int to), void *ctx);
/* Sends BUF[0..N) to analysis rank TO with TAG and frees BUF (NULL: an
 * empty message, which says this rank failed and fails the receiver). */
void par_send_blob(unsigned char *buf, size_t n, int to, int tag);
/* Receives what analysis rank FROM sent with TAG into *BUF (malloc'd) and
 * *N, waiting without spinning. CLI_OK, or CLI_FAIL after saying why. */
int par_recv_blob(int from, int tag, unsigned char **buf, int *n);

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
/* AUGUR_PARALLEL_TIMES=1 in the environment: the analysis ranks print their steps' times. */
int par_times_on(void);

#endif
