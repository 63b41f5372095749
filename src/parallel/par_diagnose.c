/* `augur diagnose --parallel` (docs/parallel.md, "diagnose"): what is built
 * of the design. The diagnosis itself (one pass over the merged stream) is
 * computed serially on analysis rank 0, which says so on stderr: its
 * parallel replay (cross-block sends, collective entries, critical-path
 * hand-overs) is not built yet. Without --html, the other analysis ranks
 * decode the records, each a block of ranks, and send them in the block's
 * merged order (par_stream.c); analysis rank 0 merges them and runs the
 * engine on that stream. With --html, the efficiencies of the page
 * are computed meanwhile by the other analysis ranks: each reads the thread
 * states of a block of ranks (par_states.c), they go up a binomial tree
 * rooted at analysis rank 1, which runs the rest of augur_pop_trace (the
 * ideal replay included) and hands the efficiencies to analysis rank 0.
 * Analysis rank 0 prints with the serial command's code (cli_diagnose.h). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/diagnose.h"
#include "augur/pop.h"
#include "augur/timeline.h"
#include "cli.h"
#include "cli_diagnose.h"
#include "dx_html.h"
#include "par.h"
#include "pop_states.h"

/* What analysis rank 1 hands over (PAR_TAG_POP): a word saying which, then
 * the augur_pop (same executable on both sides: its bytes, no regions) or
 * the error message of the efficiencies. */
enum { POP_OK, POP_SERIAL, POP_ERROR };

static int take_states(void *ctx, int from) {
  return par_states_take(ctx, from);
}

static void give_states(void *ctx, int ok, int to) {
  par_states_give(ctx, ok, to);
}

static void send_pop(int kind, const augur_pop *pop, const char *msg) {
  size_t body = kind == POP_OK ? sizeof *pop : kind == POP_ERROR ? strlen(msg) + 1 : 0;
  unsigned char *buf = malloc(sizeof(int) + body);
  if (buf) {
    memcpy(buf, &kind, sizeof kind);
    if (kind == POP_OK) {
      augur_pop p = *pop;
      p.regions = NULL; /* none without OpenMP records (else POP_SERIAL) */
      memcpy(buf + sizeof kind, &p, sizeof p);
    } else if (kind == POP_ERROR) {
      memcpy(buf + sizeof kind, msg, body);
    }
  }
  par_send_blob(buf, sizeof(int) + body, 0, PAR_TAG_POP);
}

/* Analysis ranks 1..M-1 with --html: the thread states of a block each, up
 * the tree to analysis rank 1, which computes the efficiencies and sends
 * them to analysis rank 0. */
static int efficiencies(augur_trace *t, const cli_diagnose_opts *o, int me, int m) {
  uint32_t lo, hi;
  par_block(t, me - 1, m - 1, &lo, &hi);
  par_states ps;
  augur_error err = {0};
  int rc = CLI_OK;
  if (par_states_begin(&ps, augur_trace_nranks(t)) < 0)
    rc = cli_fail("diagnose: out of memory");
  else if (par_states_scan(t, &ps, lo, hi, &err) != AUGUR_OK)
    rc = cli_fail("%s", err.msg);
  par_time("states");
  rc = par_tree(1, rc, take_states, give_states, &ps);
  par_time("merge");
  if (me == 1) {
    if (rc != CLI_OK) {
      send_pop(POP_SERIAL, NULL, NULL); /* said above; rank 0 tries alone */
    } else if (ps.hybrid) {
      send_pop(POP_SERIAL, NULL, NULL);
    } else {
      augur_pop pop;
      augur_rank_states *rs = ps.rs;
      ps.rs = NULL; /* taken */
      if (aug_pop_from_states(t, rs, ps.n, ps.damaged, !o->no_ideal, NULL, NULL, &pop, &err) !=
          AUGUR_OK) {
        send_pop(POP_ERROR, NULL, err.msg);
      } else {
        send_pop(pop.nregions ? POP_SERIAL : POP_OK, &pop, NULL);
        augur_pop_free(&pop);
      }
    }
    par_time("pop");
  }
  par_states_free(&ps);
  return rc;
}

/* On analysis rank 0: the page, with the efficiencies of analysis rank 1
 * (M > 1) or its own (serially, as the serial command). With M > 1 the
 * page's timeline is built while rank 1 still computes the efficiencies
 * (if that fails, cli_diagnose_html builds it again and says why where the
 * serial command says it). */
static int html(const augur_diagnosis *d, augur_trace *t, const cli_diagnose_opts *o, int m,
                int rc) {
  augur_pop pop;
  augur_error err = {0};
  augur_timeline *tl = NULL;
  int kind = POP_SERIAL, got = CLI_FAIL;
  if (m > 1) {
    if (rc == CLI_OK && augur_dx_html_timeline_build(d, t, &tl, &err)) tl = NULL;
    par_time("timeline");
    unsigned char *buf = NULL;
    int n = 0;
    got = par_recv_blob(1, PAR_TAG_POP, &buf, &n);
    if (got == CLI_OK && n >= (int)sizeof kind) memcpy(&kind, buf, sizeof kind);
    if (got == CLI_OK && kind == POP_OK && n == (int)(sizeof kind + sizeof pop))
      memcpy(&pop, buf + sizeof kind, sizeof pop);
    else if (got == CLI_OK && kind == POP_ERROR && rc == CLI_OK)
      rc = cli_fail("%.*s", n - (int)sizeof kind - 1, (const char *)buf + sizeof kind);
    else
      kind = POP_SERIAL;
    free(buf);
    if (rc == CLI_OK && got == CLI_OK && kind == POP_SERIAL)
      cli_note("--parallel: the trace has OpenMP records, whose thread states are not merged "
               "in parallel yet: the efficiencies are computed serially on analysis rank 0 "
               "(docs/parallel.md)");
  }
  if (rc == CLI_OK && kind == POP_SERIAL &&
      augur_pop_trace(t, !o->no_ideal, &pop, &err) != AUGUR_OK)
    rc = cli_fail("%s", err.msg);
  if (rc != CLI_OK) {
    augur_timeline_free(tl);
    return rc;
  }
  rc = cli_diagnose_html(d, t, &pop, tl, o);
  augur_pop_free(&pop);
  par_time("html");
  return rc;
}

/* Analysis rank 0: the diagnosis, printed; then the page. With the records
 * decoded elsewhere rank 0 still runs the engine (the same augur_diagnose
 * on the same stream: the same bytes). */
static int diagnose(augur_trace *t, const cli_diagnose_opts *o, int m) {
  augur_dx_options dx = o->dx;
  augur_stream_source *src = NULL;
  int split = m > 1 && !o->html;
  if (split) { /* analysis ranks 1..M-1 decode the records, rank 0 none */
    src = par_sources_open(t, "the diagnosis runs");
    dx.open_stream = par_sources_stream;
    dx.open_stream_arg = src;
  } else {
    cli_note("--parallel: the diagnosis is computed serially on analysis rank 0 (its parallel "
             "replay is not built yet; docs/parallel.md)");
  }
  augur_diagnosis *d = NULL;
  augur_error err = {0};
  int rc = augur_diagnose(t, &dx, &d, &err) < 0 ? cli_fail("%s", err.msg) : CLI_OK;
  par_sources_close(src);
  par_time("diagnose");
  if (rc == CLI_OK) rc = cli_diagnose_print(t, d, o);
  par_time("print");
  if (o->html) rc = html(d, t, o, m, rc); /* takes rank 1's efficiencies whatever RC */
  augur_diagnosis_free(d);
  return rc;
}

int par_diagnose(int argc, char **argv) {
  int me = 0, m = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &m);
  cli_diagnose_opts o;
  int status = CLI_OK;
  if (me) par_quiet(1);
  int go = cli_diagnose_args(argc, argv, &o, &status);
  if (me) par_quiet(0);
  if (!go) return status;

  augur_trace *t = NULL;
  int rc = par_open(o.path, &t);
  if (rc != CLI_OK) return rc;
  if (me == 0) {
    rc = diagnose(t, &o, m);
  } else if (o.html) {
    rc = efficiencies(t, &o, me, m);
  } else {
    par_stream_block(t, 0);
  }
  augur_trace_close(t);
  return par_done(rc);
}
