/* augur — the clock model (see clock.h). */
#include "clock.h"

#include <string.h>

void aug_clock_setup(aug_clock *c, const augur_rank_def *d) {
  memset(c, 0, sizeof *c);
  const augur_clock_sync *in = NULL, *fin = NULL;
  for (uint32_t i = 0; d && i < d->nsync; i++) {
    if (d->sync[i].kind == AUGUR_SYNC_INIT && !in) in = &d->sync[i];
    if (d->sync[i].kind == AUGUR_SYNC_FINALIZE && !fin) fin = &d->sync[i];
  }
  if (!in) in = fin;
  if (!in) return;
  c->off0 = in->offset_ns;
  c->l0 = in->local_ns;
  if (fin && fin != in && fin->local_ns != in->local_ns)
    c->slope = ((double)fin->offset_ns - (double)in->offset_ns) /
               (double)(int64_t)(fin->local_ns - in->local_ns);
}

/* The map is l + base + slope*(l - l0) rounded, slope tiny: a few Newton
 * steps land within a nanosecond or two, single steps finish. */
uint64_t aug_clock_to_local(const aug_clock *c, int64_t shift, uint64_t g) {
  uint64_t l = g - (uint64_t)aug_clock_base(c, shift);
  for (int i = 0; i < 8; i++) {
    uint64_t h = aug_clock_to_global(c, shift, l);
    if (h == g) return l;
    if (g == 0) break; /* clamped: step back below */
    l += g - h;        /* wraps correctly when h > g */
  }
  for (int i = 0; i < 64; i++) {
    uint64_t h = aug_clock_to_global(c, shift, l);
    if (h == g) return l;
    if (g == 0 && (int64_t)h > 0) { /* clamped region: go back far enough */
      l -= h;
      continue;
    }
    l += h < g ? 1 : (uint64_t)-1;
  }
  return l;
}
