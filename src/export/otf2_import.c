/* OTF2 archive -> augur trace. Archives written by augur carry every event
 * field as attributes and the definitions as a property: those come back
 * exactly (times and peers are turned back into what the writer stores, so
 * the reader's derivations give the same values again). Other archives
 * (Score-P, ...) are mapped from their MPI records as far as they go; the
 * report's notes say what they lack. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "augur/export.h"
#include "augur/mpiio.h"
#include "augur/writer.h"
#include "clock.h"
#include "io.h"
#include "otf2_common.h"
#include "otf2_defs_json.h"

#define MAX_REF   (1u << 24) /* definitions beyond this are refused, not allocated */
#define BLOCK_EVS 4096

typedef struct igroup {
  int used;
  uint32_t type, n;
  uint64_t *m;
} igroup;
typedef struct icomm {
  int used;
  uint32_t name, group, parent;
  uint64_t id;
} icomm;
typedef struct ilgrp {
  int used;
  uint32_t type, stn, rank;
} ilgrp;
typedef struct iloc {
  uint64_t ref;
  uint32_t group, rank, thread;
  uint64_t nevents;
  OTF2_EvtReader *er; /* opened before anything is written */
} iloc;

/* One open MPI call of a foreign archive, and the augur events queued for
 * the location's next block. */
typedef struct lstate {
  uint32_t rank, thread;
  int depth;      /* nesting of regions inside the open MPI call */
  int open;       /* an MPI call is open */
  augur_event ev; /* the open call */
  augur_event subs[64];
  uint32_t nsubs;
  augur_event *buf;
  size_t n;
} lstate;

typedef struct im {
  const char *anchor;
  augur_error *err;
  int rc;
  char **str;
  uint32_t nstr;
  int *attr; /* attribute ref -> OTF2A_* or -1 */
  uint32_t nattr;
  int *region; /* region ref -> augur type or -1 (not MPI) */
  uint32_t nregion;
  ilgrp *lg;
  uint32_t nlg;
  uint32_t *stn; /* system tree node -> name string */
  uint32_t nstn;
  iloc *locs;
  size_t nlocs, caplocs;
  igroup *grp;
  uint32_t ngrp;
  icomm *comm;
  uint32_t ncomm;
  uint64_t res, goff, realtime;
  int have_clock;
  uint32_t nranks;
  otf2_defs defs; /* augur's own definitions, if the archive has them */
  int augur;
  augur_comm_def *cdefs; /* communicators used for peers (defs.comms or derived) */
  size_t ncdefs;
  /* current rank */
  augur_writer *w;
  int64_t shift;
  augur_rank_def *rdef;
  uint64_t last_ns;
  /* counts for the notes */
  uint64_t events, skipped_regions, metrics, unmapped_records, foreign_events, exact_events;
  uint64_t iorma_records; /* Io* and Rma* records of a foreign archive (not read) */
  uint64_t done, total;
  const augur_export_opts *opts;
} im;

/* ---- growable ref-indexed tables ---- */

static int grow(void **p, uint32_t *n, uint32_t ref, size_t sz) {
  if (ref >= MAX_REF) return -1;
  if (ref < *n) return 0;
  uint32_t nn = ref + 1 > 2 * *n ? ref + 1 : 2 * *n;
  void *q = realloc(*p, (size_t)nn * sz);
  if (!q) return -1;
  memset((char *)q + (size_t)*n * sz, 0, (size_t)(nn - *n) * sz);
  *p = q;
  *n = nn;
  return 0;
}

static OTF2_CallbackCode bad(im *m, const char *what) {
  if (m->rc == AUGUR_OK) m->rc = augur_fail(m->err, AUGUR_E_FORMAT, "%s: %s", m->anchor, what);
  return OTF2_CALLBACK_INTERRUPT;
}

static const char *sref(const im *m, uint32_t ref) {
  return ref < m->nstr && m->str[ref] ? m->str[ref] : "";
}

/* ---- global definitions ---- */

static OTF2_CallbackCode d_clock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t rt) {
  im *m = u;
  (void)len;
  m->res = res ? res : 1000000000u;
  m->goff = off;
  m->realtime = rt;
  m->have_clock = 1;
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode d_string(void *u, OTF2_StringRef self, const char *s) {
  im *m = u;
  if (grow((void **)&m->str, &m->nstr, self, sizeof *m->str))
    return bad(m, "string reference out of range");
  free(m->str[self]);
  m->str[self] = strdup(s ? s : "");
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode d_attr(void *u, OTF2_AttributeRef self, OTF2_StringRef name,
                                OTF2_StringRef desc, OTF2_Type type) {
  im *m = u;
  (void)desc;
  uint32_t old = m->nattr;
  if (grow((void **)&m->attr, &m->nattr, self, sizeof *m->attr))
    return bad(m, "attribute reference out of range");
  for (uint32_t i = old; i < m->nattr; i++)
    m->attr[i] = -1;
  m->attr[self] = -1;
  if (type != OTF2_TYPE_UINT64) return OTF2_CALLBACK_SUCCESS;
  for (int a = 0; a < OTF2A_COUNT; a++)
    if (strcmp(sref(m, name), otf2_attr_names[a]) == 0) m->attr[self] = a;
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode d_stn(void *u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                               OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent) {
  im *m = u;
  (void)cls;
  (void)parent;
  if (grow((void **)&m->stn, &m->nstn, self, sizeof *m->stn))
    return bad(m, "system tree reference out of range");
  m->stn[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode d_lgroup(void *u, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                  OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef stn,
                                  OTF2_LocationGroupRef creator) {
  im *m = u;
  (void)name;
  (void)creator;
  if (grow((void **)&m->lg, &m->nlg, self, sizeof *m->lg))
    return bad(m, "location group reference out of range");
  m->lg[self].used = 1;
  m->lg[self].type = type;
  m->lg[self].stn = stn;
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode d_loc(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                               OTF2_LocationType type, uint64_t nev, OTF2_LocationGroupRef g) {
  im *m = u;
  (void)name;
  (void)type;
  if (m->nlocs == m->caplocs) {
    size_t cap = m->caplocs ? 2 * m->caplocs : 64;
    iloc *n = realloc(m->locs, cap * sizeof *n);
    if (!n || cap > MAX_REF) return bad(m, "too many locations");
    m->locs = n;
    m->caplocs = cap;
  }
  iloc *l = &m->locs[m->nlocs++];
  memset(l, 0, sizeof *l);
  l->ref = self;
  l->group = g;
  l->nevents = nev;
  m->total += nev;
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode d_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                  OTF2_StringRef canon, OTF2_StringRef desc, OTF2_RegionRole role,
                                  OTF2_Paradigm par, OTF2_RegionFlag fl, OTF2_StringRef file,
                                  uint32_t b, uint32_t e) {
  im *m = u;
  (void)desc;
  (void)role;
  (void)fl;
  (void)file;
  (void)b;
  (void)e;
  (void)par;
  uint32_t old = m->nregion;
  if (grow((void **)&m->region, &m->nregion, self, sizeof *m->region))
    return bad(m, "region reference out of range");
  for (uint32_t i = old; i < m->nregion; i++)
    m->region[i] = -1;
  const char *n = sref(m, canon);
  if (!*n) n = sref(m, name);
  int ty = -1;
  if (strncmp(n, OTF2_SUB_PREFIX, strlen(OTF2_SUB_PREFIX)) == 0) {
    const char *s = n + strlen(OTF2_SUB_PREFIX);
    ty = strcmp(s, "COMPLETION") == 0  ? AUGUR_EV_COMPLETION
         : strcmp(s, "SUB_RECV") == 0  ? AUGUR_EV_SUB_RECV
         : strcmp(s, "SUB_START") == 0 ? AUGUR_EV_SUB_START
                                       : -1;
  } else if ((n[0] == 'M' || n[0] == 'm') && (n[1] == 'P' || n[1] == 'p') &&
             (n[2] == 'I' || n[2] == 'i') && n[3] == '_') {
    ty = augur_event_from_name(n);
    if (ty == AUGUR_EV_NONE) ty = -1;
  }
  m->region[self] = ty;
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode d_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                 OTF2_GroupType type, OTF2_Paradigm par, OTF2_GroupFlag fl,
                                 uint32_t n, const uint64_t *mem) {
  im *m = u;
  (void)name;
  (void)fl;
  if (grow((void **)&m->grp, &m->ngrp, self, sizeof *m->grp))
    return bad(m, "group reference out of range");
  igroup *g = &m->grp[self];
  free(g->m);
  g->used = 1;
  g->type = type;
  if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && par != OTF2_PARADIGM_MPI) g->type = 0;
  g->n = n;
  g->m = malloc(((size_t)n + 1) * sizeof *g->m);
  if (!g->m) return bad(m, "out of memory for a group");
  if (n) memcpy(g->m, mem, (size_t)n * sizeof *mem);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode d_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag fl) {
  im *m = u;
  (void)fl;
  if (grow((void **)&m->comm, &m->ncomm, self, sizeof *m->comm))
    return bad(m, "communicator reference out of range");
  m->comm[self].used = 1;
  m->comm[self].name = name;
  m->comm[self].group = group;
  m->comm[self].parent = parent;
  return OTF2_CALLBACK_SUCCESS;
}

/* ---- communicators and ranks derived from OTF2 definitions ---- */

static int cmp_loc(const void *a, const void *b) {
  const iloc *x = a, *y = b;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return x->thread < y->thread ? -1 : x->thread > y->thread;
}

static int rank_of_location(const im *m, uint64_t ref) {
  for (size_t i = 0; i < m->nlocs; i++)
    if (m->locs[i].ref == ref) return (int)m->locs[i].rank;
  return -1;
}

/* Ranks are the process location groups in reference order; threads are a
 * rank's locations in definition order. */
static int assign_ranks(im *m) {
  uint32_t n = 0;
  for (uint32_t g = 0; g < m->nlg; g++)
    if (m->lg[g].used && m->lg[g].type == OTF2_LOCATION_GROUP_TYPE_PROCESS) m->lg[g].rank = n++;
  if (n == 0)
    return augur_fail(m->err, AUGUR_E_FORMAT,
                      "%s: no process location groups (no MPI ranks) in the archive", m->anchor);
  m->nranks = n;
  for (size_t i = 0; i < m->nlocs; i++) {
    iloc *l = &m->locs[i];
    if (l->group >= m->nlg || !m->lg[l->group].used ||
        m->lg[l->group].type != OTF2_LOCATION_GROUP_TYPE_PROCESS) {
      l->rank = UINT32_MAX; /* not an MPI process: skipped */
      continue;
    }
    l->rank = m->lg[l->group].rank;
    l->thread = 0;
    for (size_t k = 0; k < i; k++)
      if (m->locs[k].rank == l->rank) l->thread++;
  }
  qsort(m->locs, m->nlocs, sizeof *m->locs, cmp_loc);
  return AUGUR_OK;
}

static uint64_t comm_id(const im *m, uint32_t ref) {
  return ref < m->ncomm && m->comm[ref].used ? m->comm[ref].id : AUGUR_COMM_NONE;
}

static int derive_comms(im *m) {
  const igroup *locs = NULL;
  for (uint32_t g = 0; g < m->ngrp && !locs; g++)
    if (m->grp[g].used && m->grp[g].type == OTF2_GROUP_TYPE_COMM_LOCATIONS) locs = &m->grp[g];
  m->cdefs = calloc(m->ncomm ? m->ncomm : 1, sizeof *m->cdefs);
  if (!m->cdefs) return augur_fail(m->err, AUGUR_E_NOMEM, "out of memory");
  int have_world = 0;
  for (uint32_t i = 0; i < m->ncomm; i++) {
    icomm *c = &m->comm[i];
    if (!c->used) continue;
    const igroup *g = c->group < m->ngrp && m->grp[c->group].used ? &m->grp[c->group] : NULL;
    augur_comm_def *d = &m->cdefs[m->ncdefs++];
    d->kind = AUGUR_COMM_KIND_OTHER;
    if (g && g->type == OTF2_GROUP_TYPE_COMM_SELF) {
      c->id = AUGUR_COMM_SELF;
      d->kind = AUGUR_COMM_KIND_SELF;
    } else {
      uint32_t n = g ? g->n : 0;
      d->members = calloc(n ? n : 1, sizeof *d->members);
      if (!d->members) return augur_fail(m->err, AUGUR_E_NOMEM, "out of memory");
      int identity = n == m->nranks;
      for (uint32_t k = 0; k < n; k++) {
        uint64_t ix = g->m[k];
        int r = locs ? (ix < locs->n ? rank_of_location(m, locs->m[ix]) : -1) : (int)ix;
        d->members[k] = r;
        if (r != (int)k) identity = 0;
      }
      d->size = n;
      if (!have_world && identity &&
          (c->parent == OTF2_UNDEFINED_COMM || strcmp(sref(m, c->name), "MPI_COMM_WORLD") == 0)) {
        c->id = AUGUR_COMM_WORLD;
        d->kind = AUGUR_COMM_KIND_WORLD;
        have_world = 1;
      } else {
        c->id = 0x6f74663200000000ull | i; /* "otf2" + reference: stable, never 0/1/2 */
      }
    }
    d->id = c->id;
  }
  for (size_t i = 0, k = 0; i < m->ncomm; i++) {
    if (!m->comm[i].used) continue;
    m->cdefs[k++].parent =
        m->comm[i].parent == OTF2_UNDEFINED_COMM ? 0 : comm_id(m, m->comm[i].parent);
  }
  return AUGUR_OK;
}

static const augur_comm_def *find_cdef(const im *m, uint64_t id) {
  for (size_t i = 0; i < m->ncdefs; i++)
    if (m->cdefs[i].id == id) return &m->cdefs[i];
  return NULL;
}

/* Comm-local rank (OTF2) -> world rank. */
static int32_t world_peer(const im *m, uint64_t comm, uint32_t local, uint32_t rank) {
  if (local == OTF2_UNDEFINED_UINT32) return AUGUR_PEER_NONE;
  if (comm == AUGUR_COMM_SELF) return (int32_t)rank;
  const augur_comm_def *c = find_cdef(m, comm);
  if (!c || !c->members || local >= c->size) return (int32_t)local;
  return c->members[local];
}

/* World rank -> what the writer stores: the rank in the communicator (in the
 * other group for intercommunicator peers), the inverse of the reader. */
static int32_t stored_peer(const im *m, const augur_event *e, uint32_t rank) {
  if (e->peer < 0) return e->peer;
  /* the reader leaves these peers as stored (Comm_free's 0 is no rank) */
  if (augur_event_is_comm_mgmt(e->type) || augur_event_is_process(e->type)) return e->peer;
  if (e->comm == AUGUR_COMM_SELF) return e->peer == (int32_t)rank ? 0 : e->peer;
  const augur_comm_def *c = find_cdef(m, e->comm);
  if (!c) return e->peer;
  const int32_t *g = c->members;
  uint32_t n = c->size;
  if (e->flags & AUGUR_F_INTER) {
    int in_members = 0;
    for (uint32_t i = 0; c->members && i < c->size; i++)
      if (c->members[i] == (int32_t)rank) in_members = 1;
    if (in_members) {
      g = c->remote;
      n = c->remote_size;
    }
  }
  for (uint32_t i = 0; g && i < n; i++)
    if (g[i] == e->peer) return (int32_t)i;
  return e->peer;
}

/* ---- events ---- */

static void note(augur_import_report *rep, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void note(augur_import_report *rep, const char *fmt, ...) {
  if (!rep) return;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  char **n = realloc(rep->notes, (rep->nnotes + 1) * sizeof *n);
  if (!n) return;
  rep->notes = n;
  if ((n[rep->nnotes] = strdup(buf))) rep->nnotes++;
}

static uint64_t ts_ns(const im *m, OTF2_TimeStamp ts) {
  uint64_t t = ts >= m->goff ? ts - m->goff : 0;
  if (m->res == 1000000000u) return t;
  return (uint64_t)((long double)t * 1e9L / (long double)m->res);
}

static int flush_buf(im *m, lstate *s) {
  if (!s->n || m->rc != AUGUR_OK) return m->rc;
  int rc = augur_writer_events(m->w, s->thread, s->buf, s->n, m->err);
  s->n = 0;
  if (rc != AUGUR_OK) m->rc = rc;
  return m->rc;
}

/* Queues one event in reader form (global times, world peers) as the writer
 * stores it. Blocks end only before a non-sub-record, keeping a call and its
 * sub-records together. */
static int push(im *m, lstate *s, const augur_event *e) {
  if (s->n >= BLOCK_EVS && !augur_event_is_sub(e->type) && flush_buf(m, s) != AUGUR_OK)
    return m->rc;
  augur_event *o = &s->buf[s->n++];
  *o = *e;
  o->rank = s->rank;
  o->thread = s->thread;
  if (m->augur) {
    aug_clock c;
    aug_clock_setup(&c, m->rdef);
    o->t_start = aug_clock_to_local(&c, m->shift, e->t_start);
    o->t_end = aug_clock_to_local(&c, m->shift, e->t_end);
  }
  o->peer = stored_peer(m, e, s->rank);
  if (augur_io_is_completion(e) && augur_io_is_write((unsigned)e->tag)) {
    /* the reader moves an iwrite's status count from bytes_recv (on disk) to bytes */
    o->bytes_recv = e->bytes;
    o->bytes = 0;
  }
  if (o->t_end > m->last_ns) m->last_ns = o->t_end;
  m->events++;
  m->done++;
  if (m->opts && m->opts->progress && (m->done & 0xffffu) == 0)
    m->opts->progress(m->opts->progress_ctx, m->done, m->total);
  return AUGUR_OK;
}

static int augur_attrs(const im *m, const OTF2_AttributeList *al, augur_event *e) {
  if (!al) return 0;
  uint32_t n = OTF2_AttributeList_GetNumberOfElements(al);
  int found = 0;
  memset(e, 0, sizeof *e);
  for (uint32_t i = 0; i < n; i++) {
    OTF2_AttributeRef a;
    OTF2_Type ty;
    OTF2_AttributeValue v;
    if (OTF2_AttributeList_GetAttributeByIndex(al, i, &a, &ty, &v) != OTF2_SUCCESS) continue;
    if (a >= m->nattr || m->attr[a] < 0 || ty != OTF2_TYPE_UINT64) continue;
    otf2_attr_set(e, (unsigned)m->attr[a], v.uint64);
    if (m->attr[a] == OTF2A_TYPE) found = v.uint64 < AUGUR_EV_MAX;
  }
  return found;
}

typedef struct ectx {
  im *m;
  lstate *s;
} ectx;

static OTF2_CallbackCode e_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_RegionRef region) {
  ectx *c = u;
  im *m = c->m;
  lstate *s = c->s;
  (void)loc;
  (void)pos;
  augur_event e;
  if (m->augur && augur_attrs(m, al, &e)) {
    m->exact_events++;
    return push(m, s, &e) == AUGUR_OK ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
  }
  if (s->open) {
    s->depth++;
    return OTF2_CALLBACK_SUCCESS;
  }
  int ty = region < m->nregion ? m->region[region] : -1;
  if (ty < 0 || augur_event_is_sub((unsigned)ty)) {
    m->skipped_regions++;
    s->depth++; /* a non-MPI region: MPI calls inside it are still taken */
    s->depth--;
    return OTF2_CALLBACK_SUCCESS;
  }
  memset(&s->ev, 0, sizeof s->ev);
  s->ev.type = (uint16_t)ty;
  s->ev.t_start = ts_ns(m, t);
  s->ev.peer = AUGUR_PEER_NONE;
  s->ev.tag = AUGUR_TAG_NONE;
  s->open = 1;
  s->depth = 0;
  s->nsubs = 0;
  m->foreign_events++;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_RegionRef region) {
  ectx *c = u;
  im *m = c->m;
  lstate *s = c->s;
  (void)loc;
  (void)pos;
  (void)al;
  (void)region;
  if (!s->open) return OTF2_CALLBACK_SUCCESS;
  if (s->depth > 0) {
    s->depth--;
    return OTF2_CALLBACK_SUCCESS;
  }
  s->ev.t_end = ts_ns(m, t);
  if (s->ev.type != AUGUR_EV_WAITANY && s->ev.type != AUGUR_EV_TESTANY) s->ev.aux = s->nsubs;
  s->open = 0;
  if (push(m, s, &s->ev) != AUGUR_OK) return OTF2_CALLBACK_INTERRUPT;
  for (uint32_t i = 0; i < s->nsubs; i++) {
    s->subs[i].t_start = s->ev.t_start;
    s->subs[i].t_end = s->ev.t_end;
    if (push(m, s, &s->subs[i]) != AUGUR_OK) return OTF2_CALLBACK_INTERRUPT;
  }
  return OTF2_CALLBACK_SUCCESS;
}

/* The open call of a foreign archive, or NULL (record outside any MPI call,
 * or an augur archive whose fields came with the Enter). */
static augur_event *cur(ectx *c) {
  if (c->s->open) return &c->s->ev;
  if (!c->m->augur) c->m->unmapped_records++;
  return NULL;
}
static augur_event *sub(ectx *c, uint16_t type) {
  lstate *s = c->s;
  if (!s->open || s->nsubs >= sizeof s->subs / sizeof s->subs[0]) {
    c->m->unmapped_records++;
    return NULL;
  }
  augur_event *e = &s->subs[s->nsubs++];
  memset(e, 0, sizeof *e);
  e->type = type;
  e->peer = AUGUR_PEER_NONE;
  e->tag = AUGUR_TAG_NONE;
  return e;
}

static OTF2_CallbackCode e_send(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                OTF2_AttributeList *al, uint32_t to, OTF2_CommRef comm,
                                uint32_t tag, uint64_t len) {
  ectx *c = u;
  (void)loc;
  (void)t;
  (void)pos;
  (void)al;
  augur_event *e = cur(c);
  if (!e) return OTF2_CALLBACK_SUCCESS;
  e->comm = comm_id(c->m, comm);
  e->peer = world_peer(c->m, e->comm, to, c->s->rank);
  e->tag = (int32_t)tag;
  e->bytes = len;
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_isend(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, uint32_t to, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len, uint64_t req) {
  ectx *c = u;
  OTF2_CallbackCode rc = e_send(loc, t, pos, u, al, to, comm, tag, len);
  if (c->s->open) c->s->ev.req = req;
  return rc;
}
static OTF2_CallbackCode e_recv(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                OTF2_AttributeList *al, uint32_t from, OTF2_CommRef comm,
                                uint32_t tag, uint64_t len) {
  ectx *c = u;
  (void)loc;
  (void)t;
  (void)pos;
  (void)al;
  if (!c->s->open) return cur(c), OTF2_CALLBACK_SUCCESS;
  augur_event *e = &c->s->ev;
  if (augur_event_is_sendrecv(e->type)) {
    e = sub(c, AUGUR_EV_SUB_RECV); /* the receive half is a sub-record in augur */
    if (!e) return OTF2_CALLBACK_SUCCESS;
  }
  e->comm = comm_id(c->m, comm);
  e->peer = world_peer(c->m, e->comm, from, c->s->rank);
  e->tag = (int32_t)tag;
  e->bytes_recv = len;
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_irecvreq(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                    OTF2_AttributeList *al, uint64_t req) {
  ectx *c = u;
  (void)loc;
  (void)t;
  (void)pos;
  (void)al;
  augur_event *e = cur(c);
  if (e) e->req = req;
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_isendc(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint64_t req) {
  ectx *c = u;
  (void)loc;
  (void)t;
  (void)pos;
  (void)al;
  if (!c->s->open && c->m->augur) return OTF2_CALLBACK_SUCCESS;
  augur_event *e = sub(c, AUGUR_EV_COMPLETION);
  if (e) {
    e->req = req;
    e->flags = AUGUR_F_SENDREQ;
  }
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_irecv(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, uint32_t from, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len, uint64_t req) {
  ectx *c = u;
  (void)loc;
  (void)t;
  (void)pos;
  (void)al;
  if (!c->s->open && c->m->augur) return OTF2_CALLBACK_SUCCESS;
  augur_event *e = sub(c, AUGUR_EV_COMPLETION);
  if (e) {
    e->req = req;
    e->flags = AUGUR_F_RECVREQ;
    e->comm = comm_id(c->m, comm);
    e->peer = world_peer(c->m, e->comm, from, c->s->rank);
    e->tag = (int32_t)tag;
    e->bytes_recv = len;
  }
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_collend(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *al, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                   uint32_t root, uint64_t sent, uint64_t recvd) {
  ectx *c = u;
  (void)loc;
  (void)t;
  (void)pos;
  (void)al;
  (void)op;
  augur_event *e = cur(c);
  if (!e) return OTF2_CALLBACK_SUCCESS;
  e->comm = comm_id(c->m, comm);
  e->peer = world_peer(c->m, e->comm, root, c->s->rank);
  e->bytes = sent;
  e->bytes_recv = recvd;
  if (e->peer == (int32_t)c->s->rank) e->flags |= AUGUR_F_ROOT;
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_metric(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_MetricRef metric, uint8_t n,
                                  const OTF2_Type *ty, const OTF2_MetricValue *v) {
  ectx *c = u;
  (void)loc;
  (void)t;
  (void)pos;
  (void)al;
  (void)metric;
  (void)n;
  (void)ty;
  (void)v;
  if (!c->m->augur) c->m->metrics++;
  return OTF2_CALLBACK_SUCCESS;
}

/* MPI-IO and one-sided records: an augur archive's events come from their
 * attributes; another tool's are counted for the note (not mapped). */
static OTF2_CallbackCode count_iorma(void *u) {
  ectx *c = u;
  if (!c->m->augur) c->m->iorma_records++;
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_io_create(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                     OTF2_AttributeList *a, OTF2_IoHandleRef h, OTF2_IoAccessMode m,
                                     OTF2_IoCreationFlag cf, OTF2_IoStatusFlag sf) {
  (void)l, (void)t, (void)p, (void)a, (void)h, (void)m, (void)cf, (void)sf;
  return count_iorma(u);
}
static OTF2_CallbackCode e_io_begin(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                    OTF2_AttributeList *a, OTF2_IoHandleRef h,
                                    OTF2_IoOperationMode m, OTF2_IoOperationFlag f, uint64_t b,
                                    uint64_t id) {
  (void)l, (void)t, (void)p, (void)a, (void)h, (void)m, (void)f, (void)b, (void)id;
  return count_iorma(u);
}
static OTF2_CallbackCode e_rma_win(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                   OTF2_AttributeList *a, OTF2_RmaWinRef w) {
  (void)l, (void)t, (void)p, (void)a, (void)w;
  return count_iorma(u);
}
static OTF2_CallbackCode e_rma_xfer(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                    OTF2_AttributeList *a, OTF2_RmaWinRef w, uint32_t r, uint64_t b,
                                    uint64_t id) {
  (void)l, (void)t, (void)p, (void)a, (void)w, (void)r, (void)b, (void)id;
  return count_iorma(u);
}
static OTF2_CallbackCode e_rma_atomic(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                      OTF2_AttributeList *a, OTF2_RmaWinRef w, uint32_t r,
                                      OTF2_RmaAtomicType ty, uint64_t bs, uint64_t br,
                                      uint64_t id) {
  (void)l, (void)t, (void)p, (void)a, (void)w, (void)r, (void)ty, (void)bs, (void)br, (void)id;
  return count_iorma(u);
}

/* ---- per rank ---- */

static int write_rank_defs(im *m, uint32_t r) {
  augur_error *err = m->err;
  int rc = AUGUR_OK;
  for (size_t i = 0; i < m->ncdefs && rc == AUGUR_OK; i++) {
    augur_comm_def c = m->cdefs[i];
    int member = 0;
    for (uint32_t k = 0; c.members && k < c.size; k++)
      if (c.members[k] == (int32_t)r) member = 1;
    for (uint32_t k = 0; c.remote && k < c.remote_size; k++)
      if (c.remote[k] == (int32_t)r) member = 1;
    int32_t self = (int32_t)r;
    /* a group (Win_post/start) is defined by the ranks that name it, members or not */
    if (c.kind == AUGUR_COMM_KIND_GROUP) member = 1;
    if (c.id == AUGUR_COMM_SELF) {
      c.members = &self;
      c.size = 1;
      member = 1;
    }
    if (member) rc = augur_writer_def_comm(m->w, &c, err);
  }
  if (m->augur) {
    for (uint32_t i = 0; i < m->defs.nmodules && rc == AUGUR_OK; i++)
      rc = augur_writer_def_module(m->w, &m->defs.modules[i], err);
    for (uint32_t i = 0; i < m->defs.ncallsites && rc == AUGUR_OK; i++)
      rc = augur_writer_def_callsite(m->w, &m->defs.callsites[i], err);
    for (size_t i = 0; i < m->defs.nfiles && rc == AUGUR_OK; i++)
      rc = augur_writer_def_file(m->w, &m->defs.files[i], err);
  }
  return rc;
}

static int import_rank(im *m, OTF2_Reader *rd, uint32_t r, const char *out) {
  int rc = augur_writer_open(&m->w, out, r, m->nranks, 0, m->err);
  if (rc != AUGUR_OK) return rc;
  augur_rank_def local = {0};
  m->rdef = m->augur && m->defs.has_rank[r] ? &m->defs.ranks[r] : NULL;
  m->last_ns = 0;
  rc = write_rank_defs(m, r);
  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
  if (!cb) rc = augur_fail(m->err, AUGUR_E_NOMEM, "out of memory");
  if (cb) {
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, e_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, e_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, e_send);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, e_isend);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, e_recv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, e_irecvreq);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, e_isendc);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, e_irecv);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, e_collend);
    OTF2_EvtReaderCallbacks_SetMetricCallback(cb, e_metric);
    OTF2_EvtReaderCallbacks_SetIoCreateHandleCallback(cb, e_io_create);
    OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(cb, e_io_begin);
    OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(cb, e_rma_win);
    OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, e_rma_xfer);
    OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, e_rma_xfer);
    OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, e_rma_atomic);
  }
  for (size_t i = 0; i < m->nlocs && rc == AUGUR_OK; i++) {
    if (m->locs[i].rank != r) continue;
    lstate *s = calloc(1, sizeof *s);
    augur_event *buf = malloc((BLOCK_EVS + 128) * sizeof *buf);
    if (!s || !buf) {
      free(s);
      free(buf);
      rc = augur_fail(m->err, AUGUR_E_NOMEM, "out of memory");
      break;
    }
    s->buf = buf;
    s->rank = r;
    s->thread = m->locs[i].thread;
    ectx c = {m, s};
    OTF2_EvtReader *er = m->locs[i].er;
    if (!er) {
      rc = augur_fail(m->err, AUGUR_E_FORMAT, "%s: rank %u: no event reader for location %llu",
                      m->anchor, r, (unsigned long long)m->locs[i].ref);
    } else {
      uint64_t n = 0;
      OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, &c);
      OTF2_ErrorCode e = OTF2_Reader_ReadAllLocalEvents(rd, er, &n);
      if (m->rc != AUGUR_OK)
        rc = m->rc;
      else if (e != OTF2_SUCCESS && e != OTF2_ERROR_INTERRUPTED_BY_CALLBACK)
        rc = augur_fail(m->err, AUGUR_E_FORMAT, "%s: rank %u: event records unreadable: %s",
                        m->anchor, r, OTF2_Error_GetDescription(e));
      if (rc == AUGUR_OK) rc = flush_buf(m, s);
      OTF2_Reader_CloseEvtReader(rd, er);
      m->locs[i].er = NULL;
    }
    free(s->buf);
    free(s);
  }
  if (cb) OTF2_EvtReaderCallbacks_Delete(cb);
  if (rc == AUGUR_OK) {
    if (m->rdef) {
      rc = augur_writer_def_rank(m->w, m->rdef, m->err);
    } else {
      local.rank = r;
      local.nranks = m->nranks;
      local.thread_level = -1;
      /* No clock sync: every rank's clock is the archive's, and 0 (not the first
       * event) stays 0 so no rank's events fall before the reader's origin. */
      local.init_ns = 0;
      local.finalize_ns = m->last_ns;
      for (size_t i = 0; i < m->nlocs; i++)
        if (m->locs[i].rank == r) {
          uint32_t g = m->locs[i].group;
          uint32_t st = g < m->nlg ? m->lg[g].stn : OTF2_UNDEFINED_SYSTEM_TREE_NODE;
          local.host = st < m->nstn ? (char *)sref(m, m->stn[st]) : NULL;
          break;
        }
      rc = augur_writer_def_rank(m->w, &local, m->err);
    }
  }
  int rc2 = augur_writer_close(m->w, rc == AUGUR_OK ? m->err : NULL);
  m->w = NULL;
  return rc != AUGUR_OK ? rc : rc2;
}

static int read_defs(im *m, OTF2_Reader *rd) {
  OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(rd);
  OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
  if (!gd || !cb) {
    if (cb) OTF2_GlobalDefReaderCallbacks_Delete(cb);
    return augur_fail(m->err, AUGUR_E_FORMAT, "%s: global definitions unreadable", m->anchor);
  }
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, d_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, d_string);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, d_attr);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, d_stn);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, d_lgroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, d_loc);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, d_region);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, d_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, d_comm);
  OTF2_Reader_RegisterGlobalDefCallbacks(rd, gd, cb, m);
  uint64_t n = 0;
  OTF2_ErrorCode e = OTF2_Reader_ReadAllGlobalDefinitions(rd, gd, &n);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  OTF2_Reader_CloseGlobalDefReader(rd, gd);
  if (m->rc != AUGUR_OK) return m->rc;
  if (e != OTF2_SUCCESS)
    return augur_fail(m->err, AUGUR_E_FORMAT, "%s: global definitions unreadable: %s", m->anchor,
                      OTF2_Error_GetDescription(e));
  if (m->nlocs == 0)
    return augur_fail(m->err, AUGUR_E_FORMAT, "%s: the archive defines no locations", m->anchor);
  return AUGUR_OK;
}

/* libotf2 prints its errors on stderr by default; augur reports one line. */
static OTF2_ErrorCode quiet(void *u, const char *file, uint64_t line, const char *fn,
                            OTF2_ErrorCode code, const char *fmt, va_list va) {
  (void)u;
  (void)file;
  (void)line;
  (void)fn;
  (void)fmt;
  (void)va;
  return code;
}

static void free_im(im *m) {
  for (uint32_t i = 0; i < m->nstr; i++)
    free(m->str[i]);
  free(m->str);
  free(m->attr);
  free(m->region);
  free(m->lg);
  free(m->stn);
  free(m->locs);
  for (uint32_t i = 0; i < m->ngrp; i++)
    free(m->grp[i].m);
  free(m->grp);
  free(m->comm);
  if (!m->augur && m->cdefs)
    for (size_t i = 0; i < m->ncdefs; i++)
      free(m->cdefs[i].members);
  if (!m->augur) free(m->cdefs);
  otf2_defs_free(&m->defs);
}

/* The definitions file NAME (OTF2_AUGUR_PROPERTY_FILE's value, a plain file name) of the
 * archive whose anchor file is ANCHOR, read whole; NULL when absent, unreadable or NAME has a
 * '/' (the archive names a file of its own directory, nothing else). */
static char *defs_file(const char *anchor, const char *name) {
  if (!*name || strchr(name, '/')) return NULL;
  const char *slash = strrchr(anchor, '/');
  int dir = slash ? (int)(slash - anchor) : 1;
  char p[4300];
  if (snprintf(p, sizeof p, "%.*s/%s", dir, slash ? anchor : ".", name) >= (int)sizeof p)
    return NULL;
  int fd = open(p, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat sb;
  char *buf = NULL;
  if (fstat(fd, &sb) == 0 && sb.st_size < (1 << 30) && (buf = malloc((size_t)sb.st_size + 1))) {
    if (aug_read_all(fd, buf, (size_t)sb.st_size) == 0)
      buf[sb.st_size] = 0;
    else
      free(buf), buf = NULL;
  }
  close(fd);
  return buf;
}

int augur_import_otf2(const char *anchor, const char *out, const augur_export_opts *o,
                      augur_import_report *rep, augur_error *err) {
  if (rep) memset(rep, 0, sizeof *rep);
  if (!anchor || !out) return augur_fail(err, AUGUR_E_ARG, "otf2 import: no archive or no output");
  struct stat sb;
  if (stat(anchor, &sb) != 0 || !S_ISREG(sb.st_mode))
    return augur_fail(err, AUGUR_E_MISSING, "%s: no such OTF2 anchor file (expected NAME.otf2)",
                      anchor);
  OTF2_Error_RegisterCallback(quiet, NULL);
  OTF2_Reader *rd = OTF2_Reader_Open(anchor);
  if (!rd) return augur_fail(err, AUGUR_E_FORMAT, "%s: not a readable OTF2 archive", anchor);
  im m;
  memset(&m, 0, sizeof m);
  m.anchor = anchor;
  m.err = err;
  m.opts = o;
  m.res = 1000000000u;
  int rc = AUGUR_OK;
  if (OTF2_Reader_SetSerialCollectiveCallbacks(rd) != OTF2_SUCCESS) {
    rc = augur_fail(err, AUGUR_E_FORMAT, "%s: not a readable OTF2 archive", anchor);
    goto done;
  }
  char *prop = NULL;
  if (OTF2_Reader_GetProperty(rd, OTF2_AUGUR_PROPERTY, &prop) == OTF2_SUCCESS && prop) {
    m.augur = otf2_defs_parse(prop, &m.defs) == 0;
    free(prop);
  } else if (OTF2_Reader_GetProperty(rd, OTF2_AUGUR_PROPERTY_FILE, &prop) == OTF2_SUCCESS && prop) {
    char *json = defs_file(anchor, prop);
    free(prop);
    m.augur = json && otf2_defs_parse(json, &m.defs) == 0;
    free(json);
  }
  rc = read_defs(&m, rd);
  if (rc == AUGUR_OK) rc = assign_ranks(&m);
  if (rc == AUGUR_OK && m.augur && m.defs.nranks != m.nranks) {
    note(rep, "augur definitions name %u ranks but the archive has %u: read as a foreign archive",
         m.defs.nranks, m.nranks);
    otf2_defs_free(&m.defs);
    m.augur = 0;
  }
  if (rc == AUGUR_OK) {
    if (m.augur) {
      m.cdefs = m.defs.comms;
      m.ncdefs = m.defs.ncomms;
      for (uint32_t i = 0, k = 0; i < m.ncomm; i++) /* OTF2 comm i is augur comm i */
        if (m.comm[i].used) m.comm[i].id = k < m.ncdefs ? m.cdefs[k++].id : 0;
    } else {
      rc = derive_comms(&m);
    }
  }
  if (rc != AUGUR_OK) goto done;
  if (m.augur && m.defs.has_rank[0]) {
    aug_clock c;
    aug_clock_setup(&c, &m.defs.ranks[0]);
    m.shift = aug_clock_shift(&c, m.defs.ranks[0].init_ns);
  }
  for (size_t i = 0; i < m.nlocs; i++)
    if (m.locs[i].rank != UINT32_MAX) OTF2_Reader_SelectLocation(rd, m.locs[i].ref);
  if (OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS) {
    rc = augur_fail(err, AUGUR_E_FORMAT, "%s: event files cannot be opened", anchor);
    goto done;
  }
  /* Local definitions (mappings) must be read before the events. */
  if (OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS) {
    for (size_t i = 0; i < m.nlocs; i++) {
      if (m.locs[i].rank == UINT32_MAX) continue;
      OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, m.locs[i].ref);
      if (!dr) continue;
      uint64_t n = 0;
      OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
      OTF2_Reader_CloseDefReader(rd, dr);
    }
    OTF2_Reader_CloseDefFiles(rd);
  }
  /* Every location's events must be there before anything is written. */
  for (size_t i = 0; i < m.nlocs; i++) {
    if (m.locs[i].rank == UINT32_MAX) continue;
    m.locs[i].er = OTF2_Reader_GetEvtReader(rd, m.locs[i].ref);
    if (!m.locs[i].er) {
      rc = augur_fail(err, AUGUR_E_FORMAT,
                      "%s: rank %u: events of location %llu missing or unreadable", anchor,
                      m.locs[i].rank, (unsigned long long)m.locs[i].ref);
      OTF2_Reader_CloseEvtFiles(rd);
      goto done;
    }
  }
  /* The trace description first, so a failure leaves no half trace.json. */
  augur_trace_meta meta = {0};
  char recorder[256];
  meta.nranks = m.nranks;
  if (m.augur) {
    meta.argc = m.defs.argc;
    meta.argv = m.defs.argv;
    meta.mpi_library = m.defs.mpi_library;
    meta.mpi_version = m.defs.mpi_version;
    meta.recorder = m.defs.recorder;
    meta.start_unix_ns = m.defs.start_unix_ns;
    meta.payload_hash = m.defs.payload_hash;
    meta.complete = m.defs.complete;
    meta.counters_requested = m.defs.counters_requested;
  } else {
    char *creator = NULL;
    OTF2_Reader_GetCreator(rd, &creator);
    snprintf(recorder, sizeof recorder, "augur import of an OTF2 archive by %s",
             creator && *creator ? creator : "an unknown tool");
    free(creator);
    meta.recorder = recorder;
    meta.mpi_library = "unknown";
    meta.mpi_version = "unknown";
    meta.start_unix_ns = m.realtime != OTF2_UNDEFINED_TIMESTAMP ? m.realtime : 0;
    meta.complete = 1;
  }
  rc = augur_meta_write(out, &meta, err);
  for (uint32_t r = 0; r < m.nranks && rc == AUGUR_OK; r++)
    rc = import_rank(&m, rd, r, out);
  OTF2_Reader_CloseEvtFiles(rd);
  if (rc != AUGUR_OK) goto done;
  if (rep) {
    rep->nranks = m.nranks;
    rep->events = m.events;
    if (m.augur && m.foreign_events == 0) {
      /* Written by augur: nothing is missing. */
    } else {
      if (m.augur)
        note(rep, "%llu events had no augur attributes and were mapped from their OTF2 records",
             (unsigned long long)m.foreign_events);
      note(rep, "no call sites: the archive has none augur can use (every event has call site 0)");
      note(rep, "no payload fingerprints");
      note(rep, "no clock synchronisation: times are the archive's, relative to its global offset");
      note(rep, "no MPI library, version or command line in trace.json (\"unknown\")");
      note(rep, "requests are paired by the augur reader from the handles in the archive; "
                "completions only where the archive has MpiIsendComplete/MpiIrecv records");
      if (m.metrics)
        note(rep, "no counters: %llu metric records were not imported",
             (unsigned long long)m.metrics);
      else
        note(rep, "no counters");
      if (m.skipped_regions)
        note(rep, "%llu calls of non-MPI regions skipped", (unsigned long long)m.skipped_regions);
      if (m.iorma_records)
        note(rep,
             "%llu MPI-IO and one-sided records (IoCreateHandle, IoOperationBegin, RmaWinCreate, "
             "RmaPut, RmaGet, RmaAtomic) not read: their calls have no file, window, target or "
             "bytes",
             (unsigned long long)m.iorma_records);
      if (m.unmapped_records)
        note(rep, "%llu MPI records outside any MPI call region skipped",
             (unsigned long long)m.unmapped_records);
      note(rep, "communicator kinds, parents' creation calls and topologies are unknown "
                "(kind OTHER except MPI_COMM_WORLD and MPI_COMM_SELF)");
    }
  }
done:
  OTF2_Reader_Close(rd);
  free_im(&m);
  return rc;
}
