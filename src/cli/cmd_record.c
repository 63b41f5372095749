/* augur record [options] -- COMMAND...
 *
 * Runs COMMAND with the recorder preloaded. The recorder must match the MPI
 * library the application links (an MPICH-built recorder in an Open MPI
 * program fails at load or, worse, misreads handles), so the flavour is read
 * from the application's ELF dependencies before anything runs. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "augur/report.h"
#include "augur/writer.h"
#include "cli.h"
#include "mpi_flavour.h"

/* Only a directory holding nothing but trace files may be replaced: -o with
 * a typo must never wipe someone's source tree. Trace files: trace.json and
 * its temporary copies, rank-N.evt and the compressed copy a rank leaves when
 * it dies while compressing its file at close (rank-N.evt.part). */
static int is_trace_file(const char *name) {
  if (!strcmp(name, "trace.json") || !strncmp(name, "trace.json.", 11)) return 1;
  return !strncmp(name, "rank-", 5) &&
         (cli_ends_with(name, ".evt") || cli_ends_with(name, ".evt" AUGUR_WRITER_PART));
}

static int replace_trace_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return cli_fail("cannot replace %s: %s", dir, strerror(errno));
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    if (!is_trace_file(de->d_name)) {
      closedir(d);
      return cli_fail("refusing to replace %s: it holds '%s', which is not part of an augur trace",
                      dir, de->d_name);
    }
  }
  rewinddir(d);
  char p[PATH_MAX];
  while ((de = readdir(d)) != NULL) {
    if (!is_trace_file(de->d_name)) continue;
    int w = snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
    if (w < 0 || (size_t)w >= sizeof p || unlink(p) != 0) {
      closedir(d);
      return cli_fail("cannot remove %s: %s", p, strerror(errno));
    }
  }
  closedir(d);
  return CLI_OK;
}

static int absolute(char *out, size_t n, const char *path) {
  if (path[0] == '/') {
    snprintf(out, n, "%s", path);
    return 0;
  }
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) return -1;
  int w = snprintf(out, n, "%s/%s", cwd, path);
  return w < 0 || (size_t)w >= n ? -1 : 0;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static int choose_output(char *out, size_t n, const char *explicit_dir, const char *app) {
  struct stat st;
  if (explicit_dir) {
    if (absolute(out, n, explicit_dir) < 0) return cli_fail("path too long: %s", explicit_dir);
    if (stat(out, &st) == 0) {
      if (!S_ISDIR(st.st_mode)) return cli_fail("%s exists and is not a directory", explicit_dir);
      return replace_trace_dir(out);
    }
    return CLI_OK;
  }
  const char *base = base_name(app);
  char name[PATH_MAX];
  for (int k = 1; k < 10000; k++) {
    if (k == 1)
      snprintf(name, sizeof name, "%s.augur", base);
    else
      snprintf(name, sizeof name, "%s-%d.augur", base, k);
    if (absolute(out, n, name) < 0) return cli_fail("path too long: %s", name);
    if (lstat(out, &st) != 0) return CLI_OK;
  }
  return cli_fail("too many %s-N.augur directories here; use -o DIR", base);
}

static uint64_t dir_bytes(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  uint64_t sum = 0;
  struct dirent *de;
  char p[PATH_MAX];
  struct stat st;
  while ((de = readdir(d)) != NULL) {
    int w = snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
    if (w > 0 && (size_t)w < sizeof p && stat(p, &st) == 0 && S_ISREG(st.st_mode))
      sum += (uint64_t)st.st_size;
  }
  closedir(d);
  return sum;
}

/* One line about OpenMP when the program has some: how many records, or
 * why none were seen (trace.json "openmp" note). Nothing for MPI-only runs. */
static void say_omp(const augur_trace *t) {
  const augur_omp_meta *m = &augur_trace_info_get(t)->openmp;
  uint64_t n = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++)
    n += augur_trace_omp_nevents(t, r);
  const char *mode = m->mode ? m->mode : "unknown";
  int seen = !strcmp(mode, "ompt") || !strcmp(mode, "ompt-preloaded");
  if (n)
    cli_note("%llu OpenMP records (%s)", (unsigned long long)n, mode);
  else if (seen || !strcmp(mode, "unavailable"))
    cli_note("OpenMP not seen: %s", m->note && *m->note ? m->note : "the runtime reported nothing");
}

/* After the run: say where the trace is and what it holds, read back with
 * the reader so a broken trace is noticed now, not at analysis time. */
static int summarise(const char *dir, const char *cmd, int flavour) {
  struct stat st;
  if (stat(dir, &st) != 0) {
    cli_note("no trace was produced: %s never called MPI_Init under the recorder%s", cmd,
             flavour == MPI_FLAVOUR_NONE ? " (it does not look like an MPI program)" : "");
    return CLI_OK; /* not augur's failure: the program's status decides */
  }
  augur_trace *t = NULL;
  augur_error err = {0};
  if (augur_trace_open(&t, dir, &err) != AUGUR_OK) {
    cli_note("trace in %s is unreadable: %s", dir, err.msg);
    return CLI_FAIL;
  }
  uint32_t n = augur_trace_nranks(t);
  uint64_t events = 0;
  uint32_t unfinished = 0, first_unfinished = 0, damaged = 0;
  for (uint32_t r = 0; r < n; r++) {
    events += augur_trace_nevents(t, r);
    const augur_rank_def *d = augur_trace_rank(t, r);
    if (!d || !d->finalize_ns) {
      if (!unfinished++) first_unfinished = r;
    }
    const char *msg = NULL;
    augur_trace_damage(t, r, &msg);
    if (msg) damaged++;
  }
  char size[32];
  augur_fmt_bytes(size, sizeof size, dir_bytes(dir));
  cli_note("trace written to %s", dir);
  cli_note("%u rank%s, %llu events, %s on disk", n, n == 1 ? "" : "s", (unsigned long long)events,
           size);
  say_omp(t);
  int rc = CLI_OK;
  if (unfinished) {
    cli_note("trace is INCOMPLETE: %u rank%s never reached MPI_Finalize (first: rank %u)",
             unfinished, unfinished == 1 ? "" : "s", first_unfinished);
    rc = CLI_FAIL;
  }
  if (damaged) {
    cli_note("trace is DAMAGED in %u rank file%s (see 'augur info %s')", damaged,
             damaged == 1 ? "" : "s", dir);
    rc = CLI_FAIL;
  }
  augur_trace_close(t);
  return rc;
}

/* A libgomp program run on the preloaded libomp: libgomp is still loaded and,
 * when OMP_PROC_BIND or OMP_PLACES asks for binding, pins the process's
 * initial thread to the first place as it starts, before libomp (which reads
 * the same variables later) starts its threads; libomp then takes that one
 * CPU for the process's mask and puts every thread on it (a rank of 2
 * threads with OMP_PLACES=cores OMP_PROC_BIND=close ran both on CPU 0). So
 * the binding goes to libomp alone, as KMP_AFFINITY (which libgomp does not
 * read), and the two variables are unset (docs/openmp.md "Recording"). Only
 * what KMP_AFFINITY says alike is moved: OMP_PROC_BIND close, spread or true
 * (or unset with OMP_PLACES set) over OMP_PLACES threads, cores or sockets
 * (unset: threads); anything else, or a KMP_AFFINITY of the user's, is left
 * as it is with a note. */
static int omp_bind_to_libomp(void) {
  const char *bind = getenv("OMP_PROC_BIND"), *places = getenv("OMP_PLACES");
  if ((!bind && !places) || (bind && !strcmp(bind, "false"))) return CLI_OK;
  const char *type = !bind || !strcmp(bind, "true") || !strcmp(bind, "close") ? "compact"
                     : !strcmp(bind, "spread")                                ? "scatter"
                                                                              : NULL;
  const char *gran = !places || !strcmp(places, "threads") ? "fine"
                     : !strcmp(places, "cores")            ? "core"
                     : !strcmp(places, "sockets")          ? "socket"
                                                           : NULL;
  if (!type || !gran || getenv("KMP_AFFINITY")) {
    cli_note("note: OMP_PROC_BIND=%s OMP_PLACES=%s%s: GCC's libgomp, still loaded beside LLVM's, "
             "may pin each rank to one CPU before its threads start",
             bind ? bind : "(unset)", places ? places : "(unset)",
             getenv("KMP_AFFINITY") ? " with KMP_AFFINITY set" : "");
    return CLI_OK;
  }
  char kmp[64];
  snprintf(kmp, sizeof kmp, "granularity=%s,%s", gran, type);
  if (setenv("KMP_AFFINITY", kmp, 1) != 0 || unsetenv("OMP_PROC_BIND") != 0 ||
      unsetenv("OMP_PLACES") != 0)
    return cli_fail("cannot set the environment: %s", strerror(errno));
  return CLI_OK;
}

/* --omp: which OpenMP runtime the program needs (the word that links MPI,
 * else the first word that is an ELF executable with an OpenMP runtime)
 * and what the ranks need to record it (docs/openmp.md "Recording"):
 * libomp reports through OMPT itself; a libgomp program runs on LLVM's
 * libomp preloaded before the recorder (LD_PRELOAD is prepended: call this
 * after the recorder's cli_preload). The ranks get AUGUR_OMP (0 = register
 * nothing) and AUGUR_OMP_MODE (what was decided here). */
static int setup_omp(const char *omp, char **cmd, int ncmd, int app) {
  int on = !strcmp(omp, "on");
  if (!strcmp(omp, "off"))
    return setenv("AUGUR_OMP", "0", 1) == 0 && setenv("AUGUR_OMP_MODE", "off", 1) == 0
               ? CLI_OK
               : cli_fail("cannot set the environment: %s", strerror(errno));
  int rt = OMP_RUNTIME_NONE;
  char lib[256] = "";
  const char *prog = cmd[app >= 0 ? app : 0];
  for (int i = app >= 0 ? app : 0; i < ncmd && rt <= OMP_RUNTIME_NONE; i++) {
    char *p = mpi_flavour_which(cmd[i]);
    if (p) rt = omp_runtime_of_exe(p, lib, sizeof lib);
    if (p && rt > OMP_RUNTIME_NONE) prog = cmd[i];
    free(p);
    if (app >= 0) break; /* the MPI program is the one */
  }
  const char *mode = "none";
  char libomp[PATH_MAX];
  if (rt == OMP_RUNTIME_LLVM) {
    mode = "ompt";
  } else if (rt == OMP_RUNTIME_GNU || on) {
    if (omp_find_libomp(libomp, sizeof libomp) == 0) {
      if (cli_preload(libomp) != 0)
        return cli_fail("cannot set the environment: %s", strerror(errno));
      mode = "ompt-preloaded";
      if (rt == OMP_RUNTIME_GNU && omp_bind_to_libomp() != CLI_OK) return CLI_FAIL;
      if (rt == OMP_RUNTIME_GNU)
        cli_note("note: %s uses %s (no OMPT): recorded on LLVM's libomp, where GCC's "
                 "schedule(static) loops give no work records",
                 base_name(prog), lib);
    } else if (on) {
      return cli_fail("--omp on: LLVM's libomp.so.5 is not installed (Debian: libomp5)");
    } else {
      mode = "unavailable";
      cli_note("note: OpenMP not recorded: %s uses %s (no OMPT) and LLVM's libomp.so.5, "
               "which could stand in for it, is not installed",
               base_name(prog), lib);
    }
  }
  if (setenv("AUGUR_OMP", "1", 1) != 0 || setenv("AUGUR_OMP_MODE", mode, 1) != 0)
    return cli_fail("cannot set the environment: %s", strerror(errno));
  return CLI_OK;
}

static int run(char **cmd, const char *out, int flavour) {
  int code = cli_run_child(cmd);
  if (code == 127) return 127; /* could not run, already said why */
  int s = summarise(out, cmd[0], flavour);
  /* The application's own status wins; a clean run with a bad trace is 1. */
  return code ? code : s;
}

int cmd_record(int argc, char **argv) {
  const char *outopt = NULL, *counters = NULL, *mpi = NULL, *omp = "auto";
  int hash = 0;
  const cli_opt options[] = {
      CLI_STRING("--output", "-o", "DIR", &outopt, "a directory name",
                 "trace directory (default: APP.augur in the current\n"
                 "directory, APP-2.augur, ... if it exists); an existing\n"
                 "trace named with -o is replaced"),
      CLI_STRING("--counters", NULL, "LIST", &counters, NULL,
                 "counters per compute burst: auto (default), none, or a\n"
                 "comma list (PAPI_TOT_INS, instructions, task-clock, ...)"),
      CLI_FLAG("--payload-hash", NULL, &hash, "fingerprint message payloads (xxh3)"),
      CLI_CALL("--mpi", NULL, "mpich|openmpi", cli_opt_mpi, &mpi,
               "use this recorder instead of detecting it"),
      CLI_CHOICE("--omp", "auto|on|off", &omp, "auto|on|off",
                 "record OpenMP through OMPT: auto (default: when the\n"
                 "program links libomp, or libgomp run on LLVM's libomp),\n"
                 "on (also preload LLVM's libomp otherwise), off"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur record [options] -- COMMAND...\n"
               "\n"
               "Runs COMMAND (usually mpiexec ... ./app) with the augur recorder preloaded\n"
               "and writes a trace directory. The recorder matching the application's MPI\n"
               "(MPICH or Open MPI) is chosen from the application's ELF dependencies.\n",
      .opts = options,
      .trailer = "\n"
                 "example:\n"
                 "  augur record -- mpiexec.mpich -n 4 ./stencil 256\n",
      .dashdash = 1};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  int dashdash = args.dashdash;
  if (dashdash < 0)
    return cli_usage("missing '-- COMMAND' (usage: augur record [options] -- COMMAND...)");
  char **cmd = argv + dashdash + 1;
  int ncmd = argc - dashdash - 1;
  if (ncmd <= 0) return cli_usage("missing COMMAND after '--'");

  /* A command that cannot run is said once, before any note about MPI. */
  if (cli_command_found(cmd)) return 127;

  char why[PATH_MAX + 128];
  int app = -1;
  int flavour = mpi_flavour_detect(cmd, ncmd, &app, why, sizeof why);
  if (mpi) {
    int forced = mpi_flavour_parse(mpi);
    if (flavour != MPI_FLAVOUR_NONE && flavour != forced)
      cli_note("note: --mpi %s overrides what the application links: %s", mpi, why);
    flavour = forced;
  }

  char lib[PATH_MAX], libname[64];
  cli_flavour_lib(libname, sizeof libname, "libaugur-mpi", flavour);
  if (cli_lib_path(lib, sizeof lib, libname) < 0)
    return cli_fail("cannot find my own executable (/proc/self/exe)");
  if (access(lib, R_OK) != 0)
    return cli_fail("the %s recorder is not installed: %s is missing", mpi_flavour_title(flavour),
                    lib);
  if (flavour == MPI_FLAVOUR_NONE && !mpi)
    cli_note("note: %s; using the default recorder %s", why, libname);

  char out[PATH_MAX];
  int rc = choose_output(out, sizeof out, outopt, app >= 0 ? cmd[app] : cmd[0]);
  if (rc != CLI_OK) return rc;

  int ok = cli_preload(lib) == 0 && setenv("AUGUR_TRACE_DIR", out, 1) == 0 &&
           setenv("AUGUR_PAYLOAD_HASH", hash ? "1" : "0", 1) == 0 &&
           (!counters || setenv("AUGUR_COUNTERS", counters, 1) == 0);
  if (!ok) return cli_fail("cannot set the environment: %s", strerror(errno));
  rc = setup_omp(omp, cmd, ncmd, app);
  if (rc != CLI_OK) return rc;
  return run(cmd, out, flavour);
}
