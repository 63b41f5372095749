/* augur CLI — running the user's command under augur (record, profile,
 * predict): in a child process, with augur's signals passed on, and the
 * libraries augur preloads found next to the augur binary. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mpi_flavour.h"

static volatile sig_atomic_t child_pid = 0;

/* Terminal-generated signals already reach the child (same process group);
 * only forward what someone sent to augur itself (kill, a batch system), so
 * the application does not see a Ctrl-C twice. */
static void forward(int sig, siginfo_t *si, void *ctx) {
  (void)ctx;
  if (child_pid > 0 && (!si || si->si_code == SI_USER || si->si_code == SI_QUEUE))
    kill((pid_t)child_pid, sig);
}

int cli_run_child(char **cmd) {
  return cli_run_child_watched(cmd, NULL, NULL, NULL);
}

/* Waits for PID; with STALLED, polls it every 200 ms and, when it says so,
 * sends SIGTERM (mpiexec passes it on to the ranks), then SIGKILL 10 s later. */
static int wait_child(pid_t pid, int *status, int (*stalled)(void *), void *ctx, int *killed) {
  const struct timespec tick = {0, 200000000};
  int ticks_since_term = -1;
  for (;;) {
    pid_t w = waitpid(pid, status, stalled ? WNOHANG : 0);
    if (w == pid) return 0;
    if (w < 0 && errno != EINTR) return -1;
    if (w != 0) continue;
    nanosleep(&tick, NULL);
    if (ticks_since_term < 0 && stalled(ctx)) {
      *killed = 1;
      kill(pid, SIGTERM);
      ticks_since_term = 0;
    } else if (ticks_since_term >= 0 && ++ticks_since_term == 50) {
      kill(pid, SIGKILL);
    }
  }
}

int cli_run_child_watched(char **cmd, int (*stalled)(void *ctx), void *ctx, int *killed) {
  int dummy = 0;
  if (!killed) killed = &dummy;
  *killed = 0;
  struct sigaction sa, old_int, old_term;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = forward;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  fflush(NULL);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) return cli_fail("fork: %s", strerror(errno));
  if (pid == 0) {
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    /* augur killed, even by SIGKILL which it cannot catch: the command gets
     * SIGTERM from the kernel (mpiexec passes it on to the ranks, whose
     * recorder writes what it holds), so no job runs on without its
     * recorder's parent (issue 22 item 10). Kept across exec; checked after
     * setting in case augur died in between. */
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent) _exit(128 + SIGTERM);
    execvp(cmd[0], cmd);
    fprintf(stderr, "%s: cannot run '%s': %s\n", cli_prog, cmd[0], strerror(errno));
    _exit(127);
  }
  child_pid = pid;
  int status = 0;
  if (wait_child(pid, &status, stalled, ctx, killed) != 0)
    return cli_fail("waitpid: %s", strerror(errno));
  child_pid = 0;
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    if (!*killed) cli_note("%s was killed by signal %d", cmd[0], WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  return CLI_FAIL;
}

int cli_lib_path(char *out, size_t n, const char *name) {
  char exe[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return -1;
  exe[len] = 0;
  for (int k = 0; k < 2; k++) { /* drop the binary's name, then bin/ */
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = 0;
  }
  int w = snprintf(out, n, "%s/lib/%s", exe, name);
  return w < 0 || (size_t)w >= n ? -1 : 0;
}

int cli_command_found(char *const *cmd) {
  char *resolved = mpi_flavour_which(cmd[0]);
  if (!resolved) {
    cli_note("cannot run '%s': %s", cmd[0],
             strchr(cmd[0], '/') ? "no such file" : "not found in PATH");
    return 127;
  }
  free(resolved);
  return 0;
}

void cli_flavour_lib(char *out, size_t n, const char *stem, int flavour) {
  if (flavour != MPI_FLAVOUR_NONE)
    snprintf(out, n, "%s-%s.so", stem, mpi_flavour_name(flavour));
  else
    snprintf(out, n, "%s.so", stem);
}

int cli_preload(const char *lib) {
  const char *old = getenv("LD_PRELOAD");
  size_t plen = strlen(lib) + (old ? strlen(old) : 0) + 2;
  char *preload = malloc(plen);
  if (!preload) return -1;
  snprintf(preload, plen, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
  int rc = setenv("LD_PRELOAD", preload, 1);
  free(preload);
  return rc;
}
