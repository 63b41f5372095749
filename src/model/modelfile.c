/* augur_model — the model file (JSON). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

int model_read_file(const char *path, char **text, size_t *len, augur_error *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return augur_fail(err, AUGUR_E_IO, "%s: %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  for (;;) {
    if (!b) {
      fclose(f);
      return augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", path);
    }
    n += fread(b + n, 1, cap - n - 1, f);
    if (n < cap - 1) break;
    char *nb = realloc(b, cap * 2);
    if (!nb) free(b);
    b = nb;
    cap *= 2;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(b);
    return augur_fail(err, AUGUR_E_IO, "%s: read error", path);
  }
  b[n] = 0;
  *text = b;
  *len = n;
  return AUGUR_OK;
}

int augur_model_write(const augur_model *m, const char *path, augur_error *err) {
  (void)m;
  return augur_fail(err, AUGUR_E_STATE, "%s: model write not implemented yet", path);
}
char *augur_model_to_json(const augur_model *m) {
  (void)m;
  return NULL;
}
int augur_model_read(augur_model **m, const char *path, augur_error *err) {
  *m = NULL;
  return augur_fail(err, AUGUR_E_STATE, "%s: model read not implemented yet", path);
}
int augur_model_parse(augur_model **m, const char *name, const char *text, size_t len,
                      augur_error *err) {
  (void)text, (void)len;
  *m = NULL;
  return augur_fail(err, AUGUR_E_STATE, "%s: model read not implemented yet", name);
}
