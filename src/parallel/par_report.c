/* `augur report --parallel` (docs/parallel.md): each analysis rank reads
 * its block of rank files into a report part (report_part.h) and the
 * block's thread states (par_states.c); both are merged up a binomial tree
 * (rank k + 2^j hands its parts to k), so no rank receives more than
 * ceil(log2 M) of each; analysis rank 0 computes the efficiencies from the
 * states (and the ideal replay, whole) and prints with the serial
 * command's code (cli_report.h). */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "augur/pop.h"
#include "augur/report.h"
#include "cli.h"
#include "cli_report.h"
#include "par.h"
#include "pop_states.h"
#include "report_part.h"

/* Takes the report part and the states of analysis rank FROM. */
static int take(aug_report_part *part, par_states *ps, int from) {
  unsigned char *buf = NULL;
  int n = 0, rc = par_recv_blob(from, PAR_TAG_PART, &buf, &n);
  augur_error err = {0};
  int m = rc == CLI_OK ? aug_report_part_merge(part, buf, (size_t)n, &err) : 0;
  free(buf);
  int rc2 = par_states_take(ps, from);
  if (rc != CLI_OK) return CLI_FAIL;
  if (m == -1)
    return cli_fail("--parallel: out of memory merging the parts of analysis rank %d", from);
  if (m < 0) return cli_fail("%s", err.msg);
  return rc2;
}

static void give(const aug_report_part *part, const par_states *ps, int ok, int to) {
  unsigned char *buf = NULL;
  size_t n = 0;
  if (ok && aug_report_part_pack(part, &buf, &n) < 0) buf = NULL;
  par_send_blob(buf, n, to, PAR_TAG_PART);
  par_states_give(ps, ok, to);
}

/* The tree's callbacks (par_tree): the report part and the states. */
typedef struct parts {
  aug_report_part *part;
  par_states *ps;
} parts;

static int take_cb(void *ctx, int from) {
  parts *p = ctx;
  return take(p->part, p->ps, from);
}

static void give_cb(void *ctx, int ok, int to) {
  parts *p = ctx;
  give(p->part, p->ps, ok, to);
}

/* On analysis rank 0, every block merged: the report and the efficiencies,
 * printed. */
static int finish(augur_trace *t, aug_report_part *part, par_states *ps, const cli_report_opts *o) {
  augur_error err = {0};
  augur_pop pop;
  int rc;
  if (ps->hybrid) {
    cli_note("--parallel: the trace has OpenMP records, whose thread states are not merged "
             "in parallel yet: the efficiencies are computed serially on analysis rank 0 "
             "(docs/parallel.md)");
    rc = cli_report_pop(t, o, &pop);
  } else {
    augur_rank_states *rs = ps->rs;
    ps->rs = NULL; /* taken */
    rc = aug_pop_from_states(t, rs, ps->n, ps->damaged, !o->no_ideal, NULL, NULL, &pop, &err) ==
                 AUGUR_OK
             ? CLI_OK
             : cli_fail("%s", err.msg);
  }
  par_time("pop");
  if (rc != CLI_OK) return rc;
  augur_report *r = NULL;
  int st;
  if (aug_report_part_partial(part)) {
    /* Not merged in this step: the MPI-IO and one-sided sections. The
     * whole report is read again here, so the output stays the serial
     * one; only the time is lost. */
    cli_note("--parallel: the trace has MPI-IO or one-sided records, whose report sections "
             "are not computed in parallel yet: the report is read serially on analysis "
             "rank 0 (docs/parallel.md)");
    aug_report_part_free(part);
    st = augur_report_compute(t, &r, NULL, NULL, &err);
  } else {
    st = aug_report_part_finish(part, &r, &err);
  }
  rc = r ? cli_report_print(t, r, &pop, st, &err, o) : cli_fail("%s", err.msg);
  augur_report_free(r);
  augur_pop_free(&pop);
  par_time("print");
  return rc;
}

int par_report(int argc, char **argv) {
  int me = 0, m = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &m);
  cli_report_opts o;
  int status = CLI_OK;
  if (me) par_quiet(1);
  int go = cli_report_args(argc, argv, &o, &status);
  if (me) par_quiet(0);
  if (!go) return status;

  augur_trace *t = NULL;
  int rc = par_open(o.path, &t);
  if (rc != CLI_OK) return rc;
  uint32_t lo, hi;
  par_block(t, me, m, &lo, &hi);

  aug_report_part part;
  par_states ps;
  augur_error err = {0};
  int ok = aug_report_part_begin(t, &part, &err);
  if (ok == AUGUR_OK) ok = aug_report_part_scan(t, &part, lo, hi, NULL, NULL, &err);
  if (ok == AUGUR_OK && par_states_begin(&ps, augur_trace_nranks(t)) < 0)
    ok = augur_fail(&err, AUGUR_E_NOMEM, "report: out of memory");
  else if (ok == AUGUR_OK)
    ok = par_states_scan(t, &ps, lo, hi, &err);
  else
    par_states_begin(&ps, 0);
  rc = ok == AUGUR_OK ? CLI_OK : cli_fail("%s", err.msg);
  par_time("scan");

  /* The binomial tree: the parts of rank + s, whose block follows the
   * receiver's, are merged into its own. */
  rc = par_tree(0, rc, take_cb, give_cb, &(parts){&part, &ps});
  par_time("merge");
  if (me == 0 && rc == CLI_OK) rc = finish(t, &part, &ps, &o);
  par_states_free(&ps);
  aug_report_part_free(&part);
  augur_trace_close(t);
  return par_done(rc);
}
