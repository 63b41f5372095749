/* Integration checker: shared expectation helpers (see check.h). */
#include "check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Enough lines to diagnose, few enough that a systematic error stays readable. */
#define CHECK_PRINT_MAX 40

void check_fail(check *c, const char *fmt, ...) {
  if (c->failures++ >= CHECK_PRINT_MAX) {
    if (c->failures == CHECK_PRINT_MAX + 1)
      fprintf(stderr, "FAIL ... (further failures not shown)\n");
    return;
  }
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (c->cur)
    fprintf(stderr, "FAIL %s np=%d: rank %u record #%zu (%s): %s\n", c->app, c->np, c->rank,
            (size_t)(c->cur - c->ev), augur_event_name(c->cur->type), what);
  else
    fprintf(stderr, "FAIL %s np=%d: %s\n", c->app, c->np, what);
}

/* A marker is a comment alone on its line: C "/" "* @augur:NAME *" "/" or
 * Fortran "! @augur:NAME". The call it labels is on the next line. */
int check_load_markers(check *c) {
  FILE *f = fopen(c->src, "r");
  if (!f) {
    check_fail(c, "cannot open the app source %s", c->src);
    return -1;
  }
  char line[1024];
  int lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    const char *p = line + strspn(line, " \t");
    if (strncmp(p, "/* @augur:", 10) == 0)
      p += 10;
    else if (strncmp(p, "! @augur:", 9) == 0)
      p += 9;
    else
      continue;
    size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_.");
    if (n == 0 || n >= sizeof c->markers[0].name || c->nmarkers == CHECK_MAX_MARKERS) continue;
    check_marker *m = &c->markers[c->nmarkers++];
    memcpy(m->name, p, n);
    m->name[n] = '\0';
    m->line = lineno + 1;
  }
  fclose(f);
  return 0;
}

static int marker_line(const check *c, const char *name) {
  for (int i = 0; i < c->nmarkers; i++)
    if (strcmp(c->markers[i].name, name) == 0) return c->markers[i].line;
  return -1;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

int check_load_rank(check *c, uint32_t rank) {
  augur_error err = {0};
  augur_stream *s = NULL;
  c->rank = rank;
  c->nev = c->pos = 0;
  c->cur = NULL;
  if (augur_stream_rank(c->t, rank, &s, &err) != AUGUR_OK) {
    check_fail(c, "rank %u: cannot open its stream: %s", rank, err.msg);
    return -1;
  }
  for (;;) {
    if (c->nev == c->cap) {
      size_t cap = c->cap ? 2 * c->cap : 256;
      augur_event *ev = realloc(c->ev, cap * sizeof *ev);
      if (!ev) {
        augur_stream_close(s);
        check_fail(c, "out of memory");
        return -1;
      }
      c->ev = ev;
      c->cap = cap;
    }
    int rc = augur_stream_next(s, &c->ev[c->nev], &err);
    if (rc == 0) break;
    if (rc < 0) {
      augur_stream_close(s);
      check_fail(c, "rank %u: stream error after %zu records: %s", rank, c->nev, err.msg);
      return -1;
    }
    c->nev++;
  }
  augur_stream_close(s);

  /* What the reader promises for a rank stream: the rank is filled in, times
   * are ordered, a parent is followed by exactly aux sub-records. */
  for (size_t i = 0; i < c->nev; i++) {
    const augur_event *e = &c->ev[i];
    c->cur = e;
    if (e->rank != rank) check_fail(c, "rank field is %u", e->rank);
    if (e->t_end < e->t_start) check_fail(c, "t_end < t_start");
    if (i > 0 && e->t_start < c->ev[i - 1].t_start) check_fail(c, "t_start goes backwards");
    if (augur_event_is_sub(e->type)) continue;
    if (c->fortran && !(e->flags & AUGUR_F_FORTRAN)) check_fail(c, "AUGUR_F_FORTRAN not set");
    if (e->type == AUGUR_EV_WAITALL || e->type == AUGUR_EV_SENDRECV) {
      for (uint32_t k = 1; k <= e->aux; k++)
        if (i + k >= c->nev || !augur_event_is_sub(c->ev[i + k].type))
          check_fail(c, "parent announces %u sub-records, sub-record %u missing", e->aux, k);
    }
  }
  c->cur = NULL;
  uint64_t indexed = augur_trace_nevents(c->t, rank);
  if (indexed != c->nev)
    check_fail(c, "rank %u: block index counts %" PRIu64 " records, stream gave %zu", rank, indexed,
               c->nev);
  return 0;
}

static void check_callsite(check *c, const augur_event *e, const char *marker) {
  int want = marker_line(c, marker);
  if (want < 0) {
    /* The Fortran mirror is written separately; missing markers there only
     * skip this check. In the C apps they are part of the contract. */
    if (!c->fortran) check_fail(c, "no marker @augur:%s in %s", marker, c->src);
    return;
  }
  augur_srcloc loc = {0};
  if (e->callsite == 0) {
    check_fail(c, "no call site recorded (want %s:%d)", base_name(c->src), want);
    return;
  }
  int rc = augur_trace_resolve(c->t, (uint32_t)e->callsite, &loc);
  if (rc != AUGUR_OK || !loc.file) {
    check_fail(c, "call site %" PRIu64 " does not resolve (status %d, want %s:%d)", e->callsite, rc,
               base_name(c->src), want);
    return;
  }
  if (strcmp(base_name(loc.file), base_name(c->src)) != 0 || loc.line != want)
    check_fail(c, "call site resolves to %s:%d, want %s:%d (@augur:%s)", loc.file, loc.line,
               base_name(c->src), want, marker);
  /* gfortran names the main program MAIN__; only C's main() is checked. */
  if (!c->fortran && (!loc.function || strcmp(loc.function, "main") != 0))
    check_fail(c, "call site function is %s, want main", loc.function ? loc.function : "(null)");
}

const augur_event *check_next(check *c, unsigned type, const char *marker) {
  if (c->pos >= c->nev) {
    c->cur = NULL;
    check_fail(c, "rank %u: trace ends after %zu records, expected %s next", c->rank, c->nev,
               augur_event_name(type));
    return NULL;
  }
  const augur_event *e = &c->ev[c->pos++];
  c->cur = e;
  c->checked++;
  if (e->type != type) {
    check_fail(c, "expected %s here; the rest of rank %u is not compared", augur_event_name(type),
               c->rank);
    c->pos = c->nev;
    return NULL;
  }
  if (marker) check_callsite(c, e, marker);
  return e;
}

void check_end(check *c) {
  if (c->pos < c->nev) {
    c->cur = &c->ev[c->pos];
    check_fail(c, "%zu unexpected records at the end of rank %u", c->nev - c->pos, c->rank);
  }
  c->cur = NULL;
}

void check_u64(check *c, const char *field, uint64_t got, uint64_t want) {
  if (got != want) check_fail(c, "%s = %" PRIu64 ", want %" PRIu64, field, got, want);
}

void check_i64(check *c, const char *field, int64_t got, int64_t want) {
  if (got != want) check_fail(c, "%s = %" PRId64 ", want %" PRId64, field, got, want);
}

void check_flags(check *c, uint32_t got, uint32_t mask, uint32_t want) {
  if ((got & mask) != want)
    check_fail(c, "flags 0x%04x: bits 0x%04x are 0x%04x, want 0x%04x", got, mask, got & mask, want);
}

void check_counts(check *c, const uint64_t *want) {
  uint64_t got[AUGUR_EV_MAX] = {0};
  const augur_event *cur = c->cur;
  c->cur = NULL;
  for (size_t i = 0; i < c->nev; i++)
    if (c->ev[i].type < AUGUR_EV_MAX) got[c->ev[i].type]++;
  for (unsigned ty = 0; ty < AUGUR_EV_MAX; ty++)
    if (got[ty] != want[ty])
      check_fail(c, "rank %u: %" PRIu64 " %s records, want %" PRIu64, c->rank, got[ty],
                 augur_event_name(ty), want[ty]);
  c->cur = cur;
}

void check_world_def(check *c) {
  const augur_comm_def *w = augur_trace_comm(c->t, AUGUR_COMM_WORLD);
  if (!w) {
    check_fail(c, "no definition of MPI_COMM_WORLD");
    return;
  }
  check_u64(c, "world kind", w->kind, AUGUR_COMM_KIND_WORLD);
  check_u64(c, "world size", w->size, (uint64_t)c->np);
  for (uint32_t i = 0; i < w->size && i < (uint32_t)c->np; i++)
    check_i64(c, "world member", w->members[i], (int64_t)i);
}

void check_trace_facts(check *c) {
  const augur_trace_info *info = augur_trace_info_get(c->t);
  check_u64(c, "trace.json nranks", info->nranks, (uint64_t)c->np);
  check_u64(c, "augur_trace_nranks", augur_trace_nranks(c->t), (uint64_t)c->np);
  check_i64(c, "trace.json complete", info->complete, 1);
  /* argv is the application's own command line, not the launcher's. */
  if (info->argc < 1 || !info->argv || !info->argv[0] ||
      strcmp(base_name(info->argv[0]), c->app) != 0)
    check_fail(c, "trace.json argv[0] is %s, want .../%s",
               info->argc >= 1 && info->argv && info->argv[0] ? info->argv[0] : "(none)", c->app);
  for (uint32_t r = 0; r < (uint32_t)c->np && r < augur_trace_nranks(c->t); r++) {
    const char *msg = NULL;
    if (augur_trace_damage(c->t, r, &msg))
      check_fail(c, "rank %u reported damaged: %s", r, msg ? msg : "?");
    const augur_rank_def *d = augur_trace_rank(c->t, r);
    if (!d) {
      check_fail(c, "rank %u has no rank definition", r);
      continue;
    }
    check_u64(c, "rank def rank", d->rank, r);
    check_u64(c, "rank def nranks", d->nranks, (uint64_t)c->np);
    if (d->finalize_ns == 0) check_fail(c, "rank %u: finalize time missing", r);
  }
}
