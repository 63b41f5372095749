/* augur timeline — what the diagnosis page (src/analysis/diagnose) shares
 * with the timeline's SVG writer (timeline_svg.c): the plot's x axis and the
 * XML escaping. */
#ifndef AUGUR_TIMELINE_SVG_H
#define AUGUR_TIMELINE_SVG_H

#include <stdio.h>

/* x of the plot area and the margin right of it in the SVG (timeline_svg.c):
 * the diagnosis page draws its charts under the timeline on the same axis. */
#define TL_SVG_LEFT  84
#define TL_SVG_RIGHT 24

/* Writes S with <, >, &, " and ' escaped and control characters dropped:
 * valid in SVG/XML text and attributes and in HTML. */
void tl_xml_escape(FILE *f, const char *s);

#endif
