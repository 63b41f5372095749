/* spank_augur.so — augur profile mode for every SLURM job step.
 *
 * plugstack.conf:  optional /usr/lib/augur/spank_augur.so conf=/etc/augur/augur.conf
 * job option:      srun|sbatch|salloc --augur-level=N   (0 off .. 3)
 *
 * It takes the place of the `augur profile` launcher (docs/monitoring.md):
 * user_init (slurmstepd, as the user) creates the step's node-local scratch
 * directory and preloads the profile library into every task (task_init
 * does, when the site names a directory of library variants: each task
 * gets the one for the MPI its executable links); the library
 * leaves one fixed-size record per process there (MPI ranks gathered to
 * rank 0 in MPI_Finalize); exit (slurmstepd, as root, after the tasks)
 * turns the node's records into one job record, sends it to augurd or
 * spools it, and removes the directory (job_epilog removes any left). The level comes from the
 * option, else AUGUR_PROFILE_LEVEL in the job's environment, else the site default
 * (`level` in the config file). Nothing here can fail a job: every problem
 * is logged and the step runs unprofiled. */
#include <dirent.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/spank.h>

#include "augur/api.h"
#include "mon.h"
#include "spank_int.h"

/* What SLURM looks up is exported (AUGUR_API, and spank_augur.map keeps the
 * rest local); the plugin's constants come from SLURM's macro, so the pragma
 * marks them. */
#pragma GCC visibility push(default)
SPANK_PLUGIN(augur, 1);
#pragma GCC visibility pop

static augur_spank_conf conf;
static int conf_ok;
static char opt_level[16]; /* --augur-level, "" when not given */
static int level;          /* this step's, once user_init decided */
static char scratch[4200]; /* "" when this step is not profiled */
static uint64_t start_ns, start_mono;
static int exit_status;
static int per_task; /* the library is chosen per task (a directory of variants) */

static int level_cb(int val, const char *arg, int remote) {
  (void)val;
  (void)remote;
  char why[128];
  if (!arg || augur_spank_level(arg, NULL, 0, why, sizeof why) < 0) {
    slurm_error("augur: %s", arg ? why : "--augur-level wants a value 0..3");
    return -1; /* srun refuses the bad option: the user sees it at once */
  }
  snprintf(opt_level, sizeof opt_level, "%s", arg);
  return 0;
}

static struct spank_option level_opt = {
    "augur-level",
    "N",
    "augur profile mode: 0 off, 1 times+cycles+instructions, 2 + FP and memory, "
    "3 + cache/TLB/branch (default: the site's)",
    1,
    0,
    level_cb};

static uint64_t clock_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

AUGUR_API int slurm_spank_init(spank_t sp, int ac, char **av) {
  const char *path = "/etc/augur/augur.conf";
  for (int i = 0; i < ac; i++)
    if (!strncmp(av[i], "conf=", 5)) path = av[i] + 5;
  char why[512];
  conf_ok = augur_spank_conf_load(&conf, path, 0, why, sizeof why) == 0;
  if (!conf_ok) slurm_error("augur: %s; profiling off", why);
  spank_context_t ctx = spank_context();
  if (ctx == S_CTX_LOCAL || ctx == S_CTX_REMOTE || ctx == S_CTX_ALLOCATOR)
    spank_option_register(sp, &level_opt);
  return 0;
}

static void step_name(uint32_t step, char *out, size_t n) {
  if (step == SLURM_BATCH_SCRIPT)
    snprintf(out, n, "batch");
  else if (step == SLURM_INTERACTIVE_STEP)
    snprintf(out, n, "interactive");
  else
    snprintf(out, n, "%u", (unsigned)step);
}

/* Puts LIB first in the task's LD_PRELOAD; whatever the user preloads
 * stays after it. 0, or -1 (logged). */
static int preload_library(spank_t sp, const char *lib) {
  char old[4096] = "", preload[8400];
  spank_err_t ge = spank_getenv(sp, "LD_PRELOAD", old, sizeof old);
  if (ge == ESPANK_NOSPACE) { /* never cut the user's preloads short */
    slurm_error("augur: the job's LD_PRELOAD is too long; profiling off");
    return -1;
  }
  if (ge != ESPANK_SUCCESS) old[0] = '\0';
  snprintf(preload, sizeof preload, "%s%s%s", lib, old[0] ? ":" : "", old);
  return spank_setenv(sp, "LD_PRELOAD", preload, 1) == ESPANK_SUCCESS ? 0 : -1;
}

AUGUR_API int slurm_spank_user_init(spank_t sp, int ac, char **av) {
  (void)ac;
  (void)av;
  scratch[0] = '\0';
  if (!conf_ok || !spank_remote(sp)) return 0;
  uint32_t job = 0, step = 0;
  if (spank_get_item(sp, S_JOB_ID, &job) != ESPANK_SUCCESS ||
      spank_get_item(sp, S_JOB_STEPID, &step) != ESPANK_SUCCESS)
    return 0;
  if (step == SLURM_EXTERN_CONT) return 0; /* no user tasks in it */
  char env[32] = "", why[512];
  int has_env = spank_getenv(sp, "AUGUR_PROFILE_LEVEL", env, sizeof env) == ESPANK_SUCCESS;
  level = augur_spank_level(opt_level[0] ? opt_level : NULL, has_env ? env : NULL, conf.level, why,
                            sizeof why);
  if (level < 0) {
    slurm_error("augur: %s; profiling off", why);
    return 0;
  }
  if (level == 0) return 0;
  per_task = augur_spank_library_is_dir(&conf);
  if (!per_task && access(conf.library, R_OK) != 0) {
    slurm_error("augur: %s is missing; profiling off", conf.library);
    return 0;
  }
  char sname[32];
  step_name(step, sname, sizeof sname);
  if (augur_spank_scratch(conf.scratch, job, sname, scratch, sizeof scratch, why, sizeof why) < 0) {
    slurm_error("augur: %s; profiling off", why);
    scratch[0] = '\0';
    return 0;
  }
  char lv[8];
  snprintf(lv, sizeof lv, "%d", level);
  if ((!per_task && preload_library(sp, conf.library) != 0) ||
      spank_setenv(sp, "AUGUR_PROFILE_DIR", scratch, 1) != ESPANK_SUCCESS ||
      spank_setenv(sp, "AUGUR_PROFILE_LEVEL", lv, 1) != ESPANK_SUCCESS) {
    slurm_error("augur: cannot set the task environment; profiling off");
    mon_dir_remove(scratch);
    scratch[0] = '\0';
    return 0;
  }
  start_ns = clock_ns(CLOCK_REALTIME);
  start_mono = clock_ns(CLOCK_MONOTONIC);
  exit_status = 0;
  return 0;
}

/* In the task's process, just before it executes the program (as the
 * user): with a directory of variants, the one for this program's MPI. The
 * job's PATH is set here first so a bare command name resolves as the exec
 * will; this process is about to be replaced anyway. A task whose library
 * cannot be chosen runs unprofiled. */
AUGUR_API int slurm_spank_task_init(spank_t sp, int ac, char **av) {
  (void)ac;
  (void)av;
  if (!scratch[0] || !per_task) return 0;
  int argc = 0;
  char **argv = NULL, path[8192], lib[4400], why[4400];
  if (spank_get_item(sp, S_JOB_ARGV, &argc, &argv) != ESPANK_SUCCESS) argc = 0;
  if (spank_getenv(sp, "PATH", path, sizeof path) == ESPANK_SUCCESS) setenv("PATH", path, 1);
  if (augur_spank_library(&conf, argv, argc, lib, sizeof lib, why, sizeof why) != 0) {
    slurm_error("augur: %s; this task runs unprofiled", why);
    return 0;
  }
  if (preload_library(sp, lib) != 0) slurm_error("augur: cannot preload %s", lib);
  return 0;
}

AUGUR_API int slurm_spank_task_exit(spank_t sp, int ac, char **av) {
  (void)ac;
  (void)av;
  int status = 0;
  if (scratch[0] && spank_get_item(sp, S_TASK_EXIT_STATUS, &status) == ESPANK_SUCCESS) {
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (!exit_status) exit_status = code; /* the first failure names the step */
  }
  return 0;
}

static void fill_job(spank_t sp, augp_job *j, uint32_t job, uint32_t step, uid_t uid) {
  memset(j, 0, sizeof *j);
  mon_random(j->uid, sizeof j->uid);
  snprintf(j->job_id, sizeof j->job_id, "%u", (unsigned)job);
  step_name(step, j->step, sizeof j->step);
  char cl[64] = "";
  if (conf.cluster[0])
    snprintf(j->cluster, sizeof j->cluster, "%s", conf.cluster);
  else if (spank_getenv(sp, "SLURM_CLUSTER_NAME", cl, sizeof cl) == ESPANK_SUCCESS && cl[0])
    snprintf(j->cluster, sizeof j->cluster, "%s", cl);
  else
    snprintf(j->cluster, sizeof j->cluster, "local");
  struct passwd *pw = getpwuid(uid);
  snprintf(j->user, sizeof j->user, "%s", pw ? pw->pw_name : "?");
  j->uid_num = (uint64_t)uid;
  int argc = 0;
  char **argv = NULL;
  size_t len = 0;
  if (spank_get_item(sp, S_JOB_ARGV, &argc, &argv) == ESPANK_SUCCESS)
    for (int i = 0; i < argc && len < sizeof j->command - 1; i++) {
      int w = snprintf(j->command + len, sizeof j->command - len, "%s%s", i ? " " : "", argv[i]);
      if (w < 0) break;
      len += (size_t)w;
    }
  j->level = (uint64_t)level;
}

AUGUR_API int slurm_spank_exit(spank_t sp, int ac, char **av) {
  (void)ac;
  (void)av;
  if (!scratch[0] || !spank_remote(sp)) return 0;
  uint32_t job = 0, step = 0;
  uid_t uid = 0;
  spank_get_item(sp, S_JOB_ID, &job);
  spank_get_item(sp, S_JOB_STEPID, &step);
  spank_get_item(sp, S_JOB_UID, &uid);
  augp_job j;
  fill_job(sp, &j, job, step, uid);
  j.start_ns = start_ns;
  /* Start plus the monotonic duration: a clock step cannot make the step
   * end before it starts (and lose its record). */
  j.end_ns = start_ns + (clock_ns(CLOCK_MONOTONIC) - start_mono);
  j.exit_status = exit_status;
  augp_proc *procs = NULL;
  uint64_t n = 0;
  char why[4400];
  if (mon_records_collect(scratch, uid, &procs, &n, why, sizeof why) < 0 || why[0])
    slurm_error("augur: job %u step %s: %s", (unsigned)job, j.step, why);
  mon_dir_remove(scratch);
  scratch[0] = '\0';
  if (n) { /* a node without records (no task ran the library) sends nothing */
    j.nprocs = n;
    int rc = augur_spank_send(&conf, &j, procs, n, why, sizeof why);
    if (rc == 1)
      slurm_info("augur: job %u step %s: no collector answered (%s); record spooled in %s",
                 (unsigned)job, j.step, why, conf.spool);
    else if (rc != 0)
      slurm_error("augur: job %u step %s: record %s: %s", (unsigned)job, j.step,
                  rc == 2 ? "not sent" : "LOST", why);
  }
  free(procs);
  return 0;
}

/* Step directories that exit could not remove (slurmstepd killed, node
 * trouble) go when the job ends: job_epilog runs as root on every node. */
AUGUR_API int slurm_spank_job_epilog(spank_t sp, int ac, char **av) {
  (void)ac;
  (void)av;
  uint32_t job = 0;
  if (!conf_ok || spank_get_item(sp, S_JOB_ID, &job) != ESPANK_SUCCESS) return 0;
  char prefix[64];
  snprintf(prefix, sizeof prefix, "augur-%u.", (unsigned)job);
  DIR *d = opendir(conf.scratch);
  if (!d) return 0;
  struct dirent *de;
  char path[4400];
  while ((de = readdir(d)) != NULL) {
    if (strncmp(de->d_name, prefix, strlen(prefix)) != 0) continue;
    snprintf(path, sizeof path, "%s/%s", conf.scratch, de->d_name);
    mon_dir_remove(path);
  }
  closedir(d);
  return 0;
}
