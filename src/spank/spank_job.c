/* augur SPANK plugin — the step's scratch directory and its job record.
 *
 * The directory is created by the job's user (user_init runs with the
 * user's privileges) and read by root at step end, so root never follows a
 * link in it and only reads regular files the user owns: a job cannot make
 * the plugin send another user's file to the collector. The record layout
 * and the sender are augur_mon's (src/mon: mon_record.h, mon_client.c), the
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
