/* augur recorder — the state of a large receive buffer before the call.
 *
 * A receive into memory that no earlier large receive used costs more than
 * the bandwidth says (measured with MPICH 4.0/UCX: the receiver's first
 * receive into a buffer is ~3x slower, ~10x when its pages are not yet in
 * memory). The simulator charges these costs (docs/simulate.md, "First
 * receive into a buffer"), so the recorder notes, for receives of at least
 * AUG_RECVBUF_MIN bytes:
 *   AUGUR_F_FRESH_BUF  no earlier large receive of this thread covered the
 *                      buffer, or its start and most of it (a ring of the
 *                      last AUG_RECVBUF_RING buffers);
 *   AUGUR_F_UNTOUCHED  more than half of its pages were not resident
 *                      (mincore), i.e. the receive will first-touch them.
 * Only fresh buffers are checked with mincore, so a loop that reuses its
 * buffers pays one ring scan per large receive and no system call. */
#define _DEFAULT_SOURCE /* mincore */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wrap.h"

enum { AUG_RECVBUF_MIN = 64 * 1024, AUG_RECVBUF_RING = 256, AUG_MINCORE_CHUNK = 4096 };

typedef struct span {
  uintptr_t lo, hi;
} span;

static _Thread_local span ring[AUG_RECVBUF_RING];
static _Thread_local unsigned ring_n, ring_next;

/* Did an earlier large receive use [lo, hi)? Or start of it and most of
 * it, while its pages are in memory (not a new mapping where a freed one
 * was)? Then that buffer grows to cover all of it: a receive whose size
 * varies from call to call into the same buffer (an all-to-all's counts)
 * is not new each time it reaches a little further. */
static int untouched(uintptr_t lo, uintptr_t hi);
static int covered(uintptr_t lo, uintptr_t hi) {
  for (unsigned i = 0; i < ring_n; i++) {
    if (lo < ring[i].lo || lo >= ring[i].hi) continue;
    if (hi <= ring[i].hi) return 1;
    if ((ring[i].hi - lo) * 2 > hi - lo && !untouched(lo, hi)) {
      ring[i].hi = hi;
      return 1;
    }
  }
  return 0;
}

static void remember(uintptr_t lo, uintptr_t hi) {
  ring[ring_next] = (span){lo, hi};
  ring_next = (ring_next + 1) % AUG_RECVBUF_RING;
  if (ring_n < AUG_RECVBUF_RING) ring_n++;
}

/* 1 when more than half of the pages of [lo, hi) are not in memory; 0 when
 * they are, or when mincore cannot tell (not a mapping it knows). */
static int untouched(uintptr_t lo, uintptr_t hi) {
  static _Thread_local unsigned char vec[AUG_MINCORE_CHUNK];
  long pg = sysconf(_SC_PAGESIZE);
  if (pg <= 0) return 0;
  uintptr_t page = (uintptr_t)pg, a = lo & ~(page - 1);
  uint64_t pages = 0, absent = 0;
  while (a < hi) {
    uintptr_t n = (hi - a + page - 1) / page;
    if (n > AUG_MINCORE_CHUNK) n = AUG_MINCORE_CHUNK;
    if (mincore((void *)a, n * page, vec) != 0) return 0;
    for (uintptr_t i = 0; i < n; i++)
      absent += !(vec[i] & 1);
    pages += n;
    a += n * page;
  }
  return absent * 2 > pages;
}

uint16_t aug_recv_buffer(const void *buf, int count, MPI_Datatype dt) {
  if (aug_bytes(count, dt) < AUG_RECVBUF_MIN) return 0;
  uintptr_t lo, hi;
  aug_buffer_span(buf, count, dt, &lo, &hi);
  if (hi <= lo || covered(lo, hi)) return 0;
  uint16_t flags = AUGUR_F_FRESH_BUF;
  if (untouched(lo, hi)) flags |= AUGUR_F_UNTOUCHED;
  remember(lo, hi);
  return flags;
}

void aug_move_recv_buffer_flags(augur_event *parent, augur_event *sub) {
  const uint16_t f = AUGUR_F_FRESH_BUF | AUGUR_F_UNTOUCHED;
  sub->flags |= parent->flags & f;
  parent->flags &= (uint16_t)~f;
}
