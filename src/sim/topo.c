/* Network topologies: which links a transfer between two nodes crosses.
 *
 * Every link is a resource with a bandwidth that the flows crossing it
 * share (sim.c); a route is the list of resource ids from one node to
 * another, and its latency grows with the links it crosses. Nodes sit on
 * the topology in node index order. docs/simulate.md "Topologies".
 *
 *   crossbar  nothing shared (unless injection_bandwidth limits each node's
 *             link in and out)
 *   bus       one link every inter-node transfer crosses
 *   fattree   two levels: leaf switches of leaf_nodes nodes each, and
 *             `uplinks` spine switches; leaf l's uplink j goes to spine j.
 *             Route: node -> leaf (-> spine j -> leaf) -> node, with j =
 *             destination node mod uplinks (static D-mod-k routing, as
 *             InfiniBand subnet managers do); each link has an up and a down
 *             direction (full duplex).
 *   torus     1 to 3 dimensions with wrap-around; dimension-order routing
 *             (x first), the shorter way round each ring (ties: upwards);
 *             one link per node, dimension and direction. */
#include <stdlib.h>

#include "sim_int.h"

static uint32_t fattree_k(const augur_machine *m) {
  return m->fattree_leaf_nodes ? m->fattree_leaf_nodes : 1;
}

int sim_topo_init(sim_topo *t, const augur_machine *m, uint32_t nnodes, augur_error *err) {
  t->m = m;
  t->nnodes = nnodes;
  t->bw = NULL;
  t->node_links = m->topology == AUGUR_TOPO_FATTREE || m->injection_bandwidth > 0;
  t->bus = 2 * nnodes;
  t->base = t->bus + 1;
  t->uplinks = 0;
  size_t links = 0;
  switch (m->topology) {
  case AUGUR_TOPO_CROSSBAR:
  case AUGUR_TOPO_BUS:
    break;
  case AUGUR_TOPO_FATTREE: {
    if (m->fattree_leaf_nodes == 0)
      return augur_fail(err, AUGUR_E_ARG,
                        "machine model: topology fattree needs fattree.leaf_nodes >= 1");
    uint32_t k = fattree_k(m);
    t->uplinks = m->fattree_uplinks ? m->fattree_uplinks : k;
    uint64_t leaves = (nnodes + (uint64_t)k - 1) / k;
    if ((uint64_t)t->uplinks * leaves > (1u << 24))
      return augur_fail(err, AUGUR_E_ARG,
                        "machine model: fat-tree of %llu leaves x %u uplinks is too large",
                        (unsigned long long)leaves, t->uplinks);
    links = 2 * (size_t)leaves * t->uplinks;
    break;
  }
  case AUGUR_TOPO_TORUS: {
    if (m->torus_ndims < 1 || m->torus_ndims > AUGUR_TORUS_MAX_DIMS)
      return augur_fail(err, AUGUR_E_ARG, "machine model: topology torus needs torus.dims");
    uint64_t size = 1, half = 0;
    for (uint32_t d = 0; d < m->torus_ndims; d++) {
      if (m->torus_dims[d] == 0)
        return augur_fail(err, AUGUR_E_ARG, "machine model: torus dimension %u is 0", d);
      size *= m->torus_dims[d];
      half += m->torus_dims[d] / 2;
    }
    if (size > SIM_TORUS_MAX_NODES || half > SIM_TORUS_MAX_HOPS)
      return augur_fail(err, AUGUR_E_ARG, "machine model: torus too large");
    if (nnodes > size)
      return augur_fail(err, AUGUR_E_ARG,
                        "machine model: the placement uses %u nodes but the torus has %llu", nnodes,
                        (unsigned long long)size);
    links = 2 * (size_t)size * m->torus_ndims;
    break;
  }
  default:
    return augur_fail(err, AUGUR_E_ARG, "machine model: unknown topology %u", m->topology);
  }
  t->nres = (size_t)t->base + links;
  t->bw = malloc(t->nres * sizeof *t->bw);
  if (!t->bw) return augur_fail(err, AUGUR_E_NOMEM, "out of memory while simulating");
  double node_bw = m->injection_bandwidth > 0 ? m->injection_bandwidth : m->bandwidth;
  double link_bw = m->bandwidth;
  if (m->topology == AUGUR_TOPO_FATTREE && m->fattree_uplink_bandwidth > 0)
    link_bw = m->fattree_uplink_bandwidth;
  for (size_t i = 0; i < t->nres; i++)
    t->bw[i] = i < t->bus ? node_bw : i == t->bus ? m->bandwidth : link_bw;
  return AUGUR_OK;
}

void sim_topo_free(sim_topo *t) {
  free(t->bw);
  t->bw = NULL;
}

int sim_topo_shared(const sim_topo *t) {
  return t->m->topology != AUGUR_TOPO_CROSSBAR || t->node_links;
}

/* Torus: walks dimension by dimension from A to B; calls back per link
 * crossed when RES is not NULL. Returns the links crossed. */
static uint32_t torus_walk(const sim_topo *t, uint32_t a, uint32_t b, int32_t *res) {
  const augur_machine *m = t->m;
  uint32_t hops = 0, cur = a, stride = 1;
  for (uint32_t d = 0; d < m->torus_ndims; d++) {
    uint32_t n = m->torus_dims[d];
    uint32_t ca = (a / stride) % n, cb = (b / stride) % n;
    uint32_t up = (cb + n - ca) % n; /* steps going upwards */
    int dir = up <= n - up ? 0 : 1;  /* 0: upwards, 1: downwards */
    uint32_t steps = dir ? n - up : up;
    for (uint32_t s = 0; s < steps; s++) {
      if (res)
        res[hops] = (int32_t)(t->base + ((size_t)cur * m->torus_ndims + d) * 2 + (size_t)dir);
      hops++;
      uint32_t c = (cur / stride) % n;
      uint32_t next = dir ? (c + n - 1) % n : (c + 1) % n;
      cur = cur - c * stride + next * stride;
    }
    stride *= n;
  }
  return hops;
}

uint32_t sim_topo_route(const sim_topo *t, uint32_t a, uint32_t b, int32_t *res) {
  const augur_machine *m = t->m;
  uint32_t n = 0;
  if (t->node_links && a < t->nnodes) res[n++] = (int32_t)(2 * a);
  switch (m->topology) {
  case AUGUR_TOPO_BUS:
    res[n++] = (int32_t)t->bus;
    break;
  case AUGUR_TOPO_FATTREE: {
    uint32_t k = fattree_k(m), la = a / k, lb = b / k;
    if (la != lb) {
      uint32_t j = b % t->uplinks;
      res[n++] = (int32_t)(t->base + ((size_t)la * t->uplinks + j) * 2);     /* up */
      res[n++] = (int32_t)(t->base + ((size_t)lb * t->uplinks + j) * 2 + 1); /* down */
    }
    break;
  }
  case AUGUR_TOPO_TORUS:
    n += torus_walk(t, a, b, res + n);
    break;
  default:
    break;
  }
  if (t->node_links && b < t->nnodes) res[n++] = (int32_t)(2 * b + 1);
  return n;
}

double sim_topo_latency(const sim_topo *t, uint32_t a, uint32_t b) {
  const augur_machine *m = t->m;
  uint32_t hops = 0;
  if (m->topology == AUGUR_TOPO_FATTREE) {
    uint32_t k = fattree_k(m);
    hops = a / k == b / k ? 2 : 4;
  } else if (m->topology == AUGUR_TOPO_TORUS) {
    hops = torus_walk(t, a, b, NULL);
  }
  return m->latency + hops * m->hop_latency;
}
