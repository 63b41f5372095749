/* augur — little-endian fixed-size fields, LEB128 varints and zigzag.
 * Header-only: the event codec calls these per field, so they must inline. */
#ifndef AUGUR_VARINT_H
#define AUGUR_VARINT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define AUG_VARINT_MAX 10

static inline uint64_t aug_zigzag(int64_t v) {
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static inline int64_t aug_unzigzag(uint64_t u) {
  return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* Writes v at p (which has room for AUG_VARINT_MAX bytes); returns bytes used. */
static inline size_t aug_put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}

/* Reads a varint from [*p, end). Returns 0 and advances *p, or -1 if the
 * varint runs past end or is longer than 10 bytes. */
static inline int aug_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *out) {
  const uint8_t *q = *p;
  if (end - q >= AUG_VARINT_MAX) {
    /* Enough bytes for any varint: no bounds checks, unrolled for the 1..4
     * byte values that times and deltas almost always are. */
    uint64_t b = q[0], v = b & 0x7f;
    if (b < 0x80) goto done1;
    b = q[1], v |= (b & 0x7f) << 7;
    if (b < 0x80) goto done2;
    b = q[2], v |= (b & 0x7f) << 14;
    if (b < 0x80) goto done3;
    b = q[3], v |= (b & 0x7f) << 21;
    if (b < 0x80) goto done4;
    for (unsigned i = 4, shift = 28; i < AUG_VARINT_MAX; i++, shift += 7) {
      b = q[i];
      if (i == 9 && b > 1) return -1; /* bits beyond 64 */
      v |= (b & 0x7f) << shift;
      if (b < 0x80) {
        *out = v;
        *p = q + i + 1;
        return 0;
      }
    }
    return -1;
  done1:
    *out = v, *p = q + 1;
    return 0;
  done2:
    *out = v, *p = q + 2;
    return 0;
  done3:
    *out = v, *p = q + 3;
    return 0;
  done4:
    *out = v, *p = q + 4;
    return 0;
  }
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 70; shift += 7) {
    if (q >= end) return -1;
    uint8_t b = *q++;
    if (shift == 63 && b > 1) return -1; /* bits beyond 64 */
    v |= (uint64_t)(b & 0x7f) << shift;
    if (b < 0x80) {
      *out = v;
      *p = q;
      return 0;
    }
  }
  return -1;
}

static inline void aug_put_le16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static inline void aug_put_le32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static inline void aug_put_le64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t aug_get_le16(const uint8_t *p) {
  return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t aug_get_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t aug_get_le64(const uint8_t *p) {
  return (uint64_t)aug_get_le32(p) | (uint64_t)aug_get_le32(p + 4) << 32;
}

#endif
