/* The augur definitions OTF2 cannot hold exactly (rank facts, clock syncs,
 * communicator kinds and topologies, modules, call sites, trace.json) as one
 * compact JSON document, stored as an OTF2 archive property. 64-bit values are
 * stored as their bit pattern in a JSON integer so they come back exactly. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "augur/reader.h"
#include "augur/text.h"
#include "otf2_defs_json.h"

static json_t *u64(uint64_t v) {
  return json_integer((json_int_t)v);
}
static json_t *ints(const int32_t *v, uint32_t n) {
  json_t *a = json_array();
  for (uint32_t i = 0; i < n; i++)
    json_array_append_new(a, json_integer(v[i]));
  return a;
}

static json_t *rank_json(const augur_rank_def *d) {
  json_t *sync = json_array(), *ctr = json_array();
  for (uint32_t i = 0; i < d->nsync && i < 2; i++)
    json_array_append_new(sync,
                          json_pack("[o,o,o,o]", u64(d->sync[i].kind), u64(d->sync[i].local_ns),
                                    u64((uint64_t)d->sync[i].offset_ns), u64(d->sync[i].rtt_ns)));
  for (uint32_t i = 0; i < d->ncounters && i < AUGUR_MAX_COUNTERS; i++)
    json_array_append_new(ctr, json_pack("[o,o,o]", u64(d->counters[i].index),
                                         u64(d->counters[i].source),
                                         augur_json_text(d->counters[i].name)));
  return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "rank", u64(d->rank), "nranks",
                   u64(d->nranks), "pid", u64(d->pid), "host", augur_json_text(d->host),
                   "thread_level", json_integer(d->thread_level), "init_ns", u64(d->init_ns),
                   "finalize_ns", u64(d->finalize_ns), "sync", sync, "counters", ctr,
                   "counter_note", augur_json_text(d->counter_note));
}

static json_t *comm_json(const augur_comm_def *c) {
  uint32_t nd = c->ndims < AUGUR_MAX_DIMS ? c->ndims : AUGUR_MAX_DIMS;
  return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "id", u64(c->id), "parent", u64(c->parent),
                   "kind", u64(c->kind), "members", ints(c->members, c->members ? c->size : 0),
                   "remote", ints(c->remote, c->remote ? c->remote_size : 0), "dims",
                   ints(c->dims, nd), "periods", ints(c->periods, nd));
}

char *otf2_defs_to_json(augur_trace *t, const uint64_t *files, size_t nfiles) {
  const augur_trace_info *in = augur_trace_info_get(t);
  json_t *argv = json_array();
  for (int i = 0; i < in->argc; i++)
    json_array_append_new(argv, augur_json_text(in->argv[i]));
  json_t *meta = json_pack(
      "{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "nranks", u64(in->nranks), "argv", argv,
      "mpi_library", augur_json_text(in->mpi_library), "mpi_version",
      augur_json_text(in->mpi_version), "recorder", augur_json_text(in->recorder), "start_unix_ns",
      u64(in->start_unix_ns), "payload_hash", json_integer(in->payload_hash), "complete",
      json_integer(in->complete), "counters_requested", augur_json_text(in->counters_requested));
  json_t *ranks = json_array(), *comms = json_array(), *mods = json_array(), *sites = json_array();
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    const augur_rank_def *d = augur_trace_rank(t, r);
    json_array_append_new(ranks, d ? rank_json(d) : json_null());
  }
  for (size_t i = 0; i < augur_trace_ncomms(t); i++)
    json_array_append_new(comms, comm_json(augur_trace_comm_at(t, i)));
  for (uint32_t id = 1;; id++) {
    const augur_module_def *m = augur_trace_module(t, id);
    if (!m) break;
    json_array_append_new(mods, augur_json_text(m->path));
  }
  for (uint32_t id = 1; id <= augur_trace_ncallsites(t); id++) {
    const augur_callsite_def *c = augur_trace_callsite(t, id);
    json_array_append_new(sites, json_pack("[o,o]", u64(c->module), u64(c->offset)));
  }
  json_t *doc = json_pack("{s:i,s:o,s:o,s:o,s:o,s:o}", "version", 1, "meta", meta, "ranks", ranks,
                          "comms", comms, "modules", mods, "callsites", sites);
  json_t *fs = nfiles ? json_array() : NULL;
  for (size_t i = 0; i < nfiles; i++) {
    const char *name = augur_trace_file_name(t, files[i]);
    if (name) json_array_append_new(fs, json_pack("[o,o]", u64(files[i]), augur_json_text(name)));
  }
  if (doc && fs) json_object_set_new(doc, "files", fs);
  char *s = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
  json_decref(doc);
  return s;
}
