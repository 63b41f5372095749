/* augur — the one growable array: makes an array of `size`-byte elements
 * hold at least `need`, doubling its capacity from 4 so n appends cost
 * O(n). Use:
 *
 *   if (aug_grow((void **)&a->items, &a->cap, a->n + 1, sizeof *a->items))
 *     return augur_fail(err, AUGUR_E_NOMEM, "...");
 *
 * The caller names the failure (it knows what it was growing); aug_grow only
 * says it happened. */
#ifndef AUGUR_GROW_H
#define AUGUR_GROW_H

#include <stddef.h>

/* 0 when *cap >= need already or the array (*p, which may be NULL with
 * *cap 0) was reallocated to a capacity >= need, stored in *cap. -1, with
 * *p and *cap unchanged, when out of memory or when the capacity in bytes
 * would not fit a size_t. */
int aug_grow(void **p, size_t *cap, size_t need, size_t size);

/* aug_grow for an array whose elements start on multiples of ALIGN bytes (a power of two,
 * a multiple of sizeof(void *), that divides SIZE): each element then lies in the fewest
 * cache lines. The array moves at every growth (aligned_alloc and a copy: no realloc keeps
 * an alignment); free it with free. */
int aug_grow_aligned(void **p, size_t *cap, size_t need, size_t size, size_t align);

/* The other way, for an array that is done growing and stays: its capacity
 * down to its length n (n > 0). A failed realloc leaves *p and *cap as they
 * were, which is still a valid array. */
void aug_shrink(void **p, size_t *cap, size_t n, size_t size);

#endif
