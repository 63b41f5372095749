/* The report in parts (report.c, report_part.c): the accumulators of a
 * contiguous block of ranks, which can be packed into bytes, sent, and
 * merged into the part of the block before it. augur_report_compute is
 * begin + scan of every rank + finish; `augur report --parallel`
 * (src/parallel, docs/parallel.md) scans one block per analysis rank and
 * merges the parts up a tree. Internal to augur_report and src/parallel. */
#ifndef AUGUR_REPORT_PART_H
#define AUGUR_REPORT_PART_H

#include <stddef.h>
#include <stdint.h>

#include "augur/report.h"
#include "u64map.h"

/* Per (call type, call site) accumulator: the number of distinct pairs is
 * small (bounded by the program's call sites), so this is the only
 * structure that grows, and it grows with code, not time. The map holds
 * each pair's index in slots (in order of first appearance). */
typedef struct site_slot {
  uint64_t key; /* type << 32 | callsite */
  uint64_t count;
  uint64_t time_ns;
} site_slot;

typedef struct site_table {
  aug_u64map index;
  site_slot *slots;
  size_t cap, used;
} site_table;

typedef struct call_acc {
  uint64_t count, time_ns, sent, recv;
} call_acc;

/* The report of ranks [lo, hi) of the trace so far. r->ranks and the
 * buckets are sized for every rank of the trace; only the block's entries
 * are filled. PAIRS: the communication matrix's non-zero cells (key from *
 * nranks + to, count the messages, time_ns the bytes), in r->pairs sorted
 * at finish. status / err: the first read error of the block's
 * lowest damaged rank (AUGUR_OK: none). */
typedef struct aug_report_part {
  augur_report *r;
  call_acc *calls; /* AUGUR_EV_MAX entries */
  site_table sites;
  site_table pairs;
  uint32_t lo, hi;
  int status;
  augur_error err;
  int partial; /* a merged part had MPI-IO or one-sided records */
} aug_report_part;

/* Adds COUNT calls and DUR ns to the pair KEY. 0, or -1 when out of memory. */
int aug_report_site_add(site_table *st, uint64_t key, uint64_t count, uint64_t dur);

/* An empty part for the ranks of T. AUGUR_OK or AUGUR_E_NOMEM. */
int aug_report_part_begin(augur_trace *t, aug_report_part *p, augur_error *err);
/* Reads ranks [lo, hi): an empty part starts at LO, a part that has ranks
 * goes on from its hi (LO == hi: blocks are scanned in order).
 * AUGUR_OK, or AUGUR_E_NOMEM (then the part is to be freed). A damaged
 * rank is recorded in the part, not returned. */
int aug_report_part_scan(augur_trace *t, aug_report_part *p, uint32_t lo, uint32_t hi,
                         augur_report_progress progress, void *arg, augur_error *err);
/* Turns the part (every rank scanned or merged) into the report: *out gets
 * it and the part is emptied. Returns the first read error's status
 * (err filled) or AUGUR_OK; AUGUR_E_NOMEM with *out NULL. */
int aug_report_part_finish(aug_report_part *p, augur_report **out, augur_error *err);
void aug_report_part_free(aug_report_part *p);

/* The part as bytes (malloc'd into *buf, *n bytes): 0, or -1 when out of
 * memory. A part with MPI-IO or one-sided records packs a flag instead of
 * them (aug_report_part_partial). */
int aug_report_part_pack(const aug_report_part *p, unsigned char **buf, size_t *n);
/* Merges the packed part of the block right after P's into P (P's block
 * grows to cover it). 0; -1 when out of memory; -2 when BUF is not such a
 * part (says why in ERR). */
int aug_report_part_merge(aug_report_part *p, const unsigned char *buf, size_t n, augur_error *err);
/* 1 when the part (or a part merged into it) has records this step does not
 * merge (MPI-IO, one-sided): the report is then computed serially. */
int aug_report_part_partial(const aug_report_part *p);

#endif
