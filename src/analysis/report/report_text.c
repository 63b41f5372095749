/* `augur report` as aligned text. Sections are ordered by what a developer
 * asks first: how long, where the MPI time goes, who waits, then what moves. */
#include <stdlib.h>
#include <string.h>

#include "augur/event.h"
#include "augur/report.h"
#include "report_io.h"
#include "report_rma.h"

#define MAX_RANK_ROWS 16 /* beyond this, show only the ranks that matter */

static double pct(uint64_t part, uint64_t whole) {
  return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_header(FILE *f, const augur_report *r, augur_trace *t) {
  const augur_trace_info *info = augur_trace_info_get(t);
  char wall[32], mpi[32], comp[32];
  augur_fmt_ns(wall, sizeof wall, r->wall_ns);
  augur_fmt_ns(mpi, sizeof mpi, r->mpi_ns);
  augur_fmt_ns(comp, sizeof comp, r->compute_ns);
  fprintf(f, "augur report: %s\n", augur_trace_path(t));
  fprintf(f, "  %u ranks, %llu events, %s%s%s\n", r->nranks, (unsigned long long)r->events,
          info && info->mpi_library ? info->mpi_library : "MPI", r->complete ? "" : ", INCOMPLETE",
          r->error[0] ? " (damaged)" : "");
  fprintf(f, "  wall time  %s (first MPI_Init to %s)\n", wall,
          r->complete ? "last MPI_Finalize" : "the last event read");
  fprintf(f, "  MPI time   %s (%.1f%% of rank time), compute %s (sums over ranks)\n", mpi,
          pct(r->mpi_ns, r->mpi_ns + r->compute_ns), comp);
}

static void print_calls(FILE *f, const augur_report *r, augur_trace *t, int top) {
  if (!r->ncalls) {
    fprintf(f, "\nNo MPI calls between MPI_Init and MPI_Finalize.\n");
    return;
  }
  fprintf(f, "\nTop MPI calls by time\n");
  fprintf(f, "  %-24s %10s %11s %6s %11s %11s\n", "call", "count", "time", "%MPI", "sent",
          "received");
  size_t n = r->ncalls < (size_t)top ? r->ncalls : (size_t)top;
  for (size_t i = 0; i < n; i++) {
    const augur_report_call *c = &r->calls[i];
    char tm[32], sent[32], recv[32];
    augur_fmt_ns(tm, sizeof tm, c->time_ns);
    augur_fmt_bytes(sent, sizeof sent, c->bytes_sent);
    augur_fmt_bytes(recv, sizeof recv, c->bytes_recv);
    fprintf(f, "  %-24s %10llu %11s %5.1f%% %11s %11s\n", augur_event_name(c->type),
            (unsigned long long)c->count, tm, pct(c->time_ns, r->mpi_ns), sent, recv);
    size_t ns = c->nsites < 3 ? c->nsites : 3;
    for (size_t j = 0; j < ns; j++) {
      char where[512], st[32];
      augur_fmt_callsite(where, sizeof where, t, c->sites[j].callsite);
      augur_fmt_ns(st, sizeof st, c->sites[j].time_ns);
      fprintf(f, "    %-22s %10llu %11s  %s\n", "", (unsigned long long)c->sites[j].count, st,
              where);
    }
  }
  if (r->ncalls > n) fprintf(f, "  (%zu more call types; --top N shows more)\n", r->ncalls - n);
}

static int cmp_rank_mpi(const void *a, const void *b) {
  const augur_report_rank *x = *(augur_report_rank *const *)a, *y = *(augur_report_rank *const *)b;
  if (x->mpi_ns != y->mpi_ns) return x->mpi_ns > y->mpi_ns ? -1 : 1;
  return x->rank < y->rank ? -1 : 1;
}

static void print_ranks(FILE *f, const augur_report *r) {
  fprintf(f, "\nTime per rank\n");
  fprintf(f, "  %-8s %11s %11s %6s\n", "rank", "compute", "MPI", "%MPI");
  const augur_report_rank **order = malloc((r->nranks ? r->nranks : 1) * sizeof *order);
  if (!order) return;
  for (uint32_t i = 0; i < r->nranks; i++)
    order[i] = &r->ranks[i];
  uint32_t shown = r->nranks;
  if (r->nranks > MAX_RANK_ROWS) {
    qsort(order, r->nranks, sizeof *order, cmp_rank_mpi);
    shown = MAX_RANK_ROWS;
  }
  for (uint32_t i = 0; i < shown; i++) {
    const augur_report_rank *rr = order[i];
    char comp[32], mpi[32];
    augur_fmt_ns(comp, sizeof comp, rr->compute_ns);
    augur_fmt_ns(mpi, sizeof mpi, rr->mpi_ns);
    const char *note = rr->damaged ? "  damaged" : rr->finalized ? "" : "  no MPI_Finalize";
    fprintf(f, "  %-8u %11s %11s %5.1f%%%s\n", rr->rank, comp, mpi,
            pct(rr->mpi_ns, rr->mpi_ns + rr->compute_ns), note);
  }
  if (shown < r->nranks)
    fprintf(f, "  (%u ranks with the most MPI time shown of %u; --json has all)\n", shown,
            r->nranks);
  free(order);
}

static void print_balance(FILE *f, const augur_report *r) {
  char mn[32], avg[32], mx[32];
  augur_fmt_ns(mn, sizeof mn, r->compute_min_ns);
  augur_fmt_ns(avg, sizeof avg, (uint64_t)r->compute_avg_ns);
  augur_fmt_ns(mx, sizeof mx, r->compute_max_ns);
  fprintf(f, "\nLoad balance (compute time)\n");
  fprintf(f, "  min %s (rank %u)   avg %s   max %s (rank %u)   avg/max %.2f\n", mn,
          r->compute_min_rank, avg, mx, r->compute_max_rank, r->avg_max_ratio);
}

static void print_collectives(FILE *f, const augur_report *r) {
  int any = 0;
  for (size_t i = 0; i < r->ncalls; i++) {
    const augur_report_call *c = &r->calls[i];
    if (!augur_event_is_collective(c->type) && !augur_event_is_neighbor(c->type)) continue;
    if (!any) {
      fprintf(f, "\nCollectives\n");
      fprintf(f, "  %-24s %10s %11s %11s %11s\n", "call", "count", "time", "sent", "received");
      any = 1;
    }
    char tm[32], sent[32], recv[32];
    augur_fmt_ns(tm, sizeof tm, c->time_ns);
    augur_fmt_bytes(sent, sizeof sent, c->bytes_sent);
    augur_fmt_bytes(recv, sizeof recv, c->bytes_recv);
    fprintf(f, "  %-24s %10llu %11s %11s %11s\n", augur_event_name(c->type),
            (unsigned long long)c->count, tm, sent, recv);
  }
}

static void print_sizes(FILE *f, const augur_report *r) {
  if (!r->messages) return;
  char total[32];
  augur_fmt_bytes(total, sizeof total, r->message_bytes);
  fprintf(f, "\nPoint-to-point message sizes (%llu messages, %s)\n",
          (unsigned long long)r->messages, total);
  fprintf(f, "  %-23s %10s %11s\n", "size", "messages", "bytes");
  for (unsigned k = 0; k < AUGUR_REPORT_NBUCKETS; k++) {
    const augur_report_bucket *b = &r->buckets[k];
    if (!b->count) continue;
    char lo[32], hi[32], range[80], by[32];
    augur_fmt_bytes(lo, sizeof lo, b->lo);
    augur_fmt_bytes(hi, sizeof hi, b->hi);
    if (b->lo == b->hi)
      snprintf(range, sizeof range, "%s", lo);
    else
      snprintf(range, sizeof range, "%s - %s", lo, hi);
    augur_fmt_bytes(by, sizeof by, b->bytes);
    fprintf(f, "  %-23s %10llu %11s\n", range, (unsigned long long)b->count, by);
  }
}

static int cmp_pair(const void *a, const void *b) {
  const augur_report_pair *x = a, *y = b;
  if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
  if (x->from != y->from) return x->from < y->from ? -1 : 1;
  return x->to < y->to ? -1 : (x->to > y->to);
}

static void print_matrix(FILE *f, const augur_report *r, int top) {
  if (!r->messages) return;
  uint32_t n = r->nranks;
  if (n <= 8) {
    uint64_t m[8][8] = {{0}};
    for (size_t i = 0; i < r->npairs; i++)
      m[r->pairs[i].from][r->pairs[i].to] = r->pairs[i].bytes;
    fprintf(f, "\nCommunication matrix (bytes sent, row = sender, column = receiver)\n");
    fprintf(f, "  %6s", "");
    for (uint32_t j = 0; j < n; j++)
      fprintf(f, " %10u", j);
    fprintf(f, "\n");
    for (uint32_t i = 0; i < n; i++) {
      fprintf(f, "  %6u", i);
      for (uint32_t j = 0; j < n; j++) {
        char b[32];
        if (m[i][j])
          augur_fmt_bytes(b, sizeof b, m[i][j]);
        else
          snprintf(b, sizeof b, ".");
        fprintf(f, " %10s", b);
      }
      fprintf(f, "\n");
    }
    return;
  }
  size_t np = r->npairs;
  augur_report_pair *p = malloc((np ? np : 1) * sizeof *p);
  if (!p) return;
  memcpy(p, r->pairs, np * sizeof *p);
  qsort(p, np, sizeof *p, cmp_pair);
  size_t show = np < (size_t)top ? np : (size_t)top;
  fprintf(f, "\nHeaviest communicating pairs (%zu of %zu pairs)\n", show, np);
  fprintf(f, "  %8s %8s %11s %10s\n", "sender", "receiver", "bytes", "messages");
  for (size_t i = 0; i < show; i++) {
    char b[32];
    augur_fmt_bytes(b, sizeof b, p[i].bytes);
    fprintf(f, "  %8u %8u %11s %10llu\n", p[i].from, p[i].to, b, (unsigned long long)p[i].messages);
  }
  free(p);
}

int augur_report_print_text(FILE *f, const augur_report *r, augur_trace *t, int top) {
  if (top < 1) top = 1;
  print_header(f, r, t);
  print_calls(f, r, t, top);
  aug_report_io_text(f, r, t, top);
  print_ranks(f, r);
  print_balance(f, r);
  print_collectives(f, r);
  print_sizes(f, r);
  print_matrix(f, r, top);
  aug_report_rma_text(f, r);
  return ferror(f) ? AUGUR_E_IO : AUGUR_OK;
}
