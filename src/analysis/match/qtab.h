/* augur — FIFO queues by key (a, b, c, d): the one table of the matcher's
 * channels and requests and of diagnose's nonblocking sends (dx_isend.c).
 * Internal to augur_match and the analyses that link it.
 *
 * Open addressing with linear probing over slots of STRIDE bytes: a slot is
 * a queue's header followed by its oldest element, in place; the younger
 * ones (rare: most queues hold one element for a moment) go to a vector of
 * their own. So finding a queue and reading or writing its oldest element
 * touch one slot, adjacent lines: with thousands of ranks in step every
 * queue is a cache miss, and a separate vector was a second one (issue 27;
 * bench/scale/README.md, stop 47). Emptied queues stay as idle slots until
 * the next rebuild (idletab.h). */
#ifndef AUGUR_QTAB_H
#define AUGUR_QTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "mix.h"

/* A queue's key. h is not part of it: the table keeps the key's hash there
 * (moves and rebuilds do not hash again); callers leave it 0. */
typedef struct aug_qkey {
  uint64_t c;
  uint32_t a, b;
  int32_t d;
  uint32_t h;
} aug_qkey;

/* A slot's header; the oldest element follows it (aug_q_at(q, esz, 0)). */
typedef struct aug_queue {
  aug_qkey k;
  unsigned char *v;        /* elements 1 .. len - 1 at v + head * esz ... */
  uint32_t head, len, cap; /* len counts all elements, cap the vector's */
  uint8_t used;
  uint8_t side; /* the user's: which side of a pairing waits */
  uint8_t pad[2];
} aug_queue;

/* Q's oldest element, right behind its header in the slot (8-byte aligned:
 * qtab.c). Through an integer: the compiler takes Q for a lone header. */
static inline unsigned char *aug_q_first(const aug_queue *q) {
  return (unsigned char *)((uintptr_t)q + sizeof *q);
}

/* Vectors of emptied queues kept for the next ones that overflow their
 * slot: a malloc and free per overflow would cost more than the matching. */
#define AUG_QT_SPARES 64

typedef struct aug_qtab {
  unsigned char *slot; /* cap slots of stride bytes, 64-byte aligned */
  size_t cap, n, esz, stride;
  unsigned char *spare[AUG_QT_SPARES]; /* vectors of emptied queues, AUG_QT_SPARE_CAP each */
  size_t nspare;
} aug_qtab;

#define AUG_QT_SPARE_CAP 4

/* An empty table of elements of ESZ bytes (-1: out of memory). */
int aug_qt_init(aug_qtab *t, size_t esz);
void aug_qt_free(aug_qtab *t);
/* The table's invariants hold (for AUG_CHECK). */
int aug_qt_check(const aug_qtab *t);
/* Inserts an empty queue for K (hash H) at Q, the free slot aug_qt_slot
 * gave (NULL: look again), rebuilding the table first when it is full;
 * the queue, or NULL when out of memory. */
aug_queue *aug_qt_add(aug_qtab *t, aug_queue *q, const aug_qkey *k, uint32_t h);
/* Room for one more element at the back of Q, NULL when out of memory.
 * Callers fill it in place (no struct built elsewhere and copied in: its
 * wide loads just after narrow stores stall store forwarding). */
void *aug_q_push_grow(aug_qtab *t, aug_queue *q, size_t esz);

static inline uint32_t aug_qkey_hash(const aug_qkey *k) {
  uint64_t h = k->c ^ (((uint64_t)k->a << 32 | k->b) * 0x9E3779B97F4A7C15ull);
  h ^= (uint64_t)(uint32_t)k->d * 0xC2B2AE3D27D4EB4Full;
  return (uint32_t)aug_mix64(h);
}

static inline int aug_qkey_eq(const aug_qkey *x, const aug_qkey *y) {
  return x->a == y->a && x->b == y->b && x->c == y->c && x->d == y->d;
}

static inline aug_queue *aug_qt_at(const aug_qtab *t, size_t i) {
  return (aug_queue *)(t->slot + i * t->stride);
}

/* K's slot (hash H): its queue, or the free slot where it would go. */
static inline aug_queue *aug_qt_slot(const aug_qtab *t, const aug_qkey *k, uint32_t h) {
  assert(t->slot && AUG_POW2(t->cap));
  size_t i = h & (t->cap - 1);
  for (;;) {
    aug_queue *q = aug_qt_at(t, i);
    if (!q->used || (q->k.h == h && aug_qkey_eq(&q->k, k))) return q;
    i = (i + 1) & (t->cap - 1);
  }
}

/* K's queue if something waits in it, else NULL. */
static inline aug_queue *aug_qt_find(const aug_qtab *t, const aug_qkey *k, uint32_t h) {
  aug_queue *q = aug_qt_slot(t, k, h);
  return q->used && q->len ? q : NULL;
}

/* K's queue, inserted empty if absent (NULL: out of memory). */
static inline aug_queue *aug_qt_get(aug_qtab *t, const aug_qkey *k, uint32_t h) {
  aug_queue *q = aug_qt_slot(t, k, h);
  return q->used ? q : aug_qt_add(t, q, k, h);
}

/* Q's element I (0 the oldest, I < q->len). */
static inline void *aug_q_at(const aug_queue *q, size_t esz, size_t i) {
  return i == 0 ? (void *)aug_q_first(q) : (void *)(q->v + (q->head + i - 1) * esz);
}

/* Room for one more element at the back of Q (see aug_q_push_grow); ESZ is
 * the table's, passed as a constant so the copies inline. */
static inline void *aug_q_push(aug_qtab *t, aug_queue *q, size_t esz) {
  assert(q->used && esz == t->esz);
  if (q->len == 0) {
    q->len = 1;
    return aug_q_first(q);
  }
  return aug_q_push_grow(t, q, esz);
}

/* Copies out the oldest element (OUT NULL: drops it) and removes it; an
 * emptied queue stays (idle). */
static inline void aug_q_pop(aug_queue *q, void *out, size_t esz) {
  assert(q->used && q->len > 0 && (q->len == 1 || (size_t)q->head + q->len - 1 <= q->cap));
  if (out) memcpy(out, aug_q_first(q), esz);
  if (--q->len == 0) return;
  memcpy(aug_q_first(q), q->v + (size_t)q->head * esz, esz);
  q->head = q->len == 1 ? 0 : q->head + 1;
}

/* Empties Q (its vector stays). */
static inline void aug_q_clear(aug_queue *q) {
  q->head = q->len = 0;
}

#endif
