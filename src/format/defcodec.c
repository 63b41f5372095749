/* augur — definitions block records: tag, length, body of varints and
 * strings. Layout in docs/trace-format.md, "Definitions blocks". */
#include <stdlib.h>
#include <string.h>

#include "augur/error.h"
#include "format.h"
#include "varint.h"

/* Writes tag, body length and body (built in a scratch buffer, because the
 * length precedes it). Definitions are rare, so the scratch allocation is fine. */
static int put_record(aug_buf *b, unsigned tag, const aug_buf *body) {
  uint8_t t = (uint8_t)tag;
  if (aug_buf_append(b, &t, 1) || aug_buf_varint(b, body->len) ||
      aug_buf_append(b, body->p, body->len))
    return AUGUR_E_NOMEM;
  return AUGUR_OK;
}

#define PUT(x)                                                                                     \
  do {                                                                                             \
    if (x) goto nomem;                                                                             \
  } while (0)

int aug_def_put_rank(aug_buf *b, const augur_rank_def *d) {
  aug_buf s = {0};
  uint32_t nsync = d->nsync > 2 ? 2 : d->nsync;
  uint32_t nctr = d->ncounters > AUGUR_MAX_COUNTERS ? AUGUR_MAX_COUNTERS : d->ncounters;
  PUT(aug_buf_varint(&s, d->rank));
  PUT(aug_buf_varint(&s, d->nranks));
  PUT(aug_buf_varint(&s, d->pid));
  PUT(aug_buf_string(&s, d->host));
  PUT(aug_buf_varint(&s, aug_zigzag(d->thread_level)));
  PUT(aug_buf_varint(&s, d->init_ns));
  PUT(aug_buf_varint(&s, d->finalize_ns));
  PUT(aug_buf_varint(&s, nsync));
  for (uint32_t i = 0; i < nsync; i++) {
    PUT(aug_buf_varint(&s, d->sync[i].kind));
    PUT(aug_buf_varint(&s, d->sync[i].local_ns));
    PUT(aug_buf_varint(&s, aug_zigzag(d->sync[i].offset_ns)));
    PUT(aug_buf_varint(&s, d->sync[i].rtt_ns));
  }
  PUT(aug_buf_varint(&s, nctr));
  for (uint32_t i = 0; i < nctr; i++) {
    PUT(aug_buf_varint(&s, d->counters[i].index));
    PUT(aug_buf_varint(&s, d->counters[i].source));
    PUT(aug_buf_string(&s, d->counters[i].name));
  }
  PUT(aug_buf_string(&s, d->counter_note));
  /* format minor 3; older readers stop before these */
  PUT(aug_buf_varint(&s, d->cores));
  PUT(aug_buf_varint(&s, d->cpu_quota));
  PUT(aug_buf_string(&s, d->cpus));
  /* appended to minor 5 without a bump (absent = unknown): where the rank ran */
  uint32_t nmv = d->moves ? (d->nmoves > AUGUR_MAX_MOVES ? AUGUR_MAX_MOVES : d->nmoves) : 0;
  PUT(aug_buf_varint(&s, nmv));
  for (uint32_t i = 0; i < nmv; i++) { /* times after MPI_Init, each from the one before */
    uint64_t at = i ? d->moves[i - 1].ns : d->init_ns;
    PUT(aug_buf_varint(&s, d->moves[i].ns > at ? d->moves[i].ns - at : 0));
    PUT(aug_buf_varint(&s, d->moves[i].cpu));
  }
  PUT(aug_buf_varint(&s, d->moves_lost));
  PUT(aug_buf_varint(&s, nmv && d->migrations != UINT64_MAX ? d->migrations + 1 : 0));
  /* appended after those without a bump (absent = unknown): time on and waiting for a CPU */
  PUT(aug_buf_varint(&s, d->cpu_ns));
  PUT(aug_buf_varint(&s, d->cpu_ns ? d->run_delay_ns : 0));
  int rc = put_record(b, AUG_DEF_RANK, &s);
  aug_buf_free(&s);
  return rc;
nomem:
  aug_buf_free(&s);
  return AUGUR_E_NOMEM;
}

/* A member list as runs (format minor 6): the marker, varint nruns, then per
 * run varint zigzag(first), zigzag(stride), count, each run taken as long as
 * the stride holds. The world, a contiguous range or a strided pattern is one
 * run, a Cartesian plane a run per row. */
static int put_runs(aug_buf *s, const int32_t *m, uint32_t n) {
  uint32_t nruns = 0;
  for (uint32_t i = 0; i < n; nruns++) {
    uint32_t j = i + 1;
    int64_t stride = j < n ? (int64_t)m[j] - m[i] : 0;
    while (j < n && (int64_t)m[j] - m[j - 1] == stride)
      j++;
    i = j;
  }
  if (aug_buf_varint(s, AUG_MEMBERS_RUNS) || aug_buf_varint(s, nruns)) return -1;
  for (uint32_t i = 0; i < n;) {
    uint32_t j = i + 1;
    int64_t stride = j < n ? (int64_t)m[j] - m[i] : 0;
    while (j < n && (int64_t)m[j] - m[j - 1] == stride)
      j++;
    if (j == i + 1) stride = 0;
    if (aug_buf_varint(s, aug_zigzag(m[i])) || aug_buf_varint(s, aug_zigzag(stride)) ||
        aug_buf_varint(s, j - i))
      return -1;
    i = j;
  }
  return 0;
}

/* varint n, then the n members as runs or one by one, whichever is shorter
 * (a tie: one by one, which readers of minor <= 5 read too). */
static int put_members(aug_buf *s, const int32_t *m, uint32_t n) {
  if (!m) n = 0;
  if (aug_buf_varint(s, n)) return -1;
  aug_buf one = {0}, runs = {0};
  int rc = 0;
  for (uint32_t i = 0; i < n && !rc; i++)
    rc = aug_buf_varint(&one, aug_zigzag(m[i]));
  if (!rc && n > 1) rc = put_runs(&runs, m, n);
  const aug_buf *best = n > 1 && runs.len < one.len ? &runs : &one;
  if (!rc && best->len) rc = aug_buf_append(s, best->p, best->len);
  aug_buf_free(&one);
  aug_buf_free(&runs);
  return rc;
}

int aug_def_put_comm(aug_buf *b, const augur_comm_def *d) {
  aug_buf s = {0};
  uint32_t ndims = d->ndims > AUGUR_MAX_DIMS ? AUGUR_MAX_DIMS : d->ndims;
  PUT(aug_buf_varint(&s, d->id));
  PUT(aug_buf_varint(&s, d->parent));
  PUT(aug_buf_varint(&s, d->kind));
  PUT(put_members(&s, d->members, d->size));
  PUT(put_members(&s, d->remote, d->remote_size));
  PUT(aug_buf_varint(&s, ndims));
  for (uint32_t i = 0; i < ndims; i++)
    PUT(aug_buf_varint(&s, aug_zigzag(d->dims[i])));
  for (uint32_t i = 0; i < ndims; i++)
    PUT(aug_buf_varint(&s, aug_zigzag(d->periods[i])));
  int rc = put_record(b, AUG_DEF_COMM, &s);
  aug_buf_free(&s);
  return rc;
nomem:
  aug_buf_free(&s);
  return AUGUR_E_NOMEM;
}

int aug_def_put_module(aug_buf *b, const augur_module_def *d) {
  aug_buf s = {0};
  PUT(aug_buf_varint(&s, d->id));
  PUT(aug_buf_string(&s, d->path));
  int rc = put_record(b, AUG_DEF_MODULE, &s);
  aug_buf_free(&s);
  return rc;
nomem:
  aug_buf_free(&s);
  return AUGUR_E_NOMEM;
}

int aug_def_put_file(aug_buf *b, const augur_file_def *d) {
  aug_buf s = {0};
  PUT(aug_buf_varint(&s, d->id));
  PUT(aug_buf_string(&s, d->name));
  int rc = put_record(b, AUG_DEF_FILE, &s);
  aug_buf_free(&s);
  return rc;
nomem:
  aug_buf_free(&s);
  return AUGUR_E_NOMEM;
}

int aug_def_put_callsite(aug_buf *b, const augur_callsite_def *d) {
  aug_buf s = {0};
  PUT(aug_buf_varint(&s, d->id));
  PUT(aug_buf_varint(&s, d->module));
  PUT(aug_buf_varint(&s, d->offset));
  int rc = put_record(b, AUG_DEF_CALLSITE, &s);
  aug_buf_free(&s);
  return rc;
nomem:
  aug_buf_free(&s);
  return AUGUR_E_NOMEM;
}

int aug_def_next(const uint8_t **p, const uint8_t *end, unsigned *tag, const uint8_t **body,
                 size_t *len) {
  const uint8_t *q = *p;
  uint64_t n;
  if (q >= end) return 0;
  *tag = *q++;
  if (aug_get_varint(&q, end, &n) || n > (uint64_t)(end - q)) return -1;
  *body = q;
  *len = (size_t)n;
  *p = q + n;
  return 1;
}

/* ---- body decoding: a cursor that fails once and stays failed ---- */

typedef struct cur {
  const uint8_t *p, *end;
  int bad;
} cur;

static uint64_t u64(cur *c) {
  uint64_t v = 0;
  if (!c->bad && aug_get_varint(&c->p, c->end, &v)) c->bad = 1;
  return c->bad ? 0 : v;
}

static uint32_t u32(cur *c) {
  uint64_t v = u64(c);
  if (v > UINT32_MAX) c->bad = 1;
  return (uint32_t)v;
}

static int32_t s32(cur *c) {
  int64_t v = aug_unzigzag(u64(c));
  if (v < INT32_MIN || v > INT32_MAX) c->bad = 1;
  return (int32_t)v;
}

/* Returns a malloc'ed copy (NULL for the NULL string); sets *oom on failure. */
static char *str(cur *c, int *oom) {
  uint64_t n = u64(c);
  if (c->bad || n == 0) return NULL;
  n--;
  if (n > AUG_MAX_STRING || n > (uint64_t)(c->end - c->p)) {
    c->bad = 1;
    return NULL;
  }
  char *s = malloc(n + 1);
  if (!s) {
    *oom = 1;
    c->bad = 1;
    return NULL;
  }
  memcpy(s, c->p, n);
  s[n] = '\0';
  c->p += n;
  return s;
}

void aug_rank_def_free(augur_rank_def *d) {
  free(d->host);
  free(d->counter_note);
  free(d->cpus);
  free(d->moves);
  for (uint32_t i = 0; i < AUGUR_MAX_COUNTERS; i++)
    free(d->counters[i].name);
  memset(d, 0, sizeof *d);
}

void aug_comm_def_free(augur_comm_def *d) {
  free(d->members);
  free(d->remote);
  memset(d, 0, sizeof *d);
}

int aug_def_get_rank(const uint8_t *body, size_t len, augur_rank_def *d, const char **why) {
  cur c = {body, body + len, 0};
  int oom = 0;
  *why = NULL;
  memset(d, 0, sizeof *d);
  d->rank = u32(&c);
  d->nranks = u32(&c);
  d->pid = u64(&c);
  d->host = str(&c, &oom);
  d->thread_level = s32(&c);
  d->init_ns = u64(&c);
  d->finalize_ns = u64(&c);
  d->nsync = u32(&c);
  if (d->nsync > 2) c.bad = 1, *why = "more than 2 clock syncs";
  for (uint32_t i = 0; !c.bad && i < d->nsync; i++) {
    d->sync[i].kind = u32(&c);
    d->sync[i].local_ns = u64(&c);
    d->sync[i].offset_ns = aug_unzigzag(u64(&c));
    d->sync[i].rtt_ns = u64(&c);
  }
  d->ncounters = c.bad ? 0 : u32(&c);
  if (d->ncounters > AUGUR_MAX_COUNTERS) c.bad = 1, *why = "more than 4 counters";
  for (uint32_t i = 0; !c.bad && i < d->ncounters; i++) {
    d->counters[i].index = u32(&c);
    d->counters[i].source = u32(&c);
    d->counters[i].name = str(&c, &oom);
    if (d->counters[i].index >= AUGUR_MAX_COUNTERS) c.bad = 1, *why = "counter index >= 4";
  }
  d->counter_note = str(&c, &oom);
  if (!c.bad && c.p < c.end) { /* absent before format minor 3: unknown */
    d->cores = u32(&c);
    d->cpu_quota = u32(&c);
    d->cpus = str(&c, &oom);
  }
  d->migrations = UINT64_MAX;
  if (!c.bad && c.p < c.end) { /* absent before: unknown */
    d->nmoves = u32(&c);
    if (d->nmoves > AUGUR_MAX_MOVES) c.bad = 1, *why = "more than 64 CPU changes in a rank";
    if (!c.bad && d->nmoves && !(d->moves = malloc(d->nmoves * sizeof *d->moves))) c.bad = oom = 1;
    for (uint64_t at = d->init_ns, i = 0; !c.bad && i < d->nmoves; i++) {
      at += u64(&c);
      d->moves[i].ns = at;
      d->moves[i].cpu = u32(&c);
    }
    d->moves_lost = c.bad ? 0 : u64(&c);
    uint64_t m = c.bad ? 0 : u64(&c);
    d->migrations = m ? m - 1 : UINT64_MAX;
  }
  if (!c.bad && c.p < c.end) { /* absent before: unknown (cpu_ns 0) */
    d->cpu_ns = u64(&c);
    d->run_delay_ns = c.bad ? 0 : u64(&c);
    if (c.bad) d->cpu_ns = 0;
  }
  if (c.bad) {
    if (oom)
      *why = "out of memory";
    else if (!*why)
      *why = "malformed rank definition";
    aug_rank_def_free(d);
    return -1;
  }
  return 0;
}

/* The runs of put_runs (the marker read) into a, or only checked (a NULL):
 * their counts must add up to n and every member be an int32. */
static void get_runs(cur *c, uint32_t n, int32_t *a) {
  uint64_t nruns = u64(c), done = 0;
  if (nruns > n || nruns > (uint64_t)(c->end - c->p)) c->bad = 1; /* >= 3 bytes per run */
  for (uint64_t r = 0; r < nruns && !c->bad; r++) {
    int64_t first = s32(c), stride = aug_unzigzag(u64(c));
    uint64_t count = u64(c);
    if (c->bad || count == 0 || count > n - done || stride > INT32_MAX - (int64_t)INT32_MIN ||
        stride < (int64_t)INT32_MIN - INT32_MAX) {
      c->bad = 1;
      break;
    }
    int64_t last = first + stride * (int64_t)(count - 1); /* |stride| < 2^32, count <= 2^24 */
    if (last < INT32_MIN || last > INT32_MAX) {
      c->bad = 1;
      break;
    }
    for (uint64_t k = 0; a && k < count; k++)
      a[done + k] = (int32_t)(first + stride * (int64_t)k);
    done += count;
  }
  if (done != n) c->bad = 1;
}

static int32_t *ranks(cur *c, uint32_t n, int *oom) {
  if (c->bad || n == 0) return NULL;
  const uint8_t *p = c->p, *end = c->end;
  uint64_t first = 0;
  int runs = n > 1 && !aug_get_varint(&p, end, &first) && first == AUG_MEMBERS_RUNS;
  if (n > AUG_MAX_COMM_SIZE || (!runs && n > (uint64_t)(c->end - c->p))) { /* >= 1 byte each */
    c->bad = 1;
    return NULL;
  }
  if (runs) { /* check the runs before allocating what they claim */
    cur probe = {p, end, 0};
    get_runs(&probe, n, NULL);
    if (probe.bad) {
      c->bad = 1;
      return NULL;
    }
  }
  int32_t *a = malloc(sizeof *a * n);
  if (!a) {
    *oom = c->bad = 1;
    return NULL;
  }
  if (runs) {
    c->p = p;
    get_runs(c, n, a);
  } else {
    for (uint32_t i = 0; i < n; i++)
      a[i] = s32(c);
  }
  return a;
}

int aug_def_get_comm(const uint8_t *body, size_t len, augur_comm_def *d, const char **why) {
  cur c = {body, body + len, 0};
  int oom = 0;
  memset(d, 0, sizeof *d);
  d->id = u64(&c);
  d->parent = u64(&c);
  d->kind = u32(&c);
  d->size = u32(&c);
  d->members = ranks(&c, d->size, &oom);
  d->remote_size = c.bad ? 0 : u32(&c);
  d->remote = ranks(&c, d->remote_size, &oom);
  d->ndims = c.bad ? 0 : u32(&c);
  if (d->ndims > AUGUR_MAX_DIMS) c.bad = 1;
  for (uint32_t i = 0; !c.bad && i < d->ndims; i++)
    d->dims[i] = s32(&c);
  for (uint32_t i = 0; !c.bad && i < d->ndims; i++)
    d->periods[i] = s32(&c);
  if (c.bad) {
    *why = oom ? "out of memory" : "malformed communicator definition";
    aug_comm_def_free(d);
    return -1;
  }
  return 0;
}

int aug_def_get_module(const uint8_t *body, size_t len, augur_module_def *d, const char **why) {
  cur c = {body, body + len, 0};
  int oom = 0;
  d->id = u32(&c);
  d->path = str(&c, &oom);
  if (c.bad || !d->path) {
    *why = oom ? "out of memory" : "malformed module definition";
    free(d->path);
    d->path = NULL;
    return -1;
  }
  return 0;
}

int aug_def_get_file(const uint8_t *body, size_t len, augur_file_def *d, const char **why) {
  cur c = {body, body + len, 0};
  int oom = 0;
  d->id = u64(&c);
  d->name = str(&c, &oom);
  if (c.bad || !d->name) {
    *why = oom ? "out of memory" : "malformed file definition";
    free(d->name);
    d->name = NULL;
    return -1;
  }
  return 0;
}

int aug_def_get_callsite(const uint8_t *body, size_t len, augur_callsite_def *d, const char **why) {
  cur c = {body, body + len, 0};
  d->id = u32(&c);
  d->module = u32(&c);
  d->offset = u64(&c);
  if (c.bad) {
    *why = "malformed call-site definition";
    return -1;
  }
  return 0;
}

static char *dup_or_null(const char *s, int *oom) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (!d)
    *oom = 1;
  else
    memcpy(d, s, n);
  return d;
}

int aug_rank_def_copy(augur_rank_def *dst, const augur_rank_def *src) {
  int oom = 0;
  *dst = *src;
  dst->host = dup_or_null(src->host, &oom);
  dst->counter_note = dup_or_null(src->counter_note, &oom);
  dst->cpus = dup_or_null(src->cpus, &oom);
  dst->moves = NULL;
  if (src->moves && src->nmoves) {
    dst->moves = malloc(src->nmoves * sizeof *dst->moves);
    if (dst->moves)
      memcpy(dst->moves, src->moves, src->nmoves * sizeof *dst->moves);
    else
      oom = 1;
  }
  for (uint32_t i = 0; i < AUGUR_MAX_COUNTERS; i++)
    dst->counters[i].name = i < src->ncounters ? dup_or_null(src->counters[i].name, &oom) : NULL;
  if (oom) {
    aug_rank_def_free(dst);
    return -1;
  }
  return 0;
}

int aug_comm_def_copy(augur_comm_def *dst, const augur_comm_def *src) {
  *dst = *src;
  dst->members = NULL;
  dst->remote = NULL;
  if (src->members && src->size) {
    dst->members = malloc(sizeof(int32_t) * src->size);
    if (!dst->members) goto oom;
    memcpy(dst->members, src->members, sizeof(int32_t) * src->size);
  }
  if (src->remote && src->remote_size) {
    dst->remote = malloc(sizeof(int32_t) * src->remote_size);
    if (!dst->remote) goto oom;
    memcpy(dst->remote, src->remote, sizeof(int32_t) * src->remote_size);
  }
  return 0;
oom:
  aug_comm_def_free(dst);
  return -1;
}
