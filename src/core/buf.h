/* augur — a growable byte buffer (used by the encoders; reused across blocks
 * so steady-state encoding does not allocate). */
#ifndef AUGUR_BUF_H
#define AUGUR_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct aug_buf {
  uint8_t *p;
  size_t len, cap;
} aug_buf;

/* Makes room for `more` bytes after len. Returns 0 or -1 (out of memory). */
int aug_buf_reserve(aug_buf *b, size_t more);
int aug_buf_append(aug_buf *b, const void *data, size_t n);
int aug_buf_varint(aug_buf *b, uint64_t v);
/* varint len+1 then the bytes; NULL as 0. */
int aug_buf_string(aug_buf *b, const char *s);
void aug_buf_free(aug_buf *b);

#endif
