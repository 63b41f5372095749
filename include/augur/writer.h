/* augur — trace writer. Used by the recorder (one writer per rank), by
 * `augur import`, and by tests that hand-build traces.
 *
 * Thread safety: augur_writer_events and the augur_writer_def_* calls may be
 * called from several threads; they serialise on an internal mutex (taken
 * once per block, never per event). */
#ifndef AUGUR_WRITER_H
#define AUGUR_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "augur/api.h"
#include "augur/defs.h"
#include "augur/error.h"
#include "augur/event.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct augur_writer augur_writer;

/* Trace-wide facts, written to DIR/trace.json. */
typedef struct augur_trace_meta {
  uint32_t nranks;
  int argc;
  char **argv;                    /* the application's command line */
  const char *mpi_library;        /* "MPICH", "Open MPI", ... */
  const char *mpi_version;        /* MPI_Get_library_version text (first line) */
  const char *recorder;           /* "augur 0.1.0" */
  uint64_t start_unix_ns;         /* wall clock at rank 0's MPI_Init */
  int payload_hash;               /* 1 if payload fingerprints were recorded */
  int complete;                   /* 1 once rank 0 reached MPI_Finalize */
  const char *counters_requested; /* --counters as given, or NULL */
  augur_omp_meta openmp;          /* mode NULL: not written */
} augur_trace_meta;

/* Creates DIR (and parents) if needed and (re)writes DIR/trace.json
 * atomically (write to a temp file, rename). */
AUGUR_API int augur_meta_write(const char *dir, const augur_trace_meta *meta, augur_error *err);

/* Opens DIR/rank-NNNNN.evt for writing (truncates) and writes the file header.
 * level: zstd level (0 = default, 1 fastest). */
AUGUR_API int augur_writer_open(augur_writer **w, const char *dir, uint32_t rank, uint32_t nranks,
                                int zstd_level, augur_error *err);

/* Definitions are queued and written as one definition block before the next
 * event block (and at flush/close), so events never precede the definitions
 * they use. Strings and arrays are copied. */
AUGUR_API int augur_writer_def_rank(augur_writer *w, const augur_rank_def *def, augur_error *err);
AUGUR_API int augur_writer_def_comm(augur_writer *w, const augur_comm_def *def, augur_error *err);
AUGUR_API int augur_writer_def_module(augur_writer *w, const augur_module_def *def,
                                      augur_error *err);
AUGUR_API int augur_writer_def_callsite(augur_writer *w, const augur_callsite_def *def,
                                        augur_error *err);
AUGUR_API int augur_writer_def_file(augur_writer *w, const augur_file_def *def, augur_error *err);

/* Encodes n events of one thread (in that thread's order) as one event block
 * and writes it (with any pending definitions first). Events must already
 * carry call-site ids, not raw addresses. n may be 0 (writes pending defs). */
AUGUR_API int augur_writer_events(augur_writer *w, uint32_t thread, const augur_event *ev, size_t n,
                                  augur_error *err);

/* As augur_writer_events, for OpenMP records (docs/openmp.md; every ev[i].type
 * is OMP_*, augur_event_is_omp): written as events blocks of kind 3 of
 * `thread`, encoded like kind 1. A thread's OpenMP records are in its order,
 * like its MPI records; the two kinds go to separate blocks. */
AUGUR_API int augur_writer_omp_events(augur_writer *w, uint32_t thread, const augur_event *ev,
                                      size_t n, augur_error *err);

/* Makes room for blocks of up to n records (at most one block's worth) so
 * that augur_writer_events_in_signal can write them without allocating. */
AUGUR_API int augur_writer_reserve(augur_writer *w, size_t n, augur_error *err);

/* For a signal handler: writes pending definitions and the events like
 * augur_writer_events, but uncompressed, into the buffers augur_writer_reserve
 * made (no allocation, no zstd; write(2) only) and only if the writer's lock
 * is free (try-lock; never waits). Events beyond the reserved size are
 * dropped (whole parent groups). Returns 0, or -1 when nothing could be
 * written (lock busy, buffers too small, earlier write failure). */
AUGUR_API int augur_writer_events_in_signal(augur_writer *w, uint32_t thread, const augur_event *ev,
                                            size_t n);

/* As augur_writer_events_in_signal, for OpenMP records (kind-3 blocks). */
AUGUR_API int augur_writer_omp_events_in_signal(augur_writer *w, uint32_t thread,
                                                const augur_event *ev, size_t n);

/* Writes pending definitions and fsyncs nothing (the kernel keeps written
 * blocks if the process dies). */
AUGUR_API int augur_writer_flush(augur_writer *w, augur_error *err);

/* Defers compression to augur_writer_close (the recorder's choice: while the
 * program runs, a block costs its encoding and a write(2), not zstd). From
 * this call on blocks are written uncompressed, and readable as they are
 * should the process die; close then rewrites the file with every such block
 * compressed (the same file as without deferral) through DIR/rank-N.evt.part,
 * renamed over it. If that fails, close says why and leaves the file
 * complete and uncompressed. */
AUGUR_API void augur_writer_defer_compression(augur_writer *w);

/* The suffix of that compressed copy while it is written (rank-N.evt.part). */
#define AUGUR_WRITER_PART ".part"

/* Flushes, closes the file and frees w (also on error). */
AUGUR_API int augur_writer_close(augur_writer *w, augur_error *err);

/* Bytes written so far (file size). */
AUGUR_API uint64_t augur_writer_bytes(const augur_writer *w);

#ifdef __cplusplus
}
#endif
#endif
