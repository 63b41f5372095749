/* Parses the augur definitions JSON of an OTF2 archive written by augur
 * (see otf2_defs_json.c). Anything malformed makes the whole property count
 * as absent: the import then treats the archive like any other tool's. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "otf2_defs_json.h"

static uint64_t u64(const json_t *v) {
  return (uint64_t)json_integer_value(v);
}
static char *dup_or_null(const json_t *v) {
  return json_is_string(v) ? strdup(json_string_value(v)) : NULL;
}

/* Copies a JSON array of ints; *n = its length (bounded). */
static int32_t *int_array(const json_t *a, uint32_t *n, uint32_t max) {
  *n = 0;
  if (!json_is_array(a) || json_array_size(a) > max) return NULL;
  size_t k = json_array_size(a);
  int32_t *v = calloc(k ? k : 1, sizeof *v);
  if (!v) return NULL;
  for (size_t i = 0; i < k; i++)
    v[i] = (int32_t)json_integer_value(json_array_get(a, i));
  *n = (uint32_t)k;
  return v;
}

void otf2_defs_free(otf2_defs *d) {
  if (!d) return;
  for (uint32_t r = 0; r < d->nranks; r++) {
    free(d->ranks[r].host);
    free(d->ranks[r].counter_note);
    for (uint32_t i = 0; i < AUGUR_MAX_COUNTERS; i++)
      free(d->ranks[r].counters[i].name);
  }
  free(d->ranks);
  free(d->has_rank);
  for (size_t i = 0; i < d->ncomms; i++) {
    free(d->comms[i].members);
    free(d->comms[i].remote);
  }
  free(d->comms);
  for (uint32_t i = 0; i < d->nmodules; i++)
    free(d->modules[i].path);
  free(d->modules);
  free(d->callsites);
  for (size_t i = 0; i < d->nfiles; i++)
    free(d->files[i].name);
  free(d->files);
  for (int i = 0; i < d->argc; i++)
    free(d->argv[i]);
  free(d->argv);
  free(d->mpi_library);
  free(d->mpi_version);
  free(d->recorder);
  free(d->counters_requested);
  memset(d, 0, sizeof *d);
}

static int parse_rank(const json_t *j, augur_rank_def *d) {
  if (!json_is_object(j)) return -1;
  d->rank = (uint32_t)u64(json_object_get(j, "rank"));
  d->nranks = (uint32_t)u64(json_object_get(j, "nranks"));
  d->pid = u64(json_object_get(j, "pid"));
  d->host = dup_or_null(json_object_get(j, "host"));
  d->thread_level = (int32_t)json_integer_value(json_object_get(j, "thread_level"));
  d->init_ns = u64(json_object_get(j, "init_ns"));
  d->finalize_ns = u64(json_object_get(j, "finalize_ns"));
  d->counter_note = dup_or_null(json_object_get(j, "counter_note"));
  const json_t *sync = json_object_get(j, "sync"), *ctr = json_object_get(j, "counters");
  if (!json_is_array(sync) || json_array_size(sync) > 2 || !json_is_array(ctr) ||
      json_array_size(ctr) > AUGUR_MAX_COUNTERS)
    return -1;
  d->nsync = (uint32_t)json_array_size(sync);
  for (uint32_t i = 0; i < d->nsync; i++) {
    const json_t *s = json_array_get(sync, i);
    d->sync[i].kind = (uint32_t)u64(json_array_get(s, 0));
    d->sync[i].local_ns = u64(json_array_get(s, 1));
    d->sync[i].offset_ns = (int64_t)u64(json_array_get(s, 2));
    d->sync[i].rtt_ns = u64(json_array_get(s, 3));
  }
  d->ncounters = (uint32_t)json_array_size(ctr);
  for (uint32_t i = 0; i < d->ncounters; i++) {
    const json_t *c = json_array_get(ctr, i);
    d->counters[i].index = (uint32_t)u64(json_array_get(c, 0));
    d->counters[i].source = (uint32_t)u64(json_array_get(c, 1));
    d->counters[i].name = dup_or_null(json_array_get(c, 2));
  }
  return 0;
}

static int parse_comm(const json_t *j, augur_comm_def *c) {
  if (!json_is_object(j)) return -1;
  c->id = u64(json_object_get(j, "id"));
  c->parent = u64(json_object_get(j, "parent"));
  c->kind = (uint32_t)u64(json_object_get(j, "kind"));
  c->members = int_array(json_object_get(j, "members"), &c->size, 1u << 24);
  const json_t *rem = json_object_get(j, "remote");
  if (json_array_size(rem) > 0) c->remote = int_array(rem, &c->remote_size, 1u << 24);
  uint32_t np = 0;
  int32_t *dims = int_array(json_object_get(j, "dims"), &c->ndims, AUGUR_MAX_DIMS);
  int32_t *per = int_array(json_object_get(j, "periods"), &np, AUGUR_MAX_DIMS);
  for (uint32_t i = 0; i < c->ndims && dims; i++)
    c->dims[i] = dims[i];
  for (uint32_t i = 0; i < np && i < c->ndims && per; i++)
    c->periods[i] = per[i];
  free(dims);
  free(per);
  return c->members ? 0 : -1;
}

int otf2_defs_parse(const char *text, otf2_defs *d) {
  memset(d, 0, sizeof *d);
  json_t *doc = json_loads(text, 0, NULL);
  if (!doc) return -1;
  int rc = -1;
  const json_t *meta = json_object_get(doc, "meta"), *ranks = json_object_get(doc, "ranks"),
               *comms = json_object_get(doc, "comms"), *mods = json_object_get(doc, "modules"),
               *sites = json_object_get(doc, "callsites");
  if (!json_is_object(meta) || !json_is_array(ranks) || !json_is_array(comms) ||
      !json_is_array(mods) || !json_is_array(sites))
    goto out;
  d->nranks = (uint32_t)u64(json_object_get(meta, "nranks"));
  if (d->nranks == 0 || d->nranks > (1u << 24) || json_array_size(ranks) != d->nranks) goto out;
  const json_t *argv = json_object_get(meta, "argv");
  if (json_is_array(argv) && json_array_size(argv) < 100000) {
    d->argc = (int)json_array_size(argv);
    d->argv = calloc((size_t)d->argc + 1, sizeof *d->argv);
    if (!d->argv) goto out;
    for (int i = 0; i < d->argc; i++)
      d->argv[i] = dup_or_null(json_array_get(argv, (size_t)i));
  }
  d->mpi_library = dup_or_null(json_object_get(meta, "mpi_library"));
  d->mpi_version = dup_or_null(json_object_get(meta, "mpi_version"));
  d->recorder = dup_or_null(json_object_get(meta, "recorder"));
  d->counters_requested = dup_or_null(json_object_get(meta, "counters_requested"));
  d->start_unix_ns = u64(json_object_get(meta, "start_unix_ns"));
  d->payload_hash = (int)json_integer_value(json_object_get(meta, "payload_hash"));
  d->complete = (int)json_integer_value(json_object_get(meta, "complete"));
  d->ranks = calloc(d->nranks, sizeof *d->ranks);
  d->has_rank = calloc(d->nranks, 1);
  if (!d->ranks || !d->has_rank) goto out;
  for (uint32_t r = 0; r < d->nranks; r++) {
    const json_t *j = json_array_get(ranks, r);
    if (json_is_null(j)) continue;
    if (parse_rank(j, &d->ranks[r]) != 0) goto out;
    d->has_rank[r] = 1;
  }
  d->ncomms = json_array_size(comms);
  d->comms = calloc(d->ncomms ? d->ncomms : 1, sizeof *d->comms);
  if (!d->comms) goto out;
  for (size_t i = 0; i < d->ncomms; i++)
    if (parse_comm(json_array_get(comms, i), &d->comms[i]) != 0) goto out;
  d->nmodules = (uint32_t)json_array_size(mods);
  d->modules = calloc(d->nmodules ? d->nmodules : 1, sizeof *d->modules);
  if (!d->modules) goto out;
  for (uint32_t i = 0; i < d->nmodules; i++) {
    d->modules[i].id = i + 1;
    d->modules[i].path = dup_or_null(json_array_get(mods, i));
  }
  d->ncallsites = (uint32_t)json_array_size(sites);
  d->callsites = calloc(d->ncallsites ? d->ncallsites : 1, sizeof *d->callsites);
  if (!d->callsites) goto out;
  for (uint32_t i = 0; i < d->ncallsites; i++) {
    const json_t *s = json_array_get(sites, i);
    d->callsites[i].id = i + 1;
    d->callsites[i].module = (uint32_t)u64(json_array_get(s, 0));
    d->callsites[i].offset = u64(json_array_get(s, 1));
  }
  const json_t *files = json_object_get(doc, "files"); /* optional: only with MPI-IO */
  d->nfiles = json_is_array(files) ? json_array_size(files) : 0;
  d->files = calloc(d->nfiles ? d->nfiles : 1, sizeof *d->files);
  if (!d->files) goto out;
  for (size_t i = 0; i < d->nfiles; i++) {
    const json_t *f = json_array_get(files, i);
    d->files[i].id = u64(json_array_get(f, 0));
    d->files[i].name = dup_or_null(json_array_get(f, 1));
    if (!d->files[i].name) goto out;
  }
  rc = 0;
out:
  json_decref(doc);
  if (rc != 0) otf2_defs_free(d);
  return rc;
}
