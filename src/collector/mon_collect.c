/* augur monitoring — reading a job's scratch directory: every process of
 * the job wrote its summary there as a .rec file (libaugur-profile); the
 * job's end (`augur profile`, or the SPANK plugin as root at step end)
 * reads them into one record. Safe against the job's own user: links are
 * not followed and only regular files of the expected owner are read, so a
 * job cannot make root send another user's file. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mon.h"

/* MPI ranks first in rank order, then the other processes by start. */
static int proc_cmp(const void *a, const void *b) {
  const augp_proc *x = a, *y = b;
  int xr = x->rank >= 0, yr = y->rank >= 0;
  if (xr != yr) return yr - xr;
  if (xr && x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

int mon_records_collect(const char *dir, uid_t uid, augp_proc **procs, uint64_t *n, char *why,
                        size_t whyn) {
  *procs = NULL;
  *n = 0;
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  struct stat st;
  if (dfd < 0 || fstat(dfd, &st) != 0 || st.st_uid != uid) {
    snprintf(why, whyn, "cannot read %s: %s", dir, dfd < 0 ? strerror(errno) : "wrong owner");
    if (dfd >= 0) close(dfd);
    return -1;
  }
  DIR *d = fdopendir(dfd);
  if (!d) {
    close(dfd);
    snprintf(why, whyn, "cannot read %s: %s", dir, strerror(errno));
    return -1;
  }
  uint64_t cap = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    size_t nl = strlen(de->d_name);
    if (de->d_name[0] == '.' || nl < 4 || strcmp(de->d_name + nl - 4, ".rec") != 0) continue;
    int fd = openat(dfd, de->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) continue;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != uid ||
        st.st_size % (off_t)sizeof(augp_proc) != 0) {
      close(fd); /* not a record file of this job: ignored */
      continue;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
      close(fd);
      continue;
    }
    augp_proc rec;
    while (fread(&rec, sizeof rec, 1, f) == 1) {
      if (*n == cap) {
        cap = cap ? cap * 2 : 64;
        augp_proc *g = realloc(*procs, cap * sizeof *g);
        if (!g) {
          fclose(f);
          closedir(d);
          free(*procs);
          *procs = NULL;
          *n = 0;
          snprintf(why, whyn, "out of memory");
          return -1;
        }
        *procs = g;
      }
      /* Strings must end inside their arrays whatever the file held. */
      rec.host[sizeof rec.host - 1] = rec.program[sizeof rec.program - 1] = 0;
      rec.counter_note[sizeof rec.counter_note - 1] = 0;
      (*procs)[(*n)++] = rec;
    }
    fclose(f);
  }
  closedir(d);
  if (*n) qsort(*procs, *n, sizeof **procs, proc_cmp);
  return 0;
}

void mon_dir_remove(const char *dir) {
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  if (dfd < 0) return;
  DIR *d = fdopendir(dfd);
  if (!d) {
    close(dfd);
    return;
  }
  struct dirent *de;
  while ((de = readdir(d)) != NULL)
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
      unlinkat(dfd, de->d_name, 0); /* a subdirectory stays: rmdir below then fails */
  closedir(d);
  rmdir(dir);
}
