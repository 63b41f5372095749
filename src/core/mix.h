/* augur — the one 64-bit mixer: splitmix64's finalizer (Steele, Lea and
 * Flood 2014). Every input bit reaches every output bit, so the low bits of
 * aug_mix64(key) index an open-addressing table of a power-of-two size even
 * when the keys differ only in their high bits (pointers, packed fields).
 * Not a cryptographic hash: tables keyed by data an attacker chooses must
 * bound their probe lengths some other way. */
#ifndef AUGUR_MIX_H
#define AUGUR_MIX_H

#include <stdint.h>

static inline uint64_t aug_mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

#endif
