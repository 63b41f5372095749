/* Human formatting of times, sizes and call sites, shared by the analyses'
 * text output and the CLI. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "augur/report.h"

void augur_fmt_ns(char *buf, size_t n, uint64_t ns) {
  if (ns < 1000)
    snprintf(buf, n, "%u ns", (unsigned)ns);
  else if (ns < 1000000)
    snprintf(buf, n, "%.1f us", (double)ns / 1e3);
  else if (ns < 1000000000)
    snprintf(buf, n, "%.2f ms", (double)ns / 1e6);
  else
    snprintf(buf, n, "%.3f s", (double)ns / 1e9);
}

void augur_fmt_bytes(char *buf, size_t n, uint64_t bytes) {
  static const char *unit[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) {
    snprintf(buf, n, "%u B", (unsigned)bytes);
    return;
  }
  double v = (double)bytes / 1024.0;
  int u = 0;
  while (v >= 1024.0 && u < 5) {
    v /= 1024.0;
    u++;
  }
  snprintf(buf, n, "%.1f %s", v, unit[u]);
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

void augur_fmt_callsite(char *buf, size_t n, augur_trace *t, uint32_t callsite) {
  if (callsite == 0) {
    snprintf(buf, n, "?");
    return;
  }
  augur_srcloc loc = {0};
  if (augur_trace_resolve(t, callsite, &loc) == AUGUR_OK && (loc.function || loc.file)) {
    if (loc.file && loc.line > 0)
      snprintf(buf, n, "%s (%s:%d)", loc.function ? loc.function : "?", base_name(loc.file),
               loc.line);
    else
      snprintf(buf, n, "%s", loc.function ? loc.function : base_name(loc.file));
    return;
  }
  const char *module = NULL;
  uint64_t offset = 0;
  if (augur_callsite_place(t, callsite, &module, &offset))
    snprintf(buf, n, "%s+0x%llx", base_name(module), (unsigned long long)offset);
  else
    snprintf(buf, n, "call site %u", (unsigned)callsite);
}

int augur_callsite_place(augur_trace *t, uint32_t callsite, const char **module, uint64_t *offset) {
  assert(t && module && offset);
  const augur_callsite_def *cs = callsite ? augur_trace_callsite(t, callsite) : NULL;
  const augur_module_def *m = cs ? augur_trace_module(t, cs->module) : NULL;
  *module = m ? m->path : NULL;
  *offset = cs ? cs->offset : 0;
  return *module != NULL;
}
