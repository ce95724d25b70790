/*
 * draw.h - what the pages share to draw with (draw.c): below every
 * renderer, so that none calls another.
 */
#ifndef PB_DRAW_H
#define PB_DRAW_H

#include "common.h"

/* s HTML-escaped onto b: < > & " ' */
enum pb_error rp_html_text(struct pb_buf *b, const char *s);

/* s as one CSV field onto b: quoted where RFC 4180 needs it */
enum pb_error rp_csv_field(struct pb_buf *b, const char *s);

/* The pages' style sheet: one column that fits 900 px and prints. */
extern const char rp_html_style[];

/* A mode's colour, the same in every report (Okabe and Ito's palette,
 * told apart with the common colour-vision deficiencies). */
const char *rp_mode_colour(enum pb_mode m);

/* An axis step of 1, 2 or 5 times a power of ten giving about n ticks. */
double rp_nice_step(double max, int n);

/*
 * A y axis over the plot area [x0, x1] x [y0, y0 + h]: from *lo to max,
 * both rounded out to a tick (*lo is updated), ticks and gridlines (the
 * zero line darker), the unit above. Returns the top. A range no axis can
 * hold (infinite, over 1e15) is drawn as 0..1.
 */
double rp_y_axis(struct pb_buf *b, double x0, double x1, double y0, double h,
		 double *lo, double max, const char *unit);

#endif
