/* Collective algorithms as per-member step lists, after MPICH's choices
 * (docs/simulate.md "Collectives"). A step sends and receives at once and
 * ends when both are done; both ends of every message compute the same
 * (pair, tag), which is how the simulator pairs them. */
#include "sim_int.h"

typedef struct steps {
  sim_step *out;
  size_t n, max;
  const sim_comm *c;
} steps;

static void push(steps *s, int32_t to, uint64_t sbytes, int32_t from, uint64_t rbytes,
                 uint32_t tag) {
  if (s->n < s->max) {
    sim_step *st = &s->out[s->n];
    st->together = 0;
    st->to = to >= 0 ? (int32_t)s->c->members[to] : -1;
    st->from = from >= 0 ? (int32_t)s->c->members[from] : -1;
    st->sbytes = sbytes;
    st->rbytes = rbytes;
    st->tag = tag;
  }
  s->n++;
}

/* MPICH's MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE (bytes a peer). */
#define ALLTOALL_MEDIUM 32768

static int32_t abs_rank(int32_t vr, int32_t root, int32_t p) {
  return (vr + root) % p;
}

/* What a tree edge carries: BYTES, or with SUBTREE BYTES per rank of the
 * subtree below it (MASK ranks, fewer when only REST are left). */
static uint64_t edge_bytes(uint64_t bytes, int subtree, int32_t mask, int32_t rest) {
  return subtree ? bytes * (uint64_t)(mask < rest ? mask : rest) : bytes;
}

/* Binomial tree from ROOT; each edge carries per-leaf BYTES times the
 * receiving subtree's size when SUBTREE (scatter), else BYTES (bcast). */
static void binomial_down(steps *s, int32_t me, int32_t root, int32_t p, uint64_t bytes,
                          int subtree, uint32_t tag) {
  int32_t vr = (me - root + p) % p, mask = 1;
  while (mask < p) {
    if (vr & mask) {
      push(s, -1, 0, abs_rank(vr - mask, root, p), edge_bytes(bytes, subtree, mask, p - vr), tag);
      break;
    }
    mask <<= 1;
  }
  mask >>= 1;
  while (mask > 0) {
    if (vr + mask < p) {
      int32_t child = vr + mask;
      push(s, abs_rank(child, root, p), edge_bytes(bytes, subtree, mask, p - child), -1, 0, tag);
    }
    mask >>= 1;
  }
}

/* Binomial tree towards ROOT (reduce, gather: SUBTREE grows the payload). */
static void binomial_up(steps *s, int32_t me, int32_t root, int32_t p, uint64_t bytes, int subtree,
                        uint32_t tag) {
  int32_t vr = (me - root + p) % p, mask = 1;
  while (mask < p) {
    if ((vr & mask) == 0) {
      int32_t src = vr | mask;
      if (src < p)
        push(s, -1, 0, abs_rank(src, root, p), edge_bytes(bytes, subtree, mask, p - src), tag);
    } else {
      push(s, abs_rank(vr & ~mask, root, p), edge_bytes(bytes, subtree, mask, p - vr), -1, 0, tag);
      break;
    }
    mask <<= 1;
  }
}

/* Ring: P-1 steps, each sends CHUNK right and receives CHUNK from the left. */
static void ring(steps *s, int32_t me, int32_t p, uint64_t chunk, uint32_t tag0) {
  for (int32_t k = 0; k < p - 1; k++)
    push(s, (me + 1) % p, chunk, (me - 1 + p) % p, chunk, tag0 + (uint32_t)k);
}

static int is_pow2(int32_t p) {
  return p > 0 && (p & (p - 1)) == 0;
}

/* Recursive doubling with MPICH's fold of the ranks beyond a power of two. */
static void rec_doubling(steps *s, int32_t me, int32_t p, uint64_t bytes) {
  int32_t pof2 = 1;
  while (pof2 * 2 <= p)
    pof2 *= 2;
  int32_t rem = p - pof2, newrank;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      push(s, me + 1, bytes, -1, 0, 0);
      newrank = -1;
    } else {
      push(s, -1, 0, me - 1, bytes, 0);
      newrank = me / 2;
    }
  } else {
    newrank = me - rem;
  }
  if (newrank >= 0) {
    uint32_t round = 1;
    for (int32_t mask = 1; mask < pof2; mask <<= 1, round++) {
      int32_t nd = newrank ^ mask;
      int32_t dst = nd < rem ? nd * 2 + 1 : nd + rem;
      push(s, dst, bytes, dst, bytes, round);
    }
  }
  if (me < 2 * rem) {
    if (me % 2)
      push(s, me - 1, bytes, -1, 0, 1000);
    else
      push(s, -1, 0, me + 1, bytes, 1000);
  }
}

static unsigned blocking_type(unsigned type) {
  return type >= AUGUR_EV_IBARRIER && type <= AUGUR_EV_IEXSCAN ? type - 20 : type;
}

int sim_coll_waits_all(unsigned type) {
  unsigned bt = blocking_type(type);
  /* not trees (a leaf's eager send waits for no one) nor scans (rank 0) */
  return augur_event_is_comm_mgmt(bt) || augur_event_is_io(bt) || augur_event_is_rma(bt) ||
         bt == AUGUR_EV_BARRIER || augur_event_is_nxn(bt);
}

size_t sim_coll_steps(const augur_machine *m, unsigned type, const sim_comm *c, uint32_t me,
                      int32_t root, uint64_t bytes, sim_step *out, size_t max) {
  int rotates;
  return sim_coll_steps_rot(m, type, c, me, root, bytes, out, max, &rotates);
}

size_t sim_coll_steps_rot(const augur_machine *m, unsigned type, const sim_comm *c, uint32_t me_u,
                          int32_t root, uint64_t bytes, sim_step *out, size_t max, int *rotates) {
  steps s = {out, 0, max, c};
  int32_t p = (int32_t)c->size, me = (int32_t)me_u;
  *rotates = 0;
  if (p <= 1) return 0;
  if (root < 0 || root >= p) root = 0;
  uint64_t chunk = (bytes + (uint64_t)p - 1) / (uint64_t)p;
  unsigned bt = blocking_type(type);
  if (augur_event_is_comm_mgmt(bt)) bt = AUGUR_EV_BARRIER; /* communicator creation */
  if (augur_event_is_io(bt) || augur_event_is_rma(bt)) bt = AUGUR_EV_BARRIER; /* graph_iorma.c */
  switch (bt) {
  case AUGUR_EV_BARRIER: {
    uint32_t round = 0;
    for (int32_t mask = 1; mask < p; mask <<= 1, round++)
      push(&s, (me + mask) % p, 0, (me - mask + p) % p, 0, round);
    *rotates = 1;
    break;
  }
  case AUGUR_EV_BCAST:
    if (bytes < m->bcast_short || p < 8) {
      binomial_down(&s, me, root, p, bytes, 0, 0);
    } else { /* scatter + ring allgather (MPICH's long-message bcast) */
      binomial_down(&s, me, root, p, chunk, 1, 0);
      ring(&s, me, p, chunk, 1);
    }
    break;
  case AUGUR_EV_REDUCE:
    binomial_up(&s, me, root, p, bytes, 0, 0);
    break;
  case AUGUR_EV_ALLREDUCE:
    if (bytes <= m->allreduce_short || bytes < (uint64_t)p) {
      rec_doubling(&s, me, p, bytes);
    } else { /* ring reduce-scatter, then ring allgather */
      ring(&s, me, p, chunk, 0);
      ring(&s, me, p, chunk, (uint32_t)p);
      *rotates = 1;
    }
    break;
  case AUGUR_EV_ALLGATHER:
  case AUGUR_EV_ALLGATHERV:
    if (is_pow2(p) && bytes * (uint64_t)p < m->allgather_long) {
      uint32_t round = 0;
      for (int32_t mask = 1; mask < p; mask <<= 1, round++)
        push(&s, me ^ mask, bytes * (uint64_t)mask, me ^ mask, bytes * (uint64_t)mask, round);
    } else {
      ring(&s, me, p, bytes, 0);
      *rotates = 1;
    }
    break;
  case AUGUR_EV_GATHER:
  case AUGUR_EV_GATHERV:
    binomial_up(&s, me, root, p, bytes, 1, 0);
    break;
  case AUGUR_EV_SCATTER:
  case AUGUR_EV_SCATTERV:
    binomial_down(&s, me, root, p, bytes, 1, 0);
    break;
  case AUGUR_EV_ALLTOALL:
  case AUGUR_EV_ALLTOALLV:
  case AUGUR_EV_ALLTOALLW:
    /* MPICH: Alltoallv/w and Alltoall up to 32 KiB a peer (medium_msg_size)
     * "scattered" (all at once), larger Alltoall pairwise; Bruck's (short
     * ones from 8 ranks) is not modelled. Followed under time slices only. */
    for (int32_t i = 1; i < p; i++) {
      push(&s, (me + i) % p, bytes, (me - i + p) % p, bytes, (uint32_t)i);
      if (s.n <= s.max && (type != AUGUR_EV_ALLTOALL || bytes <= ALLTOALL_MEDIUM))
        s.out[s.n - 1].together = 1;
    }
    *rotates = 1;
    break;
  case AUGUR_EV_REDUCE_SCATTER:
  case AUGUR_EV_REDUCE_SCATTER_BLOCK:
    ring(&s, me, p, chunk, 0);
    *rotates = 1;
    break;
  case AUGUR_EV_SCAN:
  case AUGUR_EV_EXSCAN: {
    uint32_t round = 0;
    for (int32_t mask = 1; mask < p; mask <<= 1, round++)
      push(&s, me + mask < p ? me + mask : -1, bytes, me - mask >= 0 ? me - mask : -1, bytes,
           round);
    break;
  }
  default:
    break;
  }
  return s.n;
}
