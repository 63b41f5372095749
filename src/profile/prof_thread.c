/* libaugur-profile — following threads and exec.
 *
 * pthread_create is wrapped so each thread opens its own counters when it
 * starts and leaves a summary when it ends (return or pthread_exit: a
 * cleanup handler). The exec family is wrapped so the image that is about
 * to be replaced writes its record first; the new image loads this library
 * again through the inherited LD_PRELOAD and starts its own. fork needs no
 * wrapper: pthread_atfork (prof_core.c) resets the child. _GNU_SOURCE for
 * RTLD_NEXT and execvpe. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "prof.h"

typedef struct tramp {
  void *(*fn)(void *);
  void *arg;
} tramp;

static void thread_cleanup(void *p) {
  prof_thread_end(p);
}

static void *thread_main(void *p) {
  tramp tr = *(tramp *)p;
  free(p);
  prof_thread *t = prof_thread_begin();
  void *ret;
  pthread_cleanup_push(thread_cleanup, t);
  ret = tr.fn(tr.arg);
  pthread_cleanup_pop(1);
  return ret;
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

AUGUR_API int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *),
                             void *arg) {
  static create_fn real;
  if (!real) *(void **)(&real) = dlsym(RTLD_NEXT, "pthread_create");
  if (!real) return ENOSYS;
  if (!prof_level) return real(th, attr, fn, arg);
  tramp *tr = malloc(sizeof *tr);
  if (!tr) return real(th, attr, fn, arg); /* measure less rather than fail */
  tr->fn = fn;
  tr->arg = arg;
  int rc = real(th, attr, thread_main, tr);
  if (rc) free(tr);
  return rc;
}

/* ---- exec ---- */

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);

#define EXEC_WRAP(call)                                                                            \
  do {                                                                                             \
    prof_before_exec();                                                                            \
    int rc_ = call;                                                                                \
    int e_ = errno;                                                                                \
    prof_after_failed_exec();                                                                      \
    errno = e_;                                                                                    \
    return rc_;                                                                                    \
  } while (0)

AUGUR_API int execve(const char *path, char *const argv[], char *const envp[]) {
  static execve_fn real;
  if (!real) *(void **)(&real) = dlsym(RTLD_NEXT, "execve");
  if (!real) return errno = ENOSYS, -1;
  EXEC_WRAP(real(path, argv, envp));
}

AUGUR_API int execv(const char *path, char *const argv[]) {
  static execv_fn real;
  if (!real) *(void **)(&real) = dlsym(RTLD_NEXT, "execv");
  if (!real) return errno = ENOSYS, -1;
  EXEC_WRAP(real(path, argv));
}

AUGUR_API int execvp(const char *file, char *const argv[]) {
  static execv_fn real;
  if (!real) *(void **)(&real) = dlsym(RTLD_NEXT, "execvp");
  if (!real) return errno = ENOSYS, -1;
  EXEC_WRAP(real(file, argv));
}

AUGUR_API int execvpe(const char *file, char *const argv[], char *const envp[]) {
  static execve_fn real;
  if (!real) *(void **)(&real) = dlsym(RTLD_NEXT, "execvpe");
  if (!real) return errno = ENOSYS, -1;
  EXEC_WRAP(real(file, argv, envp));
}

/* The execl family takes its arguments inline: collect them into an argv
 * (at most 4096, more is refused with E2BIG) and go through the v forms. */
#define EXECL_MAX 4096

static int collect(const char *arg0, va_list ap, char **argv) {
  int n = 0;
  const char *a = arg0;
  while (a) {
    if (n >= EXECL_MAX) return -1;
    argv[n++] = (char *)a;
    a = va_arg(ap, const char *);
  }
  argv[n] = NULL;
  return n;
}

AUGUR_API int execl(const char *path, const char *arg, ...) {
  char **argv = malloc((EXECL_MAX + 1) * sizeof *argv);
  if (!argv) return errno = ENOMEM, -1;
  va_list ap;
  va_start(ap, arg);
  int n = collect(arg, ap, argv);
  va_end(ap);
  int rc = n < 0 ? (errno = E2BIG, -1) : execv(path, argv);
  free(argv);
  return rc;
}

AUGUR_API int execlp(const char *file, const char *arg, ...) {
  char **argv = malloc((EXECL_MAX + 1) * sizeof *argv);
  if (!argv) return errno = ENOMEM, -1;
  va_list ap;
  va_start(ap, arg);
  int n = collect(arg, ap, argv);
  va_end(ap);
  int rc = n < 0 ? (errno = E2BIG, -1) : execvp(file, argv);
  free(argv);
  return rc;
}

AUGUR_API int execle(const char *path, const char *arg, ...) {
  char **argv = malloc((EXECL_MAX + 1) * sizeof *argv);
  if (!argv) return errno = ENOMEM, -1;
  va_list ap;
  va_start(ap, arg);
  int n = collect(arg, ap, argv);
  char *const *envp = n < 0 ? NULL : va_arg(ap, char *const *);
  va_end(ap);
  int rc = n < 0 ? (errno = E2BIG, -1) : execve(path, argv, envp);
  free(argv);
  return rc;
}

/* ---- _exit ----
 * Some programs leave through _exit and skip the destructors (dash does,
 * and so do many forked children): the record is written here first. */
typedef void (*exit_fn)(int);

_Noreturn static void exit_via(const char *name, int status) {
  exit_fn real;
  *(void **)(&real) = dlsym(RTLD_NEXT, name);
  prof_before_exit();
  if (real) real(status);
  syscall(SYS_exit_group, status);
  for (;;) {
  }
}

AUGUR_API void _exit(int status) {
  exit_via("_exit", status);
}

AUGUR_API void _Exit(int status) {
  exit_via("_Exit", status);
}
