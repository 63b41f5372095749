/* augur_stream_merged_sources (include/augur/reader.h), without MPI: for
 * every trace given and every cut of its ranks into a local block and one
 * or two sources (each source a merged stream over its block, handed out
 * in small batches as diagnose --parallel's senders do), the stream gives
 * exactly augur_stream_merged's sequence: every record (all its fields),
 * every error (status and message) at its place, the end. With --logical
 * first: for every such cut, the logical trace built from that stream
 * (augur_logical_build_opts, as phases --parallel does: the blocks read
 * with the build's slack, and the build's slack on the stream over them,
 * interleave the ranks otherwise than the serial stream)
 * gives the serial phases' JSON in the three modes, its communicators in
 * order of first use in the strict merged stream, and no order hazard.
 * Prints one line per difference; exit 1 if any. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/phases.h"
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

/* A cut: local ranks [0, c0), sources [c0, c1) and (c1 < n) [c1, n). */
typedef struct cut {
  uint32_t c0, c1;
  uint64_t slack; /* on the blocks' streams: phases --parallel's senders' */
  augur_stream_source src[2];
  block_src bs[2];
  size_t nsrc;
} cut;

/* Opens the sources of cut ARG and the merged stream over them in *S
 * (augur_logical_opts.open_stream's contract). */
static int open_cut(void *arg, augur_trace *t, augur_stream **s, augur_error *err) {
  cut *c = arg;
  uint32_t cuts[3] = {c->c0, c->c1, augur_trace_nranks(t)};
  memset(c->bs, 0, sizeof c->bs);
  c->nsrc = 0;
  *s = NULL;
  for (int k = 0; k < 2; k++) {
    if (cuts[k] >= cuts[k + 1]) continue;
    int rc = augur_stream_merged_sources(t, cuts[k], cuts[k + 1], NULL, 0, &c->bs[c->nsrc].s, err);
    if (!rc && c->slack) rc = augur_stream_set_slack(c->bs[c->nsrc].s, c->slack, err);
    if (rc) return rc;
    c->src[c->nsrc] = (augur_stream_source){cuts[k], cuts[k + 1], src_next, &c->bs[c->nsrc]};
    c->nsrc++;
  }
  return augur_stream_merged_sources(t, 0, c->c0, c->src, c->nsrc, s, err);
}

static void close_cut(cut *c) {
  for (size_t k = 0; k < c->nsrc; k++)
    augur_stream_close(c->bs[k].s);
  c->nsrc = 0;
}

/* The phases' JSON of T in MODE from the logical trace built with O (NULL:
 * the serial build), or an "error: ..." line; *HAZ and the communicators'
 * ids (*IDS, *NIDS) as built. malloc'd. */
static char *phases_json(augur_trace *t, const augur_logical_opts *o, int mode, uint64_t *haz,
                         uint64_t *ids, uint32_t *nids) {
  augur_logical *lg = NULL;
  augur_phases *p = NULL;
  augur_phase_opts po;
  augur_phase_opts_default(&po);
  po.mode = mode;
  augur_error err = {0};
  char *out = NULL;
  if (augur_logical_build_opts(t, o, &lg, &err) != AUGUR_OK ||
      augur_phases_detect(lg, &po, &p, &err) != AUGUR_OK) {
    out = malloc(AUGUR_ERROR_MSG_MAX + 8);
    if (out) snprintf(out, AUGUR_ERROR_MSG_MAX + 8, "error: %s", err.msg);
  } else {
    out = augur_phases_json(p, lg, t);
  }
  *haz = lg ? lg->order_hazards : 0;
  *nids = lg ? lg->ncomms : 0;
  for (uint32_t i = 0; i < *nids; i++)
    ids[i] = lg->comm[i].id;
  augur_phases_free(p);
  augur_logical_free(lg);
  return out;
}

/* --logical: the serial build against the build over every cut; the
 * communicators against their order of first use in the strict stream. */
static int check_logical(augur_trace *t, const char *path) {
  uint32_t n = augur_trace_nranks(t);
  uint64_t first[AUGUR_LT_MAX_COMMS], ids[AUGUR_LT_MAX_COMMS], haz;
  uint32_t nfirst = 0, nids;
  augur_stream *s = NULL;
  augur_error err = {0};
  augur_event ev;
  int rc = augur_stream_merged(t, &s, &err), parent_kept = 0;
  while (rc == AUGUR_OK && augur_stream_next(s, &ev, &err) == 1) {
    int sub = (unsigned)ev.type - AUGUR_EV_COMPLETION <= AUGUR_EV_SUB_START - AUGUR_EV_COMPLETION;
    if (!sub) parent_kept = !(ev.flags & AUGUR_F_NOTDONE);
    if (sub || !parent_kept || ev.comm == AUGUR_COMM_NONE) continue;
    uint32_t i = 0;
    while (i < nfirst && first[i] != ev.comm)
      i++;
    if (i == nfirst && nfirst < AUGUR_LT_MAX_COMMS) first[nfirst++] = ev.comm;
  }
  augur_stream_close(s);
  int bad = 0;
  for (int mode = 0; mode < 3 && !bad; mode++) {
    char *ref = phases_json(t, NULL, mode, &haz, ids, &nids);
    if (!ref) return 1;
    if (!strncmp(ref, "error: ", 7)) {
      if (mode == 0) printf("%s: the serial build failed: %s\n", path, ref + 7);
    } else if (haz) {
      printf("%s: %llu order hazards\n", path, (unsigned long long)haz);
      bad = 1;
    } else if (nids != nfirst || memcmp(ids, first, nids * sizeof *ids)) {
      printf("%s: %u communicators not in order of first use (%u in the strict stream)\n", path,
             nids, nfirst);
      bad = 1;
    }
    uint32_t step = n > 12 ? n / 6 : 1;
    for (uint32_t c0 = 0; !bad && c0 < n; c0 += step)
      for (uint32_t c1 = c0 + 1; !bad && c1 <= n; c1 += step) {
        cut c = {.c0 = c0, .c1 = c1, .slack = AUGUR_LT_SLACK_NS};
        augur_logical_opts o = {.open_stream = open_cut, .open_stream_arg = &c};
        char *got = phases_json(t, &o, mode, &haz, ids, &nids);
        close_cut(&c);
        if (!got || strcmp(got, ref)) {
          size_t i = 0;
          while (got && got[i] && got[i] == ref[i])
            i++;
          printf("%s: mode %d, cut %u %u: the phases differ from byte %zu: '%.60s', serial "
                 "'%.60s'\n",
                 path, mode, c0, c1, i, got ? got + i : "(none)", ref + i);
          bad = 1;
        }
        free(got);
      }
    free(ref);
  }
  if (!bad) printf("%s: %u communicators, the phases the same over every cut\n", path, nfirst);
  return bad;
}

/* Local ranks [0, c0), sources [c0, c1) and (c1 < n) [c1, n). */
static int one_cut(augur_trace *t, const char *path, const item *ref, size_t nref, uint32_t c0,
                   uint32_t c1) {
  cut c = {.c0 = c0, .c1 = c1};
  augur_error err = {0};
  int bad = 0;
  augur_stream *s = NULL;
  if (open_cut(&c, t, &s, &err)) {
    printf("%s: cut %u %u: %s\n", path, c0, c1, err.msg);
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
  close_cut(&c);
  return bad;
}

static int check(const char *path, int logical) {
  augur_trace *t = NULL;
  augur_error err = {0};
  if (augur_trace_open(&t, path, &err) != AUGUR_OK) {
    printf("%s: %s\n", path, err.msg);
    return 1;
  }
  if (logical) {
    int bad = check_logical(t, path);
    augur_trace_close(t);
    return bad;
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
  int bad = 0, logical = argc > 1 && !strcmp(argv[1], "--logical");
  for (int i = 1 + logical; i < argc; i++)
    bad |= check(argv[i], logical);
  return bad;
}
