/* augur calibrate [-o FILE] [--mpi mpich|openmpi] [--ranks N]
 * augur calibrate --from TRACE [--machine FILE] [-o FILE]
 *
 * --openmp also runs augur-calibrate-omp (src/sim/calibrate_omp.c) and
 * writes its figures and the ping-pong table as the [microbench] section
 * (include/augur/microbench.h) for `augur model analytic`.
 *
 * Runs augur-calibrate-<flavour> (src/sim/calibrate_mpi.c) with N ranks
 * (default 2) on this node and hands what it prints to src/sim/calibrate.c
 * (include/augur/calibrate.h), which reads the figures and derives the
 * machine model from them. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "augur/calibrate.h"
#include "augur/microbench.h"
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
  int turns = augur_calib_trace_turns(&m, augur_trace_nranks(t));
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

/* Runs CMD with its stdout into a pipe and hands every line to both
 * protocol readers (include/augur/calibrate.h, include/augur/microbench.h).
 * CLI_OK, or CLI_FAIL after one line naming WHAT when it cannot be run or
 * does not exit 0. */
static int measure(char *const *cmd, int openmpi, augur_calib_figures *fig, augur_microbench *mb,
                   const char *what) {
  int pfd[2];
  if (pipe(pfd)) return cli_fail("pipe: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0) {
    close(pfd[0]);
    close(pfd[1]);
    return cli_fail("fork: %s", strerror(errno));
  }
  if (pid == 0) {
    dup2(pfd[1], 1);
    close(pfd[0]);
    close(pfd[1]);
    if (openmpi) { /* as the tests run Open MPI here: root, 2 cores */
      setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
      setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
      setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
    }
    execvp(cmd[0], cmd);
    fprintf(stderr, "%s: cannot run %s: %s\n", cli_prog, cmd[0], strerror(errno));
    _exit(127);
  }
  close(pfd[1]);
  FILE *in = fdopen(pfd[0], "r");
  char line[256];
  while (in && fgets(line, sizeof line, in)) {
    augur_calib_line(fig, line);
    augur_mb_line(mb, line);
  }
  if (in) fclose(in);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return cli_fail("the calibration run (%s) failed", what);
  return CLI_OK;
}

int cmd_calibrate(int argc, char **argv) {
  const char *out = NULL, *mpi = NULL;
  long long nranks = 2;
  const char *from = NULL, *base = NULL;
  int openmp = 0;
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
      CLI_FLAG("--openmp", NULL, &openmp,
               "also the analytic model's microbenchmarks (OpenMP fork/join,\n"
               "barrier and for overheads per thread count, memory latency and\n"
               "bandwidth) as the model's [microbench] section"),
      CLI_INT("--ranks", "N", &nranks, 2, 1024,
              "ranks to run (default 2); ranks 0 and 1 measure while the\n"
              "others poll, so N above the core count measures what\n"
              "messages cost when ranks share cores"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur calibrate [-o FILE] [--mpi mpich|openmpi] [--ranks N] [--openmp]\n"
               "       augur calibrate --from TRACE [--machine FILE] [-o FILE]\n"
               "\n"
               "Measures this machine with N MPI ranks (per-call overhead, ping-pong\n"
               "latency and bandwidth over message sizes, allreduce and barrier cost,\n"
               "compute rate) and writes a machine model for `augur simulate --machine`.\n"
               "See docs/simulate.md.\n",
      .opts = options};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  if (from && openmp)
    return cli_usage("--openmp measures this machine: it does not go with --from");
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
  char ompprog[PATH_MAX];
  if (openmp &&
      (cli_lib_path(ompprog, sizeof ompprog, "augur-calibrate-omp") || access(ompprog, X_OK)))
    return cli_fail("calibration program augur-calibrate-omp not found next to augur (built "
                    "without OpenMP?)");
  char mpiexec[32], nbuf[16], what[PATH_MAX + 64];
  snprintf(mpiexec, sizeof mpiexec, "mpiexec.%s", mpi);
  snprintf(nbuf, sizeof nbuf, "%lld", nranks);
  snprintf(what, sizeof what, "%s -n %lld %s", mpiexec, nranks, prog);
  augur_calib_figures fig;
  augur_calib_init(&fig);
  augur_microbench mb;
  augur_mb_init(&mb);
  char *const cmd[] = {mpiexec, "-n", nbuf, prog, NULL};
  if (measure(cmd, !strcmp(mpi, "openmpi"), &fig, &mb, what) != CLI_OK) return CLI_FAIL;
  /* The OpenMP and memory figures, with thread counts 1..the usable cores. */
  long ncpu = (long)augur_usable_cores();
  if (openmp) {
    char *const ocmd[] = {ompprog, nbuf, NULL};
    snprintf(nbuf, sizeof nbuf, "%ld", ncpu < 1 ? 1 : ncpu > 256 ? 256 : ncpu); /* its limit */
    if (measure(ocmd, 0, &fig, &mb, ompprog) != CLI_OK) return CLI_FAIL;
    if (!augur_mb_has_openmp(&mb) || mb.nsizes < 2)
      return cli_fail("the calibration run (%s) printed no OpenMP figures", ompprog);
  }

  char host[256] = "localhost";
  gethostname(host, sizeof host - 1);
  /* ncpu: the CPUs the calibration's ranks could use (affinity mask,
   * cgroup quota): the online count over-states a container or a taskset. */
  augur_machine m;
  augur_machine_default(&m);
  augur_calib_how how;
  augur_error err = {0};
  if (augur_calib_derive(&fig, ncpu, nranks, host, mpi, &m, &how, &err) != AUGUR_OK)
    return cli_fail("%s", err.msg);
  FILE *f = stdout;
  if (out && !(f = fopen(out, "w"))) return cli_fail("%s: %s", out, strerror(errno));
  int rc = augur_calib_write(f, &fig, &how, &m);
  if (rc == AUGUR_OK && openmp) rc = augur_mb_write(f, &mb);
  if (out && fclose(f)) rc = AUGUR_E_IO;
  if (rc != AUGUR_OK) return cli_fail("%s: write failed", out ? out : "stdout");
  if (out) fprintf(stderr, "%s: wrote %s\n", cli_prog, out);
  return CLI_OK;
}
