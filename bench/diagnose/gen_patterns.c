/* augur-bench-dx-gen's patterns beyond the 1-D halo: what issue 27's
 * bench/scale runs at every rank count, each with a problem put in on
 * purpose and what augur must say about it (--truth; bench/scale/run.py
 * checks). Rank L = nranks / 3 is the slow rank where there is one.
 * Messages take GEN_TRANSFER (2 us + bytes at 4 GB/s); collectives the rounds
 * of MPICH's algorithms on that network (sync_coll, rooted), so that
 * bench/scale/gen.machine makes `augur simulate`'s model the generator's.
 *
 *   halo3d     3-D torus (dims as MPI_Dims_create), Irecv/Isend to the six
 *              neighbours (8 KiB), Waitall, Allreduce. L computes 60 us more
 *              every iteration: its neighbours wait in the Waitall for its
 *              messages (the worst late-sender waits are theirs, most of the
 *              late-sender time is on its messages), and the others wait in
 *              the Allreduce for them (late arrival).
 *   master     rank 0 hands out tasks (MPI_Recv from MPI_ANY_SOURCE, 2 us of
 *              work per result, MPI_Send of the next task); a task is 1 us of
 *              work per worker, so the master is the bottleneck at any rank
 *              count: the workers wait for rank 0's sends (master_bound). The
 *              master's and the workers' receives share one call site (a
 *              receive routine both call).
 *   alltoall   compute, MPI_Alltoall (1 KiB per peer); L computes 20 us more,
 *              and half the Alltoall's own time more (p - 1 steps of 2.256
 *              us: 74 ms at 65,536 ranks), so that its share does not vanish
 *              at scale.
 *   wavefront  2-D grid swept forwards (receive from north and west, compute,
 *              send south and east) and backwards, as NPB LU; an Allreduce
 *              per iteration; L computes 10 us more per sweep.
 *   colls      collectives only: Allreduce, Bcast and Reduce (root 0), a
 *              Barrier every tenth iteration; L computes 100 us more before
 *              the Allreduce (more than the spread of the members' exits
 *              from the previous Reduce, up to 16 rounds of 2.256 us at
 *              65,536 ranks: with 10 us the root, leaving the Reduce last,
 *              was the late one from 16,384 ranks on), the root 10 us more
 *              before the Bcast. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

static uint64_t max64(uint64_t a, uint64_t b) {
  return a > b ? a : b;
}

/* N as K near-equal factors, largest first, as MPI_Dims_create. */
static void dims(uint32_t n, int k, uint32_t *d) {
  uint32_t f[32];
  int nf = 0;
  for (uint32_t p = 2; (uint64_t)p * p <= n; p++)
    while (n % p == 0)
      f[nf++] = p, n /= p;
  if (n > 1) f[nf++] = n;
  for (int i = 0; i < k; i++)
    d[i] = 1;
  for (int i = nf - 1; i >= 0; i--) { /* the largest factor to the smallest dimension */
    int s = 0;
    for (int j = 1; j < k; j++)
      if (d[j] < d[s]) s = j;
    d[s] *= f[i];
  }
  for (int i = 0; i < k; i++) /* descending */
    for (int j = i + 1; j < k; j++)
      if (d[j] > d[i]) {
        uint32_t t = d[i];
        d[i] = d[j], d[j] = t;
      }
}

static uint32_t slow_rank(uint32_t nranks) {
  return nranks / 3;
}

/* Scratch: each member's time through a collective's rounds. */
static uint64_t *cdone, *cnext;
static size_t ccap;

static int coll_scratch(uint32_t nranks) {
  if (nranks <= ccap) return 0;
  free(cdone), free(cnext);
  cdone = malloc(nranks * sizeof *cdone);
  cnext = malloc(nranks * sizeof *cnext);
  ccap = cdone && cnext ? nranks : 0;
  return ccap ? 0 : -1;
}

static void coll_free(void) {
  free(cdone), free(cnext);
  cdone = cnext = NULL;
  ccap = 0;
}

/* A synchronising collective as MPICH runs it on the generator's network, each member
 * leaving when its last round is done (the simulator's arithmetic, docs/simulate.md):
 * Allreduce, recursive doubling (the ranks past the largest power of two fold into the
 * first ones and get the result back); Barrier, dissemination; Alltoall, p - 1 pairwise
 * steps of 1 KiB, every member leaving after the last (each step waits for a member that
 * entered after it). */
static void sync_coll(rank_out *o, uint32_t nranks, unsigned type, uint64_t cs, uint64_t gap,
                      uint32_t late, uint64_t extra) {
  uint64_t last = gen_enter(o, nranks, gap, late, extra);
  for (uint32_t r = 0; r < nranks; r++)
    cdone[r] = o[r].wait_start;
  if (type == AUGUR_EV_ALLREDUCE) {
    uint32_t pof2 = 1;
    while (pof2 * 2 <= nranks)
      pof2 *= 2;
    for (uint32_t r = pof2; r < nranks; r++)
      cdone[r - pof2] = max64(cdone[r - pof2], cdone[r] + GEN_TRANSFER(8));
    for (uint32_t mask = 1; mask < pof2; mask *= 2) {
      for (uint32_t r = 0; r < pof2; r++)
        cnext[r] = max64(cdone[r], cdone[r ^ mask] + GEN_TRANSFER(8));
      memcpy(cdone, cnext, pof2 * sizeof *cdone);
    }
    for (uint32_t r = pof2; r < nranks; r++)
      cdone[r] = cdone[r - pof2] + GEN_TRANSFER(8);
  } else if (type == AUGUR_EV_BARRIER) {
    for (uint32_t step = 1; step < nranks; step *= 2) {
      for (uint32_t r = 0; r < nranks; r++)
        cnext[r] = max64(cdone[r], cdone[(r + nranks - step) % nranks] + GEN_TRANSFER(0));
      memcpy(cdone, cnext, nranks * sizeof *cdone);
    }
  } else {
    for (uint32_t r = 0; r < nranks; r++)
      cdone[r] = last + (uint64_t)(nranks - 1) * GEN_TRANSFER(1024);
  }
  gen_leave(o, nranks, type, cs, cdone, 0, 500, 100);
}

/* ---- halo3d ---- */

#define H3_BYTES 8192
static uint32_t h3d[3];

static int h3_start(uint32_t nranks) {
  dims(nranks, 3, h3d);
  return coll_scratch(nranks);
}

/* The neighbour of R one step along dimension K, forwards (dir 0) or back (1);
 * UINT32_MAX when that dimension has one rank. */
static uint32_t h3_nb(uint32_t r, int k, int dir) {
  uint32_t c[3] = {r / (h3d[1] * h3d[2]), r / h3d[2] % h3d[1], r % h3d[2]};
  if (h3d[k] < 2) return UINT32_MAX;
  c[k] = dir ? (c[k] + h3d[k] - 1) % h3d[k] : (c[k] + 1) % h3d[k];
  return (c[0] * h3d[1] + c[1]) * h3d[2] + c[2];
}

static void h3_iterate(rank_out *o, uint32_t nranks, uint64_t it, uint64_t iters) {
  (void)it, (void)iters;
  const uint32_t late = slow_rank(nranks);
  for (uint32_t r = 0; r < nranks; r++) {
    rank_out *p = &o[r];
    uint64_t t = p->now + gen_jitter(40000, 8000) + (r == late ? 60000 : 0);
    /* A message travelling in direction m (dimension m / 2, backwards when
     * odd) has tag m: a 2-rank dimension still matches each receive once. */
    for (int m = 0; m < 6; m++) {
      uint32_t from = h3_nb(r, m / 2, !(m & 1));
      if (from == UINT32_MAX) continue;
      augur_event *e = gen_put(p, AUGUR_EV_IRECV, t, t + gen_jitter(300, 100), CS_IRECV);
      e->peer = (int32_t)from, e->tag = m, e->bytes_recv = H3_BYTES, e->req = 0xac00 + m;
      t = e->t_end + gen_jitter(150, 50);
    }
    for (int m = 0; m < 6; m++) {
      uint32_t to = h3_nb(r, m / 2, m & 1);
      if (to == UINT32_MAX) continue;
      p->posted[m] = t;
      augur_event *e = gen_put(p, AUGUR_EV_ISEND, t, t + gen_jitter(800, 200), CS_ISEND);
      e->peer = (int32_t)to, e->tag = m, e->bytes = H3_BYTES, e->req = 0x6c00 + m;
      t = e->t_end + gen_jitter(150, 50);
    }
    p->wait_start = t;
  }
  for (uint32_t r = 0; r < nranks; r++) {
    rank_out *p = &o[r];
    uint64_t end = p->wait_start;
    uint32_t nreq = 0;
    for (int m = 0; m < 6; m++) {
      uint32_t from = h3_nb(r, m / 2, !(m & 1));
      if (from != UINT32_MAX) end = max64(end, o[from].posted[m] + GEN_TRANSFER(H3_BYTES)), nreq++;
    }
    end += gen_jitter(400, 100);
    augur_event *e = gen_put(p, AUGUR_EV_WAITALL, p->wait_start, end, CS_WAITALL);
    e->aux = 2 * nreq;
    uint32_t i = 0;
    for (int m = 0; m < 6; m++) {
      uint32_t from = h3_nb(r, m / 2, !(m & 1));
      if (from == UINT32_MAX) continue;
      e = gen_completion(p, 0xac00 + m, i++);
      e->peer = (int32_t)from, e->tag = m, e->bytes_recv = H3_BYTES;
    }
    for (int m = 0; m < 6; m++)
      if (h3_nb(r, m / 2, m & 1) != UINT32_MAX) gen_completion(p, 0x6c00 + m, i++);
    p->now = end;
  }
  sync_coll(o, nranks, AUGUR_EV_ALLREDUCE, CS_ALLREDUCE, 20000, UINT32_MAX, 0);
}

static int h3_truth(char *buf, size_t n, uint32_t nranks) {
  uint32_t L = slow_rank(nranks), nb[6], k = 0;
  h3_start(nranks);
  for (int m = 0; m < 6; m++) {
    uint32_t x = h3_nb(L, m / 2, m & 1);
    if (x != UINT32_MAX) nb[k++] = x;
  }
  char list[96] = "";
  for (uint32_t i = 0; i < k; i++)
    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%u", i ? "," : "", nb[i]);
  return snprintf(buf, n,
                  "\"dims\":[%u,%u,%u],\"slow_rank\":%u,\"expect\":["
                  "{\"patterns\":[\"late_arrival\"],\"callsite\":%d,"
                  "\"upstream\":\"late_sender\"},"
                  "{\"patterns\":[\"late_sender\"],\"callsite\":%d,\"worst_ranks\":[%s],"
                  "\"top_partner\":%u}]",
                  h3d[0], h3d[1], h3d[2], L, CS_ALLREDUCE, CS_WAITALL, list, L);
}

/* ---- master/worker ---- */

#define MW_BYTES 1024
/* Workers waiting for the master: a binary heap by their result's arrival
 * (then rank), and each worker's tasks still to do. */
static uint64_t *mw_key;
static uint32_t *mw_rank, mw_n, *mw_left;

static int mw_less(uint32_t a, uint32_t b) {
  return mw_key[a] < mw_key[b] || (mw_key[a] == mw_key[b] && mw_rank[a] < mw_rank[b]);
}

static void mw_swap(uint32_t a, uint32_t b) {
  uint64_t k = mw_key[a];
  uint32_t r = mw_rank[a];
  mw_key[a] = mw_key[b], mw_rank[a] = mw_rank[b];
  mw_key[b] = k, mw_rank[b] = r;
}

static void mw_push(uint64_t key, uint32_t rank) {
  uint32_t i = mw_n++;
  mw_key[i] = key, mw_rank[i] = rank;
  while (i && mw_less(i, (i - 1) / 2))
    mw_swap(i, (i - 1) / 2), i = (i - 1) / 2;
}

static uint32_t mw_pop(void) {
  uint32_t r = mw_rank[0];
  mw_swap(0, --mw_n);
  for (uint32_t i = 0;;) {
    uint32_t c = 2 * i + 1;
    if (c >= mw_n) break;
    if (c + 1 < mw_n && mw_less(c + 1, c)) c++;
    if (!mw_less(c, i)) break;
    mw_swap(c, i), i = c;
  }
  return r;
}

static int mw_start(uint32_t nranks) {
  if (coll_scratch(nranks)) return -1;
  free(mw_key), free(mw_rank), free(mw_left);
  mw_key = malloc(nranks * sizeof *mw_key);
  mw_rank = malloc(nranks * sizeof *mw_rank);
  mw_left = malloc(nranks * sizeof *mw_left);
  mw_n = 0;
  return mw_key && mw_rank && mw_left ? 0 : -1;
}

static void mw_stop(void) {
  coll_free();
  free(mw_key), free(mw_rank), free(mw_left);
  mw_key = NULL, mw_rank = NULL, mw_left = NULL;
}

/* Worker W computes its task (1 us per worker) and sends the result. */
static void mw_work(rank_out *o, uint32_t nranks, uint32_t w) {
  rank_out *p = &o[w];
  uint64_t t = p->now + gen_jitter(1000ull * (nranks - 1), 200ull * (nranks - 1));
  augur_event *e = gen_put(p, AUGUR_EV_SEND, t, t + gen_jitter(800, 200), CS_SEND);
  e->peer = 0, e->tag = 1, e->bytes = MW_BYTES;
  p->now = e->t_end;
  mw_push(t + GEN_TRANSFER(MW_BYTES), w);
}

/* One round: as many results served, in the order they arrive, as there
 * are workers. Every worker does ITERS tasks. */
static void mw_iterate(rank_out *o, uint32_t nranks, uint64_t it, uint64_t iters) {
  if (it == 0)
    for (uint32_t w = 1; w < nranks; w++) {
      mw_left[w] = (uint32_t)iters;
      mw_work(o, nranks, w);
    }
  rank_out *m = &o[0];
  for (uint32_t k = 1; k < nranks && mw_n; k++) {
    uint64_t arrived = mw_key[0];
    uint32_t w = mw_pop();
    augur_event *e = gen_put(m, AUGUR_EV_RECV, m->now + gen_jitter(150, 50), 0, CS_RECV);
    e->t_end = max64(e->t_start, arrived) + gen_jitter(300, 100);
    e->peer = (int32_t)w, e->tag = 1, e->bytes_recv = MW_BYTES, e->flags = AUGUR_F_ANY_SOURCE;
    uint64_t t = e->t_end + gen_jitter(2000, 400); /* the master's work on the result */
    e = gen_put(m, AUGUR_EV_SEND, t, t + gen_jitter(800, 200), CS_SEND);
    e->peer = (int32_t)w, e->tag = 2, e->bytes = MW_BYTES;
    m->now = e->t_end;
    rank_out *p = &o[w]; /* the worker's receive of its next task (or of the stop) */
    uint64_t post = p->now + gen_jitter(150, 50);
    e = gen_put(p, AUGUR_EV_RECV, post, 0, CS_RECV);
    e->t_end = max64(post, t + GEN_TRANSFER(MW_BYTES)) + gen_jitter(300, 100);
    e->peer = 0, e->tag = 2, e->bytes_recv = MW_BYTES;
    p->now = e->t_end;
    if (--mw_left[w]) mw_work(o, nranks, w);
  }
}

static int mw_truth(char *buf, size_t n, uint32_t nranks) {
  return snprintf(buf, n,
                  "\"expect\":[{\"patterns\":[\"master_bound\"],\"callsite\":%d,"
                  "\"names_rank\":0,\"min_ranks\":%u}]",
                  CS_RECV, nranks - 1);
}

/* ---- alltoall ---- */

static void a2a_iterate(rank_out *o, uint32_t nranks, uint64_t it, uint64_t iters) {
  (void)it, (void)iters;
  const uint32_t late = slow_rank(nranks);
  for (uint32_t r = 0; r < nranks; r++)
    o[r].now += gen_jitter(40000, 8000);
  sync_coll(o, nranks, AUGUR_EV_ALLTOALL, CS_ALLTOALL, 2000, late,
            20000 + (uint64_t)(nranks - 1) * GEN_TRANSFER(1024) / 2);
}

static int a2a_truth(char *buf, size_t n, uint32_t nranks) {
  return snprintf(buf, n,
                  "\"slow_rank\":%u,\"expect\":[{\"patterns\":[\"load_imbalance\"],"
                  "\"callsite\":%d,\"names_rank\":%u}]",
                  slow_rank(nranks), CS_ALLTOALL, slow_rank(nranks));
}

/* ---- wavefront ---- */

#define WF_BYTES 1024
static uint32_t wfd[2];

static int wf_start(uint32_t nranks) {
  dims(nranks, 2, wfd);
  return coll_scratch(nranks);
}

/* A blocking receive of R from FROM (tag TAG) posted at T of a message that
 * left at SENT; returns its end. */
static uint64_t wf_recv(rank_out *p, uint32_t from, int tag, uint64_t t, uint64_t sent, int cs) {
  augur_event *e = gen_put(p, AUGUR_EV_RECV, t, 0, (uint64_t)cs);
  e->t_end = max64(t, sent + GEN_TRANSFER(WF_BYTES)) + gen_jitter(300, 100);
  e->peer = (int32_t)from, e->tag = tag, e->bytes_recv = WF_BYTES;
  return e->t_end;
}

static uint64_t wf_send(rank_out *p, uint32_t to, int tag, uint64_t t, int cs) {
  augur_event *e = gen_put(p, AUGUR_EV_SEND, t, t + gen_jitter(800, 200), (uint64_t)cs);
  e->peer = (int32_t)to, e->tag = tag, e->bytes = WF_BYTES;
  return e->t_end;
}

/* One sweep: BACK 0 from (0,0) (receive from north and west, send south and
 * east), 1 the mirror. posted[k]: when the send in direction k started. */
static void wf_sweep(rank_out *o, uint32_t nranks, int back) {
  const uint32_t late = slow_rank(nranks), X = wfd[0], Y = wfd[1];
  int recv_cs = back ? CS_RECV_BACK : CS_RECV, send_cs = back ? CS_SEND_BACK : CS_SEND;
  for (uint32_t k = 0; k < nranks; k++) {
    uint32_t r = back ? nranks - 1 - k : k, i = r / Y, j = r % Y;
    rank_out *p = &o[r];
    uint64_t t = p->now + gen_jitter(200, 50);
    int has_up = back ? i + 1 < X : i > 0, has_left = back ? j + 1 < Y : j > 0;
    int has_down = back ? i > 0 : i + 1 < X, has_right = back ? j > 0 : j + 1 < Y;
    uint32_t up = back ? r + Y : r - Y, left = back ? r + 1 : r - 1;
    uint32_t down = back ? r - Y : r + Y, right = back ? r - 1 : r + 1;
    if (has_up) t = wf_recv(p, up, 2 * back, t + gen_jitter(150, 50), o[up].posted[0], recv_cs);
    if (has_left)
      t = wf_recv(p, left, 2 * back + 1, t + gen_jitter(150, 50), o[left].posted[1], recv_cs);
    t += gen_jitter(10000, 2000) + (r == late ? 10000 : 0);
    p->posted[0] = t;
    if (has_down) t = wf_send(p, down, 2 * back, t, send_cs) + gen_jitter(150, 50);
    p->posted[1] = t;
    if (has_right) t = wf_send(p, right, 2 * back + 1, t, send_cs);
    p->now = t;
  }
}

static void wf_iterate(rank_out *o, uint32_t nranks, uint64_t it, uint64_t iters) {
  (void)it, (void)iters;
  wf_sweep(o, nranks, 0);
  wf_sweep(o, nranks, 1);
  sync_coll(o, nranks, AUGUR_EV_ALLREDUCE, CS_ALLREDUCE, 2000, UINT32_MAX, 0);
}

static int wf_truth(char *buf, size_t n, uint32_t nranks) {
  wf_start(nranks);
  return snprintf(buf, n,
                  "\"dims\":[%u,%u],\"slow_rank\":%u,\"expect\":[{\"patterns\":"
                  "[\"late_sender\",\"blocked_sender\"],\"callsite\":%d}]",
                  wfd[0], wfd[1], slow_rank(nranks), CS_RECV);
}

/* ---- colls ---- */

/* A rooted collective from root 0 as MPICH's binomial tree (rank r's parent is r less
 * its lowest set bit): a Bcast member has the data when both it and its parent are in
 * (ranks ascending), a Reduce member leaves when its children's data is in (descending);
 * each then leaves after its own sends (0.5 us). */
static void rooted(rank_out *o, uint32_t nranks, unsigned type, uint64_t cs, uint64_t gap,
                   uint32_t late, uint64_t extra) {
  uint64_t *done = cdone;
  gen_enter(o, nranks, gap, late, extra);
  for (uint32_t r = 0; r < nranks; r++)
    done[r] = o[r].wait_start;
  const uint64_t T = GEN_TRANSFER(1024);
  if (type == AUGUR_EV_BCAST)
    for (uint32_t r = 1; r < nranks; r++)
      done[r] = max64(done[r], done[r - (r & (0u - r))] + T);
  else
    for (uint32_t r = nranks - 1; r > 0; r--) {
      uint32_t parent = r - (r & (0u - r));
      done[parent] = max64(done[parent], done[r] + T);
    }
  for (uint32_t r = 0; r < nranks; r++) {
    uint64_t end = done[r] + gen_jitter(500, 100);
    augur_event *e = gen_put(&o[r], type, o[r].wait_start, end, cs);
    e->peer = 0;
    e->flags = r ? 0 : AUGUR_F_ROOT;
    e->bytes = type == AUGUR_EV_BCAST ? (r ? 0 : 1024) : 1024;
    e->bytes_recv = type == AUGUR_EV_BCAST ? (r ? 1024 : 0) : (r ? 0 : 1024);
    o[r].now = end;
  }
}

static void colls_iterate(rank_out *o, uint32_t nranks, uint64_t it, uint64_t iters) {
  (void)iters;
  sync_coll(o, nranks, AUGUR_EV_ALLREDUCE, CS_ALLREDUCE, 20000, slow_rank(nranks), 100000);
  rooted(o, nranks, AUGUR_EV_BCAST, CS_BCAST, 5000, 0, 10000);
  rooted(o, nranks, AUGUR_EV_REDUCE, CS_REDUCE, 5000, UINT32_MAX, 0);
  if (it % 10 == 9) sync_coll(o, nranks, AUGUR_EV_BARRIER, CS_BARRIER, 2000, UINT32_MAX, 0);
}

static int colls_truth(char *buf, size_t n, uint32_t nranks) {
  return snprintf(buf, n,
                  "\"slow_rank\":%u,\"expect\":["
                  "{\"patterns\":[\"load_imbalance\"],\"callsite\":%d,\"names_rank\":%u},"
                  "{\"patterns\":[\"late_broadcast\"],\"callsite\":%d,\"names_rank\":0}]",
                  slow_rank(nranks), CS_ALLREDUCE, slow_rank(nranks), CS_BCAST);
}

static void no_stop(void) {
  coll_free();
}

static const gen_pattern patterns[] = {
    {"halo3d", 26, h3_iterate, h3_start, no_stop, h3_truth},
    {"master", 4, mw_iterate, mw_start, mw_stop, mw_truth},
    {"alltoall", 1, a2a_iterate, coll_scratch, no_stop, a2a_truth},
    {"wavefront", 9, wf_iterate, wf_start, no_stop, wf_truth},
    {"colls", 3, colls_iterate, coll_scratch, no_stop, colls_truth},
};

const gen_pattern *gen_pattern_named(const char *name) {
  for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++)
    if (!strcmp(patterns[i].name, name)) return &patterns[i];
  return NULL;
}

const char *gen_pattern_names(void) {
  return "halo (default), halo3d, master, alltoall, wavefront, colls";
}
