/* The report's one-sided part (report_rma.c), hooked into report.c's pass,
 * report_text.c and report_json.c. Internal to augur_report. */
#ifndef AUGUR_REPORT_RMA_H
#define AUGUR_REPORT_RMA_H

#include <stdio.h>

#include "augur/report.h"

/* Counts one one-sided record (augur_event_is_rma) of rank ev->rank, DUR its
 * duration: allocates r->rma at the first one. Records of a rank come in
 * its order and ranks one after the other. 0, or -1 when out of memory. */
int aug_report_rma_event(augur_report *r, const augur_event *ev, uint64_t dur);
void aug_report_rma_free(augur_report_rma *rma);
/* The text section (nothing when r->rma is NULL). */
void aug_report_rma_text(FILE *f, const augur_report *r);
/* The "rma" member (NULL when r->rma is NULL). */
struct json_t *aug_report_rma_json(const augur_report *r);

#endif
