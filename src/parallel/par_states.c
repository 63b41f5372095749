/* The thread states of a block of ranks (augur/omp.h), as bytes: what the
 * POP efficiencies need from each rank (par.h, docs/parallel.md): its
 * window and its threads' times. A rank with OpenMP records (its parallel
 * regions are arrays of their own) marks the block hybrid, and the
 * efficiencies are then computed serially. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "par.h"

#define STATES_MAGIC 0x3154535047554155ull /* "UAUGPST1" */
#define RANK_WORDS   10
#define THREAD_WORDS (4 + AUGUR_TS_COUNT)

int par_states_begin(par_states *ps, uint32_t nranks) {
  memset(ps, 0, sizeof *ps);
  ps->n = nranks;
  ps->rs = calloc(nranks ? nranks : 1, sizeof *ps->rs);
  return ps->rs ? 0 : -1;
}

void par_states_free(par_states *ps) {
  for (uint32_t r = 0; ps->rs && r < ps->n; r++)
    augur_rank_states_free(&ps->rs[r]);
  free(ps->rs);
  memset(ps, 0, sizeof *ps);
}

/* The efficiencies (src/pop) read a rank's window, its threads' times and
 * its regions (sites); not the mutexes or serial sections, which are not
 * packed. */
static int is_hybrid(const augur_rank_states *s) {
  return s->omp_records || s->nsites;
}

int par_states_scan(augur_trace *t, par_states *ps, uint32_t lo, uint32_t hi, augur_error *err) {
  ps->lo = lo;
  ps->hi = lo;
  for (uint32_t r = lo; r < hi; r++) {
    augur_error rerr = {0};
    int rc = augur_rank_states_trace(t, r, &ps->rs[r], &rerr);
    if (rc == AUGUR_E_NOMEM) return augur_fail(err, rc, "%s", rerr.msg);
    if (rc < 0 && !ps->damaged[0]) snprintf(ps->damaged, sizeof ps->damaged, "%s", rerr.msg);
    if (is_hybrid(&ps->rs[r])) ps->hybrid = 1;
    ps->hi = r + 1;
  }
  return AUGUR_OK;
}

int par_states_pack(const par_states *ps, unsigned char **buf, size_t *n) {
  size_t words = 5;
  for (uint32_t r = ps->lo; r < ps->hi; r++)
    words += RANK_WORDS + THREAD_WORDS * ps->rs[r].nthreads;
  size_t bytes = words * sizeof(uint64_t) + sizeof ps->damaged;
  uint64_t *w = malloc(bytes);
  if (!w) return -1;
  size_t k = 0;
  w[k++] = STATES_MAGIC;
  w[k++] = ps->lo;
  w[k++] = ps->hi;
  w[k++] = (uint64_t)ps->hybrid;
  w[k++] = ps->n;
  for (uint32_t r = ps->lo; r < ps->hi && !ps->hybrid; r++) {
    const augur_rank_states *s = &ps->rs[r];
    w[k++] = s->rank;
    w[k++] = s->t0;
    w[k++] = s->t1;
    w[k++] = (uint64_t)s->started;
    w[k++] = (uint64_t)s->finalized;
    w[k++] = s->omp_records;
    w[k++] = s->unbalanced;
    w[k++] = s->late_ends;
    w[k++] = s->team;
    w[k++] = s->nthreads;
    for (size_t i = 0; i < s->nthreads; i++) {
      const augur_thread_time *th = &s->threads[i];
      w[k++] = th->thread;
      w[k++] = (uint64_t)th->initial;
      w[k++] = th->records;
      w[k++] = th->region_ns;
      for (unsigned j = 0; j < AUGUR_TS_COUNT; j++)
        w[k++] = th->ns[j];
    }
  }
  if (ps->hybrid) w[1] = w[2] = ps->lo; /* nothing packed: the block says hybrid */
  bytes = k * sizeof(uint64_t) + sizeof ps->damaged;
  memcpy((unsigned char *)w + k * sizeof(uint64_t), ps->damaged, sizeof ps->damaged);
  *buf = (unsigned char *)w;
  *n = bytes;
  return 0;
}

int par_states_merge(par_states *ps, const unsigned char *buf, size_t n) {
  size_t tail = sizeof ps->damaged;
  if (n < tail + 5 * sizeof(uint64_t) || (n - tail) % sizeof(uint64_t)) return -2;
  size_t words = (n - tail) / sizeof(uint64_t);
  uint64_t *w = malloc(words * sizeof *w);
  if (!w) return -1;
  memcpy(w, buf, words * sizeof *w);
  int rc = 0;
  if (w[0] != STATES_MAGIC || w[4] != ps->n || w[1] > w[2] || w[2] > ps->n) {
    rc = -2;
    goto out;
  }
  if (!ps->damaged[0] && buf[words * sizeof(uint64_t)]) {
    memcpy(ps->damaged, buf + words * sizeof(uint64_t), tail);
    ps->damaged[tail - 1] = 0;
  }
  if (w[3]) {
    ps->hybrid = 1;
    goto out;
  }
  size_t k = 5;
  for (uint64_t r = w[1]; r < w[2]; r++) {
    if (k + RANK_WORDS > words) {
      rc = -2;
      goto out;
    }
    augur_rank_states *s = &ps->rs[r];
    s->rank = (uint32_t)w[k++];
    s->t0 = w[k++];
    s->t1 = w[k++];
    s->started = (int)w[k++];
    s->finalized = (int)w[k++];
    s->omp_records = w[k++];
    s->unbalanced = w[k++];
    s->late_ends = w[k++];
    s->team = (uint32_t)w[k++];
    uint64_t nth = w[k++];
    if (nth > (words - k) / THREAD_WORDS) {
      rc = -2;
      goto out;
    }
    s->threads = calloc(nth ? nth : 1, sizeof *s->threads);
    if (!s->threads) {
      rc = -1;
      goto out;
    }
    s->nthreads = nth;
    for (size_t i = 0; i < nth; i++) {
      augur_thread_time *th = &s->threads[i];
      th->thread = (uint32_t)w[k++];
      th->initial = (int)w[k++];
      th->records = w[k++];
      th->region_ns = w[k++];
      for (unsigned j = 0; j < AUGUR_TS_COUNT; j++)
        th->ns[j] = w[k++];
    }
  }
out:
  free(w);
  return rc;
}

int par_states_take(par_states *ps, int from) {
  unsigned char *buf = NULL;
  int n = 0, rc = par_recv_blob(from, PAR_TAG_STATES, &buf, &n);
  int m = rc == CLI_OK ? par_states_merge(ps, buf, (size_t)n) : 0;
  free(buf);
  if (rc != CLI_OK) return rc;
  if (m == -1)
    return cli_fail("--parallel: out of memory merging the parts of analysis rank %d", from);
  if (m < 0) return cli_fail("--parallel: the thread states of analysis rank %d are damaged", from);
  return CLI_OK;
}

void par_states_give(const par_states *ps, int ok, int to) {
  unsigned char *buf = NULL;
  size_t n = 0;
  if (ok && par_states_pack(ps, &buf, &n) < 0) buf = NULL;
  par_send_blob(buf, n, to, PAR_TAG_STATES);
}
