#include "u64map.h"

#include <stdlib.h>

static size_t slot_of(uint64_t key, size_t cap) {
  return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

static int grow(aug_u64map *m) {
  size_t ncap = m->cap ? m->cap * 2 : 256;
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
  if (m->count * 2 >= m->cap && grow(m) != 0) return NULL;
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

int aug_u64map_get(const aug_u64map *m, uint64_t key, uint32_t *val) {
  if (!m->cap) return 0;
  for (size_t s = slot_of(key, m->cap); m->keys[s]; s = (s + 1) & (m->cap - 1))
    if (m->keys[s] == key) {
      *val = m->vals[s];
      return 1;
    }
  return 0;
}
