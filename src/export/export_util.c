/* Shared export helpers: counted output, call-site names. */
#include "export_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "augur/report.h" /* augur_fmt_callsite */

/* ---- output --------------------------------------------------------------- */

int exu_out_open(exu_out *o, const char *path, augur_error *err) {
  memset(o, 0, sizeof *o);
  o->f = fopen(path, "w");
  if (!o->f) return augur_fail(err, AUGUR_E_IO, "%s: cannot create: %s", path, strerror(errno));
  o->path = path;
  setvbuf(o->f, NULL, _IOFBF, 1 << 20); /* exports write many short lines */
  return AUGUR_OK;
}

void exu_out_printf(exu_out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vfprintf(o->f, fmt, ap);
  va_end(ap);
  if (n < 0)
    o->failed = 1;
  else
    o->bytes += (uint64_t)n;
}

void exu_out_write(exu_out *o, const void *p, size_t n) {
  if (fwrite(p, 1, n, o->f) != n) o->failed = 1;
  o->bytes += n;
}

size_t exu_fmt_ints(char *line, const uint64_t *v, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n && i < 24; i++) {
    char tmp[24];
    size_t d = 0;
    uint64_t x = v[i];
    do {
      tmp[d++] = (char)('0' + x % 10);
      x /= 10;
    } while (x);
    while (d)
      line[k++] = tmp[--d];
    line[k++] = i + 1 < n ? ':' : '\n';
  }
  return k;
}

void exu_out_ints(exu_out *o, const uint64_t *v, size_t n) {
  char line[24 * 24];
  exu_out_write(o, line, exu_fmt_ints(line, v, n));
}

int exu_out_close(exu_out *o, augur_error *err) {
  if (!o->f) return AUGUR_OK;
  int bad = o->failed || ferror(o->f);
  int e = errno;
  if (fclose(o->f) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  o->f = NULL;
  if (bad) return augur_fail(err, AUGUR_E_IO, "%s: write failed: %s", o->path, strerror(e));
  return AUGUR_OK;
}

/* ---- misc ------------------------------------------------------------------ */

void exu_callsite_name(augur_trace *t, uint32_t callsite, char *buf, size_t n) {
  augur_fmt_callsite(buf, n, t, callsite);
}

int exu_check_damage(augur_trace *t, const char *what, augur_error *err) {
  /* A damaged block cuts a rank's index short at open; streaming would then
   * end early without an error, and the export would be silently partial. */
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    const char *msg = NULL;
    augur_trace_damage(t, r, &msg); /* returns the count over all ranks */
    if (msg)
      return augur_fail(err, AUGUR_E_FORMAT, "%s export refused: damaged trace: %s", what, msg);
  }
  return AUGUR_OK;
}

void exu_remove_output(const char *path) {
  /* Only regular files: `-o /dev/null` must never unlink the device. */
  struct stat sb;
  if (path && lstat(path, &sb) == 0 && S_ISREG(sb.st_mode)) remove(path);
}

int exu_hybrid(augur_trace *t) {
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++)
    if (augur_trace_omp_nblocks(t, r)) return 1;
  return 0;
}

uint32_t exu_nthreads(augur_trace *t, uint32_t rank) {
  uint32_t n = 1;
  for (size_t b = 0; b < augur_trace_nblocks(t, rank); b++) {
    const augur_block_info *bi = augur_trace_block(t, rank, b);
    if (bi->thread + 1 > n) n = bi->thread + 1;
  }
  for (size_t b = 0; b < augur_trace_omp_nblocks(t, rank); b++) {
    const augur_block_info *bi = augur_trace_omp_block(t, rank, b);
    if (bi->thread + 1 > n) n = bi->thread + 1;
  }
  return n;
}

int exu_stream(augur_trace *t, int hybrid, augur_stream **s, augur_error *err) {
  return hybrid ? augur_stream_merged_kinds(t, AUGUR_KIND_MPI | AUGUR_KIND_OMP, s, err)
                : augur_stream_merged(t, s, err);
}

static void threads_interval(void *arg, uint32_t thread, unsigned state, uint64_t t0, uint64_t t1) {
  exu_threads_rank *r = arg;
  r->x->fn(r->x->arg, r->rank, thread, state, t0, t1);
}

int exu_threads_open(exu_threads *x, augur_trace *t, exu_state_fn fn, void *arg, augur_error *err) {
  memset(x, 0, sizeof *x);
  x->n = augur_trace_nranks(t);
  x->fn = fn;
  x->arg = arg;
  x->r = calloc(x->n ? x->n : 1, sizeof *x->r);
  if (!x->r) return augur_fail(err, AUGUR_E_NOMEM, "export: out of memory (thread states)");
  for (uint32_t i = 0; i < x->n; i++) {
    x->r[i] = (exu_threads_rank){x, i, augur_tstates_new(i)};
    if (!x->r[i].b) {
      exu_threads_free(x);
      return augur_fail(err, AUGUR_E_NOMEM, "export: out of memory (thread states)");
    }
    augur_tstates_on_interval(x->r[i].b, threads_interval, &x->r[i]);
  }
  return AUGUR_OK;
}

int exu_threads_add(exu_threads *x, const augur_event *ev, augur_error *err) {
  if (ev->rank >= x->n || !x->r[ev->rank].b) return AUGUR_OK;
  return augur_tstates_add(x->r[ev->rank].b, ev, err);
}

int exu_threads_finish(exu_threads *x, augur_error *err) {
  int rc = AUGUR_OK;
  for (uint32_t i = 0; i < x->n; i++) {
    if (!x->r[i].b) continue;
    augur_rank_states rs;
    int rc2 = augur_tstates_finish(x->r[i].b, &rs, err);
    x->r[i].b = NULL;
    if (rc2 < 0 && rc == AUGUR_OK) rc = rc2;
    if (rc2 == AUGUR_OK) x->unpaired += rs.unbalanced;
    if (rc2 == AUGUR_OK) augur_rank_states_free(&rs);
  }
  return rc;
}

void exu_threads_free(exu_threads *x) {
  for (uint32_t i = 0; x->r && i < x->n; i++)
    augur_tstates_free(x->r[i].b);
  free(x->r);
  memset(x, 0, sizeof *x);
}
