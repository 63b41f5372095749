/* augur — exports to other tools' formats and imports from them.
 * Each format lives in its own src/export/<format>*.c; `augur export` and
 * `augur import` are thin wrappers over these calls. */
#ifndef AUGUR_EXPORT_H
#define AUGUR_EXPORT_H

#include <stdint.h>

#include "augur/api.h"
#include "augur/event.h"
#include "augur/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct augur_export_opts {
  augur_progress_fn progress;
  void *progress_ctx;
  /* SimGrid: compute bursts become `compute <seconds x this>` flops; 0 means
   * the default 1e9 (a 1 Gflop/s host in the platform replays them in real
   * time). */
  double simgrid_flops_per_s;
} augur_export_opts;

/* Statistics an export returns (for the CLI summary and bench/export). */
typedef struct augur_export_stats {
  uint64_t events;  /* augur events read */
  uint64_t records; /* records written in the target format */
  uint64_t bytes;   /* bytes written */
  /* Traces with OpenMP records: begin/end records that did not pair (a
   * trace cut short or damaged), closed as the thread states close them
   * (docs/export.md "Threads and OpenMP"). */
  uint64_t omp_unpaired;
  /* SimGrid export: MPI-IO, one-sided, neighbourhood and process calls,
   * which its time-independent actions cannot express: their time is
   * written as compute (docs/export.md "SimGrid"). */
  uint64_t as_compute;
} augur_export_stats;

/* Chrome trace-event JSON (Perfetto, chrome://tracing): OUT is a file. */
AUGUR_API int augur_export_chrome(augur_trace *t, const char *out, const augur_export_opts *o,
                                  augur_export_stats *st, augur_error *err);
/* Paraver: OUT is a path prefix; writes OUT.prv, OUT.pcf, OUT.row. */
AUGUR_API int augur_export_paraver(augur_trace *t, const char *out, const augur_export_opts *o,
                                   augur_export_stats *st, augur_error *err);
/* SimGrid time-independent trace: OUT is a directory (per-rank action files +
 * an index file listing them). */
AUGUR_API int augur_export_simgrid(augur_trace *t, const char *out, const augur_export_opts *o,
                                   augur_export_stats *st, augur_error *err);
/* OTF2 archive written with libotf2: OUT is the archive directory. Returns
 * AUGUR_E_STATE if augur was built without libotf2. */
AUGUR_API int augur_export_otf2(augur_trace *t, const char *out, const augur_export_opts *o,
                                augur_export_stats *st, augur_error *err);

/* What an import could not carry over, one line each (owned by the caller:
 * free each line and the array). */
typedef struct augur_import_report {
  uint32_t nranks;
  uint64_t events;
  char **notes;
  size_t nnotes;
} augur_import_report;
AUGUR_API void augur_import_report_free(augur_import_report *r);

/* Reads an OTF2 archive (ANCHOR = the .otf2 anchor file) and writes an augur
 * trace directory OUT. */
AUGUR_API int augur_import_otf2(const char *anchor, const char *out, const augur_export_opts *o,
                                augur_import_report *rep, augur_error *err);

#ifdef __cplusplus
}
#endif
#endif
