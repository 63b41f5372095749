/* augur — outside text as valid UTF-8 (include/augur/text.h). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "augur/text.h"

/* At S: the length (1..4) of a valid UTF-8 sequence (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF) as a positive number, or as a
 * negative one the length of the maximal subpart that is not (the longest
 * start of a valid sequence, at least 1 byte), which becomes one U+FFFD: the
 * "best practice" of Unicode 3.9 that WHATWG and Python's errors="replace"
 * follow, so augur's JSON and theirs agree. */
static int utf8_len(const unsigned char *s) {
  unsigned lo = 0x80, hi = 0xbf;
  int len;
  if (*s < 0x80) return 1;
  if (*s >= 0xc2 && *s <= 0xdf) {
    len = 2;
  } else if (*s >= 0xe0 && *s <= 0xef) {
    len = 3;
    if (*s == 0xe0) lo = 0xa0;
    if (*s == 0xed) hi = 0x9f;
  } else if (*s >= 0xf0 && *s <= 0xf4) {
    len = 4;
    if (*s == 0xf0) lo = 0x90;
    if (*s == 0xf4) hi = 0x8f;
  } else {
    return -1;
  }
  for (int i = 1; i < len; i++) {
    if (s[i] < lo || s[i] > hi) return -i; /* also stops at the NUL */
    lo = 0x80;
    hi = 0xbf;
  }
  return len;
}

size_t augur_utf8_repair(const char *in, char *out, size_t n) {
  assert(in && out && n > 0);
  static const char fffd[] = "\xef\xbf\xbd";
  const unsigned char *s = (const unsigned char *)in;
  size_t o = 0, bad = 0;
  while (*s) {
    int len = utf8_len(s);
    const char *src = len > 0 ? (const char *)s : fffd;
    size_t w = len > 0 ? (size_t)len : 3;
    if (o + w >= n) break;
    memcpy(out + o, src, w);
    o += w;
    s += len > 0 ? len : -len;
    bad += len < 0;
  }
  out[o] = 0;
  return bad;
}

json_t *augur_json_text(const char *s) {
  if (!s) return json_null();
  size_t len = strlen(s);
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  while (i < len) {
    int l = utf8_len(p + i);
    if (l < 0) break;
    i += (size_t)l;
  }
  if (i == len) return json_stringn(s, len);
  /* At worst each byte becomes a 3-byte U+FFFD. */
  size_t n = 3 * len + 1;
  char *t = malloc(n);
  if (!t) return NULL;
  augur_utf8_repair(s, t, n);
  json_t *v = json_string(t);
  free(t);
  return v;
}

const char *augur_text_safe(const char *s, char *out, size_t n) {
  assert(s && out && n > 0);
  static const char hex[] = "0123456789abcdef";
  const unsigned char *p = (const unsigned char *)s;
  size_t o = 0;
  while (*p) {
    int len = utf8_len(p);
    size_t k = len > 0 ? (size_t)len : 0;
    /* U+0080..U+009F (C2 80..C2 9F): C1 controls, CSI among them. */
    if (k == 2 && p[0] == 0xc2 && p[1] < 0xa0) k = 0;
    if (k == 1 && (*p < 0x20 || *p == 0x7f || *p == '\\')) k = 0;
    if (k) {
      if (o + k >= n) break;
      memcpy(out + o, p, k);
      o += k;
      p += k;
    } else {
      if (o + 4 >= n) break;
      out[o++] = '\\';
      if (*p == '\\') {
        out[o++] = '\\';
      } else {
        out[o++] = 'x';
        out[o++] = hex[*p >> 4];
        out[o++] = hex[*p & 15];
      }
      p++;
    }
  }
  out[o] = 0;
  return out;
}
