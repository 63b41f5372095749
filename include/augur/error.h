/* augur — error values. Every fallible function returns an int status
 * (AUGUR_OK or a negative AUGUR_E_*) and fills an augur_error whose message
 * names the file, the rank, the byte offset and what was expected. */
#ifndef AUGUR_ERROR_H
#define AUGUR_ERROR_H

#include <stddef.h>

#include "augur/api.h"

#ifdef __cplusplus
extern "C" {
#endif

enum augur_status {
  AUGUR_OK = 0,
  AUGUR_E_IO = -1,        /* open/read/write/mkdir failed (errno text in msg) */
  AUGUR_E_FORMAT = -2,    /* bytes are not what the format says (bad magic, bad field) */
  AUGUR_E_VERSION = -3,   /* a format version this reader does not know */
  AUGUR_E_CHECKSUM = -4,  /* a block's checksum does not match its bytes */
  AUGUR_E_TRUNCATED = -5, /* file ends inside a header or block */
  AUGUR_E_MISSING = -6,   /* a file the trace needs does not exist */
  AUGUR_E_NOMEM = -7,
  AUGUR_E_ARG = -8,   /* caller passed something invalid (rank out of range, ...) */
  AUGUR_E_STATE = -9, /* call not valid now (writer closed, ...) */
  AUGUR_E_CODEC = -10 /* zstd refused to (de)compress */
};

#define AUGUR_ERROR_MSG_MAX 512

typedef struct augur_error {
  int code;                      /* enum augur_status */
  char msg[AUGUR_ERROR_MSG_MAX]; /* one line, no trailing newline */
} augur_error;

/* Sets err (if non-NULL) and returns code, so callers can `return augur_fail(...)`. */
AUGUR_API int augur_fail(augur_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Short name of a status code, e.g. "checksum". */
AUGUR_API const char *augur_status_name(int code);

#ifdef __cplusplus
}
#endif
#endif
