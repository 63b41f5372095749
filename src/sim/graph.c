/* Execution graph container: per-rank operation arrays, the message table,
 * the wait lists and the communicators. Everything is a flat growable array
 * so a graph costs 32 bytes per operation plus 16 per message and 4 per
 * waited request (docs/simulate.md "Memory"). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "augur/report.h"
#include "mix.h"
#include "sim_int.h"

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

uint64_t sim_splitmix(uint64_t *x) {
  return aug_mix64(*x += 0x9e3779b97f4a7c15ull);
}

augur_sim_graph *augur_sim_graph_new(uint32_t nranks) {
  if (nranks == 0) return NULL;
  augur_sim_graph *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->nranks = nranks;
  g->ranks = calloc(nranks, sizeof *g->ranks);
  if (!g->ranks) {
    free(g);
    return NULL;
  }
  g->measured = -1;
  return g;
}

void augur_sim_graph_free(augur_sim_graph *g) {
  if (!g) return;
  for (uint32_t r = 0; r < g->nranks; r++) {
    free(g->ranks[r].ops);
    free(g->ranks[r].wl); /* streaming's own wait lists */
  }
  free(g->ranks);
  free(g->msgs);
  free(g->waits);
  for (size_t i = 0; i < g->ncomms; i++) {
    free(g->comms[i].members);
    free(g->comms[i].byworld);
  }
  free(g->comms);
  free(g);
}

uint32_t augur_sim_graph_nranks(const augur_sim_graph *g) {
  return g->nranks;
}

size_t augur_sim_graph_nops(const augur_sim_graph *g, uint32_t rank) {
  return rank < g->nranks ? g->ranks[rank].n : 0;
}

const augur_sim_op *augur_sim_graph_ops(const augur_sim_graph *g, uint32_t rank) {
  return rank < g->nranks ? g->ranks[rank].ops : NULL;
}

void augur_sim_graph_stats_get(const augur_sim_graph *g, augur_sim_graph_stats *s) {
  memset(s, 0, sizeof *s);
  s->nranks = g->nranks;
  uint64_t bytes = sizeof *g + g->nranks * sizeof *g->ranks;
  for (uint32_t r = 0; r < g->nranks; r++) {
    const sim_rank_ops *ro = &g->ranks[r];
    s->ops += ro->n;
    bytes += ro->cap * sizeof *ro->ops;
    for (size_t i = 0; i < ro->n; i++) {
      const augur_sim_op *op = &ro->ops[i];
      if (op->kind == AUGUR_SIM_COMPUTE) s->compute_ops++;
      if (op->kind == AUGUR_SIM_WAIT) s->waits++;
      if (op->flags & AUGUR_SIM_F_UNMATCHED) s->unmatched++;
    }
  }
  bytes += g->msg_cap * sizeof *g->msgs + g->wait_cap * sizeof *g->waits;
  for (size_t i = 0; i < g->ncomms; i++)
    bytes += g->comms[i].size * sizeof(uint32_t);
  s->messages = g->nmsgs;
  s->collectives = g->ninstances;
  s->trace_events = g->trace_events;
  s->bytes = bytes;
  s->measured_seconds = g->measured;
  sim_graph_iorma_stats(g, NULL, 0, s);
}

int64_t augur_sim_add_op(augur_sim_graph *g, uint32_t rank, const augur_sim_op *op) {
  if (rank >= g->nranks) return -1;
  sim_rank_ops *ro = &g->ranks[rank];
  if (ro->n >= UINT32_MAX - 1) return -1; /* op indices are 32-bit in wait lists */
  if (aug_grow((void **)&ro->ops, &ro->cap, ro->n + 1, sizeof *ro->ops)) return -1;
  ro->ops[ro->n] = *op;
  return (int64_t)ro->n++;
}

int64_t augur_sim_add_compute(augur_sim_graph *g, uint32_t rank, double seconds) {
  augur_sim_op op = {0};
  op.kind = AUGUR_SIM_COMPUTE;
  op.a = seconds > 0 ? (uint64_t)(seconds * 1e9 + 0.5) : 0;
  return augur_sim_add_op(g, rank, &op);
}

int64_t augur_sim_add_message(augur_sim_graph *g, uint32_t sender, uint32_t receiver,
                              uint64_t bytes, unsigned flags) {
  if (sender >= g->nranks || receiver >= g->nranks) return -1;
  if (aug_grow((void **)&g->msgs, &g->msg_cap, g->nmsgs + 1, sizeof *g->msgs)) return -1;
  augur_sim_msg *m = &g->msgs[g->nmsgs];
  m->bytes = bytes;
  m->sender = sender;
  m->receiver = receiver;
  m->flags = flags & (AUGUR_SIM_MSG_SYNC | AUGUR_SIM_MSG_FRESH | AUGUR_SIM_MSG_UNTOUCHED);
  return (int64_t)g->nmsgs++;
}

static int64_t add_end(augur_sim_graph *g, uint32_t rank, uint64_t msg, unsigned flags, int send) {
  if (msg >= g->nmsgs) return -1;
  const augur_sim_msg *m = &g->msgs[msg];
  if ((send ? m->sender : m->receiver) != rank) return -1;
  augur_sim_op op = {0};
  op.kind = send ? AUGUR_SIM_SEND : AUGUR_SIM_RECV;
  op.type = send ? (flags & AUGUR_SIM_F_NONBLOCKING ? AUGUR_EV_ISEND : AUGUR_EV_SEND)
                 : (flags & AUGUR_SIM_F_NONBLOCKING ? AUGUR_EV_IRECV : AUGUR_EV_RECV);
  op.a = msg;
  op.b = m->bytes;
  op.peer = (int32_t)(send ? m->receiver : m->sender);
  op.flags = (uint8_t)flags;
  return augur_sim_add_op(g, rank, &op);
}

int64_t augur_sim_add_send(augur_sim_graph *g, uint32_t rank, uint64_t msg, unsigned flags) {
  return add_end(g, rank, msg, flags, 1);
}

int64_t augur_sim_add_recv(augur_sim_graph *g, uint32_t rank, uint64_t msg, unsigned flags) {
  return add_end(g, rank, msg, flags, 0);
}

int64_t sim_add_waitlist(augur_sim_graph *g, const uint32_t *ops, uint32_t n) {
  if (aug_grow((void **)&g->waits, &g->wait_cap, g->nwaits + n, sizeof *g->waits)) return -1;
  memcpy(g->waits + g->nwaits, ops, n * sizeof *ops);
  int64_t first = (int64_t)g->nwaits;
  g->nwaits += n;
  return first;
}

int64_t augur_sim_add_wait(augur_sim_graph *g, uint32_t rank, const uint32_t *ops, uint32_t n) {
  if (rank >= g->nranks) return -1;
  for (uint32_t i = 0; i < n; i++) {
    if (ops[i] >= g->ranks[rank].n) return -1;
    const augur_sim_op *o = &g->ranks[rank].ops[ops[i]];
    if (o->kind != AUGUR_SIM_SEND && o->kind != AUGUR_SIM_RECV) return -1;
  }
  int64_t first = sim_add_waitlist(g, ops, n);
  if (first < 0) return -1;
  augur_sim_op op = {0};
  op.kind = AUGUR_SIM_WAIT;
  op.type = n == 1 ? AUGUR_EV_WAIT : AUGUR_EV_WAITALL;
  op.a = (uint64_t)first;
  op.b = n;
  return augur_sim_add_op(g, rank, &op);
}

int64_t augur_sim_add_comm(augur_sim_graph *g, const uint32_t *members, uint32_t n) {
  if (n == 0) return -1;
  for (uint32_t i = 0; i < n; i++)
    if (members[i] >= g->nranks) return -1;
  if (aug_grow((void **)&g->comms, &g->comm_cap, g->ncomms + 1, sizeof *g->comms)) return -1;
  uint32_t *m = malloc(n * sizeof *m);
  uint64_t *bw = malloc(n * sizeof *bw);
  if (!m || !bw) {
    free(m);
    free(bw);
    return -1;
  }
  memcpy(m, members, n * sizeof *m);
  for (uint32_t i = 0; i < n; i++)
    bw[i] = (uint64_t)members[i] << 32 | i;
  qsort(bw, n, sizeof *bw, cmp_u64);
  sim_comm *c = &g->comms[g->ncomms];
  c->id = 0;
  c->size = n;
  c->members = m;
  c->byworld = bw;
  return (int64_t)g->ncomms++;
}

int64_t sim_comm_rank(const sim_comm *c, uint32_t world) {
  assert(c && c->byworld);
  /* the first entry above every (WORLD, comm rank) */
  const uint64_t key = (uint64_t)world << 32 | UINT32_MAX;
  size_t lo = 0, hi = c->size;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (c->byworld[mid] <= key)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || c->byworld[lo - 1] >> 32 != world) return -1;
  return (int64_t)(c->byworld[lo - 1] & UINT32_MAX);
}

int64_t augur_sim_add_coll(augur_sim_graph *g, uint32_t rank, unsigned type, uint32_t comm,
                           int32_t root, uint64_t bytes, uint64_t instance) {
  if (comm >= g->ncomms || !augur_event_is_collective(type)) return -1;
  augur_sim_op op = {0};
  op.kind = AUGUR_SIM_COLL;
  op.type = (uint16_t)type;
  op.comm = comm;
  op.peer = root;
  op.a = instance;
  op.b = bytes;
  if (instance != AUGUR_SIM_NONE && instance >= g->ninstances) g->ninstances = instance + 1;
  return augur_sim_add_op(g, rank, &op);
}

/* ---- What-if: call-site compute scaling --------------------------------- */

static uint64_t scaled_ns(uint64_t ns, double factor) {
  double v = (double)ns / factor;
  return v >= 0x1p64 ? UINT64_MAX : (uint64_t)(v + 0.5);
}

void sim_scale_compute(augur_sim_op *op, double factor) {
  op->a = scaled_ns(op->a, factor);
  if (op->flags & AUGUR_SIM_F_CPU) op->b = scaled_ns(op->b, factor);
}

int64_t augur_sim_graph_scale_site(augur_sim_graph *g, uint32_t site, double factor) {
  if (!(factor > 0) || factor > 1e300) return -1;
  int64_t changed = 0;
  for (uint32_t r = 0; r < g->nranks; r++) {
    sim_rank_ops *ro = &g->ranks[r];
    /* Only the first operation of a call counts (a Sendrecv is a send, a
     * receive and a wait of the same site); the operation before it is the
     * compute that led to the call, if there was any. */
    for (size_t i = 1; i < ro->n; i++) {
      augur_sim_op *op = &ro->ops[i], *prev = &ro->ops[i - 1];
      if (op->callsite != site || op->kind == AUGUR_SIM_COMPUTE || prev->kind != AUGUR_SIM_COMPUTE)
        continue;
      sim_scale_compute(prev, factor);
      changed++;
    }
  }
  return changed;
}

/* SPEC against the printed form "function (file.c:LINE)": the whole text,
 * the function alone, or "file.c:LINE". */
static int site_matches(const char *printed, const char *spec) {
  if (!strcmp(printed, spec)) return 1;
  const char *paren = NULL; /* the last " (": function names may hold one */
  for (const char *p = strstr(printed, " ("); p; p = strstr(p + 1, " ("))
    paren = p;
  if (!paren) return 0;
  size_t flen = (size_t)(paren - printed);
  if (strlen(spec) == flen && !strncmp(printed, spec, flen)) return 1;
  const char *loc = paren + 2;
  size_t llen = strlen(loc);
  return llen > 1 && loc[llen - 1] == ')' && strlen(spec) == llen - 1 &&
         !strncmp(loc, spec, llen - 1);
}

size_t augur_sim_find_sites(augur_trace *t, const char *spec, uint32_t *ids, size_t max) {
  size_t n = augur_trace_ncallsites(t), found = 0;
  char *end;
  unsigned long id = strtoul(spec, &end, 10);
  if (*spec >= '0' && *spec <= '9' && !*end) {
    if (id < 1 || id > n) return 0;
    if (max) ids[0] = (uint32_t)id;
    return 1;
  }
  for (size_t i = 1; i <= n; i++) {
    char buf[512];
    augur_fmt_callsite(buf, sizeof buf, t, (uint32_t)i);
    if (!site_matches(buf, spec)) continue;
    if (found < max) ids[found] = (uint32_t)i;
    found++;
  }
  return found;
}
