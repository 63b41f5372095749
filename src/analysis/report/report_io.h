/* The MPI-IO section of the report (report_io.c): hooks of report.c,
 * report_text.c and report_json.c. r->io stays NULL for a trace without
 * MPI-IO records, so their output does not change. */
#ifndef AUGUR_REPORT_IO_INT_H
#define AUGUR_REPORT_IO_INT_H

#include <jansson.h>
#include <stdio.h>

#include "augur/report.h"

/* Every record of rank `rank`, in stream order. 0, or -1 when out of memory. */
int aug_report_io_event(augur_report *r, const augur_event *ev, uint32_t rank);
/* After the last rank: sorts files and call sites. 0, or -1 when out of memory. */
int aug_report_io_finish(augur_report *r);
void aug_report_io_free(augur_report *r);
void aug_report_io_text(FILE *f, const augur_report *r, augur_trace *t, int top);
/* The "io" member (NULL when the trace has no MPI-IO). */
json_t *aug_report_io_json(const augur_report *r, augur_trace *t, int top);

#endif
