/* augur calibrate [-o FILE] [--mpi mpich|openmpi] [--ranks N]
 * augur calibrate --from TRACE [--machine FILE] [-o FILE]
 *
 * Runs augur-calibrate-<flavour> (src/sim/calibrate_mpi.c) with N ranks
 * (default 2) on this node and turns its figures into a machine model: the ranks share a
 * node, so what it measures is the shared-memory path; the network values
 * are set equal to them so a model of one node stays consistent when
 * someone spreads ranks over several. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "augur/sim.h"
#include "cli.h"

static int from_trace(const char *path, const char *base, const char *out) {
  augur_machine m;
  augur_error err = {0};
  augur_machine_default(&m);
  if (base && augur_machine_load(&m, base, &err) != AUGUR_OK) return cli_fail("%s", err.msg);
  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;
  augur_sim_calib c;
  rc = augur_machine_calibrate_trace(&m, t, &c, &err);
  /* A run whose ranks outnumbered the model's cores (on its busiest node)
   * waited for its turns in the very messages measured: the model must
   * not make them take turns again. */
  uint32_t nr = augur_trace_nranks(t), busiest = 0;
  uint32_t *per_node = calloc(nr ? nr : 1, sizeof *per_node);
  for (uint32_t r = 0; per_node && r < nr; r++) {
    uint32_t nd = augur_machine_node(&m, r);
    if (nd < nr && ++per_node[nd] > busiest) busiest = per_node[nd];
  }
  free(per_node);
  int turns = m.cpu_cores > 0 && m.cpu_quantum > 0 && busiest > m.cpu_cores;
  if (turns) m.cpu_cores = 0;
  augur_trace_close(t);
  if (rc != AUGUR_OK) return cli_fail("%s", err.msg);
  if (!c.latency_samples && !c.bandwidth_samples)
    return cli_fail("%s: no message found its receiver already waiting: nothing to measure", path);
  snprintf(m.name, sizeof m.name, "calibrated from %s", path);
  FILE *f = stdout;
  if (out && !(f = fopen(out, "w"))) return cli_fail("%s: %s", out, strerror(errno));
  fprintf(f, "# augur machine model: `augur calibrate --from %s`\n", path);
  if (c.latency_samples)
    fprintf(f,
            "# latency: mean (rare outliers spread over the run) of %llu messages whose receiver "
            "waited: %.3f us\n",
            (unsigned long long)c.latency_samples, c.latency * 1e6);
  else
    fprintf(f, "# latency: kept (no eager-sized message found its receiver waiting)\n");
  if (turns)
    fprintf(f, "# cores: 0 (one per rank): the recorded ranks took turns, the latency has them\n");
  if (c.overhead_samples)
    fprintf(f, "# overhead: median of %llu Isend/Irecv/eager Send calls: %.3f us\n",
            (unsigned long long)c.overhead_samples, c.overhead * 1e6);
  if (c.bandwidth_samples)
    fprintf(f, "# bandwidth: %llu rendezvous messages whose receiver waited: %.3g bytes/s\n",
            (unsigned long long)c.bandwidth_samples, c.bandwidth);
  fprintf(f, "\n");
  rc = augur_machine_write(&m, f);
  if (out && fclose(f)) rc = AUGUR_E_IO;
  if (rc != AUGUR_OK) return cli_fail("%s: write failed", out ? out : "stdout");
  if (out) fprintf(stderr, "%s: wrote %s\n", cli_prog, out);
  return CLI_OK;
}

int cmd_calibrate(int argc, char **argv) {
  const char *out = NULL, *mpi = NULL;
  long long nranks = 2;
  const char *from = NULL, *base = NULL;
  const cli_opt options[] = {
      CLI_STRING("--output", "-o", "FILE", &out, NULL,
                 "write the model here (default: standard output)"),
      CLI_CHOICE("--mpi", "FLAVOUR", &mpi, "mpich|openmpi",
                 "MPI library to measure (default: mpich if built)"),
      CLI_STRING("--from", NULL, "TRACE", &from, NULL,
                 "no run: take latency and per-call overhead from a recorded\n"
                 "run (what messages cost while it ran; see docs/simulate.md)"),
      CLI_STRING("--machine", NULL, "FILE", &base, NULL,
                 "with --from: start from this model instead of the defaults"),
      CLI_INT("--ranks", "N", &nranks, 2, 1024,
              "ranks to run (default 2); ranks 0 and 1 measure while the\n"
              "others poll, so N above the core count measures what\n"
              "messages cost when ranks share cores"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur calibrate [-o FILE] [--mpi mpich|openmpi] [--ranks N]\n"
               "       augur calibrate --from TRACE [--machine FILE] [-o FILE]\n"
               "\n"
               "Measures this machine with N MPI ranks (per-call overhead, ping-pong\n"
               "latency and bandwidth over message sizes, allreduce and barrier cost,\n"
               "compute rate) and writes a machine model for `augur simulate --machine`.\n"
               "See docs/simulate.md.\n",
      .opts = options};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  if (from) return from_trace(from, base, out);
  if (base) return cli_usage("--machine goes with --from TRACE");
  char prog[PATH_MAX];
  if (!mpi) {
    mpi = "mpich";
    if (cli_lib_path(prog, sizeof prog, "augur-calibrate-mpich") || access(prog, X_OK))
      mpi = "openmpi";
  }
  char name[64];
  snprintf(name, sizeof name, "augur-calibrate-%s", mpi);
  if (cli_lib_path(prog, sizeof prog, name) || access(prog, X_OK))
    return cli_fail("calibration program %s not found next to augur (built with the %s flavour?)",
                    name, mpi);
  char mpiexec[32];
  snprintf(mpiexec, sizeof mpiexec, "mpiexec.%s", mpi);

  int pfd[2];
  if (pipe(pfd)) return cli_fail("pipe: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0) return cli_fail("fork: %s", strerror(errno));
  if (pid == 0) {
    dup2(pfd[1], 1);
    close(pfd[0]);
    close(pfd[1]);
    if (!strcmp(mpi, "openmpi")) { /* as the tests run Open MPI here: root, 2 cores */
      setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
      setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
      setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
    }
    char nbuf[16];
    snprintf(nbuf, sizeof nbuf, "%lld", nranks);
    execlp(mpiexec, mpiexec, "-n", nbuf, prog, (char *)NULL);
    fprintf(stderr, "%s: cannot run %s: %s\n", cli_prog, mpiexec, strerror(errno));
    _exit(127);
  }
  close(pfd[1]);
  FILE *in = fdopen(pfd[0], "r");
  augur_machine m;
  augur_machine_default(&m);
  double overhead = -1, lat = -1, lat_mean = -1, bw = -1, ar = -1, bar = -1, flops = -1, ring = -1;
  double mean1m = -1, mean4m = -1, sendcost = -1, quantum = -1, bests[16];
  double freshbuf = 0, firsttouch = 0, eager = -2; /* -2: not measured */
  size_t nbest = 0;
  char line[256], notes[4096] = "";
  size_t nl = 0;
  /* The figures of one value, by the name the calibration program prints. */
  const struct {
    const char *key;
    double *to;
  } one[] = {{"overhead", &overhead},     {"bandwidth", &bw},    {"allreduce8", &ar},
             {"barrier", &bar},           {"ringstep", &ring},   {"sendcost", &sendcost},
             {"flops", &flops},           {"quantum", &quantum}, {"freshbuf", &freshbuf},
             {"firsttouch", &firsttouch}, {"eager", &eager}};
  while (in && fgets(line, sizeof line, in)) {
    double a, b, c, d;
    char key[32];
    const size_t none = sizeof one / sizeof one[0];
    size_t k = none;
    if (sscanf(line, "%31s %lf", key, &a) == 2)
      for (k = 0; k < none && strcmp(one[k].key, key); k++)
        ;
    if (k < none)
      *one[k].to = a;
    else if (sscanf(line, "latency %lf %lf", &a, &b) == 2) {
      lat = a;
      lat_mean = b;
    } else if (sscanf(line, "pingpong %lf %lf %lf %lf", &a, &b, &c, &d) == 4 &&
               nl < sizeof notes - 100) {
      if (a <= 1024 && nbest < 16) bests[nbest++] = c;
      if (a == 1048576) mean1m = d;
      if (a == 4194304) mean4m = d;
      nl += (size_t)snprintf(notes + nl, sizeof notes - nl,
                             "#   %10.0f bytes: median %10.3f us, best %10.3f us, mean %10.3f us\n",
                             a, b * 1e6, c * 1e6, d * 1e6);
    }
  }
  if (in) fclose(in);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return cli_fail("the calibration run (%s -n %lld %s) failed", mpiexec, nranks, prog);
  if (overhead < 0 || lat < 0 || bw <= 0)
    return cli_fail("the calibration run printed no latency/bandwidth figures");

  char host[256] = "localhost";
  gethostname(host, sizeof host - 1);
  /* the name is a label: a long host name is cut, not an error */
  snprintf(m.name, sizeof m.name, "%.32s (%.16s, calibrated)", host, mpi);
  /* The CPUs the calibration's ranks could use (affinity mask, cgroup
   * quota): the online count over-states a container or a taskset. */
  long ncpu = (long)augur_usable_cores();
  /* One node of this machine's CPUs; with nodes = 1 block placement keeps
   * every rank on it, however many there are (more ranks than cores share
   * them: cpu.cores below). */
  m.nodes = 1;
  m.cores_per_node = ncpu > 0 ? (uint32_t)ncpu : 1;
  /* Per-call CPU: what an eager send costs, the typical call that does
   * not wait (an empty Iprobe is a lower bound). */
  m.overhead = sendcost > overhead ? sendcost : overhead;
  /* Ranks sharing cores pay the scheduler whenever a partner is not
   * running: what that costs per message is the ring step with every rank
   * taking part. Otherwise the ping-pong median (the machine may be shared
   * with other work; outliers are not the machine). */
  int shared = ncpu > 0 && nranks > ncpu && ring > 0;
  /* With the time slice measured, the simulator takes turns itself
   * (cpu.cores, cpu.quantum): the latency is then what a message costs
   * when both ranks run, the median of the small sizes' best times. */
  int slices = quantum > 0 && nbest > 0;
  m.cpu_quantum = slices ? quantum : 0;
  /* The node's cores, so a later run with more ranks than cores shares
   * them; unless the latency is the ring step of ranks already taking
   * turns (no time slice measured), which must not take turns again. */
  if (!shared && ncpu > 0) m.cpu_cores = (uint32_t)ncpu;
  if (shared && slices) {
    qsort(bests, nbest, sizeof bests[0], cli_cmp_double);
    lat = bests[nbest / 2];
    m.cpu_cores = (uint32_t)ncpu;
    shared = 0;
  }
  m.shm_latency = m.latency = shared ? ring : lat;
  /* The same for large messages: copies that need both ranks running go at
   * the pace the scheduler allows, so the slope of the mean times. */
  if (shared && mean4m > mean1m && mean1m > 0) bw = (4194304.0 - 1048576.0) / (mean4m - mean1m);
  m.shm_bandwidth = m.bandwidth = bw;
  m.fresh_buffer = freshbuf;
  m.first_touch = firsttouch;
  if (eager >= -1) m.eager_limit = eager < 0 ? 0 : (uint64_t)eager;

  FILE *f = stdout;
  if (out && !(f = fopen(out, "w"))) return cli_fail("%s: %s", out, strerror(errno));
  fprintf(f, "# augur machine model written by `augur calibrate --ranks %lld` (%s, %ld cores)\n",
          nranks, mpi, ncpu);
  fprintf(f, "# ping-pong between ranks 0 and 1, half round trip:\n%s", notes);
  if (ar >= 0) fprintf(f, "# MPI_Allreduce 8 bytes, %lld ranks: %.3f us\n", nranks, ar * 1e6);
  if (bar >= 0) fprintf(f, "# MPI_Barrier, %lld ranks: %.3f us\n", nranks, bar * 1e6);
  fprintf(f, "# overhead: MPI_Send of <= 64 bytes %.3f us, empty MPI_Iprobe %.3f us\n",
          sendcost * 1e6, overhead * 1e6);
  fprintf(f, "# ping-pong up to 1 KiB: median %.3f us, mean %.3f us\n", lat * 1e6, lat_mean * 1e6);
  if (ring > 0) fprintf(f, "# ring step over %lld ranks: %.3f us\n", nranks, ring * 1e6);
  fprintf(f,
          "# 4 MiB received into a new buffer: +%.3f ms per MiB; its pages not yet in "
          "memory: +%.3f ms per MiB more\n",
          freshbuf * 1e3, firsttouch * 1e3);
  if (eager >= 0)
    fprintf(f,
            "# eager limit: the largest MPI_Send that returned before its receiver posted: "
            "%.0f bytes%s\n",
            eager, eager >= 4194304 ? " (the largest size tried)" : "");
  else if (eager == -1)
    fprintf(f, "# eager limit: every MPI_Send waited for its receiver\n");
  if (slices)
    fprintf(f, "# time slice: ping-pong with ranks 0 and 1 on one CPU: %.3f ms\n", quantum * 1e3);
  fprintf(f, "# latency = %s\n",
          shared                  ? "the ring step (more ranks than cores: scheduling)"
          : m.cpu_cores && slices ? "the median best ping-pong (more ranks than cores: "
                                    "the model takes turns of the time slice)"
                                  : "the ping-pong median");
  fprintf(f, "# bandwidth = the slope between 1 and 4 MiB of the %s times\n",
          shared ? "mean" : "best");
  if (flops > 0)
    fprintf(f, "# compute rate: %.1f Mflop/s (dependent multiply-add chain)\n", flops / 1e6);
  fprintf(f, "\n");
  int rc = augur_machine_write(&m, f);
  if (out && fclose(f)) rc = AUGUR_E_IO;
  if (rc != AUGUR_OK) return cli_fail("%s: write failed", out ? out : "stdout");
  if (out) fprintf(stderr, "%s: wrote %s\n", cli_prog, out);
  return CLI_OK;
}
