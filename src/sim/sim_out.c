/* Simulation results as aligned text and as JSON. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "augur/text.h"
#include "sim_int.h"

/* Beyond this many ranks the table shows the ranks that finish last (the
 * prediction is the last one's finish) and each column's minimum, mean and
 * maximum over all ranks: a line per rank of 65,536 is not read. As
 * `augur report`'s "Time per rank" (report_text.c). */
#define SIM_TEXT_RANKS 16

typedef struct finish_of {
  double finish;
  uint32_t rank;
} finish_of;

/* Finish, latest first; then rank. */
static int cmp_finish(const void *a, const void *b) {
  const finish_of *x = a, *y = b;
  if (x->finish != y->finish) return x->finish > y->finish ? -1 : 1;
  return x->rank < y->rank ? -1 : 1;
}

static void rank_row(FILE *f, const char *label, const augur_sim_rank *k) {
  fprintf(f, "%6s %12.6f %12.6f %12.6f %12.6f %12.6f %12.6f\n", label, k->compute, k->send_wait,
          k->recv_wait, k->sync_wait, k->mpi, k->finish);
}

static void fold(double v, double *lo, double *hi, double *sum) {
  if (v < *lo) *lo = v;
  if (v > *hi) *hi = v;
  *sum += v;
}

/* The columns' minimum, mean and maximum over the N > 0 ranks R. */
static void rank_summary(FILE *f, const augur_sim_rank *r, uint32_t n) {
  augur_sim_rank lo = r[0], hi = r[0], m = {0};
  for (uint32_t i = 0; i < n; i++) {
    fold(r[i].compute, &lo.compute, &hi.compute, &m.compute);
    fold(r[i].send_wait, &lo.send_wait, &hi.send_wait, &m.send_wait);
    fold(r[i].recv_wait, &lo.recv_wait, &hi.recv_wait, &m.recv_wait);
    fold(r[i].sync_wait, &lo.sync_wait, &hi.sync_wait, &m.sync_wait);
    fold(r[i].mpi, &lo.mpi, &hi.mpi, &m.mpi);
    fold(r[i].finish, &lo.finish, &hi.finish, &m.finish);
  }
  m = (augur_sim_rank){m.compute / n,   m.send_wait / n, m.recv_wait / n,
                       m.sync_wait / n, m.mpi / n,       m.finish / n};
  fputc('\n', f);
  rank_row(f, "min", &lo);
  rank_row(f, "mean", &m);
  rank_row(f, "max", &hi);
}

void augur_sim_write_text(FILE *f, const augur_sim_result *r, double measured) {
  fprintf(f, "predicted time: %.6f s\n", r->predicted_seconds);
  if (measured >= 0) {
    double err = measured > 0 ? (r->predicted_seconds - measured) / measured * 100 : 0;
    fprintf(f, "measured time:  %.6f s (prediction %+.1f %%)\n", measured, err);
  }
  fprintf(f, "\n%6s %12s %12s %12s %12s %12s %12s\n", "rank", "compute", "send_wait", "recv_wait",
          "sync_wait", "mpi", "finish");
  finish_of *order = r->nranks > SIM_TEXT_RANKS ? malloc(r->nranks * sizeof *order) : NULL;
  uint32_t shown = r->nranks > SIM_TEXT_RANKS ? SIM_TEXT_RANKS : r->nranks;
  if (order) {
    for (uint32_t i = 0; i < r->nranks; i++)
      order[i] = (finish_of){r->ranks[i].finish, i};
    qsort(order, r->nranks, sizeof *order, cmp_finish);
  }
  for (uint32_t i = 0; i < shown; i++) { /* out of memory: the first ones */
    uint32_t k = order ? order[i].rank : i;
    char label[16];
    snprintf(label, sizeof label, "%u", k);
    rank_row(f, label, &r->ranks[k]);
  }
  if (shown < r->nranks) {
    fprintf(f, "  (%u ranks %s shown of %u; --json has all)\n", shown,
            order ? "that finish last" : "first", r->nranks);
    rank_summary(f, r->ranks, r->nranks);
  }
  free(order);
  double ev = r->wall_seconds > 0 ? (double)r->ops / r->wall_seconds : 0;
  fprintf(f, "\n%llu operations, %llu messages replayed in %.3f s (%.2f M operations/s)\n",
          (unsigned long long)r->ops, (unsigned long long)r->messages, r->wall_seconds, ev / 1e6);
}

/* S as a JSON string, escaped by jansson. */
static void json_str(FILE *f, const char *s) {
  json_t *v = augur_json_text(s);
  char *t = v ? json_dumps(v, JSON_ENCODE_ANY) : NULL;
  fputs(t ? t : "null", f);
  free(t);
  json_decref(v);
}

void augur_sim_write_json(FILE *f, const augur_sim_result *r, const augur_sim_graph_stats *gs,
                          double measured, const char *const *notes, size_t nnotes) {
  fprintf(f, "{\"schema\":1,\"predicted_seconds\":%.9g", r->predicted_seconds);
  if (measured >= 0) fprintf(f, ",\"measured_seconds\":%.9g", measured);
  fprintf(f, ",\"ranks\":[");
  for (uint32_t i = 0; i < r->nranks; i++) {
    const augur_sim_rank *k = &r->ranks[i];
    fprintf(f,
            "%s{\"rank\":%u,\"compute\":%.9g,\"send_wait\":%.9g,\"recv_wait\":%.9g,"
            "\"sync_wait\":%.9g,\"mpi\":%.9g,\"finish\":%.9g}",
            i ? "," : "", i, k->compute, k->send_wait, k->recv_wait, k->sync_wait, k->mpi,
            k->finish);
  }
  fprintf(f, "],\"operations\":%llu,\"messages\":%llu,\"events\":%llu,\"wall_seconds\":%.6g",
          (unsigned long long)r->ops, (unsigned long long)r->messages,
          (unsigned long long)r->heap_events, r->wall_seconds);
  if (gs)
    fprintf(f,
            ",\"graph\":{\"ops\":%llu,\"messages\":%llu,\"collectives\":%llu,\"unmatched\":%llu,"
            "\"trace_events\":%llu,\"bytes\":%llu}",
            (unsigned long long)gs->ops, (unsigned long long)gs->messages,
            (unsigned long long)gs->collectives, (unsigned long long)gs->unmatched,
            (unsigned long long)gs->trace_events, (unsigned long long)gs->bytes);
  fprintf(f, ",\"notes\":[");
  for (size_t i = 0; notes && i < nnotes; i++) {
    if (i) fputc(',', f);
    json_str(f, notes[i]);
  }
  fprintf(f, "]}\n");
}
