/* Chrome trace-event JSON export (chrome://tracing, Perfetto).
 *
 * One process "MPI job" (pid 0); one track per rank (tid = rank, or
 * rank + nranks * thread for extra recorder threads); every MPI call a
 * complete ("X") event; every matched message a flow ("s" at the send,
 * "f" with bp "e" at the receive). Written while streaming the merged
 * trace: only unmatched message ends are held in memory. A trace with
 * OpenMP records adds each thread's OpenMP states (src/analysis/omp) as
 * "X" slices of category "omp" on its track. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/export.h"
#include "augur/mpiio.h"
#include "augur/text.h"
#include "export_util.h"

typedef struct chrome {
  augur_trace *t;
  exu_out out;
  uint32_t nranks;
  uint64_t records;
  char **sites; /* JSON-escaped "function file:line" per call-site id, lazily */
  size_t nsites;
  int hybrid; /* OpenMP records: thread state slices */
  uint64_t omp_slices;
  uint64_t rma_flows; /* one-sided transfers drawn as flows */
} chrome;

/* Writes S as a JSON string body (no quotes) into buf; bytes that are not
 * UTF-8 (paths, function names) become U+FFFD (include/augur/text.h). */
static void json_escape(const char *in, char *buf, size_t n) {
  char text[1024];
  augur_utf8_repair(in, text, sizeof text);
  const char *s = text;
  size_t j = 0;
  for (; *s && j + 7 < n; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      buf[j++] = '\\';
      buf[j++] = (char)c;
    } else if (c < 0x20) {
      j += (size_t)snprintf(buf + j, n - j, "\\u%04x", c);
    } else {
      buf[j++] = (char)c;
    }
  }
  buf[j] = 0;
}

static const char *site_name(chrome *c, uint32_t id) {
  if (id == 0 || id > c->nsites) return NULL;
  if (!c->sites[id - 1]) {
    char raw[512], esc[1024];
    exu_callsite_name(c->t, id, raw, sizeof raw);
    json_escape(raw, esc, sizeof esc);
    c->sites[id - 1] = strdup(esc);
  }
  return c->sites[id - 1];
}

static uint64_t track(const chrome *c, uint32_t rank, uint32_t thread) {
  return (uint64_t)rank + (uint64_t)c->nranks * thread;
}

/* Microseconds with the nanoseconds kept as three decimals. */
#define TS_FMT     "%llu.%03llu"
#define TS_ARG(ns) (unsigned long long)((ns) / 1000), (unsigned long long)((ns) % 1000)

static void sep(chrome *c) {
  exu_out_printf(&c->out, c->records ? ",\n" : "\n");
  c->records++;
}

/* Types whose peer and tag fields mean something (others leave them 0). */
static int has_peer(unsigned type) {
  return augur_event_is_p2p_send(type) || augur_event_is_p2p_recv(type) ||
         augur_event_is_collective(type) || (type >= AUGUR_EV_PROBE && type <= AUGUR_EV_IMRECV);
}

/* A slice line is built in a local buffer: fprintf's format parsing was
 * most of the export's time. The buffer fits the longest line (call-site
 * names are cut to 1 KiB when escaped). */
typedef struct line {
  char b[2048];
  size_t n;
} line;

static void put(line *l, const char *s) {
  size_t k = strlen(s);
  if (k > sizeof l->b - l->n - 1) k = sizeof l->b - l->n - 1;
  memcpy(l->b + l->n, s, k);
  l->n += k;
}

static void put_u64(line *l, uint64_t v) {
  char tmp[24];
  size_t d = 0;
  do {
    tmp[d++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (d && l->n < sizeof l->b - 1)
    l->b[l->n++] = tmp[--d];
}

/* Microseconds with the nanoseconds kept as three decimals. */
static void put_ts(line *l, uint64_t ns) {
  put_u64(l, ns / 1000);
  char frac[5] = {'.', (char)('0' + ns % 1000 / 100), (char)('0' + ns % 100 / 10),
                  (char)('0' + ns % 10), 0};
  put(l, frac);
}

static void put_field_u64(line *l, int *first, const char *key, uint64_t v) {
  put(l, *first ? "\"" : ",\"");
  put(l, key);
  put(l, "\":");
  put_u64(l, v);
  *first = 0;
}

/* What a call's bytes_recv is: received bytes (the status count) for calls
 * that complete a receive; the posted buffer size for calls that only post
 * one (what arrives is in the completion); the message size for probes. */
static const char *recv_field(unsigned type) {
  switch (type) {
  case AUGUR_EV_IRECV:
  case AUGUR_EV_IMRECV:
  case AUGUR_EV_RECV_INIT:
    return "bytes_posted";
  case AUGUR_EV_PROBE:
  case AUGUR_EV_IPROBE:
  case AUGUR_EV_MPROBE:
  case AUGUR_EV_IMPROBE:
    return "bytes_probed";
  default:
    return "bytes_recv";
  }
}

/* "KEY":"ID": hashed ids exceed JSON's exact integers, so a hex string. */
static void put_id(line *l, int *first, const char *key, uint64_t v) {
  char id[24];
  if (v == AUGUR_COMM_WORLD)
    snprintf(id, sizeof id, "world");
  else if (v == AUGUR_COMM_SELF)
    snprintf(id, sizeof id, "self");
  else
    snprintf(id, sizeof id, "0x%016llx", (unsigned long long)v);
  put(l, *first ? "\"" : ",\"");
  put(l, key);
  put(l, "\":\"");
  put(l, id);
  put(l, "\"");
  *first = 0;
}

/* MPI-IO calls: the file's name and the offset; one-sided calls: the target
 * (world rank) and the window a Win_create* made (docs/export.md). */
static void iorma_args(chrome *c, line *l, int *first, const augur_event *ev) {
  if (augur_event_is_io(ev->type)) {
    const char *name = augur_trace_file_name(c->t, ev->hash);
    if (name) {
      char esc[1024];
      json_escape(name, esc, sizeof esc);
      put(l, *first ? "\"file\":\"" : ",\"file\":\"");
      put(l, esc);
      put(l, "\"");
      *first = 0;
    } else if (ev->hash) {
      put_id(l, first, "file", ev->hash);
    }
    if (augur_io_has_offset(ev->type) && augur_io_offset(ev) >= 0)
      put_field_u64(l, first, "offset", (uint64_t)augur_io_offset(ev));
    return;
  }
  if (ev->peer >= 0) put_field_u64(l, first, "target", (uint64_t)ev->peer);
  if (ev->type >= AUGUR_EV_WIN_CREATE && ev->type <= AUGUR_EV_WIN_CREATE_DYNAMIC && ev->req)
    put_id(l, first, "window", ev->req);
}

/* A one-sided data transfer as a flow from the origin's call to the target's
 * track at the call's end (bound to the target's slice there, as a message's
 * receive end is). Ids above 2^52 keep them apart from the messages'. */
static void rma_flow(chrome *c, const augur_event *ev) {
  if (ev->type < AUGUR_EV_PUT || ev->type > AUGUR_EV_RGET_ACCUMULATE || ev->peer < 0 ||
      (uint32_t)ev->peer >= c->nranks)
    return;
  const char *name = ev->type == AUGUR_EV_PUT || ev->type == AUGUR_EV_RPUT   ? "put"
                     : ev->type == AUGUR_EV_GET || ev->type == AUGUR_EV_RGET ? "get"
                                                                             : "atomic";
  unsigned long long id = (1ull << 52) + c->rma_flows++;
  uint64_t ts = ev->t_end > ev->t_start + 2 ? ev->t_start + 1 : ev->t_start;
  sep(c);
  exu_out_printf(&c->out,
                 "{\"ph\":\"s\",\"pid\":0,\"tid\":%llu,\"name\":\"%s\",\"cat\":\"rma\","
                 "\"id\":%llu,\"ts\":" TS_FMT ",\"args\":{\"bytes\":%llu,\"bytes_recv\":%llu}}",
                 (unsigned long long)track(c, ev->rank, ev->thread), name, id, TS_ARG(ts),
                 (unsigned long long)ev->bytes, (unsigned long long)ev->bytes_recv);
  sep(c);
  exu_out_printf(&c->out,
                 "{\"ph\":\"f\",\"bp\":\"e\",\"pid\":0,\"tid\":%u,\"name\":\"%s\","
                 "\"cat\":\"rma\",\"id\":%llu,\"ts\":" TS_FMT "}",
                 (unsigned)ev->peer, name, id, TS_ARG(ev->t_end));
}

static void slice(chrome *c, const augur_event *ev) {
  uint64_t dur = ev->t_end > ev->t_start ? ev->t_end - ev->t_start : 0;
  line l;
  l.n = 0;
  put(&l,
      c->records ? ",\n{\"ph\":\"X\",\"pid\":0,\"tid\":" : "\n{\"ph\":\"X\",\"pid\":0,\"tid\":");
  c->records++;
  put_u64(&l, track(c, ev->rank, ev->thread));
  put(&l, ",\"name\":\"");
  put(&l, augur_event_name(ev->type));
  put(&l, "\",\"cat\":\"mpi\",\"ts\":");
  put_ts(&l, ev->t_start);
  put(&l, ",\"dur\":");
  put_ts(&l, dur);
  put(&l, ",\"args\":{");
  int first = 1;
  if (ev->peer >= 0 && has_peer(ev->type)) put_field_u64(&l, &first, "peer", (uint64_t)ev->peer);
  if (ev->tag >= 0 && (augur_event_is_p2p_send(ev->type) || augur_event_is_p2p_recv(ev->type) ||
                       (ev->type >= AUGUR_EV_PROBE && ev->type <= AUGUR_EV_IMRECV)))
    put_field_u64(&l, &first, "tag", (uint64_t)ev->tag);
  if (ev->bytes) put_field_u64(&l, &first, "bytes", ev->bytes);
  if (ev->bytes_recv) put_field_u64(&l, &first, recv_field(ev->type), ev->bytes_recv);
  if (ev->comm) /* a one-sided call's comm is its window */
    put_id(&l, &first,
           augur_event_is_rma(ev->type) &&
                   !(ev->type >= AUGUR_EV_WIN_CREATE && ev->type <= AUGUR_EV_WIN_CREATE_DYNAMIC)
               ? "window"
               : "comm",
           ev->comm);
  if (augur_event_is_io(ev->type) || augur_event_is_rma(ev->type)) iorma_args(c, &l, &first, ev);
  const char *site = site_name(c, (uint32_t)ev->callsite);
  if (site) {
    put(&l, first ? "\"callsite\":\"" : ",\"callsite\":\"");
    put(&l, site);
    put(&l, "\"");
  }
  put(&l, "}}");
  exu_out_write(&c->out, l.b, l.n);
}

/* A thread state as a slice on the thread's track. MPI is already there
 * (the calls); serial and idle time are the gaps between slices. */
static void state_slice(void *arg, uint32_t rank, uint32_t thread, unsigned state, uint64_t t0,
                        uint64_t t1) {
  chrome *c = arg;
  if (state == AUGUR_TS_MPI || state == AUGUR_TS_SERIAL || state == AUGUR_TS_IDLE) return;
  line l;
  l.n = 0;
  put(&l,
      c->records ? ",\n{\"ph\":\"X\",\"pid\":0,\"tid\":" : "\n{\"ph\":\"X\",\"pid\":0,\"tid\":");
  c->records++;
  c->omp_slices++;
  put_u64(&l, track(c, rank, thread));
  put(&l, ",\"name\":\"");
  put(&l, augur_tstate_name(state));
  put(&l, "\",\"cat\":\"omp\",\"ts\":");
  put_ts(&l, t0);
  put(&l, ",\"dur\":");
  put_ts(&l, t1 - t0);
  put(&l, "}");
  exu_out_write(&c->out, l.b, l.n);
}

/* The flow binds to the enclosing slices: start a nanosecond into the send
 * slice, finish a nanosecond before the receive slice ends. */
static int on_match(void *ctx, const augur_message *msg) {
  chrome *c = ctx;
  const augur_match_end *s = &msg->send, *r = &msg->recv;
  unsigned long long id = (unsigned long long)msg->id;
  uint64_t ts = s->t_end > s->t_start + 2 ? s->t_start + 1 : s->t_start;
  uint64_t tf = r->t_end > r->t_start + 2 ? r->t_end - 1 : r->t_end;
  sep(c);
  exu_out_printf(&c->out,
                 "{\"ph\":\"s\",\"pid\":0,\"tid\":%llu,\"name\":\"message\",\"cat\":\"msg\","
                 "\"id\":%llu,\"ts\":" TS_FMT ",\"args\":{\"bytes\":%llu,\"tag\":%d}}",
                 (unsigned long long)track(c, s->rank, s->thread), id, TS_ARG(ts),
                 (unsigned long long)s->bytes, msg->tag);
  sep(c);
  exu_out_printf(&c->out,
                 "{\"ph\":\"f\",\"bp\":\"e\",\"pid\":0,\"tid\":%llu,\"name\":\"message\","
                 "\"cat\":\"msg\",\"id\":%llu,\"ts\":" TS_FMT "}",
                 (unsigned long long)track(c, r->rank, r->thread), id, TS_ARG(tf));
  return AUGUR_OK;
}

static void metadata(chrome *c) {
  sep(c);
  exu_out_printf(&c->out, "{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\","
                          "\"args\":{\"name\":\"MPI job\"}}");
  uint32_t maxthreads = 1;
  for (uint32_t r = 0; r < c->nranks; r++) {
    uint32_t nt = exu_nthreads(c->t, r);
    if (nt > maxthreads) maxthreads = nt;
  }
  for (uint32_t th = 0; th < maxthreads; th++)
    for (uint32_t r = 0; r < c->nranks; r++) {
      sep(c);
      if (th == 0)
        exu_out_printf(&c->out,
                       "{\"ph\":\"M\",\"pid\":0,\"tid\":%u,\"name\":\"thread_name\","
                       "\"args\":{\"name\":\"rank %u\"}}",
                       r, r);
      else
        exu_out_printf(&c->out,
                       "{\"ph\":\"M\",\"pid\":0,\"tid\":%llu,\"name\":\"thread_name\","
                       "\"args\":{\"name\":\"rank %u thread %u\"}}",
                       (unsigned long long)track(c, r, th), r, th);
      sep(c);
      exu_out_printf(&c->out,
                     "{\"ph\":\"M\",\"pid\":0,\"tid\":%llu,\"name\":\"thread_sort_index\","
                     "\"args\":{\"sort_index\":%llu}}",
                     (unsigned long long)track(c, r, th), (unsigned long long)track(c, r, th));
    }
}

int augur_export_chrome(augur_trace *t, const char *out, const augur_export_opts *o,
                        augur_export_stats *st, augur_error *err) {
  chrome c;
  memset(&c, 0, sizeof c);
  c.t = t;
  c.nranks = augur_trace_nranks(t);
  c.nsites = augur_trace_ncallsites(t);
  c.sites = calloc(c.nsites + 1, sizeof *c.sites);
  augur_matcher *m = augur_matcher_new(t, on_match, NULL, &c);
  augur_stream *s = NULL;
  exu_threads th = {0};
  uint64_t events = 0, total = augur_trace_total_events(t);
  int rc;
  if (!c.sites || !m) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "chrome export: out of memory");
    goto done;
  }
  c.hybrid = exu_hybrid(t);
  if ((rc = exu_check_damage(t, "chrome", err)) != AUGUR_OK) goto done;
  if (c.hybrid && (rc = exu_threads_open(&th, t, state_slice, &c, err)) != AUGUR_OK) goto done;
  if ((rc = exu_stream(t, c.hybrid, &s, err)) != AUGUR_OK) goto done;
  if ((rc = exu_out_open(&c.out, out, err)) != AUGUR_OK) goto done;
  exu_out_printf(&c.out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
  metadata(&c);
  augur_event ev;
  while ((rc = augur_stream_next(s, &ev, err)) == 1) {
    events++;
    exu_progress(o, events, total);
    if (c.hybrid && (rc = exu_threads_add(&th, &ev, err)) != AUGUR_OK) break;
    if (augur_event_is_omp(ev.type)) continue;
    if (!augur_event_is_sub(ev.type)) slice(&c, &ev);
    if (augur_event_is_rma(ev.type)) rma_flow(&c, &ev);
    if ((rc = augur_match_feed(m, &ev, err)) != AUGUR_OK) break;
  }
  if (rc < 0) goto done;
  if (c.hybrid && (rc = exu_threads_finish(&th, err)) != AUGUR_OK) goto done;
  augur_match_counts mc;
  augur_match_counts_get(m, &mc);
  const augur_trace_info *info = augur_trace_info_get(t);
  char path[1024], lib[256];
  json_escape(augur_trace_path(t), path, sizeof path);
  json_escape(info && info->mpi_library ? info->mpi_library : "", lib, sizeof lib);
  exu_out_printf(&c.out,
                 "\n],\"otherData\":{\"generator\":\"augur\",\"trace\":\"%s\",\"ranks\":%u,"
                 "\"events\":%llu,\"messages\":%llu,\"unmatched_message_ends\":%llu,"
                 "\"mpi_library\":\"%s\"",
                 path, c.nranks, (unsigned long long)events, (unsigned long long)mc.messages,
                 (unsigned long long)(mc.unmatched_send + mc.unmatched_recv), lib);
  if (c.rma_flows) exu_out_printf(&c.out, ",\"rma_flows\":%llu", (unsigned long long)c.rma_flows);
  if (c.hybrid)
    exu_out_printf(&c.out, ",\"openmp_slices\":%llu,\"openmp_unpaired\":%llu",
                   (unsigned long long)c.omp_slices, (unsigned long long)th.unpaired);
  exu_out_printf(&c.out, "}}\n");
  rc = exu_out_close(&c.out, err);
done:
  if (rc != AUGUR_OK && c.out.path) {
    exu_out_close(&c.out, NULL);
    exu_remove_output(out); /* never leave a partial file behind silently */
  }
  if (rc == AUGUR_OK && st) {
    st->events = events;
    st->records = c.records;
    st->bytes = c.out.bytes;
    st->omp_unpaired = th.unpaired;
  }
  augur_stream_close(s);
  exu_threads_free(&th);
  augur_matcher_free(m);
  if (c.sites)
    for (size_t i = 0; i < c.nsites; i++)
      free(c.sites[i]);
  free(c.sites);
  return rc;
}
