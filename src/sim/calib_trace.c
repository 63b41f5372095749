/* Calibration from a recorded run: what one message and one MPI call cost
 * while that run was going on. Useful when the run's conditions are not the
 * machine's (ranks sharing cores, other jobs): a separate calibration run
 * does not see the same scheduler. Messages count only when the receiver
 * was already inside the call that completed them when the send began, so
 * the sample is transfer time, not the receiver's lateness: eager-sized ones
 * give the latency, larger ones the bandwidth. */
#include <stdlib.h>
#include <string.h>

#include "augur/match.h"
#include "sim_int.h"

typedef struct samples {
  double *v;
  size_t n, cap;
  int nomem;
} samples;

static void push(samples *s, double x) {
  if (aug_grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v)) {
    s->nomem = 1;
    return;
  }
  s->v[s->n++] = x;
}

typedef struct cal {
  samples lat, post;
  uint64_t eager_limit;
  double big_bytes, big_seconds; /* rendezvous messages whose receiver waited */
  uint64_t big_n;
  uint64_t eager_n; /* every eager, non-synchronous message of the run */
} cal;

static int on_message(void *ctx, const augur_message *m) {
  cal *c = ctx;
  if (m->bytes <= c->eager_limit && !m->send.sync) c->eager_n++;
  if (m->recv.t_start > m->send.t_start || m->recv.t_end < m->send.t_start) return AUGUR_OK;
  /* From the end of the send call (the simulator charges the call itself as
   * the per-call overhead) to the end of the receive. */
  double dt = m->recv.t_end > m->send.t_end ? (double)(m->recv.t_end - m->send.t_end) * 1e-9 : 0;
  if (m->bytes > c->eager_limit) {
    c->big_bytes += (double)m->bytes;
    c->big_seconds += dt;
    c->big_n++;
    return AUGUR_OK;
  }
  if (!m->send.sync) push(&c->lat, dt);
  return AUGUR_OK;
}

static double median(samples *s) {
  if (!s->n) return -1;
  qsort(s->v, s->n, sizeof *s->v, aug_cmp_double);
  return s->v[s->n / 2];
}

/* The latency a message pays in this run. The samples inside Tukey's far
 * fence (Q3 + 3 IQR) give the mean; the ones beyond (a rank preempted by
 * another job: one 80 ms wait among 148 of about 1 us, seen on this
 * machine) happened once in the run, so their time is spread over all of
 * its eager messages, not charged to each. When most messages are sampled
 * (ranks sharing a core wait on almost every one) this is the plain mean. */
static double latency_of(samples *s, uint64_t messages) {
  if (!s->n) return -1;
  qsort(s->v, s->n, sizeof *s->v, aug_cmp_double);
  double q1 = s->v[s->n / 4], q3 = s->v[(3 * s->n) / 4];
  double fence = q3 + 3 * (q3 - q1), in = 0, out = 0;
  size_t n = 0;
  for (size_t i = 0; i < s->n; i++) {
    if (s->v[i] <= fence) {
      in += s->v[i];
      n++;
    } else {
      out += s->v[i];
    }
  }
  return in / (double)n + out / (double)(messages > s->n ? messages : s->n);
}

int augur_machine_calibrate_trace(augur_machine *m, augur_trace *t, augur_sim_calib *out,
                                  augur_error *err) {
  memset(out, 0, sizeof *out);
  cal c;
  memset(&c, 0, sizeof c);
  c.eager_limit = m->eager_limit;
  augur_matcher *mt = augur_matcher_new(t, on_message, NULL, &c);
  augur_stream *s = NULL;
  int rc = AUGUR_OK;
  if (!mt) return augur_fail(err, AUGUR_E_NOMEM, "out of memory calibrating from the trace");
  rc = augur_stream_merged(t, &s, err);
  augur_event ev;
  while (rc >= 0 && (rc = augur_stream_next(s, &ev, err)) > 0) {
    /* What a call costs when it need not wait: posting calls, and eager sends. */
    int post = ev.type == AUGUR_EV_ISEND || ev.type == AUGUR_EV_IRECV ||
               (ev.type == AUGUR_EV_SEND && ev.bytes <= m->eager_limit);
    if (post && ev.t_end >= ev.t_start) push(&c.post, (double)(ev.t_end - ev.t_start) * 1e-9);
    rc = augur_match_feed(mt, &ev, err);
  }
  augur_stream_close(s);
  augur_matcher_free(mt);
  if (rc < 0) goto out;
  if (c.lat.nomem || c.post.nomem) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory calibrating from the trace");
    goto out;
  }
  out->latency_samples = c.lat.n;
  out->overhead_samples = c.post.n;
  if (c.lat.n) {
    double l = latency_of(&c.lat, c.eager_n);
    m->latency = m->shm_latency = l;
    out->latency = l;
  }
  /* Bandwidth from the large messages: their time minus the two latencies
   * a rendezvous costs (measured here or the model's), bytes over seconds summed (big messages
   * weigh more). */
  if (c.big_n) {
    double secs = c.big_seconds - (double)c.big_n * 2 * m->latency;
    if (secs > 0) {
      m->bandwidth = m->shm_bandwidth = c.big_bytes / secs;
      out->bandwidth = m->bandwidth;
      out->bandwidth_samples = c.big_n;
    }
  }
  if (c.post.n) {
    double o = median(&c.post);
    m->overhead = o;
    out->overhead = o;
  }
  rc = AUGUR_OK;
out:
  free(c.lat.v);
  free(c.post.v);
  return rc;
}
