/* augur — text from outside (command lines, program paths, host names, file
 * names, job ids) made safe for UTF-8 consumers: JSON, PostgreSQL.
 *
 * Such text is bytes: Linux allows any byte but NUL in argv and paths.
 * jansson's json_string() returns NULL for invalid UTF-8, and a NULL given to
 * json_object_set_new / json_array_append_new silently drops the key or the
 * element, so every JSON string made from outside text goes through
 * augur_json_text. Bytes that are not valid UTF-8 (stray continuation bytes,
 * truncated or overlong sequences, surrogates, code points past U+10FFFF)
 * become U+FFFD REPLACEMENT CHARACTER, one per maximal invalid subpart, exactly
 * as WHATWG decoders and Python's bytes.decode(errors="replace") do. The replacement does not
 * round-trip (the bytes are gone) but is never mistaken for text the program
 * had: an escape such as "\xff" would be. Text for a log or a terminal goes
 * through augur_text_safe instead, which escapes what a terminal must not get. */
#ifndef AUGUR_TEXT_H
#define AUGUR_TEXT_H

#include <jansson.h>
#include <stddef.h>

#include "augur/api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies IN (NUL-terminated) into OUT (N > 0 bytes) with invalid bytes
 * replaced by U+FFFD, cut at a character boundary to fit N - 1 bytes; OUT is
 * always NUL-terminated. Returns the number of replacements. */
AUGUR_API size_t augur_utf8_repair(const char *in, char *out, size_t n);

/* A JSON string of S with invalid bytes replaced (augur_utf8_repair); S NULL:
 * JSON null. Returns NULL only when out of memory. */
AUGUR_API json_t *augur_json_text(const char *s);

/* S made safe to print in a log line or on a terminal (job ids, user, host
 * and program names, command lines: any user sets them). C0 control
 * characters, DEL, the C1 controls U+0080..U+009F, bytes that are not valid
 * UTF-8 and the backslash are written as \xHH (\\ for the backslash); other
 * text, valid UTF-8 included, is kept. The result goes to OUT (N > 0 bytes,
 * always terminated, cut before an escape or character that does not fit;
 * 4 * strlen(S) + 1 bytes always suffice) and OUT is returned. */
AUGUR_API const char *augur_text_safe(const char *s, char *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
