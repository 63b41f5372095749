/* augur — trace writer: one rank file, blocks written with plain write(2). */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>
/* ZSTD_c_literalCompressionMode, ZSTD_lcm_huffman (zstd >= 1.4.5) */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "augur/writer.h"
#include "check.h"
#include "format.h"
#include "io.h"
#include "subrec.h"

struct augur_writer {
  int fd;
  char *path;
  uint32_t rank, nranks;
  int level;
  int fast;   /* 1: cctx holds the parameters of full buffers' blocks (AUG_ZSTD_FAST_MIN) */
  int broken; /* a write failed: the file ends in a partial block */
  int defer;  /* augur_writer_defer_compression: blocks raw now, compressed at close */
  uint64_t bytes;
  pthread_mutex_t mu;
  aug_buf defs; /* encoded, queued definition records */
  uint32_t ndefs;
  aug_buf raw; /* raw payload of the block being built */
  aug_buf out; /* header + stored payload */
  ZSTD_CCtx *cctx;
  aug_evenc enc;
};

#if AUG_CHECKS
/* The file holds what the writer counted: its offset is w->bytes (blocks
 * go out whole, with plain write(2), at the end of what came before). */
static int writer_check(const augur_writer *w) {
  off_t at = lseek(w->fd, 0, SEEK_CUR);
  return at < 0 || (uint64_t)at == w->bytes;
}
#endif

/* Blocks of at least this many raw bytes are a full thread buffer (8192
 * records of a few bytes: a thread making MPI calls at a high rate, where the
 * flush is part of the cost per call), smaller ones were written by the age
 * bound or at the end. Without an explicit AUGUR_ZSTD_LEVEL the large ones
 * get zstd's fast strategy at level -50 with Huffman-coded literals, which
 * is most of what level 1 gains on event columns: on a polling loop's blocks
 * 8.9 instead of 15.9-20.4 ns per record for 1.26 instead of 1.10 bytes, on
 * a stencil's 8.0 instead of 8.3-8.8 ns for 2.04 instead of 2.03 bytes
 * (bench/recorder/README.md). The small ones keep level 1, where the
 * per-block set-up dominates either way and the size counts more. */
#define AUG_ZSTD_FAST_MIN   16384
#define AUG_ZSTD_FAST_LEVEL (-50)

/* Compresses w->raw (when that helps and compress is set) and writes one
 * block. Caller holds mu. Without compress, and with w->out large enough, it
 * allocates nothing and calls only write(2). */
static int write_block(augur_writer *w, unsigned kind, uint32_t thread, uint32_t count,
                       uint32_t parents, uint64_t first_ns, uint64_t last_ns, int compress,
                       augur_error *err) {
  assert(w->fd >= 0 && !w->broken &&
         (kind == AUG_BLK_EVENTS || kind == AUG_BLK_DEFS || kind == AUG_BLK_OMP));
  assert(count > 0 && parents <= count);
  size_t rawlen = w->raw.len;
  if (rawlen > AUG_MAX_RAW_SIZE)
    return augur_fail(err, AUGUR_E_ARG, "%s: block of %zu bytes exceeds the %u-byte limit", w->path,
                      rawlen, AUG_MAX_RAW_SIZE);
  if (rawlen < 64) compress = 0;
  size_t bound = compress ? ZSTD_compressBound(rawlen) : rawlen;
  w->out.len = 0;
  if (aug_buf_reserve(&w->out, AUG_BLKHDR_SIZE + (bound > rawlen ? bound : rawlen)))
    return augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory building a block", w->path);
  uint8_t *payload = w->out.p + AUG_BLKHDR_SIZE;
  aug_blkhdr h = {.kind = (uint8_t)kind,
                  .codec = AUG_CODEC_RAW,
                  .thread = thread,
                  .count = count,
                  .parents = parents,
                  .raw_size = (uint32_t)rawlen,
                  .stored_size = (uint32_t)rawlen,
                  .first_ns = first_ns,
                  .last_ns = last_ns};
  size_t z = 0;
  if (compress && w->fast && rawlen >= AUG_ZSTD_FAST_MIN)
    z = ZSTD_compress2(w->cctx, payload, bound, w->raw.p, rawlen);
  else if (compress)
    z = ZSTD_compressCCtx(w->cctx, payload, bound, w->raw.p, rawlen, w->level);
  if (compress && ZSTD_isError(z))
    return augur_fail(err, AUGUR_E_CODEC, "%s: zstd: %s", w->path, ZSTD_getErrorName(z));
  if (z > 0 && z < rawlen) {
    h.codec = AUG_CODEC_ZSTD;
    h.stored_size = (uint32_t)z;
  } else {
    memcpy(payload, w->raw.p, rawlen);
  }
  h.payload_hash = XXH3_64bits(payload, h.stored_size);
  aug_blkhdr_pack(w->out.p, &h);
  size_t total = AUG_BLKHDR_SIZE + h.stored_size;
  if (aug_write_all(w->fd, w->out.p, total, 0, -1)) {
    w->broken = 1;
    return augur_fail(err, AUGUR_E_IO, "%s: rank %u: write at offset %llu failed: %s", w->path,
                      w->rank, (unsigned long long)w->bytes, strerror(errno));
  }
  w->bytes += total;
  AUG_CHECK(writer_check(w));
  return AUGUR_OK;
}

static int flush_defs(augur_writer *w, int compress, augur_error *err) {
  assert(w->ndefs == 0 || w->defs.len > 0);
  if (w->ndefs == 0) return AUGUR_OK;
  w->raw.len = 0;
  if (aug_buf_append(&w->raw, w->defs.p, w->defs.len))
    return augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", w->path);
  int rc = write_block(w, AUG_BLK_DEFS, 0, w->ndefs, 0, 0, 0, compress, err);
  if (rc == AUGUR_OK) {
    w->defs.len = 0;
    w->ndefs = 0;
  }
  return rc;
}

int augur_writer_open(augur_writer **wp, const char *dir, uint32_t rank, uint32_t nranks,
                      int zstd_level, augur_error *err) {
  *wp = NULL;
  if (!dir || nranks == 0 || rank >= nranks)
    return augur_fail(err, AUGUR_E_ARG, "augur_writer_open: rank %u of %u is not valid", rank,
                      nranks);
  augur_writer *w = calloc(1, sizeof *w);
  if (!w) return augur_fail(err, AUGUR_E_NOMEM, "augur_writer_open: out of memory");
  char name[64];
  aug_rank_file_name(name, sizeof name, rank, nranks);
  size_t n = strlen(dir) + strlen(name) + 2;
  w->path = malloc(n);
  w->cctx = ZSTD_createCCtx();
  if (!w->path || !w->cctx) {
    ZSTD_freeCCtx(w->cctx);
    free(w->path);
    free(w);
    return augur_fail(err, AUGUR_E_NOMEM, "augur_writer_open: out of memory");
  }
  snprintf(w->path, n, "%s/%s", dir, name);
  w->rank = rank;
  w->nranks = nranks;
  w->level = zstd_level > 0 ? zstd_level : 1;
  if (w->level > ZSTD_maxCLevel()) w->level = ZSTD_maxCLevel();
  /* The sticky parameters serve ZSTD_compress2 (large blocks) only;
   * ZSTD_compressCCtx takes its level per call. A zstd without the literal
   * mode keeps level 1 for all. */
  w->fast = zstd_level <= 0 &&
            !ZSTD_isError(
                ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, AUG_ZSTD_FAST_LEVEL)) &&
            !ZSTD_isError(
                ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_literalCompressionMode, ZSTD_lcm_huffman));
  /* Every rank creates the directory too: no rank has to wait for rank 0. */
  if (aug_mkdir_p(dir) != 0) {
    int e = errno;
    augur_fail(err, AUGUR_E_IO, "%s: rank %u: cannot create directory %s: %s", w->path, rank, dir,
               strerror(e));
    ZSTD_freeCCtx(w->cctx);
    free(w->path);
    free(w);
    return AUGUR_E_IO;
  }
  w->fd = open(w->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (w->fd < 0) {
    int e = errno;
    augur_fail(err, AUGUR_E_IO, "%s: rank %u: cannot create: %s", w->path, rank, strerror(e));
    ZSTD_freeCCtx(w->cctx);
    free(w->path);
    free(w);
    return AUGUR_E_IO;
  }
  pthread_mutex_init(&w->mu, NULL);
  uint8_t hdr[AUG_FILEHDR_SIZE];
  aug_filehdr fh = {AUG_FORMAT_MAJOR, AUG_FORMAT_MINOR, rank, nranks, 0};
  aug_filehdr_pack(hdr, &fh);
  if (aug_write_all(w->fd, hdr, sizeof hdr, 0, -1)) {
    int e = errno;
    augur_fail(err, AUGUR_E_IO, "%s: rank %u: write of the file header failed: %s", w->path, rank,
               strerror(e));
    close(w->fd);
    w->fd = -1;
    augur_writer_close(w, NULL);
    return AUGUR_E_IO;
  }
  w->bytes = sizeof hdr;
  *wp = w;
  return AUGUR_OK;
}

/* Queues one encoded definition record under the lock. */
static int queue_def(augur_writer *w, int (*put)(aug_buf *, const void *), const void *def,
                     augur_error *err) {
  if (!w || !def) return augur_fail(err, AUGUR_E_ARG, "augur_writer_def: NULL argument");
  pthread_mutex_lock(&w->mu);
  int rc = put(&w->defs, def);
  if (rc == AUGUR_OK) w->ndefs++;
  pthread_mutex_unlock(&w->mu);
  if (rc != AUGUR_OK)
    return augur_fail(err, rc, "%s: out of memory queueing a definition", w->path);
  return AUGUR_OK;
}

/* Adapters: the put functions take typed pointers. */
static int put_rank(aug_buf *b, const void *d) {
  return aug_def_put_rank(b, d);
}
static int put_comm(aug_buf *b, const void *d) {
  return aug_def_put_comm(b, d);
}
static int put_module(aug_buf *b, const void *d) {
  return aug_def_put_module(b, d);
}
static int put_callsite(aug_buf *b, const void *d) {
  return aug_def_put_callsite(b, d);
}
static int put_file(aug_buf *b, const void *d) {
  return aug_def_put_file(b, d);
}

int augur_writer_def_rank(augur_writer *w, const augur_rank_def *def, augur_error *err) {
  return queue_def(w, put_rank, def, err);
}
int augur_writer_def_comm(augur_writer *w, const augur_comm_def *def, augur_error *err) {
  return queue_def(w, put_comm, def, err);
}
int augur_writer_def_module(augur_writer *w, const augur_module_def *def, augur_error *err) {
  return queue_def(w, put_module, def, err);
}
int augur_writer_def_callsite(augur_writer *w, const augur_callsite_def *def, augur_error *err) {
  return queue_def(w, put_callsite, def, err);
}
int augur_writer_def_file(augur_writer *w, const augur_file_def *def, augur_error *err) {
  return queue_def(w, put_file, def, err);
}

#ifndef NDEBUG
/* Every record of an OpenMP call is an OpenMP record (docs/openmp.md). */
static int all_omp(const augur_event *ev, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!augur_event_is_omp(ev[i].type)) return 0;
  return 1;
}
#endif

/* Writes pending definitions, then n events as blocks of KIND
 * (AUG_BLK_EVENTS or AUG_BLK_OMP) of about AUG_BLOCK_TARGET records, never
 * split between a parent and its sub-records. Caller holds mu. */
static int events_locked(augur_writer *w, unsigned kind, uint32_t thread, const augur_event *ev,
                         size_t n, int compress, augur_error *err) {
  assert(w && (ev || !n) && (kind == AUG_BLK_EVENTS || kind == AUG_BLK_OMP));
  if (w->broken)
    return augur_fail(err, AUGUR_E_STATE, "%s: an earlier write failed; writer unusable", w->path);
  int rc = flush_defs(w, compress, err);
  for (size_t i = 0; rc == AUGUR_OK && i < n;) {
    size_t j = i + (n - i > AUG_BLOCK_TARGET ? AUG_BLOCK_TARGET : n - i);
    while (j < n && aug_type_is_sub(ev[j].type) && j - i < AUG_MAX_BLOCK_RECORDS)
      j++;
    assert(j > i && j - i <= AUG_MAX_BLOCK_RECORDS);
    w->raw.len = 0;
    rc = aug_ev_encode(&w->enc, ev + i, j - i, &w->raw);
    if (rc == AUGUR_E_ARG)
      return augur_fail(err, rc, "%s: event type 127 or above 254 in records %zu..%zu", w->path, i,
                        j - 1);
    if (rc != AUGUR_OK) return augur_fail(err, rc, "%s: out of memory encoding events", w->path);
    rc = write_block(w, kind, thread, (uint32_t)(j - i), w->enc.parents, ev[i].t_start,
                     w->enc.last_ns, compress, err);
    i = j;
  }
  return rc;
}

static int events_call(augur_writer *w, unsigned kind, uint32_t thread, const augur_event *ev,
                       size_t n, augur_error *err) {
  if (!w || (n && !ev)) return augur_fail(err, AUGUR_E_ARG, "augur_writer_events: NULL argument");
  pthread_mutex_lock(&w->mu);
  int rc = events_locked(w, kind, thread, ev, n, !w->defer, err);
  pthread_mutex_unlock(&w->mu);
  return rc;
}

int augur_writer_events(augur_writer *w, uint32_t thread, const augur_event *ev, size_t n,
                        augur_error *err) {
  return events_call(w, AUG_BLK_EVENTS, thread, ev, n, err);
}

int augur_writer_omp_events(augur_writer *w, uint32_t thread, const augur_event *ev, size_t n,
                            augur_error *err) {
  assert(!n || !ev || all_omp(ev, n));
  return events_call(w, AUG_BLK_OMP, thread, ev, n, err);
}

int augur_writer_reserve(augur_writer *w, size_t n, augur_error *err) {
  assert(w);
  if (n > AUG_BLOCK_TARGET + 64) n = AUG_BLOCK_TARGET + 64;
  pthread_mutex_lock(&w->mu);
  size_t raw = aug_ev_encode_bound(n);
  int bad = aug_ev_encoder_reserve(&w->enc, n) ||
            (w->raw.cap < raw && aug_buf_reserve(&w->raw, raw - w->raw.len)) ||
            (w->out.cap < AUG_BLKHDR_SIZE + raw &&
             aug_buf_reserve(&w->out, AUG_BLKHDR_SIZE + raw - w->out.len));
  pthread_mutex_unlock(&w->mu);
  return bad ? augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory reserving buffers", w->path)
             : AUGUR_OK;
}

static int events_in_signal(augur_writer *w, unsigned kind, uint32_t thread, const augur_event *ev,
                            size_t n) {
  if (!w || (n && !ev)) return -1;
  if (pthread_mutex_trylock(&w->mu) != 0) return -1;
  /* Only what fits in the reserved buffers: nothing may allocate here. */
  size_t most = n < AUG_BLOCK_TARGET + 64 ? n : AUG_BLOCK_TARGET + 64;
  size_t raw = aug_ev_encode_bound(most);
  if (w->defs.len > raw) raw = w->defs.len;
  int rc = -1;
  if (aug_ev_encoder_fits(&w->enc, most) && w->raw.cap >= raw &&
      w->out.cap >= AUG_BLKHDR_SIZE + raw) {
    if (n > most) { /* a huge group grew the buffer: the groups that fit, whole */
      n = most;
      while (n > 0 && aug_type_is_sub(ev[n].type))
        n--;
    }
    rc = events_locked(w, kind, thread, ev, n, 0, NULL) == AUGUR_OK ? 0 : -1;
  }
  pthread_mutex_unlock(&w->mu);
  return rc;
}

int augur_writer_events_in_signal(augur_writer *w, uint32_t thread, const augur_event *ev,
                                  size_t n) {
  return events_in_signal(w, AUG_BLK_EVENTS, thread, ev, n);
}

int augur_writer_omp_events_in_signal(augur_writer *w, uint32_t thread, const augur_event *ev,
                                      size_t n) {
  assert(!n || !ev || all_omp(ev, n));
  return events_in_signal(w, AUG_BLK_OMP, thread, ev, n);
}

int augur_writer_flush(augur_writer *w, augur_error *err) {
  if (!w) return augur_fail(err, AUGUR_E_ARG, "augur_writer_flush: NULL writer");
  pthread_mutex_lock(&w->mu);
  int rc = w->broken ? augur_fail(err, AUGUR_E_STATE, "%s: an earlier write failed", w->path)
                     : flush_defs(w, !w->defer, err);
  pthread_mutex_unlock(&w->mu);
  return rc;
}

void augur_writer_defer_compression(augur_writer *w) {
  assert(w);
  pthread_mutex_lock(&w->mu);
  w->defer = 1;
  pthread_mutex_unlock(&w->mu);
}

/* Copies the END bytes of w's file, read from IN, to w->fd (the copy, empty)
 * block by block: each raw block compressed by write_block (so the result is
 * the file an undeferred writer makes), the others as they are, each
 * payload's hash checked first. */
static int compress_copy(augur_writer *w, int in, uint64_t end, augur_error *err) {
  assert(w->bytes == 0);
  uint8_t hb[AUG_BLKHDR_SIZE > AUG_FILEHDR_SIZE ? AUG_BLKHDR_SIZE : AUG_FILEHDR_SIZE];
  uint64_t at = AUG_FILEHDR_SIZE;
  if (aug_read_all(in, hb, AUG_FILEHDR_SIZE) || aug_write_all(w->fd, hb, AUG_FILEHDR_SIZE, 0, -1))
    return augur_fail(err, AUGUR_E_IO, "file header: %s", strerror(errno));
  w->bytes = AUG_FILEHDR_SIZE;
  while (at < end) {
    aug_blkhdr h;
    char why[160];
    if (end - at < AUG_BLKHDR_SIZE || aug_read_all(in, hb, AUG_BLKHDR_SIZE))
      return augur_fail(err, AUGUR_E_IO, "block at offset %llu: short read",
                        (unsigned long long)at);
    if (aug_blkhdr_unpack(hb, &h, why, sizeof why) != AUGUR_OK || h.stored_size > end - at)
      return augur_fail(err, AUGUR_E_FORMAT, "block at offset %llu: %s", (unsigned long long)at,
                        h.stored_size > end - at ? "runs past the end" : why);
    w->raw.len = 0;
    if (aug_buf_reserve(&w->raw, h.stored_size))
      return augur_fail(err, AUGUR_E_NOMEM, "block at offset %llu: out of memory",
                        (unsigned long long)at);
    if (aug_read_all(in, w->raw.p, h.stored_size))
      return augur_fail(err, AUGUR_E_IO, "block at offset %llu: short read",
                        (unsigned long long)at);
    if (XXH3_64bits(w->raw.p, h.stored_size) != h.payload_hash)
      return augur_fail(err, AUGUR_E_CHECKSUM, "block at offset %llu: payload checksum",
                        (unsigned long long)at);
    w->raw.len = h.stored_size;
    at += AUG_BLKHDR_SIZE + (uint64_t)h.stored_size;
    int rc; /* (aug_blkhdr_unpack vouched for the kind and the parents) */
    if (h.codec == AUG_CODEC_RAW && h.count > 0) {
      rc = write_block(w, h.kind, h.thread, h.count, h.parents, h.first_ns, h.last_ns, 1, err);
    } else if (aug_write_all(w->fd, hb, AUG_BLKHDR_SIZE, 0, -1) ||
               aug_write_all(w->fd, w->raw.p, h.stored_size, 0, -1)) {
      rc = augur_fail(err, AUGUR_E_IO, "write: %s", strerror(errno));
    } else {
      w->bytes += AUG_BLKHDR_SIZE + (uint64_t)h.stored_size;
      rc = AUGUR_OK;
    }
    if (rc != AUGUR_OK) return rc;
  }
  return AUGUR_OK;
}

/* Replaces w's complete file by its compressed copy (w->path +
 * AUGUR_WRITER_PART, renamed over it). write_block writes the copy: w->fd and
 * w->bytes stand for it meanwhile. On failure the file stays as it was:
 * complete, blocks raw, readable. */
static int compress_file(augur_writer *w, augur_error *err) {
  size_t n = strlen(w->path) + sizeof AUGUR_WRITER_PART;
  char *part = malloc(n);
  if (!part) return augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", w->path);
  snprintf(part, n, "%s" AUGUR_WRITER_PART, w->path);
  int in = open(w->path, O_RDONLY | O_CLOEXEC);
  int out = in < 0 ? -1 : open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  int fd = w->fd;
  uint64_t bytes = w->bytes;
  w->fd = out;
  w->bytes = 0;
  augur_error e;
  int rc = out < 0 ? augur_fail(&e, AUGUR_E_IO, "%s: %s", in < 0 ? w->path : part, strerror(errno))
                   : compress_copy(w, in, bytes, &e);
  uint64_t packed = w->bytes;
  w->fd = fd;
  w->bytes = bytes;
  if (in >= 0) close(in);
  if (out >= 0 && close(out) != 0 && rc == AUGUR_OK)
    rc = augur_fail(&e, AUGUR_E_IO, "%s: close: %s", part, strerror(errno));
  if (rc == AUGUR_OK && rename(part, w->path) != 0)
    rc = augur_fail(&e, AUGUR_E_IO, "rename %s: %s", part, strerror(errno));
  if (rc == AUGUR_OK)
    w->bytes = packed;
  else {
    if (out >= 0) unlink(part);
    augur_fail(err, rc,
               "%s: rank %u: compressing at close: %s (the file is complete, uncompressed)",
               w->path, w->rank, e.msg);
  }
  free(part);
  return rc;
}

int augur_writer_close(augur_writer *w, augur_error *err) {
  if (!w) return AUGUR_OK;
  int rc = AUGUR_OK;
  if (w->fd >= 0) {
    rc = augur_writer_flush(w, err);
    if (rc == AUGUR_OK && w->defer && !w->broken) rc = compress_file(w, err);
    if (close(w->fd) != 0 && rc == AUGUR_OK)
      rc = augur_fail(err, AUGUR_E_IO, "%s: close: %s", w->path, strerror(errno));
    pthread_mutex_destroy(&w->mu);
  }
  aug_buf_free(&w->defs);
  aug_buf_free(&w->raw);
  aug_buf_free(&w->out);
  aug_ev_encoder_free(&w->enc);
  ZSTD_freeCCtx(w->cctx);
  free(w->path);
  free(w);
  return rc;
}

uint64_t augur_writer_bytes(const augur_writer *w) {
  return w ? w->bytes : 0;
}
