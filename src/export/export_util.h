/* Helpers shared by the chrome, paraver and simgrid exports: byte-counting
 * output, progress, call-site names. Messages are matched by the analysis
 * library's matcher (augur/match.h). */
#ifndef AUGUR_EXPORT_UTIL_H
#define AUGUR_EXPORT_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "augur/error.h"
#include "augur/export.h"
#include "augur/match.h"

/* An output file that counts what it wrote and remembers the first error. */
typedef struct exu_out {
  FILE *f;
  const char *path;
  uint64_t bytes;
  int failed;
} exu_out;

int exu_out_open(exu_out *o, const char *path, augur_error *err);
void exu_out_printf(exu_out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void exu_out_write(exu_out *o, const void *p, size_t n);
/* Writes the N numbers joined by ':' and a newline (Paraver records):
 * several times faster than fprintf on these all-integer lines. */
void exu_out_ints(exu_out *o, const uint64_t *v, size_t n);
/* The same line into LINE (room for 24 x 24 bytes); returns its length. */
size_t exu_fmt_ints(char *line, const uint64_t *v, size_t n);
/* Closes; returns AUGUR_E_IO naming the file if any write failed. */
int exu_out_close(exu_out *o, augur_error *err);

/* Calls the progress callback every 64 Ki events. */
static inline void exu_progress(const augur_export_opts *o, uint64_t done, uint64_t total) {
  if (o && o->progress && (done & 0xffffu) == 0) o->progress(o->progress_ctx, done, total);
}
uint64_t exu_total_events(augur_trace *t);

/* Removes a partial output after a failure (regular files only). */
void exu_remove_output(const char *path);

/* Fails naming the damage if any rank file of T is damaged. */
int exu_check_damage(augur_trace *t, const char *what, augur_error *err);

/* The call site's one name (augur_fmt_callsite) in buf. */
void exu_callsite_name(augur_trace *t, uint32_t callsite, char *buf, size_t n);

#endif
