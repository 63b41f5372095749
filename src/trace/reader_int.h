/* augur — reader internals shared by reader.c, stream.c and resolve.c. */
#ifndef AUGUR_READER_INT_H
#define AUGUR_READER_INT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "augur/reader.h"
#include "clock.h"
#include "format.h"
#include "u64map.h"

typedef struct aug_block {
  augur_block_info info;
  uint8_t codec;
  uint32_t raw_size, stored_size;
  uint64_t payload_hash;
} aug_block;

/* One kind's events blocks of a rank file, in file order. */
typedef struct aug_blocks {
  aug_block *b;
  size_t n, cap;
  uint64_t nevents;
} aug_blocks;

#define AUG_CS_DENSE 256

typedef struct aug_rank {
  char *file;        /* full path of the rank file */
  aug_block *blocks; /* MPI events blocks (kind 1) */
  size_t nblocks, capblocks;
  uint64_t nevents;
  aug_blocks omp;      /* OpenMP events blocks (kind 3, format minor 4) */
  uint64_t nparents;   /* sum of the blocks' parent counts */
  int parents_unknown; /* a block without one (written before format minor 2) */
  int damage_code;
  char *damage;    /* "FILE: rank R: block at offset O: ..." or NULL */
  size_t ndropped; /* events blocks dropped at open (augur_trace_dropped) */
  char *dropped;   /* the first one's description, or NULL */
  augur_rank_def def;
  int has_def;
  aug_u64map cs; /* local call-site id -> global id, for ids from AUG_CS_DENSE on */
  /* Local ids below AUG_CS_DENSE, as an array (0: not defined): the rank
   * streams' lookup per record, without a copy per stream or a map per rank. */
  uint32_t *cs_dense;
  size_t cs_cap;
  uint32_t cs_n;
  aug_u64map mod; /* local module id -> global module id */
  aug_clock clk;
} aug_rank;

typedef struct aug_resolver aug_resolver;

/* The encoded body of a communicator definition: a later rank's definition
 * with the same bytes agrees without being decoded (every member rank
 * defines the world: at 65,536 ranks, 65,536 definitions of 65,536 members). */
typedef struct aug_comm_body {
  uint8_t *p;
  size_t n;
} aug_comm_body;

struct augur_trace {
  char *path;
  augur_trace_info info;
  uint32_t nranks;
  aug_rank *ranks;
  uint32_t ndamaged; /* ranks with damage (set at open) */
  augur_comm_def *comms;
  size_t ncomms, capcomms;
  aug_u64map comm_ix;       /* id -> index */
  aug_comm_body *comm_body; /* per communicator, its first definition's body */
  size_t capcommbody;
  /* augur_trace_comm_rank's index, built on first use: per communicator, its group and
   * remote group as world << 32 | rank, sorted (2 × ncomms; NULL until asked) */
  uint64_t **comm_rank_ix;
  augur_module_def *modules; /* global id = index + 1 */
  size_t nmodules, capmodules;
  aug_u64map module_ix;          /* xxh3(path) -> global id */
  augur_callsite_def *callsites; /* global id = index + 1 */
  size_t ncallsites, capcallsites;
  aug_u64map callsite_ix; /* xxh3(module, offset) -> global id */
  augur_file_def *files;  /* MPI-IO file names (reader_io.c) */
  size_t nfiles, capfiles;
  aug_u64map file_ix; /* file id -> index */
  int64_t shift;
  aug_resolver *res;
  /* One ZSTD_DCtx kept for the next rank stream (stream.c dctx_take): an
   * analysis that reads 65,536 ranks one after the other created and freed
   * one per rank, a fresh 160 KB mapping each (23 % of `augur report`). */
  _Atomic(void *) spare_dctx;
};

/* MPI-IO file names (reader_io.c): one definition body of tag AUG_DEF_FILE;
 * the first name of an id stays. 0, or -1 with *why. */
int aug_merge_file(augur_trace *t, const uint8_t *body, size_t len, const char **why);
void aug_files_free(augur_trace *t);

/* Global time of a rank's local time. */
static inline uint64_t aug_global_ns(const aug_rank *r, int64_t shift, uint64_t local) {
  return aug_clock_to_global(&r->clk, shift, local);
}

void aug_resolver_free(aug_resolver *res);

/* Reads the payload of the block whose header h is at off, checks its
 * checksum and decompresses it into *raw (buffers grow as needed; dctx is a
 * ZSTD_DCtx). Returns AUGUR_OK or a status with a description in why. */
int aug_read_payload(int fd, uint64_t off, const aug_blkhdr *h, uint8_t **stored,
                     size_t *stored_cap, uint8_t **raw, size_t *raw_cap, void *dctx, char *why,
                     size_t whylen);

#endif
