/* augur — the [microbench] section of the machine model: the figures of
 * `augur calibrate --openmp` (include/augur/microbench.h; docs/simulate.md
 * "Microbenchmarks"). The simulator's reader (machine.c) skips the section;
 * this file reads and writes it for the analytic model (analytic.c). */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "augur/microbench.h"
#include "sim_int.h"

void augur_mb_init(augur_microbench *b) {
  assert(b);
  memset(b, 0, sizeof *b);
  for (size_t i = 0; i < AUGUR_MB_MAX_THREADS; i++)
    b->parallel[i] = b->barrier[i] = b->forloop[i] = b->bandwidth[i] = -1;
  b->mem_latency = -1;
}

static int figure(double x) {
  return isfinite(x) && x >= 0;
}

/* Sets the message time of BYTES, keeping the sizes ascending. */
static void set_message(augur_microbench *b, double bytes, double t) {
  size_t i = 0;
  while (i < b->nsizes && b->msg_bytes[i] < bytes)
    i++;
  if (i < b->nsizes && b->msg_bytes[i] == bytes) {
    b->msg_time[i] = t;
    return;
  }
  if (b->nsizes == AUGUR_MB_MAX_SIZES) return;
  memmove(b->msg_bytes + i + 1, b->msg_bytes + i, (b->nsizes - i) * sizeof b->msg_bytes[0]);
  memmove(b->msg_time + i + 1, b->msg_time + i, (b->nsizes - i) * sizeof b->msg_time[0]);
  b->msg_bytes[i] = bytes;
  b->msg_time[i] = t;
  b->nsizes++;
}

void augur_mb_line(augur_microbench *b, const char *line) {
  assert(b && line);
  double t, p, r, f, w, x;
  if (sscanf(line, "omp %lf %lf %lf %lf %lf", &t, &p, &r, &f, &w) == 5) {
    if (t != floor(t) || t < 1 || t > AUGUR_MB_MAX_THREADS || !figure(p) || !figure(r) ||
        !figure(f) || !figure(w))
      return;
    size_t i = (size_t)t - 1;
    b->parallel[i] = p, b->barrier[i] = r, b->forloop[i] = f, b->bandwidth[i] = w;
  } else if (sscanf(line, "memlatency %lf", &x) == 1 && figure(x)) {
    b->mem_latency = x;
  } else if (sscanf(line, "pingpong %lf %lf %lf", &x, &p, &t) == 3 && figure(x) && x == floor(x) &&
             figure(t)) {
    set_message(b, x, t); /* the best time, as the least sample of the OpenMP figures */
  }
}

int augur_mb_has_openmp(const augur_microbench *b) {
  assert(b);
  for (size_t i = 0; i < AUGUR_MB_MAX_THREADS; i++)
    if (b->parallel[i] >= 0 && b->forloop[i] >= 0) return 1;
  return 0;
}

int augur_mb_write(FILE *out, const augur_microbench *b) {
  assert(out && b);
  fprintf(out, "\n[microbench]            ; augur calibrate --openmp: the analytic model's inputs "
               "(augur model analytic)\n");
  for (size_t i = 0; i < b->nsizes; i++)
    fprintf(out, "msg_%.0f = %.6g%s\n", b->msg_bytes[i], b->msg_time[i],
            i ? "" : "            ; s, ping-pong half round trip of that many bytes (best)");
  for (size_t i = 0; i < AUGUR_MB_MAX_THREADS; i++) {
    if (b->parallel[i] < 0) continue;
    fprintf(out, "parallel_%zu = %.6g\nbarrier_%zu = %.6g\nfor_%zu = %.6g\nbandwidth_%zu = %.6g\n",
            i + 1, b->parallel[i], i + 1, b->barrier[i], i + 1, b->forloop[i], i + 1,
            b->bandwidth[i]);
  }
  if (b->mem_latency >= 0) fprintf(out, "mem_latency = %.6g\n", b->mem_latency);
  return ferror(out) ? AUGUR_E_IO : AUGUR_OK;
}

typedef struct mb_ctx {
  augur_microbench *b;
  int seen;
  char msg[200];
} mb_ctx;

/* KEY is PREFIX followed by a whole number in [LO, HI]: *N = it. */
static int suffix(const char *key, const char *prefix, double lo, double hi, double *n) {
  size_t len = strlen(prefix);
  if (strncasecmp(key, prefix, len)) return 0;
  const char *d = key + len;
  char *end;
  errno = 0;
  double x = strtod(d, &end);
  if (end == d || *end || errno || *d < '0' || *d > '9' || x != floor(x) || x < lo || x > hi)
    return 0;
  *n = x;
  return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value) {
  mb_ctx *c = user;
  if (strcasecmp(section, "microbench")) return 1; /* the simulator's sections */
  if (c->msg[0]) return 0; /* libinih goes on after an error: keep the first (its line) */
  augur_microbench *b = c->b;
  double v;
  if (sim_parse_number(value, 1000, &v) || !figure(v)) {
    snprintf(c->msg, sizeof c->msg, "microbench.%s: expected a number >= 0, got '%s'", name, value);
    return 0;
  }
  double n;
  c->seen = 1;
  if (!strcasecmp(name, "mem_latency")) {
    b->mem_latency = v;
    return 1;
  }
  if (suffix(name, "msg_", 0, 1e15, &n)) {
    if (b->nsizes == AUGUR_MB_MAX_SIZES) {
      snprintf(c->msg, sizeof c->msg, "microbench.%s: more than %d message sizes", name,
               AUGUR_MB_MAX_SIZES);
      return 0;
    }
    set_message(b, n, v);
    return 1;
  }
  struct {
    const char *prefix;
    double *to;
  } per[] = {{"parallel_", b->parallel},
             {"barrier_", b->barrier},
             {"for_", b->forloop},
             {"bandwidth_", b->bandwidth}};
  for (size_t k = 0; k < sizeof per / sizeof per[0]; k++)
    if (suffix(name, per[k].prefix, 1, AUGUR_MB_MAX_THREADS, &n)) {
      per[k].to[(size_t)n - 1] = v;
      return 1;
    }
  snprintf(c->msg, sizeof c->msg,
           "unknown key '%s' in section [microbench] (msg_BYTES, parallel_T, barrier_T, for_T, "
           "bandwidth_T with T in 1..%d, mem_latency)",
           name, AUGUR_MB_MAX_THREADS);
  return 0;
}

int augur_mb_load(augur_microbench *b, const char *path, augur_error *err) {
  assert(b && path);
  augur_mb_init(b);
  mb_ctx c = {b, 0, ""};
  int rc = sim_ini_load(path, handler, &c, c.msg, err);
  if (rc != AUGUR_OK) return rc;
  if (!c.seen)
    return augur_fail(err, AUGUR_E_FORMAT,
                      "%s: no [microbench] section (write one with `augur calibrate --openmp`)",
                      path);
  if (b->nsizes < 2)
    return augur_fail(err, AUGUR_E_FORMAT,
                      "%s: [microbench] needs the message cost of at least 2 sizes (msg_BYTES), "
                      "has %zu",
                      path, b->nsizes);
  for (size_t i = 0; i < AUGUR_MB_MAX_THREADS; i++)
    if ((b->parallel[i] < 0) != (b->forloop[i] < 0))
      return augur_fail(err, AUGUR_E_FORMAT,
                        "%s: [microbench] has %s_%zu but no %s_%zu (both are needed)", path,
                        b->parallel[i] < 0 ? "for" : "parallel", i + 1,
                        b->parallel[i] < 0 ? "parallel" : "for", i + 1);
  if (!augur_mb_has_openmp(b))
    return augur_fail(err, AUGUR_E_FORMAT,
                      "%s: [microbench] has no OpenMP figures (parallel_T and for_T)", path);
  return AUGUR_OK;
}

double augur_mb_message(const augur_microbench *b, double bytes) {
  assert(b && b->nsizes >= 2 && bytes >= 0);
  size_t i = 1;
  while (i < b->nsizes - 1 && b->msg_bytes[i] < bytes)
    i++;
  /* the segment [i - 1, i] holds BYTES, or is the last (extrapolated) or first */
  double x0 = b->msg_bytes[i - 1], x1 = b->msg_bytes[i], y0 = b->msg_time[i - 1],
         y1 = b->msg_time[i];
  if (bytes <= x0) return y0;
  if (bytes > x1 && y1 < y0) return y1; /* a falling last segment: no faster than its end */
  return y0 + (y1 - y0) * (bytes - x0) / (x1 - x0);
}
