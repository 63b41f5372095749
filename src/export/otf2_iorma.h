/* OTF2 records and definitions for augur's MPI-IO, one-sided and
 * neighbourhood records (docs/otf2.md, "MPI-IO, one-sided and neighbourhood
 * calls"), used by otf2_export.c around each call's Enter and Leave. */
#ifndef AUGUR_OTF2_IORMA_H
#define AUGUR_OTF2_IORMA_H

#include <stdint.h>

#include <otf2/otf2.h>

#include "augur/reader.h"

typedef struct otf2_iorma otf2_iorma;

/* State for one export of T (file handles, windows, open RMA operations per
 * location); COMM_REF(CTX, id) gives the OTF2 Comm of an augur communicator
 * (or window, group) id, OTF2_UNDEFINED_COMM if none. NULL when out of memory. */
otf2_iorma *otf2_iorma_new(augur_trace *t, uint32_t (*comm_ref)(const void *ctx, uint64_t id),
                           const void *ctx);
void otf2_iorma_free(otf2_iorma *x);

/* Records for event E (a parent or a sub-record) on location LOC, written
 * with W at TS (OTF2 time): _start right after E's Enter, _end right before
 * its Leave. Events of other families write nothing. Returns the number of
 * records written; *e receives the first libotf2 failure (unchanged on success). */
uint64_t otf2_iorma_start(otf2_iorma *x, OTF2_EvtWriter *w, uint64_t loc, const augur_event *e,
                          uint64_t ts, OTF2_ErrorCode *rc);
uint64_t otf2_iorma_end(otf2_iorma *x, OTF2_EvtWriter *w, uint64_t loc, const augur_event *e,
                        uint64_t ts, OTF2_ErrorCode *rc);

/* Definitions, in two steps: STR(ctx, s) gives the string reference of each
 * name (called before the string table is written), then _defs writes the
 * IoParadigm, IoRegularFile, IoHandle and RmaWin definitions with D (after
 * the communicators: handles and windows name them; the communicator of
 * augur's i-th definition is OTF2 Comm i). Returns the first failure. */
void otf2_iorma_strings(otf2_iorma *x, uint32_t (*str)(void *ctx, const char *s), void *ctx);
OTF2_ErrorCode otf2_iorma_defs(otf2_iorma *x, OTF2_GlobalDefWriter *d);

/* The MPI-IO file ids seen (for the definitions JSON); *n their count. */
const uint64_t *otf2_iorma_files(const otf2_iorma *x, size_t *n);

#endif
