/* augur monitoring — reading a job's scratch directory: every process of
 * the job wrote its summary there as a .rec file (libaugur-profile); the
 * job's end (`augur profile`, or the SPANK plugin as root at step end)
 * reads them into one record. Safe against the job's own user: links are
 * not followed and only regular files of the expected owner are read, so a
 * job cannot make root send another user's file. */
#include <assert.h>
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

/* Appends the records of the open file F (SIZE bytes) to *procs; records
 * that are no process summary (no host, impossible rank...) are counted in
 * *bad and left out, the first one's reason in BADWHY. 0, or -1 out of
 * memory. The array grows by exactly what the file holds: memory stays the
 * records' size, bounded by MON_COLLECT_MAX. */
static int read_records(FILE *f, const char *name, off_t size, augp_proc **procs, uint64_t *n,
                        uint64_t *bad, char *badwhy, size_t badwhyn) {
  uint64_t want = *n + (uint64_t)size / sizeof(augp_proc);
  augp_proc *g = realloc(*procs, (want ? want : 1) * sizeof *g);
  if (!g) return -1;
  *procs = g;
  augp_proc rec;
  for (uint64_t i = 0; *n < want && fread(&rec, sizeof rec, 1, f) == 1; i++) {
    /* Strings must end inside their arrays whatever the file held. */
    rec.host[sizeof rec.host - 1] = rec.program[sizeof rec.program - 1] = 0;
    rec.counter_note[sizeof rec.counter_note - 1] = 0;
    /* A clock step while the process ran (times are CLOCK_REALTIME): the
     * process is kept, flagged, with no duration rather than a negative one. */
    if (rec.end_ns < rec.start_ns) {
      rec.flags |= AUGP_PF_BADTIME;
      rec.end_ns = rec.start_ns;
    }
    char w[200];
    if (mon_proc_validate(&rec, i, w, sizeof w) != 0) {
      /* One broken record must not cost the whole job. */
      if (!(*bad)++)
        snprintf(badwhy, badwhyn, "%.40s: %s", name, w + (strncmp(w, "malformed: ", 11) ? 0 : 11));
      continue;
    }
    (*procs)[(*n)++] = rec;
  }
  return 0;
}

int mon_records_collect(const char *dir, uid_t uid, augp_proc **procs, uint64_t *n, char *why,
                        size_t whyn) {
  assert(dir && procs && n && why && whyn);
  *procs = NULL;
  *n = 0;
  why[0] = 0;
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
  uint64_t total = 0, skipped = 0, skipped_bytes = 0, bad = 0;
  char first[256] = "", badwhy[256] = "";
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
    /* Per file and in total: a file that does not fit is skipped whole (a
     * 2 GB file planted in scratch would otherwise be read into memory). */
    if ((uint64_t)st.st_size > MON_COLLECT_MAX - total) {
      if (!skipped++) snprintf(first, sizeof first, "%.200s", de->d_name);
      skipped_bytes += (uint64_t)st.st_size;
      close(fd);
      continue;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
      close(fd);
      continue;
    }
    total += (uint64_t)st.st_size;
    int rc = read_records(f, de->d_name, st.st_size, procs, n, &bad, badwhy, sizeof badwhy);
    fclose(f);
    if (rc != 0) {
      closedir(d);
      free(*procs);
      *procs = NULL;
      *n = 0;
      snprintf(why, whyn, "out of memory");
      return -1;
    }
  }
  closedir(d);
  size_t used = 0;
  if (skipped)
    used = (size_t)snprintf(
        why, whyn,
        "%llu record file%s of %s skipped (%llu bytes, e.g. %s): over the %llu MiB a job's "
        "records may take; the job record lacks their processes",
        (unsigned long long)skipped, skipped == 1 ? "" : "s", dir,
        (unsigned long long)skipped_bytes, first, (unsigned long long)(MON_COLLECT_MAX >> 20));
  if (bad && used < whyn)
    snprintf(why + used, whyn - used, "%s%llu record%s of %s left out, not a process summary (%s)",
             used ? "; " : "", (unsigned long long)bad, bad == 1 ? "" : "s", dir, badwhy);
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
