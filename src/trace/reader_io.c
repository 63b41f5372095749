/* augur — MPI-IO file names from the definitions blocks (AUG_DEF_FILE,
 * docs/trace-format.md "Definitions blocks"). Every rank that opened a file
 * defines its name; the first definition of an id is kept (another name
 * under the same id would be an XXH3-64 collision of two names). */
#include <stdlib.h>

#include "format.h"
#include "grow.h"
#include "reader_int.h"

int aug_merge_file(augur_trace *t, const uint8_t *body, size_t len, const char **why) {
  augur_file_def d;
  if (aug_def_get_file(body, len, &d, why)) return -1;
  uint32_t ix;
  if (aug_u64map_get(&t->file_ix, d.id, &ix)) { /* known */
    free(d.name);
    return 0;
  }
  if (aug_grow((void **)&t->files, &t->capfiles, t->nfiles + 1, sizeof *t->files) ||
      aug_u64map_put(&t->file_ix, d.id, (uint32_t)t->nfiles)) {
    free(d.name);
    *why = "out of memory";
    return -1;
  }
  t->files[t->nfiles++] = d;
  return 0;
}

void aug_files_free(augur_trace *t) {
  for (size_t i = 0; i < t->nfiles; i++)
    free(t->files[i].name);
  free(t->files);
  aug_u64map_free(&t->file_ix);
}

const char *augur_trace_file_name(const augur_trace *t, uint64_t id) {
  uint32_t ix;
  if (!t || !aug_u64map_get(&t->file_ix, id, &ix)) return NULL;
  return t->files[ix].name;
}
