/* augur — trace.json writer. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "augur/text.h"
#include "augur/writer.h"
#include "format.h"

int augur_meta_write(const char *dir, const augur_trace_meta *m, augur_error *err) {
  if (!dir || !m) return augur_fail(err, AUGUR_E_ARG, "augur_meta_write: NULL argument");
  if (aug_mkdir_p(dir) != 0)
    return augur_fail(err, AUGUR_E_IO, "%s: cannot create directory: %s", dir, strerror(errno));
  json_t *o = json_object();
  json_t *argv = json_array();
  json_t *ver = json_array();
  if (!o || !argv || !ver) goto nomem;
  json_array_append_new(ver, json_integer(AUG_FORMAT_MAJOR));
  json_array_append_new(ver, json_integer(AUG_FORMAT_MINOR));
  for (int i = 0; i < m->argc && m->argv; i++)
    json_array_append_new(argv, augur_json_text(m->argv[i] ? m->argv[i] : ""));
  json_object_set_new(o, "format", json_string("augur-trace"));
  json_object_set_new(o, "version", ver);
  ver = NULL;
  json_object_set_new(o, "nranks", json_integer(m->nranks));
  json_object_set_new(o, "argv", argv);
  argv = NULL;
  json_object_set_new(o, "mpi_library", augur_json_text(m->mpi_library));
  json_object_set_new(o, "mpi_version", augur_json_text(m->mpi_version));
  json_object_set_new(o, "recorder", augur_json_text(m->recorder));
  /* jansson integers are signed 64-bit: wall-clock ns fit until 2262. */
  json_object_set_new(o, "start_unix_ns", json_integer((json_int_t)m->start_unix_ns));
  json_object_set_new(o, "payload_hash", json_boolean(m->payload_hash));
  json_object_set_new(o, "complete", json_boolean(m->complete));
  json_object_set_new(o, "counters_requested", augur_json_text(m->counters_requested));
  if (m->openmp.mode) {
    const augur_omp_meta *om = &m->openmp;
    json_t *omp = json_object(), *cb = json_object();
    if (!omp || !cb) {
      json_decref(omp);
      json_decref(cb);
      goto nomem;
    }
    json_object_set_new(omp, "mode", augur_json_text(om->mode));
    json_object_set_new(omp, "runtime", augur_json_text(om->runtime ? om->runtime : ""));
    for (size_t i = 0; i < om->ncallbacks; i++)
      if (om->callbacks[i].name)
        json_object_set_new(cb, om->callbacks[i].name, json_integer(om->callbacks[i].result));
    json_object_set_new(omp, "callbacks", cb);
    json_object_set_new(omp, "note", augur_json_text(om->note ? om->note : ""));
    json_object_set_new(omp, "dropped_before_init",
                        json_integer((json_int_t)om->dropped_before_init));
    json_object_set_new(o, "openmp", omp);
  }

  char tmp[4096], final[4096];
  int n1 = snprintf(tmp, sizeof tmp, "%s/.trace.json.%ld.tmp", dir, (long)getpid());
  int n2 = snprintf(final, sizeof final, "%s/trace.json", dir);
  if (n1 < 0 || n2 < 0 || (size_t)n1 >= sizeof tmp || (size_t)n2 >= sizeof final) {
    json_decref(o);
    return augur_fail(err, AUGUR_E_ARG, "%s: path too long", dir);
  }
  /* Written to a temp file and renamed, so readers never see half a file. */
  if (json_dump_file(o, tmp, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
    int e = errno;
    json_decref(o);
    unlink(tmp);
    return augur_fail(err, AUGUR_E_IO, "%s: cannot write: %s", tmp, strerror(e));
  }
  json_decref(o);
  if (rename(tmp, final) != 0) {
    int e = errno;
    unlink(tmp);
    return augur_fail(err, AUGUR_E_IO, "%s: cannot rename to trace.json: %s", tmp, strerror(e));
  }
  return AUGUR_OK;
nomem:
  json_decref(o);
  json_decref(argv);
  json_decref(ver);
  return augur_fail(err, AUGUR_E_NOMEM, "augur_meta_write: out of memory");
}
