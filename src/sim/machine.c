/* Machine model: defaults, INI reading (libinih) and writing, placement.
 * The format is documented in docs/simulate.md "Machine file". */
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

static int handler(void *user, const char *section, const char *name, const char *value) {
  load_ctx *c = user;
  augur_machine *m = c->m;
  char key[128];
  snprintf(key, sizeof key, "%s.%s", section, name);
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
    snprintf(c->msg, sizeof c->msg, "%s: expected crossbar or bus, got '%s'", key, value);
    return 0;
  }
  if (IS("shm.latency")) return set_pos(c, key, value, 1000, 0, &m->shm_latency);
  if (IS("shm.bandwidth")) return set_pos(c, key, value, 1000, 1, &m->shm_bandwidth);
  if (IS("collectives.bcast_short")) return set_u64(c, key, value, 1024, 0, 1e15, &m->bcast_short);
  if (IS("collectives.allreduce_short"))
    return set_u64(c, key, value, 1024, 0, 1e15, &m->allreduce_short);
  if (IS("collectives.allgather_long"))
    return set_u64(c, key, value, 1024, 0, 1e15, &m->allgather_long);
#undef IS
  snprintf(c->msg, sizeof c->msg, "unknown key '%s' in section [%s]", name, section);
  return 0;
}

int augur_machine_load(augur_machine *m, const char *path, augur_error *err) {
  FILE *f = fopen(path, "r");
  if (!f)
    return augur_fail(err, errno == ENOENT ? AUGUR_E_MISSING : AUGUR_E_IO, "%s: %s", path,
                      strerror(errno));
  load_ctx c = {m, path, ""};
  int line = ini_parse_file(f, handler, &c);
  fclose(f);
  if (line > 0)
    return augur_fail(err, AUGUR_E_FORMAT, "%s:%d: %s", path, line,
                      c.msg[0] ? c.msg : "expected '[section]' or 'key = value'");
  if (line < 0) return augur_fail(err, AUGUR_E_IO, "%s: cannot read", path);
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
  fprintf(f, "\n[cpu]\nspeed = %.6g\noverhead = %.6g\n", m->cpu_speed, m->overhead);
  fprintf(f,
          "\n[network]\ntopology = %s\nlatency = %.6g\nbandwidth = %.6g\n"
          "injection_bandwidth = %.6g\neager_limit = %llu\n",
          m->topology == AUGUR_TOPO_BUS ? "bus" : "crossbar", m->latency, m->bandwidth,
          m->injection_bandwidth, (unsigned long long)m->eager_limit);
  fprintf(f, "\n[shm]\nlatency = %.6g\nbandwidth = %.6g\n", m->shm_latency, m->shm_bandwidth);
  fprintf(f, "\n[collectives]\nbcast_short = %llu\nallreduce_short = %llu\nallgather_long = %llu\n",
          (unsigned long long)m->bcast_short, (unsigned long long)m->allreduce_short,
          (unsigned long long)m->allgather_long);
  return ferror(f) ? AUGUR_E_IO : AUGUR_OK;
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

int augur_machine_write_simgrid(const augur_machine *m, uint32_t nranks, FILE *platform,
                                FILE *hosts) {
  uint32_t maxnode = 0;
  for (uint32_t r = 0; r < nranks; r++) {
    uint32_t n = augur_machine_node(m, r);
    if (n > maxnode) maxnode = n;
  }
  fprintf(platform, "<?xml version='1.0'?>\n"
                    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                    "<platform version=\"4.1\">\n");
  /* Links are private per host in a cluster, like the crossbar's per-node
   * links; the bus is the backbone every inter-node transfer shares. */
  fprintf(platform,
          "  <cluster id=\"augur\" prefix=\"node-\" radical=\"0-%u\" suffix=\"\" "
          "speed=\"%.6gGf\" bw=\"%.6gBps\" lat=\"%.6gs\" loopback_bw=\"%.6gBps\" "
          "loopback_lat=\"%.6gs\"",
          maxnode, m->cpu_speed, m->injection_bandwidth > 0 ? m->injection_bandwidth : m->bandwidth,
          m->latency / 2, m->shm_bandwidth, m->shm_latency);
  if (m->topology == AUGUR_TOPO_BUS)
    fprintf(platform, " bb_bw=\"%.6gBps\" bb_lat=\"0s\" bb_sharing_policy=\"SHARED\"",
            m->bandwidth);
  fprintf(platform, "/>\n</platform>\n");
  for (uint32_t r = 0; r < nranks; r++)
    fprintf(hosts, "node-%u\n", augur_machine_node(m, r));
  return ferror(platform) || ferror(hosts) ? AUGUR_E_IO : AUGUR_OK;
}
