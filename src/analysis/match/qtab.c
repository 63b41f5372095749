/* augur — FIFO queues by key (qtab.h). */
#include "qtab.h"

#include <stdlib.h>

#include "hugealloc.h"
#include "idletab.h"

/* A slot: the header, then the oldest element, 8-byte aligned; a slot of
 * 65 to 128 bytes takes a whole 128-byte pair of lines, so that an aligned
 * table never splits one over three. */
static size_t stride_of(size_t esz) {
  size_t s = (sizeof(aug_queue) + esz + 7) / 8 * 8;
  return s > 64 && s < 128 ? 128 : s;
}

int aug_qt_init(aug_qtab *t, size_t esz) {
  _Static_assert(sizeof(aug_queue) % 8 == 0, "the oldest element follows the header, aligned");
  memset(t, 0, sizeof *t);
  t->cap = 64;
  t->esz = esz;
  t->stride = stride_of(esz);
  t->slot = aug_huge_zalloc(t->cap * t->stride); /* line-aligned: a 128-byte slot, a line pair */
  return t->slot ? 0 : -1;
}

void aug_qt_free(aug_qtab *t) {
  for (size_t i = 0; i < t->nspare; i++)
    free(t->spare[i]);
  for (size_t i = 0; t->slot && i < t->cap; i++)
    free(aug_qt_at(t, i)->v);
  free(t->slot);
  t->slot = NULL;
}

/* N counts the used slots and stays under half of CAP; every queue sits on
 * its key's probe chain (no free slot between its home and it), carries its
 * key's hash, and its younger elements fit its vector. */
int aug_qt_check(const aug_qtab *t) {
  size_t used = 0;
  if (!AUG_POW2(t->cap) || t->n * 2 > t->cap || t->nspare > AUG_QT_SPARES) return 0;
  if (t->stride < sizeof(aug_queue) + t->esz || t->stride % 8) return 0;
  for (size_t i = 0; i < t->cap; i++) {
    const aug_queue *q = aug_qt_at(t, i);
    if (!q->used) continue;
    used++;
    if (q->k.h != aug_qkey_hash(&q->k) || q->side > 1) return 0;
    if (q->len > 1 ? (size_t)q->head + q->len - 1 > q->cap : q->head != 0) return 0;
    for (size_t j = q->k.h & (t->cap - 1); j != i; j = (j + 1) & (t->cap - 1))
      if (!aug_qt_at(t, j)->used) return 0;
  }
  return used == t->n;
}

/* Rebuilds T with its live queues only (idletab.h); emptied queues' vectors
 * become spares or are freed. */
static int rebuild(aug_qtab *t) {
  size_t live = 0;
  for (size_t i = 0; i < t->cap; i++)
    live += aug_qt_at(t, i)->used && aug_qt_at(t, i)->len;
  size_t ncap = aug_idletab_cap(t->cap, live);
  unsigned char *ns = aug_huge_zalloc(ncap * t->stride);
  if (!ns) return -1;
  for (size_t i = 0; i < t->cap; i++) {
    aug_queue *o = aug_qt_at(t, i);
    if (!o->used) continue;
    if (!o->len) {
      if (o->cap == AUG_QT_SPARE_CAP && t->nspare < AUG_QT_SPARES)
        t->spare[t->nspare++] = o->v;
      else
        free(o->v);
      continue;
    }
    size_t j = o->k.h & (ncap - 1);
    while (((aug_queue *)(ns + j * t->stride))->used)
      j = (j + 1) & (ncap - 1);
    memcpy(ns + j * t->stride, o, sizeof *o + t->esz); /* live: its oldest element too */
  }
  free(t->slot);
  t->slot = ns;
  t->cap = ncap;
  t->n = live;
  AUG_CHECK(aug_qt_check(t));
  return 0;
}

aug_queue *aug_qt_add(aug_qtab *t, aug_queue *q, const aug_qkey *k, uint32_t h) {
  assert(t->n * 2 <= t->cap && (!q || !q->used));
  if (aug_idletab_full(t->n, t->cap)) {
    if (rebuild(t)) return NULL;
    q = NULL;
  }
  if (!q) q = aug_qt_slot(t, k, h);
  memset(q, 0, sizeof *q);
  q->used = 1;
  q->k = *k;
  q->k.h = h;
  t->n++;
  return q;
}

void *aug_q_push_grow(aug_qtab *t, aug_queue *q, size_t esz) {
  assert(q->used && q->len > 0 && esz == t->esz && (q->len > 1 || q->head == 0));
  uint32_t nv = q->len - 1; /* in the vector */
  if (!q->cap && t->nspare) {
    q->v = t->spare[--t->nspare];
    q->cap = AUG_QT_SPARE_CAP;
  }
  if (q->head + nv == q->cap) {
    if (q->head > 0) { /* slide down before growing */
      memmove(q->v, q->v + (size_t)q->head * esz, (size_t)nv * esz);
      q->head = 0;
    }
    if (nv == q->cap) {
      uint32_t ncap = q->cap ? q->cap * 2 : AUG_QT_SPARE_CAP;
      unsigned char *v = realloc(q->v, (size_t)ncap * esz);
      if (!v) return NULL;
      q->v = v;
      q->cap = ncap;
    }
  }
  q->len++;
  return q->v + (size_t)(q->head + nv) * esz;
}
