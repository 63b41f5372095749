/* augur SPANK plugin — the step's scratch directory and its job record.
 *
 * The directory is created by the job's user (user_init runs with the
 * user's privileges) and read by root at step end, so root never follows a
 * link in it and only reads regular files the user owns: a job cannot make
 * the plugin send another user's file to the collector. The record layout
 * and the sender are libaugur_monitor's (mon_record.h, mon_client.c), the
 * same bytes `augur profile` sends. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mon.h"
#include "spank_int.h"

int augur_spank_scratch(const char *root, uint32_t job, const char *step, char *out, size_t n,
                        char *why, size_t whyn) {
  int w = snprintf(out, n, "%s/augur-%u.%s", root, (unsigned)job, step);
  if (w < 0 || (size_t)w >= n) {
    snprintf(why, whyn, "scratch path too long");
    return -1;
  }
  if (mkdir(out, 0700) == 0) return 0;
  if (errno != EEXIST) {
    snprintf(why, whyn, "cannot create %s: %s", out, strerror(errno));
    return -1;
  }
  struct stat st;
  if (lstat(out, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
    snprintf(why, whyn, "%s exists and is not this user's directory", out);
    return -1;
  }
  return 0;
}

/* MPI ranks first in rank order, then the other processes by start. */
static int proc_cmp(const void *a, const void *b) {
  const augp_proc *x = a, *y = b;
  int xr = x->rank >= 0, yr = y->rank >= 0;
  if (xr != yr) return yr - xr;
  if (xr && x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

int augur_spank_collect(const char *dir, uid_t uid, augp_proc **procs, uint64_t *n, char *why,
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

void augur_spank_rmdir(const char *dir) {
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

int augur_spank_send(const augur_spank_conf *c, const augp_job *job, const augp_proc *procs,
                     uint64_t n, char *why, size_t whyn) {
  mon_sender s;
  memset(&s, 0, sizeof s);
  snprintf(s.collectors, sizeof s.collectors, "%s", c->collector);
  snprintf(s.spool, sizeof s.spool, "%s", c->spool);
  s.deadline_ms = c->deadline_ms;
  if (c->key[0] && mon_key_load(&s.key, c->key, why, whyn) < 0) return -1;
  size_t len = sizeof *job + n * sizeof *procs;
  if (len > UINT32_MAX) {
    snprintf(why, whyn, "job record too large");
    return -1;
  }
  uint8_t *payload = malloc(len);
  if (!payload) {
    snprintf(why, whyn, "out of memory");
    return -1;
  }
  memcpy(payload, job, sizeof *job);
  if (n) memcpy(payload + sizeof *job, procs, n * sizeof *procs);
  int rc = mon_send_or_spool(&s, payload, (uint32_t)len, why, whyn);
  free(payload);
  if (rc == 0) {
    int sent = 0, left = 0;
    char dwhy[256];
    mon_spool_drain(&s, &sent, &left, dwhy, sizeof dwhy);
  }
  return rc;
}
