/* `augur report --parallel` (docs/parallel.md): each analysis rank reads
 * its block of rank files into a report part (report_part.h); the parts
 * are merged up a binomial tree (rank k + 2^j hands its part to k), so no
 * rank receives more than log2(M) parts; analysis rank 0 prints with the
 * serial command's code (cli_report.h). The POP efficiencies are computed
 * whole on analysis rank 0 while the others read their blocks. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "augur/pop.h"
#include "augur/report.h"
#include "cli.h"
#include "cli_report.h"
#include "par.h"
#include "report_part.h"

#define TAG_PART 2701

/* Sends P to analysis rank TO: its bytes, or an empty message when they
 * could not be made (out of memory), which fails the report. */
static void send_part(const aug_report_part *p, int to) {
  unsigned char *buf = NULL;
  size_t n = 0;
  if (aug_report_part_pack(p, &buf, &n) < 0 || n > INT_MAX) n = 0;
  MPI_Send(buf, (int)n, MPI_BYTE, to, TAG_PART, MPI_COMM_WORLD);
  free(buf);
}

/* Receives the part of analysis rank FROM and merges it into P. CLI_OK,
 * or CLI_FAIL after saying why. */
static int recv_part(aug_report_part *p, int from) {
  MPI_Status st;
  int n = 0;
  MPI_Probe(from, TAG_PART, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_BYTE, &n);
  unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
  MPI_Recv(buf ? buf : (unsigned char *)&n, buf ? n : 0, MPI_BYTE, from, TAG_PART, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  augur_error err = {0};
  int rc = !buf || n <= 0 ? -1 : aug_report_part_merge(p, buf, (size_t)n, &err);
  free(buf);
  if (rc == -1 && buf && n > 0)
    return cli_fail("--parallel: out of memory merging the report of analysis rank %d", from);
  if (rc == -1) /* it sent nothing: it failed, and said why */
    return cli_fail("--parallel: analysis rank %d sent no report (see its message above)", from);
  if (rc < 0) return cli_fail("%s", err.msg);
  return CLI_OK;
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
  augur_error err = {0};
  rc = aug_report_part_begin(t, &part, &err);
  if (rc == AUGUR_OK) rc = aug_report_part_scan(t, &part, lo, hi, NULL, NULL, &err);
  rc = rc == AUGUR_OK ? CLI_OK : cli_fail("%s", err.msg);

  /* Analysis rank 0 computes the efficiencies while the others still read. */
  augur_pop pop;
  int have_pop = 0;
  if (me == 0 && rc == CLI_OK) {
    rc = cli_report_pop(t, &o, &pop);
    have_pop = rc == CLI_OK;
  }

  /* The binomial tree: at step s, ranks that are multiples of 2s take the
   * part of rank + s, whose block follows theirs; the others hand theirs
   * over and are done. A rank that failed still takes part (its empty
   * part is refused by the merge), so nobody waits forever. */
  for (int s = 1; s < m; s *= 2) {
    if (me % (2 * s)) {
      if (rc == CLI_OK)
        send_part(&part, me - s);
      else
        MPI_Send(NULL, 0, MPI_BYTE, me - s, TAG_PART, MPI_COMM_WORLD);
      break;
    }
    if (me + s < m) {
      int r2 = recv_part(&part, me + s);
      if (rc == CLI_OK) rc = r2;
    }
  }

  if (me == 0 && rc == CLI_OK) {
    augur_report *r = NULL;
    int st;
    if (aug_report_part_partial(&part)) {
      /* Not merged in this step: the MPI-IO and one-sided sections. The
       * whole report is read again here, so the output stays the serial
       * one; only the time is lost. */
      cli_note("--parallel: the trace has MPI-IO or one-sided records, whose report sections "
               "are not computed in parallel yet: the report is read serially on analysis "
               "rank 0 (docs/parallel.md)");
      aug_report_part_free(&part);
      st = augur_report_compute(t, &r, NULL, NULL, &err);
    } else {
      st = aug_report_part_finish(&part, &r, &err);
    }
    rc = r ? cli_report_print(t, r, &pop, st, &err, &o) : cli_fail("%s", err.msg);
    augur_report_free(r);
  }
  if (have_pop) augur_pop_free(&pop);
  aug_report_part_free(&part);
  augur_trace_close(t);
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return rc;
}
