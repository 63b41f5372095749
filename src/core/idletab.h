/* augur — the one sizing policy of the tables whose entries go idle rather
 * than leave (the stream's request table, the matcher's FIFO tables): MPI
 * hands the same request handles and channels out again and again, and
 * removing an entry when it empties only to insert it again costs more than
 * the work the table serves. So an emptied entry keeps its slot (counted as
 * used, absent to lookups); when the used slots would pass half the table,
 * it is rebuilt with the live entries only (the idle ones leave, so a new
 * tag or handle per iteration cannot grow it with the trace), doubling only
 * if more than a quarter of it is live. Linear probing stays short: after a
 * rebuild at most a half, usually a quarter, of the slots is used. */
#ifndef AUGUR_IDLETAB_H
#define AUGUR_IDLETAB_H

#include <stddef.h>

/* Whether a table of cap slots, used of them live or idle, must be rebuilt
 * before one more entry goes in. */
static inline int aug_idletab_full(size_t used, size_t cap) {
  return (used + 1) * 2 > cap;
}

/* The capacity to rebuild a table of cap slots into when live of its
 * entries are live (cap a power of two stays one). */
static inline size_t aug_idletab_cap(size_t cap, size_t live) {
  return (live + 1) * 4 > cap ? cap * 2 : cap;
}

#endif
