/* augur — trace reader: trace.json, rank file headers, block index,
 * definitions merged over ranks, clock correction. Streams are in stream.c,
 * source-line resolution in resolve.c. */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include "grow.h"
#include "reader_int.h"
#include "varint.h"

#define MAX_NRANKS (1u << 24)

/* ---- trace.json ---- */

static char *xstrdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* Optional string member: absent or null -> NULL. Returns -1 if wrong type. */
static int opt_string(json_t *o, const char *key, const char **out) {
  json_t *v = json_object_get(o, key);
  *out = NULL;
  if (!v || json_is_null(v)) return 0;
  if (!json_is_string(v)) return -1;
  *out = xstrdup(json_string_value(v));
  return 0;
}

static int opt_bool(json_t *o, const char *key, int *out) {
  json_t *v = json_object_get(o, key);
  *out = 0;
  if (!v || json_is_null(v)) return 0;
  if (json_is_boolean(v))
    *out = json_is_true(v);
  else if (json_is_integer(v))
    *out = json_integer_value(v) != 0;
  else
    return -1;
  return 0;
}

/* trace.json "openmp" (docs/openmp.md) into *OM, every string non-NULL;
 * absent or null: mode "unknown". Returns 0, or -1 with *bad naming the
 * member of the wrong type (or out of memory: "openmp"). */
static int read_openmp(json_t *o, augur_omp_meta *om, const char **bad) {
  json_t *v = json_object_get(o, "openmp");
  int rc = 0;
  if (v && !json_is_null(v)) {
    json_t *cb = json_object_get(v, "callbacks"),
           *dropped = json_object_get(v, "dropped_before_init");
    if (!json_is_object(v))
      *bad = "openmp";
    else if (opt_string(v, "mode", &om->mode) || !om->mode)
      *bad = "openmp\": \"mode";
    else if (opt_string(v, "runtime", &om->runtime))
      *bad = "openmp\": \"runtime";
    else if (opt_string(v, "note", &om->note))
      *bad = "openmp\": \"note";
    else if (cb && !json_is_null(cb) && !json_is_object(cb))
      *bad = "openmp\": \"callbacks";
    else if (dropped && !json_is_null(dropped) &&
             (!json_is_integer(dropped) || json_integer_value(dropped) < 0))
      *bad = "openmp\": \"dropped_before_init";
    if (*bad) return -1;
    if (dropped && json_is_integer(dropped))
      om->dropped_before_init = (uint64_t)json_integer_value(dropped);
    size_t n = json_is_object(cb) ? json_object_size(cb) : 0;
    augur_omp_callback *c = n ? calloc(n, sizeof *c) : NULL;
    if (n && !c) rc = -1;
    om->callbacks = c;
    const char *key;
    json_t *val;
    if (c) json_object_foreach(cb, key, val) {
        if (!json_is_integer(val)) {
          *bad = "openmp\": \"callbacks";
          return -1;
        }
        c[om->ncallbacks].result = (int)json_integer_value(val);
        c[om->ncallbacks++].name = xstrdup(key);
      }
  }
  if (!om->mode) om->mode = xstrdup("unknown");
  if (!om->runtime) om->runtime = xstrdup("");
  if (!om->note) om->note = xstrdup("");
  if (rc || !om->mode || !om->runtime || !om->note) *bad = "openmp";
  return *bad ? -1 : 0;
}

static void free_openmp(augur_omp_meta *om) {
  for (size_t i = 0; i < om->ncallbacks; i++)
    free((char *)om->callbacks[i].name);
  free((void *)om->callbacks);
  free((char *)om->mode);
  free((char *)om->runtime);
  free((char *)om->note);
}

static int read_meta(augur_trace *t, augur_error *err) {
  char file[4200];
  snprintf(file, sizeof file, "%s/trace.json", t->path);
  struct stat st;
  if (stat(file, &st) != 0) {
    if (errno == ENOENT)
      return augur_fail(err, AUGUR_E_MISSING, "%s: missing (not an augur trace directory?)", file);
    return augur_fail(err, AUGUR_E_IO, "%s: %s", file, strerror(errno));
  }
  json_error_t je;
  json_t *o = json_load_file(file, JSON_REJECT_DUPLICATES, &je);
  if (!o)
    return augur_fail(err, AUGUR_E_FORMAT, "%s: line %d column %d (offset %d): %s", file, je.line,
                      je.column, je.position, je.text);
  int rc = AUGUR_OK;
  augur_trace_info *in = &t->info;
  json_t *fmt = json_object_get(o, "format"), *ver = json_object_get(o, "version");
  json_t *nr = json_object_get(o, "nranks"), *argv = json_object_get(o, "argv");
  json_t *start = json_object_get(o, "start_unix_ns");
  if (!json_is_object(o) || !json_is_string(fmt) ||
      strcmp(json_string_value(fmt), "augur-trace") != 0) {
    rc = augur_fail(err, AUGUR_E_FORMAT,
                    "%s: offset 0: expected an object with \"format\": "
                    "\"augur-trace\"",
                    file);
    goto out;
  }
  if (!json_is_array(ver) || json_array_size(ver) < 2 || !json_is_integer(json_array_get(ver, 0)) ||
      !json_is_integer(json_array_get(ver, 1)) || json_integer_value(json_array_get(ver, 0)) < 0 ||
      json_integer_value(json_array_get(ver, 1)) < 0) {
    rc = augur_fail(err, AUGUR_E_FORMAT, "%s: \"version\": expected [major, minor]", file);
    goto out;
  }
  json_int_t major = json_integer_value(json_array_get(ver, 0));
  json_int_t minor = json_integer_value(json_array_get(ver, 1));
  if (major != AUG_FORMAT_MAJOR) {
    rc = augur_fail(err, AUGUR_E_VERSION,
                    "%s: trace format version %lld.%lld; this reader reads version %d.x", file,
                    (long long)major, (long long)minor, AUG_FORMAT_MAJOR);
    goto out;
  }
  in->version_major = (uint32_t)major;
  in->version_minor = minor > UINT32_MAX ? UINT32_MAX : (uint32_t)minor;
  if (!json_is_integer(nr) || json_integer_value(nr) < 1 ||
      json_integer_value(nr) > (json_int_t)MAX_NRANKS) {
    rc = augur_fail(err, AUGUR_E_FORMAT, "%s: \"nranks\": expected an integer 1..%u", file,
                    MAX_NRANKS);
    goto out;
  }
  in->nranks = t->nranks = (uint32_t)json_integer_value(nr);
  if (argv && !json_is_null(argv)) {
    if (!json_is_array(argv)) {
      rc = augur_fail(err, AUGUR_E_FORMAT, "%s: \"argv\": expected an array of strings", file);
      goto out;
    }
    size_t n = json_array_size(argv);
    in->argv = calloc(n + 1, sizeof *in->argv);
    if (!in->argv) {
      rc = augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", file);
      goto out;
    }
    for (size_t i = 0; i < n; i++) {
      json_t *a = json_array_get(argv, i);
      if (!json_is_string(a)) {
        rc = augur_fail(err, AUGUR_E_FORMAT, "%s: \"argv\"[%zu]: expected a string", file, i);
        goto out;
      }
      in->argv[i] = xstrdup(json_string_value(a));
      in->argc = (int)i + 1;
    }
  }
  if (start && !json_is_null(start)) {
    if (!json_is_integer(start)) {
      rc = augur_fail(err, AUGUR_E_FORMAT, "%s: \"start_unix_ns\": expected an integer", file);
      goto out;
    }
    in->start_unix_ns = (uint64_t)json_integer_value(start);
  }
  const char *bad = NULL;
  if (opt_string(o, "mpi_library", &in->mpi_library))
    bad = "mpi_library";
  else if (opt_string(o, "mpi_version", &in->mpi_version))
    bad = "mpi_version";
  else if (opt_string(o, "recorder", &in->recorder))
    bad = "recorder";
  else if (opt_string(o, "counters_requested", &in->counters_requested))
    bad = "counters_requested";
  else if (opt_bool(o, "payload_hash", &in->payload_hash))
    bad = "payload_hash";
  else if (opt_bool(o, "complete", &in->complete))
    bad = "complete";
  else
    read_openmp(o, &in->openmp, &bad);
  if (bad) rc = augur_fail(err, AUGUR_E_FORMAT, "%s: \"%s\": wrong type", file, bad);
out:
  json_decref(o);
  return rc;
}

/* ---- definitions ---- */

static void set_damage(aug_rank *r, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void set_damage(aug_rank *r, int code, const char *fmt, ...) {
  if (r->damage) return; /* the first damage is the one that stopped the index */
  char msg[AUGUR_ERROR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->damage_code = code;
  r->damage = xstrdup(msg);
}

static void set_dropped(aug_rank *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void set_dropped(aug_rank *r, const char *fmt, ...) {
  if (r->ndropped++) return; /* the first one is described */
  char msg[AUGUR_ERROR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->dropped = xstrdup(msg);
}

static int same_ranks(const int32_t *a, const int32_t *b, uint32_t n) {
  if (n == 0) return 1;
  if (!a || !b) return a == b;
  return memcmp(a, b, n * sizeof *a) == 0;
}

/* 1 if BODY, a communicator definition, is byte for byte the first
 * definition of its id (it then agrees with it); 0 to decode and merge it. */
static int same_comm_body(const augur_trace *t, const uint8_t *body, size_t len) {
  const uint8_t *p = body;
  uint64_t id;
  uint32_t ix;
  if (aug_get_varint(&p, body + len, &id) || !aug_u64map_get(&t->comm_ix, id, &ix)) return 0;
  const aug_comm_body *b = &t->comm_body[ix];
  return b->n == len && memcmp(b->p, body, len) == 0;
}

/* Adds a communicator (BODY, LEN: its encoded definition) or checks it agrees
 * with the one already known. Returns 0, or -1 with *why set. */
static int merge_comm(augur_trace *t, augur_comm_def *c, const uint8_t *body, size_t len,
                      const char **why) {
  uint32_t ix;
  if (aug_u64map_get(&t->comm_ix, c->id, &ix)) {
    const augur_comm_def *o = &t->comms[ix];
    /* MPI_COMM_SELF has a different member on every rank. */
    if (c->id != AUGUR_COMM_SELF && (o->size != c->size || o->remote_size != c->remote_size ||
                                     !same_ranks(o->members, c->members, c->size) ||
                                     !same_ranks(o->remote, c->remote, c->remote_size))) {
      *why = "communicator members disagree with another rank's definition of the same id";
      return -1;
    }
    aug_comm_def_free(c);
    return 0;
  }
  uint8_t *copy = malloc(len ? len : 1);
  if (!copy || aug_grow((void **)&t->comms, &t->capcomms, t->ncomms + 1, sizeof *t->comms) ||
      aug_grow((void **)&t->comm_body, &t->capcommbody, t->ncomms + 1, sizeof *t->comm_body) ||
      aug_u64map_put(&t->comm_ix, c->id, (uint32_t)t->ncomms)) {
    free(copy);
    *why = "out of memory";
    return -1;
  }
  if (len) memcpy(copy, body, len);
  t->comm_body[t->ncomms] = (aug_comm_body){copy, len};
  t->comms[t->ncomms++] = *c;
  memset(c, 0, sizeof *c);
  return 0;
}

static int merge_module(augur_trace *t, aug_rank *r, augur_module_def *m, const char **why) {
  uint64_t h = XXH3_64bits(m->path, strlen(m->path));
  uint32_t gid = 0;
  if (!aug_u64map_get(&t->module_ix, h, &gid) || strcmp(t->modules[gid - 1].path, m->path) != 0) {
    gid = 0;
    for (size_t i = 0; i < t->nmodules && !gid; i++) /* hash collision: search */
      if (strcmp(t->modules[i].path, m->path) == 0) gid = (uint32_t)i + 1;
  }
  if (!gid) {
    if (aug_grow((void **)&t->modules, &t->capmodules, t->nmodules + 1, sizeof *t->modules))
      goto oom;
    gid = (uint32_t)t->nmodules + 1;
    if (aug_u64map_put(&t->module_ix, h, gid)) goto oom;
    t->modules[t->nmodules].id = gid;
    t->modules[t->nmodules++].path = m->path;
    m->path = NULL;
  }
  free(m->path);
  if (aug_u64map_put(&r->mod, m->id, gid)) goto oom;
  return 0;
oom:
  *why = "out of memory";
  return -1;
}

static int merge_callsite(augur_trace *t, aug_rank *r, const augur_callsite_def *c,
                          const char **why) {
  uint32_t gmod, gid = 0;
  if (!aug_u64map_get(&r->mod, c->module, &gmod)) {
    *why = "call site refers to a module that was never defined";
    return -1;
  }
  uint64_t key[2] = {gmod, c->offset};
  uint64_t h = XXH3_64bits(key, sizeof key);
  if (aug_u64map_get(&t->callsite_ix, h, &gid)) {
    const augur_callsite_def *o = &t->callsites[gid - 1];
    if (o->module != gmod || o->offset != c->offset) gid = 0;
  }
  if (!gid) {
    for (size_t i = 0; i < t->ncallsites && !gid && t->callsite_ix.count != t->ncallsites; i++)
      if (t->callsites[i].module == gmod && t->callsites[i].offset == c->offset)
        gid = (uint32_t)i + 1;
  }
  if (!gid) {
    if (aug_grow((void **)&t->callsites, &t->capcallsites, t->ncallsites + 1, sizeof *t->callsites))
      goto oom;
    gid = (uint32_t)t->ncallsites + 1;
    if (aug_u64map_put(&t->callsite_ix, h, gid)) goto oom;
    t->callsites[t->ncallsites++] = (augur_callsite_def){gid, gmod, c->offset};
  }
  if (c->id >= AUG_CS_DENSE) {
    if (aug_u64map_put(&r->cs, c->id, gid)) goto oom;
    return 0;
  }
  if (aug_grow((void **)&r->cs_dense, &r->cs_cap, c->id + 1, sizeof *r->cs_dense)) goto oom;
  for (; r->cs_n <= c->id; r->cs_n++)
    r->cs_dense[r->cs_n] = 0;
  r->cs_dense[c->id] = gid;
  return 0;
oom:
  *why = "out of memory";
  return -1;
}

/* Applies one definitions payload. Two passes: modules (and everything but
 * call sites) first, so a call site may precede its module in a block. */
static int apply_defs(augur_trace *t, aug_rank *r, const uint8_t *p, size_t len, uint32_t count,
                      const char **why) {
  for (int pass = 0; pass < 2; pass++) {
    const uint8_t *q = p, *end = p + len, *body;
    unsigned tag;
    size_t blen;
    uint32_t seen = 0;
    int k;
    while ((k = aug_def_next(&q, end, &tag, &body, &blen)) == 1) {
      seen++;
      if (pass == 0 && tag == AUG_DEF_RANK) {
        augur_rank_def d;
        if (aug_def_get_rank(body, blen, &d, why)) return -1;
        if (r->has_def) aug_rank_def_free(&r->def);
        r->def = d; /* later rank facts replace earlier ones */
        r->has_def = 1;
      } else if (pass == 0 && tag == AUG_DEF_COMM && same_comm_body(t, body, blen)) {
        /* agrees with the first definition of the id */
      } else if (pass == 0 && tag == AUG_DEF_COMM) {
        augur_comm_def d;
        if (aug_def_get_comm(body, blen, &d, why)) return -1;
        if (merge_comm(t, &d, body, blen, why)) {
          aug_comm_def_free(&d);
          return -1;
        }
      } else if (pass == 0 && tag == AUG_DEF_MODULE) {
        augur_module_def d;
        if (aug_def_get_module(body, blen, &d, why) || merge_module(t, r, &d, why)) return -1;
      } else if (pass == 0 && tag == AUG_DEF_FILE) {
        if (aug_merge_file(t, body, blen, why)) return -1;
      } else if (pass == 1 && tag == AUG_DEF_CALLSITE) {
        augur_callsite_def d;
        if (aug_def_get_callsite(body, blen, &d, why) || merge_callsite(t, r, &d, why)) return -1;
      }
    }
    if (k < 0) {
      *why = "bad definition record header";
      return -1;
    }
    if (seen != count) {
      *why = "record count differs from the block header";
      return -1;
    }
  }
  return 0;
}

/* ---- rank files ---- */

/* Reads exactly n bytes at off. Returns bytes read (< n at end of file) or -1. */
static ssize_t pread_full(int fd, void *buf, size_t n, uint64_t off) {
  size_t got = 0;
  while (got < n) {
    ssize_t k = pread(fd, (uint8_t *)buf + got, n - got, (off_t)(off + got));
    if (k < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (k == 0) break;
    got += (size_t)k;
  }
  return (ssize_t)got;
}

/* Reads n bytes at off from HEAD (the file's first HEADN bytes, read at
 * open) when they are there, else from the file. Returns bytes read or -1. */
static ssize_t read_at(int fd, const uint8_t *head, size_t headn, void *buf, size_t n,
                       uint64_t off) {
  if (off <= headn && n <= headn - off) {
    memcpy(buf, head + off, n);
    return (ssize_t)n;
  }
  return pread_full(fd, buf, n, off);
}

static int read_payload(int fd, const uint8_t *head, size_t headn, uint64_t off,
                        const aug_blkhdr *h, uint8_t **stored, size_t *stored_cap, uint8_t **raw,
                        size_t *raw_cap, void *dctx, char *why, size_t whylen);

int aug_read_payload(int fd, uint64_t off, const aug_blkhdr *h, uint8_t **stored,
                     size_t *stored_cap, uint8_t **raw, size_t *raw_cap, void *dctx, char *why,
                     size_t whylen) {
  return read_payload(fd, NULL, 0, off, h, stored, stored_cap, raw, raw_cap, dctx, why, whylen);
}

static int read_payload(int fd, const uint8_t *head, size_t headn, uint64_t off,
                        const aug_blkhdr *h, uint8_t **stored, size_t *stored_cap, uint8_t **raw,
                        size_t *raw_cap, void *dctx, char *why, size_t whylen) {
  uint8_t **dst = h->codec == AUG_CODEC_RAW ? raw : stored;
  size_t *cap = h->codec == AUG_CODEC_RAW ? raw_cap : stored_cap;
  size_t need = h->stored_size ? h->stored_size : 1;
  if (*cap < need) {
    uint8_t *p = realloc(*dst, need);
    if (!p) {
      snprintf(why, whylen, "out of memory for a %u-byte payload", h->stored_size);
      return AUGUR_E_NOMEM;
    }
    *dst = p;
    *cap = need;
  }
  ssize_t k = read_at(fd, head, headn, *dst, h->stored_size, off + AUG_BLKHDR_SIZE);
  if (k < 0) {
    snprintf(why, whylen, "read failed: %s", strerror(errno));
    return AUGUR_E_IO;
  }
  if ((size_t)k < h->stored_size) {
    snprintf(why, whylen, "file ends inside the payload (expected %u bytes, found %zd)",
             h->stored_size, k);
    return AUGUR_E_TRUNCATED;
  }
  uint64_t got = XXH3_64bits(*dst, h->stored_size);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  got = h->payload_hash; /* let the fuzzer past the checksum into the decoders */
#endif
  if (got != h->payload_hash) {
    snprintf(why, whylen, "payload checksum mismatch (expected 0x%016llx, got 0x%016llx)",
             (unsigned long long)h->payload_hash, (unsigned long long)got);
    return AUGUR_E_CHECKSUM;
  }
  if (h->codec == AUG_CODEC_RAW) return AUGUR_OK;
  need = h->raw_size ? h->raw_size : 1;
  if (*raw_cap < need) {
    uint8_t *p = realloc(*raw, need);
    if (!p) {
      snprintf(why, whylen, "out of memory for a %u-byte payload", h->raw_size);
      return AUGUR_E_NOMEM;
    }
    *raw = p;
    *raw_cap = need;
  }
  size_t z = ZSTD_decompressDCtx(dctx, *raw, h->raw_size, *stored, h->stored_size);
  if (ZSTD_isError(z)) {
    snprintf(why, whylen, "zstd: %s", ZSTD_getErrorName(z));
    return AUGUR_E_CODEC;
  }
  if (z != h->raw_size) {
    snprintf(why, whylen, "zstd output is %zu bytes, header says %u", z, h->raw_size);
    return AUGUR_E_FORMAT;
  }
  return AUGUR_OK;
}

/* A rank file's first bytes are read at once: a small file (a rank of a
 * trace of many ranks: header, definitions, a few events blocks) costs one
 * read, not one per block header and definitions payload. */
#define OPEN_READ (64u << 10)

typedef struct scan_bufs {
  uint8_t *stored, *raw;
  size_t stored_cap, raw_cap;
  uint8_t *head; /* OPEN_READ bytes */
  ZSTD_DCtx *dctx;
} scan_bufs;

/* A thread's records are written in its order, one MPI call after the other,
 * so each events block of a thread starts no earlier than the previous one of
 * that thread and kind ended (first_ns >= last_ns; BLOCKS[0..NBLOCKS) are the
 * kind's blocks so far). A block that does not is damage
 * (issue 22 item 11: a block written twice keeps valid checksums but counts
 * its events twice and puts time backwards): named as a repeat when an earlier
 * block of the thread has the same first_ns, last_ns, count and payload hash,
 * as out of order otherwise. LAST maps a thread to the index of its last
 * block. Returns 1 to index the block, 0 to drop it. */
static int same_block(const aug_block *b, const aug_blkhdr *h) {
  return b->info.thread == h->thread && b->info.first_ns == h->first_ns &&
         b->info.last_ns == h->last_ns && b->info.nevents == h->count &&
         b->payload_hash == h->payload_hash;
}

static int in_order(aug_rank *r, uint32_t rank, uint64_t off, const aug_blkhdr *h,
                    const aug_block *blocks, size_t nblocks, const aug_u64map *last) {
  uint32_t ix;
  if (!aug_u64map_get(last, h->thread, &ix)) return 1;
  const aug_block *prev = &blocks[ix];
  /* A block whose records all carry one time (OpenMP point records, or
   * zero-length calls) may start where the previous one ended: only an
   * exact copy of the previous block is a repeat then. */
  if (h->first_ns >= prev->info.last_ns && !same_block(prev, h)) return 1;
  /* The repeat is looked for among the last 4096 blocks: bounded work per
   * bad block whatever the file holds. */
  for (size_t i = nblocks, k = 0; i-- > 0 && k < 4096; k++) {
    const aug_block *b = &blocks[i];
    if (same_block(b, h)) {
      set_dropped(r,
                  "%s: rank %u: block at offset %llu: repeats the events block at offset %llu "
                  "(thread %u, same times and checksum); dropped",
                  r->file, rank, (unsigned long long)off, (unsigned long long)b->info.offset,
                  h->thread);
      return 0;
    }
  }
  set_dropped(r,
              "%s: rank %u: block at offset %llu: thread %u's events go back in time (block "
              "starts at %llu ns, the block at offset %llu ended at %llu ns); dropped",
              r->file, rank, (unsigned long long)off, h->thread, (unsigned long long)h->first_ns,
              (unsigned long long)prev->info.offset, (unsigned long long)prev->info.last_ns);
  return 0;
}

/* B, an index entry for the events block whose header H is at OFF. */
static void index_block(aug_block *b, uint64_t off, const aug_blkhdr *h) {
  assert(h->kind == AUG_BLK_EVENTS || h->kind == AUG_BLK_OMP);
  b->info =
      (augur_block_info){off, h->kind, h->thread, h->count, h->first_ns, h->last_ns, h->parents};
  b->codec = h->codec;
  b->raw_size = h->raw_size;
  b->stored_size = h->stored_size;
  b->payload_hash = h->payload_hash;
}

static int open_rank(augur_trace *t, uint32_t rank, scan_bufs *sb, augur_error *err) {
  aug_rank *r = &t->ranks[rank];
  char name[64];
  aug_rank_file_name(name, sizeof name, rank, t->nranks);
  size_t n = strlen(t->path) + strlen(name) + 2;
  r->file = malloc(n);
  if (!r->file) return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  snprintf(r->file, n, "%s/%s", t->path, name);
  int fd = open(r->file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      return augur_fail(err, AUGUR_E_MISSING, "%s: rank %u: rank file missing (trace has %u ranks)",
                        r->file, rank, t->nranks);
    return augur_fail(err, AUGUR_E_IO, "%s: rank %u: %s", r->file, rank, strerror(errno));
  }
  int rc = AUGUR_OK;
  aug_u64map last = {0};     /* thread -> index of its last MPI events block */
  aug_u64map last_omp = {0}; /* thread -> index of its last OpenMP events block */
  struct stat st;
  uint8_t hdr[AUG_BLKHDR_SIZE];
  char why[256];
  if (fstat(fd, &st) != 0) {
    rc = augur_fail(err, AUGUR_E_IO, "%s: rank %u: %s", r->file, rank, strerror(errno));
    goto out;
  }
  uint64_t size = (uint64_t)st.st_size;
  ssize_t headk = pread_full(fd, sb->head, size < OPEN_READ ? (size_t)size : OPEN_READ, 0);
  size_t headn = headk > 0 ? (size_t)headk : 0;
  ssize_t k = read_at(fd, sb->head, headn, hdr, AUG_FILEHDR_SIZE, 0);
  if (k < AUG_FILEHDR_SIZE) {
    rc = augur_fail(err, k < 0 ? AUGUR_E_IO : AUGUR_E_TRUNCATED,
                    "%s: rank %u: offset 0: file header needs %d bytes, file has %lld", r->file,
                    rank, AUG_FILEHDR_SIZE, (long long)size);
    goto out;
  }
  aug_filehdr fh;
  rc = aug_filehdr_unpack(hdr, &fh, why, sizeof why);
  if (rc != AUGUR_OK) {
    rc = augur_fail(err, rc, "%s: rank %u: offset 0: %s", r->file, rank, why);
    goto out;
  }
  if (fh.rank != rank || fh.nranks != t->nranks) {
    rc =
        augur_fail(err, AUGUR_E_FORMAT,
                   "%s: rank %u: offset 12: file header says rank %u of %u, expected rank %u of %u",
                   r->file, rank, fh.rank, fh.nranks, rank, t->nranks);
    goto out;
  }
  /* Walk the block headers. Damage stops the walk, not the open. */
  for (uint64_t off = AUG_FILEHDR_SIZE; off < size;) {
    if (size - off < AUG_BLKHDR_SIZE) {
      set_damage(r, AUGUR_E_TRUNCATED,
                 "%s: rank %u: block at offset %llu: file ends inside the block header "
                 "(expected %d bytes, found %llu)",
                 r->file, rank, (unsigned long long)off, AUG_BLKHDR_SIZE,
                 (unsigned long long)(size - off));
      break;
    }
    k = read_at(fd, sb->head, headn, hdr, AUG_BLKHDR_SIZE, off);
    if (k != AUG_BLKHDR_SIZE) {
      set_damage(r, AUGUR_E_IO, "%s: rank %u: block at offset %llu: read failed", r->file, rank,
                 (unsigned long long)off);
      break;
    }
    aug_blkhdr h;
    int code = aug_blkhdr_unpack(hdr, &h, why, sizeof why);
    if (code != AUGUR_OK) {
      set_damage(r, code, "%s: rank %u: block at offset %llu: %s", r->file, rank,
                 (unsigned long long)off, why);
      break;
    }
    if (h.stored_size > size - off - AUG_BLKHDR_SIZE) {
      set_damage(r, AUGUR_E_TRUNCATED,
                 "%s: rank %u: block at offset %llu: file ends inside the payload (expected %u "
                 "bytes, found %llu)",
                 r->file, rank, (unsigned long long)off, h.stored_size,
                 (unsigned long long)(size - off - AUG_BLKHDR_SIZE));
      break;
    }
    if (h.kind == AUG_BLK_EVENTS && !in_order(r, rank, off, &h, r->blocks, r->nblocks, &last)) {
      /* dropped (augur_trace_dropped), the walk goes on */
    } else if (h.kind == AUG_BLK_OMP &&
               !in_order(r, rank, off, &h, r->omp.b, r->omp.n, &last_omp)) {
      /* likewise */
    } else if (h.kind == AUG_BLK_EVENTS) {
      if (aug_grow((void **)&r->blocks, &r->capblocks, r->nblocks + 1, sizeof *r->blocks) ||
          aug_u64map_put(&last, h.thread, (uint32_t)r->nblocks)) {
        rc = augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory for the block index", r->file);
        goto out;
      }
      index_block(&r->blocks[r->nblocks++], off, &h);
      r->nevents += h.count;
      r->nparents += h.parents;
      if (!h.parents && h.count) r->parents_unknown = 1; /* a block has at least one parent */
    } else if (h.kind == AUG_BLK_OMP) {
      /* Indexed, never decoded here: MPI readers skip these blocks. */
      if (aug_grow((void **)&r->omp.b, &r->omp.cap, r->omp.n + 1, sizeof *r->omp.b) ||
          aug_u64map_put(&last_omp, h.thread, (uint32_t)r->omp.n)) {
        rc = augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory for the block index", r->file);
        goto out;
      }
      index_block(&r->omp.b[r->omp.n++], off, &h);
      r->omp.nevents += h.count;
    } else {
      code = read_payload(fd, sb->head, headn, off, &h, &sb->stored, &sb->stored_cap, &sb->raw,
                          &sb->raw_cap, sb->dctx, why, sizeof why);
      const char *what = why;
      if (code == AUGUR_OK && apply_defs(t, r, sb->raw, h.raw_size, h.count, &what) != 0)
        code = AUGUR_E_FORMAT;
      if (code != AUGUR_OK) {
        set_damage(r, code, "%s: rank %u: definitions block at offset %llu: %s", r->file, rank,
                   (unsigned long long)off, what);
        break;
      }
    }
    off += AUG_BLKHDR_SIZE + h.stored_size;
  }
  /* The index is kept while the trace is open: no room for blocks that will
   * not come (aug_grow's first 16 were 1.1 KB per rank, most ranks of a
   * large run have one or two blocks). */
  aug_shrink((void **)&r->blocks, &r->capblocks, r->nblocks, sizeof *r->blocks);
  aug_shrink((void **)&r->omp.b, &r->omp.cap, r->omp.n, sizeof *r->omp.b);
out:
  aug_u64map_free(&last);
  aug_u64map_free(&last_omp);
  close(fd);
  return rc;
}

int augur_trace_open(augur_trace **tp, const char *path, augur_error *err) {
  *tp = NULL;
  if (!path) return augur_fail(err, AUGUR_E_ARG, "augur_trace_open: NULL path");
  struct stat st;
  if (stat(path, &st) != 0) {
    if (errno == ENOENT)
      return augur_fail(err, AUGUR_E_MISSING, "%s: no such trace directory", path);
    return augur_fail(err, AUGUR_E_IO, "%s: %s", path, strerror(errno));
  }
  if (!S_ISDIR(st.st_mode))
    return augur_fail(err, AUGUR_E_FORMAT,
                      "%s: not a directory (a trace is a NAME.augur directory)", path);
  if (strlen(path) > 4000) return augur_fail(err, AUGUR_E_ARG, "%s: path too long", path);
  augur_trace *t = calloc(1, sizeof *t);
  if (!t || !(t->path = xstrdup(path))) {
    free(t);
    return augur_fail(err, AUGUR_E_NOMEM, "augur_trace_open: out of memory");
  }
  int rc = read_meta(t, err);
  if (rc != AUGUR_OK) goto fail;
  /* A missing last rank file is the cheap, common sign of a wrong nranks (or
   * an unfinished trace): say so before allocating per-rank state. */
  char name[64], last[4200];
  aug_rank_file_name(name, sizeof name, t->nranks - 1, t->nranks);
  snprintf(last, sizeof last, "%s/%s", path, name);
  if (stat(last, &st) != 0 && errno == ENOENT) {
    rc = augur_fail(err, AUGUR_E_MISSING, "%s: rank %u: rank file missing (trace has %u ranks)",
                    last, t->nranks - 1, t->nranks);
    goto fail;
  }
  t->ranks = calloc(t->nranks, sizeof *t->ranks);
  if (!t->ranks) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory for %u ranks", path, t->nranks);
    goto fail;
  }
  scan_bufs sb = {0};
  sb.dctx = ZSTD_createDCtx();
  sb.head = malloc(OPEN_READ);
  if (!sb.dctx || !sb.head) {
    free(sb.head);
    ZSTD_freeDCtx(sb.dctx);
    rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory");
    goto fail;
  }
  for (uint32_t r = 0; r < t->nranks && rc == AUGUR_OK; r++)
    rc = open_rank(t, r, &sb, err);
  free(sb.stored);
  free(sb.raw);
  free(sb.head);
  ZSTD_freeDCtx(sb.dctx);
  if (rc != AUGUR_OK) goto fail;
  for (uint32_t r = 0; r < t->nranks; r++) {
    aug_clock_setup(&t->ranks[r].clk, t->ranks[r].has_def ? &t->ranks[r].def : NULL);
    t->ndamaged += t->ranks[r].damage != NULL;
  }
  t->shift = 0;
  if (t->ranks[0].has_def) {
    const aug_rank *r0 = &t->ranks[0];
    t->shift = aug_clock_shift(&r0->clk, r0->def.init_ns);
  }
  *tp = t;
  return AUGUR_OK;
fail:
  augur_trace_close(t);
  return rc;
}

void augur_trace_close(augur_trace *t) {
  if (!t) return;
  for (uint32_t r = 0; t->ranks && r < t->nranks; r++) {
    aug_rank *k = &t->ranks[r];
    free(k->file);
    free(k->blocks);
    free(k->omp.b);
    free(k->damage);
    free(k->dropped);
    if (k->has_def) aug_rank_def_free(&k->def);
    aug_u64map_free(&k->cs);
    free(k->cs_dense);
    aug_u64map_free(&k->mod);
  }
  free(t->ranks);
  for (size_t i = 0; i < t->ncomms; i++) {
    aug_comm_def_free(&t->comms[i]);
    free(t->comm_body[i].p);
  }
  for (size_t i = 0; t->comm_rank_ix && i < 2 * t->ncomms; i++)
    free(t->comm_rank_ix[i]);
  free(t->comm_rank_ix);
  free(t->comms);
  free(t->comm_body);
  for (size_t i = 0; i < t->nmodules; i++)
    free(t->modules[i].path);
  free(t->modules);
  free(t->callsites);
  aug_u64map_free(&t->comm_ix);
  aug_u64map_free(&t->module_ix);
  aug_u64map_free(&t->callsite_ix);
  aug_files_free(t);
  aug_resolver_free(t->res);
  ZSTD_freeDCtx(atomic_load(&t->spare_dctx));
  augur_trace_info *in = &t->info;
  for (int i = 0; in->argv && i < in->argc; i++)
    free(in->argv[i]);
  free(in->argv);
  free((char *)in->mpi_library);
  free((char *)in->mpi_version);
  free((char *)in->recorder);
  free((char *)in->counters_requested);
  free_openmp(&in->openmp);
  free(t->path);
  free(t);
}

/* ---- accessors ---- */

const augur_trace_info *augur_trace_info_get(const augur_trace *t) {
  return &t->info;
}
uint32_t augur_trace_nranks(const augur_trace *t) {
  return t->nranks;
}
const char *augur_trace_path(const augur_trace *t) {
  return t->path;
}

int augur_trace_damage(const augur_trace *t, uint32_t rank, const char **msg) {
  if (msg) *msg = rank < t->nranks ? t->ranks[rank].damage : NULL;
  return (int)t->ndamaged; /* callers ask for every rank: counted once, at open */
}

const augur_rank_def *augur_trace_rank(const augur_trace *t, uint32_t rank) {
  if (rank >= t->nranks || !t->ranks[rank].has_def) return NULL;
  return &t->ranks[rank].def;
}

size_t augur_trace_ncomms(const augur_trace *t) {
  return t->ncomms;
}
const augur_comm_def *augur_trace_comm_at(const augur_trace *t, size_t i) {
  return i < t->ncomms ? &t->comms[i] : NULL;
}
const augur_comm_def *augur_trace_comm(const augur_trace *t, uint64_t id) {
  uint32_t ix;
  return aug_u64map_get(&t->comm_ix, id, &ix) ? &t->comms[ix] : NULL;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int64_t augur_trace_comm_rank(augur_trace *t, uint64_t id, int32_t world, int remote) {
  uint32_t ix;
  if (!t || world < 0 || !aug_u64map_get(&t->comm_ix, id, &ix)) return -1;
  const augur_comm_def *c = &t->comms[ix];
  const int32_t *g = remote ? c->remote : c->members;
  uint32_t n = remote ? c->remote_size : c->size;
  if (!g || !n) return -1;
  if (!t->comm_rank_ix) t->comm_rank_ix = calloc(2 * t->ncomms, sizeof *t->comm_rank_ix);
  uint64_t **slot = t->comm_rank_ix ? &t->comm_rank_ix[2 * (size_t)ix + (remote != 0)] : NULL;
  if (!slot || !*slot) {
    uint64_t *v = slot ? malloc(n * sizeof *v) : NULL;
    if (!v) { /* out of memory: the scan */
      for (uint32_t i = 0; i < n; i++)
        if (g[i] == world) return i;
      return -1;
    }
    for (uint32_t i = 0; i < n; i++)
      v[i] = (uint64_t)(uint32_t)g[i] << 32 | i;
    qsort(v, n, sizeof *v, cmp_u64);
    *slot = v;
  }
  const uint64_t *v = *slot, key = (uint64_t)(uint32_t)world << 32;
  size_t lo = 0, hi = n; /* the first entry >= key: WORLD's lowest rank */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && v[lo] >> 32 == (uint32_t)world ? (int64_t)(v[lo] & UINT32_MAX) : -1;
}

size_t augur_trace_ncallsites(const augur_trace *t) {
  return t->ncallsites;
}
const augur_callsite_def *augur_trace_callsite(const augur_trace *t, uint32_t id) {
  return id >= 1 && id <= t->ncallsites ? &t->callsites[id - 1] : NULL;
}
const augur_module_def *augur_trace_module(const augur_trace *t, uint32_t id) {
  return id >= 1 && id <= t->nmodules ? &t->modules[id - 1] : NULL;
}

/* Counters are configured identically on every rank; the first rank with
 * facts speaks for the trace. */
static const augur_rank_def *first_def(const augur_trace *t) {
  for (uint32_t r = 0; r < t->nranks; r++)
    if (t->ranks[r].has_def) return &t->ranks[r].def;
  return NULL;
}

uint32_t augur_trace_ncounters(const augur_trace *t) {
  const augur_rank_def *d = first_def(t);
  return d ? d->ncounters : 0;
}

const augur_counter_def *augur_trace_counter(const augur_trace *t, uint32_t index) {
  const augur_rank_def *d = first_def(t);
  for (uint32_t i = 0; d && i < d->ncounters; i++)
    if (d->counters[i].index == index) return &d->counters[i];
  return NULL;
}

int augur_trace_counter_slot(const augur_trace *t, uint32_t source, const char *name) {
  assert(t && name);
  const augur_rank_def *d = first_def(t);
  for (uint32_t i = 0; d && i < d->ncounters; i++) {
    const augur_counter_def *c = &d->counters[i];
    if (c->source == source && c->name && c->index < AUGUR_MAX_COUNTERS && !strcmp(c->name, name))
      return (int)c->index;
  }
  return -1;
}

size_t augur_trace_nblocks(const augur_trace *t, uint32_t rank) {
  return rank < t->nranks ? t->ranks[rank].nblocks : 0;
}
const augur_block_info *augur_trace_block(const augur_trace *t, uint32_t rank, size_t i) {
  if (rank >= t->nranks || i >= t->ranks[rank].nblocks) return NULL;
  return &t->ranks[rank].blocks[i].info;
}
uint64_t augur_trace_nevents(const augur_trace *t, uint32_t rank) {
  return rank < t->nranks ? t->ranks[rank].nevents : 0;
}

uint64_t augur_trace_total_events(const augur_trace *t) {
  assert(t);
  uint64_t n = 0;
  for (uint32_t r = 0; r < t->nranks; r++)
    n += t->ranks[r].nevents;
  return n;
}

size_t augur_trace_omp_nblocks(const augur_trace *t, uint32_t rank) {
  assert(t);
  return rank < t->nranks ? t->ranks[rank].omp.n : 0;
}
const augur_block_info *augur_trace_omp_block(const augur_trace *t, uint32_t rank, size_t i) {
  assert(t);
  if (rank >= t->nranks || i >= t->ranks[rank].omp.n) return NULL;
  return &t->ranks[rank].omp.b[i].info;
}
uint64_t augur_trace_omp_nevents(const augur_trace *t, uint32_t rank) {
  assert(t);
  return rank < t->nranks ? t->ranks[rank].omp.nevents : 0;
}

uint64_t augur_trace_nparents(const augur_trace *t, uint32_t rank) {
  if (rank >= t->nranks) return 0;
  const aug_rank *r = &t->ranks[rank];
  return r->parents_unknown ? r->nevents : r->nparents;
}

uint64_t augur_trace_global_ns(const augur_trace *t, uint32_t rank, uint64_t local_ns) {
  if (rank >= t->nranks) return local_ns;
  return aug_global_ns(&t->ranks[rank], t->shift, local_ns);
}

size_t augur_trace_dropped(const augur_trace *t, uint32_t rank, const char **msg) {
  assert(t);
  const aug_rank *r = rank < t->nranks ? &t->ranks[rank] : NULL;
  if (msg) *msg = r ? r->dropped : NULL;
  return r ? r->ndropped : 0;
}

int augur_trace_rank_finished(const augur_trace *t, uint32_t rank) {
  assert(t);
  return rank < t->nranks && t->ranks[rank].has_def && t->ranks[rank].def.finalize_ns != 0;
}

uint64_t augur_trace_rank_end_ns(const augur_trace *t, uint32_t rank) {
  assert(t);
  if (rank >= t->nranks) return 0;
  const aug_rank *r = &t->ranks[rank];
  uint64_t last = 0;
  int any = 0;
  for (size_t i = 0; i < r->nblocks; i++)
    if (r->blocks[i].info.kind == AUG_BLK_EVENTS && r->blocks[i].info.last_ns >= last) {
      last = r->blocks[i].info.last_ns;
      any = 1;
    }
  return any ? augur_trace_global_ns(t, rank, last) : 0;
}

int augur_trace_incomplete(const augur_trace *t, char *buf, size_t n) {
  assert(t && (buf || !n));
  uint32_t unfinished = 0, first = 0;
  uint64_t first_end = UINT64_MAX;
  for (uint32_t r = 0; r < t->nranks; r++) {
    if (augur_trace_rank_finished(t, r)) continue;
    uint64_t end = augur_trace_rank_end_ns(t, r);
    if (!unfinished++ || end < first_end) {
      first = r;
      first_end = end;
    }
  }
  if (n) buf[0] = '\0';
  if (!unfinished || !n) return (int)unfinished;
  int events = augur_trace_nevents(t, first) != 0;
  double at = (double)first_end / 1e9;
  /* How much of each unfinished rank survived. */
  char kept[AUGUR_INCOMPLETE_MAX / 2];
  size_t k = 0;
  uint32_t listed = 0;
  k += (size_t)snprintf(kept, sizeof kept, "kept:");
  for (uint32_t r = 0; r < t->nranks && k < sizeof kept; r++) {
    if (augur_trace_rank_finished(t, r)) continue;
    if (listed++ == AUGUR_INCOMPLETE_LIST) {
      k += (size_t)snprintf(kept + k, sizeof kept - k, ", %u more", unfinished - listed + 1);
      break;
    }
    k += (size_t)snprintf(kept + k, sizeof kept - k, "%s rank %u %llu events to %.2f s",
                          listed > 1 ? "," : "", r, (unsigned long long)augur_trace_nevents(t, r),
                          (double)augur_trace_rank_end_ns(t, r) / 1e9);
  }
  const char *tail = "results cover only what was recorded";
  if (unfinished == 1 && events)
    snprintf(buf, n, "trace incomplete: rank %u stops at %.2f s (no MPI_Finalize); %s; %s", first,
             at, kept, tail);
  else if (unfinished == 1)
    snprintf(buf, n, "trace incomplete: rank %u recorded no events (no MPI_Finalize); %s", first,
             tail);
  else if (events)
    snprintf(buf, n,
             "trace incomplete: %u of %u ranks stop before MPI_Finalize, rank %u first at "
             "%.2f s; %s; %s",
             unfinished, t->nranks, first, at, kept, tail);
  else
    snprintf(buf, n,
             "trace incomplete: %u of %u ranks stop before MPI_Finalize, rank %u with no "
             "events; %s; %s",
             unfinished, t->nranks, first, kept, tail);
  return (int)unfinished;
}
