/*
 * chart.h - the charts every page draws with (chart.c): below the
 * renderers, so html.c and trend.c share one way of drawing.
 */
#ifndef PB_RP_CHART_H
#define PB_RP_CHART_H

#include <stdbool.h>

#include "model.h"

/* A legend under a plot: entries wrap at xmax. */
struct rp_legend {
	struct pb_buf *b;
	double x0, x, y, xmax;
};

/* One entry: a line (dash) or a box in a colour, then its text. */
void rp_legend_add(struct rp_legend *l, const char *colour, const char *dash,
		   bool box, double opacity, const char *text);

/* A chart drawn into body, its height known once its legend is laid
 * out: heading (an h2), the svg element sized to it with its text
 * alternative (label), the body (disposed). */
void rp_chart_emit(struct pb_buf *out, const char *heading, const char *id,
		   double w, double h, const char *label, struct pb_buf *body);

/* A series' points (x, mid) joined in a colour, with its interval band
 * (lo, hi: NaN where a point has none) under it. */
void rp_chart_band(struct pb_buf *b, const char *colour, const double *x,
		   const double *mid, const double *lo, const double *hi,
		   size_t n);

/* The report's charts: first write against rewrite per mode; the
 * warm-up within a pass; the passes' convergence. */
/* each mode's penalty with its interval against zero: the first screen */
void rp_chart_penalty(struct pb_buf *out, const struct rp_model *m);
void rp_chart_bars(struct pb_buf *out, const struct rp_model *m);
void rp_chart_warmup(struct pb_buf *out, const struct rp_model *m);
void rp_chart_convergence(struct pb_buf *out, const struct rp_model *m);
/* at an offered rate (issue 55): each mode's latency exceedance, first
 * write against rewrite; nothing for a run without one */
void rp_chart_tail(struct pb_buf *out, const struct rp_model *m);

#endif
