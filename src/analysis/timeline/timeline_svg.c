/* augur timeline — SVG and HTML writers.
 *
 * Output size is bounded by ranks x width: exact intervals are drawn only
 * while a rank has at most two per pixel column, otherwise one rect per run
 * of columns with the same dominant state; messages are capped by the
 * builder. Every element carries a <title> so a browser shows it on hover. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "augur/timeline.h"
#include "timeline_int.h"

#define LEFT     TL_SVG_LEFT /* room for rank labels */
#define RIGHT    TL_SVG_RIGHT
#define TOP      52
#define LEGEND_W 150

/* Small math helpers: augur_analysis does not link libm. */
static double dabs(double v) {
  return v < 0 ? -v : v;
}
static double dfloor(double v) {
  double i = (double)(long long)v;
  return i > v ? i - 1 : i;
}
static double dceil(double v) {
  double i = (double)(long long)v;
  return i < v ? i + 1 : i;
}

typedef struct layout {
  double x0, w; /* plot area */
  double row_h, bar_h;
  double y_axis, y_legend, height, width;
  uint32_t nr;
  int legend_cols, legend_rows;
} layout;

void tl_xml_escape(FILE *f, const char *s) {
  for (; s && *s; s++)
    switch (*s) {
    case '<':
      fputs("&lt;", f);
      break;
    case '>':
      fputs("&gt;", f);
      break;
    case '&':
      fputs("&amp;", f);
      break;
    case '"':
      fputs("&quot;", f);
      break;
    case '\'':
      fputs("&#39;", f);
      break;
    default: /* control characters are not valid in XML or HTML text: dropped */
      if ((unsigned char)*s >= 0x20 || *s == '\t') fputc(*s, f);
    }
}

/* ns -> "12.5 ms" with a unit that suits `scale` (the tick step or the value). */
static void fmt_dur(char *b, size_t n, double ns, double scale) {
  static const struct {
    double div;
    const char *unit;
  } u[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "\xc2\xb5s"}, {1, "ns"}};
  size_t i = 0;
  while (i < 3 && dabs(scale) < u[i].div)
    i++;
  double v = ns / u[i].div;
  /* enough digits to tell ticks apart */
  double st = scale / u[i].div;
  int prec = st >= 1 || st <= 0 ? 0 : st >= 0.1 ? 1 : st >= 0.01 ? 2 : 3;
  if (prec == 0 && dabs(v - dfloor(v + 0.5)) > 1e-9) prec = dabs(v) < 10 ? 2 : 1;
  snprintf(b, n, "%.*f %s", prec, v, u[i].unit);
}

static double nice_step(double span, int want) {
  double raw = span / want, p = 1;
  if (raw <= 0) return 1;
  while (p * 10 <= raw)
    p *= 10;
  while (p > raw)
    p /= 10;
  double m = raw / p, step = (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  return step < 1 ? 1 : step; /* times are whole ns */
}

/* The states drawn: MPI classes per rank, or thread states per thread. */
static int nstates(const augur_timeline *tl) {
  return tl->hybrid ? AUGUR_TS_COUNT : AUGUR_TL_NSTATES;
}
static const char *state_label(const augur_timeline *tl, int k) {
  return tl->hybrid ? augur_tl_tstate_label(k) : augur_tl_state_name(k);
}
static const char *state_color(const augur_timeline *tl, int k) {
  return tl->hybrid ? augur_tl_tstate_color(k) : augur_tl_state_color(k);
}

/* states, message, mark, and the band when there are bands */
static int legend_entries(const augur_timeline *tl) {
  return nstates(tl) + 2 + (tl->nbands ? 1 : 0);
}

/* Rows of rank r: 1, or (hybrid) one per thread. */
static uint32_t rank_rows(const augur_timeline *tl, uint32_t rank) {
  const tl_rank *r = &tl->ranks[tl_row_of(tl, rank)];
  return tl->hybrid && r->nthr ? (uint32_t)r->nthr : 1;
}

/* Rows above rank r's first row. */
static uint32_t rows_before(const augur_timeline *tl, uint32_t rank) {
  if (!tl->hybrid) return tl_row_of(tl, rank); /* a row per rank, or per block of ranks */
  uint32_t n = 0;
  for (uint32_t q = tl->rank_lo; q < rank; q++)
    n += rank_rows(tl, q);
  return n;
}

/* The row of (rank, thread): its thread row when there is one. */
static uint32_t row_index(const augur_timeline *tl, uint32_t rank, uint32_t thread) {
  uint32_t base = rows_before(tl, rank);
  const tl_rank *r = &tl->ranks[tl_row_of(tl, rank)];
  if (tl->hybrid)
    for (size_t i = 0; i < r->nthr; i++)
      if (r->thr[i].thread == thread) return base + (uint32_t)i;
  return base;
}

static layout make_layout(const augur_timeline *tl) {
  layout L;
  L.nr = rows_before(tl, tl->rank_hi) + rank_rows(tl, tl->rank_hi);
  L.x0 = LEFT;
  L.w = tl->width;
  L.row_h = dfloor(520.0 / L.nr);
  if (L.row_h > 26) L.row_h = 26;
  if (L.row_h < 3) L.row_h = 3;
  L.bar_h = L.row_h >= 8 ? L.row_h - 3 : L.row_h;
  L.width = LEFT + tl->width + RIGHT;
  L.y_axis = TOP + L.nr * L.row_h + 4;
  L.y_legend = L.y_axis + 34;
  L.legend_cols = (int)((L.width - 20) / LEGEND_W);
  if (L.legend_cols < 1) L.legend_cols = 1;
  int entries = legend_entries(tl);
  L.legend_rows = (entries + L.legend_cols - 1) / L.legend_cols;
  L.height = L.y_legend + L.legend_rows * 18 + (tl->hybrid ? 3 : 2) * 16 + 8;
  return L;
}

static double xpos(const augur_timeline *tl, const layout *L, uint64_t t) {
  double x = t <= tl->from ? 0 : (double)(t - tl->from) / tl->col_ns;
  if (x > tl->width) x = tl->width;
  return L->x0 + x;
}

static double row_y(const augur_timeline *tl, const layout *L, uint32_t rank) {
  return TOP + rows_before(tl, rank) * L->row_h;
}

static void draw_rect(FILE *f, const char *cls, double x, double y, double w, double h, int state,
                      const char *color, const char *title) {
  fprintf(f,
          "<rect class=\"%s %s-%d\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
          "fill=\"%s\"><title>",
          cls, cls, state, x, y, w, h, color);
  tl_xml_escape(f, title);
  fputs("</title></rect>\n", f);
}

/* The states of one row at Y: exact intervals, or one rect per run of
 * columns with the same dominant state. WHO starts every hover text. */
static void draw_states(FILE *f, const augur_timeline *tl, const layout *L, const tl_row *r,
                        double y, const char *who) {
  int ns = nstates(tl);
  const char *cls = tl->hybrid ? "ts" : "st";
  char title[256], d[32];
  if (!r->overflow) {
    for (size_t i = 0; i < r->niv; i++) {
      const augur_tl_interval *iv = &r->iv[i];
      double x = xpos(tl, L, iv->t0), w = xpos(tl, L, iv->t1) - x;
      fmt_dur(d, sizeof d, (double)(iv->t1 - iv->t0), (double)(iv->t1 - iv->t0));
      if (tl->hybrid)
        snprintf(title, sizeof title, "%s: %s, %s", who, augur_tl_tstate_label(iv->state), d);
      else if (iv->type == AUGUR_EV_NONE)
        snprintf(title, sizeof title, "%s: compute, %s", who, d);
      else
        snprintf(title, sizeof title, "%s: %s (%s), %s", who, augur_event_name(iv->type),
                 augur_tl_state_name(iv->state), d);
      draw_rect(f, cls, x, y, w < 0.05 ? 0.05 : w, L->bar_h, iv->state, state_color(tl, iv->state),
                title);
    }
    return;
  }
  uint32_t c = 0;
  while (c < tl->width) {
    const float *v = &r->cols[(size_t)c * ns];
    int dom = -1;
    float best = 0.02f;
    for (int k = 0; k < ns; k++) {
      if (v[k] > best) best = v[k], dom = k;
    }
    uint32_t e = c + 1;
    double acc[AUGUR_TS_COUNT] = {0};
    for (int k = 0; k < ns; k++)
      acc[k] = v[k];
    while (e < tl->width) {
      const float *u = &r->cols[(size_t)e * ns];
      int d2 = -1;
      float b2 = 0.02f;
      for (int k = 0; k < ns; k++)
        if (u[k] > b2) b2 = u[k], d2 = k;
      if (d2 != dom) break;
      for (int k = 0; k < ns; k++)
        acc[k] += u[k];
      e++;
    }
    if (dom >= 0) {
      int len = snprintf(title, sizeof title, "%s:", who);
      for (int k = 0; k < ns && len < (int)sizeof title - 40; k++)
        if (acc[k] / (e - c) >= 0.005)
          len += snprintf(title + len, sizeof title - len, " %s %.0f%%", state_label(tl, k),
                          100.0 * acc[k] / (e - c));
      draw_rect(f, cls, L->x0 + c, y, (double)(e - c), L->bar_h, dom, state_color(tl, dom), title);
    }
    c = e;
  }
}

/* Row I: a rank, or (tl->group > 1) a block of ranks. */
static void draw_row(FILE *f, const augur_timeline *tl, const layout *L, uint32_t i) {
  const tl_rank *r = &tl->ranks[i];
  uint32_t rank = tl_row_first(tl, i), last = tl_row_last(tl, i);
  double y = row_y(tl, L, rank);
  char who[32]; /* hover text; a block's label is its range alone (the room is for "rank N") */
  const char *label = who;
  if (tl->group > 1) {
    snprintf(who, sizeof who, "ranks %u-%u", rank, last);
    label = who + strlen("ranks ");
    fprintf(f, "<g class=\"row\" id=\"ranks-%u-%u\" data-rank=\"%u\" data-last=\"%u\">\n", rank,
            last, rank, last);
  } else {
    snprintf(who, sizeof who, "rank %u", rank);
    fprintf(f, "<g class=\"row\" id=\"rank-%u\" data-rank=\"%u\">\n", rank, rank);
  }
  if (L->row_h >= 6)
    fprintf(f, "<text class=\"rank-label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
            LEFT - 6, y + L->bar_h / 2 + 4, label);
  fprintf(f,
          "<rect class=\"row-bg\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
          "fill=\"#f2f2f2\"/>\n",
          L->x0, y, L->w, L->bar_h);
  draw_states(f, tl, L, &r->row, y, who);
  fputs("</g>\n", f);
}

/* Hybrid: a group per rank, a row per thread ("rank R t0", then "t1", ...),
 * a line above every rank but the first. */
static void draw_thread_rows(FILE *f, const augur_timeline *tl, const layout *L, uint32_t rank) {
  const tl_rank *r = &tl->ranks[tl_row_of(tl, rank)];
  double y0 = row_y(tl, L, rank);
  fprintf(f, "<g class=\"rank\" id=\"rank-%u\" data-rank=\"%u\">\n", rank, rank);
  if (rank > tl->rank_lo)
    fprintf(f,
            "<line class=\"rank-sep\" x1=\"4\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#888\" stroke-width=\"0.6\"/>\n",
            y0 - 1, L->x0 + L->w, y0 - 1);
  if (!r->nthr && L->row_h >= 6) /* no record in the window's rank: an empty row */
    fprintf(f,
            "<text class=\"rank-label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">rank %u</text>\n",
            LEFT - 6, y0 + L->bar_h / 2 + 4, rank);
  for (size_t i = 0; i < r->nthr; i++) {
    const tl_thread *th = &r->thr[i];
    double y = y0 + i * L->row_h;
    fprintf(f,
            "<g class=\"row thread-row\" id=\"rank-%u-thread-%u\" data-rank=\"%u\" "
            "data-thread=\"%u\"%s>\n",
            rank, th->thread, rank, th->thread, th->initial ? " data-initial=\"1\"" : "");
    if (L->row_h >= 6) {
      if (i == 0)
        fprintf(f,
                "<text class=\"rank-label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">rank %u "
                "t%u</text>\n",
                LEFT - 6, y + L->bar_h / 2 + 4, rank, th->thread);
      else
        fprintf(f,
                "<text class=\"thread-label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">t%u</text>\n",
                LEFT - 6, y + L->bar_h / 2 + 4, th->thread);
    }
    fprintf(f,
            "<rect class=\"row-bg\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
            "fill=\"#f2f2f2\"/>\n",
            L->x0, y, L->w, L->bar_h);
    char who[48];
    snprintf(who, sizeof who, "rank %u thread %u", rank, th->thread);
    draw_states(f, tl, L, &th->row, y, who);
    fputs("</g>\n", f);
  }
  fputs("</g>\n", f);
}

static void draw_axis(FILE *f, const augur_timeline *tl, const layout *L) {
  double span = (double)(tl->to - tl->from);
  int want = tl->width >= 800 ? 10 : tl->width >= 400 ? 6 : 3;
  double step = nice_step(span, want);
  fprintf(f, "<g id=\"axis\">\n");
  fprintf(f,
          "<line class=\"axis-line\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
          "stroke=\"#333\"/>\n",
          L->x0, L->y_axis, L->x0 + L->w, L->y_axis);
  char b[32];
  /* Ticks by index, not by repeated addition: a tiny step far from 0 would
   * not advance a double. The count is bounded for the same reason. */
  double first = dceil((double)tl->from / step);
  for (int k = 0; k < 100; k++) {
    double v = (first + k) * step;
    if (v > (double)tl->to + step * 1e-6) break;
    double x = L->x0 + (v - (double)tl->from) / tl->col_ns;
    fmt_dur(b, sizeof b, v, step);
    fprintf(f,
            "<g class=\"tick\"><line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
            "stroke=\"#333\"/><line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%.1f\" "
            "stroke=\"#000\" stroke-opacity=\"0.08\"/><text x=\"%.2f\" y=\"%.1f\" "
            "text-anchor=\"middle\">%s</text></g>\n",
            x, L->y_axis, x, L->y_axis + 5, x, TOP, x, L->y_axis, x, L->y_axis + 17, b);
  }
  fprintf(f, "</g>\n");
}

static void draw_messages(FILE *f, const augur_timeline *tl, const layout *L) {
  /* A sample is a texture, not individual messages: draw it lighter. */
  fprintf(f,
          "<g id=\"messages\" clip-path=\"url(#plot-clip)\" stroke=\"#222\" "
          "stroke-width=\"0.8\" stroke-opacity=\"%s\" marker-end=\"url(#arrowhead)\">\n",
          tl->nmsg < tl->messages ? "0.35" : "1");
  char a[32], b[32];
  for (size_t i = 0; i < tl->nmsg; i++) {
    const augur_tl_message *m = &tl->msg[i];
    double x1 = L->x0 + ((double)m->t_send - (double)tl->from) / tl->col_ns;
    double x2 = L->x0 + ((double)m->t_recv - (double)tl->from) / tl->col_ns;
    double y1 = TOP + row_index(tl, m->sender, m->send_thread) * L->row_h + L->bar_h / 2,
           y2 = TOP + row_index(tl, m->receiver, m->recv_thread) * L->row_h + L->bar_h / 2;
    fmt_dur(a, sizeof a, (double)m->t_send, (double)m->t_send);
    fmt_dur(b, sizeof b, (double)m->t_recv - (double)m->t_send,
            (double)m->t_recv - (double)m->t_send);
    fprintf(f,
            "<line class=\"msg\" x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"><title>message "
            "%u -&gt; %u, tag %d, %llu bytes, sent at %s, received %s later</title></line>\n",
            x1, y1, x2, y2, m->sender, m->receiver, m->tag, (unsigned long long)m->bytes, a, b);
  }
  fprintf(f, "</g>\n");
}

static void draw_marks(FILE *f, const augur_timeline *tl, const layout *L) {
  fprintf(f, "<g id=\"marks\">\n");
  for (size_t i = 0; i < tl->nmarks; i++) {
    const augur_tl_mark *m = &tl->marks[i];
    if (m->t1 < tl->from || m->t0 > tl->to) continue;
    double x = xpos(tl, L, m->t0), w = xpos(tl, L, m->t1) - x;
    if (w < 2) w = 2;
    fprintf(
        f,
        "<rect class=\"mark\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
        "fill=\"#ff0000\" fill-opacity=\"0.18\" stroke=\"#d00000\" stroke-width=\"1.5\"><title>",
        x, row_y(tl, L, m->rank) - 1, w, (rank_rows(tl, m->rank) - 1) * L->row_h + L->bar_h + 2);
    tl_xml_escape(f, m->label);
    fputs("</title></rect>\n", f);
  }
  fprintf(f, "</g>\n");
}

/* Bands span all rows. The translucent body lets hover reach the states
 * under it (pointer-events none); the strip above the rows carries the label. */
static void draw_bands(FILE *f, const augur_timeline *tl, const layout *L) {
  if (!tl->nbands) return;
  fprintf(f, "<g id=\"bands\">\n");
  for (size_t i = 0; i < tl->nbands; i++) {
    const augur_tl_mark *b = &tl->bands[i];
    if (b->t1 < tl->from || b->t0 > tl->to) continue;
    double x = xpos(tl, L, b->t0), w = xpos(tl, L, b->t1) - x;
    if (w < 2) w = 2;
    fprintf(f,
            "<g class=\"band\"><rect class=\"band-body\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
            "height=\"%.1f\" fill=\"#6a3d9a\" fill-opacity=\"0.13\" pointer-events=\"none\"/>"
            "<rect class=\"band-strip\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"6\" "
            "fill=\"#6a3d9a\" fill-opacity=\"0.75\"><title>",
            x, TOP - 2, w, L->nr * L->row_h + 2, x, TOP - 9, w);
    tl_xml_escape(f, b->label);
    fputs("</title></rect></g>\n", f);
  }
  fprintf(f, "</g>\n");
}

static void draw_legend(FILE *f, const augur_timeline *tl, const layout *L) {
  fprintf(f, "<g id=\"legend\">\n");
  int entries = legend_entries(tl);
  for (int i = 0; i < entries; i++) {
    double x = 10 + (i % L->legend_cols) * LEGEND_W, y = L->y_legend + (i / L->legend_cols) * 18;
    int ns = nstates(tl);
    if (i < ns)
      fprintf(f,
              "<g class=\"legend-entry\" data-state=\"%s\"><rect x=\"%.1f\" y=\"%.1f\" "
              "width=\"14\" height=\"10\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">%s</text></g>\n",
              tl->hybrid ? augur_tstate_name((unsigned)i) : augur_tl_state_name(i), x, y,
              state_color(tl, i), x + 18, y + 9, state_label(tl, i));
    else if (i == ns)
      fprintf(f,
              "<g class=\"legend-entry\" data-state=\"message\"><line x1=\"%.1f\" y1=\"%.1f\" "
              "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" marker-end=\"url(#arrowhead)\"/>"
              "<text x=\"%.1f\" y=\"%.1f\">message</text></g>\n",
              x, y + 5, x + 14, y + 5, x + 18, y + 9);
    else if (i == ns + 2)
      fprintf(f,
              "<g class=\"legend-entry\" data-state=\"band\"><rect x=\"%.1f\" y=\"%.1f\" "
              "width=\"14\" height=\"10\" fill=\"#6a3d9a\" fill-opacity=\"0.35\"/>"
              "<text x=\"%.1f\" y=\"%.1f\">marked band (all ranks)</text></g>\n",
              x, y, x + 18, y + 9);
    else
      fprintf(f,
              "<g class=\"legend-entry\" data-state=\"mark\"><rect x=\"%.1f\" y=\"%.1f\" "
              "width=\"14\" height=\"10\" fill=\"#ff0000\" fill-opacity=\"0.18\" "
              "stroke=\"#d00000\"/><text x=\"%.1f\" y=\"%.1f\">marked interval</text></g>\n",
              x, y, x + 18, y + 9);
  }
  /* Say how the picture was simplified. */
  double y = L->y_legend + L->legend_rows * 18 + 10;
  augur_tl_summary s;
  augur_timeline_summary(tl, &s);
  char col[32];
  fmt_dur(col, sizeof col, tl->col_ns, tl->col_ns);
  fprintf(f, "<text class=\"note\" id=\"note-states\" x=\"10\" y=\"%.1f\">", y);
  if (s.exact && tl->hybrid)
    fprintf(f, "thread states: every interval drawn (1 px = %s)", col);
  else if (s.exact)
    fprintf(f, "states: every call drawn (1 px = %s)", col);
  else
    fprintf(f,
            "states: aggregated, 1 px = %s; each column shows its dominant state (hover for "
            "shares)",
            col);
  if (tl->group > 1) fprintf(f, "; a row per %u ranks, their mean", tl->group);
  if (s.rank_lo > 0 || s.rank_hi + 1 < tl->nranks)
    fprintf(f, "; ranks %u-%u of %u", s.rank_lo, s.rank_hi, tl->nranks);
  fputs("</text>\n", f);
  fprintf(f, "<text class=\"note\" id=\"note-messages\" x=\"10\" y=\"%.1f\">", y + 16);
  if (s.messages_drawn == s.messages)
    fprintf(f, "messages: all %llu matched messages of the window drawn",
            (unsigned long long)s.messages);
  else
    fprintf(f, "messages: sampled, %llu of %llu matched messages drawn (1 in %llu)",
            (unsigned long long)s.messages_drawn, (unsigned long long)s.messages,
            (unsigned long long)tl->stride);
  if (s.unmatched_sends)
    fprintf(f, "; %llu sends without a matching receive", (unsigned long long)s.unmatched_sends);
  if (tl->dropped)
    fprintf(f, "; %llu sends/receives not matched (too many in flight at once)",
            (unsigned long long)tl->dropped);
  fputs("</text>\n", f);
  if (tl->hybrid)
    fprintf(f,
            "<text class=\"note\" id=\"note-threads\" x=\"10\" y=\"%.1f\">threads: a row per "
            "thread, grouped by rank; states from each rank's end of MPI_Init to its "
            "MPI_Finalize (docs/openmp.md)",
            y + 32);
  if (tl->hybrid && s.omp_unbalanced)
    fprintf(f,
            "; warning: %llu OpenMP begin/end records unpaired (trace cut short or "
            "damaged?), closed at their thread's last record",
            (unsigned long long)s.omp_unbalanced);
  if (tl->hybrid) fputs("</text>\n", f);
  fputs("</g>\n", f);
}

static void write_svg_body(const augur_timeline *tl, FILE *f, const char *title) {
  layout L = make_layout(tl);
  fprintf(f,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"augur-timeline\" width=\"%.0f\" "
          "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
          "font-size=\"11\">\n",
          L.width, L.height, L.width, L.height);
  char a[32], b[32];
  double span = (double)(tl->to - tl->from);
  fmt_dur(a, sizeof a, (double)tl->from, span);
  fmt_dur(b, sizeof b, (double)tl->to, span);
  fputs("<title>", f);
  tl_xml_escape(f, title ? title : "augur timeline");
  fprintf(f, " (%s to %s)</title>\n", a, b);
  fprintf(f,
          "<defs><clipPath id=\"plot-clip\"><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
          "height=\"%.1f\"/></clipPath>"
          "<marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
          "markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" "
          "fill=\"#222\"/></marker></defs>\n",
          L.x0, TOP - 2, L.w, L.nr * L.row_h + 4);
  fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", L.width,
          L.height);
  fputs("<text id=\"title\" x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">", f);
  tl_xml_escape(f, title ? title : "augur timeline");
  fputs("</text>\n", f);
  fprintf(f,
          "<text id=\"subtitle\" x=\"10\" y=\"38\">window %s to %s after the trace start, ranks "
          "%u-%u</text>\n",
          a, b, tl->rank_lo, tl->rank_hi);
  fprintf(f, "<g id=\"rows\">\n");
  if (tl->hybrid)
    for (uint32_t r = tl->rank_lo; r <= tl->rank_hi; r++)
      draw_thread_rows(f, tl, &L, r);
  else
    for (uint32_t i = 0; i < tl->nrows; i++)
      draw_row(f, tl, &L, i);
  fprintf(f, "</g>\n");
  draw_bands(f, tl, &L);
  draw_marks(f, tl, &L);
  draw_messages(f, tl, &L);
  draw_axis(f, tl, &L);
  draw_legend(f, tl, &L);
  fputs("</svg>\n", f);
}

static int finish(FILE *f, augur_error *err) {
  if (fflush(f) || ferror(f))
    return augur_fail(err, AUGUR_E_IO, "timeline: write failed: %s", strerror(errno));
  return 0;
}

int augur_timeline_write_svg(const augur_timeline *tl, FILE *f, const char *title,
                             augur_error *err) {
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
  write_svg_body(tl, f, title);
  return finish(f, err);
}

int augur_timeline_write_svg_element(const augur_timeline *tl, FILE *f, const char *title,
                                     augur_error *err) {
  write_svg_body(tl, f, title);
  return finish(f, err);
}

static void pct_cell(FILE *f, uint64_t v, uint64_t total) {
  char d[32];
  fmt_dur(d, sizeof d, (double)v, (double)v);
  fprintf(f, "<td>%s</td><td>%.1f%%</td>", v ? d : "0", total ? 100.0 * v / total : 0.0);
}

int augur_timeline_write_html(const augur_timeline *tl, FILE *f, const char *title,
                              augur_error *err) {
  const char *t = title ? title : "augur timeline";
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
  tl_xml_escape(f, t);
  fputs("</title>\n<style>\n"
        "body{font-family:sans-serif;margin:16px;color:#222}\n"
        "h1{font-size:18px}\n"
        "table{border-collapse:collapse;margin-top:12px;font-size:13px}\n"
        "th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}\n"
        "th{background:#eee}\n"
        "svg rect.st:hover,svg line.msg:hover{opacity:0.6}\n"
        "</style>\n</head>\n<body>\n<h1>",
        f);
  tl_xml_escape(f, t);
  fputs("</h1>\n<div id=\"timeline\">\n", f);
  write_svg_body(tl, f, title);
  fputs("</div>\n<table id=\"summary\">\n<tr><th>rank</th><th>compute</th><th>%</th>"
        "<th>MPI</th><th>%</th>",
        f);
  for (int k = 1; k < AUGUR_TL_NSTATES; k++)
    fprintf(f, "<th>%s</th>", augur_tl_state_name(k));
  fputs("</tr>\n", f);
  for (uint32_t i = 0; i < tl->nrows; i++) { /* a row per rank, or per block of ranks */
    uint32_t r = tl_row_first(tl, i);
    uint64_t v[AUGUR_TL_NSTATES];
    augur_timeline_rank_totals(tl, r, v);
    uint64_t mpi = 0;
    for (int k = 1; k < AUGUR_TL_NSTATES; k++)
      mpi += v[k];
    uint64_t total = mpi + v[0];
    if (tl->group > 1)
      fprintf(f, "<tr class=\"rank-row\"><td>%u-%u</td>", r, tl_row_last(tl, i));
    else
      fprintf(f, "<tr class=\"rank-row\"><td>%u</td>", r);
    pct_cell(f, v[0], total);
    pct_cell(f, mpi, total);
    char d[32];
    for (int k = 1; k < AUGUR_TL_NSTATES; k++) {
      fmt_dur(d, sizeof d, (double)v[k], (double)v[k]);
      fprintf(f, "<td>%s</td>", v[k] ? d : "0");
    }
    fputs("</tr>\n", f);
  }
  fputs("</table>\n", f);
  if (tl->hybrid) { /* the thread states, one line per thread */
    fputs("<table id=\"threads\">\n<tr><th>rank</th><th>thread</th>", f);
    for (int k = 0; k < AUGUR_TS_COUNT; k++)
      fprintf(f, "<th>%s</th>", augur_tl_tstate_label(k));
    fputs("</tr>\n", f);
    for (uint32_t r = tl->rank_lo; r <= tl->rank_hi; r++) {
      const tl_rank *rr = &tl->ranks[tl_row_of(tl, r)];
      for (size_t i = 0; i < rr->nthr; i++) {
        const tl_thread *th = &rr->thr[i];
        fprintf(f, "<tr class=\"thread-row\"><td>%u</td><td>%u%s</td>", r, th->thread,
                th->initial ? " (initial)" : "");
        char d[32];
        for (int k = 0; k < AUGUR_TS_COUNT; k++) {
          fmt_dur(d, sizeof d, (double)th->row.totals[k], (double)th->row.totals[k]);
          fprintf(f, "<td>%s</td>", th->row.totals[k] ? d : "0");
        }
        fputs("</tr>\n", f);
      }
    }
    fputs("</table>\n", f);
  }
  fputs("<p>Times are inside the window; hover over the picture for details.</p>\n"
        "</body>\n</html>\n",
        f);
  return finish(f, err);
}
