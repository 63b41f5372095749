/* augur — the one growable array (see grow.h). */
#include "grow.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The capacity aug_grow would give, or 0 when N elements of SIZE overflow. */
static size_t grown_cap(size_t cap, size_t need, size_t size) {
  size_t n = cap ? cap : 4;
  while (n < need) {
    if (n > SIZE_MAX / 2) return 0;
    n *= 2;
  }
  return n > SIZE_MAX / size ? 0 : n;
}

int aug_grow(void **p, size_t *cap, size_t need, size_t size) {
  assert(p && cap && size > 0);
  if (need <= *cap) return 0;
  size_t n = grown_cap(*cap, need, size);
  if (!n) return -1;
  void *q = realloc(*p, n * size);
  if (!q) return -1;
  *p = q;
  *cap = n;
  return 0;
}

int aug_grow_aligned(void **p, size_t *cap, size_t need, size_t size, size_t align) {
  assert(p && cap && size > 0 && align >= sizeof(void *) && (align & (align - 1)) == 0 &&
         size % align == 0);
  if (need <= *cap) return 0;
  size_t n = grown_cap(*cap, need, size);
  if (!n) return -1;
  void *q = aligned_alloc(align, n * size); /* n * size is a multiple of align */
  if (!q) return -1;
  if (*cap) memcpy(q, *p, *cap * size);
  free(*p);
  *p = q;
  *cap = n;
  return 0;
}

void aug_shrink(void **p, size_t *cap, size_t n, size_t size) {
  assert(p && cap && size > 0);
  if (!n || *cap <= n) return;
  void *q = realloc(*p, n * size);
  if (!q) return;
  *p = q;
  *cap = n;
}
