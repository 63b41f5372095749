/* augur format tests — shared helpers: temp trace directories, building
 * traces through the writer, byte-level damage. */
#ifndef AUGUR_TEST_UTIL_H
#define AUGUR_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "augur/reader.h"
#include "augur/writer.h"

/* Creates a fresh directory under $TMPDIR (or /tmp) and returns
 * "<it>/t.augur" (not created yet). Free with tu_cleanup. */
char *tu_tracedir(void);
/* Removes the trace directory and its parent made by tu_tracedir. */
void tu_cleanup(char *dir);

/* Writes trace.json for nranks (complete = 1). */
void tu_meta(const char *dir, uint32_t nranks);
/* Path of a rank file inside dir (static buffer). */
const char *tu_rank_file(const char *dir, uint32_t rank, uint32_t nranks);

/* Opens rank RANK's writer (level 0) in DIR and defines MPI_COMM_WORLD as
 * ranks 0 .. NRANKS - 1 (at most 64), as the unit tests' scenes need. */
augur_writer *tu_open_world(const char *dir, uint32_t rank, uint32_t nranks);

/* A zeroed event of a type with times. */
augur_event tu_ev(unsigned type, uint64_t t_start, uint64_t t_end);
/* An OpenMP point record (docs/openmp.md) of THREAD at time T. */
augur_event tu_omp(unsigned type, uint32_t thread, uint64_t t);

/* Reads a whole rank stream into a malloc'ed array; *rc gets the final
 * status (0 = clean end, negative = error after *n events). */
augur_event *tu_read_rank(augur_trace *t, uint32_t rank, size_t *n, int *rc, augur_error *err);
/* The same for an open stream (rank or merged; a merged stream stops at its
 * first error too), which it closes. */
augur_event *tu_read_stream(augur_stream *s, size_t *n, int *rc, augur_error *err);

/* Byte surgery on a file. */
void tu_flip_byte(const char *file, uint64_t offset);
void tu_truncate(const char *file, uint64_t size);
uint64_t tu_file_size(const char *file);
void tu_write_file(const char *file, const char *text);

/* Asserts two events are equal field by field (cmocka failure names the
 * field and index). */
void tu_assert_event_eq(const augur_event *want, const augur_event *got, size_t index);

#endif
