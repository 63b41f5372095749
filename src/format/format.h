/* augur — on-disk layout of rank files (see docs/trace-format.md). Internal
 * to the writer and the reader. */
#ifndef AUGUR_FORMAT_H
#define AUGUR_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "augur/defs.h"
#include "augur/event.h"
#include "buf.h"

#define AUG_FORMAT_MAJOR 1
#define AUG_FORMAT_MINOR 6

#define AUG_FILE_MAGIC   "AUGUREVT"
#define AUG_FILEHDR_SIZE 32
#define AUG_BLK_MAGIC    "ABLK"
#define AUG_BLKHDR_SIZE  56

#define AUG_BLK_EVENTS 1
#define AUG_BLK_DEFS   2
#define AUG_BLK_OMP    3 /* OpenMP events (minor 4), encoded as AUG_BLK_EVENTS */
#define AUG_CODEC_RAW  0
#define AUG_CODEC_ZSTD 1

/* Limits that keep a damaged or hostile file from making the reader
 * allocate without bound. */
#define AUG_MAX_RAW_SIZE      (256u << 20)
#define AUG_MAX_BLOCK_RECORDS (1u << 22)
#define AUG_MAX_COMM_SIZE     (1u << 24)
#define AUG_MAX_STRING        (64u << 10)

/* Records per events block the writer aims for (a parent's sub-records may
 * push a block slightly past it). */
#define AUG_BLOCK_TARGET 16384

typedef struct aug_filehdr {
  uint16_t major, minor;
  uint32_t rank, nranks, flags;
} aug_filehdr;

typedef struct aug_blkhdr {
  uint8_t kind, codec;
  uint32_t thread, count, raw_size, stored_size;
  uint32_t parents; /* events blocks since minor 2: parent records (0: not recorded) */
  uint64_t first_ns, last_ns, payload_hash;
} aug_blkhdr;

void aug_filehdr_pack(uint8_t out[AUG_FILEHDR_SIZE], const aug_filehdr *h);
/* Returns AUGUR_OK, or AUGUR_E_FORMAT / AUGUR_E_CHECKSUM / AUGUR_E_VERSION
 * with a description (no file name) in why. */
int aug_filehdr_unpack(const uint8_t in[AUG_FILEHDR_SIZE], aug_filehdr *h, char *why, size_t n);

void aug_blkhdr_pack(uint8_t out[AUG_BLKHDR_SIZE], const aug_blkhdr *h);
int aug_blkhdr_unpack(const uint8_t in[AUG_BLKHDR_SIZE], aug_blkhdr *h, char *why, size_t n);

/* "rank-00042.evt" (width grows with nranks). */
void aug_rank_file_name(char *out, size_t n, uint32_t rank, uint32_t nranks);
/* mkdir -p. Returns 0 or -1 with errno set. */
int aug_mkdir_p(const char *dir);

/* ---- events codec ---- */

#define AUG_CTX_SLOTS 512

/* Encoder state: the three columns and the context table, reused across
 * blocks so steady-state encoding does not allocate. */
typedef struct aug_evenc {
  aug_buf ops, times, fields;
  /* Set by aug_ev_encode for the block's header, in the same pass over the
   * records (a second pass over a 1 MB buffer cost the writer ~4 ns per
   * record): records that are not sub-records, the largest t_end. */
  uint32_t parents;
  uint64_t last_ns;
  augur_event ctx[AUG_CTX_SLOTS];
} aug_evenc;

/* Appends the raw payload of n records to out and sets enc->parents and
 * enc->last_ns. Returns 0, or AUGUR_E_ARG (type 127 or >= 255) /
 * AUGUR_E_NOMEM. */
int aug_ev_encode(aug_evenc *enc, const augur_event *ev, size_t n, aug_buf *out);
void aug_ev_encoder_free(aug_evenc *enc);
/* Most bytes aug_ev_encode appends to out for n records. */
size_t aug_ev_encode_bound(size_t n);
/* Makes room in the columns for n records, so that encoding n records or
 * fewer allocates nothing (-1 when out of memory); aug_ev_encoder_fits says
 * whether the room is there. */
int aug_ev_encoder_reserve(aug_evenc *enc, size_t n);
int aug_ev_encoder_fits(const aug_evenc *enc, size_t n);

/* Resumable decoder: a block is decompressed once, then decoded in small
 * batches so a stream holds a few hundred decoded events, not a block's worth.
 *
 * The context table is the encoder's (AUG_CTX_SLOTS predictions, all zero at
 * a block's start), kept compact: a block uses a few of the 512 slots, so
 * at[slot] numbers the slots in the order the block first uses them (0: not
 * used yet, its prediction is all zero) and pool[at[slot] - 1] holds the
 * prediction. The pool is `small` until more slots are used, then on the
 * heap (grown by doubling). A merged stream keeps one decoder per rank: at
 * thousands of ranks a full table (60 KB) per rank was most of the memory
 * (issue 27). aug_ev_decode_init before first use, aug_ev_decode_fini after. */
#define AUG_DEC_SMALL 8
typedef struct aug_evdec {
  const uint8_t *op, *op_end, *tm, *tm_end, *fl, *fl_end;
  uint64_t prev_end, ps, pe;
  unsigned prev_type;
  uint32_t thread, count, done;
  augur_event *pool;          /* small, or the heap */
  uint32_t used, cap;         /* pool entries in use, and allocated */
  uint16_t at[AUG_CTX_SLOTS]; /* slot -> pool index + 1; 0: unused in this block */
  augur_event small[AUG_DEC_SMALL];
} aug_evdec;

/* Makes D an empty decoder (no block). Allocates nothing. */
void aug_ev_decode_init(aug_evdec *d);
/* Frees what D allocated; D may then be initialised again or discarded. */
void aug_ev_decode_fini(aug_evdec *d);
/* Starts decoding `count` records of raw[0..len) (which must outlive the
 * decoder). Returns AUGUR_OK or AUGUR_E_FORMAT with a description in why. */
int aug_ev_decode_begin(aug_evdec *d, const uint8_t *raw, size_t len, uint32_t count,
                        uint64_t first_ns, uint32_t thread, char *why, size_t whylen);
/* Decodes up to max records into out; *got = how many. At the last record it
 * checks that every column was consumed exactly. */
int aug_ev_decode_some(aug_evdec *d, augur_event *out, uint32_t max, uint32_t *got, char *why,
                       size_t whylen);

/* ---- definitions codec ---- */

#define AUG_DEF_RANK     1
#define AUG_DEF_COMM     2
#define AUG_DEF_MODULE   3
#define AUG_DEF_CALLSITE 4
#define AUG_DEF_FILE     5 /* MPI-IO file names (minor 5) */
/* In a communicator definition, a member list's first varint when the list
 * is stored as runs (minor 6): a zigzag value no int32 has, so readers of
 * minor <= 5 reject such a definition as malformed instead of misreading it. */
#define AUG_MEMBERS_RUNS (1ull << 32)

int aug_def_put_rank(aug_buf *b, const augur_rank_def *d);
int aug_def_put_comm(aug_buf *b, const augur_comm_def *d);
int aug_def_put_module(aug_buf *b, const augur_module_def *d);
int aug_def_put_callsite(aug_buf *b, const augur_callsite_def *d);
int aug_def_put_file(aug_buf *b, const augur_file_def *d);

/* Splits the next record off [*p, end). Returns 1 with tag/body, 0 at end,
 * -1 if the record header or length is bad. */
int aug_def_next(const uint8_t **p, const uint8_t *end, unsigned *tag, const uint8_t **body,
                 size_t *len);
/* Body decoders: 0, or -1 (malformed; *why says what); strings and arrays are
 * malloc'ed and freed with the matching _free. On failure nothing leaks. */
int aug_def_get_rank(const uint8_t *body, size_t len, augur_rank_def *d, const char **why);
int aug_def_get_comm(const uint8_t *body, size_t len, augur_comm_def *d, const char **why);
int aug_def_get_module(const uint8_t *body, size_t len, augur_module_def *d, const char **why);
int aug_def_get_callsite(const uint8_t *body, size_t len, augur_callsite_def *d, const char **why);
int aug_def_get_file(const uint8_t *body, size_t len, augur_file_def *d, const char **why);
void aug_rank_def_free(augur_rank_def *d);
void aug_comm_def_free(augur_comm_def *d);
/* Deep copies; 0 or -1 (out of memory). */
int aug_rank_def_copy(augur_rank_def *dst, const augur_rank_def *src);
int aug_comm_def_copy(augur_comm_def *dst, const augur_comm_def *src);

#endif
