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
#include "cmd_graph.h"

#define MAX_GCLASSES 32 /* --class options */

static void help(void) {
  printf("usage: augur simulate TRACE|GRAPHFILE [--machine FILE] [--json] [what-if options]\n"
         "\n"
         "Replays the trace's execution graph (compute bursts, messages, collectives)\n"
         "on a machine model and predicts the run time and each rank's compute and\n"
         "waiting. Without --machine the built-in defaults are used; `augur calibrate`\n"
         "writes a model of this machine. See docs/simulate.md. A graph file\n"
         "(`augur graph`, docs/graph-format.md) is expanded and run the same way.\n"
         "\n"
         "options:\n"
         "  --machine FILE        machine model (INI, docs/simulate.md)\n"
         "  --json                print JSON\n"
         "  --cpu-speed xF        compute bursts run F times faster (x2 = half the time)\n"
         "  --bandwidth xF | B    xF: every bandwidth times F; B: network bytes/s\n"
         "  --latency S | xF      S: network latency in seconds; xF: every latency times F\n"
         "  --overhead S          CPU seconds per MPI call\n"
         "  --eager-limit BYTES   larger messages use rendezvous\n"
         "  --cores N             ranks of a node share N cores (taking turns of\n"
         "                        cpu.quantum when the model has one)\n"
         "  --cpu-quota F         a node's ranks get F CPUs' worth per cpu.quota_period\n"
         "                        (a cgroup CPU quota; 0 = none)\n"
         "  --ranks-per-node N    N ranks per node (block placement)\n"
         "  --nodes N             number of nodes\n"
         "  --placement P         block or cyclic\n"
         "  --topology T          crossbar, bus, fattree or torus (the last two with\n"
         "                        their shape from --machine)\n"
         "  --scale SITE=xF       the compute before each call of SITE runs F times faster\n"
         "  --scale phase:ID=xF   the compute of every repetition of phase ID (augur\n"
         "                        phases) runs F times faster\n"
         "                        (SITE: as `augur report` prints it, file:line, function\n"
         "                        or id; repeatable)\n"
         "  --seed S              graph file: seed of its random values (default 1)\n"
         "  --runs N              graph file: N runs (seeds S...S+N-1): mean, sd, trimmed mean\n"
         "  --class NAME=COUNT    graph file: ranks in a class (repeatable; docs/graph-format.md)\n"
         "  --simgrid-platform DIR  also write DIR/platform.xml and DIR/hosts: the model\n"
         "                        for SimGrid's smpirun -replay (docs/simulate.md)\n"
         "  --in-memory           trace: build the whole execution graph, then replay it\n"
         "                        (same result; by default the trace is streamed)\n"
         "  -h, --help            show this help\n");
}

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

/* The CPUs the trace recorded against the model's (docs/simulate.md
 * "Recorded placement"). A run with more ranks than CPUs on a host ran its
 * ranks in turns: unless --cores was given (FORCED), the model gets the
 * recorded CPUs, and the output says so; a model whose cores differ from
 * the recorded ones is warned about. On an oversubscribed host whose
 * compute bursts carry their run-delay, simulated on its recorded CPUs (by
 * default, or --cores equal to them), the share of its CPUs other work took
 * during the recording becomes the model's background load (unless the
 * model sets one), and the output says so. Fills up to 3 lines of
 * NOTES, pointed to by NOTE[0..*N). */
static int recorded_cores(augur_trace *t, augur_machine *m, int forced, char notes[3][320],
                          const char *note[3], size_t *n) {
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
  const char *path = NULL, *machine = NULL, *val = NULL, *placement = NULL, *topology = NULL,
             *sgdir = NULL;
  int json = 0, in_memory = 0;
  double cpu = 1, bw = 0, bwf = 1, latv = -1, latf = 1, overhead = -1, quota = -1;
  long long rpn = 0, nodes = -1, eager = -1, cores = 0;
  const char *scales[MAX_SCALES];
  int nscales = 0;
  gfile_sim_opts gopt = {1, 1, NULL, 0, 0}; /* graph files (cmd_graph.c) */
  const char *gclasses[MAX_GCLASSES];
  int ngclasses = 0, gfile_opts = 0;
  for (int i = 1; i < argc; i++) {
    int m, f;
    double x;
    if (cli_is_help(argv[i])) {
      help();
      return CLI_OK;
    } else if (!strcmp(argv[i], "--json")) {
      json = 1;
    } else if (!strcmp(argv[i], "--in-memory")) {
      in_memory = 1;
    } else if ((m = cli_opt_value(argc, argv, &i, "--machine", NULL, &val)) != 0) {
      if (m < 0) return CLI_USAGE;
      machine = val;
    } else if ((m = cli_opt_value(argc, argv, &i, "--cpu-speed", NULL, &val)) != 0) {
      if (m < 0 || parse_factor("--cpu-speed", val, &cpu, &f) < 0) return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--bandwidth", NULL, &val)) != 0) {
      if (m < 0 || parse_factor("--bandwidth", val, &x, &f) < 0) return CLI_USAGE;
      if (f)
        bwf = x;
      else
        bw = x;
    } else if ((m = cli_opt_value(argc, argv, &i, "--latency", NULL, &val)) != 0) {
      if (!strcmp(val ? val : "", "0")) {
        latv = 0;
        continue;
      }
      if (m < 0 || parse_factor("--latency", val, &x, &f) < 0) return CLI_USAGE;
      if (f)
        latf = x;
      else
        latv = x;
    } else if ((m = cli_opt_value(argc, argv, &i, "--overhead", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_real("--overhead", val, 0, HUGE_VAL, "seconds >= 0", &overhead) < 0)
        return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--cpu-quota", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_real("--cpu-quota", val, 0, HUGE_VAL, "CPUs >= 0", &quota) < 0)
        return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--cores", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_int("--cores", val, 1, 1 << 20, &cores) < 0) return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--eager-limit", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_int("--eager-limit", val, 0, 1LL << 50, &eager) < 0) return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--ranks-per-node", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_int("--ranks-per-node", val, 1, 1 << 20, &rpn) < 0) return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--nodes", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_int("--nodes", val, 1, 1 << 20, &nodes) < 0) return CLI_USAGE;
    } else if ((m = cli_opt_value(argc, argv, &i, "--placement", NULL, &val)) != 0) {
      if (m < 0) return CLI_USAGE;
      if (strcmp(val, "block") && strcmp(val, "cyclic"))
        return cli_usage("--placement: expected block or cyclic, got '%s'", val);
      placement = val;
    } else if ((m = cli_opt_value(argc, argv, &i, "--topology", NULL, &val)) != 0) {
      if (m < 0) return CLI_USAGE;
      if (strcmp(val, "crossbar") && strcmp(val, "bus") && strcmp(val, "fattree") &&
          strcmp(val, "torus"))
        return cli_usage("--topology: expected crossbar, bus, fattree or torus, got '%s'", val);
      topology = val;
    } else if ((m = cli_opt_value(argc, argv, &i, "--scale", NULL, &val)) != 0) {
      if (m < 0) return CLI_USAGE;
      const char *eq = strrchr(val, '=');
      if (!eq || eq == val)
        return cli_usage("--scale: expected SITE=xF (e.g. 'exchange (stencil.c:40)=x2'), got '%s'",
                         val);
      if (parse_factor("--scale", eq + 1, &x, &f) < 0) return CLI_USAGE;
      if (!strncmp(val, "phase:", 6) && !scale_phase(val))
        return cli_usage("--scale: expected phase:ID=xF with ID a phase number, got '%s'", val);
      if (nscales == MAX_SCALES) return cli_usage("--scale: at most %d of them", MAX_SCALES);
      scales[nscales++] = val;
    } else if ((m = cli_opt_value(argc, argv, &i, "--seed", NULL, &val)) != 0) {
      long long sd;
      if (m < 0 || cli_parse_int("--seed", val, 0, 1LL << 62, &sd) < 0) return CLI_USAGE;
      gopt.seed = (uint64_t)sd;
      gfile_opts = 1;
    } else if ((m = cli_opt_value(argc, argv, &i, "--runs", NULL, &val)) != 0) {
      if (m < 0 || cli_parse_int("--runs", val, 1, 1000000, &gopt.runs) < 0) return CLI_USAGE;
      gfile_opts = 1;
    } else if ((m = cli_opt_value(argc, argv, &i, "--class", NULL, &val)) != 0) {
      if (m < 0 || gfile_check_class_opt(val) < 0) return CLI_USAGE;
      if (ngclasses == MAX_GCLASSES) return cli_usage("--class: at most %d of them", MAX_GCLASSES);
      gclasses[ngclasses++] = val;
      gfile_opts = 1;
    } else if ((m = cli_opt_value(argc, argv, &i, "--simgrid-platform", NULL, &val)) != 0) {
      if (m < 0) return CLI_USAGE;
      sgdir = val;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      return cli_usage("unknown option '%s' (see 'augur simulate --help')", argv[i]);
    } else if (path) {
      return cli_usage("unexpected argument '%s': one trace at a time", argv[i]);
    } else {
      path = argv[i];
    }
  }
  if (!path)
    return cli_usage("missing TRACE (usage: augur simulate TRACE|GRAPHFILE [--machine FILE])");

  augur_error err = {0};
  augur_machine mach;
  augur_machine_default(&mach);
  if (machine && augur_machine_load(&mach, machine, &err) != AUGUR_OK)
    return cli_fail("%s", err.msg);
  /* What-if changes on top of the model. */
  mach.cpu_speed *= cpu;
  if (bw > 0) mach.bandwidth = bw;
  mach.bandwidth *= bwf;
  mach.shm_bandwidth *= bwf;
  mach.injection_bandwidth *= bwf;
  mach.fattree_uplink_bandwidth *= bwf;
  if (latv >= 0) mach.latency = latv;
  mach.latency *= latf;
  mach.shm_latency *= latf;
  mach.hop_latency *= latf;
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
    if (sgdir || nscales || in_memory)
      return cli_usage("--simgrid-platform, --scale and --in-memory need a trace");
    gopt.json = json;
    gopt.classes = gclasses;
    gopt.nclasses = ngclasses;
    return cmd_simulate_gfile(path, &mach, &gopt);
  }
  if (gfile_opts) return cli_usage("--seed, --runs and --class apply to graph files, not traces");
  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;
  char notes[3][320];
  const char *note[3];
  size_t nnotes = 0;
  rc = recorded_cores(t, &mach, cores > 0, notes, note, &nnotes);
  if (rc != CLI_OK) {
    augur_trace_close(t);
    return rc;
  }
  static scale_set sc; /* large: not on the stack */
  rc = resolve_scales(&sc, t, scales, nscales);
  if (rc == CLI_OK && sgdir) rc = write_platform(sgdir, &mach, augur_trace_nranks(t));
  if (rc != CLI_OK) {
    augur_trace_close(t);
    return rc;
  }
  augur_sim_graph_stats gs;
  augur_sim_result res;
  augur_sim_trace_opts o = {sc.ps, sc.np, sc.ss, sc.ns};
  if (in_memory)
    rc = simulate_in_memory(t, &sc, &mach, &res, &gs, &err);
  else
    rc = augur_simulate_trace(t, &mach, &o, &res, &gs, &err);
  char ibuf[AUGUR_INCOMPLETE_MAX];
  const char *inc = cli_incomplete(t, ibuf, sizeof ibuf);
  if (rc != AUGUR_OK) {
    augur_trace_close(t);
    return cli_fail("%s", err.msg);
  }
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
