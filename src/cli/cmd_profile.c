/* augur profile [options] -- COMMAND...
 *
 * Runs COMMAND with libaugur-profile preloaded (the MPI flavour's variant
 * when the application links MPI), so every process and thread of the job
 * leaves a fixed-size summary in a private scratch directory. When COMMAND
 * ends, the summaries become ONE job record: written as JSON (-o), and/or
 * sent to the augurd collectors, spooled locally when none answers within
 * the deadline. The application itself never touches the network. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mon_store.h"
#include "mpi_flavour.h"

static void copy_str(char *dst, size_t n, const char *src) {
  snprintf(dst, n, "%s", src ? src : "");
}

static uint64_t real_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void fill_job(augp_job *j, char **cmd, int ncmd, int level) {
  memset(j, 0, sizeof *j);
  mon_random(j->uid, sizeof j->uid);
  char host[64] = "";
  gethostname(host, sizeof host - 1);
  const char *slurm = getenv("SLURM_JOB_ID");
  if (slurm && *slurm)
    copy_str(j->job_id, sizeof j->job_id, slurm);
  else
    snprintf(j->job_id, sizeof j->job_id, "%.40s-%ld-%ld", host, (long)getpid(), (long)time(NULL));
  copy_str(j->step, sizeof j->step, getenv("SLURM_STEP_ID") ? getenv("SLURM_STEP_ID") : "0");
  const char *cl = getenv("AUGUR_CLUSTER");
  if (!cl || !*cl) cl = getenv("SLURM_CLUSTER_NAME");
  copy_str(j->cluster, sizeof j->cluster, cl && *cl ? cl : "local");
  struct passwd *pw = getpwuid(getuid());
  copy_str(j->user, sizeof j->user, pw ? pw->pw_name : "?");
  j->uid_num = (uint64_t)getuid();
  size_t len = 0;
  for (int i = 0; i < ncmd && len < sizeof j->command - 1; i++) {
    int w = snprintf(j->command + len, sizeof j->command - len, "%s%s", i ? " " : "", cmd[i]);
    if (w < 0) break;
    len += (size_t)w;
  }
  j->level = (uint64_t)level;
}

static void spool_note(const char *msg) {
  cli_note("%s", msg);
}

static int setup_sender(mon_sender *s, const char *collectors, const char *keyfile,
                        const char *spool, long long deadline) {
  memset(s, 0, sizeof *s);
  s->note = spool_note;
  copy_str(s->collectors, sizeof s->collectors, collectors);
  if (spool)
    copy_str(s->spool, sizeof s->spool, spool);
  else
    snprintf(s->spool, sizeof s->spool, "/var/tmp/augur-spool-%ld", (long)getuid());
  s->deadline_ms = (int)deadline;
  if (collectors && *collectors) {
    if (!keyfile || !*keyfile)
      return cli_usage("a collector needs a key: --key FILE or AUGUR_KEY_FILE");
    char why[4400];
    if (mon_key_load(&s->key, keyfile, why, sizeof why)) return cli_fail("%s", why);
  }
  return CLI_OK;
}

static int write_json(const char *path, const uint8_t *payload, uint32_t len) {
  char *js = mon_job_json(payload, len);
  if (!js) return cli_fail("the job record is invalid; not written");
  FILE *f = fopen(path, "w");
  if (!f) {
    free(js);
    return cli_fail("cannot write %s: %s", path, strerror(errno));
  }
  int ok = fputs(js, f) >= 0 && fputc('\n', f) != EOF;
  ok = (fclose(f) == 0) && ok;
  free(js);
  if (!ok) return cli_fail("cannot write %s: %s", path, strerror(errno));
  return CLI_OK;
}

static int flush_spool(const mon_sender *s) {
  if (!s->collectors[0])
    return cli_usage("--flush needs a collector (--collector or AUGUR_COLLECTOR)");
  int sent = 0, left = 0;
  char why[4400];
  if (mon_spool_drain(s, &sent, &left, why, sizeof why)) return cli_fail("%s", why);
  cli_note("spool %s: %d record%s delivered, %d left", s->spool, sent, sent == 1 ? "" : "s", left);
  return left ? CLI_FAIL : CLI_OK;
}

int cmd_profile(int argc, char **argv) {
  const char *out = NULL, *mpi = NULL;
  const char *collectors = getenv("AUGUR_COLLECTOR");
  const char *keyfile = getenv("AUGUR_KEY_FILE");
  const char *spool = getenv("AUGUR_SPOOL");
  long long level = 2, deadline = 10000;
  int flush = 0;
  if (getenv("AUGUR_PROFILE_LEVEL") &&
      cli_parse_int("AUGUR_PROFILE_LEVEL", getenv("AUGUR_PROFILE_LEVEL"), 0, 3, &level) < 0)
    return CLI_USAGE;
  if (getenv("AUGUR_SEND_DEADLINE_MS") &&
      cli_parse_int("AUGUR_SEND_DEADLINE_MS", getenv("AUGUR_SEND_DEADLINE_MS"), 1, 3600000,
                    &deadline) < 0)
    return CLI_USAGE;
  const cli_opt options[] = {
      CLI_STRING("--output", "-o", "FILE", &out, "a file name",
                 "write the job record as JSON (default when no collector\n"
                 "is configured: APP.profile.json)"),
      CLI_INT("--level", "N", &level, 0, 3,
              "0 off, 1 cycles+instructions, 2 + FP and memory,\n"
              "3 + cache/TLB/branch (default $AUGUR_PROFILE_LEVEL or 2)"),
      CLI_STRING("--collector", NULL, "LIST", &collectors, NULL,
                 "host:port[,host:port...] of augurd (default\n"
                 "$AUGUR_COLLECTOR); the record is sent there"),
      CLI_STRING("--key", NULL, "FILE|munge", &keyfile, NULL,
                 "HMAC key file, or munge[:SOCKET] (default $AUGUR_KEY_FILE)"),
      CLI_STRING("--spool", NULL, "DIR", &spool, NULL,
                 "where undelivered records wait: your own directory, mode\n"
                 "700 (default $AUGUR_SPOOL or /var/tmp/augur-spool-UID)"),
      CLI_INT("--deadline", "MS", &deadline, 1, 3600000,
              "longest time spent sending (default 10000)"),
      CLI_FLAG("--flush", NULL, &flush, "only send the spooled records, then exit"),
      CLI_CALL("--mpi", NULL, "mpich|openmpi", cli_opt_mpi, &mpi,
               "use this MPI variant instead of detecting it"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur profile [options] -- COMMAND...\n"
               "       augur profile --flush [options]\n"
               "\n"
               "Runs COMMAND with profile mode preloaded: every process and thread is\n"
               "summarised (times, rusage, memory peak, counters, time in MPI and I/O)\n"
               "and the job's summaries become one job record (docs/monitoring.md).\n",
      .opts = options,
      .trailer = "\n"
                 "example:\n"
                 "  augur profile -o job.json -- mpiexec.mpich -n 4 ./stencil 256\n",
      .dashdash = 1};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  int dashdash = args.dashdash;
  mon_sender sender;
  int rc = setup_sender(&sender, collectors, keyfile, spool, deadline);
  if (rc != CLI_OK) return rc;
  if (flush) {
    if (dashdash >= 0) return cli_usage("--flush takes no COMMAND");
    return flush_spool(&sender);
  }
  if (dashdash < 0)
    return cli_usage("missing '-- COMMAND' (usage: augur profile [options] -- COMMAND...)");
  char **cmd = argv + dashdash + 1;
  int ncmd = argc - dashdash - 1;
  if (ncmd <= 0) return cli_usage("missing COMMAND after '--'");
  if (cli_command_found(cmd)) return 127;
  /* Level 0 is "off": the program runs exactly as without augur. */
  if (level == 0) return cli_run_child(cmd);

  char why[PATH_MAX + 128];
  int app = -1;
  int flavour = mpi_flavour_detect(cmd, ncmd, &app, why, sizeof why);
  if (mpi) flavour = mpi_flavour_parse(mpi);
  char lib[PATH_MAX], libname[64];
  cli_flavour_lib(libname, sizeof libname, "libaugur-profile", flavour);
  if (cli_lib_path(lib, sizeof lib, libname) < 0)
    return cli_fail("cannot find my own executable (/proc/self/exe)");
  if (access(lib, R_OK) != 0) return cli_fail("profile mode is not installed: %s is missing", lib);

  const char *tmpdir = getenv("TMPDIR");
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s/augur-profile-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  if (!mkdtemp(dir)) return cli_fail("cannot create a scratch directory: %s", strerror(errno));

  char lv[8];
  snprintf(lv, sizeof lv, "%lld", level);
  int ok = cli_preload(lib) == 0 && setenv("AUGUR_PROFILE_DIR", dir, 1) == 0 &&
           setenv("AUGUR_PROFILE_LEVEL", lv, 1) == 0;
  if (!ok) return cli_fail("cannot set the environment: %s", strerror(errno));
  /* OpenMP: libgomp has no OMPT; LLVM's libomp implements its entry points
   * and reports to profile mode's tool, so a GCC-built program runs on it
   * (docs/monitoring.md "Efficiencies"; as `augur record` does). Without
   * libomp the job's record says OpenMP was not seen. */
  char *exe = mpi_flavour_which(cmd[app >= 0 ? app : 0]);
  char omplib[256] = "", libomp[PATH_MAX];
  if (exe && omp_runtime_of_exe(exe, omplib, sizeof omplib) == OMP_RUNTIME_GNU &&
      omp_find_libomp(libomp, sizeof libomp) == 0 && cli_preload(libomp) != 0) {
    free(exe);
    return cli_fail("cannot set the environment: %s", strerror(errno));
  }
  free(exe);

  augp_job job;
  fill_job(&job, cmd, ncmd, (int)level);
  job.start_ns = real_ns();
  uint64_t mono0 = cli_mono_ns();
  int code = cli_run_child(cmd);
  /* Start plus the monotonic duration: a clock step while the command ran
   * cannot make the job end before it starts (and lose its record). */
  job.end_ns = job.start_ns + (cli_mono_ns() - mono0);
  job.exit_status = code;
  unsetenv("LD_PRELOAD");

  augp_proc *procs = NULL;
  uint64_t n = 0;
  rc = mon_records_collect(dir, getuid(), &procs, &n, why, sizeof why);
  mon_dir_remove(dir);
  if (rc != 0) return cli_fail("%s", why);
  if (why[0]) cli_note("note: %s", why);
  for (uint64_t i = 0; i < n; i++)
    if (procs[i].flags & AUGP_PF_BADTIME)
      cli_note("note: process %llu (pid %llu) ends before it starts (a clock step?): kept, "
               "flagged bad_time, its duration unknown",
               (unsigned long long)i, (unsigned long long)procs[i].pid);
  job.nprocs = n;
  size_t len = sizeof job + n * sizeof *procs;
  if (len > MON_MAX_DEFAULT)
    cli_note("note: the job record is %zu bytes; augurd's default limit is %u", len,
             MON_MAX_DEFAULT);
  uint8_t *payload = malloc(len);
  if (!payload) {
    free(procs);
    return cli_fail("out of memory");
  }
  memcpy(payload, &job, sizeof job);
  if (n) memcpy(payload + sizeof job, procs, n * sizeof *procs);
  free(procs);

  int status = CLI_OK;
  const char *app_name = app >= 0 ? cmd[app] : cmd[0];
  char defname[PATH_MAX];
  if (!out && !sender.collectors[0]) {
    const char *base = strrchr(app_name, '/') ? strrchr(app_name, '/') + 1 : app_name;
    snprintf(defname, sizeof defname, "%s.profile.json", base);
    out = defname;
  }
  if (out) {
    status = write_json(out, payload, (uint32_t)len);
    if (status == CLI_OK)
      cli_note("job record (%llu process%s) written to %s", (unsigned long long)n,
               n == 1 ? "" : "es", out);
  }
  if (sender.collectors[0]) {
    char swhy[4400];
    int s = mon_send_or_spool(&sender, payload, (uint32_t)len, swhy, sizeof swhy);
    if (s == 0) {
      int sent = 0, left = 0;
      /* The collector answers: deliver what earlier jobs had to spool. */
      if (mon_spool_drain(&sender, &sent, &left, swhy, sizeof swhy) == 0 && sent)
        cli_note("also delivered %d spooled record%s", sent, sent == 1 ? "" : "s");
    } else if (s == 1) {
      cli_note("no collector answered (%s); record spooled in %s", swhy, sender.spool);
    } else {
      cli_note("record %s: %s", s == 2 ? "not sent" : "LOST", swhy);
      status = CLI_FAIL;
    }
  }
  free(payload);
  return code ? code : status;
}
