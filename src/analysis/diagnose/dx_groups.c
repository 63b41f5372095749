/* augur diagnose — the group table: one entry per (pattern, call site,
 * upstream group), the "recurring situations" KappaPi sums over the run.
 * The number of groups grows with the program's call sites, not with time. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "dx_int.h"
#include "grow.h"
#include "mix.h"

static uint64_t key_of(int pattern, uint32_t callsite, int32_t upstream) {
  return ((uint64_t)(uint32_t)pattern << 56) ^ ((uint64_t)callsite << 24) ^
         (uint64_t)(uint32_t)(upstream + 1);
}

static uint64_t key_of_group(const dx_group *g) {
  return key_of(g->pattern, g->callsite, g->upstream);
}

int dx_groups_init(dx_groups *gs, uint32_t nranks, uint32_t nbins) {
  memset(gs, 0, sizeof *gs);
  gs->nranks = nranks;
  gs->nbins = nbins;
  gs->nslots = 64;
  gs->slots = malloc(gs->nslots * sizeof *gs->slots);
  if (!gs->slots) return -1;
  for (size_t i = 0; i < gs->nslots; i++)
    gs->slots[i] = -1;
  return 0;
}

void dx_groups_free(dx_groups *gs) {
  for (size_t i = 0; i < gs->n; i++) {
    free(gs->g[i].rankbits);
    free(gs->g[i].partnerbits);
    free(gs->g[i].partner_ns);
    free(gs->g[i].hist);
  }
  free(gs->g);
  free(gs->slots);
  memset(gs, 0, sizeof *gs);
}

static int rehash(dx_groups *gs) {
  size_t n = gs->nslots * 2;
  int32_t *s = malloc(n * sizeof *s);
  if (!s) return -1;
  for (size_t i = 0; i < n; i++)
    s[i] = -1;
  for (size_t i = 0; i < gs->n; i++) {
    size_t j = aug_mix64(key_of_group(&gs->g[i])) & (n - 1);
    while (s[j] >= 0)
      j = (j + 1) & (n - 1);
    s[j] = (int32_t)i;
  }
  free(gs->slots);
  gs->slots = s;
  gs->nslots = n;
  return 0;
}

int32_t dx_group_get(dx_groups *gs, int pattern, int wait_state, uint32_t callsite,
                     int32_t upstream) {
  uint64_t k = key_of(pattern, callsite, upstream);
  size_t j = aug_mix64(k) & (gs->nslots - 1);
  while (gs->slots[j] >= 0) {
    dx_group *g = &gs->g[gs->slots[j]];
    if (g->pattern == pattern && g->callsite == callsite && g->upstream == upstream)
      return gs->slots[j];
    j = (j + 1) & (gs->nslots - 1);
  }
  if ((gs->n + 1) * 2 > gs->nslots) {
    if (rehash(gs)) return -1;
    return dx_group_get(gs, pattern, wait_state, callsite, upstream);
  }
  if (aug_grow((void **)&gs->g, &gs->cap, gs->n + 1, sizeof *gs->g)) return -1;
  dx_group *g = &gs->g[gs->n];
  memset(g, 0, sizeof *g);
  g->pattern = pattern;
  g->wait_state = wait_state;
  g->callsite = callsite;
  g->upstream = upstream;
  g->into = -1;
  g->comm = 0;
  g->partner = DX_NONE_U32 - 1; /* "none seen yet" */
  g->late_rank = DX_NONE_U32;
  g->rankbits = calloc((gs->nranks + 63) / 64, sizeof *g->rankbits);
  g->partnerbits = calloc((gs->nranks + 63) / 64, sizeof *g->partnerbits);
  if (!g->rankbits || !g->partnerbits) {
    free(g->rankbits);
    free(g->partnerbits);
    return -1;
  }
  if (gs->n < DX_HIST_GROUPS && gs->nbins) {
    g->hist = calloc(gs->nbins, sizeof *g->hist);
    if (!g->hist) {
      free(g->rankbits);
      free(g->partnerbits);
      return -1;
    }
  }
  g->sites[0] = callsite;
  gs->slots[j] = (int32_t)gs->n;
  return (int32_t)gs->n++;
}

void dx_group_site(dx_group *g, uint32_t callsite, uint64_t ns) {
  int i;
  for (i = 0; i < DX_GROUP_SITES; i++) {
    if (g->sites[i] == callsite && (i == 0 || g->site_ns[i])) break;
    if (i > 0 && !g->site_ns[i]) {
      g->sites[i] = callsite;
      break;
    }
  }
  if (i == DX_GROUP_SITES) i = 0; /* more sites than slots: the group's own keeps it */
  g->site_ns[i] += ns;
}

void dx_group_partner(dx_groups *gs, dx_group *g, uint32_t rank, uint32_t callsite) {
  if (rank < gs->nranks) g->partnerbits[rank / 64] |= 1ull << (rank % 64);
  if (g->partner == DX_NONE_U32 - 1) {
    g->partner = rank;
    g->partner_cs = callsite;
  } else if (g->partner != rank) {
    g->partner = DX_NONE_U32;
  }
}

/* Keeps the DX_MARKS longest instances: a min-heap on duration. */
static void keep_mark(dx_group *g, uint32_t rank, uint64_t t0, uint64_t t1) {
  augur_dx_mark m = {rank, t0, t1};
  uint64_t dur = t1 - t0;
  augur_dx_mark *h = g->marks;
  if (g->nmarks < DX_MARKS) {
    size_t i = g->nmarks++;
    while (i > 0) {
      size_t p = (i - 1) / 2;
      if (h[p].t1 - h[p].t0 <= dur) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = m;
    return;
  }
  if (dur <= h[0].t1 - h[0].t0) return;
  size_t i = 0, n = g->nmarks;
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, s = i;
    uint64_t sd = dur;
    if (l < n && h[l].t1 - h[l].t0 < sd) {
      s = l;
      sd = h[l].t1 - h[l].t0;
    }
    if (r < n && h[r].t1 - h[r].t0 < sd) s = r;
    if (s == i) break;
    h[i] = h[s];
    i = s;
  }
  h[i] = m;
}

void dx_spread(const dx *d, uint64_t t0, uint64_t t1, double *dv, float *fv) {
  if (t1 <= t0 || !d->bin_ns) return;
  uint64_t a = t0 > d->t0 ? t0 - d->t0 : 0, b = t1 > d->t0 ? t1 - d->t0 : 0;
  while (a < b) {
    uint64_t bin = a / d->bin_ns;
    if (bin >= d->nbins) bin = d->nbins - 1;
    uint64_t edge = (bin + 1) * d->bin_ns;
    uint64_t e = b < edge || bin == d->nbins - 1 ? b : edge;
    if (dv) dv[bin] += (double)(e - a);
    if (fv) fv[bin] += (float)(e - a);
    a = e;
  }
}

void dx_group_add(dx *d, int32_t gi, uint32_t rank, uint32_t callsite, uint64_t t0, uint64_t t1,
                  uint64_t comm) {
  if (gi < 0 || t1 <= t0) return;
  dx_group *g = &d->groups.g[gi];
  uint64_t ns = t1 - t0;
  g->ns += ns;
  dx_group_site(g, callsite, ns);
  g->instances++;
  if (rank < d->nranks) g->rankbits[rank / 64] |= 1ull << (rank % 64);
  if (g->instances == 1)
    g->comm = comm;
  else if (g->comm != comm)
    g->comm = UINT64_MAX;
  if (rank < d->nranks) {
    dx_rank *r = &d->ranks[rank];
    if (r->many_peers) {
      g->hub_ns += ns, g->hub_n++;
    } else if (!r->pre_group1 || r->pre_group1 == (uint32_t)gi + 1) {
      r->pre_group1 = (uint32_t)gi + 1;
      r->pre_ns += ns, r->pre_n++;
    }
  }
  keep_mark(g, rank, t0, t1);
  if (g->hist) dx_spread(d, t0, t1, NULL, g->hist);
}

int dx_group_blame(dx_groups *gs, dx_group *g, uint32_t rank, uint64_t ns) {
  if (!ns || rank >= gs->nranks) return 0;
  if (!g->partner_ns && !(g->partner_ns = calloc(gs->nranks, sizeof *g->partner_ns))) return -1;
  g->partner_ns[rank] += ns;
  return 0;
}

int32_t dx_group_top_partner(const dx_groups *gs, const dx_group *g, double *share) {
  *share = 0;
  if (!g->partner_ns) return -1;
  uint64_t sum = 0, top = 0;
  int32_t who = -1;
  for (uint32_t r = 0; r < gs->nranks; r++) {
    sum += g->partner_ns[r];
    if (g->partner_ns[r] > top) top = g->partner_ns[r], who = (int32_t)r;
  }
  if (who >= 0) *share = (double)top / (double)sum;
  return who;
}

void dx_group_keep_side(const dx *d, dx_group *g, uint32_t rank, int hub) {
  assert(rank < d->nranks && g->hub_ns <= g->ns && g->hub_n <= g->instances);
  uint64_t ns = hub ? g->hub_ns : g->ns - g->hub_ns;
  for (size_t k = 0; k < DX_GROUP_SITES; k++) /* one call site before merges: in proportion */
    g->site_ns[k] = g->ns ? (uint64_t)((double)g->site_ns[k] * (double)ns / (double)g->ns) : 0;
  g->instances = hub ? g->hub_n : g->instances - g->hub_n;
  g->ns = ns;
  g->hub_ns = hub ? ns : 0;
  g->hub_n = hub ? g->instances : 0;
  size_t words = (d->nranks + 63) / 64;
  uint64_t bit = 1ull << (rank % 64);
  if (hub) {
    memset(g->rankbits, 0, words * sizeof *g->rankbits);
    g->rankbits[rank / 64] = bit;
    g->partnerbits[rank / 64] &= ~bit; /* it waited for the others */
    g->partner = DX_NONE_U32;
    if (g->partner_ns) g->partner_ns[rank] = 0;
  } else {
    g->rankbits[rank / 64] &= ~bit;
    memset(g->partnerbits, 0, words * sizeof *g->partnerbits);
    g->partnerbits[rank / 64] = bit;
    g->partner = rank;
    if (g->partner_ns) {
      memset(g->partner_ns, 0, d->nranks * sizeof *g->partner_ns);
      g->partner_ns[rank] = ns;
    }
  }
  augur_dx_mark kept[DX_MARKS];
  uint32_t n = 0;
  for (uint32_t i = 0; i < g->nmarks; i++)
    if ((g->marks[i].rank == rank) == (hub != 0)) kept[n++] = g->marks[i];
  g->nmarks = 0;
  for (uint32_t i = 0; i < n; i++)
    keep_mark(g, kept[i].rank, kept[i].t0, kept[i].t1);
}

void dx_group_merge(const dx *d, dx_group *into, dx_group *from) {
  into->ns += from->ns;
  into->saving_ns += from->saving_ns;
  into->instances += from->instances;
  into->hub_ns += from->hub_ns;
  into->hub_n += from->hub_n;
  if (!into->partner_ns) {
    into->partner_ns = from->partner_ns;
    from->partner_ns = NULL;
  } else if (from->partner_ns) {
    for (uint32_t r = 0; r < d->nranks; r++)
      into->partner_ns[r] += from->partner_ns[r];
  }
  into->syncs += from->syncs;
  into->excess_compute_ns += from->excess_compute_ns;
  into->excess_oncpu_ns += from->excess_oncpu_ns;
  into->excess_wait_ns += from->excess_wait_ns;
  into->excess_mpi_ns += from->excess_mpi_ns;
  into->excess_delay_ns += from->excess_delay_ns;
  into->lateness_ns += from->lateness_ns;
  into->chain_ns += from->chain_ns;
  into->recv_n += from->recv_n;
  into->recv_nb += from->recv_nb;
  into->bytes += from->bytes;
  into->excess_io_ns += from->excess_io_ns;
  into->io_ns += from->io_ns;
  into->io_late_bytes += from->io_late_bytes;
  into->io_early_bytes += from->io_early_bytes;
  into->io_data_ns += from->io_data_ns;
  if (into->io_file != from->io_file) into->io_file = UINT64_MAX;
  if (into->call_type != from->call_type) into->call_type = 0;
  if (from->late_votes && from->late_rank == into->late_rank)
    into->late_votes += from->late_votes;
  else if (from->late_votes > into->late_votes) {
    into->late_rank = from->late_rank;
    into->late_votes = from->late_votes - into->late_votes;
  } else
    into->late_votes -= from->late_votes;
  if (into->comm != from->comm) into->comm = UINT64_MAX;
  for (uint32_t w = 0; w < (d->nranks + 63) / 64; w++) {
    into->rankbits[w] |= from->rankbits[w];
    into->partnerbits[w] |= from->partnerbits[w];
  }
  if (into->partner != from->partner) into->partner = DX_NONE_U32;
  for (int k = 0; k < DX_DATA_N; k++)
    into->data[k] += from->data[k];
  for (int i = 0; i < DX_GROUP_SITES; i++)
    if (from->site_ns[i]) dx_group_site(into, from->sites[i], from->site_ns[i]);
  for (uint32_t i = 0; i < from->nmarks; i++)
    keep_mark(into, from->marks[i].rank, from->marks[i].t0, from->marks[i].t1);
  if (into->hist && from->hist)
    for (uint32_t b = 0; b < d->nbins; b++)
      into->hist[b] += from->hist[b];
  else if (from->hist) {
    into->hist = from->hist;
    from->hist = NULL;
  }
  from->ns = 0;
  from->instances = 0;
}
