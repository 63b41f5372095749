/* augur — reader internals shared by reader.c, stream.c and resolve.c. */
#ifndef AUGUR_READER_INT_H
#define AUGUR_READER_INT_H

#include <stddef.h>
#include <stdint.h>

#include "augur/reader.h"
#include "format.h"

/* u64 -> u32 hash map (open addressing, linear probing, no deletion). */
typedef struct aug_map {
  uint64_t *keys;
  uint32_t *vals; /* value + 1; 0 = empty slot */
  size_t cap, n;
} aug_map;

int aug_map_put(aug_map *m, uint64_t key, uint32_t val);        /* 0 or -1 (out of memory) */
int aug_map_get(const aug_map *m, uint64_t key, uint32_t *val); /* 1 found, 0 not */
void aug_map_free(aug_map *m);

typedef struct aug_block {
  augur_block_info info;
  uint8_t codec;
  uint32_t raw_size, stored_size;
  uint64_t payload_hash;
} aug_block;

typedef struct aug_rank {
  char *file; /* full path of the rank file */
  aug_block *blocks;
  size_t nblocks, capblocks;
  uint64_t nevents;
  uint64_t nparents;   /* sum of the blocks' parent counts */
  int parents_unknown; /* a block without one (written before format minor 2) */
  int damage_code;
  char *damage;    /* "FILE: rank R: block at offset O: ..." or NULL */
  size_t ndropped; /* events blocks dropped at open (augur_trace_dropped) */
  char *dropped;   /* the first one's description, or NULL */
  augur_rank_def def;
  int has_def;
  aug_map cs;  /* local call-site id -> global id */
  aug_map mod; /* local module id -> global module id */
  /* clock: offset(local) = off0 + slope * (local - l0) */
  int64_t off0;
  double slope;
  uint64_t l0;
} aug_rank;

typedef struct aug_resolver aug_resolver;

struct augur_trace {
  char *path;
  augur_trace_info info;
  uint32_t nranks;
  aug_rank *ranks;
  augur_comm_def *comms;
  size_t ncomms, capcomms;
  aug_map comm_ix;           /* id -> index */
  augur_module_def *modules; /* global id = index + 1 */
  size_t nmodules, capmodules;
  aug_map module_ix;             /* xxh3(path) -> global id */
  augur_callsite_def *callsites; /* global id = index + 1 */
  size_t ncallsites, capcallsites;
  aug_map callsite_ix; /* xxh3(module, offset) -> global id */
  int64_t shift;
  aug_resolver *res;
};

/* Drift part of a clock offset: slope * (local - l0), rounded, saturated to
 * +-2^62 so damaged sync values cannot overflow the conversion. */
static inline int64_t aug_drift(double slope, uint64_t l0, uint64_t local) {
  double x = slope * (double)(int64_t)(local - l0);
  if (!(x > -4.6e18 && x < 4.6e18)) x = x > 0 ? 4.6e18 : -4.6e18; /* NaN -> negative */
  return (int64_t)(x < 0 ? x - 0.5 : x + 0.5);
}

/* local + base + drift, with base = offset at l0 minus the trace's shift.
 * Sums wrap (unsigned) instead of overflowing; negative results become 0. */
static inline uint64_t aug_clock_global(int64_t base, double slope, uint64_t l0, uint64_t local) {
  uint64_t g = local + (uint64_t)base;
  if (slope != 0.0) g += (uint64_t)aug_drift(slope, l0, local);
  return (int64_t)g < 0 ? 0 : g;
}

/* Clock offset of a rank at a local time (ns). */
static inline int64_t aug_offset_at(const aug_rank *r, uint64_t local) {
  uint64_t off = (uint64_t)r->off0;
  if (r->slope != 0.0) off += (uint64_t)aug_drift(r->slope, r->l0, local);
  return (int64_t)off;
}

/* Global time of a rank's local time. */
static inline uint64_t aug_global_ns(const aug_rank *r, int64_t shift, uint64_t local) {
  return aug_clock_global((int64_t)((uint64_t)r->off0 - (uint64_t)shift), r->slope, r->l0, local);
}

void aug_resolver_free(aug_resolver *res);

/* Reads the payload of the block whose header h is at off, checks its
 * checksum and decompresses it into *raw (buffers grow as needed; dctx is a
 * ZSTD_DCtx). Returns AUGUR_OK or a status with a description in why. */
int aug_read_payload(int fd, uint64_t off, const aug_blkhdr *h, uint8_t **stored,
                     size_t *stored_cap, uint8_t **raw, size_t *raw_cap, void *dctx, char *why,
                     size_t whylen);

#endif
