/* augur — execution-graph files (docs/graph-format.md): a hand-editable text
 * program per process class that expands into an augur_sim_graph, and the
 * writer that turns a graph (from a trace) into such a file with repetitions
 * folded into loops. */
#ifndef AUGUR_SIMGRAPH_H
#define AUGUR_SIMGRAPH_H

#include <stdint.h>
#include <stdio.h>

#include "augur/api.h"
#include "augur/error.h"
#include "augur/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AUGUR_GFILE_MAGIC "augur-graph 1"
/* Expansion guard: more operations than this is an error (about 640 MB). */
#define AUGUR_GFILE_MAX_OPS 20000000ull

typedef struct augur_gfile augur_gfile;

/* Parses TEXT[0..len) (NAME is used in messages: "NAME:LINE: ..."). */
AUGUR_API int augur_gfile_parse(augur_gfile **out, const char *text, size_t len, const char *name,
                                augur_error *err);
/* Reads and parses the file at PATH. */
AUGUR_API int augur_gfile_load(augur_gfile **out, const char *path, augur_error *err);
AUGUR_API void augur_gfile_free(augur_gfile *f);
/* 1 if the file at PATH starts with the magic line, 0 otherwise (or unreadable). */
AUGUR_API int augur_gfile_sniff(const char *path);

/* Number of classes, a class's name and rank count. */
AUGUR_API uint32_t augur_gfile_nclasses(const augur_gfile *f);
AUGUR_API const char *augur_gfile_class_name(const augur_gfile *f, uint32_t i);
AUGUR_API uint32_t augur_gfile_class_count(const augur_gfile *f, uint32_t i);
/* Changes the rank count of class NAME (the what-if "more workers"). */
AUGUR_API int augur_gfile_set_count(augur_gfile *f, const char *name, uint32_t count,
                                    augur_error *err);

/* Expands F into a new graph: random values drawn with SEED, at most
 * MAX_OPS operations (0: AUGUR_GFILE_MAX_OPS). Messages pair in program
 * order per (sender, receiver); errors name the file and line. */
AUGUR_API int augur_gfile_expand(const augur_gfile *f, uint64_t seed, uint64_t max_ops,
                                 augur_sim_graph **out, augur_error *err);

/* Writing a graph as a file. */
typedef struct augur_gfile_write_opts {
  int spread;         /* varying costs as normal(mean,sd) instead of the mean */
  int no_classes;     /* one class per rank */
  int smooth;         /* average outlier costs into their loop too (docs/graph-format.md) */
  int exact;          /* every iteration's cost, one class per rank: the trace's prediction */
  const char *source; /* named in the header comment (may be NULL) */
} augur_gfile_write_opts;
AUGUR_API int augur_gfile_write(FILE *out, const augur_sim_graph *g,
                                const augur_gfile_write_opts *o, augur_error *err);

#ifdef __cplusplus
}
#endif
#endif
