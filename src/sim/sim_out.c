/* Simulation results as aligned text and as JSON. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "augur/text.h"
#include "sim_int.h"

void augur_sim_write_text(FILE *f, const augur_sim_result *r, double measured) {
  fprintf(f, "predicted time: %.6f s\n", r->predicted_seconds);
  if (measured >= 0) {
    double err = measured > 0 ? (r->predicted_seconds - measured) / measured * 100 : 0;
    fprintf(f, "measured time:  %.6f s (prediction %+.1f %%)\n", measured, err);
  }
  fprintf(f, "\n%6s %12s %12s %12s %12s %12s %12s\n", "rank", "compute", "send_wait", "recv_wait",
          "sync_wait", "mpi", "finish");
  for (uint32_t i = 0; i < r->nranks; i++) {
    const augur_sim_rank *k = &r->ranks[i];
    fprintf(f, "%6u %12.6f %12.6f %12.6f %12.6f %12.6f %12.6f\n", i, k->compute, k->send_wait,
            k->recv_wait, k->sync_wait, k->mpi, k->finish);
  }
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
