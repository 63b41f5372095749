/* `augur diagnose --html`: one self-contained page (docs/diagnose-html.md).
 *
 * The page needs no script and loads nothing: styles are inline, pictures
 * are inline SVG whose hover text comes from <title> elements, and links only
 * point inside the page. It shows, top to bottom: what was analysed and the
 * verdict; the caller's tables of figures (the POP efficiencies); the
 * timeline of the analysed window (include/augur/timeline.h) with the
 * findings' worst instances as red marks and the inefficiency intervals as
 * purple bands over all rows; the active-process curve on the same time axis;
 * the findings; the intervals; the wait-state totals; the critical path.
 *
 * Every string that comes from the trace or the analysis (function and file
 * names, causes, notes, the title) goes through html_escape. Output size is
 * bounded by ranks x timeline width plus the (capped) lists of the diagnosis,
 * never by the number of events. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "augur/diagnose.h"
#include "augur/timeline.h"
#include "dx_html.h"
#include "timeline_svg.h"

#define TL_WIDTH      1400 /* pixel columns of the timeline and the curve */
#define MAX_RANGES    40   /* rank ranges listed per finding before "..." */
#define MAX_SITES     8    /* call sites listed per finding */
#define CHART_TOP     16   /* active-process chart geometry */
#define CHART_PLOT_H  110
#define CHART_HEIGHT  (CHART_TOP + CHART_PLOT_H + 40)
#define INTERVAL_FILL "#6a3d9a" /* the timeline's band colour */

/* Seconds with three significant digits and no exponent: 12.3, 0.0123. */
static void fmt_sec(char *b, size_t n, double s) {
  double a = s < 0 ? -s : s;
  int prec;
  if (a == 0 || a != a) {
    snprintf(b, n, "0");
    return;
  }
  if (a >= 100)
    prec = 0;
  else if (a >= 10)
    prec = 1;
  else {
    prec = 2;
    for (double v = a; v < 1 && prec < 9; v *= 10)
      prec++;
  }
  snprintf(b, n, "%.*f", prec, s);
}

/* A global time as seconds after the trace start, like the timeline axis. */
static void fmt_at(char *b, size_t n, uint64_t ns) {
  fmt_sec(b, n, (double)ns / 1e9);
}

static void put_sec(FILE *f, double s) {
  char b[48];
  fmt_sec(b, sizeof b, s);
  fputs(b, f);
}

static void put_callsite(FILE *f, uint32_t id, const char *function, const char *file, int line,
                         const char *where) {
  if (function) {
    fputs("<code>", f);
    tl_xml_escape(f, function);
    fputs("</code>", f);
  } else if (id && where && !file) { /* unresolved: module+0xOFFSET */
    fputs("<code>", f);
    tl_xml_escape(f, where);
    fputs("</code>", f);
  } else if (id) {
    fprintf(f, "call site %u", id);
  } else {
    fputs("unknown call site", f);
  }
  if (file) {
    fputs(" <span class=\"loc\">", f);
    tl_xml_escape(f, file);
    if (line > 0) fprintf(f, ":%d", line);
    fputs("</span>", f);
  }
}

/* "4: 0-2, 5" — ascending ranks as ranges, cut after MAX_RANGES ranges. */
static void put_ranks(FILE *f, const uint32_t *r, uint32_t n) {
  fprintf(f, "%u: ", n);
  uint32_t i = 0;
  int ranges = 0;
  while (i < n) {
    uint32_t j = i;
    while (j + 1 < n && r[j + 1] == r[j] + 1)
      j++;
    if (ranges == MAX_RANGES) {
      fputs(", &hellip;", f);
      return;
    }
    fprintf(f, "%s%u", ranges ? ", " : "", r[i]);
    if (j > i) fprintf(f, "-%u", r[j]);
    ranges++;
    i = j + 1;
  }
}

static const char *pattern_id(int p) {
  const char *s = augur_dx_pattern_id(p);
  return s ? s : "?";
}

static const char *pattern_title(int p) {
  const char *s = augur_dx_pattern_title(p);
  return s ? s : "?";
}

/* The timeline of the analysed window with the findings' worst instances marked
 * (label "<pattern id>: <seconds> s lost on rank R (finding #N)") and the
 * inefficiency intervals as bands over all rows. */
int augur_dx_html_timeline_build(const augur_diagnosis *d, augur_trace *t, augur_timeline **out,
                                 augur_error *err) {
  assert(d && t && out);
  augur_tl_options o;
  memset(&o, 0, sizeof o);
  o.width = TL_WIDTH;
  /* The analysed window (first Init end .. last Finalize start), not the
   * whole trace: MPI_Init alone often takes most of a short run and would
   * squeeze everything the diagnosis talks about into a corner. */
  if (d->t_end > d->t_begin) o.from = d->t_begin, o.to = d->t_end;
  /* Beyond AUGUR_TL_RANKS ranks, those around the top finding's worst instance. */
  uint32_t center = 0;
  for (size_t i = 0; i < d->nfindings; i++)
    if (d->findings[i].nmarks) {
      center = d->findings[i].marks[0].rank;
      break;
    }
  augur_tl_rank_window(augur_trace_nranks(t), center, &o.rank_lo, &o.rank_count);
  augur_timeline *tl = NULL;
  if (augur_timeline_build(&tl, t, &o, err)) return -1;
  char label[160], s[48];
  for (size_t i = 0; i < d->nfindings; i++) {
    const augur_dx_finding *fd = &d->findings[i];
    for (size_t k = 0; k < fd->nmarks; k++) {
      const augur_dx_mark *m = &fd->marks[k];
      fmt_sec(s, sizeof s, (double)(m->t1 - m->t0) / 1e9);
      snprintf(label, sizeof label, "%s: %s s lost on rank %u (finding #%zu)",
               pattern_id(fd->pattern), s, m->rank, i + 1);
      if (augur_timeline_mark(tl, m->rank, m->t0, m->t1, label, err)) goto fail;
    }
  }
  for (size_t i = 0; i < d->nintervals; i++) {
    const augur_dx_interval *iv = &d->intervals[i];
    fmt_sec(s, sizeof s, iv->lost_seconds);
    int n = snprintf(label, sizeof label,
                     "inefficiency interval #%zu: %s s of process-time lost, as few as %.1f of "
                     "%u ranks computing",
                     i + 1, s, iv->min_active, d->nranks);
    if (iv->finding >= 0 && (size_t)iv->finding < d->nfindings && n > 0 && (size_t)n < sizeof label)
      snprintf(label + n, sizeof label - n, "; mostly finding #%d (%s)", iv->finding + 1,
               pattern_id(d->findings[iv->finding].pattern));
    if (augur_timeline_band(tl, iv->t0, iv->t1, label, err)) goto fail;
  }
  *out = tl;
  return 0;
fail:
  augur_timeline_free(tl);
  return -1;
}

void augur_dx_html_text(FILE *f, const char *text) {
  tl_xml_escape(f, text);
}

void augur_dx_html_head(FILE *f, const char *title, const char *css) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
  tl_xml_escape(f, title);
  fputs("</title>\n<style>\n"
        "body{font-family:sans-serif;margin:16px;color:#222;max-width:1560px}\n"
        "h1{font-size:20px;margin-bottom:4px}\n"
        "h2{font-size:16px;margin:22px 0 6px}\n"
        "#verdict{font-size:16px;font-weight:bold;margin:6px 0 10px}\n"
        "#verdict.clean{color:#1b5e20}\n#verdict.found{color:#b00020}\n"
        "table{border-collapse:collapse;font-size:13px}\n"
        "th,td{border:1px solid #ccc;padding:3px 8px;vertical-align:top;text-align:left}\n"
        "th{background:#eee}\n"
        "td.num{text-align:right;white-space:nowrap}\n"
        "table.facts th{text-align:left;font-weight:normal;background:#f6f6f6}\n"
        "table.figures th{font-weight:normal;background:#f6f6f6;white-space:nowrap}\n"
        "td.unknown{color:#8a5a00}\n"
        "li.warning{color:#b00020}\n"
        "tr.finding td.text{max-width:360px}\n"
        "tr:target{background:#fff3c4}\n"
        "ul.sites{margin:0;padding-left:16px}\n"
        ".loc{color:#555}\n"
        ".undecided{color:#8a5a00}\n"
        ".explain{font-size:13px;color:#444;max-width:1100px}\n",
        f);
  if (css) fputs(css, f);
  fputs("</style>\n</head>\n<body>\n<h1>", f);
  tl_xml_escape(f, title);
  fputs("</h1>\n", f);
}

/* <ul ATTRS> of the N ITEMS (none: nothing), each <li class="CLASS">
 * PREFIX item (escaped). */
static void put_list(FILE *f, const char *attrs, const char *cls, const char *prefix,
                     const char *const *items, size_t n) {
  if (!n || !items) return;
  fprintf(f, "<ul %s>\n", attrs);
  for (size_t i = 0; i < n; i++) {
    fprintf(f, "<li class=\"%s\">%s", cls, prefix);
    tl_xml_escape(f, items[i]);
    fputs("</li>\n", f);
  }
  fputs("</ul>\n", f);
}

static void write_summary(FILE *f, const augur_diagnosis *d) {
  char thr[32];
  snprintf(thr, sizeof thr, "%g %%", 100.0 * d->min_share);
  if (d->nfindings)
    fprintf(f, "<p id=\"verdict\" class=\"found\">%zu finding%s above %s of process-time</p>\n",
            d->nfindings, d->nfindings == 1 ? "" : "s", thr);
  else
    fputs("<p id=\"verdict\" class=\"clean\">nothing above the threshold</p>\n", f);
  fputs("<table id=\"run\" class=\"facts\">\n", f);
  fputs("<tr><th>run length</th><td class=\"num\">", f);
  put_sec(f, d->total_seconds);
  fputs(" s</td></tr>\n", f);
  fprintf(f, "<tr><th>ranks</th><td class=\"num\">%u</td></tr>\n", d->nranks);
  fputs("<tr><th>process-time (sum over ranks)</th><td class=\"num\">", f);
  put_sec(f, d->process_seconds);
  fputs(" s</td></tr>\n", f);
  fprintf(f, "<tr><th>events</th><td class=\"num\">%llu</td></tr>\n",
          (unsigned long long)d->events);
  fprintf(f, "<tr><th>threshold</th><td class=\"num\">%s of process-time</td></tr>\n", thr);
  fprintf(f, "<tr><th>findings below the threshold</th><td class=\"num\">%zu</td></tr>\n",
          d->nbelow);
  fprintf(f, "<tr><th>hardware counters</th><td class=\"num\">%s</td></tr>\n",
          d->has_counters ? "yes" : "no");
  fprintf(f, "<tr><th>payload fingerprints</th><td class=\"num\">%s</td></tr>\n",
          d->has_hashes ? "yes" : "no");
  if (d->eager_limit)
    fprintf(f, "<tr><th>eager limit</th><td class=\"num\">%llu bytes</td></tr>\n",
            (unsigned long long)d->eager_limit);
  fputs("</table>\n", f);
  put_list(f, "id=\"notes\"", "note", "", (const char *const *)d->notes, d->nnotes);
}

/* The caller's tables of figures (e.g. the POP efficiencies): the notes
 * first, then one row per figure, indented by its depth; an unknown figure
 * says so and shows no number. */
void augur_dx_html_figures(FILE *f, const augur_dx_figures *figs, size_t nfigs) {
  for (size_t k = 0; figs && k < nfigs; k++) {
    const augur_dx_figures *g = &figs[k];
    fputs("<h2>", f);
    tl_xml_escape(f, g->title);
    fputs("</h2>\n", f);
    put_list(f, "class=\"figure-notes\"", "warning", "warning: ", g->notes, g->nnotes);
    if (g->nrows && g->rows) {
      fputs("<table class=\"figures\"", f);
      if (g->id) {
        fputs(" id=\"", f);
        tl_xml_escape(f, g->id);
        fputs("\"", f);
      }
      fputs(">\n", f);
      for (size_t i = 0; i < g->nrows; i++) {
        const augur_dx_figure *r = &g->rows[i];
        fputs("<tr class=\"figure\" data-key=\"", f);
        tl_xml_escape(f, r->key);
        fprintf(f, "\"><th style=\"padding-left:%dpx\">", 8 + 18 * (r->depth > 0 ? r->depth : 0));
        tl_xml_escape(f, r->name);
        if (r->value >= 0)
          fprintf(f, "</th><td class=\"num\" data-value=\"%.17g\">%.3f</td><td>", r->value,
                  r->value);
        else /* negative or NaN */
          fputs("</th><td class=\"num unknown\">unknown</td><td>", f);
        tl_xml_escape(f, r->what);
        fputs("</td></tr>\n", f);
      }
      fputs("</table>\n", f);
    }
    if (g->detail && g->detail[0]) {
      fputs("<p class=\"explain\">", f);
      tl_xml_escape(f, g->detail);
      fputs("</p>\n", f);
    }
  }
}

/* x of global time t on an axis from..to drawn over w pixels from x0. */
static double chart_x(uint64_t t, uint64_t from, uint64_t to, double x0, double w) {
  if (t <= from || to <= from) return x0;
  if (t >= to) return x0 + w;
  return x0 + w * (double)(t - from) / (double)(to - from);
}

/* The active-process curve under the timeline: same width, same left margin,
 * same time axis (from..to over w pixels), y from 0 to nranks. Bins are drawn
 * as steps; when there are more bins than pixels, each pixel column shows the
 * mean of its bins. The intervals are bands with hover text. */
static void write_active(FILE *f, const augur_diagnosis *d, uint64_t from, uint64_t to, double w) {
  const double x0 = TL_SVG_LEFT, width = TL_SVG_LEFT + w + TL_SVG_RIGHT;
  const double top = CHART_TOP, ph = CHART_PLOT_H, base = top + ph;
  const double nr = d->nranks ? d->nranks : 1;
  fprintf(f,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"active-chart\" width=\"%.0f\" "
          "height=\"%d\" viewBox=\"0 0 %.0f %d\" font-family=\"sans-serif\" font-size=\"11\">\n"
          "<title>ranks computing over the run</title>\n",
          width, CHART_HEIGHT, width, CHART_HEIGHT);
  fprintf(f,
          "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%d\" fill=\"#ffffff\"/>\n"
          "<rect class=\"plot-bg\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
          "fill=\"#f2f2f2\"/>\n",
          width, CHART_HEIGHT, x0, top, w, ph);
  /* y axis: 0, half, all ranks */
  for (int k = 0; k <= 2; k++) {
    double v = nr * k / 2, y = base - ph * k / 2;
    fprintf(f,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
            "stroke-opacity=\"%s\"%s/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
            x0, y, x0 + w, y, k == 2 ? "0.5" : "0.12", k == 2 ? " stroke-dasharray=\"4 3\"" : "",
            x0 - 6, y + 4, v);
  }
  fprintf(f,
          "<text x=\"10\" y=\"%.1f\" transform=\"rotate(-90 10 %.1f)\" "
          "text-anchor=\"middle\">ranks computing</text>\n",
          top + ph / 2, top + ph / 2);

  uint64_t t0 = d->t_begin, span = (uint64_t)d->nbins * d->bin_ns;
  if (d->active && d->nbins && d->bin_ns) {
    double xa = chart_x(t0, from, to, x0, w), xb = chart_x(t0 + span, from, to, x0, w);
    uint32_t cols = (uint32_t)(xb - xa + 0.5), n = d->nbins;
    int aggregate = cols >= 1 && n > 2 * cols;
    uint32_t steps = aggregate ? cols : n;
    fprintf(f,
            "<path id=\"active-curve\" fill=\"#b8e0b0\" stroke=\"#2e7d32\" stroke-width=\"1\" "
            "d=\"M%.2f,%.1f",
            xa, base);
    for (uint32_t i = 0; i < steps; i++) {
      double v = 0, sx, ex;
      if (aggregate) {
        size_t lo = (size_t)i * n / steps, hi = (size_t)(i + 1) * n / steps;
        for (size_t b = lo; b < hi; b++)
          v += d->active[b] == d->active[b] ? d->active[b] : 0;
        v = hi > lo ? v / (double)(hi - lo) : 0;
        sx = xa + (xb - xa) * i / steps, ex = xa + (xb - xa) * (i + 1) / steps;
      } else {
        v = d->active[i] == d->active[i] ? d->active[i] : 0;
        sx = chart_x(t0 + (uint64_t)i * d->bin_ns, from, to, x0, w);
        ex = chart_x(t0 + (uint64_t)(i + 1) * d->bin_ns, from, to, x0, w);
      }
      if (v < 0) v = 0;
      if (v > nr) v = nr;
      double y = base - ph * v / nr;
      fprintf(f, " L%.2f,%.1f L%.2f,%.1f", sx, y, ex, y);
    }
    fprintf(f, " L%.2f,%.1f Z\"><title>mean number of ranks computing per bin of ", xb, base);
    put_sec(f, (double)d->bin_ns / 1e9);
    fputs(" s</title></path>\n", f);
  } else {
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">no active-process curve in this diagnosis</text>\n",
            x0 + 10, top + ph / 2);
  }

  fputs("<g id=\"interval-bands\">\n", f);
  for (size_t i = 0; i < d->nintervals; i++) {
    const augur_dx_interval *iv = &d->intervals[i];
    double a = chart_x(iv->t0, from, to, x0, w), b = chart_x(iv->t1, from, to, x0, w);
    if (b - a < 2) b = a + 2;
    char s0[48], s1[48], lost[48];
    fmt_at(s0, sizeof s0, iv->t0);
    fmt_at(s1, sizeof s1, iv->t1);
    fmt_sec(lost, sizeof lost, iv->lost_seconds);
    fprintf(f,
            "<rect class=\"interval-band\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
            "fill=\"" INTERVAL_FILL "\" fill-opacity=\"0.2\"><title>inefficiency interval #%zu, "
            "%s s to %s s: %s s of process-time lost, as few as %.1f of %u ranks computing"
            "</title></rect>\n",
            a, top, b - a, ph, i + 1, s0, s1, lost, iv->min_active, d->nranks);
  }
  fputs("</g>\n", f);

  /* The analysed window's ends on the shared time axis. */
  char a[48], b[48];
  fmt_at(a, sizeof a, d->t_begin);
  fmt_at(b, sizeof b, d->t_end);
  double xa = chart_x(d->t_begin, from, to, x0, w), xb = chart_x(d->t_end, from, to, x0, w);
  fprintf(f,
          "<g id=\"window\" stroke=\"#333\"><line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" "
          "y2=\"%.1f\"/><line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/></g>\n"
          "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"start\">%s s (analysis starts)</text>\n"
          "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"end\">%s s (analysis ends)</text>\n",
          xa, top, xa, base + 5, xb, top, xb, base + 5, xa, base + 18, a, xb, base + 32, b);
  fputs("</svg>\n", f);
}

void augur_dx_html_findings(FILE *f, const augur_diagnosis *d, size_t max) {
  assert(f && d);
  if (!d->nfindings) {
    fputs("<p id=\"no-findings\">No finding reaches the threshold.</p>\n", f);
    return;
  }
  fputs("<table id=\"findings\">\n<tr><th>#</th><th>pattern</th><th>seconds</th><th>share</th>"
        "<th>saving</th><th>ranks</th><th>call sites</th><th>cause</th><th>recommendation</th>"
        "<th>undecided</th></tr>\n",
        f);
  size_t n = max && max < d->nfindings ? max : d->nfindings;
  for (size_t i = 0; i < n; i++) {
    const augur_dx_finding *fd = &d->findings[i];
    fprintf(f, "<tr class=\"finding\" id=\"finding-%zu\" data-pattern=\"", i + 1);
    tl_xml_escape(f, pattern_id(fd->pattern));
    fprintf(f, "\"><td class=\"num\">%zu</td><td><code>", i + 1);
    tl_xml_escape(f, pattern_id(fd->pattern));
    fputs("</code><br>", f);
    tl_xml_escape(f, pattern_title(fd->pattern));
    fputs("</td><td class=\"num\">", f);
    put_sec(f, fd->seconds);
    fprintf(f, " s</td><td class=\"num\">%.1f %%</td><td class=\"num\">", 100.0 * fd->share);
    put_sec(f, fd->saving_seconds);
    fputs(" s</td><td>", f);
    put_ranks(f, fd->ranks, fd->ranks ? fd->nranks : 0);
    fputs("</td><td><ul class=\"sites\">", f);
    size_t ns = fd->callsites ? fd->ncallsites : 0;
    for (size_t k = 0; k < ns && k < MAX_SITES; k++) {
      const augur_dx_callsite *c = &fd->callsites[k];
      fputs("<li>", f);
      put_callsite(f, c->id, c->function, c->file, c->line, c->where);
      fputs(" (", f);
      put_sec(f, c->seconds);
      fputs(" s)</li>", f);
    }
    if (ns > MAX_SITES) fprintf(f, "<li>and %zu more</li>", ns - MAX_SITES);
    fputs("</ul></td><td class=\"text\">", f);
    tl_xml_escape(f, fd->cause);
    fputs("</td><td class=\"text\">", f);
    tl_xml_escape(f, fd->recommendation);
    fputs("</td><td class=\"text undecided\">", f);
    tl_xml_escape(f, fd->undecided);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

static void write_intervals(FILE *f, const augur_diagnosis *d) {
  if (!d->nintervals) return;
  fputs(
      "<h2>Inefficiency intervals</h2>\n<table id=\"intervals\">\n<tr><th>#</th><th>from</th>"
      "<th>to</th><th>lost process-time</th><th>fewest ranks computing</th><th>mostly</th></tr>\n",
      f);
  for (size_t i = 0; i < d->nintervals; i++) {
    const augur_dx_interval *iv = &d->intervals[i];
    char a[48], b[48];
    fmt_at(a, sizeof a, iv->t0);
    fmt_at(b, sizeof b, iv->t1);
    fprintf(f,
            "<tr class=\"interval\" id=\"interval-%zu\"><td class=\"num\">%zu</td><td "
            "class=\"num\">%s s</td><td class=\"num\">%s s</td><td class=\"num\">",
            i + 1, i + 1, a, b);
    put_sec(f, iv->lost_seconds);
    fprintf(f, " s</td><td class=\"num\">%.1f of %u</td><td>", iv->min_active, d->nranks);
    if (iv->finding >= 0 && (size_t)iv->finding < d->nfindings)
      fprintf(f, "<a href=\"#finding-%d\">#%d %s</a>", iv->finding + 1, iv->finding + 1,
              pattern_id(d->findings[iv->finding].pattern));
    else
      fputs("&mdash;", f);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

static void write_wait_states(FILE *f, const augur_diagnosis *d) {
  fputs("<h2>Wait states</h2>\n<table id=\"wait-states\">\n<tr><th>pattern</th><th>seconds</th>"
        "<th>share of process-time</th><th>instances</th></tr>\n",
        f);
  for (int p = 0; p < AUGUR_DX_NWAITSTATES; p++) {
    fprintf(f, "<tr class=\"wait-state\" data-pattern=\"%s\"><td><code>%s</code> ", pattern_id(p),
            pattern_id(p));
    tl_xml_escape(f, pattern_title(p));
    fputs("</td><td class=\"num\">", f);
    put_sec(f, d->wait_seconds[p]);
    fprintf(f, " s</td><td class=\"num\">%.1f %%</td><td class=\"num\">%llu</td></tr>\n",
            d->process_seconds > 0 ? 100.0 * d->wait_seconds[p] / d->process_seconds : 0.0,
            (unsigned long long)d->wait_instances[p]);
  }
  fputs("</table>\n", f);
}

static void write_path(FILE *f, const augur_diagnosis *d) {
  fputs("<h2>Critical path</h2>\n<p class=\"explain\">Length ", f);
  put_sec(f, d->path_seconds);
  fputs(" s. Each MPI call on the path with the compute that leads to it.</p>\n", f);
  if (!d->npath || !d->path) {
    fputs("<p id=\"no-path\">No call site on the critical path.</p>\n", f);
    return;
  }
  fputs("<table id=\"critical-path\">\n<tr><th>call site</th><th>compute</th><th>MPI</th>"
        "<th>share</th></tr>\n",
        f);
  for (size_t i = 0; i < d->npath; i++) {
    const augur_dx_path_site *p = &d->path[i];
    fputs("<tr class=\"path-site\"><td>", f);
    if (!p->callsite && !p->function)
      fputs("program start", f);
    else
      put_callsite(f, p->callsite, p->function, p->file, p->line, p->where);
    fputs("</td><td class=\"num\">", f);
    put_sec(f, p->compute_seconds);
    fputs(" s</td><td class=\"num\">", f);
    put_sec(f, p->mpi_seconds);
    fprintf(f, " s</td><td class=\"num\">%.1f %%</td></tr>\n", 100.0 * p->share);
  }
  fputs("</table>\n", f);
}

int augur_dx_html_timeline(FILE *f, const augur_diagnosis *d, const augur_timeline *tl,
                           const char *title, augur_error *err) {
  assert(f && d);
  uint64_t from = d->t_begin, to = d->t_end;
  double w = TL_WIDTH;
  if (tl) {
    augur_tl_summary s;
    augur_timeline_summary(tl, &s);
    from = s.from, to = s.to, w = s.width;
    fputs("<p class=\"explain\">Red boxes: the worst instances of each finding (hover for the "
          "pattern, the time lost and the rank). Purple bands over all ranks: the inefficiency "
          "intervals, where fewer than all ranks compute (hover over the strip above the rows).",
          f);
    if (s.rank_lo > 0 || s.rank_hi + 1 < d->nranks)
      fprintf(f,
              " Ranks %u-%u of %u: those around the worst instance of the first finding that "
              "has one (a row per rank of %u would not be read); <code>augur timeline TRACE -o "
              "T.html --ranks A-B</code> draws others.",
              s.rank_lo, s.rank_hi, d->nranks, d->nranks);
    fputs("</p>\n<div id=\"timeline\">\n", f);
    if (augur_timeline_write_svg_element(tl, f, title, err)) return -1;
    fputs("</div>\n", f);
  } else {
    fputs("<p id=\"no-timeline\">No timeline: the trace was not given.</p>\n", f);
  }
  fputs("<h2>Active processes</h2>\n<p class=\"explain\">How many ranks compute (are outside "
        "MPI) at each moment of the analysed window, on the time axis of the timeline; purple: "
        "the inefficiency intervals.</p>\n<div id=\"active\">\n",
        f);
  write_active(f, d, from, to, w);
  fputs("</div>\n", f);
  return 0;
}

int augur_diagnosis_write_html(const augur_diagnosis *d, augur_trace *t, FILE *f, const char *title,
                               const augur_dx_figures *figs, size_t nfigs, augur_error *err) {
  return aug_dx_write_html_tl(d, t, NULL, f, title, figs, nfigs, err);
}

int aug_dx_write_html_tl(const augur_diagnosis *d, augur_trace *t, augur_timeline *tl, FILE *f,
                         const char *title, const augur_dx_figures *figs, size_t nfigs,
                         augur_error *err) {
  if (!d || !f) {
    augur_timeline_free(tl);
    augur_fail(err, AUGUR_E_ARG, "diagnose: no diagnosis or no output stream");
    return -1;
  }
  if (!title) title = "augur diagnosis";
  /* Stream the trace before writing anything: a damaged trace leaves no
   * half page behind. */
  if (!tl && t && augur_dx_html_timeline_build(d, t, &tl, err)) return -1;

  augur_dx_html_head(f, title, NULL);
  char incomplete[AUGUR_INCOMPLETE_MAX];
  if (t && augur_trace_incomplete(t, incomplete, sizeof incomplete)) {
    fputs("<p id=\"incomplete\"><strong>", f);
    tl_xml_escape(f, incomplete);
    fputs("</strong></p>\n", f);
  }
  write_summary(f, d);
  augur_dx_html_figures(f, figs, nfigs);
  fputs("<h2>Timeline</h2>\n", f);
  int rc = augur_dx_html_timeline(f, d, tl, title, err);
  augur_timeline_free(tl);
  if (rc) return -1;
  fputs("<h2>Findings</h2>\n", f);
  augur_dx_html_findings(f, d, 0);
  write_intervals(f, d);
  write_wait_states(f, d);
  write_path(f, d);
  fputs("<p class=\"explain\">Written by <code>augur diagnose</code>. Times are seconds after the "
        "trace start; shares are of the process-time (run length summed over ranks).</p>\n"
        "</body>\n</html>\n",
        f);
  if (fflush(f) || ferror(f)) {
    augur_fail(err, AUGUR_E_IO, "diagnose: writing the HTML page failed: %s",
               errno ? strerror(errno) : "write error");
    return -1;
  }
  return 0;
}
