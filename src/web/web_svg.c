/* augur web — charts as inline SVG, drawn on the server: the page needs no
 * script, and a bar or point is a plain link, so drill-down works in any
 * browser (and in headless Chromium's --dump-dom). Bars and lines get one
 * small chart per series (series have different units); the scatter plots
 * the first series against the second. */
#include <math.h>
#include <stdio.h>

#include "web.h"

#define W       760
#define LEFT    230 /* room for the row labels */
#define BARW    420
#define ROWH    18
#define MAXDRAW 500 /* rows drawn; the table has them all */

static const char *const colours[] = {"#3b6ea8", "#c0504d", "#4f9a55",
                                      "#8064a2", "#d08a2c", "#2c9aa0"};

static void range(const double *v, int n, double *lo, double *hi) {
  *lo = INFINITY;
  *hi = -INFINITY;
  for (int i = 0; i < n; i++) {
    if (isnan(v[i]) || isinf(v[i])) continue;
    if (v[i] < *lo) *lo = v[i];
    if (v[i] > *hi) *hi = v[i];
  }
  if (*lo > *hi) *lo = *hi = 0;
}

static void open_link(web_buf *w, const char *const *links, int i) {
  if (links && links[i]) wb_printf(w, "<a class=\"drill\" href=\"%s\">", links[i]);
}

static void close_link(web_buf *w, const char *const *links, int i) {
  if (links && links[i]) wb_raw(w, "</a>");
}

static void tip(web_buf *w, const char *label, double v) {
  wb_raw(w, "<title>");
  wb_html(w, label);
  wb_raw(w, ": ");
  wb_num(w, v);
  wb_raw(w, "</title>");
}

static void bars(web_buf *w, int n, const char *const *labels, const char *const *links,
                 const web_series *s, const char *colour) {
  double lo, hi;
  range(s->v, n, &lo, &hi);
  double top = hi > 0 ? hi : 1;
  int h = 28 + n * ROWH;
  wb_printf(w,
            "<svg class=\"chart bar\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">",
            W, h, W, h);
  wb_raw(w, "<text x=\"4\" y=\"16\" class=\"ct\">");
  wb_html(w, s->title);
  wb_raw(w, "</text>");
  for (int i = 0; i < n; i++) {
    int y = 24 + i * ROWH;
    double v = s->v[i];
    int bw = isnan(v) || v <= 0 ? 0 : (int)(v / top * BARW + 0.5);
    open_link(w, links, i);
    wb_printf(w, "<g><text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"cl\">", LEFT - 6, y + 13);
    wb_html(w, labels[i]);
    wb_printf(w, "</text><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">", LEFT,
              y + 2, bw > 0 ? bw : 1, ROWH - 4, colour);
    tip(w, labels[i], v);
    wb_printf(w, "</rect><text x=\"%d\" y=\"%d\" class=\"cv\">", LEFT + bw + 4, y + 13);
    wb_num(w, v);
    wb_raw(w, "</text></g>");
    close_link(w, links, i);
  }
  wb_raw(w, "</svg>\n");
}

static double scale(double v, double lo, double hi, double a, double b) {
  if (hi <= lo) return (a + b) / 2;
  return a + (v - lo) / (hi - lo) * (b - a);
}

static void axes(web_buf *w, int x0, int y0, int x1, int y1, double ylo, double yhi) {
  wb_printf(w, "<path d=\"M%d %dV%dH%d\" stroke=\"#888\" fill=\"none\"/>", x0, y0, y1, x1);
  wb_printf(w, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"cv\">", x0 - 4, y1);
  wb_num(w, ylo);
  wb_printf(w, "</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"cv\">", x0 - 4, y0 + 10);
  wb_num(w, yhi);
  wb_raw(w, "</text>");
}

static void line(web_buf *w, int n, const char *const *labels, const char *const *links,
                 const web_series *s, const char *colour) {
  const int x0 = 80, x1 = W - 20, y0 = 28, y1 = 230;
  double lo, hi;
  range(s->v, n, &lo, &hi);
  if (lo > 0) lo = 0; /* lines from zero: a flat line means equal, not noise */
  wb_printf(w,
            "<svg class=\"chart line\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"260\" viewBox=\"0 0 %d 260\" role=\"img\">",
            W, W);
  wb_raw(w, "<text x=\"4\" y=\"16\" class=\"ct\">");
  wb_html(w, s->title);
  wb_raw(w, "</text>");
  axes(w, x0, y0, x1, y1, lo, hi);
  wb_printf(w, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
  for (int i = 0; i < n; i++)
    if (!isnan(s->v[i]))
      wb_printf(w, "%.1f,%.1f ", scale(i, 0, n - 1, x0 + 8, x1 - 8),
                scale(s->v[i], lo, hi, y1, y0));
  wb_raw(w, "\"/>");
  for (int i = 0; i < n; i++) {
    if (isnan(s->v[i])) continue;
    open_link(w, links, i);
    wb_printf(w, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">",
              scale(i, 0, n - 1, x0 + 8, x1 - 8), scale(s->v[i], lo, hi, y1, y0), colour);
    tip(w, labels[i], s->v[i]);
    wb_raw(w, "</circle>");
    close_link(w, links, i);
  }
  if (n > 0) {
    wb_printf(w, "<text x=\"%d\" y=\"%d\" class=\"cl\">", x0, y1 + 16);
    wb_html(w, labels[0]);
    wb_printf(w, "</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"cl\">", x1, y1 + 16);
    wb_html(w, labels[n - 1]);
    wb_raw(w, "</text>");
  }
  wb_raw(w, "</svg>\n");
}

static void scatter(web_buf *w, int n, const char *const *labels, const char *const *links,
                    int nseries, const web_series *s) {
  const int x0 = 80, x1 = W - 20, y0 = 28, y1 = 330;
  double idx[MAXDRAW];
  for (int i = 0; i < n; i++)
    idx[i] = i;
  const double *xv = nseries >= 2 ? s[0].v : idx;
  const double *yv = nseries >= 2 ? s[1].v : s[0].v;
  double xlo, xhi, ylo, yhi;
  range(xv, n, &xlo, &xhi);
  range(yv, n, &ylo, &yhi);
  wb_printf(w,
            "<svg class=\"chart scatter\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"370\" viewBox=\"0 0 %d 370\" role=\"img\">",
            W, W);
  wb_raw(w, "<text x=\"4\" y=\"16\" class=\"ct\">");
  wb_html(w, nseries >= 2 ? s[1].title : s[0].title);
  wb_raw(w, " against ");
  wb_html(w, nseries >= 2 ? s[0].title : "row");
  wb_raw(w, "</text>");
  axes(w, x0, y0, x1, y1, ylo, yhi);
  wb_printf(w, "<text x=\"%d\" y=\"%d\" class=\"cv\">", x0, y1 + 16);
  wb_num(w, xlo);
  wb_printf(w, "</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"cv\">", x1, y1 + 16);
  wb_num(w, xhi);
  wb_raw(w, "</text>");
  for (int i = 0; i < n; i++) {
    if (isnan(xv[i]) || isnan(yv[i])) continue;
    open_link(w, links, i);
    wb_printf(w, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" fill-opacity=\"0.7\">",
              scale(xv[i], xlo, xhi, x0 + 8, x1 - 8), scale(yv[i], ylo, yhi, y1 - 6, y0 + 6),
              colours[0]);
    wb_raw(w, "<title>");
    wb_html(w, labels[i]);
    wb_raw(w, ": ");
    wb_num(w, xv[i]);
    wb_raw(w, ", ");
    wb_num(w, yv[i]);
    wb_raw(w, "</title></circle>");
    close_link(w, links, i);
  }
  wb_raw(w, "</svg>\n");
}

void web_svg(web_buf *w, int view, int n, const char *const *labels, const char *const *links,
             int nseries, const web_series *series) {
  if (n > MAXDRAW) n = MAXDRAW;
  if (n <= 0 || nseries <= 0) return;
  wb_raw(w, "<div class=\"charts\">");
  if (view == WEB_SCATTER) {
    scatter(w, n, labels, links, nseries, series);
  } else {
    for (int s = 0; s < nseries; s++) {
      const char *c = colours[s % (sizeof colours / sizeof colours[0])];
      if (view == WEB_BAR)
        bars(w, n, labels, links, &series[s], c);
      else
        line(w, n, labels, links, &series[s], c);
    }
  }
  wb_raw(w, "</div>\n");
}
