/* augur recorder — in the launcher (mpiexec, hydra_pmi_proxy, any process of
 * the recorded command that never calls MPI_Init): a SIGKILL sent to other
 * processes is preceded by a SIGTERM and a short wait, so a rank killed by its
 * launcher writes the records it holds (its SIGTERM handler, rec_lifecycle.c)
 * before it dies.
 *
 * Why: MPICH's hydra ends the other ranks of a job whose rank crashed with
 * kill(-pgrp, SIGKILL), and a SIGKILL cannot be caught: the surviving ranks
 * lost every record not yet written (measured: rank 0 of apps/cr_crash kept
 * 155 of its 2001 events). Open MPI's launcher sends SIGTERM first already.
 *
 * The wait ends as soon as every target has ended (is gone or a zombie), at
 * most AUG_TERM_GRACE_MS; a program that catches SIGTERM and keeps running
 * costs that much, then gets the SIGKILL as asked. Inside MPI ranks (after
 * MPI_Init) kill() is untouched. Async-signal-safe (launchers call kill() from
 * their signal handlers): the real kill is looked up at load time, and the
 * wait uses only open/read/close, opendir-free /proc reads and nanosleep. */
#define _GNU_SOURCE
#include <dirent.h> /* struct dirent64: getdents64 without opendir's malloc */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "rec.h"

#define AUG_TERM_GRACE_MS 2000

static int (*real_kill)(pid_t, int);

__attribute__((constructor)) static void find_kill(void) {
  real_kill = (int (*)(pid_t, int))dlsym(RTLD_NEXT, "kill");
}

static int sys_kill(pid_t pid, int sig) {
  return real_kill ? real_kill(pid, sig) : (int)syscall(SYS_kill, pid, sig);
}

/* 1 if /proc/NAME/stat is a process that has not ended (not a zombie) and,
 * with PGRP > 0, is in process group PGRP. */
static int running(const char *name, long pgrp) {
  char path[64] = "/proc/", buf[512];
  size_t n = strlen(name);
  if (n > 20) return 0;
  memcpy(path + 6, name, n);
  memcpy(path + 6 + n, "/stat", 6);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t k = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (k <= 0) return 0;
  buf[k] = 0;
  const char *p = strrchr(buf, ')'); /* the command name may hold anything */
  if (!p || strlen(p) < 5) return 0;
  char state = p[2]; /* ") S PPID PGRP" */
  if (state == 'Z' || state == 'X') return 0;
  if (pgrp <= 0) return 1;
  p += 4; /* the ppid, then the process group (no strtol: signal-safe) */
  while (*p >= '0' && *p <= '9')
    p++;
  long g = 0;
  for (p += *p == ' '; *p >= '0' && *p <= '9'; p++)
    g = g * 10 + (*p - '0');
  return g == pgrp;
}

/* 1 while process PID (> 0), or a member of process group -PID (< -1), runs. */
static int alive(pid_t pid) {
  char name[24], *q = name + sizeof name;
  if (pid > 0) {
    *--q = 0;
    for (unsigned long v = (unsigned long)pid; v; v /= 10)
      *--q = (char)('0' + v % 10);
    return running(q, 0);
  }
  int dfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return 0;
  char buf[4096];
  int found = 0;
  long k;
  while (!found && (k = syscall(SYS_getdents64, dfd, buf, sizeof buf)) > 0)
    for (long off = 0; off < k && !found;) {
      const struct dirent64 *d = (const struct dirent64 *)(buf + off);
      found = d->d_name[0] >= '1' && d->d_name[0] <= '9' && running(d->d_name, -(long)pid);
      off += d->d_reclen;
    }
  close(dfd);
  return found;
}

AUGUR_API int kill(pid_t pid, int sig) {
  if (sig == SIGKILL && (pid > 0 || pid < -1) && !aug_lifecycle_started() && pid != getpid() &&
      -pid != getpgrp()) {
    int saved = errno;
    if (sys_kill(pid, SIGTERM) == 0) {
      struct timespec tick = {0, 5000000};
      for (int waited = 0; waited < AUG_TERM_GRACE_MS && alive(pid); waited += 5)
        nanosleep(&tick, NULL);
    }
    errno = saved;
  }
  return sys_kill(pid, sig);
}

AUGUR_API int killpg(pid_t pgrp, int sig) {
  if (pgrp <= 1) {
    errno = EINVAL;
    return -1;
  }
  return kill(-pgrp, sig);
}
