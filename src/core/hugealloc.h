/* augur — large arrays on huge pages. On the development VM a fresh 4 KiB
 * page costs about 10 us (fault + host backing), a fresh 2 MiB one about
 * 3.8 ms when the host has to back it and far less when it already does: a
 * quarter less per byte at worst, and 512 times fewer faults. So arrays of
 * a few MiB that will be filled ask for huge pages. Internal. */
#ifndef AUGUR_HUGEALLOC_H
#define AUGUR_HUGEALLOC_H

#include <stddef.h>

#define AUG_HUGE_PAGE ((size_t)2 << 20)

/* SIZE bytes rounded up to whole huge pages, aligned to one and advised for
 * huge pages (pages never touched stay free). Released with free(); NULL
 * when out of memory. */
void *aug_huge_alloc(size_t size);

/* SIZE bytes of zeros, aligned to a cache line (64 bytes) at least: on
 * huge pages from AUG_HUGE_PAGE on (aug_huge_alloc's, cleared). Released
 * with free(); NULL when out of memory. For tables indexed at random (hash
 * tables, per-rank arrays): at thousands of ranks in step each access is a
 * cache miss, and on 4 KiB pages a TLB miss with a page walk too (issue
 * 27). */
void *aug_huge_zalloc(size_t size);

#endif
