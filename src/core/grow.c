/* augur — the one growable array (see grow.h). */
#include "grow.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

int aug_grow(void **p, size_t *cap, size_t need, size_t size) {
  assert(p && cap && size > 0);
  if (need <= *cap) return 0;
  size_t n = *cap ? *cap : 4;
  while (n < need) {
    if (n > SIZE_MAX / 2) return -1;
    n *= 2;
  }
  if (n > SIZE_MAX / size) return -1;
  void *q = realloc(*p, n * size);
  if (!q) return -1;
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
