/* The MPI-IO section of `augur report`: I/O time, bytes and bandwidth per
 * rank, per file and per call site (definitions in include/augur/report_io.h).
 * Accumulated during report.c's one pass over the ranks; nothing is kept per
 * event. */
#include "report_io.h"

#include <stdlib.h>
#include <string.h>

#include "augur/mpiio.h"
#include "augur/report_io.h"
#include "augur/text.h"
#include "grow.h"
#include "u64map.h"

typedef struct io_acc {
  augur_report_io pub; /* first: r->io points here */
  aug_u64map file_ix, site_ix;
  size_t file_cap, site_cap;
  /* the parent call the sub-records that follow belong to */
  uint64_t par_dur, par_site;
  int par_counted; /* its time already went to I/O */
} io_acc;

static io_acc *acc_of(const augur_report *r) {
  return (io_acc *)r->io;
}

static augur_report_io_row *row(aug_u64map *ix, augur_report_io_row **rows, size_t *n, size_t *cap,
                                uint64_t key) {
  int fresh;
  uint32_t *v = aug_u64map_slot(ix, key, &fresh);
  if (!v) return NULL;
  if (fresh) {
    if (aug_grow((void **)rows, cap, *n + 1, sizeof **rows)) return NULL;
    *v = (uint32_t)*n;
    memset(&(*rows)[*n], 0, sizeof **rows);
    (*rows)[(*n)++].key = key;
  }
  return &(*rows)[*v];
}

static void add(augur_report_io_row *x, uint32_t rank, uint64_t calls, uint64_t ns,
                const augur_event *ev) {
  uint64_t b = augur_io_bytes(ev);
  x->calls += calls;
  x->time_ns += ns;
  if (augur_io_is_read(ev->type) || (ev->type == AUGUR_EV_COMPLETION && ev->bytes_recv))
    x->read += b;
  else
    x->written += b;
  if (x->last_rank != rank + 1) {
    x->last_rank = rank + 1;
    x->ranks++;
  }
}

int aug_report_io_event(augur_report *r, const augur_event *ev, uint32_t rank) {
  int io = augur_event_is_io(ev->type);
  if (!r->io && !io) return 0; /* the path of every trace without MPI-IO */
  if (!r->io) {
    io_acc *a = calloc(1, sizeof *a);
    if (!a || !(a->pub.ranks = calloc(r->nranks ? r->nranks : 1, sizeof *a->pub.ranks))) {
      free(a);
      return -1;
    }
    a->pub.nranks = r->nranks;
    for (uint32_t i = 0; i < r->nranks; i++)
      a->pub.ranks[i].key = i;
    r->io = &a->pub;
  }
  io_acc *a = acc_of(r);
  augur_report_io *p = &a->pub;
  int sub = augur_event_is_sub(ev->type);
  if (!sub) {
    a->par_dur = ev->t_end > ev->t_start ? ev->t_end - ev->t_start : 0;
    a->par_site = (uint64_t)ev->type << 32 | (uint32_t)ev->callsite;
    a->par_counted = 0;
  }
  int done = sub && augur_io_is_completion(ev);
  if (!io && !done) return 0;
  /* the time: an I/O call's, or the completing call's once */
  uint64_t calls = 0, ns = 0;
  if (io || !a->par_counted) {
    calls = 1;
    ns = a->par_dur;
    a->par_counted = 1;
    if (done) p->wait_ns += ns;
  }
  uint64_t b = augur_io_bytes(ev);
  p->calls += calls;
  p->time_ns += ns;
  if (augur_io_is_read(ev->type) || (done && ev->bytes_recv))
    p->read += b;
  else
    p->written += b;
  if (rank < p->nranks) add(&p->ranks[rank], rank, calls, ns, ev);
  augur_report_io_row *f = row(&a->file_ix, &p->files, &p->nfiles, &a->file_cap, ev->hash);
  augur_report_io_row *s = row(&a->site_ix, &p->sites, &p->nsites, &a->site_cap, a->par_site);
  if (!f || !s) return -1;
  add(f, rank, calls, ns, ev);
  add(s, rank, calls, ns, ev);
  return 0;
}

static int by_time(const void *x, const void *y) {
  const augur_report_io_row *a = x, *b = y;
  if (a->time_ns != b->time_ns) return a->time_ns > b->time_ns ? -1 : 1;
  return a->key < b->key ? -1 : a->key > b->key;
}

int aug_report_io_finish(augur_report *r) {
  io_acc *a = acc_of(r);
  if (!a) return 0;
  qsort(a->pub.files, a->pub.nfiles, sizeof *a->pub.files, by_time);
  qsort(a->pub.sites, a->pub.nsites, sizeof *a->pub.sites, by_time);
  aug_u64map_free(&a->file_ix);
  aug_u64map_free(&a->site_ix);
  return 0;
}

void aug_report_io_free(augur_report *r) {
  io_acc *a = acc_of(r);
  if (!a) return;
  free(a->pub.ranks);
  free(a->pub.files);
  free(a->pub.sites);
  aug_u64map_free(&a->file_ix);
  aug_u64map_free(&a->site_ix);
  free(a);
  r->io = NULL;
}

/* "1.20 GiB/s", or "-" without time. */
static void fmt_bw(char *buf, size_t n, const augur_report_io_row *x) {
  if (!x->time_ns) {
    snprintf(buf, n, "-");
    return;
  }
  char b[32];
  double bps = (double)(x->written + x->read) * 1e9 / (double)x->time_ns;
  augur_fmt_bytes(b, sizeof b, bps > 1.8e19 ? UINT64_MAX : (uint64_t)bps);
  snprintf(buf, n, "%s/s", b);
}

static void print_row(FILE *f, const char *label, const augur_report_io_row *x, const char *tail) {
  char tm[32], w[32], rd[32], bw[40];
  augur_fmt_ns(tm, sizeof tm, x->time_ns);
  augur_fmt_bytes(w, sizeof w, x->written);
  augur_fmt_bytes(rd, sizeof rd, x->read);
  fmt_bw(bw, sizeof bw, x);
  fprintf(f, "  %-24s %11s %8llu %11s %11s %12s%s\n", label, tm, (unsigned long long)x->calls, w,
          rd, bw, tail);
}

void aug_report_io_text(FILE *f, const augur_report *r, augur_trace *t, int top) {
  const augur_report_io *p = r->io;
  if (!p) return;
  augur_report_io_row all = {
      .calls = p->calls, .time_ns = p->time_ns, .written = p->written, .read = p->read};
  char wt[32];
  augur_fmt_ns(wt, sizeof wt, p->wait_ns);
  fprintf(f, "\nMPI-IO (MPI_File_* calls, and waits for their requests: %s)\n", wt);
  fprintf(f, "  %-24s %11s %8s %11s %11s %12s\n", "", "time", "calls", "written", "read",
          "bandwidth");
  print_row(f, "all ranks", &all, "");
  /* ranks by I/O time, at most top */
  augur_report_io_row *rk = malloc((p->nranks ? p->nranks : 1) * sizeof *rk);
  if (rk) {
    memcpy(rk, p->ranks, p->nranks * sizeof *rk);
    qsort(rk, p->nranks, sizeof *rk, by_time);
    uint32_t n = p->nranks < (uint32_t)top ? p->nranks : (uint32_t)top;
    for (uint32_t i = 0; i < n; i++) {
      char label[32];
      snprintf(label, sizeof label, "rank %llu", (unsigned long long)rk[i].key);
      print_row(f, label, &rk[i], "");
    }
    if (p->nranks > n) fprintf(f, "  (%u more ranks; --top N shows more)\n", p->nranks - n);
    free(rk);
  }
  size_t nf = p->nfiles < (size_t)top ? p->nfiles : (size_t)top;
  fprintf(f, "  %-24s %11s %8s %11s %11s %12s  %s\n", "file", "time", "calls", "written", "read",
          "bandwidth", "ranks");
  for (size_t i = 0; i < nf; i++) {
    char label[32], tail[32];
    const char *name = augur_trace_file_name(t, p->files[i].key);
    size_t len = name ? strlen(name) : 0;
    if (!name) /* not defined by the trace: the id */
      snprintf(label, sizeof label, "%016llx", (unsigned long long)p->files[i].key);
    else if (len <= 24)
      snprintf(label, sizeof label, "%s", name);
    else /* the end of the path says most */
      snprintf(label, sizeof label, "...%s", name + len - 21);
    snprintf(tail, sizeof tail, "  %u", p->files[i].ranks);
    print_row(f, label, &p->files[i], tail);
  }
  if (p->nfiles > nf) fprintf(f, "  (%zu more files)\n", p->nfiles - nf);
  size_t ns = p->nsites < (size_t)top ? p->nsites : (size_t)top;
  fprintf(f, "  %-24s %11s %8s %11s %11s %12s  %s\n", "call", "time", "calls", "written", "read",
          "bandwidth", "call site");
  for (size_t i = 0; i < ns; i++) {
    const augur_report_io_row *s = &p->sites[i];
    char where[512], tail[520];
    augur_fmt_callsite(where, sizeof where, t, (uint32_t)(s->key & 0xffffffffu));
    snprintf(tail, sizeof tail, "  %s", where);
    const char *name = augur_event_name((unsigned)(s->key >> 32));
    print_row(f, strncmp(name, "MPI_", 4) ? name : name + 4, s, tail);
  }
  if (p->nsites > ns) fprintf(f, "  (%zu more call sites)\n", p->nsites - ns);
}

static json_t *u64(uint64_t v) {
  return json_integer((json_int_t)v);
}

/* The row's figures, appended to o (which may hold the row's key already). */
static json_t *row_json(json_t *o, const augur_report_io_row *x) {
  json_object_set_new(o, "calls", u64(x->calls));
  json_object_set_new(o, "time_ns", u64(x->time_ns));
  json_object_set_new(o, "bytes_written", u64(x->written));
  json_object_set_new(o, "bytes_read", u64(x->read));
  json_object_set_new(
      o, "bandwidth_bps",
      json_real(x->time_ns ? (double)(x->written + x->read) * 1e9 / (double)x->time_ns : 0.0));
  return o;
}

json_t *aug_report_io_json(const augur_report *r, augur_trace *t, int top) {
  const augur_report_io *p = r->io;
  if (!p) return NULL;
  augur_report_io_row all = {
      .calls = p->calls, .time_ns = p->time_ns, .written = p->written, .read = p->read};
  json_t *o = row_json(json_object(), &all);
  json_object_set_new(o, "wait_ns", u64(p->wait_ns));
  json_t *ranks = json_array(), *files = json_array(), *sites = json_array();
  for (uint32_t i = 0; i < p->nranks; i++) {
    json_t *x = json_object();
    json_object_set_new(x, "rank", u64(i));
    json_array_append_new(ranks, row_json(x, &p->ranks[i]));
  }
  for (size_t i = 0; i < p->nfiles && i < (size_t)top; i++) {
    char id[32];
    json_t *x = json_object();
    /* 64-bit ids exceed JSON's exact integers: a hex string */
    snprintf(id, sizeof id, "%016llx", (unsigned long long)p->files[i].key);
    json_object_set_new(x, "file", json_string(id));
    json_object_set_new(x, "name", augur_json_text(augur_trace_file_name(t, p->files[i].key)));
    json_object_set_new(x, "ranks", u64(p->files[i].ranks));
    json_array_append_new(files, row_json(x, &p->files[i]));
  }
  for (size_t i = 0; i < p->nsites && i < (size_t)top; i++) {
    const augur_report_io_row *s = &p->sites[i];
    uint32_t cs = (uint32_t)(s->key & 0xffffffffu);
    char where[512];
    augur_fmt_callsite(where, sizeof where, t, cs);
    json_t *x = json_object();
    json_object_set_new(x, "call", json_string(augur_event_name((unsigned)(s->key >> 32))));
    json_object_set_new(x, "callsite", u64(cs));
    json_object_set_new(x, "where", augur_json_text(where));
    json_array_append_new(sites, row_json(x, s));
  }
  json_object_set_new(o, "ranks", ranks);
  json_object_set_new(o, "files", files);
  json_object_set_new(o, "files_total", u64(p->nfiles));
  json_object_set_new(o, "sites", sites);
  json_object_set_new(o, "sites_total", u64(p->nsites));
  return o;
}
