/* augur diagnose's page with a timeline built beforehand: `augur diagnose
 * --parallel --html` (src/parallel/par_diagnose.c) builds it on analysis
 * rank 0 while another analysis rank computes the efficiencies the page
 * needs first (docs/parallel.md). */
#ifndef AUGUR_DX_HTML_H
#define AUGUR_DX_HTML_H

#include <stdio.h>

#include "augur/diagnose.h"
#include "augur/timeline.h"

/* augur_diagnosis_write_html with TL, augur_dx_html_timeline_build's
 * timeline of D and T (taken: freed here), or NULL to build it here. */
int aug_dx_write_html_tl(const augur_diagnosis *d, augur_trace *t, augur_timeline *tl, FILE *f,
                         const char *title, const augur_dx_figures *figs, size_t nfigs,
                         augur_error *err);

#endif
