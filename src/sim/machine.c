/* Machine model: defaults, INI reading (libinih) and writing, placement.
 * The format is documented in docs/simulate.md "Machine file". */
#include <assert.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim_int.h"

void augur_machine_default(augur_machine *m) {
  memset(m, 0, sizeof *m);
  snprintf(m->name, sizeof m->name, "default");
  m->nodes = 0;
  m->cores_per_node = 1u << 20; /* everything on one node unless told otherwise */
  m->placement = AUGUR_PLACE_BLOCK;
  m->cpu_speed = 1.0;
  m->overhead = 0.5e-6;
  m->latency = 2e-6;
  m->bandwidth = 10e9;
  m->injection_bandwidth = 0;
  m->shm_latency = 0.5e-6;
  m->shm_bandwidth = 5e9;
  m->eager_limit = 65536;
  m->topology = AUGUR_TOPO_CROSSBAR;
  m->bcast_short = 12288;
  m->allreduce_short = 2048;
  m->allgather_long = 524288;
  m->cpu_quota_period = 0.1;
  /* A local file system's page cache (docs/simulate.md "I/O and one-sided
   * operations"); one-sided transfers on the point-to-point path. */
  m->io_latency = 20e-6;
  m->io_write_bandwidth = 1e9;
  m->io_read_bandwidth = 2e9;
  m->io_coll_bandwidth = 1e9;
  /* Topology and CPU-sharing parameters stay 0: off until a file sets them. */
}

typedef struct load_ctx {
  augur_machine *m;
  const char *path;
  char msg[256];
} load_ctx;

/* Parses a whole number with an optional k/M/G suffix (powers of 1024 for
 * sizes, 1000 for rates: SCALE tells which). */
static int parse_num(const char *v, double scale, double *out) {
  char *end;
  errno = 0;
  double x = strtod(v, &end);
  if (end == v || errno || !isfinite(x)) return -1;
  while (*end == ' ')
    end++;
  switch (*end) {
  case 'k':
  case 'K':
    x *= scale;
    end++;
    break;
  case 'M':
    x *= scale * scale;
    end++;
    break;
  case 'G':
    x *= scale * scale * scale;
    end++;
    break;
  default:
    break;
  }
  while (*end == ' ')
    end++;
  if (*end) return -1;
  *out = x;
  return 0;
}

int sim_parse_number(const char *v, double scale, double *out) {
  return parse_num(v, scale, out);
}

static int set_pos(load_ctx *c, const char *key, const char *v, double scale, double min,
                   double *out) {
  double x;
  if (parse_num(v, scale, &x) || x < min) {
    snprintf(c->msg, sizeof c->msg, "%s: expected a number >= %g, got '%s'", key, min, v);
    return 0;
  }
  *out = x;
  return 1;
}

static int set_u64(load_ctx *c, const char *key, const char *v, double scale, double min,
                   double max, uint64_t *out) {
  double x;
  if (parse_num(v, scale, &x) || x < min || x > max || x != floor(x)) {
    snprintf(c->msg, sizeof c->msg, "%s: expected a whole number in [%g, %g], got '%s'", key, min,
             max, v);
    return 0;
  }
  *out = (uint64_t)x;
  return 1;
}

static int set_u32(load_ctx *c, const char *key, const char *v, double min, uint32_t *out) {
  uint64_t x;
  if (!set_u64(c, key, v, 1024, min, 4294967295.0, &x)) return 0;
  *out = (uint32_t)x;
  return 1;
}

static int set_explicit(load_ctx *c, const char *v) {
  augur_machine *m = c->m;
  m->nexplicit = 0;
  const char *p = v;
  while (*p) {
    char *end;
    errno = 0;
    unsigned long x = strtoul(p, &end, 10);
    if (end == p || errno || x > 1000000 || m->nexplicit >= AUGUR_MACHINE_MAX_EXPLICIT) {
      snprintf(c->msg, sizeof c->msg,
               "placement: expected block, cyclic or a comma-separated node list, got '%s'", v);
      return 0;
    }
    m->explicit_nodes[m->nexplicit++] = (uint32_t)x;
    while (*end == ' ' || *end == ',')
      end++;
    p = end;
  }
  m->placement = AUGUR_PLACE_EXPLICIT;
  return m->nexplicit > 0;
}

/* "4x4x2" (or 4,4,2): one to three torus dimensions. The product bounds
 * the node count and the half-sums bound a route's length (SIM_MAX_ROUTE). */
static int set_dims(load_ctx *c, const char *key, const char *v) {
  augur_machine *m = c->m;
  uint32_t dims[AUGUR_TORUS_MAX_DIMS], n = 0;
  uint64_t product = 1, half = 0;
  const char *p = v;
  for (;;) {
    char *end;
    errno = 0;
    while (*p == ' ')
      p++;
    unsigned long x = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
    if (x == 0 || errno || x > 65536 || n == AUGUR_TORUS_MAX_DIMS) break;
    dims[n++] = (uint32_t)x;
    product *= x;
    half += x / 2;
    p = end;
    while (*p == ' ')
      p++;
    if (*p == 'x' || *p == 'X' || *p == ',') {
      p++;
      continue;
    }
    if (*p == 0 && product <= SIM_TORUS_MAX_NODES && half <= SIM_TORUS_MAX_HOPS) {
      m->torus_ndims = n;
      for (uint32_t i = 0; i < AUGUR_TORUS_MAX_DIMS; i++)
        m->torus_dims[i] = i < n ? dims[i] : 0;
      return 1;
    }
    break;
  }
  snprintf(c->msg, sizeof c->msg,
           "%s: expected 1 to 3 dimensions >= 1 like 4x4 or 4x4x2 (at most %u nodes, "
           "routes of at most %u hops), got '%s'",
           key, SIM_TORUS_MAX_NODES, SIM_TORUS_MAX_HOPS, v);
  return 0;
}

static const char *topo_name(uint32_t t) {
  switch (t) {
  case AUGUR_TOPO_BUS:
    return "bus";
  case AUGUR_TOPO_FATTREE:
    return "fattree";
  case AUGUR_TOPO_TORUS:
    return "torus";
  default:
    return "crossbar";
  }
}

static int handler(void *user, const char *section, const char *name, const char *value) {
  load_ctx *c = user;
  augur_machine *m = c->m;
  char key[128];
  snprintf(key, sizeof key, "%s.%s", section, name);
  if (!strcasecmp(section, "microbench")) return 1; /* augur model analytic's (microbench.c) */
#define IS(s) (strcasecmp(key, s) == 0)
  if (IS("machine.name")) {
    snprintf(m->name, sizeof m->name, "%s", value);
    return 1;
  }
  if (IS("machine.nodes")) return set_u32(c, key, value, 0, &m->nodes);
  if (IS("machine.cores_per_node")) return set_u32(c, key, value, 1, &m->cores_per_node);
  if (IS("machine.placement")) {
    if (!strcasecmp(value, "block")) {
      m->placement = AUGUR_PLACE_BLOCK;
      return 1;
    }
    if (!strcasecmp(value, "cyclic")) {
      m->placement = AUGUR_PLACE_CYCLIC;
      return 1;
    }
    return set_explicit(c, value);
  }
  if (IS("cpu.speed")) {
    if (!set_pos(c, key, value, 1000, 1e-9, &m->cpu_speed)) return 0;
    return 1;
  }
  if (IS("cpu.overhead")) return set_pos(c, key, value, 1000, 0, &m->overhead);
  if (IS("network.latency")) return set_pos(c, key, value, 1000, 0, &m->latency);
  if (IS("network.bandwidth")) return set_pos(c, key, value, 1000, 1, &m->bandwidth);
  if (IS("network.injection_bandwidth"))
    return set_pos(c, key, value, 1000, 0, &m->injection_bandwidth);
  if (IS("network.eager_limit")) return set_u64(c, key, value, 1024, 0, 1e15, &m->eager_limit);
  if (IS("network.topology")) {
    if (!strcasecmp(value, "crossbar")) {
      m->topology = AUGUR_TOPO_CROSSBAR;
      return 1;
    }
    if (!strcasecmp(value, "bus") || !strcasecmp(value, "shared_bus") ||
        !strcasecmp(value, "shared-bus")) {
      m->topology = AUGUR_TOPO_BUS;
      return 1;
    }
    if (!strcasecmp(value, "fattree") || !strcasecmp(value, "fat-tree") ||
        !strcasecmp(value, "fat_tree")) {
      m->topology = AUGUR_TOPO_FATTREE;
      return 1;
    }
    if (!strcasecmp(value, "torus")) {
      m->topology = AUGUR_TOPO_TORUS;
      return 1;
    }
    snprintf(c->msg, sizeof c->msg, "%s: expected crossbar, bus, fattree or torus, got '%s'", key,
             value);
    return 0;
  }
  if (IS("network.hop_latency")) return set_pos(c, key, value, 1000, 0, &m->hop_latency);
  if (IS("fattree.leaf_nodes")) return set_u32(c, key, value, 1, &m->fattree_leaf_nodes);
  if (IS("fattree.uplinks")) return set_u32(c, key, value, 0, &m->fattree_uplinks);
  if (IS("fattree.uplink_bandwidth"))
    return set_pos(c, key, value, 1000, 0, &m->fattree_uplink_bandwidth);
  if (IS("torus.dims")) return set_dims(c, key, value);
  if (IS("cpu.cores")) return set_u32(c, key, value, 0, &m->cpu_cores);
  if (IS("cpu.background_load")) {
    double x;
    if (parse_num(value, 1000, &x) || !(x >= 0 && x < 1)) {
      snprintf(c->msg, sizeof c->msg, "%s: expected a fraction in [0, 1), got '%s'", key, value);
      return 0;
    }
    m->cpu_background_load = x;
    return 1;
  }
  if (IS("cpu.quantum")) return set_pos(c, key, value, 1000, 0, &m->cpu_quantum);
  if (IS("cpu.quota")) return set_pos(c, key, value, 1000, 0, &m->cpu_quota);
  if (IS("cpu.quota_period")) return set_pos(c, key, value, 1000, 1e-6, &m->cpu_quota_period);
  if (IS("shm.latency")) return set_pos(c, key, value, 1000, 0, &m->shm_latency);
  if (IS("shm.bandwidth")) return set_pos(c, key, value, 1000, 1, &m->shm_bandwidth);
  if (IS("shm.large_bandwidth")) return set_pos(c, key, value, 1000, 0, &m->shm_large_bandwidth);
  if (IS("shm.large_from")) return set_u64(c, key, value, 1024, 0, 1e15, &m->shm_large_from);
  if (IS("memory.fresh_buffer")) return set_pos(c, key, value, 1000, 0, &m->fresh_buffer);
  if (IS("memory.first_touch")) return set_pos(c, key, value, 1000, 0, &m->first_touch);
  if (IS("io.latency")) return set_pos(c, key, value, 1000, 0, &m->io_latency);
  if (IS("io.write_bandwidth")) return set_pos(c, key, value, 1000, 1, &m->io_write_bandwidth);
  if (IS("io.read_bandwidth")) return set_pos(c, key, value, 1000, 1, &m->io_read_bandwidth);
  if (IS("io.collective_bandwidth")) return set_pos(c, key, value, 1000, 1, &m->io_coll_bandwidth);
  if (IS("io.sync_bandwidth")) return set_pos(c, key, value, 1000, 0, &m->io_sync_bandwidth);
  if (IS("rma.latency")) return set_pos(c, key, value, 1000, 0, &m->rma_latency);
  if (IS("rma.bandwidth")) return set_pos(c, key, value, 1000, 0, &m->rma_bandwidth);
  if (IS("collectives.bcast_short")) return set_u64(c, key, value, 1024, 0, 1e15, &m->bcast_short);
  if (IS("collectives.allreduce_short"))
    return set_u64(c, key, value, 1024, 0, 1e15, &m->allreduce_short);
  if (IS("collectives.allgather_long"))
    return set_u64(c, key, value, 1024, 0, 1e15, &m->allgather_long);
#undef IS
  snprintf(c->msg, sizeof c->msg, "unknown key '%s' in section [%s]", name, section);
  return 0;
}

int sim_ini_load(const char *path, int (*h)(void *, const char *, const char *, const char *),
                 void *ctx, const char *msg, augur_error *err) {
  FILE *f = fopen(path, "r");
  if (!f)
    return augur_fail(err, errno == ENOENT ? AUGUR_E_MISSING : AUGUR_E_IO, "%s: %s", path,
                      strerror(errno));
  int line = ini_parse_file(f, h, ctx);
  fclose(f);
  if (line > 0)
    return augur_fail(err, AUGUR_E_FORMAT, "%s:%d: %s", path, line,
                      msg[0] ? msg : "expected '[section]' or 'key = value'");
  if (line < 0) return augur_fail(err, AUGUR_E_IO, "%s: cannot read", path);
  return AUGUR_OK;
}

int augur_machine_load(augur_machine *m, const char *path, augur_error *err) {
  load_ctx c = {m, path, ""};
  int rc = sim_ini_load(path, handler, &c, c.msg, err);
  if (rc != AUGUR_OK) return rc;
  if (m->topology == AUGUR_TOPO_TORUS && m->torus_ndims == 0)
    return augur_fail(err, AUGUR_E_FORMAT, "%s: topology = torus needs [torus] dims (e.g. 4x4)",
                      path);
  if (m->topology == AUGUR_TOPO_FATTREE && m->fattree_leaf_nodes == 0)
    return augur_fail(err, AUGUR_E_FORMAT,
                      "%s: topology = fattree needs [fattree] leaf_nodes (nodes per leaf switch)",
                      path);
  return AUGUR_OK;
}

int augur_machine_write(const augur_machine *m, FILE *f) {
  fprintf(f, "[machine]\nname = %s\n", m->name);
  fprintf(f, "nodes = %u\ncores_per_node = %u\n", m->nodes, m->cores_per_node);
  if (m->placement == AUGUR_PLACE_EXPLICIT) {
    fprintf(f, "placement = ");
    for (uint32_t i = 0; i < m->nexplicit; i++)
      fprintf(f, "%s%u", i ? "," : "", m->explicit_nodes[i]);
    fprintf(f, "\n");
  } else {
    fprintf(f, "placement = %s\n", m->placement == AUGUR_PLACE_CYCLIC ? "cyclic" : "block");
  }
  fprintf(f,
          "\n[cpu]\nspeed = %.6g\noverhead = %.6g\ncores = %u\nbackground_load = %.6g\n"
          "quantum = %.6g\nquota = %.6g\nquota_period = %.6g\n",
          m->cpu_speed, m->overhead, m->cpu_cores, m->cpu_background_load, m->cpu_quantum,
          m->cpu_quota, m->cpu_quota_period);
  fprintf(f,
          "\n[network]\ntopology = %s\nlatency = %.6g\nbandwidth = %.6g\n"
          "injection_bandwidth = %.6g\neager_limit = %llu\nhop_latency = %.6g\n",
          topo_name(m->topology), m->latency, m->bandwidth, m->injection_bandwidth,
          (unsigned long long)m->eager_limit, m->hop_latency);
  if (m->fattree_leaf_nodes)
    fprintf(f, "\n[fattree]\nleaf_nodes = %u\nuplinks = %u\nuplink_bandwidth = %.6g\n",
            m->fattree_leaf_nodes, m->fattree_uplinks, m->fattree_uplink_bandwidth);
  if (m->torus_ndims) {
    fprintf(f, "\n[torus]\ndims = ");
    for (uint32_t i = 0; i < m->torus_ndims; i++)
      fprintf(f, "%s%u", i ? "x" : "", m->torus_dims[i]);
    fprintf(f, "\n");
  }
  fprintf(f, "\n[shm]\nlatency = %.6g\nbandwidth = %.6g\n", m->shm_latency, m->shm_bandwidth);
  if (m->shm_large_bandwidth > 0)
    fprintf(f, "large_bandwidth = %.6g\nlarge_from = %llu\n", m->shm_large_bandwidth,
            (unsigned long long)m->shm_large_from);
  fprintf(f, "\n[memory]\nfresh_buffer = %.6g\nfirst_touch = %.6g\n", m->fresh_buffer,
          m->first_touch);
  fprintf(f, "\n[collectives]\nbcast_short = %llu\nallreduce_short = %llu\nallgather_long = %llu\n",
          (unsigned long long)m->bcast_short, (unsigned long long)m->allreduce_short,
          (unsigned long long)m->allgather_long);
  fprintf(f,
          "\n[io]\nlatency = %.6g\nwrite_bandwidth = %.6g\nread_bandwidth = %.6g\n"
          "collective_bandwidth = %.6g\nsync_bandwidth = %.6g\n",
          m->io_latency, m->io_write_bandwidth, m->io_read_bandwidth, m->io_coll_bandwidth,
          m->io_sync_bandwidth);
  fprintf(f, "\n[rma]\nlatency = %.6g\nbandwidth = %.6g\n", m->rma_latency, m->rma_bandwidth);
  return ferror(f) ? AUGUR_E_IO : AUGUR_OK;
}

double augur_machine_shm_copy(const augur_machine *m, uint64_t bytes) {
  assert(m && m->shm_bandwidth > 0);
  double t = (double)bytes / m->shm_bandwidth;
  if (m->shm_large_bandwidth > 0 && bytes > m->shm_large_from)
    t += (double)(bytes - m->shm_large_from) * (1 / m->shm_large_bandwidth - 1 / m->shm_bandwidth);
  return t;
}

uint32_t augur_machine_node(const augur_machine *m, uint32_t rank) {
  switch (m->placement) {
  case AUGUR_PLACE_EXPLICIT:
    return m->nexplicit ? m->explicit_nodes[rank % m->nexplicit] : 0;
  case AUGUR_PLACE_CYCLIC:
    return m->nodes ? rank % m->nodes : 0;
  default: {
    uint32_t node = rank / (m->cores_per_node ? m->cores_per_node : 1);
    return m->nodes ? node % m->nodes : node;
  }
  }
}

/* Mean links crossed between two distinct nodes of the torus: per
 * dimension of n, the mean ring distance over all pairs is S/n with S =
 * sum over k < n of min(k, n - k); identical pairs (0 hops) are then taken
 * out. */
static double torus_mean_hops(const augur_machine *m) {
  double total = 0, size = 1;
  for (uint32_t d = 0; d < m->torus_ndims; d++) {
    uint32_t n = m->torus_dims[d];
    double sum = 0;
    for (uint32_t k = 0; k < n; k++)
      sum += k < n - k ? k : n - k;
    total += sum / n;
    size *= n;
  }
  return size > 1 ? total * size / (size - 1) : 1;
}

int augur_machine_write_simgrid(const augur_machine *m, uint32_t nranks, FILE *platform,
                                FILE *hosts) {
  uint32_t maxnode = 0, cores = 1;
  for (uint32_t r = 0; r < nranks; r++) {
    uint32_t n = augur_machine_node(m, r);
    if (n > maxnode) maxnode = n;
  }
  /* augur gives each rank a core unless cpu.cores says otherwise; SimGrid's
   * hosts have one unless told: give them the most ranks on a node. */
  uint32_t *per = calloc((size_t)maxnode + 1, sizeof *per);
  if (!per) return AUGUR_E_NOMEM;
  for (uint32_t r = 0; r < nranks; r++) {
    uint32_t n = augur_machine_node(m, r);
    if (++per[n] > cores) cores = per[n];
  }
  free(per);
  if (m->cpu_cores) cores = m->cpu_cores;
  /* Background load: what is left of each core. */
  double speed = m->cpu_speed * (1 - m->cpu_background_load);
  fprintf(platform, "<?xml version='1.0'?>\n"
                    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                    "<platform version=\"4.1\">\n");
  uint32_t last = maxnode;
  double bw = m->injection_bandwidth > 0 ? m->injection_bandwidth : m->bandwidth;
  double lat = m->latency / 2;
  char topo[160] = "";
  if (m->topology == AUGUR_TOPO_FATTREE && m->fattree_leaf_nodes) {
    /* Two levels: LEAF nodes per leaf switch, one uplink from each node,
     * UP links from each leaf (one per spine), one cable each. SimGrid
     * needs whole leaves; each route crosses 4 links between leaves (2
     * inside one), so a link gets a quarter of the latency: exact between
     * leaves. One bandwidth for every link. */
    uint32_t k = m->fattree_leaf_nodes, up = m->fattree_uplinks ? m->fattree_uplinks : k;
    uint32_t leaves = maxnode / k + 1;
    last = leaves * k - 1;
    bw = m->bandwidth;
    lat = m->latency / 4 + m->hop_latency;
    snprintf(topo, sizeof topo, " topology=\"FAT_TREE\" topo_parameters=\"2;%u,%u;1,%u;1,1\"", k,
             leaves, up);
  } else if (m->topology == AUGUR_TOPO_TORUS && m->torus_ndims) {
    /* All of the torus's nodes; the latency spread over the mean route. */
    uint32_t size = 1;
    int len = snprintf(topo, sizeof topo, " topology=\"TORUS\" topo_parameters=\"");
    for (uint32_t d = 0; d < m->torus_ndims; d++) {
      size *= m->torus_dims[d];
      len +=
          snprintf(topo + len, sizeof topo - (size_t)len, "%s%u", d ? "," : "", m->torus_dims[d]);
    }
    snprintf(topo + len, sizeof topo - (size_t)len, "\"");
    if (size - 1 > last) last = size - 1;
    bw = m->bandwidth;
    lat = m->latency / torus_mean_hops(m) + m->hop_latency;
  }
  /* Crossbar: links are private per host in a cluster, like the crossbar's
   * per-node links; the bus is the backbone every inter-node transfer
   * shares. */
  fprintf(platform,
          "  <cluster id=\"augur\" prefix=\"node-\" radical=\"0-%u\" suffix=\"\" "
          "speed=\"%.6gGf\" core=\"%u\" bw=\"%.6gBps\" lat=\"%.6gs\" loopback_bw=\"%.6gBps\" "
          "loopback_lat=\"%.6gs\"%s",
          last, speed, cores, bw, lat, m->shm_bandwidth, m->shm_latency, topo);
  if (m->topology == AUGUR_TOPO_BUS)
    fprintf(platform, " bb_bw=\"%.6gBps\" bb_lat=\"0s\" bb_sharing_policy=\"SHARED\"",
            m->bandwidth);
  fprintf(platform, "/>\n</platform>\n");
  for (uint32_t r = 0; r < nranks; r++)
    fprintf(hosts, "node-%u\n", augur_machine_node(m, r));
  return ferror(platform) || ferror(hosts) ? AUGUR_E_IO : AUGUR_OK;
}
