/* augur web — a growing output buffer. Every byte a user or the database
 * supplies goes through wb_html or wb_url: the page never holds raw input. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web.h"

static int grow(web_buf *w, size_t more) {
  if (w->oom) return -1;
  if (w->len + more + 1 <= w->cap) return 0;
  size_t cap = w->cap ? w->cap : 4096;
  while (cap < w->len + more + 1)
    cap *= 2;
  char *b = realloc(w->b, cap);
  if (!b) {
    w->oom = 1;
    return -1;
  }
  w->b = b;
  w->cap = cap;
  return 0;
}

void wb_free(web_buf *w) {
  free(w->b);
  *w = (web_buf){0};
}

static void put(web_buf *w, const char *s, size_t n) {
  if (grow(w, n) < 0) return;
  memcpy(w->b + w->len, s, n);
  w->len += n;
  w->b[w->len] = '\0';
}

void wb_raw(web_buf *w, const char *s) {
  put(w, s, strlen(s));
}

void wb_printf(web_buf *w, const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    put(w, small, (size_t)n);
    return;
  }
  if (grow(w, (size_t)n) < 0) return;
  va_start(ap, fmt);
  vsnprintf(w->b + w->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  w->len += (size_t)n;
}

void wb_html(web_buf *w, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '&':
      wb_raw(w, "&amp;");
      break;
    case '<':
      wb_raw(w, "&lt;");
      break;
    case '>':
      wb_raw(w, "&gt;");
      break;
    case '"':
      wb_raw(w, "&quot;");
      break;
    case '\'':
      wb_raw(w, "&#39;");
      break;
    default:
      put(w, s, 1);
    }
  }
}

void wb_url(web_buf *w, const char *s) {
  static const char hex[] = "0123456789ABCDEF";
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || c == '.' || c == '~') {
      put(w, s, 1);
    } else {
      char e[3] = {'%', hex[c >> 4], hex[c & 15]};
      put(w, e, 3);
    }
  }
}

void wb_num(web_buf *w, double v) {
  if (isnan(v) || isinf(v))
    wb_raw(w, "&#8211;");
  else
    wb_printf(w, "%.6g", v);
}
