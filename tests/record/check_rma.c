/* The "rma" scenario (rec_rma.c): every one-sided record of every rank, in
 * order, with its exact fields; the window and group definitions. Included
 * by check_record.c (its load_rank, CHECK). */
#include "augur/mpiio.h"

enum { RIGHT = -100, LEFT = -101, NONE = AUGUR_PEER_NONE, TN = AUGUR_TAG_NONE };
enum { W_COMM = 9 }; /* rma_want.win: comm is the creating communicator, req the window */

typedef struct rma_want {
  unsigned type;
  int win; /* 0..3 = window A..D in comm; W_COMM + k: creates window k */
  int32_t peer, tag;
  uint32_t aux;
  uint64_t bytes, bytes_recv;
} rma_want;

#define A_EXCL AUGUR_RMA_LOCK_EXCLUSIVE
#define A_SHRD AUGUR_RMA_LOCK_SHARED
static const rma_want rma_seq[] = {
    {AUGUR_EV_WIN_CREATE, W_COMM + 0, NONE, 4, 0, 256, 0},
    {AUGUR_EV_WIN_FENCE, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_PUT, 0, RIGHT, TN, 0, 16, 0},
    {AUGUR_EV_GET, 0, LEFT, TN, 0, 0, 8},
    {AUGUR_EV_ACCUMULATE, 0, RIGHT, TN, 0, 12, 0},
    {AUGUR_EV_WIN_FENCE, 0, NONE, TN, AUGUR_RMA_MODE_NOSUCCEED, 0, 0},
    {AUGUR_EV_WIN_POST, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_START, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_PUT, 0, RIGHT, TN, 0, 4, 0},
    {AUGUR_EV_WIN_COMPLETE, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_WAIT, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_POST, 0, NONE, TN, AUGUR_RMA_MODE_NOCHECK, 0, 0},
    {AUGUR_EV_WIN_START, 0, NONE, TN, AUGUR_RMA_MODE_NOCHECK, 0, 0},
    {AUGUR_EV_WIN_COMPLETE, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_TEST, 0, NONE, TN, 0, 0, 0}, /* 1 or more, all but the last NOTDONE */
    {AUGUR_EV_WIN_LOCK, 0, RIGHT, A_EXCL, 0, 0, 0},
    {AUGUR_EV_GET_ACCUMULATE, 0, RIGHT, TN, 0, 8, 8},
    {AUGUR_EV_WIN_UNLOCK, 0, RIGHT, TN, 0, 0, 0},
    {AUGUR_EV_WIN_LOCK, 0, LEFT, A_SHRD, AUGUR_RMA_MODE_NOCHECK, 0, 0},
    {AUGUR_EV_FETCH_AND_OP, 0, LEFT, TN, 0, 4, 4},
    {AUGUR_EV_COMPARE_AND_SWAP, 0, LEFT, TN, 0, 8, 4},
    {AUGUR_EV_WIN_UNLOCK, 0, LEFT, TN, 0, 0, 0},
    {AUGUR_EV_WIN_LOCK_ALL, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_RPUT, 0, RIGHT, TN, 0, 20, 0},
    {AUGUR_EV_COMPLETION, 0, RIGHT, AUGUR_EV_RPUT, 0, 20, 0}, /* tag: the starting call */
    {AUGUR_EV_RGET, 0, LEFT, TN, 0, 0, 24},
    {AUGUR_EV_COMPLETION, 0, LEFT, AUGUR_EV_RGET, 0, 0, 24}, /* tag: the starting call */
    {AUGUR_EV_RACCUMULATE, 0, RIGHT, TN, 0, 28, 0},
    {AUGUR_EV_COMPLETION, 0, RIGHT, AUGUR_EV_RACCUMULATE, 0, 28, 0}, /* tag: the starting call */
    {AUGUR_EV_RGET_ACCUMULATE, 0, LEFT, TN, 0, 0, 4}, /* MPI_NO_OP: no origin bytes */
    {AUGUR_EV_COMPLETION, 0, LEFT, AUGUR_EV_RGET_ACCUMULATE, 0, 0, 4}, /* tag: the starting call */
    {AUGUR_EV_WIN_FLUSH, 0, RIGHT, TN, 0, 0, 0},
    {AUGUR_EV_WIN_FLUSH_LOCAL, 0, LEFT, TN, 0, 0, 0},
    {AUGUR_EV_WIN_FLUSH_ALL, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_FLUSH_LOCAL_ALL, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_SYNC, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_UNLOCK_ALL, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_FREE, 0, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_ALLOCATE, W_COMM + 1, NONE, 1, 0, 128, 0},
    {AUGUR_EV_WIN_FENCE, 1, NONE, TN, AUGUR_RMA_MODE_NOPRECEDE, 0, 0},
    {AUGUR_EV_PUT, 1, RIGHT, TN, 0, 8, 0},
    {AUGUR_EV_WIN_FENCE, 1, NONE, TN,
     AUGUR_RMA_MODE_NOSTORE | AUGUR_RMA_MODE_NOPUT | AUGUR_RMA_MODE_NOSUCCEED, 0, 0},
    {AUGUR_EV_WIN_FREE, 1, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_ALLOCATE_SHARED, W_COMM + 2, NONE, 4, 0, 32, 0},
    {AUGUR_EV_WIN_FREE, 2, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_CREATE_DYNAMIC, W_COMM + 3, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_ATTACH, 3, NONE, TN, 0, 256, 0},
    {AUGUR_EV_WIN_DETACH, 3, NONE, TN, 0, 0, 0},
    {AUGUR_EV_WIN_FREE, 3, NONE, TN, 0, 0, 0},
};
#define RMA_NSEQ (sizeof rma_seq / sizeof rma_seq[0])

/* A group definition of Win_post / Win_start: one member, world rank WANT. */
static void check_rma_group(augur_trace *t, uint32_t r, uint64_t id, int32_t want, size_t k) {
  const augur_comm_def *g = augur_trace_comm(t, id);
  CHECK(g && g->kind == AUGUR_COMM_KIND_GROUP && g->size == 1 && g->members[0] == want &&
            g->parent == 0,
        "rank %u: record %zu: group %#" PRIx64 " (kind %u size %u member %d), expected {%d}", r, k,
        id, g ? g->kind : 99, g ? g->size : 0, g && g->size ? g->members[0] : -9, want);
}

/* One rank's records against rma_seq; wins[] gets its window ids (A..D),
 * rev the id of the reversed communicator (the Comm_split). */
static void check_rma_rank(augur_trace *t, uint32_t r, uint32_t n, const evlist *l,
                           uint64_t wins[4], uint64_t *rev, int fortran) {
  int32_t right = (int32_t)((r + 1) % n), left = (int32_t)((r + n - 1) % n);
  *rev = 0;
  size_t k = 0, npost = 0, nstart = 0;
  for (size_t i = 0; i < l->n; i++) {
    const augur_event *e = &l->ev[i];
    if (e->type == AUGUR_EV_COMM_SPLIT) *rev = e->req;
    if (!augur_event_is_rma(e->type) && e->type != AUGUR_EV_COMPLETION) continue;
    if (e->type == AUGUR_EV_WIN_TEST && k > 0 && rma_seq[k - 1].type == AUGUR_EV_WIN_TEST) {
      /* another poll: the previous one must have said "not done" */
      CHECK(l->ev[i - 1].type == AUGUR_EV_WIN_TEST && (l->ev[i - 1].flags & AUGUR_F_NOTDONE),
            "rank %u: Win_test after a completed one", r);
    } else if (k > 0 && rma_seq[k - 1].type == AUGUR_EV_WIN_TEST) {
      CHECK(!(l->ev[i - 1].flags & AUGUR_F_NOTDONE), "rank %u: last Win_test not done", r);
    }
    if (e->type == AUGUR_EV_WIN_TEST && k > 0 && rma_seq[k - 1].type == AUGUR_EV_WIN_TEST) continue;
    if (k >= RMA_NSEQ) {
      CHECK(0, "rank %u: extra record %s", r, augur_event_name(e->type));
      continue;
    }
    const rma_want *w = &rma_seq[k];
    int32_t peer = w->peer == RIGHT ? right : w->peer == LEFT ? left : w->peer;
    CHECK(e->type == w->type, "rank %u: record %zu is %s, expected %s", r, k,
          augur_event_name(e->type), augur_event_name(w->type));
    if (e->type != w->type) return;
    if (w->win >= W_COMM) {
      int wi = w->win - W_COMM;
      wins[wi] = e->req;
      CHECK(e->comm == (wi == 0 ? *rev : AUGUR_COMM_WORLD) && *rev != 0,
            "rank %u: %s comm %#" PRIx64, r, augur_event_name(e->type), e->comm);
      CHECK(e->req > AUGUR_COMM_SELF, "rank %u: %s: window id %#" PRIx64, r,
            augur_event_name(e->type), e->req);
    } else {
      CHECK(e->comm == wins[w->win] && e->comm != 0,
            "rank %u: record %zu (%s): comm %#" PRIx64 ", expected window %c %#" PRIx64, r, k,
            augur_event_name(e->type), e->comm, 'A' + w->win, wins[w->win]);
    }
    CHECK(e->peer == peer && e->tag == w->tag && e->aux == w->aux && e->bytes == w->bytes &&
              e->bytes_recv == w->bytes_recv,
          "rank %u: record %zu (%s): peer %d tag %d aux %u bytes %" PRIu64 "/%" PRIu64
          ", expected %d %d %u %" PRIu64 "/%" PRIu64,
          r, k, augur_event_name(e->type), e->peer, e->tag, e->aux, e->bytes, e->bytes_recv, peer,
          w->tag, w->aux, w->bytes, w->bytes_recv);
    if (e->type >= AUGUR_EV_RPUT && e->type <= AUGUR_EV_RGET_ACCUMULATE) {
      CHECK(e->req != 0, "rank %u: %s without a request", r, augur_event_name(e->type));
      const augur_event *c = i + 2 < l->n ? &l->ev[i + 2] : NULL; /* WAIT, COMPLETION */
      CHECK(c && l->ev[i + 1].type == AUGUR_EV_WAIT && c->type == AUGUR_EV_COMPLETION &&
                c->req == e->req,
            "rank %u: %s not completed by the next MPI_Wait", r, augur_event_name(e->type));
    }
    if (fortran && e->type != AUGUR_EV_COMPLETION)
      CHECK(e->flags & AUGUR_F_FORTRAN, "rank %u: record %zu (%s) without F_FORTRAN", r, k,
            augur_event_name(e->type));
    if (e->type == AUGUR_EV_COMPLETION)
      CHECK((e->flags &
             (AUGUR_F_SENDREQ | AUGUR_F_RECVREQ | AUGUR_F_COLLREQ | AUGUR_F_UNMATCHED)) == 0,
            "rank %u: RMA completion flags %#x", r, e->flags);
    if (e->type == AUGUR_EV_COMPLETION) /* told apart from an MPI-IO request's completion */
      CHECK(!augur_io_is_completion(e), "rank %u: RMA completion taken for MPI-IO", r);
    if (e->type == AUGUR_EV_WIN_POST) check_rma_group(t, r, e->req, left, k), npost++;
    if (e->type == AUGUR_EV_WIN_START) check_rma_group(t, r, e->req, right, k), nstart++;
    k++;
  }
  CHECK(k == RMA_NSEQ, "rank %u: %zu of %zu one-sided records", r, k, (size_t)RMA_NSEQ);
  CHECK(npost == 2 && nstart == 2, "rank %u: %zu posts %zu starts", r, npost, nstart);
}

/* argv[4] "--fortran": rec_rma_f.f90, every call through the Fortran bindings. */
static int check_rma(augur_trace *t, uint32_t n, int argc, char **argv) {
  int fortran = argc > 4 && strcmp(argv[4], "--fortran") == 0;
  CHECK(augur_trace_info_get(t)->complete == 1, "trace not complete");
  uint64_t wins0[4] = {0}, rev0 = 0;
  for (uint32_t r = 0; r < n; r++) {
    evlist l;
    if (load_rank(t, r, &l) != 0) continue;
    uint64_t wins[4] = {0}, rev = 0;
    check_rma_rank(t, r, n, &l, wins, &rev, fortran);
    free(l.ev);
    if (r == 0) {
      memcpy(wins0, wins, sizeof wins);
      rev0 = rev;
    }
    /* one id per window on every member, four distinct windows */
    for (int w = 0; w < 4; w++) {
      CHECK(wins[w] == wins0[w], "rank %u: window %c id %#" PRIx64 ", rank 0 has %#" PRIx64, r,
            'A' + w, wins[w], wins0[w]);
      for (int v = 0; v < w; v++)
        CHECK(wins[w] != wins[v], "rank %u: windows %c and %c share an id", r, 'A' + v, 'A' + w);
    }
  }
  /* definitions: a window is its communicator's members under kind WINDOW */
  for (int w = 0; w < 4 && rev0; w++) {
    const augur_comm_def *d = augur_trace_comm(t, wins0[w]);
    CHECK(d && d->kind == AUGUR_COMM_KIND_WINDOW && d->size == n &&
              d->parent == (w == 0 ? rev0 : AUGUR_COMM_WORLD),
          "window %c: definition (kind %u size %u parent %#" PRIx64 ")", 'A' + w, d ? d->kind : 99,
          d ? d->size : 0, d ? d->parent : 0);
    for (uint32_t i = 0; d && i < d->size && i < n; i++)
      CHECK(d->members[i] == (int32_t)(w == 0 ? n - 1 - i : i), "window %c: member %u is %d",
            'A' + w, i, d->members[i]);
  }
  return 0;
}
