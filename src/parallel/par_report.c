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

#define TAG_PART   2701
#define TAG_STATES 2702

/* Sends BUF[0..N) to analysis rank TO (an empty message: this rank failed,
 * or ran out of memory packing, which fails the report). */
static void send_blob(unsigned char *buf, size_t n, int to, int tag) {
  if (!buf || n > INT_MAX) n = 0;
  MPI_Request req;
  MPI_Isend(buf, (int)n, MPI_BYTE, to, tag, MPI_COMM_WORLD, &req);
  par_wait(&req);
  free(buf);
}

/* Receives what analysis rank FROM sent with TAG into *BUF (malloc'd) and
 * *N. CLI_OK, or CLI_FAIL after saying why. */
static int recv_blob(int from, int tag, unsigned char **buf, int *n) {
  MPI_Status st;
  int there = 0;
  long ns = 100000;
  for (;;) { /* MPI_Probe would spin a CPU */
    MPI_Iprobe(from, tag, MPI_COMM_WORLD, &there, &st);
    if (there) break;
    par_nap(&ns);
  }
  MPI_Get_count(&st, MPI_BYTE, n);
  *buf = malloc(*n > 0 ? (size_t)*n : 1);
  MPI_Recv(*buf ? *buf : (unsigned char *)&there, *buf ? *n : 0, MPI_BYTE, from, tag,
           MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (!*buf) return cli_fail("--parallel: out of memory receiving from analysis rank %d", from);
  if (*n <= 0) {
    free(*buf);
    *buf = NULL; /* it failed, and said why */
    return cli_fail("--parallel: analysis rank %d sent no report (see its message above)", from);
  }
  return CLI_OK;
}

/* Takes the report part and the states of analysis rank FROM. */
static int take(aug_report_part *part, par_states *ps, int from) {
  unsigned char *buf = NULL;
  int n = 0, rc = recv_blob(from, TAG_PART, &buf, &n);
  augur_error err = {0};
  int m = rc == CLI_OK ? aug_report_part_merge(part, buf, (size_t)n, &err) : 0;
  free(buf);
  buf = NULL;
  int rc2 = recv_blob(from, TAG_STATES, &buf, &n);
  int m2 = rc2 == CLI_OK ? par_states_merge(ps, buf, (size_t)n) : 0;
  free(buf);
  if (rc != CLI_OK || rc2 != CLI_OK) return CLI_FAIL;
  if (m == -1 || m2 == -1)
    return cli_fail("--parallel: out of memory merging the parts of analysis rank %d", from);
  if (m < 0) return cli_fail("%s", err.msg);
  if (m2 < 0)
    return cli_fail("--parallel: the thread states of analysis rank %d are damaged", from);
  return CLI_OK;
}

static void give(const aug_report_part *part, const par_states *ps, int ok, int to) {
  unsigned char *buf = NULL;
  size_t n = 0;
  if (ok && aug_report_part_pack(part, &buf, &n) < 0) buf = NULL;
  send_blob(buf, n, to, TAG_PART);
  buf = NULL;
  if (ok && par_states_pack(ps, &buf, &n) < 0) buf = NULL;
  send_blob(buf, n, to, TAG_STATES);
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
    rc = aug_pop_from_states(t, rs, ps->n, ps->damaged, !o->no_ideal, &pop, &err) == AUGUR_OK
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

  par_time(NULL);
  augur_trace *t = NULL;
  int rc = par_open(o.path, &t);
  par_time("open");
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

  /* The binomial tree: at step s, ranks that are multiples of 2s take the
   * parts of rank + s, whose block follows theirs; the others hand theirs
   * over and are done. A rank that failed still takes part (its empty
   * message fails the merge), so nobody waits forever. */
  for (int s = 1; s < m; s *= 2) {
    if (me % (2 * s)) {
      give(&part, &ps, rc == CLI_OK, me - s);
      break;
    }
    if (me + s < m) {
      int r2 = take(&part, &ps, me + s);
      if (rc == CLI_OK) rc = r2;
    }
  }
  par_time("merge");
  if (me == 0 && rc == CLI_OK) rc = finish(t, &part, &ps, &o);
  par_states_free(&ps);
  aug_report_part_free(&part);
  augur_trace_close(t);
  MPI_Request req;
  MPI_Ibcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
  par_wait(&req);
  par_time("done");
  return rc;
}
