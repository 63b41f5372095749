/* augur — the one hash map (see u64map.h). */
#include "u64map.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "mix.h"

static size_t slot_of(uint64_t key, size_t cap) {
  return (size_t)aug_mix64(key) & (cap - 1);
}

static int grow(aug_u64map *m) {
  if (m->cap > SIZE_MAX / 2 / sizeof(uint64_t)) return -1;
  size_t ncap = m->cap ? m->cap * 2 : 8; /* one per rank of a large run: most hold a few */
  uint64_t *nk = calloc(ncap, sizeof *nk);
  uint32_t *nv = calloc(ncap, sizeof *nv);
  if (!nk || !nv) {
    free(nk);
    free(nv);
    return -1;
  }
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i]) {
      size_t s = slot_of(m->keys[i], ncap);
      while (nk[s])
        s = (s + 1) & (ncap - 1);
      nk[s] = m->keys[i];
      nv[s] = m->vals[i];
    }
  free(m->keys);
  free(m->vals);
  m->keys = nk;
  m->vals = nv;
  m->cap = ncap;
  return 0;
}

uint32_t *aug_u64map_slot(aug_u64map *m, uint64_t key, int *fresh) {
  assert(m->cap == 0 || (m->cap & (m->cap - 1)) == 0);
  if (key == 0) {
    if (fresh) *fresh = !m->has_zero;
    if (!m->has_zero) {
      m->has_zero = 1;
      m->zero_val = 0;
      m->count++;
    }
    return &m->zero_val;
  }
  if ((m->count + 1) * 2 > m->cap && grow(m) != 0) return NULL;
  size_t s = slot_of(key, m->cap);
  while (m->keys[s] && m->keys[s] != key)
    s = (s + 1) & (m->cap - 1);
  if (fresh) *fresh = m->keys[s] == 0;
  if (!m->keys[s]) {
    m->keys[s] = key;
    m->vals[s] = 0;
    m->count++;
  }
  return &m->vals[s];
}

int aug_u64map_put(aug_u64map *m, uint64_t key, uint32_t val) {
  uint32_t *v = aug_u64map_slot(m, key, NULL);
  if (!v) return -1;
  *v = val;
  return 0;
}

int aug_u64map_get(const aug_u64map *m, uint64_t key, uint32_t *val) {
  if (key == 0) {
    if (m->has_zero) *val = m->zero_val;
    return m->has_zero;
  }
  if (!m->cap) return 0;
  for (size_t s = slot_of(key, m->cap); m->keys[s]; s = (s + 1) & (m->cap - 1))
    if (m->keys[s] == key) {
      *val = m->vals[s];
      return 1;
    }
  return 0;
}

void aug_u64map_free(aug_u64map *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}
