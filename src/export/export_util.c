/* Shared export helpers: message matching, counted output, call-site names. */
#include "export_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- message matching ---------------------------------------------------- */

/* Pending ends of one (sender, receiver, comm, tag) channel. A channel holds
 * either unmatched sends or unmatched receives, never both: a new end of the
 * other kind matches the oldest pending one. */
typedef struct channel {
  uint64_t comm;
  uint32_t sender, receiver;
  int32_t tag;
  int used;
  int kind; /* 0 = sends pending, 1 = receives pending */
  exu_end *q;
  size_t head, len, cap;
} channel;

struct exu_matcher {
  exu_match_fn fn;
  void *ctx;
  channel *tab; /* open addressing, power-of-two size */
  size_t cap, n;
  augur_event parent; /* last non-sub-record: sub-records take its times */
  uint64_t matched;
};

exu_matcher *exu_matcher_new(exu_match_fn fn, void *ctx) {
  exu_matcher *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->fn = fn;
  m->ctx = ctx;
  m->cap = 64;
  m->tab = calloc(m->cap, sizeof *m->tab);
  if (!m->tab) {
    free(m);
    return NULL;
  }
  return m;
}

void exu_matcher_free(exu_matcher *m) {
  if (!m) return;
  for (size_t i = 0; i < m->cap; i++)
    free(m->tab[i].q);
  free(m->tab);
  free(m);
}

static uint64_t chan_hash(uint32_t s, uint32_t r, uint64_t comm, int32_t tag) {
  uint64_t h = comm ^ (((uint64_t)s << 32 | r) * 0x9E3779B97F4A7C15ull);
  h ^= (uint64_t)(uint32_t)tag * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 30; /* splitmix64's finalizer: every input bit reaches the low bits */
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 27;
  h *= 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}

static channel *chan_slot(channel *tab, size_t cap, uint32_t s, uint32_t r, uint64_t comm,
                          int32_t tag) {
  size_t i = (size_t)chan_hash(s, r, comm, tag) & (cap - 1);
  for (;;) {
    channel *c = &tab[i];
    if (!c->used || (c->sender == s && c->receiver == r && c->comm == comm && c->tag == tag))
      return c;
    i = (i + 1) & (cap - 1);
  }
}

static channel *chan_get(exu_matcher *m, uint32_t s, uint32_t r, uint64_t comm, int32_t tag) {
  if ((m->n + 1) * 2 > m->cap) { /* keep the load under one half */
    size_t ncap = m->cap * 2;
    channel *nt = calloc(ncap, sizeof *nt);
    if (!nt) return NULL;
    for (size_t i = 0; i < m->cap; i++)
      if (m->tab[i].used) {
        channel *c = &m->tab[i];
        *chan_slot(nt, ncap, c->sender, c->receiver, c->comm, c->tag) = *c;
      }
    free(m->tab);
    m->tab = nt;
    m->cap = ncap;
  }
  channel *c = chan_slot(m->tab, m->cap, s, r, comm, tag);
  if (!c->used) {
    memset(c, 0, sizeof *c);
    c->used = 1;
    c->sender = s;
    c->receiver = r;
    c->comm = comm;
    c->tag = tag;
    m->n++;
  }
  return c;
}

/* An empty channel is removed at once, so the table holds only channels
 * with messages in flight (tags that change every iteration would otherwise
 * grow it with the trace). Linear probing: shift later entries back. */
static void chan_remove(exu_matcher *m, channel *c) {
  size_t mask = m->cap - 1, i = (size_t)(c - m->tab);
  free(c->q);
  for (size_t j = (i + 1) & mask; m->tab[j].used; j = (j + 1) & mask) {
    channel *d = &m->tab[j];
    size_t home = (size_t)chan_hash(d->sender, d->receiver, d->comm, d->tag) & mask;
    /* d may move to the hole at i unless its home lies cyclically in (i, j] */
    int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (stays) continue;
    m->tab[i] = *d;
    i = j;
  }
  memset(&m->tab[i], 0, sizeof m->tab[i]);
  m->n--;
}

static int chan_push(channel *c, const exu_end *e) {
  if (c->head + c->len == c->cap) {
    if (c->head > 0) { /* slide down before growing */
      memmove(c->q, c->q + c->head, c->len * sizeof *c->q);
      c->head = 0;
    }
    if (c->len == c->cap) {
      size_t ncap = c->cap ? c->cap * 2 : 4;
      exu_end *nq = realloc(c->q, ncap * sizeof *nq);
      if (!nq) return AUGUR_E_NOMEM;
      c->q = nq;
      c->cap = ncap;
    }
  }
  c->q[c->head + c->len++] = *e;
  return AUGUR_OK;
}

static int add_end(exu_matcher *m, int kind, uint32_t s, uint32_t r, uint64_t comm, int32_t tag,
                   const exu_end *e, augur_error *err) {
  channel *c = chan_get(m, s, r, comm, tag);
  if (!c) return augur_fail(err, AUGUR_E_NOMEM, "export: out of memory matching messages");
  if (c->len > 0 && c->kind != kind) {
    exu_end other = c->q[c->head++];
    c->len--;
    if (c->len == 0) chan_remove(m, c);
    uint64_t id = m->matched++;
    return kind == 0 ? m->fn(m->ctx, e, &other, id) : m->fn(m->ctx, &other, e, id);
  }
  c->kind = kind;
  if (chan_push(c, e) != AUGUR_OK)
    return augur_fail(err, AUGUR_E_NOMEM, "export: out of memory matching messages");
  return AUGUR_OK;
}

static int is_send_init(unsigned type) {
  return type >= AUGUR_EV_SEND_INIT && type <= AUGUR_EV_RSEND_INIT;
}

int exu_matcher_feed(exu_matcher *m, const augur_event *ev, augur_error *err) {
  unsigned type = ev->type;
  if (!augur_event_is_sub(type)) m->parent = *ev;
  const augur_event *p = augur_event_is_sub(type) ? &m->parent : ev;
  exu_end e = {ev->rank, ev->thread, p->t_start, p->t_end, 0, ev->tag};
  if (ev->peer < 0) return AUGUR_OK; /* PROC_NULL, unresolved wildcard, no peer */

  if ((augur_event_is_p2p_send(type) && !is_send_init(type)) ||
      (type == AUGUR_EV_COMPLETION && (ev->flags & AUGUR_F_SENDREQ) &&
       (ev->flags & AUGUR_F_PERSISTENT) && !(ev->flags & AUGUR_F_CANCELLED))) {
    e.bytes = ev->bytes;
    return add_end(m, 0, ev->rank, (uint32_t)ev->peer, ev->comm, ev->tag, &e, err);
  }
  int recv_end = type == AUGUR_EV_RECV || type == AUGUR_EV_MRECV || type == AUGUR_EV_SUB_RECV ||
                 (type == AUGUR_EV_COMPLETION && (ev->flags & AUGUR_F_RECVREQ) &&
                  !(ev->flags & (AUGUR_F_CANCELLED | AUGUR_F_UNMATCHED)));
  if (recv_end && ev->tag >= 0) {
    e.bytes = ev->bytes_recv;
    return add_end(m, 1, (uint32_t)ev->peer, ev->rank, ev->comm, ev->tag, &e, err);
  }
  return AUGUR_OK;
}

uint64_t exu_matcher_matched(const exu_matcher *m) {
  return m->matched;
}

uint64_t exu_matcher_unmatched(const exu_matcher *m) {
  uint64_t n = 0;
  for (size_t i = 0; i < m->cap; i++)
    if (m->tab[i].used) n += m->tab[i].len;
  return n;
}

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

uint64_t exu_total_events(augur_trace *t) {
  uint64_t n = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++)
    n += augur_trace_nevents(t, r);
  return n;
}

void exu_callsite_name(augur_trace *t, uint32_t callsite, char *buf, size_t n) {
  augur_srcloc loc;
  if (callsite == 0 || augur_trace_resolve(t, callsite, &loc) != AUGUR_OK) {
    snprintf(buf, n, "site %u", callsite);
    return;
  }
  const char *file = loc.file ? loc.file : NULL;
  const char *base = file ? strrchr(file, '/') : NULL;
  base = base ? base + 1 : file;
  if (loc.function && base)
    snprintf(buf, n, "%s %s:%d", loc.function, base, loc.line);
  else if (loc.function)
    snprintf(buf, n, "%s", loc.function);
  else if (base)
    snprintf(buf, n, "%s:%d", base, loc.line);
  else
    snprintf(buf, n, "site %u", callsite);
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
