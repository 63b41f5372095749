/* augur recorder — a growable open-addressing map from a nonzero uint64 key
 * to a uint32 value. Not thread-safe: callers hold their own lock. Used off
 * the hot path (call-site ids at block flush, communicator creation counts). */
#ifndef AUGUR_U64MAP_H
#define AUGUR_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct aug_u64map {
  uint64_t *keys; /* 0 = empty slot */
  uint32_t *vals;
  size_t cap, count;
} aug_u64map;

/* The value slot of key (key != 0), inserted with value 0 if absent (then
 * *fresh = 1 when fresh is non-NULL). NULL when out of memory. */
uint32_t *aug_u64map_slot(aug_u64map *m, uint64_t key, int *fresh);
/* Lookup only (never allocates): 1 with *val set, or 0 when key is absent. */
int aug_u64map_get(const aug_u64map *m, uint64_t key, uint32_t *val);

#endif
