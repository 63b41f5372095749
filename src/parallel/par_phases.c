/* `augur phases --parallel` (docs/parallel.md, "phases (as built)"): the
 * records decoded by analysis ranks 1..M-1, each a block of ranks sent in
 * its merged order with the build's slack (par_stream.c, as diagnose's);
 * analysis rank 0 merges
 * the blocks (augur_stream_merged_sources) and runs the unchanged phase
 * engine on that stream: the logical trace's one read pass, then the tick
 * pass and the phase detection in memory. The logical trace is a function
 * of each rank's records in order (augur_logical.order_hazards == 0), so
 * the blocks' interleaving gives the serial logical trace, and the same
 * print code (cli_phases.h) the serial bytes. When the trace has hazards
 * (a case where the interleaving matters), or the build fails (damage:
 * the serial first error), analysis rank 0 builds the logical trace again
 * from its own serial stream (the hazards said on stderr). */
#include <mpi.h>

#include "augur/phases.h"
#include "cli.h"
#include "cli_phases.h"
#include "par.h"

/* Analysis rank 0: the logical trace (from the other ranks' records when
 * M > 1), the phases, printed. */
static int phases(augur_trace *t, const cli_phases_opts *o, int m) {
  augur_logical_opts lo = {0};
  augur_stream_source *src = NULL;
  if (m > 1) {
    src = par_sources_open(t, "the phases are computed");
    lo.open_stream = par_sources_stream;
    lo.open_stream_arg = src;
  } else {
    cli_note("--parallel: the phases are computed serially on analysis rank 0 (one analysis "
             "rank; docs/parallel.md)");
  }
  augur_logical *lg = NULL;
  augur_error err = {0};
  int rc = augur_logical_build_opts(t, &lo, &lg, &err) != AUGUR_OK ? CLI_FAIL : CLI_OK;
  par_sources_close(src);
  int hazards = rc == CLI_OK && lg->order_hazards;
  if (m > 1 && (rc != CLI_OK || hazards)) {
    /* Built again from rank 0's own serial stream: with hazards the blocks'
     * interleaving may give another logical trace; at an error, the first
     * error the blocks' stream met (the senders stream with the build's
     * slack) may not be the serial stream's when several ranks are damaged. */
    if (hazards)
      cli_note("--parallel: the logical trace depends on the interleaving of the ranks' records "
               "in this trace (%llu cases: a call in two collective instances, more than %d "
               "communicators, or message ends dropped): it is built again serially on "
               "analysis rank 0 (docs/parallel.md)",
               (unsigned long long)lg->order_hazards, AUGUR_LT_MAX_COMMS);
    augur_logical_free(lg);
    lg = NULL;
    rc = augur_logical_build(t, &lg, &err) != AUGUR_OK ? CLI_FAIL : CLI_OK;
  }
  if (rc != CLI_OK) rc = cli_fail("%s", err.msg);
  par_time("logical");
  if (rc == CLI_OK) rc = cli_phases_print(t, lg, o);
  par_time("print");
  augur_logical_free(lg);
  return rc;
}

int par_phases(int argc, char **argv) {
  int me = 0, m = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &m);
  cli_phases_opts o;
  int status = CLI_OK;
  if (me) par_quiet(1);
  int go = cli_phases_args(argc, argv, &o, &status);
  if (me) par_quiet(0);
  if (!go) return status;

  augur_trace *t = NULL;
  int rc = par_open(o.path, &t);
  if (rc != CLI_OK) return rc;
  if (me == 0)
    rc = phases(t, &o, m);
  else
    par_stream_block(t, AUGUR_LT_SLACK_NS);
  augur_trace_close(t);
  return par_done(rc);
}
