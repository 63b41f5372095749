/* augur SPANK plugin — the site configuration and the level of a step. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon.h"
#include "spank_int.h"

#ifndef AUGUR_LIBDIR
#define AUGUR_LIBDIR "/usr/local/lib"
#endif

static int parse_int(const char *v, long lo, long hi, int *out) {
  char *end;
  errno = 0;
  long x = strtol(v, &end, 10);
  if (errno || end == v || *end || x < lo || x > hi) return -1;
  *out = (int)x;
  return 0;
}

static int copy(char *dst, size_t n, const char *v) {
  size_t len = strlen(v);
  if (len >= n) return -1;
  memcpy(dst, v, len + 1);
  return 0;
}

struct conf_ctx {
  augur_spank_conf *c;
  char *why;
  size_t whyn;
};

static int set_one(void *ctx, const char *name, const char *v, const char *where) {
  struct conf_ctx *x = ctx;
  augur_spank_conf *c = x->c;
  int bad;
  if (!strcmp(name, "level"))
    bad = parse_int(v, 0, 3, &c->level);
  else if (!strcmp(name, "deadline_ms"))
    bad = parse_int(v, 1, 3600000, &c->deadline_ms);
  else if (!strcmp(name, "collector"))
    bad = copy(c->collector, sizeof c->collector, v);
  else if (!strcmp(name, "key"))
    bad = copy(c->key, sizeof c->key, v);
  else if (!strcmp(name, "spool"))
    bad = copy(c->spool, sizeof c->spool, v) || !*v;
  else if (!strcmp(name, "scratch"))
    bad = copy(c->scratch, sizeof c->scratch, v) || v[0] != '/';
  else if (!strcmp(name, "library"))
    bad = copy(c->library, sizeof c->library, v) || v[0] != '/';
  else if (!strcmp(name, "cluster"))
    bad = copy(c->cluster, sizeof c->cluster, v);
  else {
    snprintf(x->why, x->whyn, "%s: unknown setting '%.64s'", where, name);
    return -1;
  }
  if (bad) snprintf(x->why, x->whyn, "%s: bad value for %s", where, name);
  return bad ? -1 : 0;
}

int augur_spank_conf_load(augur_spank_conf *c, const char *path, int must_exist, char *why,
                          size_t whyn) {
  memset(c, 0, sizeof *c);
  c->level = 0;
  c->deadline_ms = 10000;
  snprintf(c->spool, sizeof c->spool, "/var/spool/augur");
  snprintf(c->scratch, sizeof c->scratch, "/tmp");
  snprintf(c->library, sizeof c->library, "%s/libaugur-profile.so", AUGUR_LIBDIR);
  FILE *f = fopen(path, "r");
  if (!f) {
    if (!must_exist && errno == ENOENT) return 0;
    snprintf(why, whyn, "cannot read %s: %s", path, strerror(errno));
    return -1;
  }
  struct conf_ctx x = {c, why, whyn};
  int rc = mon_conf_read(f, path, set_one, &x, why, whyn);
  fclose(f);
  if (rc) return -1;
  if (c->collector[0] && !c->key[0]) {
    snprintf(why, whyn, "%s: a collector needs a key file (key = PATH)", path);
    return -1;
  }
  return 0;
}

int augur_spank_level(const char *option, const char *env, int site, char *why, size_t whyn) {
  int level;
  if (option) {
    if (parse_int(option, 0, 3, &level) < 0) {
      snprintf(why, whyn, "--augur-level wants 0 to 3, got '%.32s'", option);
      return -1;
    }
    return level;
  }
  if (env && *env) {
    if (parse_int(env, 0, 3, &level) < 0) {
      snprintf(why, whyn, "AUGUR_PROFILE_LEVEL wants 0 to 3, got '%.32s'", env);
      return -1;
    }
    return level;
  }
  return site;
}
