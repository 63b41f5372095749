/* augur analyses — a 64-bit mixer for open-addressing tables (murmur3's
 * finalizer: every input bit reaches the low bits used as the index). */
#ifndef AUGUR_ANALYSIS_MIX_H
#define AUGUR_ANALYSIS_MIX_H

#include <stdint.h>

static inline uint64_t augur_mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

#endif
