/* augur — large arrays on huge pages. On the development VM a fresh 4 KiB
 * page costs about 10 us (fault + host backing), a 2 MiB one about 4 ms:
 * half the cost per byte and 512 times fewer faults, so arrays of a few MiB
 * that will be filled ask for huge pages. Internal. */
#ifndef AUGUR_HUGEALLOC_H
#define AUGUR_HUGEALLOC_H

#include <stddef.h>

#define AUG_HUGE_PAGE ((size_t)2 << 20)

/* SIZE bytes rounded up to whole huge pages, aligned to one and advised for
 * huge pages (pages never touched stay free). Released with free(); NULL
 * when out of memory. */
void *aug_huge_alloc(size_t size);

#endif
