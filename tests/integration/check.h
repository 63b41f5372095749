/* Integration checker: walks a recorded trace of a proving-ground app rank by
 * rank and compares every event with what the app must have done, computed
 * here from the command line and the number of ranks alone (never from the
 * trace). See apps/README.md for the apps' specified behaviour. */
#ifndef AUGUR_CHECK_H
#define AUGUR_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* event.h first: defs.h (pulled in by reader.h) uses AUGUR_MAX_COUNTERS. */
#include "augur/event.h"

#include "augur/reader.h"

#define CHECK_MAX_MARKERS 64

typedef struct check_marker {
  char name[64]; /* e.g. "stencil.irecv" */
  int line;      /* line of the call = marker line + 1 */
} check_marker;

typedef struct check {
  augur_trace *t;
  const char *app; /* ring, stencil, stencil_f */
  const char *src; /* the app's source file, for call-site lines */
  int fortran;     /* the app is Fortran: every parent event carries AUGUR_F_FORTRAN */
  int np;
  long iter, bytes, nx, ny;

  check_marker markers[CHECK_MAX_MARKERS];
  int nmarkers;

  uint64_t cart_id; /* stencil: the Cartesian communicator's id, same on every rank */

  int failures;
  uint64_t checked; /* events compared */

  /* The rank being checked: all its records, and the read position. */
  uint32_t rank;
  augur_event *ev;
  size_t nev, cap, pos;
  const augur_event *cur; /* the event the last check_next returned */
} check;

/* Reports one failed expectation (rank, event index and type of c->cur when
 * set) and counts it; printing stops after a while, counting does not. */
void check_fail(check *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Reads the source's "@augur:NAME" markers. Returns 0 or -1 (reported). */
int check_load_markers(check *c);

/* Reads every record of `rank` into c->ev. Returns 0 or -1 (reported). */
int check_load_rank(check *c, uint32_t rank);

/* Next record of the rank, which must be of `type` and (when marker is not
 * NULL) have its call site at that marker's line. Returns NULL (reported)
 * at the end or on a type mismatch: the rest of the rank is then not
 * comparable. */
const augur_event *check_next(check *c, unsigned type, const char *marker);

/* The rank has no records left. */
void check_end(check *c);

void check_u64(check *c, const char *field, uint64_t got, uint64_t want);
void check_i64(check *c, const char *field, int64_t got, int64_t want);
/* Flag bits `mask` must equal `want` (a subset of mask). */
void check_flags(check *c, uint32_t got, uint32_t mask, uint32_t want);

/* Counts records per type and compares with want[AUGUR_EV_MAX]. */
void check_counts(check *c, const uint64_t *want);

/* MPI_COMM_WORLD's definition: kind, size, members 0..np-1. */
void check_world_def(check *c);

/* Trace-wide facts: rank count, completeness, no damage, argv, rank defs. */
void check_trace_facts(check *c);

int check_ring_rank(check *c);
int check_stencil_rank(check *c);

#endif
