/* Records decoded on one analysis rank, merged on another (par.h,
 * docs/parallel.md "diagnose (as built)"). The sender reads its block of
 * ranks as a merged stream (augur_stream_merged_sources over the block) and
 * sends its records in that order, PAR_STREAM_BATCH at a time, with at most
 * PAR_STREAM_WINDOW messages in flight; the receiver is an
 * augur_stream_source with as many receives posted, one buffer each, so
 * memory on both sides is bounded by the window, not by the trace.
 *
 * A message: a header (records, status, error key), the records as the
 * reader gives them (the same executable on both sides: their bytes), and
 * with an error status its message. Status 1: more follow; 0: the last;
 * negative: the block's stream met an error (augur_stream_next's status) at
 * key AT after these records, and more follow. When the receiver is done
 * (at the end, or early: the diagnosis stopped at an error) it sends
 * PAR_TAG_STOP; the sender stops at the next batch, ends with a last
 * message, and always takes that one STOP before it returns. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "par.h"

#define PAR_STREAM_BATCH  512 /* records per message (60 KB) */
#define PAR_STREAM_WINDOW 32  /* messages in flight per sender (2 MB) */

typedef struct rec_hdr {
  uint32_t n;
  int32_t status;
  uint64_t at;
} rec_hdr;

#define REC_AT  sizeof(rec_hdr)
#define MSG_AT  (REC_AT + (size_t)PAR_STREAM_BATCH * sizeof(augur_event))
#define BUF_CAP (MSG_AT + AUGUR_ERROR_MSG_MAX)

/* Waits for REQ: a streaming peer usually answers within microseconds, so
 * the naps start short (10 us) and stay short (160 us at most); a rank that
 * naps does not take a CPU from the one it waits for. Returns the naps. */
static long wait_short(MPI_Request *req, MPI_Status *st) {
  int done = 0;
  long ns = 10000, naps = 0;
  MPI_Test(req, &done, st);
  while (!done) {
    nanosleep(&(struct timespec){0, ns}, NULL);
    naps++;
    if (ns < 160000) ns *= 2;
    MPI_Test(req, &done, st);
  }
  return naps;
}

/* ---- sender ---- */

static int stop_seen(int to, int *stopped) {
  if (*stopped) return 1;
  int there = 0;
  MPI_Iprobe(to, PAR_TAG_STOP, MPI_COMM_WORLD, &there, MPI_STATUS_IGNORE);
  if (there) {
    int x;
    MPI_Recv(&x, 1, MPI_INT, to, PAR_TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    *stopped = 1;
  }
  return *stopped;
}

void par_stream_send(augur_trace *t, uint32_t lo, uint32_t hi, int to, uint64_t slack) {
  unsigned char *buf[PAR_STREAM_WINDOW];
  MPI_Request req[PAR_STREAM_WINDOW];
  int stopped = 0, i = 0, last = 0;
  augur_stream *s = NULL;
  augur_error err = {0};
  int orc = augur_stream_merged_sources(t, lo, hi, NULL, 0, &s, &err);
  if (orc == AUGUR_OK && slack) orc = augur_stream_set_slack(s, slack, &err);
  for (int k = 0; k < PAR_STREAM_WINDOW; k++) {
    buf[k] = malloc(BUF_CAP);
    req[k] = MPI_REQUEST_NULL;
  }
  for (int k = 0; k < PAR_STREAM_WINDOW; k++)
    if (!buf[k] && orc == AUGUR_OK) {
      orc = augur_fail(&err, AUGUR_E_NOMEM, "--parallel: out of memory for the record window");
      augur_stream_close(s);
      s = NULL;
    }
  if (orc != AUGUR_OK) { /* said where the stream would say it: at its start */
    for (int k = 0; k < 2; k++) {
      rec_hdr h = {0, k ? 0 : orc, 0};
      char msg[sizeof h + AUGUR_ERROR_MSG_MAX];
      memcpy(msg, &h, sizeof h);
      size_t len = k ? 0 : strlen(err.msg) + 1;
      memcpy(msg + sizeof h, err.msg, len);
      MPI_Send(msg, (int)(sizeof h + len), MPI_BYTE, to, PAR_TAG_RECS, MPI_COMM_WORLD);
    }
  } else {
    while (!last) {
      if (req[i] != MPI_REQUEST_NULL) wait_short(&req[i], MPI_STATUS_IGNORE);
      rec_hdr h = {0, 1, 0};
      augur_event *ev = (augur_event *)(void *)(buf[i] + REC_AT);
      size_t len = 0;
      if (stop_seen(to, &stopped)) {
        h.status = 0;
      } else {
        int rc = 1;
        while (h.n < PAR_STREAM_BATCH && (rc = augur_stream_next(s, &ev[h.n], &err)) == 1)
          h.n++;
        if (rc == 0) h.status = 0;
        if (rc < 0) {
          h.status = rc;
          augur_stream_error_key(s, &h.at);
          len = strlen(err.msg) + 1;
          memcpy(buf[i] + REC_AT + (size_t)h.n * sizeof *ev, err.msg, len);
        }
      }
      last = h.status == 0;
      memcpy(buf[i], &h, sizeof h);
      MPI_Isend(buf[i], (int)(REC_AT + (size_t)h.n * sizeof *ev + len), MPI_BYTE, to, PAR_TAG_RECS,
                MPI_COMM_WORLD, &req[i]);
      i = (i + 1) % PAR_STREAM_WINDOW;
    }
  }
  augur_stream_close(s);
  par_time("decode");
  for (int k = 0; k < PAR_STREAM_WINDOW; k++) {
    if (req[k] != MPI_REQUEST_NULL) wait_short(&req[k], MPI_STATUS_IGNORE);
    free(buf[k]);
  }
  if (!stopped) { /* the receiver always says when it is done */
    int x;
    MPI_Request r;
    MPI_Irecv(&x, 1, MPI_INT, to, PAR_TAG_STOP, MPI_COMM_WORLD, &r);
    par_wait(&r);
  }
}

/* ---- receiver ---- */

struct par_source {
  int from;
  unsigned char *buf[PAR_STREAM_WINDOW];
  MPI_Request req[PAR_STREAM_WINDOW];
  int cur;          /* the buffer whose message comes next or is being handed out */
  int have;         /* buf[cur] holds a received message */
  int handed;       /* its records were handed out */
  int ended;        /* the last message was taken */
  rec_hdr h;        /* buf[cur]'s header */
  int nbytes;       /* its size */
  int posted;       /* the receives were posted */
  long waits, naps; /* messages that were not there yet when wanted; naps for them */
};

par_source *par_source_open(int from) {
  par_source *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->from = from;
  for (int k = 0; k < PAR_STREAM_WINDOW; k++) {
    p->req[k] = MPI_REQUEST_NULL;
    if (!(p->buf[k] = malloc(BUF_CAP))) {
      par_source_close(p);
      return NULL;
    }
  }
  for (int k = 0; k < PAR_STREAM_WINDOW; k++)
    MPI_Irecv(p->buf[k], (int)BUF_CAP, MPI_BYTE, from, PAR_TAG_RECS, MPI_COMM_WORLD, &p->req[k]);
  p->posted = 1;
  return p;
}

/* Takes the message of buf[cur]. */
static void take(par_source *p) {
  MPI_Status st;
  long naps = wait_short(&p->req[p->cur], &st);
  p->waits += naps > 0;
  p->naps += naps;
  MPI_Get_count(&st, MPI_BYTE, &p->nbytes);
  memset(&p->h, 0, sizeof p->h);
  if (p->nbytes >= (int)sizeof p->h) memcpy(&p->h, p->buf[p->cur], sizeof p->h);
  if ((size_t)p->nbytes < REC_AT + (size_t)p->h.n * sizeof(augur_event)) {
    p->h.n = 0; /* cannot happen between copies of one executable */
    p->h.status = AUGUR_E_FORMAT;
  }
  p->have = 1;
  p->handed = 0;
  if (p->h.status == 0) p->ended = 1;
}

/* Moves past buf[cur]: its receive is posted again for a later message. */
static void advance(par_source *p) {
  MPI_Irecv(p->buf[p->cur], (int)BUF_CAP, MPI_BYTE, p->from, PAR_TAG_RECS, MPI_COMM_WORLD,
            &p->req[p->cur]);
  p->cur = (p->cur + 1) % PAR_STREAM_WINDOW;
  p->have = 0;
}

int par_source_next(void *arg, const augur_event **ev, size_t *n, uint64_t *at, augur_error *err) {
  par_source *p = arg;
  for (;;) {
    if (!p->have) {
      if (p->ended) return 0;
      take(p);
    }
    if (!p->handed && p->h.n) {
      p->handed = 1;
      *ev = (const augur_event *)(const void *)(p->buf[p->cur] + REC_AT);
      *n = p->h.n;
      return 1;
    }
    p->handed = 1;
    int status = p->h.status;
    if (status == 0) return 0; /* ended: buf[cur] stays taken */
    if (status < 0) {
      size_t off = REC_AT + (size_t)p->h.n * sizeof(augur_event);
      int len = p->nbytes - (int)off;
      *at = p->h.at;
      p->h.status = 1; /* said once; the next call goes on */
      return augur_fail(err, status, "%.*s", len > 0 ? len : 0,
                        len > 0 ? (const char *)p->buf[p->cur] + off : "");
    }
    advance(p);
  }
}

void par_source_close(par_source *p) {
  if (!p) return;
  if (p->posted && par_times_on())
    fprintf(stderr,
            "augur-parallel: rank 0 waited for %ld messages of analysis rank %d (%ld naps)\n",
            p->waits, p->from, p->naps);
  if (p->posted) { /* opened: tell the sender, take the rest */
    int x = 0;
    MPI_Send(&x, 1, MPI_INT, p->from, PAR_TAG_STOP, MPI_COMM_WORLD);
    while (!p->ended) {
      if (p->have) advance(p);
      take(p);
    }
    for (int k = 0; k < PAR_STREAM_WINDOW; k++) {
      if (k == p->cur || p->req[k] == MPI_REQUEST_NULL) continue;
      MPI_Cancel(&p->req[k]);
      MPI_Wait(&p->req[k], MPI_STATUS_IGNORE);
    }
  }
  for (int k = 0; k < PAR_STREAM_WINDOW; k++)
    free(p->buf[k]);
  free(p);
}

/* ---- the blocks of analysis ranks 1..M-1, on both sides ---- */

augur_stream_source *par_sources_open(augur_trace *t, const char *what) {
  int m = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &m);
  if (m == 2)
    cli_note("--parallel: analysis rank 1 decodes the records, %s on analysis rank 0 "
             "(docs/parallel.md)",
             what);
  else
    cli_note("--parallel: analysis ranks 1..%d decode the records, %s on analysis rank 0 "
             "(docs/parallel.md)",
             m - 1, what);
  augur_stream_source *src = calloc((size_t)m, sizeof *src);
  for (int j = 1; src && j < m; j++) {
    par_block(t, j - 1, m - 1, &src[j - 1].lo, &src[j - 1].hi);
    src[j - 1].next = par_source_next;
    if (!(src[j - 1].arg = par_source_open(j))) {
      free(src);
      src = NULL;
    }
  }
  if (!src) { /* the senders would wait for their receives: end the job */
    cli_fail("--parallel: out of memory for the record window");
    MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
  }
  return src;
}

int par_sources_stream(void *arg, augur_trace *t, augur_stream **s, augur_error *err) {
  int m = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &m);
  return augur_stream_merged_sources(t, 0, 0, arg, (size_t)(m - 1), s, err);
}

void par_sources_close(augur_stream_source *src) {
  int m = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &m);
  for (int j = 1; src && j < m; j++)
    par_source_close(src[j - 1].arg);
  free(src);
}

void par_stream_block(augur_trace *t, uint64_t slack) {
  int me = 0, m = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &m);
  uint32_t lo, hi;
  par_block(t, me - 1, m - 1, &lo, &hi);
  par_stream_send(t, lo, hi, 0, slack);
}
