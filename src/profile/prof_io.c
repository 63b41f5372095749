/* libaugur-profile — time in I/O calls.
 *
 * The POSIX calls and the stdio entry points are interposed and the real
 * ones found with dlsym(RTLD_NEXT). Each wrapper costs two vDSO clock reads
 * and a few stores into the calling thread's accumulators. glibc's stdio
 * calls its internal write, not ours, so fwrite is counted once. The
 * library's own I/O (writing the record) is not counted (in_lib).
 * _GNU_SOURCE for RTLD_NEXT and the *64 variants. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "prof.h"

#define REAL(name, ret, args) static ret(*real_##name) args

REAL(read, ssize_t, (int, void *, size_t));
REAL(write, ssize_t, (int, const void *, size_t));
REAL(pread, ssize_t, (int, void *, size_t, off_t));
REAL(pwrite, ssize_t, (int, const void *, size_t, off_t));
REAL(pread64, ssize_t, (int, void *, size_t, off64_t));
REAL(pwrite64, ssize_t, (int, const void *, size_t, off64_t));
REAL(readv, ssize_t, (int, const struct iovec *, int));
REAL(writev, ssize_t, (int, const struct iovec *, int));
REAL(open, int, (const char *, int, ...));
REAL(open64, int, (const char *, int, ...));
REAL(openat, int, (int, const char *, int, ...));
REAL(creat, int, (const char *, mode_t));
REAL(close, int, (int));
REAL(lseek, off_t, (int, off_t, int));
REAL(fsync, int, (int));
REAL(fdatasync, int, (int));
REAL(fopen, FILE *, (const char *, const char *));
REAL(fclose, int, (FILE *));
REAL(fread, size_t, (void *, size_t, size_t, FILE *));
REAL(fwrite, size_t, (const void *, size_t, size_t, FILE *));
REAL(fflush, int, (FILE *));

#define RESOLVE(name)                                                                              \
  do {                                                                                             \
    if (!real_##name) *(void **)(&real_##name) = dlsym(RTLD_NEXT, #name);                          \
  } while (0)

void prof_io_resolve(void) {
  RESOLVE(read);
  RESOLVE(write);
  RESOLVE(pread);
  RESOLVE(pwrite);
  RESOLVE(pread64);
  RESOLVE(pwrite64);
  RESOLVE(readv);
  RESOLVE(writev);
  RESOLVE(open);
  RESOLVE(open64);
  RESOLVE(openat);
  RESOLVE(creat);
  RESOLVE(close);
  RESOLVE(lseek);
  RESOLVE(fsync);
  RESOLVE(fdatasync);
  RESOLVE(fopen);
  RESOLVE(fclose);
  RESOLVE(fread);
  RESOLVE(fwrite);
  RESOLVE(fflush);
}

/* The accounting thread, or NULL when not measuring this call. */
static prof_thread *prof_acct(void) {
  if (!prof_level) return NULL;
  prof_thread *t = prof_self();
  return t && !t->in_lib ? t : NULL;
}

static void done(prof_thread *t, int cls, uint64_t t0, int64_t rd, int64_t wr) {
  if (!t) return;
  PROF_ADD(t->io_ns[cls], prof_mono_ns() - t0);
  PROF_ADD(t->io_calls[cls], 1);
  if (rd > 0) PROF_ADD(t->io_rd, (uint64_t)rd);
  if (wr > 0) PROF_ADD(t->io_wr, (uint64_t)wr);
}

#define MISSING(name, fail)                                                                        \
  RESOLVE(name);                                                                                   \
  if (!real_##name) {                                                                              \
    errno = ENOSYS;                                                                                \
    return fail;                                                                                   \
  }

#define START()                                                                                    \
  prof_thread *t = prof_acct();                                                                    \
  uint64_t t0 = t ? prof_mono_ns() : 0

/* The calls that move bytes: time and bytes in (RD) or out (WR). */
#define BYTES_WRAPPER(NAME, DIR, PARAMS, ARGS)                                                     \
  AUGUR_API ssize_t NAME PARAMS {                                                                  \
    MISSING(NAME, -1);                                                                             \
    START();                                                                                       \
    ssize_t r = real_##NAME ARGS;                                                                  \
    done(t, DIR == 0 ? AUGP_IO_READ : AUGP_IO_WRITE, t0, DIR == 0 ? r : 0, DIR == 0 ? 0 : r);      \
    return r;                                                                                      \
  }
#define RD 0
#define WR 1
BYTES_WRAPPER(read, RD, (int fd, void *buf, size_t n), (fd, buf, n))
BYTES_WRAPPER(write, WR, (int fd, const void *buf, size_t n), (fd, buf, n))
BYTES_WRAPPER(pread, RD, (int fd, void *buf, size_t n, off_t off), (fd, buf, n, off))
BYTES_WRAPPER(pwrite, WR, (int fd, const void *buf, size_t n, off_t off), (fd, buf, n, off))
BYTES_WRAPPER(pread64, RD, (int fd, void *buf, size_t n, off64_t off), (fd, buf, n, off))
BYTES_WRAPPER(pwrite64, WR, (int fd, const void *buf, size_t n, off64_t off), (fd, buf, n, off))
BYTES_WRAPPER(readv, RD, (int fd, const struct iovec *iov, int cnt), (fd, iov, cnt))
BYTES_WRAPPER(writev, WR, (int fd, const struct iovec *iov, int cnt), (fd, iov, cnt))
#undef RD
#undef WR

/* open's mode argument exists only with O_CREAT or O_TMPFILE. */
static mode_t open_mode(int flags, va_list ap) {
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

AUGUR_API int open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = open_mode(flags, ap);
  va_end(ap);
  MISSING(open, -1);
  START();
  int r = real_open(path, flags, mode);
  done(t, AUGP_IO_META, t0, 0, 0);
  return r;
}

AUGUR_API int open64(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = open_mode(flags, ap);
  va_end(ap);
  MISSING(open64, -1);
  START();
  int r = real_open64(path, flags, mode);
  done(t, AUGP_IO_META, t0, 0, 0);
  return r;
}

AUGUR_API int openat(int dirfd, const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = open_mode(flags, ap);
  va_end(ap);
  MISSING(openat, -1);
  START();
  int r = real_openat(dirfd, path, flags, mode);
  done(t, AUGP_IO_META, t0, 0, 0);
  return r;
}

AUGUR_API int creat(const char *path, mode_t mode) {
  MISSING(creat, -1);
  START();
  int r = real_creat(path, mode);
  done(t, AUGP_IO_META, t0, 0, 0);
  return r;
}

AUGUR_API int close(int fd) {
  MISSING(close, -1);
  START();
  int r = real_close(fd);
  done(t, AUGP_IO_META, t0, 0, 0);
  return r;
}

AUGUR_API off_t lseek(int fd, off_t off, int whence) {
  MISSING(lseek, -1);
  START();
  off_t r = real_lseek(fd, off, whence);
  done(t, AUGP_IO_META, t0, 0, 0);
  return r;
}

AUGUR_API int fsync(int fd) {
  MISSING(fsync, -1);
  START();
  int r = real_fsync(fd);
  done(t, AUGP_IO_SYNC, t0, 0, 0);
  return r;
}

AUGUR_API int fdatasync(int fd) {
  MISSING(fdatasync, -1);
  START();
  int r = real_fdatasync(fd);
  done(t, AUGP_IO_SYNC, t0, 0, 0);
  return r;
}

AUGUR_API FILE *fopen(const char *path, const char *mode) {
  MISSING(fopen, NULL);
  START();
  FILE *r = real_fopen(path, mode);
  done(t, AUGP_IO_META, t0, 0, 0);
  return r;
}

AUGUR_API int fclose(FILE *f) {
  MISSING(fclose, EOF);
  START();
  int r = real_fclose(f);
  done(t, AUGP_IO_META, t0, 0, 0);
  return r;
}

AUGUR_API size_t fread(void *buf, size_t size, size_t n, FILE *f) {
  MISSING(fread, 0);
  START();
  size_t r = real_fread(buf, size, n, f);
  done(t, AUGP_IO_READ, t0, (int64_t)(r * size), 0);
  return r;
}

AUGUR_API size_t fwrite(const void *buf, size_t size, size_t n, FILE *f) {
  MISSING(fwrite, 0);
  START();
  size_t r = real_fwrite(buf, size, n, f);
  done(t, AUGP_IO_WRITE, t0, 0, (int64_t)(r * size));
  return r;
}

AUGUR_API int fflush(FILE *f) {
  MISSING(fflush, EOF);
  START();
  int r = real_fflush(f);
  done(t, AUGP_IO_SYNC, t0, 0, 0);
  return r;
}
