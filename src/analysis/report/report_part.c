/* A report part as bytes, and the merge of two adjacent blocks' parts
 * (report_part.h). The bytes are little 64-bit words in host order: the
 * analysis ranks of one MPI job run the same executable, so no conversion.
 * What is sent is what crosses blocks (docs/parallel.md): sums per call and
 * (call, call site), the size buckets, the min/max of the times, the
 * block's rows of the communication matrix (non-zero cells only) and its
 * ranks' figures; the first read error by rank. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report_part.h"

#define PART_MAGIC   0x3154524150475541ull /* "AUGPART1" */
#define PART_HEAD    14                    /* words before the buckets */
#define RANK_WORDS   8
#define BUCKET_WORDS 2
#define CALL_WORDS   4

typedef struct wbuf {
  uint64_t *w;
  size_t n, cap;
  int failed;
} wbuf;

static void put(wbuf *b, uint64_t v) {
  if (b->failed) return;
  if (aug_grow((void **)&b->w, &b->cap, b->n + 1, sizeof *b->w)) {
    b->failed = 1;
    return;
  }
  b->w[b->n++] = v;
}

int aug_report_part_partial(const aug_report_part *p) {
  assert(p && p->r);
  return p->partial || p->r->io != NULL || p->r->rma != NULL;
}

int aug_report_part_pack(const aug_report_part *p, unsigned char **buf, size_t *n) {
  assert(p && p->r && buf && n);
  const augur_report *r = p->r;
  wbuf b = {0};
  put(&b, PART_MAGIC);
  put(&b, r->nranks);
  put(&b, p->lo);
  put(&b, p->hi);
  put(&b, (uint64_t)(int64_t)p->status);
  put(&b, (uint64_t)aug_report_part_partial(p));
  put(&b, (uint64_t)r->complete);
  put(&b, r->events);
  put(&b, r->t_first);
  put(&b, r->t_last);
  put(&b, r->messages);
  put(&b, r->message_bytes);
  put(&b, (uint64_t)(int64_t)p->err.code);
  put(&b, p->sites.used);
  for (unsigned k = 0; k < AUGUR_REPORT_NBUCKETS; k++) {
    put(&b, r->buckets[k].count);
    put(&b, r->buckets[k].bytes);
  }
  for (unsigned i = 0; i < AUGUR_EV_MAX; i++) {
    put(&b, p->calls[i].count);
    put(&b, p->calls[i].time_ns);
    put(&b, p->calls[i].sent);
    put(&b, p->calls[i].recv);
  }
  for (size_t j = 0; j < p->sites.used; j++) {
    put(&b, p->sites.slots[j].key);
    put(&b, p->sites.slots[j].count);
    put(&b, p->sites.slots[j].time_ns);
  }
  for (uint32_t i = p->lo; i < p->hi; i++) {
    const augur_report_rank *rr = &r->ranks[i];
    put(&b, rr->events);
    put(&b, rr->window_ns);
    put(&b, rr->compute_ns);
    put(&b, rr->mpi_ns);
    put(&b, rr->init_ns);
    put(&b, rr->finalize_ns);
    put(&b, (uint64_t)rr->finalized);
    put(&b, (uint64_t)rr->damaged);
  }
  /* The block's matrix rows: a sender's messages are in its own stream. */
  size_t mark = b.n;
  put(&b, 0);
  uint64_t cells = 0;
  for (size_t i = 0; i < p->pairs.used; i++) {
    const site_slot *c = &p->pairs.slots[i];
    put(&b, c->key);
    put(&b, c->time_ns); /* bytes */
    put(&b, c->count);   /* messages */
    cells++;
  }
  if (!b.failed) b.w[mark] = cells;
  size_t words = b.n;
  size_t bytes = words * sizeof(uint64_t) + sizeof p->err.msg;
  unsigned char *out = b.failed ? NULL : malloc(bytes);
  if (!out) {
    free(b.w);
    return -1;
  }
  memcpy(out, b.w, words * sizeof(uint64_t));
  memcpy(out + words * sizeof(uint64_t), p->err.msg, sizeof p->err.msg);
  out[bytes - 1] = 0;
  free(b.w);
  *buf = out;
  *n = bytes;
  return 0;
}

static int bad(augur_error *err, const char *what) {
  augur_fail(err, AUGUR_E_FORMAT, "report --parallel: a block's part is damaged (%s)", what);
  return -2;
}

int aug_report_part_merge(aug_report_part *p, const unsigned char *buf, size_t n,
                          augur_error *err) {
  assert(p && p->r && (buf || !n));
  augur_report *r = p->r;
  size_t tail = sizeof p->err.msg;
  if (n < tail + PART_HEAD * sizeof(uint64_t) || (n - tail) % sizeof(uint64_t))
    return bad(err, "size");
  size_t words = (n - tail) / sizeof(uint64_t);
  uint64_t *w = malloc(words * sizeof *w);
  if (!w) return -1;
  memcpy(w, buf, words * sizeof *w);
  int rc = 0;
  uint64_t lo = w[2], hi = w[3], nsites = w[13];
  size_t need = PART_HEAD + AUGUR_REPORT_NBUCKETS * BUCKET_WORDS + AUGUR_EV_MAX * CALL_WORDS;
  if (w[0] != PART_MAGIC || w[1] != r->nranks || lo != p->hi || hi < lo || hi > r->nranks) {
    rc = bad(err, "not the next block of this trace");
    goto out;
  }
  if (nsites > (words - need) / 3 || words < need + nsites * 3 + (hi - lo) * RANK_WORDS + 1) {
    rc = bad(err, "truncated");
    goto out;
  }
  int status = (int)(int64_t)w[4];
  if (p->status == AUGUR_OK && status != AUGUR_OK) {
    /* The lower ranks come first, as in one serial pass. */
    p->status = status;
    p->err.code = (int)(int64_t)w[12];
    memcpy(p->err.msg, buf + words * sizeof(uint64_t), tail);
    p->err.msg[tail - 1] = 0;
    snprintf(r->error, sizeof r->error, "%s", p->err.msg);
  }
  p->partial |= w[5] != 0;
  if (!w[6]) r->complete = 0;
  r->events += w[7];
  if (w[8] < r->t_first) r->t_first = w[8];
  if (w[9] > r->t_last) r->t_last = w[9];
  r->messages += w[10];
  r->message_bytes += w[11];
  const uint64_t *q = w + PART_HEAD;
  for (unsigned k = 0; k < AUGUR_REPORT_NBUCKETS; k++, q += BUCKET_WORDS) {
    r->buckets[k].count += q[0];
    r->buckets[k].bytes += q[1];
  }
  for (unsigned i = 0; i < AUGUR_EV_MAX; i++, q += CALL_WORDS) {
    p->calls[i].count += q[0];
    p->calls[i].time_ns += q[1];
    p->calls[i].sent += q[2];
    p->calls[i].recv += q[3];
  }
  for (uint64_t j = 0; j < nsites; j++, q += 3) {
    if (aug_report_site_add(&p->sites, q[0], q[1], q[2]) < 0) {
      rc = -1;
      goto out;
    }
  }
  for (uint64_t i = lo; i < hi; i++, q += RANK_WORDS) {
    augur_report_rank *rr = &r->ranks[i];
    rr->events = q[0];
    rr->window_ns = q[1];
    rr->compute_ns = q[2];
    rr->mpi_ns = q[3];
    rr->init_ns = q[4];
    rr->finalize_ns = q[5];
    rr->finalized = (int)q[6];
    rr->damaged = (int)q[7];
  }
  uint64_t cells = *q++;
  if (cells > (size_t)(w + words - q) / 3) {
    rc = bad(err, "truncated matrix");
    goto out;
  }
  for (uint64_t j = 0; j < cells; j++, q += 3) {
    if (q[0] < lo * r->nranks || q[0] >= hi * r->nranks) {
      rc = bad(err, "matrix cell outside the block");
      goto out;
    }
    if (aug_report_site_add(&p->pairs, q[0], q[2], q[1]) < 0) {
      rc = -1;
      goto out;
    }
  }
  p->hi = (uint32_t)hi;
out:
  free(w);
  return rc;
}
