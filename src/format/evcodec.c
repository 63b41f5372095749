/* augur — events block codec: context-predicted fields in three columns
 * (ops, times, fields). Layout in docs/trace-format.md, "Events blocks". */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/error.h"
#include "format.h"
#include "subrec.h"
#include "varint.h"

/* Mask bits, in the order their values appear in the fields column. */
enum {
  M_REQ = 1u << 0,
  M_PEER = 1u << 1,
  M_TAG = 1u << 2,
  M_AUX = 1u << 3,
  M_BYTES = 1u << 4,
  M_BYTES_RECV = 1u << 5,
  M_CTR0 = 1u << 6,
  M_FLAGS = 1u << 7,
  M_COMM = 1u << 8,
  M_CALLSITE = 1u << 9,
  M_HASH = 1u << 10,
  M_CTR1 = 1u << 11,
  M_CTR2 = 1u << 12,
  M_CTR3 = 1u << 13,
  M_ALL = (1u << 14) - 1
};

/* The predicted fields (bytes .. aux) are one run of the record: 1 when all
 * of them and flags equal the prediction's. The recorder's repeated calls
 * (a polling loop's Iprobe / Test) mostly take this path: no per-field
 * compare, no copy of the record into the context. */
#define PRED_LO offsetof(augur_event, bytes)
#define PRED_HI offsetof(augur_event, type)
_Static_assert(offsetof(augur_event, bytes_recv) > PRED_LO &&
                   offsetof(augur_event, req) > PRED_LO && offsetof(augur_event, comm) > PRED_LO &&
                   offsetof(augur_event, hash) > PRED_LO &&
                   offsetof(augur_event, callsite) > PRED_LO &&
                   offsetof(augur_event, ctr) > PRED_LO && offsetof(augur_event, aux) < PRED_HI &&
                   offsetof(augur_event, peer) < PRED_HI && offsetof(augur_event, tag) < PRED_HI,
               "the predicted fields are one run from bytes to aux");
/* 16-byte unaligned loads (GCC/clang vector extension; SSE2 on x86-64). */
typedef uint64_t aug_u64x2 __attribute__((vector_size(16), aligned(1), may_alias));
static inline int same_fields(const augur_event *a, const augur_event *b) {
  const unsigned char *x = (const unsigned char *)a + PRED_LO;
  const unsigned char *y = (const unsigned char *)b + PRED_LO;
  _Static_assert(PRED_HI - PRED_LO == 5 * 16 + 8 + 4, "same_fields: 5 x 16 + 8 + 4 bytes");
  aug_u64x2 d = (*(const aug_u64x2 *)(x + 0) ^ *(const aug_u64x2 *)(y + 0)) |
                (*(const aug_u64x2 *)(x + 16) ^ *(const aug_u64x2 *)(y + 16)) |
                (*(const aug_u64x2 *)(x + 32) ^ *(const aug_u64x2 *)(y + 32)) |
                (*(const aug_u64x2 *)(x + 48) ^ *(const aug_u64x2 *)(y + 48)) |
                (*(const aug_u64x2 *)(x + 64) ^ *(const aug_u64x2 *)(y + 64));
  uint64_t u8, v8;
  uint32_t u4, v4;
  memcpy(&u8, x + 80, 8);
  memcpy(&v8, y + 80, 8);
  memcpy(&u4, x + 88, 4);
  memcpy(&v4, y + 88, 4);
  return (d[0] | d[1] | (u8 ^ v8) | (uint64_t)(u4 ^ v4) | (uint64_t)(a->flags ^ b->flags)) == 0;
}

static inline unsigned slot_of(unsigned type, unsigned prev) {
  return (type * 67u + prev * 7u) & (AUG_CTX_SLOTS - 1);
}

/* 32-bit fields are differenced modulo 2^32 so every value round-trips. */
static inline int64_t diff32(uint32_t a, uint32_t b) {
  return (int32_t)(a - b);
}

/* Per-record room of each column: op (type + mask), times (two varints),
 * fields (every field changed). */
#define OPS_MAX    4 /* op byte, escaped type, mask varint (2 bytes) */
#define TIMES_MAX  20
#define FIELDS_MAX (13 * AUG_VARINT_MAX + 8)

size_t aug_ev_encode_bound(size_t n) {
  return 2 * AUG_VARINT_MAX + n * (OPS_MAX + TIMES_MAX + FIELDS_MAX);
}

int aug_ev_encoder_reserve(aug_evenc *enc, size_t n) {
  enc->ops.len = enc->times.len = enc->fields.len = 0;
  return aug_buf_reserve(&enc->ops, n * OPS_MAX) || aug_buf_reserve(&enc->times, n * TIMES_MAX) ||
                 aug_buf_reserve(&enc->fields, n * FIELDS_MAX)
             ? -1
             : 0;
}

int aug_ev_encoder_fits(const aug_evenc *enc, size_t n) {
  return enc->ops.cap >= n * OPS_MAX && enc->times.cap >= n * TIMES_MAX &&
         enc->fields.cap >= n * FIELDS_MAX;
}

int aug_ev_encode(aug_evenc *enc, const augur_event *ev, size_t n, aug_buf *out) {
  memset(enc->ctx, 0, sizeof enc->ctx);
  if (aug_ev_encoder_reserve(enc, n)) return AUGUR_E_NOMEM;
  uint8_t *op = enc->ops.p, *tm = enc->times.p, *fl = enc->fields.p;
  uint64_t prev_end = n ? ev[0].t_start : 0, last = 0;
  unsigned prev_type = 0;
  uint32_t parents = 0;
  for (size_t i = 0; i < n; i++) {
    const augur_event *e = &ev[i];
    if (e->type >= AUGUR_EV_MAX - 1 || e->type == AUGUR_EV_ESCAPE) return AUGUR_E_ARG;
    if (e->t_end > last) last = e->t_end;
    augur_event *p = &enc->ctx[slot_of(e->type, prev_type)];
    unsigned mask = 0;
    if (same_fields(e, p)) goto fields_done;
    if (e->req != p->req)
      mask |= M_REQ, fl += aug_put_varint(fl, aug_zigzag((int64_t)(e->req - p->req)));
    if (e->peer != p->peer)
      mask |= M_PEER,
          fl += aug_put_varint(fl, aug_zigzag(diff32((uint32_t)e->peer, (uint32_t)p->peer)));
    if (e->tag != p->tag)
      mask |= M_TAG,
          fl += aug_put_varint(fl, aug_zigzag(diff32((uint32_t)e->tag, (uint32_t)p->tag)));
    if (e->aux != p->aux)
      mask |= M_AUX, fl += aug_put_varint(fl, aug_zigzag(diff32(e->aux, p->aux)));
    if (e->bytes != p->bytes)
      mask |= M_BYTES, fl += aug_put_varint(fl, aug_zigzag((int64_t)(e->bytes - p->bytes)));
    if (e->bytes_recv != p->bytes_recv)
      mask |= M_BYTES_RECV,
          fl += aug_put_varint(fl, aug_zigzag((int64_t)(e->bytes_recv - p->bytes_recv)));
    if (e->ctr[0] != p->ctr[0]) mask |= M_CTR0, fl += aug_put_varint(fl, e->ctr[0]);
    if (e->flags != p->flags) mask |= M_FLAGS, fl += aug_put_varint(fl, e->flags);
    if (e->comm != p->comm) mask |= M_COMM, fl += aug_put_varint(fl, e->comm);
    if (e->callsite != p->callsite)
      mask |= M_CALLSITE,
          fl += aug_put_varint(fl, aug_zigzag((int64_t)(e->callsite - p->callsite)));
    if (e->hash != p->hash) mask |= M_HASH, aug_put_le64(fl, e->hash), fl += 8;
    for (int c = 1; c < AUGUR_MAX_COUNTERS; c++)
      if (e->ctr[c] != p->ctr[c]) mask |= M_CTR1 << (c - 1), fl += aug_put_varint(fl, e->ctr[c]);
    *p = *e;
  fields_done:;
    unsigned low = e->type < AUGUR_EV_ESCAPE ? e->type : AUGUR_EV_ESCAPE;
    *op++ = (uint8_t)(low | (mask ? 0x80 : 0));
    if (low == AUGUR_EV_ESCAPE) *op++ = (uint8_t)e->type;
    if (mask) op += aug_put_varint(op, mask);
    if (!aug_type_is_sub(e->type)) {
      tm += aug_put_varint(tm, aug_zigzag((int64_t)(e->t_start - prev_end)));
      tm += aug_put_varint(tm, aug_zigzag((int64_t)(e->t_end - e->t_start)));
      prev_end = e->t_end;
      parents++;
    }
    prev_type = e->type;
  }
  enc->parents = parents;
  enc->last_ns = last;
  enc->ops.len = (size_t)(op - enc->ops.p);
  enc->times.len = (size_t)(tm - enc->times.p);
  enc->fields.len = (size_t)(fl - enc->fields.p);
  if (aug_buf_varint(out, enc->ops.len) || aug_buf_varint(out, enc->times.len) ||
      aug_buf_append(out, enc->ops.p, enc->ops.len) ||
      aug_buf_append(out, enc->times.p, enc->times.len) ||
      aug_buf_append(out, enc->fields.p, enc->fields.len))
    return AUGUR_E_NOMEM;
  return AUGUR_OK;
}

void aug_ev_encoder_free(aug_evenc *enc) {
  aug_buf_free(&enc->ops);
  aug_buf_free(&enc->times);
  aug_buf_free(&enc->fields);
}

#define GET(col, end, v)                                                                           \
  do {                                                                                             \
    if (aug_get_varint(&(col), (end), &(v))) goto bad_varint;                                      \
  } while (0)

void aug_ev_decode_init(aug_evdec *d) {
  memset(d, 0, offsetof(aug_evdec, at));
  d->pool = d->small;
  d->cap = AUG_DEC_SMALL;
  memset(d->at, 0, sizeof d->at);
}

void aug_ev_decode_fini(aug_evdec *d) {
  if (d->pool != d->small) free(d->pool);
  d->pool = d->small;
  d->cap = AUG_DEC_SMALL;
  d->used = 0;
}

/* The pool index + 1 of SLOT, which the block uses for the first time: a
 * zero prediction. Returns 0 when out of memory. */
static unsigned take_slot(aug_evdec *d, unsigned slot) {
  assert(slot < AUG_CTX_SLOTS && !d->at[slot] && d->used <= d->cap);
  if (d->used == d->cap) {
    uint32_t cap = 2 * d->cap;
    augur_event *p = malloc(cap * sizeof *p);
    if (!p) return 0;
    memcpy(p, d->pool, d->used * sizeof *p);
    if (d->pool != d->small) free(d->pool);
    d->pool = p;
    d->cap = cap;
  }
  memset(&d->pool[d->used], 0, sizeof *d->pool);
  d->at[slot] = (uint16_t)++d->used;
  return d->used;
}

int aug_ev_decode_begin(aug_evdec *d, const uint8_t *raw, size_t len, uint32_t count,
                        uint64_t first_ns, uint32_t thread, char *why, size_t whylen) {
  const uint8_t *p = raw, *end = raw + len;
  uint64_t ops_len, times_len;
  if (aug_get_varint(&p, end, &ops_len) || aug_get_varint(&p, end, &times_len) ||
      ops_len > (uint64_t)(end - p) || times_len > (uint64_t)(end - p) - ops_len) {
    snprintf(why, whylen, "bad column lengths (payload %zu bytes)", len);
    return AUGUR_E_FORMAT;
  }
  d->op = p;
  d->op_end = d->tm = p + ops_len;
  d->tm_end = d->fl = d->tm + times_len;
  d->fl_end = end;
  d->prev_end = d->ps = d->pe = first_ns;
  d->prev_type = 0;
  d->thread = thread;
  d->count = count;
  d->done = 0;
  assert(d->pool && d->used <= d->cap && d->cap <= AUG_CTX_SLOTS);
  memset(d->at, 0, sizeof d->at); /* 1 KB; the pool keeps its room */
  d->used = 0;
  return AUGUR_OK;
}

int aug_ev_decode_some(aug_evdec *d, augur_event *out, uint32_t max, uint32_t *got, char *why,
                       size_t whylen) {
  /* Locals instead of d-> fields so the compiler keeps them in registers. */
  const uint8_t *op = d->op, *op_end = d->op_end, *tm = d->tm, *tm_end = d->tm_end;
  const uint8_t *fl = d->fl, *fl_end = d->fl_end;
  uint64_t prev_end = d->prev_end, ps = d->ps, pe = d->pe, v;
  unsigned prev_type = d->prev_type;
  uint32_t n = d->count - d->done < max ? d->count - d->done : max, i = 0;
  *got = 0; /* on an error: the records before the bad one, which are complete */
  const char *column = "ops";
  for (; i < n; i++) {
    column = "ops";
    if (op >= op_end) goto bad_varint;
    unsigned type = *op++;
    unsigned has_mask = type & 0x80;
    type &= 0x7f;
    if (type == AUGUR_EV_ESCAPE) { /* format minor 5: the type is the next byte */
      if (op >= op_end) goto bad_varint;
      type = *op++;
      if (type <= AUGUR_EV_ESCAPE || type == AUGUR_EV_MAX - 1) goto bad_type;
    }
    /* Copy the prediction out whole, then patch changed fields in both the
     * output and the slot with scalar stores. (Patching the slot and then
     * copying it would read just-written bytes with wide loads: a
     * store-forwarding stall per record.) */
    unsigned slot = slot_of(type, prev_type), at = d->at[slot];
    if (__builtin_expect(!at, 0) && !(at = take_slot(d, slot))) goto no_memory;
    augur_event *c = &d->pool[at - 1];
    augur_event *e = &out[i];
    *e = *c;
    if (has_mask) {
      uint64_t mask;
      GET(op, op_end, mask);
      if (mask & ~(uint64_t)M_ALL) {
        snprintf(why, whylen, "record %u: unknown field mask bits 0x%llx", d->done + i,
                 (unsigned long long)(mask & ~(uint64_t)M_ALL));
        *got = i;
        return AUGUR_E_FORMAT;
      }
      column = "fields";
      if (mask & M_REQ) {
        GET(fl, fl_end, v);
        e->req = c->req = c->req + (uint64_t)aug_unzigzag(v);
      }
      if (mask & M_PEER) {
        GET(fl, fl_end, v);
        e->peer = c->peer = (int32_t)((uint32_t)c->peer + (uint32_t)aug_unzigzag(v));
      }
      if (mask & M_TAG) {
        GET(fl, fl_end, v);
        e->tag = c->tag = (int32_t)((uint32_t)c->tag + (uint32_t)aug_unzigzag(v));
      }
      if (mask & M_AUX) {
        GET(fl, fl_end, v);
        e->aux = c->aux = c->aux + (uint32_t)aug_unzigzag(v);
      }
      if (mask & M_BYTES) {
        GET(fl, fl_end, v);
        e->bytes = c->bytes = c->bytes + (uint64_t)aug_unzigzag(v);
      }
      if (mask & M_BYTES_RECV) {
        GET(fl, fl_end, v);
        e->bytes_recv = c->bytes_recv = c->bytes_recv + (uint64_t)aug_unzigzag(v);
      }
      /* The fields after bytes_recv change rarely (counters aside): one
       * test skips them all. */
      if (mask & ~(uint64_t)(M_REQ | M_PEER | M_TAG | M_AUX | M_BYTES | M_BYTES_RECV)) {
        if (mask & M_CTR0) {
          GET(fl, fl_end, v);
          e->ctr[0] = c->ctr[0] = v;
        }
        if (mask & M_FLAGS) {
          GET(fl, fl_end, v);
          if (v > 0xffff) goto bad_value;
          e->flags = c->flags = (uint16_t)v;
        }
        if (mask & M_COMM) {
          GET(fl, fl_end, v);
          e->comm = c->comm = v;
        }
        if (mask & M_CALLSITE) {
          GET(fl, fl_end, v);
          e->callsite = c->callsite = c->callsite + (uint64_t)aug_unzigzag(v);
        }
        if (mask & M_HASH) {
          if (fl_end - fl < 8) goto bad_varint;
          e->hash = c->hash = aug_get_le64(fl);
          fl += 8;
        }
        if (mask & (M_CTR1 | M_CTR2 | M_CTR3)) {
          for (int k = 1; k < AUGUR_MAX_COUNTERS; k++) {
            if (mask & (M_CTR1 << (k - 1))) {
              GET(fl, fl_end, v);
              e->ctr[k] = c->ctr[k] = v;
            }
          }
        }
      }
    }
    if (aug_type_is_sub(type)) {
      e->t_start = ps;
      e->t_end = pe;
    } else {
      uint64_t gap, dur;
      column = "times";
      GET(tm, tm_end, gap);
      GET(tm, tm_end, dur);
      ps = e->t_start = prev_end + (uint64_t)aug_unzigzag(gap);
      pe = e->t_end = e->t_start + (uint64_t)aug_unzigzag(dur);
      prev_end = pe;
    }
    e->type = (uint16_t)type;
    e->thread = d->thread;
    e->rank = 0;
    prev_type = type;
  }
  d->op = op, d->tm = tm, d->fl = fl;
  d->prev_end = prev_end, d->ps = ps, d->pe = pe;
  d->prev_type = prev_type;
  d->done += n;
  *got = n;
  if (d->done == d->count && (op != op_end || tm != tm_end || fl != fl_end)) {
    snprintf(why, whylen,
             "%u records decoded but %td ops, %td times and %td fields bytes are left over",
             d->count, op_end - op, tm_end - tm, fl_end - fl);
    return AUGUR_E_FORMAT;
  }
  return AUGUR_OK;
bad_varint:
  *got = i;
  snprintf(why, whylen, "record %u of %u: %s column ends early or holds a bad varint", d->done + i,
           d->count, column);
  return AUGUR_E_FORMAT;
no_memory:
  *got = i;
  snprintf(why, whylen, "record %u of %u: out of memory for the context table", d->done + i,
           d->count);
  return AUGUR_E_NOMEM;
bad_type:
  *got = i;
  snprintf(why, whylen, "record %u of %u: escaped event type %u is not above 127 or is 255",
           d->done + i, d->count, op[-1]);
  return AUGUR_E_FORMAT;
bad_value:
  *got = i;
  snprintf(why, whylen, "record %u of %u: flags value out of range", d->done + i, d->count);
  return AUGUR_E_FORMAT;
}
