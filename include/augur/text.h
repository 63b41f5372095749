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
 * had: an escape such as "\xff" would be. Text output keeps the raw bytes. */
#ifndef AUGUR_TEXT_H
#define AUGUR_TEXT_H

#include <jansson.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies IN (NUL-terminated) into OUT (N > 0 bytes) with invalid bytes
 * replaced by U+FFFD, cut at a character boundary to fit N - 1 bytes; OUT is
 * always NUL-terminated. Returns the number of replacements. */
size_t augur_utf8_repair(const char *in, char *out, size_t n);

/* A JSON string of S with invalid bytes replaced (augur_utf8_repair); S NULL:
 * JSON null. Returns NULL only when out of memory. */
json_t *augur_json_text(const char *s);

#ifdef __cplusplus
}
#endif
#endif
