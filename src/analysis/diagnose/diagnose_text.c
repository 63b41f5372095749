/* `augur diagnose` as text: the verdict, the findings ranked by lost time
 * (each with where, why and what to change), then the supporting figures:
 * wait-state totals, the worst intervals, the critical path. */
#include <errno.h>
#include <string.h>

#include "augur/diagnose.h"
#include "augur/report.h" /* augur_fmt_ns */

/* The name augur_fmt_callsite gave the call site, "-" for none. */
static void site(char *buf, size_t n, const char *where, uint32_t id) {
  snprintf(buf, n, "%s", id && where ? where : "-");
}

static void ranks(char *buf, size_t n, const augur_dx_finding *f) {
  size_t len = 0;
  buf[0] = '\0';
  for (uint32_t i = 0; i < f->nranks && len + 24 < n;) {
    uint32_t j = i;
    while (j + 1 < f->nranks && f->ranks[j + 1] == f->ranks[j] + 1)
      j++;
    len += (size_t)snprintf(buf + len, n - len, "%s%u", len ? "," : "", f->ranks[i]);
    if (j > i) len += (size_t)snprintf(buf + len, n - len, "-%u", f->ranks[j]);
    i = j + 1;
  }
  if (!f->nranks) snprintf(buf, n, "-");
}

/* Wraps TEXT at ~94 columns under a label. */
static void para(FILE *f, const char *label, const char *text) {
  if (!text) return;
  fprintf(f, "     %-6s", label);
  size_t col = 0, len = strlen(text);
  const char *p = text;
  while (p < text + len) {
    const char *sp = strchr(p, ' ');
    size_t w = sp ? (size_t)(sp - p) : strlen(p);
    if (col && col + w + 1 > 86) {
      fprintf(f, "\n     %-6s", "");
      col = 0;
    }
    fprintf(f, "%s%.*s", col ? " " : "", (int)w, p);
    col += w + (col ? 1 : 0);
    p += w + (sp ? 1 : 0);
  }
  fputc('\n', f);
}

/* The eager limit: given, inferred from what the sends did, or why not. */
static void eager_line(const augur_diagnosis *d, FILE *f) {
  const char *src = augur_dx_eager_source(d);
  unsigned long long e = d->eager_max, r = d->rendezvous_min;
  if (!strcmp(src, "given"))
    fprintf(f,
            "  eager limit: %llu bytes (--eager-limit): standard sends up to it are not counted "
            "as late-receiver waits\n",
            (unsigned long long)d->eager_limit);
  else if (!strcmp(src, "inferred"))
    fprintf(f,
            "  eager limit: %llu to %llu bytes (standard sends up to %llu bytes finished before "
            "their receive was posted; from %llu bytes they waited for it)\n",
            e, r - 1, e, r);
  else if (!strcmp(src, "at_least"))
    fprintf(f,
            "  eager limit: at least %llu bytes (standard sends up to that size finished before "
            "their receive was posted; none was seen waiting for it)\n",
            e);
  else if (!strcmp(src, "below"))
    fprintf(f,
            "  eager limit: below %llu bytes (standard sends from that size waited for their "
            "receive; none was seen finishing before it)\n",
            r);
  else if (!strcmp(src, "unclear"))
    fprintf(f,
            "  eager limit: unclear (standard sends of up to %llu bytes finished before their "
            "receive, yet one of %llu bytes waited for it: use --eager-limit)\n",
            e, r);
}

int augur_diagnosis_write_text(const augur_diagnosis *d, FILE *f, augur_error *err) {
  char a[64], b[64];
  augur_fmt_ns(a, sizeof a, (uint64_t)(d->total_seconds * 1e9));
  fprintf(f, "augur diagnose: %u ranks, run %s, %.3f process-seconds, %llu events\n", d->nranks, a,
          d->process_seconds, (unsigned long long)d->events);
  if (d->oversubscription) fprintf(f, "warning: %s\n", d->oversubscription);
  if (d->omp_ranks)
    fprintf(f,
            "OpenMP: %u rank%s with up to %u thread%s; an OpenMP finding's lost time is its "
            "thread-time / threads\n",
            d->omp_ranks, d->omp_ranks == 1 ? "" : "s", d->omp_threads,
            d->omp_threads == 1 ? "" : "s");
  if (!d->nfindings)
    fprintf(f, "\nNothing above the threshold (%.1f %% of process-time).\n", 100 * d->min_share);
  else
    fprintf(f, "\n%zu finding%s above %.1f %% of process-time, largest first:\n\n", d->nfindings,
            d->nfindings == 1 ? "" : "s", 100 * d->min_share);
  int pw = 19; /* the pattern column: wider for the longer OpenMP ids only */
  for (size_t i = 0; i < d->nfindings; i++) {
    int n = (int)strlen(augur_dx_pattern_id(d->findings[i].pattern));
    if (n > pw) pw = n;
  }
  if (d->nfindings)
    fprintf(f, "  %2s  %-*s %10s %7s %10s  %-9s %s\n", "#", pw, "pattern", "lost", "share",
            "saving", "ranks", "where");
  for (size_t i = 0; i < d->nfindings; i++) {
    const augur_dx_finding *x = &d->findings[i];
    char rk[64], where[160];
    ranks(rk, sizeof rk, x);
    const augur_dx_callsite *c = x->ncallsites ? &x->callsites[0] : NULL;
    if (c)
      site(where, sizeof where, c->where, c->id);
    else
      snprintf(where, sizeof where, "-");
    augur_fmt_ns(a, sizeof a, (uint64_t)(x->seconds * 1e9));
    augur_fmt_ns(b, sizeof b, (uint64_t)(x->saving_seconds * 1e9));
    fprintf(f, "  %2zu  %-*s %10s %6.1f%% %10s  %-9s %s\n", i + 1, pw,
            augur_dx_pattern_id(x->pattern), a, 100 * x->share, b, rk, where);
    if (x->ncallsites > 1) { /* one problem at several call sites: all of them */
      char list[1024];
      size_t len = 0;
      list[0] = '\0';
      for (size_t k = 0; k < x->ncallsites && len + 200 < sizeof list; k++) {
        const augur_dx_callsite *s = &x->callsites[k];
        site(where, sizeof where, s->where, s->id);
        augur_fmt_ns(a, sizeof a, (uint64_t)(s->seconds * 1e9));
        len +=
            (size_t)snprintf(list + len, sizeof list - len, "%s%s (%s)", k ? ", " : "", where, a);
      }
      para(f, "sites", list);
    }
    para(f, "why", x->cause);
    para(f, "fix", x->recommendation);
    if (x->undecided) {
      char u[600];
      snprintf(u, sizeof u, "could not decide %s", x->undecided);
      para(f, "note", u);
    }
    fputc('\n', f);
  }
  if (d->nbelow)
    fprintf(f, "%s%zu more below the threshold (--min-share to see them).\n",
            d->nfindings ? "" : "\n", d->nbelow);

  fprintf(f, "\nWait states (exact totals, process-seconds)\n");
  for (int w = 0; w < AUGUR_DX_NWAITSTATES; w++)
    if (d->wait_instances[w])
      fprintf(f, "  %-19s %10.6f  %8llu instances\n", augur_dx_pattern_id(w), d->wait_seconds[w],
              (unsigned long long)d->wait_instances[w]);
  eager_line(d, f);

  size_t ni = d->nintervals < 5 ? d->nintervals : 5;
  if (ni) fprintf(f, "\nWorst intervals (fewest ranks computing the longest)\n");
  for (size_t i = 0; i < ni; i++) {
    const augur_dx_interval *iv = &d->intervals[i];
    fprintf(f, "  %9.6f s - %9.6f s  lost %.6f s  min active %.1f of %u%s%s\n",
            (double)(iv->t0 - d->t_begin) * 1e-9 * (iv->t0 >= d->t_begin),
            (double)(iv->t1 - d->t_begin) * 1e-9 * (iv->t1 >= d->t_begin), iv->lost_seconds,
            iv->min_active, d->nranks, iv->finding >= 0 ? "  -> " : "",
            iv->finding >= 0 ? augur_dx_pattern_id(d->findings[iv->finding].pattern) : "");
  }
  size_t np = d->npath < 8 ? d->npath : 8;
  if (np) fprintf(f, "\nCritical path (%.3f s) by call site\n", d->path_seconds);
  for (size_t i = 0; i < np; i++) {
    const augur_dx_path_site *p = &d->path[i];
    char where[160];
    site(where, sizeof where, p->where, p->callsite);
    fprintf(f, "  %5.1f%%  compute %9.6f s  MPI %9.6f s  %s\n", 100 * p->share, p->compute_seconds,
            p->mpi_seconds, where);
  }
  for (size_t i = 0; i < d->nnotes; i++)
    fprintf(f, "%snote: %s\n", i ? "" : "\n", d->notes[i]);
  if (fflush(f) || ferror(f))
    return augur_fail(err, AUGUR_E_IO, "diagnose: writing the report failed: %s", strerror(errno));
  return 0;
}
