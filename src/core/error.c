/* augur — error values: augur_fail and status names. */
#include <stdarg.h>
#include <stdio.h>

#include "augur/error.h"

int augur_fail(augur_error *err, int code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->code = code;
  }
  return code;
}

const char *augur_status_name(int code) {
  switch (code) {
  case AUGUR_OK:
    return "ok";
  case AUGUR_E_IO:
    return "io";
  case AUGUR_E_FORMAT:
    return "format";
  case AUGUR_E_VERSION:
    return "version";
  case AUGUR_E_CHECKSUM:
    return "checksum";
  case AUGUR_E_TRUNCATED:
    return "truncated";
  case AUGUR_E_MISSING:
    return "missing";
  case AUGUR_E_NOMEM:
    return "nomem";
  case AUGUR_E_ARG:
    return "arg";
  case AUGUR_E_STATE:
    return "state";
  case AUGUR_E_CODEC:
    return "codec";
  default:
    return "unknown";
  }
}
