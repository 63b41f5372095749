/* augur_stream_merged_sources (include/augur/reader.h), without MPI: for
 * every trace given and every cut of its ranks into a local block and one
 * or two sources (each source a merged stream over its block, handed out
 * in small batches as diagnose --parallel's senders do), the stream gives
 * exactly augur_stream_merged's sequence: every record (all its fields),
 * every error (status and message) at its place, the end. Prints one line
 * per difference; exit 1 if any. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/reader.h"

#define BATCH 7 /* small: batches end between a parent and its sub-records */

/* One item of a stream: a record, or an error (status < 0, its message). */
typedef struct item {
  int status;
  augur_event ev;
  char msg[AUGUR_ERROR_MSG_MAX];
} item;

/* A source as a sender makes it: the block's merged stream, in batches;
 * an error after the records before it, at the stream's error key. */
typedef struct block_src {
  augur_stream *s;
  augur_event ev[BATCH];
  int held; /* an error met after the batch's records, said next */
  uint64_t held_at;
  char held_msg[AUGUR_ERROR_MSG_MAX];
} block_src;

static int src_next(void *arg, const augur_event **ev, size_t *n, uint64_t *at, augur_error *err) {
  block_src *b = arg;
  if (b->held) {
    int rc = b->held;
    b->held = 0;
    *at = b->held_at;
    return augur_fail(err, rc, "%s", b->held_msg);
  }
  size_t k = 0;
  int rc = 1;
  augur_error e = {0};
  while (k < BATCH && (rc = augur_stream_next(b->s, &b->ev[k], &e)) == 1)
    k++;
  if (rc < 0) {
    uint64_t key = 0;
    augur_stream_error_key(b->s, &key);
    if (!k) {
      *at = key;
      return augur_fail(err, rc, "%s", e.msg);
    }
    b->held = rc;
    b->held_at = key;
    snprintf(b->held_msg, sizeof b->held_msg, "%s", e.msg);
  }
  if (!k) return 0;
  *ev = b->ev;
  *n = k;
  return 1;
}

/* The whole sequence of S (errors included: merged streams go on). */
static item *drain(augur_stream *s, size_t *n) {
  size_t cap = 1024;
  item *it = malloc(cap * sizeof *it);
  *n = 0;
  for (;;) {
    if (*n == cap && !(it = realloc(it, (cap *= 2) * sizeof *it))) return NULL;
    augur_error e = {0};
    item *x = &it[*n];
    memset(x, 0, sizeof *x);
    int rc = augur_stream_next(s, &x->ev, &e);
    if (rc == 0) return it;
    x->status = rc < 0 ? rc : 1;
    if (rc < 0) {
      memset(&x->ev, 0, sizeof x->ev);
      snprintf(x->msg, sizeof x->msg, "%s", e.msg);
    }
    (*n)++;
  }
}

static int compare(const char *path, const char *what, const item *a, size_t na, const item *b,
                   size_t nb) {
  for (size_t i = 0; i < na || i < nb; i++) {
    if (i >= na || i >= nb) {
      printf("%s %s: %zu items, serial %zu\n", path, what, nb, na);
      return 1;
    }
    if (a[i].status != b[i].status || memcmp(&a[i].ev, &b[i].ev, sizeof a[i].ev) ||
        strcmp(a[i].msg, b[i].msg)) {
      printf("%s %s: item %zu differs: status %d rank %u t %llu '%s', serial %d rank %u t %llu "
             "'%s'\n",
             path, what, i, b[i].status, b[i].ev.rank, (unsigned long long)b[i].ev.t_start,
             b[i].msg, a[i].status, a[i].ev.rank, (unsigned long long)a[i].ev.t_start, a[i].msg);
      return 1;
    }
  }
  return 0;
}

/* Local ranks [0, c0), sources [c0, c1) and (c1 < n) [c1, n). */
static int one_cut(augur_trace *t, const char *path, const item *ref, size_t nref, uint32_t c0,
                   uint32_t c1) {
  uint32_t n = augur_trace_nranks(t);
  augur_stream_source src[2];
  block_src bs[2];
  size_t nsrc = 0;
  memset(bs, 0, sizeof bs);
  uint32_t cuts[3] = {c0, c1, n};
  augur_error err = {0};
  int bad = 0;
  for (int k = 0; k < 2; k++) {
    if (cuts[k] >= cuts[k + 1]) continue;
    if (augur_stream_merged_sources(t, cuts[k], cuts[k + 1], NULL, 0, &bs[nsrc].s, &err)) {
      printf("%s: block [%u, %u): %s\n", path, cuts[k], cuts[k + 1], err.msg);
      bad = 1;
      break;
    }
    src[nsrc] = (augur_stream_source){cuts[k], cuts[k + 1], src_next, &bs[nsrc]};
    nsrc++;
  }
  augur_stream *s = NULL;
  if (!bad && augur_stream_merged_sources(t, 0, c0, src, nsrc, &s, &err)) {
    printf("%s: merged_sources: %s\n", path, err.msg);
    bad = 1;
  }
  if (!bad) {
    size_t nit;
    item *it = drain(s, &nit);
    char what[64];
    snprintf(what, sizeof what, "cut %u %u", c0, c1);
    bad = !it || compare(path, what, ref, nref, it, nit);
    free(it);
  }
  augur_stream_close(s);
  for (size_t k = 0; k < nsrc; k++)
    augur_stream_close(bs[k].s);
  return bad;
}

static int check(const char *path) {
  augur_trace *t = NULL;
  augur_error err = {0};
  if (augur_trace_open(&t, path, &err) != AUGUR_OK) {
    printf("%s: %s\n", path, err.msg);
    return 1;
  }
  uint32_t n = augur_trace_nranks(t);
  augur_stream *s = NULL;
  if (augur_stream_merged(t, &s, &err) != AUGUR_OK) {
    printf("%s: %s\n", path, err.msg);
    augur_trace_close(t);
    return 1;
  }
  size_t nref;
  item *ref = drain(s, &nref);
  augur_stream_close(s);
  int bad = !ref, errors = 0;
  for (size_t i = 0; ref && i < nref; i++)
    errors += ref[i].status < 0;
  /* every cut into two and three parts for small traces, a few otherwise */
  uint32_t step = n > 12 ? n / 6 : 1;
  for (uint32_t c0 = 0; !bad && c0 < n; c0 += step)
    for (uint32_t c1 = c0 + 1; !bad && c1 <= n; c1 += step)
      bad = one_cut(t, path, ref, nref, c0, c1);
  /* refusals: a source before the local block, overlapping sources */
  augur_stream_source wrong[2] = {{0, 1, src_next, NULL}, {0, 1, src_next, NULL}};
  if (!bad && n >= 2 &&
      (augur_stream_merged_sources(t, 1, 2, wrong, 1, &s, &err) != AUGUR_E_ARG ||
       augur_stream_merged_sources(t, 0, 0, wrong, 2, &s, &err) != AUGUR_E_ARG)) {
    printf("%s: a source out of rank order was not refused\n", path);
    bad = 1;
  }
  if (!bad)
    printf("%s: %zu records and errors (%d errors), every cut the same\n", path, nref, errors);
  free(ref);
  augur_trace_close(t);
  return bad;
}

int main(int argc, char **argv) {
  int bad = 0;
  for (int i = 1; i < argc; i++)
    bad |= check(argv[i]);
  return bad;
}
