/* augur — large arrays on huge pages (hugealloc.h). */
#define _DEFAULT_SOURCE /* madvise */
#include "hugealloc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void *aug_huge_alloc(size_t size) {
  size_t round = (size + AUG_HUGE_PAGE - 1) / AUG_HUGE_PAGE * AUG_HUGE_PAGE;
  void *p = NULL;
  if (!round || posix_memalign(&p, AUG_HUGE_PAGE, round)) return NULL;
#ifdef MADV_HUGEPAGE
  madvise(p, round, MADV_HUGEPAGE);
#endif
  return p;
}

void *aug_huge_zalloc(size_t size) {
  size_t line = (size + 63) / 64 * 64; /* aligned_alloc wants a multiple of the alignment */
  void *p = size >= AUG_HUGE_PAGE ? aug_huge_alloc(size) : aligned_alloc(64, line ? line : 64);
  if (p) memset(p, 0, size);
  return p;
}
