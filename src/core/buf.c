/* augur — growable byte buffer. */
#include "buf.h"

#include <stdlib.h>
#include <string.h>

#include "varint.h"

int aug_buf_reserve(aug_buf *b, size_t more) {
  if (b->cap - b->len >= more) return 0;
  size_t want = b->len + more;
  if (want < b->len) return -1;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < want) {
    if (cap > SIZE_MAX / 2) return -1;
    cap *= 2;
  }
  uint8_t *p = realloc(b->p, cap);
  if (!p) return -1;
  b->p = p;
  b->cap = cap;
  return 0;
}

int aug_buf_append(aug_buf *b, const void *data, size_t n) {
  if (n == 0) return 0;
  if (aug_buf_reserve(b, n)) return -1;
  memcpy(b->p + b->len, data, n);
  b->len += n;
  return 0;
}

int aug_buf_varint(aug_buf *b, uint64_t v) {
  if (aug_buf_reserve(b, AUG_VARINT_MAX)) return -1;
  b->len += aug_put_varint(b->p + b->len, v);
  return 0;
}

int aug_buf_string(aug_buf *b, const char *s) {
  if (!s) return aug_buf_varint(b, 0);
  size_t n = strlen(s);
  if (aug_buf_varint(b, (uint64_t)n + 1)) return -1;
  return aug_buf_append(b, s, n);
}

void aug_buf_free(aug_buf *b) {
  free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}
