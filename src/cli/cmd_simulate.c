/* augur simulate TRACE [--machine FILE] [--json] [--bandwidth xF|B] [--latency S|xF]
 *                      [--cpu-speed xF] [--ranks-per-node N] [--nodes N]
 *                      [--placement block|cyclic] [--topology crossbar|bus|fattree|torus]
 *                      [--eager-limit BYTES] [--overhead S] [--scale SITE|phase:ID=xF]... */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "augur/sim.h"
#include "augur/simgraph.h"
#include "cli.h"
#include "cli_report.h"
#include "cli_summary.h"
#include "cmd_graph.h"

#define MAX_GCLASSES 32 /* --class options */

/* "x2", "2x" or "2" -> 2 (a positive factor). */
static int parse_factor(const char *opt, const char *val, double *out, int *is_factor) {
  const char *p = val;
  *is_factor = 0;
  if (*p == 'x' || *p == 'X') {
    p++;
    *is_factor = 1;
  }
  char *end = NULL;
  double v = strtod(p, &end);
  if (end && (*end == 'x' || *end == 'X') && !*is_factor) {
    end++;
    *is_factor = 1;
  }
  if (!end || *end || end == p || !(v > 0) || !isfinite(v)) {
    cli_usage("%s: expected a positive number or factor like x2, got '%s'", opt, val);
    return -1;
  }
  *out = v;
  return 0;
}

#define MAX_SCALES 32

/* "phase:ID" of a --scale SITE=xF; 0 when SITE names call sites. */
static uint32_t scale_phase(const char *spec) {
  if (strncmp(spec, "phase:", 6) != 0) return 0;
  char *end = NULL;
  unsigned long id = strtoul(spec + 6, &end, 10);
  return end && *end == '=' && id > 0 && id < UINT32_MAX ? (uint32_t)id : 0;
}

/* The what-if values of --bandwidth and --latency: a value (bw, lat; <0
 * for none) or a factor on every one of the model's (bwf, latf). */
typedef struct whatif {
  double cpu, bw, bwf, lat, latf;
} whatif;

static int cpu_speed_opt(const char *opt, const char *val, void *dst) {
  int f;
  return parse_factor(opt, val, &((whatif *)dst)->cpu, &f);
}

static int bandwidth_opt(const char *opt, const char *val, void *dst) {
  whatif *w = dst;
  double x;
  int f;
  if (parse_factor(opt, val, &x, &f) < 0) return -1;
  if (f)
    w->bwf = x;
  else
    w->bw = x;
  return 0;
}

static int latency_opt(const char *opt, const char *val, void *dst) {
  whatif *w = dst;
  double x;
  int f;
  if (!strcmp(val, "0")) {
    w->lat = 0;
    return 0;
  }
  if (parse_factor(opt, val, &x, &f) < 0) return -1;
  if (f)
    w->latf = x;
  else
    w->lat = x;
  return 0;
}

/* The values of a repeatable option, in the order given. */
typedef struct optlist {
  const char *v[MAX_GCLASSES > MAX_SCALES ? MAX_GCLASSES : MAX_SCALES];
  int n, max;
} optlist;

static int optlist_add(const char *opt, const char *val, optlist *l) {
  if (l->n == l->max) {
    cli_usage("%s: at most %d of them", opt, l->max);
    return -1;
  }
  l->v[l->n++] = val;
  return 0;
}

static int scale_opt(const char *opt, const char *val, void *dst) {
  const char *eq = strrchr(val, '=');
  double x;
  int f;
  if (!eq || eq == val) {
    cli_usage("%s: expected SITE=xF (e.g. 'exchange (stencil.c:40)=x2'), got '%s'", opt, val);
    return -1;
  }
  if (parse_factor(opt, eq + 1, &x, &f) < 0) return -1;
  if (!strncmp(val, "phase:", 6) && !scale_phase(val)) {
    cli_usage("%s: expected phase:ID=xF with ID a phase number, got '%s'", opt, val);
    return -1;
  }
  return optlist_add(opt, val, dst);
}

static int class_opt(const char *opt, const char *val, void *dst) {
  if (gfile_check_class_opt(val) < 0) return -1;
  return optlist_add(opt, val, dst);
}

#define MAX_SITES 1024 /* call sites all --scale SITE=xF name together */

/* The --scale what-ifs of SPECS: phases into PS, call sites (each id SITE
 * names, in the order given) into SS. */
typedef struct scale_set {
  augur_sim_phase_scale ps[MAX_SCALES];
  augur_sim_site_scale ss[MAX_SITES];
  size_t np, ns;
} scale_set;

static int resolve_scales(scale_set *sc, augur_trace *t, const char **specs, int n) {
  sc->np = sc->ns = 0;
  for (int i = 0; i < n; i++) {
    const char *eq = strrchr(specs[i], '='); /* checked when parsed: SITE=F, SITE not empty */
    double f;
    int is_factor;
    parse_factor("--scale", eq + 1, &f, &is_factor);
    uint32_t id = scale_phase(specs[i]);
    if (id) {
      sc->ps[sc->np++] = (augur_sim_phase_scale){id, f};
      continue;
    }
    char site[1024];
    snprintf(site, sizeof site, "%.*s", (int)(eq - specs[i]), specs[i]);
    uint32_t ids[256];
    size_t found = augur_sim_find_sites(t, site, ids, 256);
    if (found == 0) return cli_fail("--scale: no call site matches '%s' (see augur report)", site);
    for (size_t k = 0; k < found && k < 256; k++) {
      if (sc->ns == MAX_SITES) return cli_fail("--scale: more than %d call sites", MAX_SITES);
      sc->ss[sc->ns++] = (augur_sim_site_scale){ids[k], f};
    }
  }
  return CLI_OK;
}

/* The whole graph first, then the replay (--in-memory: how it was done
 * before streaming; kept to compare the two). */
static int simulate_in_memory(augur_trace *t, const scale_set *sc, const augur_machine *m,
                              augur_sim_result *res, augur_sim_graph_stats *gs, augur_error *err) {
  augur_sim_graph *g = NULL;
  int rc = augur_sim_graph_from_trace_phases(&g, t, sc->ps, sc->np, err);
  if (rc != AUGUR_OK) return rc;
  for (size_t k = 0; k < sc->ns; k++)
    augur_sim_graph_scale_site(g, sc->ss[k].site, sc->ss[k].factor);
  augur_sim_graph_stats_get(g, gs);
  rc = augur_simulate(g, m, res, err);
  augur_sim_graph_free(g);
  return rc;
}

static int write_platform(const char *dir, const augur_machine *m, uint32_t nranks) {
  char p1[4096], p2[4096];
  snprintf(p1, sizeof p1, "%s/platform.xml", dir);
  snprintf(p2, sizeof p2, "%s/hosts", dir);
  mkdir(dir, 0777);
  FILE *a = fopen(p1, "w"), *b = a ? fopen(p2, "w") : NULL;
  if (!a || !b) {
    int e = errno;
    if (a) fclose(a);
    return cli_fail("%s: %s", a ? p2 : p1, strerror(e));
  }
  int rc = augur_machine_write_simgrid(m, nranks, a, b);
  if (fclose(a) || fclose(b) || rc != AUGUR_OK) return cli_fail("%s: write failed", dir);
  return CLI_OK;
}

/* Under time slices on the recorded cores, which ranks shared a core
 * (docs/simulate.md "Recorded placement"): M gets the placements the
 * ranks' CPU changes give (the caller frees M->rank_cpu and
 * M->placement_share), or nothing: then the simulator takes the mean over
 * the deals of ranks to cores. NOTE (320 bytes) says which. */
static int recorded_placement(augur_trace *t, augur_machine *m, uint32_t cores, char *note) {
  augur_sim_placements p;
  augur_error err = {0};
  if (augur_sim_recorded_placements(t, &p, &err) != AUGUR_OK) return cli_fail("%s", err.msg);
  if (!p.n) {
    snprintf(note, 320,
             "note: placement: not recorded (%s): simulating the mean over the deals of ranks "
             "to cores",
             p.why);
    augur_sim_placements_free(&p);
    return CLI_OK;
  }
  /* "note: placement: recorded (4 CPU changes in 5.2 s): {0,3}{1,2} 62 %, {0,1}{2,3} 38 %" */
  size_t out =
      (size_t)snprintf(note, 320, "note: placement: recorded (%u CPU change%s in %.1f s):", p.moves,
                       p.moves == 1 ? "" : "s", p.seconds);
  for (uint32_t k = 0; k < p.n && out < 280; k++) {
    const uint32_t *cpu = &p.cpu[(size_t)k * p.nranks];
    out += (size_t)snprintf(note + out, 320 - out, "%s ", k ? "," : "");
    for (uint32_t c = 0, any = 1; any && out < 280; c++) { /* labels are 0, 1, ... in use */
      any = 0;
      for (uint32_t r = 0; r < p.nranks && out < 280; r++)
        if (cpu[r] == c) {
          out += (size_t)snprintf(note + out, 320 - out, "%s%u", any ? "," : "{", r);
          any = 1;
        }
      if (any && out < 280) out += (size_t)snprintf(note + out, 320 - out, "}");
    }
    if (out < 280) out += (size_t)snprintf(note + out, 320 - out, " %.0f %%", 100 * p.share[k]);
  }
  double uneven = 0; /* placements with more ranks on a CPU than the deals give */
  for (uint32_t k = 0; k < p.n; k++) {
    const uint32_t *cpu = &p.cpu[(size_t)k * p.nranks];
    uint32_t most = 0, used = 0;
    for (uint32_t c = 0, any = 1; any; c++) {
      uint32_t on = 0;
      for (uint32_t r = 0; r < p.nranks; r++)
        on += cpu[r] == c;
      any = on > 0;
      used += any;
      if (on > most) most = on;
    }
    if (used != cores || most > (p.nranks + cores - 1) / cores) uneven += p.share[k];
  }
  if (out < 280 && p.n > 1)
    out += (size_t)snprintf(note + out, 320 - out, ": each simulated, weighted by its share");
  if (out < 250 && uneven > 0 && m->cpu_background_load > 0.25) /* sim.c UNEVEN_LOAD */
    out += (size_t)snprintf(note + out, 320 - out, "; the uneven ones (%.0f %%) as the deals",
                            100 * uneven);
  if (out >= 280) snprintf(note + 276, 44, " ...");
  m->rank_cpu = p.cpu;
  m->placement_share = p.share;
  m->nrank_cpu = p.nranks;
  m->nplacements = p.n;
  return CLI_OK;
}

/* 1 if T's compute bursts carry their wait for a CPU (the counter run-delay). */
/* The CPUs the trace recorded against the model's (docs/simulate.md
 * "Recorded placement"). A run with more ranks than CPUs on a host ran its
 * ranks in turns: unless --cores was given (FORCED), the model gets the
 * recorded CPUs, and the output says so; a model whose cores differ from
 * the recorded ones is warned about. On an oversubscribed host whose
 * compute bursts carry their run-delay, simulated on its recorded CPUs (by
 * default, or --cores equal to them), the share of its CPUs other work took
 * during the recording becomes the model's background load (unless the
 * model sets one), and the output says so; under time slices, which ranks
 * shared a core (recorded_placement), without them that the model has
 * none (a note); on a busy host that is not
 * oversubscribed, the ranks' CPU wait (a note). Fills up to 4 lines of
 * NOTES, pointed to by NOTE[0..*N). */
int cli_recorded_cores(augur_trace *t, augur_machine *m, int forced, char notes[4][320],
                       const char *note[4], size_t *n) {
  augur_hosts h;
  augur_error err = {0};
  if (augur_trace_hosts(t, &h, &err) != AUGUR_OK) return cli_fail("%s", err.msg);
  if (!h.known || !h.cores) return CLI_OK;
  uint32_t model = m->cpu_cores;
  if (h.oversubscribed && !forced) {
    m->cpu_cores = h.cores;
    snprintf(notes[*n], sizeof notes[0],
             "note: recorded with %u ranks on %u core%s (host %s): simulating %u core%s "
             "(--cores N to change)",
             h.ranks, h.cores, h.cores > 1 ? "s" : "", h.host, h.cores, h.cores > 1 ? "s" : "");
    note[*n] = notes[*n];
    (*n)++;
  }
  double load = -1;
  if (h.oversubscribed && m->cpu_cores == h.cores && !(m->cpu_background_load > 0) &&
      augur_sim_recorded_load(t, h.host, h.cores, &load, &err) != AUGUR_OK)
    return cli_fail("%s", err.msg);
  if (load >= 0) {
    m->cpu_background_load = load;
    snprintf(notes[*n], sizeof notes[0],
             "note: other work took %.0f %% of the %u CPU%s of host %s during the recording "
             "(the ranks' run-delay): simulating background_load %.2f",
             100 * load, h.cores, h.cores > 1 ? "s" : "", h.host, load);
    note[*n] = notes[*n];
    (*n)++;
  }
  if (h.oversubscribed && m->cpu_cores == h.cores && m->cpu_quantum > 0 && !(m->cpu_quota > 0) &&
      recorded_placement(t, m, h.cores, notes[*n]) == CLI_OK) {
    note[*n] = notes[*n];
    (*n)++;
  }
  /* without a time slice (the default model) sim.c does not deal turns: the waits of ranks that
   * polled while another rank held their core are missing from the prediction (NPB CG A, 4
   * MPICH ranks on 2 cores: -93 % with the default model, +0.7 % calibrated) */
  if (h.oversubscribed && m->cpu_cores == h.cores && !(m->cpu_quantum > 0) && !(m->cpu_quota > 0)) {
    snprintf(notes[*n], sizeof notes[0],
             "note: the machine model has no time slice (cpu.quantum): the turns ranks "
             "sharing a core took are not simulated, nor the waits of ranks that polled while "
             "another held their core; augur calibrate measures it");
    note[*n] = notes[*n];
    (*n)++;
  }
  /* other processes took the CPUs of ranks that had one each (docs/diagnose.md
   * "A busy host"): the measured time holds waits the simulation has not */
  if (augur_hosts_busy(&h, AUGUR_BUSY_HOST_SHARE)) {
    /* with run-delay (the recorder saw the host busy at MPI_Init,
     * docs/cli.md "A busy host") graph_trace.c takes each burst's out */
    snprintf(notes[*n], sizeof notes[0],
             "note: busy host: the ranks waited %.3f s for a CPU during the recording (%.1f %% "
             "of their time), while other processes ran%s",
             (double)h.run_delay_ns * 1e-9, 100.0 * (double)h.run_delay_ns / (double)h.window_ns,
             augur_trace_counter_slot(t, AUGUR_CTR_OS, "run-delay") >= 0
                 ? "; the compute bursts' waits are taken out: the prediction is "
                   "for the host without the other load"
                 : ": the measured time holds those waits, and compute bursts the "
                   "ones where a rank lost its CPU while computing");
    note[*n] = notes[*n];
    (*n)++;
  }
  /* 0 in the model: a core per rank, which is what a run without
   * oversubscription had */
  if (model && model != h.cores && (model < h.ranks || h.cores < h.ranks)) {
    snprintf(notes[*n], sizeof notes[0],
             "warning: the model has %u cores per node (machine file or --cores), the trace "
             "recorded %u (%u ranks on host %s)%s",
             model, h.cores, h.ranks, h.host,
             forced ? "" : (h.oversubscribed ? ": the recorded cores are used" : ""));
    note[*n] = notes[*n];
    (*n)++;
  }
  return CLI_OK;
}

int cmd_simulate(int argc, char **argv) {
  int refused = cli_parallel_none("simulate", argc, argv);
  if (refused >= 0) return refused;
  const char *machine = NULL, *placement = NULL, *topology = NULL, *sgdir = NULL;
  int json = 0, in_memory = 0;
  whatif w = {1, 0, 1, -1, 1};
  double overhead = -1, quota = -1;
  long long rpn = 0, nodes = -1, eager = -1, cores = 0, seed = -1, runs = -1;
  optlist scales = {.max = MAX_SCALES}, gclasses = {.max = MAX_GCLASSES};
  gfile_sim_opts gopt = {1, 1, NULL, 0, 0}; /* graph files (cmd_graph.c) */
  const cli_opt options[] = {
      CLI_STRING("--machine", NULL, "FILE", &machine, NULL,
                 "machine model (INI, docs/simulate.md)"),
      CLI_FLAG("--json", NULL, &json, "print JSON"),
      CLI_CALL("--cpu-speed", NULL, "xF", cpu_speed_opt, &w,
               "compute bursts run F times faster (x2 = half the time)"),
      CLI_CALL("--bandwidth", NULL, "xF|B", bandwidth_opt, &w,
               "xF: every bandwidth times F; B: network bytes/s"),
      CLI_CALL("--latency", NULL, "S|xF", latency_opt, &w,
               "S: network latency in seconds; xF: every latency times F"),
      CLI_REAL("--overhead", "S", &overhead, 0, HUGE_VAL, "seconds >= 0",
               "CPU seconds per MPI call"),
      CLI_INT("--eager-limit", "BYTES", &eager, 0, 1LL << 50, "larger messages use rendezvous"),
      CLI_INT("--cores", "N", &cores, 1, 1 << 20,
              "ranks of a node share N cores (taking turns of\n"
              "cpu.quantum when the model has one)"),
      CLI_REAL("--cpu-quota", "F", &quota, 0, HUGE_VAL, "CPUs >= 0",
               "a node's ranks get F CPUs' worth per cpu.quota_period\n"
               "(a cgroup CPU quota; 0 = none)"),
      CLI_INT("--ranks-per-node", "N", &rpn, 1, 1 << 20, "N ranks per node (block placement)"),
      CLI_INT("--nodes", "N", &nodes, 1, 1 << 20, "number of nodes"),
      CLI_CHOICE("--placement", "P", &placement, "block|cyclic", "block or cyclic"),
      CLI_CHOICE("--topology", "T", &topology, "crossbar|bus|fattree|torus",
                 "crossbar, bus, fattree or torus (the last two with\n"
                 "their shape from --machine)"),
      CLI_CALL("--scale", NULL, "SITE=xF", scale_opt, &scales,
               "the compute before each call of SITE runs F times faster;\n"
               "phase:ID=xF: the compute of every repetition of phase ID\n"
               "(augur phases) runs F times faster\n"
               "(SITE: as `augur report` prints it, file:line, function\n"
               "or id; repeatable)"),
      CLI_INT("--seed", "S", &seed, 0, 1LL << 62,
              "graph file: seed of its random values (default 1)"),
      CLI_INT("--runs", "N", &runs, 1, 1000000,
              "graph file: N runs (seeds S...S+N-1): mean, sd, trimmed mean"),
      CLI_CALL("--class", NULL, "NAME=COUNT", class_opt, &gclasses,
               "graph file: ranks in a class (repeatable; docs/graph-format.md)"),
      CLI_STRING("--simgrid-platform", NULL, "DIR", &sgdir, NULL,
                 "also write DIR/platform.xml and DIR/hosts: the model\n"
                 "for SimGrid's smpirun -replay (docs/simulate.md)"),
      CLI_FLAG("--in-memory", NULL, &in_memory,
               "trace: build the whole execution graph, then replay it\n"
               "(same result; by default the trace is streamed)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur simulate TRACE|GRAPHFILE [--machine FILE] [--json] [what-if options]\n"
               "\n"
               "Replays the trace's execution graph (compute bursts, messages, collectives)\n"
               "on a machine model and predicts the run time and each rank's compute and\n"
               "waiting. Without --machine the built-in defaults are used; `augur calibrate`\n"
               "writes a model of this machine. See docs/simulate.md. A graph file\n"
               "(`augur graph`, docs/graph-format.md) is expanded and run the same way.\n",
      .opts = options,
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *path = args.operand[0];
  int gfile_opts = seed >= 0 || runs >= 0 || gclasses.n > 0;
  if (seed >= 0) gopt.seed = (uint64_t)seed;
  if (runs >= 0) gopt.runs = runs;

  augur_error err = {0};
  augur_machine mach;
  augur_machine_default(&mach);
  if (machine && augur_machine_load(&mach, machine, &err) != AUGUR_OK)
    return cli_fail("%s", err.msg);
  /* What-if changes on top of the model. */
  mach.cpu_speed *= w.cpu;
  if (w.bw > 0) mach.bandwidth = w.bw;
  mach.bandwidth *= w.bwf;
  mach.shm_bandwidth *= w.bwf;
  mach.shm_large_bandwidth *= w.bwf;
  mach.injection_bandwidth *= w.bwf;
  mach.fattree_uplink_bandwidth *= w.bwf;
  if (w.lat >= 0) mach.latency = w.lat;
  mach.latency *= w.latf;
  mach.shm_latency *= w.latf;
  mach.hop_latency *= w.latf;
  if (overhead >= 0) mach.overhead = overhead;
  if (quota >= 0) mach.cpu_quota = quota;
  if (cores > 0) mach.cpu_cores = (uint32_t)cores;
  if (eager >= 0) mach.eager_limit = (uint64_t)eager;
  if (rpn > 0) {
    mach.cores_per_node = (uint32_t)rpn;
    mach.placement = AUGUR_PLACE_BLOCK;
  }
  if (nodes > 0) mach.nodes = (uint32_t)nodes;
  if (placement)
    mach.placement = strcmp(placement, "cyclic") ? AUGUR_PLACE_BLOCK : AUGUR_PLACE_CYCLIC;
  if (topology) /* fattree and torus take their shape from the machine file */
    mach.topology = !strcmp(topology, "bus")       ? AUGUR_TOPO_BUS
                    : !strcmp(topology, "fattree") ? AUGUR_TOPO_FATTREE
                    : !strcmp(topology, "torus")   ? AUGUR_TOPO_TORUS
                                                   : AUGUR_TOPO_CROSSBAR;
  if (mach.placement == AUGUR_PLACE_CYCLIC && mach.nodes == 0)
    return cli_usage("cyclic placement needs a number of nodes (--nodes N or nodes = N)");

  if (gfile_is_graph_path(path)) { /* an execution-graph file (docs/graph-format.md) */
    if (sgdir || scales.n || in_memory)
      return cli_usage("--simgrid-platform, --scale and --in-memory need a trace");
    gopt.json = json;
    gopt.classes = gclasses.v;
    gopt.nclasses = gclasses.n;
    return cmd_simulate_gfile(path, &mach, &gopt);
  }
  if (gfile_opts) return cli_usage("--seed, --runs and --class apply to graph files, not traces");
  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;
  char notes[4][320], ionotes[2][320];
  const char *note[6];
  size_t nnotes = 0;
  rc = cli_recorded_cores(t, &mach, cores > 0, notes, note, &nnotes);
  if (rc != CLI_OK) {
    augur_trace_close(t);
    return rc;
  }
  static scale_set sc; /* large: not on the stack */
  rc = resolve_scales(&sc, t, scales.v, scales.n);
  if (rc == CLI_OK && sgdir) rc = write_platform(sgdir, &mach, augur_trace_nranks(t));
  if (rc != CLI_OK) {
    free((void *)mach.rank_cpu);
    free((void *)mach.placement_share);
    augur_trace_close(t);
    return rc;
  }
  augur_sim_graph_stats gs;
  augur_sim_result res;
  cli_progress prog;
  cli_progress_init(&prog, "simulating");
  augur_sim_trace_opts o = {.phases = sc.ps,
                            .nphases = sc.np,
                            .sites = sc.ss,
                            .nsites = sc.ns,
                            .progress = cli_progress_records,
                            .progress_arg = &prog};
  if (in_memory)
    rc = simulate_in_memory(t, &sc, &mach, &res, &gs, &err);
  else
    rc = augur_simulate_trace(t, &mach, &o, &res, &gs, &err);
  cli_progress_done(&prog);
  free((void *)mach.rank_cpu); /* cli_recorded_cores */
  free((void *)mach.placement_share);
  mach.rank_cpu = NULL;
  char ibuf[AUGUR_INCOMPLETE_MAX];
  const char *inc = cli_incomplete(t, ibuf, sizeof ibuf);
  if (rc != AUGUR_OK) {
    augur_trace_close(t);
    return cli_fail("%s", err.msg);
  }
  for (size_t i = 0, k = augur_sim_iorma_notes(&gs, ionotes); i < k; i++) /* graph_iorma.c */
    note[nnotes++] = ionotes[i];
  if (json) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m) augur_sim_write_json(m, &res, &gs, gs.measured_seconds, note, nnotes);
    if (!m || fclose(m) != 0) {
      free(buf);
      augur_sim_result_free(&res);
      augur_trace_close(t);
      return cli_fail("out of memory writing JSON");
    }
    cli_print_json(t, buf, len, inc); /* reads the trace's rank index */
    free(buf);
  } else {
    if (inc) printf("%s\n\n", inc);
    for (size_t i = 0; i < nnotes; i++)
      printf("%s\n", note[i]);
    printf("machine: %s\n", mach.name);
    augur_sim_write_text(stdout, &res, gs.measured_seconds);
    if (gs.unmatched)
      printf("note: %llu operations had no partner in the trace and were replayed as no-ops\n",
             (unsigned long long)gs.unmatched);
  }
  fflush(stdout);
  augur_trace_close(t);
  augur_sim_result_free(&res);
  return CLI_OK;
}
