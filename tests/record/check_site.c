/* augur-check-record ... --site SRC: the records of a Fortran test program
 * (rec_io_f.f90, rec_rma_f.f90, rec_neigh_f.f90, through `use mpi` or
 * `use mpi_f08`) carry the application's call site: every record's site
 * resolves to SRC, and a call's (a record named MPI_*) to a line of SRC that
 * calls that procedure (its name as a whole word, any case). A site in the
 * MPI library or the recorder (an f08 binding that did not hand over its
 * caller's, or a call recorded through the library's C layer) fails. */
/* strdup, strncasecmp */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "augur/event.h"
#include "check.h"

/* The number of failed checks (this file's `failures`). */
int check_sites(augur_trace *t, uint32_t n, const char *src);

enum { MAXLINES = 4096 };
static char *lines[MAXLINES + 1]; /* 1-based */
static int nlines;

static int read_src(const char *src) {
  FILE *f = fopen(src, "r");
  if (!f) return -1;
  char buf[1024];
  while (nlines < MAXLINES && fgets(buf, sizeof buf, f))
    lines[++nlines] = strdup(buf);
  fclose(f);
  return 0;
}

/* 1 if LINE calls NAME: NAME as a whole word, any case. */
static int calls(const char *line, const char *name) {
  size_t len = strlen(name);
  for (const char *p = line; *p; p++) {
    if (strncasecmp(p, name, len) != 0) continue;
    if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;
    if (isalnum((unsigned char)p[len]) || p[len] == '_') continue;
    return 1;
  }
  return 0;
}

static const char *base(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

int check_sites(augur_trace *t, uint32_t n, const char *src) {
  if (read_src(src) != 0) {
    CHECK(0, "cannot read %s", src);
    return failures;
  }
  for (uint32_t r = 0; r < n; r++) {
    evlist l;
    if (load_rank(t, r, &l) != 0) continue;
    int bad = 0; /* report the first few of a rank */
    for (size_t i = 0; i < l.n && bad < 5; i++) {
      const augur_event *e = &l.ev[i];
      if (augur_event_is_omp(e->type)) continue;
      const char *name = augur_event_name(e->type);
      augur_srcloc loc = {0};
      int ok = e->callsite != 0 && augur_trace_resolve(t, (uint32_t)e->callsite, &loc) == 0 &&
               loc.file && strcmp(base(loc.file), base(src)) == 0 && loc.line > 0 &&
               loc.line <= nlines &&
               (strncmp(name, "MPI_", 4) != 0 || calls(lines[loc.line], name));
      if (!ok) bad++;
      CHECK(ok, "rank %u record %zu %s: call site %s:%d (%s), not a line of %s calling it", r, i,
            name, loc.file ? loc.file : "?", loc.line, loc.module ? loc.module : "?", base(src));
    }
    free(l.ev);
  }
  return failures;
}
