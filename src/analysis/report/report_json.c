/* `augur report --json`: the machine output. The schema is documented in
 * docs/cli.md ("report --json"); bump AUGUR_REPORT_SCHEMA on any change that
 * is not purely additive. */
#include <jansson.h>
#include <stdlib.h>

#include "augur/event.h"
#include "augur/report.h"
#include "augur/text.h"
#include "report_io.h"
#include "report_rma.h"

static json_t *u64(uint64_t v) {
  return json_integer((json_int_t)v);
}

static double pct(uint64_t part, uint64_t whole) {
  return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Every json_object_set_new below takes ownership even on failure, so a
 * failed allocation only shows up as a missing key; json_dumps then fails or
 * the caller sees NULL. That keeps this file free of error plumbing. */
static json_t *ranks_json(const augur_report *r) {
  json_t *a = json_array();
  for (uint32_t i = 0; a && i < r->nranks; i++) {
    const augur_report_rank *rr = &r->ranks[i];
    json_t *o = json_object();
    json_object_set_new(o, "rank", u64(rr->rank));
    json_object_set_new(o, "events", u64(rr->events));
    json_object_set_new(o, "window_ns", u64(rr->window_ns));
    json_object_set_new(o, "compute_ns", u64(rr->compute_ns));
    json_object_set_new(o, "mpi_ns", u64(rr->mpi_ns));
    json_object_set_new(o, "mpi_pct", json_real(pct(rr->mpi_ns, rr->mpi_ns + rr->compute_ns)));
    json_object_set_new(o, "init_ns", u64(rr->init_ns));
    json_object_set_new(o, "finalize_ns", u64(rr->finalize_ns));
    json_object_set_new(o, "finalized", json_boolean(rr->finalized));
    json_object_set_new(o, "damaged", json_boolean(rr->damaged));
    json_array_append_new(a, o);
  }
  return a;
}

static json_t *site_json(const augur_report_site *s, augur_trace *t) {
  json_t *o = json_object();
  json_object_set_new(o, "callsite", u64(s->callsite));
  augur_srcloc loc = {0};
  if (s->callsite == 0 || augur_trace_resolve(t, s->callsite, &loc) != AUGUR_OK)
    loc = (augur_srcloc){0};
  json_object_set_new(o, "function", augur_json_text(loc.function));
  json_object_set_new(o, "file", augur_json_text(loc.file));
  json_object_set_new(o, "line", json_integer(loc.line));
  const char *module = NULL;
  uint64_t offset = 0;
  augur_callsite_place(t, s->callsite, &module, &offset);
  json_object_set_new(o, "module", augur_json_text(module));
  json_object_set_new(o, "offset", u64(offset));
  char where[512];
  augur_fmt_callsite(where, sizeof where, t, s->callsite);
  json_object_set_new(o, "where", augur_json_text(where));
  json_object_set_new(o, "count", u64(s->count));
  json_object_set_new(o, "time_ns", u64(s->time_ns));
  return o;
}

static json_t *call_json(const augur_report *r, const augur_report_call *c, augur_trace *t,
                         int top) {
  json_t *o = json_object();
  json_object_set_new(o, "call", json_string(augur_event_name(c->type)));
  json_object_set_new(o, "type", u64(c->type));
  json_object_set_new(o, "count", u64(c->count));
  json_object_set_new(o, "time_ns", u64(c->time_ns));
  json_object_set_new(o, "mpi_pct", json_real(pct(c->time_ns, r->mpi_ns)));
  json_object_set_new(o, "bytes_sent", u64(c->bytes_sent));
  json_object_set_new(o, "bytes_recv", u64(c->bytes_recv));
  if (t) {
    json_t *sites = json_array();
    for (size_t j = 0; j < c->nsites && j < (size_t)top; j++)
      json_array_append_new(sites, site_json(&c->sites[j], t));
    json_object_set_new(o, "sites", sites);
    json_object_set_new(o, "sites_total", u64(c->nsites));
  }
  return o;
}

static json_t *sizes_json(const augur_report *r) {
  json_t *o = json_object();
  json_object_set_new(o, "messages", u64(r->messages));
  json_object_set_new(o, "bytes", u64(r->message_bytes));
  json_t *a = json_array();
  for (unsigned k = 0; k < AUGUR_REPORT_NBUCKETS; k++) {
    const augur_report_bucket *b = &r->buckets[k];
    if (!b->count) continue;
    json_t *e = json_object();
    json_object_set_new(e, "lo", u64(b->lo));
    json_object_set_new(e, "hi", u64(b->hi));
    json_object_set_new(e, "count", u64(b->count));
    json_object_set_new(e, "bytes", u64(b->bytes));
    json_array_append_new(a, e);
  }
  json_object_set_new(o, "buckets", a);
  return o;
}

static json_t *matrix_json(const augur_report *r) {
  json_t *a = json_array();
  for (size_t i = 0; i < r->npairs; i++) {
    const augur_report_pair *c = &r->pairs[i];
    json_t *e = json_object();
    json_object_set_new(e, "from", u64(c->from));
    json_object_set_new(e, "to", u64(c->to));
    json_object_set_new(e, "bytes", u64(c->bytes));
    json_object_set_new(e, "messages", u64(c->messages));
    json_array_append_new(a, e);
  }
  return a;
}

static json_t *balance_json(const augur_report *r) {
  json_t *o = json_object();
  json_object_set_new(o, "compute_min_ns", u64(r->compute_min_ns));
  json_object_set_new(o, "min_rank", u64(r->compute_min_rank));
  json_object_set_new(o, "compute_avg_ns", json_real(r->compute_avg_ns));
  json_object_set_new(o, "compute_max_ns", u64(r->compute_max_ns));
  json_object_set_new(o, "max_rank", u64(r->compute_max_rank));
  json_object_set_new(o, "avg_max_ratio", json_real(r->avg_max_ratio));
  return o;
}

char *augur_report_json(const augur_report *r, augur_trace *t, int top) {
  if (top < 1) top = 1;
  json_t *root = json_object();
  if (!root) return NULL;
  json_object_set_new(root, "schema", json_string("augur-report"));
  json_object_set_new(root, "version", json_integer(AUGUR_REPORT_SCHEMA));
  json_object_set_new(root, "trace", augur_json_text(t ? augur_trace_path(t) : NULL));
  json_object_set_new(root, "nranks", u64(r->nranks));
  json_object_set_new(root, "complete", json_boolean(r->complete));
  json_object_set_new(root, "events", u64(r->events));
  json_object_set_new(root, "t_first_ns", u64(r->t_first));
  json_object_set_new(root, "t_last_ns", u64(r->t_last));
  json_object_set_new(root, "wall_ns", u64(r->wall_ns));
  json_object_set_new(root, "mpi_ns", u64(r->mpi_ns));
  json_object_set_new(root, "compute_ns", u64(r->compute_ns));
  json_object_set_new(root, "mpi_pct", json_real(pct(r->mpi_ns, r->mpi_ns + r->compute_ns)));
  json_object_set_new(root, "ranks", ranks_json(r));
  json_t *calls = json_array(), *coll = json_array();
  for (size_t i = 0; i < r->ncalls; i++) {
    if (i < (size_t)top) json_array_append_new(calls, call_json(r, &r->calls[i], t, top));
    if (augur_event_is_collective(r->calls[i].type) || augur_event_is_neighbor(r->calls[i].type))
      json_array_append_new(coll, call_json(r, &r->calls[i], NULL, top));
  }
  json_object_set_new(root, "calls", calls);
  json_object_set_new(root, "calls_total", u64(r->ncalls));
  json_object_set_new(root, "collectives", coll);
  json_object_set_new(root, "message_sizes", sizes_json(r));
  json_object_set_new(root, "matrix", matrix_json(r));
  json_object_set_new(root, "load_balance", balance_json(r));
  if (r->io) json_object_set_new(root, "io", aug_report_io_json(r, t, top));
  if (r->rma) json_object_set_new(root, "rma", aug_report_rma_json(r));
  json_object_set_new(root, "error", augur_json_text(r->error[0] ? r->error : NULL));
  char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(root);
  return s;
}
