/* augur CLI — running the user's command under augur (record, profile,
 * predict): in a child process, with augur's signals passed on, and the
 * libraries augur preloads found next to the augur binary. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
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
static volatile sig_atomic_t got_signal = 0;

/* Terminal-generated signals already reach the child (same process group);
 * only forward what someone sent to augur itself (kill, a batch system), so
 * the application does not see a Ctrl-C twice. */
static void forward(int sig, siginfo_t *si, void *ctx) {
  (void)ctx;
  got_signal = sig;
  if (child_pid > 0 && (!si || si->si_code == SI_USER || si->si_code == SI_QUEUE))
    kill((pid_t)child_pid, sig);
}

int cli_run_child(char **cmd) {
  return cli_run_child_watched(cmd, NULL, NULL, NULL);
}

static double mono_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Copies what the child wrote on FDS[k] (its stdout, stderr pipes; -1 once
 * closed) to our fd k + 1, or drops it (DROP), waiting at most MS for some.
 * Returns how many bytes came (0 on timeout or with both pipes closed). */
static size_t relay(int fds[2], int ms, int drop) {
  struct pollfd p[2];
  nfds_t n = 0;
  int which[2];
  for (int k = 0; k < 2; k++)
    if (fds[k] >= 0) {
      p[n].fd = fds[k];
      p[n].events = POLLIN;
      which[n++] = k;
    }
  if (!n) return 0;
  if (poll(p, n, ms) <= 0) return 0;
  size_t got = 0;
  char buf[8192];
  for (nfds_t i = 0; i < n; i++) {
    if (!p[i].revents) continue;
    int k = which[i];
    ssize_t r = read(fds[k], buf, sizeof buf);
    if (r <= 0) {
      if (r < 0 && errno == EINTR) continue;
      close(fds[k]);
      fds[k] = -1;
      continue;
    }
    got += (size_t)r;
    for (ssize_t off = 0; !drop && off < r;) {
      ssize_t w = write(k + 1, buf + off, (size_t)(r - off));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break; /* our own output is gone: drop the rest */
      off += w;
    }
  }
  return got;
}

/* Waits for PID. With WATCH: relays its output (FDS, see relay) while
 * asking WATCH every TICK; once WATCH returns nonzero (*ENDED = that), sends
 * SIGTERM (mpiexec passes it on to the ranks), then SIGKILL 10 s later.
 * After a planned end (2) the child's output is dropped: what mpiexec says
 * about a terminated job is not the user's business. */
static int wait_child(pid_t pid, int *status, int (*watch)(void *), void *ctx, int *ended,
                      int fds[2]) {
  const int tick_ms = 20; /* a planned end is noticed within ~20-40 ms */
  double term_at = -1;
  int killed9 = 0;
  for (;;) {
    pid_t w = waitpid(pid, status, watch ? WNOHANG : 0);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return -1;
    if (w != 0) continue;
    if (fds[0] < 0 && fds[1] < 0) {
      struct timespec tick = {0, tick_ms * 1000000L};
      nanosleep(&tick, NULL);
    } else {
      relay(fds, tick_ms, *ended == 2);
    }
    int v;
    if (term_at < 0 && (v = watch(ctx)) != 0) {
      *ended = v;
      kill(pid, SIGTERM);
      term_at = mono_s();
    } else if (term_at >= 0 && !killed9 && mono_s() - term_at >= 10) {
      kill(pid, SIGKILL);
      killed9 = 1;
    }
  }
  /* What the child wrote before it ended; a rank it left behind may hold the
   * pipes open, so stop once they are quiet for 0.2 s. */
  while ((fds[0] >= 0 || fds[1] >= 0) && relay(fds, 200, *ended == 2) > 0)
    ;
  for (int k = 0; k < 2; k++)
    if (fds[k] >= 0) close(fds[k]);
  return 0;
}

int cli_run_child_watched(char **cmd, int (*watch)(void *ctx), void *ctx, int *ended) {
  int dummy = 0;
  if (!ended) ended = &dummy;
  *ended = 0;
  /* Watched: the child's stdout and stderr come through pipes, so what it
   * says after a planned end can be dropped. */
  int out[2] = {-1, -1}, err[2] = {-1, -1};
  if (watch && (pipe(out) != 0 || pipe(err) != 0)) return cli_fail("pipe: %s", strerror(errno));
  struct sigaction sa, old_int, old_term, old_pipe, ign;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = forward;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  /* Relaying: a reader of our output that went away (| head) must not kill
   * augur while the job runs on; the child gets the disposition back. */
  memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGPIPE, watch ? &ign : NULL, &old_pipe);
  fflush(NULL);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    return cli_fail("fork: %s", strerror(e));
  }
  if (pid == 0) {
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    if (watch) {
      dup2(out[1], 1);
      dup2(err[1], 2);
      close(out[0]);
      close(out[1]);
      close(err[0]);
      close(err[1]);
    }
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
  int fds[2] = {out[0], err[0]};
  if (watch) {
    close(out[1]);
    close(err[1]);
  }
  int status = 0;
  if (wait_child(pid, &status, watch, ctx, ended, fds) != 0)
    return cli_fail("waitpid: %s", strerror(errno));
  child_pid = 0;
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  sigaction(SIGPIPE, &old_pipe, NULL);
  if (*ended == 2) return 0; /* ended as planned: whatever mpiexec made of it */
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    if (!*ended) cli_note("%s was killed by signal %d", cmd[0], WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  return CLI_FAIL;
}

int cli_child_signal(void) {
  return got_signal;
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
