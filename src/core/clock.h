/* augur — the clock model, once: each rank's offset to the reference clock
 * is a line through its INIT and FINALIZE syncs (docs/trace-format.md),
 *
 *   offset(local) = off0 + slope * (local - l0),
 *   global(local) = local + offset(local) - shift,
 *
 * where shift (the trace's origin) is rank 0's global time of its init. The
 * reader converts with aug_clock_to_global; the OTF2 import, which must
 * write back local times that the reader turns into the archive's global
 * ones, inverts the same function with aug_clock_to_local. Both live here so
 * that a change to the model keeps the round trip exact. */
#ifndef AUGUR_CLOCK_H
#define AUGUR_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "augur/defs.h"

typedef struct aug_clock {
  int64_t off0;
  double slope; /* 0: a constant offset (one sync, or none) */
  uint64_t l0;
} aug_clock;

/* The clock of rank definition d: from its first INIT and first FINALIZE
 * syncs; FINALIZE alone gives a constant offset; d NULL or without syncs,
 * the identity (all zero). */
void aug_clock_setup(aug_clock *c, const augur_rank_def *d);

/* Drift part of a clock offset: slope * (local - l0), rounded, saturated to
 * +-2^62 so damaged sync values cannot overflow the conversion. */
static inline int64_t aug_drift(double slope, uint64_t l0, uint64_t local) {
  double x = slope * (double)(int64_t)(local - l0);
  if (!(x > -4.6e18 && x < 4.6e18)) x = x > 0 ? 4.6e18 : -4.6e18; /* NaN -> negative */
  return (int64_t)(x < 0 ? x - 0.5 : x + 0.5);
}

/* local + base + drift, with base = offset at l0 minus the trace's shift (the
 * form a stream caches). Sums wrap (unsigned) instead of overflowing;
 * negative results become 0. */
static inline uint64_t aug_clock_global(int64_t base, double slope, uint64_t l0, uint64_t local) {
  uint64_t g = local + (uint64_t)base;
  if (slope != 0.0) g += (uint64_t)aug_drift(slope, l0, local);
  return (int64_t)g < 0 ? 0 : g;
}

/* The base aug_clock_global takes: off0 - shift, wrapping. */
static inline int64_t aug_clock_base(const aug_clock *c, int64_t shift) {
  return (int64_t)((uint64_t)c->off0 - (uint64_t)shift);
}

/* offset(local), wrapping. */
static inline int64_t aug_clock_offset(const aug_clock *c, uint64_t local) {
  uint64_t off = (uint64_t)c->off0;
  if (c->slope != 0.0) off += (uint64_t)aug_drift(c->slope, c->l0, local);
  return (int64_t)off;
}

/* The trace's shift when c is rank 0's clock and init_ns its init time. */
static inline int64_t aug_clock_shift(const aug_clock *c, uint64_t init_ns) {
  return (int64_t)(init_ns + (uint64_t)aug_clock_offset(c, init_ns));
}

/* global(local). */
static inline uint64_t aug_clock_to_global(const aug_clock *c, int64_t shift, uint64_t local) {
  return aug_clock_global(aug_clock_base(c, shift), c->slope, c->l0, local);
}

/* A local time that aug_clock_to_global maps to g: exact for every g a
 * recorded event can have (the map is monotonic with steps of one or two
 * nanoseconds where the slope rounds); for a g no local time reaches, a
 * neighbour of it. */
uint64_t aug_clock_to_local(const aug_clock *c, int64_t shift, uint64_t g);

#endif
