/* `augur diagnose --json`: the schema is in docs/diagnose.md. Every
 * json_*_set_new takes ownership even on failure, so a failed allocation
 * only shows up as a missing key and then json_dumpf's failure. */
#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "augur/diagnose.h"
#include "augur/text.h"

static json_t *finding_json(const augur_dx_finding *x) {
  json_t *o = json_object();
  json_object_set_new(o, "pattern", json_string(augur_dx_pattern_id(x->pattern)));
  json_object_set_new(o, "title", json_string(augur_dx_pattern_title(x->pattern)));
  json_object_set_new(o, "wait_state",
                      x->wait_state >= 0 ? json_string(augur_dx_pattern_id(x->wait_state))
                                         : json_null());
  json_object_set_new(o, "seconds", json_real(x->seconds));
  json_object_set_new(o, "share", json_real(x->share));
  json_object_set_new(o, "saving_seconds", json_real(x->saving_seconds));
  json_object_set_new(o, "instances", json_integer((json_int_t)x->instances));
  if (x->pattern >= AUGUR_DX_FIRST_OMP) { /* lost thread-time (docs/diagnose.md) */
    json_object_set_new(o, "thread_seconds", json_real(x->thread_seconds));
    json_object_set_new(o, "threads", json_integer((json_int_t)x->threads));
  }
  json_t *r = json_array();
  for (uint32_t i = 0; i < x->nranks; i++)
    json_array_append_new(r, json_integer(x->ranks[i]));
  json_object_set_new(o, "ranks", r);
  json_t *cs = json_array();
  for (size_t i = 0; i < x->ncallsites; i++) {
    const augur_dx_callsite *c = &x->callsites[i];
    json_t *e = json_object();
    json_object_set_new(e, "id", json_integer(c->id));
    json_object_set_new(e, "function", augur_json_text(c->function));
    json_object_set_new(e, "file", augur_json_text(c->file));
    json_object_set_new(e, "line", c->file ? json_integer(c->line) : json_null());
    json_object_set_new(e, "module", augur_json_text(c->module));
    json_object_set_new(e, "offset", json_integer((json_int_t)c->offset));
    json_object_set_new(e, "where", augur_json_text(c->where));
    json_object_set_new(e, "seconds", json_real(c->seconds));
    json_array_append_new(cs, e);
  }
  json_object_set_new(o, "callsites", cs);
  json_object_set_new(o, "cause", augur_json_text(x->cause));
  json_object_set_new(o, "recommendation", augur_json_text(x->recommendation));
  json_object_set_new(o, "undecided", augur_json_text(x->undecided));
  json_t *m = json_array();
  for (size_t i = 0; i < x->nmarks; i++) {
    json_t *e = json_object();
    json_object_set_new(e, "rank", json_integer(x->marks[i].rank));
    json_object_set_new(e, "t0_ns", json_integer((json_int_t)x->marks[i].t0));
    json_object_set_new(e, "t1_ns", json_integer((json_int_t)x->marks[i].t1));
    json_array_append_new(m, e);
  }
  json_object_set_new(o, "worst", m);
  if (x->top_partner >= 0) {
    json_t *tp = json_object();
    json_object_set_new(tp, "rank", json_integer(x->top_partner));
    json_object_set_new(tp, "share", json_real(x->top_partner_share));
    json_object_set_new(o, "top_partner", tp);
  }
  return o;
}

int augur_diagnosis_write_json(const augur_diagnosis *d, FILE *f, augur_error *err) {
  json_t *o = json_object();
  json_object_set_new(o, "schema", json_integer(AUGUR_DIAGNOSE_SCHEMA));
  json_object_set_new(o, "ranks", json_integer(d->nranks));
  json_object_set_new(o, "total_seconds", json_real(d->total_seconds));
  json_object_set_new(o, "process_seconds", json_real(d->process_seconds));
  json_object_set_new(o, "events", json_integer((json_int_t)d->events));
  json_t *pl = json_object();
  json_object_set_new(pl, "hosts", json_integer(d->hosts));
  json_object_set_new(pl, "known", json_boolean(d->placement_known));
  json_object_set_new(pl, "oversubscribed_hosts", json_integer(d->oversubscribed));
  json_object_set_new(pl, "busiest_host",
                      d->busiest_cores ? augur_json_text(d->busiest_host) : json_null());
  json_object_set_new(pl, "busiest_ranks", json_integer(d->busiest_ranks));
  json_object_set_new(pl, "busiest_cores", json_integer(d->busiest_cores));
  json_object_set_new(pl, "run_delay_seconds",
                      d->run_delay_seconds >= 0 ? json_real(d->run_delay_seconds) : json_null());
  json_object_set_new(pl, "run_delay_share",
                      d->run_delay_seconds >= 0 ? json_real(d->run_delay_share) : json_null());
  json_object_set_new(pl, "warning", augur_json_text(d->oversubscription));
  json_object_set_new(o, "placement", pl);
  json_object_set_new(o, "min_share", json_real(d->min_share));
  json_object_set_new(o, "has_counters", json_boolean(d->has_counters));
  json_object_set_new(o, "has_payload_hashes", json_boolean(d->has_hashes));
  json_t *fs = json_array();
  for (size_t i = 0; i < d->nfindings; i++)
    json_array_append_new(fs, finding_json(&d->findings[i]));
  json_object_set_new(o, "findings", fs);
  json_object_set_new(o, "below_threshold", json_integer((json_int_t)d->nbelow));
  if (d->omp_ranks) { /* only with OpenMP records: MPI-only documents are unchanged */
    json_t *omp = json_object();
    json_object_set_new(omp, "ranks", json_integer((json_int_t)d->omp_ranks));
    json_object_set_new(omp, "threads", json_integer((json_int_t)d->omp_threads));
    json_object_set_new(omp, "below_threshold", json_integer((json_int_t)d->omp_below));
    json_object_set_new(o, "openmp", omp);
  }
  json_t *ws = json_object();
  for (int w = 0; w < AUGUR_DX_NWAITSTATES; w++) {
    json_t *e = json_object();
    json_object_set_new(e, "seconds", json_real(d->wait_seconds[w]));
    json_object_set_new(e, "instances", json_integer((json_int_t)d->wait_instances[w]));
    json_object_set_new(ws, augur_dx_pattern_id(w), e);
  }
  json_object_set_new(o, "wait_states", ws);
  json_t *eg = json_object();
  json_object_set_new(eg, "eager_max_bytes", json_integer((json_int_t)d->eager_max));
  json_object_set_new(eg, "rendezvous_min_bytes", json_integer((json_int_t)d->rendezvous_min));
  json_object_set_new(eg, "limit_bytes",
                      d->eager_limit ? json_integer((json_int_t)d->eager_limit) : json_null());
  json_object_set_new(eg, "limit_source", json_string(augur_dx_eager_source(d)));
  json_object_set_new(o, "eager", eg);
  json_t *io = json_object();
  json_object_set_new(io, "bandwidth_bytes_per_s", json_real(d->io_bandwidth));
  json_object_set_new(io, "bandwidth_source",
                      json_string(d->io_bandwidth_given ? "given" : "default"));
  json_object_set_new(o, "io", io);
  json_t *iv = json_array();
  for (size_t i = 0; i < d->nintervals; i++) {
    const augur_dx_interval *x = &d->intervals[i];
    json_t *e = json_object();
    json_object_set_new(e, "t0_ns", json_integer((json_int_t)x->t0));
    json_object_set_new(e, "t1_ns", json_integer((json_int_t)x->t1));
    json_object_set_new(e, "lost_seconds", json_real(x->lost_seconds));
    json_object_set_new(e, "min_active", json_real(x->min_active));
    json_object_set_new(e, "finding", x->finding >= 0 ? json_integer(x->finding) : json_null());
    json_array_append_new(iv, e);
  }
  json_object_set_new(o, "intervals", iv);
  json_t *cp = json_object();
  json_object_set_new(cp, "seconds", json_real(d->path_seconds));
  json_t *ps = json_array();
  for (size_t i = 0; i < d->npath; i++) {
    const augur_dx_path_site *p = &d->path[i];
    json_t *e = json_object();
    json_object_set_new(e, "id", json_integer(p->callsite));
    json_object_set_new(e, "function", augur_json_text(p->function));
    json_object_set_new(e, "file", augur_json_text(p->file));
    json_object_set_new(e, "line", p->file ? json_integer(p->line) : json_null());
    json_object_set_new(e, "module", augur_json_text(p->module));
    json_object_set_new(e, "offset", json_integer((json_int_t)p->offset));
    json_object_set_new(e, "where", augur_json_text(p->where));
    json_object_set_new(e, "compute_seconds", json_real(p->compute_seconds));
    json_object_set_new(e, "mpi_seconds", json_real(p->mpi_seconds));
    json_object_set_new(e, "share", json_real(p->share));
    json_array_append_new(ps, e);
  }
  json_object_set_new(cp, "callsites", ps);
  json_object_set_new(o, "critical_path", cp);
  json_t *ns = json_array();
  for (size_t i = 0; i < d->nnotes; i++)
    json_array_append_new(ns, augur_json_text(d->notes[i]));
  json_object_set_new(o, "notes", ns);
  int rc = json_dumpf(o, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  json_decref(o);
  if (rc == 0) fputc('\n', f);
  if (rc || fflush(f) || ferror(f))
    return augur_fail(err, AUGUR_E_IO, "diagnose: writing JSON failed: %s", strerror(errno));
  return 0;
}
