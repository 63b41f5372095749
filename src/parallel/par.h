/* augur-parallel-<flavour> (par_main.c): the commands it runs, and what
 * they share (par_util.c). Every function here is collective over
 * MPI_COMM_WORLD: every analysis rank calls it, in the same order. */
#ifndef AUGUR_PAR_H
#define AUGUR_PAR_H

#include <stdint.h>

#include "augur/reader.h"

/* `augur report --parallel` (par_report.c): ARGV as cmd_report gets it.
 * Returns the exit status, the same on every analysis rank. */
int par_report(int argc, char **argv);

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

#endif
