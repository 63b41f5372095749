/* Site configuration files of augurd and the SPANK plugin: one setting per
 * line, `name = value`; '#' starts a comment (also after a value); blanks
 * around names and values do not count. */
#include <stdio.h>
#include <string.h>

#include "mon.h"

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  char *e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
    *--e = '\0';
  return s;
}

int mon_conf_read(FILE *f, const char *path, mon_conf_fn fn, void *ctx, char *why, size_t whyn) {
  char line[8192], where[4200];
  int lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    char *s = trim(line);
    if (!*s) continue;
    snprintf(where, sizeof where, "%s:%d", path, lineno);
    char *eq = strchr(s, '=');
    if (!eq) {
      snprintf(why, whyn, "%s: expected 'name = value'", where);
      return -1;
    }
    *eq = '\0';
    int rc = fn(ctx, trim(s), trim(eq + 1), where);
    if (rc) return rc;
  }
  return 0;
}
