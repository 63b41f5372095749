/* augur-check-apps: asserts that a recorded trace of a proving-ground app
 * (apps/ring.c, apps/stencil.c, apps/stencil_f.f90) is exactly what the app
 * did. Exit 0 when every expectation holds, 1 otherwise, 2 on usage errors.
 *
 *   augur-check-apps --app ring --trace DIR --src apps/ring.c --np N --iter I --bytes B
 *   augur-check-apps --app stencil --trace DIR --src apps/stencil.c --np N --iter I --nx X --ny Y
 *   augur-check-apps --app stencil_f ... --src apps/stencil_f.f90 (Fortran: same expectations
 *                    as stencil, plus AUGUR_F_FORTRAN on every call) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int usage(const char *msg) {
  fprintf(stderr, "augur-check-apps: %s\n", msg);
  fprintf(stderr, "usage: augur-check-apps --app ring|stencil|stencil_f --trace DIR --src FILE "
                  "--np N --iter I [--bytes B] [--nx X --ny Y]\n");
  return 2;
}

static int parse_long(const char *s, long *out) {
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < 0) return -1;
  *out = v;
  return 0;
}

int main(int argc, char **argv) {
  check c = {0};
  const char *trace = NULL;
  long np = -1;
  c.iter = c.bytes = c.nx = c.ny = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (i + 1 >= argc) return usage("every option needs a value");
    const char *v = argv[++i];
    long *num = NULL;
    if (strcmp(a, "--app") == 0)
      c.app = v;
    else if (strcmp(a, "--trace") == 0)
      trace = v;
    else if (strcmp(a, "--src") == 0)
      c.src = v;
    else if (strcmp(a, "--np") == 0)
      num = &np;
    else if (strcmp(a, "--iter") == 0)
      num = &c.iter;
    else if (strcmp(a, "--bytes") == 0)
      num = &c.bytes;
    else if (strcmp(a, "--nx") == 0)
      num = &c.nx;
    else if (strcmp(a, "--ny") == 0)
      num = &c.ny;
    else
      return usage("unknown option");
    if (num && parse_long(v, num) != 0) return usage("expected a non-negative integer");
  }
  if (!c.app || !trace || !c.src || np < 1 || c.iter < 1) return usage("missing option");
  int is_ring = strcmp(c.app, "ring") == 0;
  int is_stencil = strcmp(c.app, "stencil") == 0 || strcmp(c.app, "stencil_f") == 0;
  if (!is_ring && !is_stencil) return usage("unknown app");
  if (is_ring && c.bytes < 0) return usage("ring needs --bytes");
  if (is_stencil && (c.nx < 1 || c.ny < 1)) return usage("stencil needs --nx and --ny");
  c.np = (int)np;
  c.fortran = strcmp(c.app, "stencil_f") == 0;

  augur_error err = {0};
  if (augur_trace_open(&c.t, trace, &err) != AUGUR_OK) {
    fprintf(stderr, "FAIL %s np=%d: cannot open %s: %s\n", c.app, c.np, trace, err.msg);
    return 1;
  }
  if (check_load_markers(&c) == 0) {
    check_trace_facts(&c);
    check_world_def(&c);
    uint32_t nranks = augur_trace_nranks(c.t);
    /* Rank 0 first: the stencil learns the Cartesian comm id there. */
    for (uint32_t r = 0; r < nranks && r < (uint32_t)c.np; r++) {
      if (check_load_rank(&c, r) != 0) continue;
      if (is_ring)
        check_ring_rank(&c);
      else
        check_stencil_rank(&c);
    }
  }
  augur_trace_close(c.t);
  free(c.ev);
  if (c.failures) {
    fprintf(stderr, "FAIL %s np=%d: %d expectation(s) failed\n", c.app, c.np, c.failures);
    return 1;
  }
  printf("ok %s np=%d: %llu records on %d ranks match the expected trace\n", c.app, c.np,
         (unsigned long long)c.checked, c.np);
  return 0;
}
