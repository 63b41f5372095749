/* augur — the one hash map: a uint64 key to a uint32 value, open addressing
 * with linear probing over a power-of-two table kept at most half full, no
 * deletion. Every key is allowed (0 is held outside the table). Not
 * thread-safe: callers hold their own lock. Used by the reader (definition
 * ids) and the recorder (call-site addresses, communicator counts).
 *
 * A zeroed aug_u64map is an empty map; aug_u64map_free returns it to that
 * state. Lookups never allocate; insertions allocate only when the table
 * doubles (the first at 64 slots). */
#ifndef AUGUR_U64MAP_H
#define AUGUR_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct aug_u64map {
  uint64_t *keys; /* 0 = empty slot */
  uint32_t *vals;
  size_t cap, count; /* count: keys in the table, key 0 included */
  int has_zero;      /* key 0 is present, its value in zero_val */
  uint32_t zero_val;
} aug_u64map;

/* The value slot of key, inserted with value 0 if absent (then *fresh = 1
 * when fresh is non-NULL, else 0). NULL when out of memory (map unchanged).
 * The pointer is valid until the next insertion. */
uint32_t *aug_u64map_slot(aug_u64map *m, uint64_t key, int *fresh);
/* Sets key to val. 0, or -1 when out of memory (map unchanged). */
int aug_u64map_put(aug_u64map *m, uint64_t key, uint32_t val);
/* Lookup only: 1 with *val set, or 0 when key is absent. */
int aug_u64map_get(const aug_u64map *m, uint64_t key, uint32_t *val);
void aug_u64map_free(aug_u64map *m);

#endif
