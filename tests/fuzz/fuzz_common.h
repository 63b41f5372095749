/* augur fuzz targets — shared: a private scratch directory and a reader
 * workout that touches everything the API hands out. */
#ifndef AUGUR_FUZZ_COMMON_H
#define AUGUR_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "augur/reader.h"

/* A temp trace directory made once per process ("<tmp>/f.augur"). */
const char *fz_dir(void);
/* Writes bytes to DIR/name (truncating). */
void fz_write(const char *name, const uint8_t *data, size_t size);
/* Opens the trace and reads everything: definitions, rank streams, merged stream. */
void fz_workout(void);

#endif
