/*
 * chart.c - the drawing floor's charts, for every page: a legend laid
 * out under the plot, an svg sized to what it holds, a series with its
 * interval band (the report's and the trend's alike), and the report's
 * own charts (first write against rewrite, the warm-up panels, the
 * passes' convergence). Axes and colours are draw.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "columns.h"
#include "draw.h"
#include "model.h"
#include "words.h"

/* the charts of this page start at 0 */
static double y_axis(struct pb_buf *b, double x0, double x1, double y0,
		     double h, double max, const char *unit)
{
	double lo = 0;

	return rp_y_axis(b, x0, x1, y0, h, &lo, max, unit);
}

/* One entry: a line (dash) or a box in a colour, then its text; rows
 * wrap at xmax. Widths are estimated (11 px text: ~6.6 px a character),
 * generously, so entries never run into each other. */
void rp_legend_add(struct rp_legend *l, const char *colour, const char *dash,
		   bool box, double opacity, const char *text)
{
	double w = 26 + 6.6 * (double)strlen(text) + 14;

	if (l->x > l->x0 && l->x + w > l->xmax) {
		l->x = l->x0;
		l->y += 18;
	}
	if (box)
		pb_buf_printf(l->b,
			      "<rect class=lgk x=%.1f y=%.1f width=18 "
			      "height=10 fill=\"%s\" fill-opacity=%.2f "
			      "stroke=\"%s\" />",
			      l->x, l->y - 9, colour, opacity, colour);
	else
		pb_buf_printf(l->b,
			      "<line class=lgk x1=%.1f x2=%.1f y1=%.1f "
			      "y2=%.1f stroke=\"%s\" stroke-width=2 "
			      "stroke-dasharray=\"%s\" />",
			      l->x, l->x + 18, l->y - 4, l->y - 4, colour,
			      dash);
	pb_buf_printf(l->b, "<text class=lg x=%.1f y=%.1f>", l->x + 24, l->y);
	rp_html_text(l->b, text);
	pb_buf_addstr(l->b, "</text>\n");
	l->x += w;
}

/* A chart drawn into body, its height known once its legend is laid out:
 * the heading, the svg element sized to it, the body. */
void rp_chart_emit(struct pb_buf *out, const char *heading, const char *id,
		   double w, double h, const char *label, struct pb_buf *body)
{
	pb_buf_printf(out,
		      "<h2>%s</h2><svg class=chart id=%s width=\"%.0f\" "
		      "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=img "
		      "aria-label=\"%s\">\n",
		      heading, id, w, h, w, h, label);
	pb_buf_add(out, body->data, body->len);
	if (pb_buf_error(body))
		pb_buf_addstr(out, "<text x=10 y=20>out of memory</text>");
	pb_buf_addstr(out, "</svg>\n");
	pb_buf_dispose(body);
}

/* a group's label, escaped */
static void label(struct pb_buf *b, const struct rp_group *g)
{
	char l[512];

	rp_group_label(l, sizeof(l), g, true);
	rp_html_text(b, l);
}

void rp_chart_band(struct pb_buf *b, const char *colour, const double *x,
		   const double *mid, const double *lo, const double *hi,
		   size_t n)
{
	size_t i, nb = 0;
	bool started = false;

	for (i = 0; i < n; i++) {
		if (isnan(mid[i]))
			continue;
		if (!started)
			pb_buf_printf(b,
				      "<polyline class=series fill=none "
				      "stroke=\"%s\" stroke-width=1.6 "
				      "points=\"",
				      colour);
		started = true;
		pb_buf_printf(b, "%.1f,%.1f ", x[i], mid[i]);
		nb += !isnan(lo[i]) && !isnan(hi[i]);
	}
	if (started)
		pb_buf_addstr(b, "\" />\n");
	if (!nb)
		return;
	/* the band: the upper edge forward, the lower back */
	pb_buf_printf(b,
		      "<polygon fill=\"%s\" fill-opacity=0.15 stroke=none "
		      "points=\"",
		      colour);
	for (i = 0; i < n; i++)
		if (!isnan(mid[i]) && !isnan(lo[i]) && !isnan(hi[i]))
			pb_buf_printf(b, "%.1f,%.1f ", x[i], hi[i]);
	for (i = n; i-- > 0;)
		if (!isnan(mid[i]) && !isnan(lo[i]) && !isnan(hi[i]))
			pb_buf_printf(b, "%.1f,%.1f ", x[i], lo[i]);
	pb_buf_addstr(b, "\" />\n");
}

/* a place's dash (target and workload point), so the lines of one mode
 * are told apart */
static const char *point_dash(const struct rp_group *g)
{
	static const char *const d[] = {"", "7 4", "2 3", "9 3 2 3", "4 2"};
	long long k = (g->point < 0 ? 0 : g->point) + 3 * g->target;

	return d[k % 5];
}

/* the text a group is named by in a legend */
static void group_text(char *out, size_t len, const struct rp_group *g)
{
	snprintf(out, len, "%s%s%s", g->mode, *g->where ? " " : "", g->where);
}

/* Estimated text width, and a text cut to fit w pixels ("..." added). */
static void fit_text(char *out, size_t len, const char *s, double w)
{
	size_t max = w > 20 ? (size_t)((w - 6) / 6.6) : 1;

	if (strlen(s) <= max || max < 4) {
		snprintf(out, len, "%s", s);
		return;
	}
	snprintf(out, len, "%.*s...", (int)(max - 3), s);
}

/* the 95th percentile of v (sorted in place) */
static double quantile95(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && v[k - 1] > v[k]; k--) {
			double t = v[k];

			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	return v[(size_t)(0.95 * (double)(n - 1))];
}

/*
 * Where a panel's curve turns (issue 53): its slowest interval, marked
 * and said ("at 0.5 GiB: 16 MiB at 210 MiB/s") where it is under half
 * the pass's median interval, so a drop in "throughput so far" is never
 * left unexplained.
 */
static void slowest_mark(struct pb_buf *b, struct jl *curve, double u,
			 const char *unit, double maxx, double maxy,
			 double left, double w, double y0, double ph,
			 const char *c)
{
	double rates[4096], cum = 0, at = NAN, slow = INFINITY, bytes = 0, x;
	size_t nr = 0;
	struct jl *pt;
	char sz[32], where[32];

	jl_foreach(curve, pt)
	{
		double r = u * jl_num(jl_get(pt, RUNNER_K_MIB_PER_S));
		double nb = jl_num(jl_get(pt, RUNNER_K_BYTES));

		if (r > 0 && r < slow) {
			slow = r;
			at = cum;
			bytes = nb;
		}
		cum += nb;
		if (nr < sizeof(rates) / sizeof(rates[0]) && r > 0)
			rates[nr++] = r;
	}
	if (nr < 3 || !(slow < 0.5 * rp_median(rates, nr)))
		return;
	x = left + w * (at + bytes / 2) / maxx;
	pb_buf_printf(
		b,
		"<circle cx=%.1f cy=%.1f r=3 fill=none stroke=\"%s\" "
		"/>\n<text class=val x=%.1f y=%.1f text-anchor=%s>"
		"slowest: %s %s%s%s, at %.0f %s</text>\n",
		x, y0 + ph - ph * fmin(slow, maxy) / maxy, c,
		x + (x > left + w / 2 ? -6 : 6), y0 + ph - 4,
		x > left + w / 2 ? "end" : "start", at > 0 ? "" : "the first",
		pb_size_format(sz, sizeof(sz), rp_u64(bytes)),
		at > 0 ? " from " : "",
		at > 0 ? pb_size_format(where, sizeof(where), rp_u64(at)) : "",
		slow, unit);
}

/* Grouped bars: first write (light) and rewrite (solid) per mode in its
 * colour, interval whiskers, the value on each bar; the workload point
 * named once under its modes. */
void rp_chart_bars(struct pb_buf *out, const struct rp_model *m)
{
	struct pb_buf body = PB_BUF_INIT(1u << 26), *b = &body;
	const double H = 240, top = 30, left = 64, gw = 96, bw = 34;
	const double u = rp_rate(m, 1.0); /* the run's rate unit */
	double max = 1, w, ymax, x, base = NAN, y;
	struct rp_legend lg;
	char t2[96];
	size_t i, j;

	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		const double v[] = {g->first_hi * u, g->rewrite_hi * u,
				    g->first_med * u, g->rewrite_med * u};

		for (j = 0; j < 4; j++)
			if (v[j] > max)
				max = v[j];
		if (g->pmode == m->base_mode && m->have_baseline &&
		    !isnan(g->first_med) && g->point == m->g[0].point &&
		    g->target == m->g[0].target)
			base = g->first_med * u;
	}
	w = left + gw * (double)m->ng + 20;
	if (w < 480)
		w = 480;
	ymax = y_axis(b, left, w - 10, top, H, max * 1.12, m->rate_unit);
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		const double v[2] = {g->first_med * u, g->rewrite_med * u};
		const double lo[2] = {g->first_lo * u, g->rewrite_lo * u};
		const double hi[2] = {g->first_hi * u, g->rewrite_hi * u};
		const char *c = rp_mode_colour(g->pmode);
		unsigned k;

		x = left + gw * (double)i + 12;
		for (k = 0; k < 2; k++) {
			double bx = x + k * (bw + 2), h;

			if (isnan(v[k]))
				continue;
			h = H * v[k] / ymax;
			pb_buf_printf(b,
				      "<rect x=%.1f y=%.1f width=%.0f "
				      "height=%.1f fill=\"%s\" "
				      "fill-opacity=%s stroke=\"%s\"><title>",
				      bx, top + H - h, bw, h, c,
				      k ? "1" : "0.35", c);
			label(b, g);
			pb_buf_printf(b, " %s %.1f %s</title></rect>\n",
				      k ? rp_later_name(m) : "first write",
				      v[k], m->rate_unit);
			y = top + H - h;
			if (!isnan(lo[k])) {
				pb_buf_printf(b,
					      "<line x1=%.1f x2=%.1f y1=%.1f "
					      "y2=%.1f stroke=#222 />\n",
					      bx + bw / 2, bx + bw / 2,
					      top + H - H * lo[k] / ymax,
					      top + H - H * hi[k] / ymax);
				if (top + H - H * hi[k] / ymax < y)
					y = top + H - H * hi[k] / ymax;
			}
			pb_buf_printf(b,
				      "<text class=val x=%.1f y=%.1f "
				      "text-anchor=middle>%.0f</text>\n",
				      bx + bw / 2, y - 3, v[k]);
		}
		pb_buf_printf(b,
			      "<text class=lbl x=%.1f y=%.0f "
			      "text-anchor=middle>",
			      x + bw + 1, top + H + 16);
		rp_html_text(b, g->mode);
		pb_buf_addstr(b, "</text>\n");
	}
	/* each workload point once, under the run of its modes */
	for (i = 0; i < m->ng; i = j) {
		char t[256];
		double x0 = left + gw * (double)i + 6, x1;

		for (j = i + 1; j < m->ng && m->g[j].point == m->g[i].point &&
				m->g[j].target == m->g[i].target &&
				!strcmp(m->g[j].workload, m->g[i].workload);
		     j++)
			;
		if (!*m->g[i].where)
			continue;
		x1 = left + gw * (double)j - 6;
		fit_text(t, sizeof(t), m->g[i].where, x1 - x0);
		pb_buf_printf(b,
			      "<line x1=%.1f x2=%.1f y1=%.0f y2=%.0f "
			      "stroke=#888 /><text class=lbl x=%.1f y=%.0f "
			      "text-anchor=middle><title>",
			      x0, x1, top + H + 24, top + H + 24, (x0 + x1) / 2,
			      top + H + 38);
		rp_html_text(b, m->g[i].where);
		pb_buf_addstr(b, "</title>");
		rp_html_text(b, t);
		pb_buf_addstr(b, "</text>\n");
	}
	if (!isnan(base))
		pb_buf_printf(b,
			      "<line x1=%.0f x2=%.0f y1=%.1f y2=%.1f "
			      "stroke=#333 stroke-dasharray=\"6 4\" />\n",
			      left, w - 10, top + H - H * base / ymax,
			      top + H - H * base / ymax);
	lg = (struct rp_legend){b, left, left, top + H + 62, w - 10};
	for (i = 0; i < m->ng; i++) {
		for (j = 0; j < i && m->g[j].pmode != m->g[i].pmode; j++)
			;
		if (j == i)
			rp_legend_add(&lg, rp_mode_colour(m->g[i].pmode), "",
				      true, 1, m->g[i].mode);
	}
	rp_legend_add(&lg, "#777", "", true, 0.35, "first write (light)");
	snprintf(t2, sizeof(t2), "%s (solid)", rp_later_name(m));
	rp_legend_add(&lg, "#777", "", true, 1, t2);
	rp_legend_add(&lg, "#222", "", false, 1, "whisker: 95% interval");
	if (!isnan(base)) {
		char t[96];

		snprintf(t, sizeof(t), "dashed: baseline (%s) first write",
			 m->baseline);
		rp_legend_add(&lg, "#333", "6 4", false, 1, t);
	}
	{
		char title[64], alt[96];

		snprintf(title, sizeof(title), "First write against %s",
			 rp_later_name(m));
		snprintf(alt, sizeof(alt), "first write and %s %s per mode",
			 rp_later_name(m), m->rate_unit);
		rp_chart_emit(out, title, "bars", w, lg.y + 12, alt, &body);
	}
}

/*
 * The first write, a panel per mode (one repetition's pass): throughput
 * so far (all bytes written over all the time taken: a smooth line that
 * reads as "how fast has it been"), each interval's own rate faint behind
 * it, and the mode's rewrite median marked, on one x (data written) and
 * one y (MiB/s) for every panel, so the modes compare at a glance.
 */
void rp_chart_warmup(struct pb_buf *out, const struct rp_model *m)
{
	struct pb_buf body = PB_BUF_INIT(1u << 28), *b = &body;
	const double W = 760, PH = 84, GAP = 30, left = 64, top = 24;
	const double u = rp_rate(m, 1.0); /* the run's rate unit */
	double maxx = 1, maxy = 1, y0, unit, xstep, xt;
	struct rp_legend lg;
	char t2[96];
	size_t i, np = 0, k;
	struct jl *pt;

	for (i = 0; i < m->ng; i++) {
		double cum = 0, rates[4096];
		size_t nr = 0;

		if (!m->g[i].curve)
			continue;
		np++;
		jl_foreach(m->g[i].curve, pt)
		{
			cum += jl_num(jl_get(pt, RUNNER_K_BYTES));
			if (nr < sizeof(rates) / sizeof(rates[0]))
				rates[nr++] =
					u *
					jl_num(jl_get(pt, RUNNER_K_MIB_PER_S));
		}
		maxx = fmax(maxx, cum);
		/* the axis is the data's (issue 53): an interval far above
		 * the rest (a burst into a cache) is clipped at the top,
		 * not the scale every panel is read on */
		if (nr)
			maxy = fmax(maxy, quantile95(rates, nr));
		if (m->g[i].rewrite_med * u > maxy)
			maxy = m->g[i].rewrite_med * u;
	}
	if (!np)
		return;
	maxy = rp_nice_step(maxy * 1.1, 4) *
	       ceil(maxy * 1.1 / rp_nice_step(maxy * 1.1, 4));
	unit = maxx >= 1073741824.0 ? 1073741824.0 : 1048576.0;
	for (i = 0, k = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		const char *c = rp_mode_colour(g->pmode);
		double cum = 0, secs = 0, v, x, y;
		char t[512];

		if (!g->curve)
			continue;
		y0 = top + (double)k++ * (PH + GAP);
		rp_group_label(t, sizeof(t), g, true);
		pb_buf_printf(b, "<text class=lbl x=%.0f y=%.0f>", left,
			      y0 - 6);
		rp_html_text(b, t);
		pb_buf_addstr(b, "</text>\n");
		pb_buf_printf(b,
			      "<rect x=%.0f y=%.0f width=%.0f height=%.0f "
			      "fill=none stroke=#ccc />\n"
			      "<text class=tick x=%.0f y=%.0f "
			      "text-anchor=end>%g</text>"
			      "<text class=tick x=%.0f y=%.0f "
			      "text-anchor=end>0</text>\n",
			      left, y0, W - 10 - left, PH, left - 4, y0 + 4,
			      maxy, left - 4, y0 + PH);
		/* each interval's own rate, faint */
		pb_buf_printf(b,
			      "<polyline fill=none stroke=\"%s\" "
			      "stroke-opacity=0.3 stroke-width=1 points=\"",
			      c);
		jl_foreach(g->curve, pt)
		{
			v = u * jl_num(jl_get(pt, RUNNER_K_MIB_PER_S));
			x = left + (W - 10 - left) * cum / maxx;
			y = y0 + PH - PH * fmin(v, maxy) / maxy;
			pb_buf_printf(b, "%.1f,%.1f ", x, y);
			cum += jl_num(jl_get(pt, RUNNER_K_BYTES));
			pb_buf_printf(b, "%.1f,%.1f ",
				      left + (W - 10 - left) * cum / maxx, y);
		}
		pb_buf_addstr(b, "\" />\n");
		/* throughput so far */
		cum = 0;
		pb_buf_printf(b,
			      "<polyline fill=none stroke=\"%s\" "
			      "stroke-width=2 points=\"",
			      c);
		jl_foreach(g->curve, pt)
		{
			double bytes = jl_num(jl_get(pt, RUNNER_K_BYTES));

			v = jl_num(jl_get(pt, RUNNER_K_MIB_PER_S));
			if (!(v > 0) || !(bytes > 0))
				continue;
			cum += bytes;
			secs += bytes / 1048576.0 / v;
			v = u * cum / 1048576.0 / secs;
			pb_buf_printf(b, "%.1f,%.1f ",
				      left + (W - 10 - left) * cum / maxx,
				      y0 + PH - PH * fmin(v, maxy) / maxy);
		}
		pb_buf_addstr(b, "\"><title>");
		rp_html_text(b, t);
		pb_buf_addstr(b, ": throughput so far</title></polyline>\n");
		slowest_mark(b, g->curve, u, m->rate_unit, maxx, maxy, left,
			     W - 10 - left, y0, PH, c);
		/* the rewrite's level */
		if (!isnan(g->rewrite_med)) {
			y = y0 + PH -
			    PH * fmin(g->rewrite_med * u, maxy) / maxy;
			pb_buf_printf(b,
				      "<line x1=%.0f x2=%.0f y1=%.1f y2=%.1f "
				      "stroke=#333 stroke-dasharray=\"4 3\" />"
				      "<text class=val x=%.0f y=%.1f "
				      "text-anchor=end>%s %.1f</text>\n",
				      left, W - 10, y, y, W - 12, y - 3,
				      rp_later_name(m), g->rewrite_med * u);
		}
	}
	y0 = top + (double)np * (PH + GAP) - GAP;
	xstep = rp_nice_step(maxx / unit, 6);
	for (k = 0, xt = 0; k <= 12 && xt * unit <= maxx * 1.0001;
	     k++, xt = (double)k * xstep)
		pb_buf_printf(b,
			      "<text class=tick x=%.1f y=%.0f "
			      "text-anchor=middle>%g</text>\n",
			      left + (W - 10 - left) * xt * unit / maxx,
			      y0 + 14, xt);
	pb_buf_printf(b,
		      "<text class=unit x=%.0f y=%.0f text-anchor=end>%s "
		      "written; %s</text>\n",
		      W - 10, y0 + 30, unit > 1048576.0 ? "GiB" : "MiB",
		      m->rate_unit);
	lg = (struct rp_legend){b, left, left, y0 + 50, W - 10};
	rp_legend_add(&lg, "#555", "", false, 1, "throughput so far");
	rp_legend_add(&lg, "#bbb", "", false, 1, "each interval's");
	snprintf(t2, sizeof(t2), "the mode's %s median", rp_later_name(m));
	rp_legend_add(&lg, "#333", "4 3", false, 1, t2);
	y0 = lg.y - 40;
	rp_chart_emit(
		out, "Warm-up during the first write", "curves", W, y0 + 52,
		"first-write throughput against data written, a panel per "
		"mode",
		&body);
}

/* Median throughput over successive passes: does it converge? */
void rp_chart_convergence(struct pb_buf *out, const struct rp_model *m)
{
	struct pb_buf body = PB_BUF_INIT(1u << 26), *b = &body;
	const double W = 640, H = 200, left = 64, top = 30;
	const double u = rp_rate(m, 1.0); /* the run's rate unit */
	unsigned maxk = 1;
	double maxy = 1, step, ymax;
	struct rp_legend lg;
	size_t i, k;

	for (i = 0; i < m->ng; i++) {
		if (m->g[i].max_rewrites > maxk)
			maxk = m->g[i].max_rewrites;
		if (m->g[i].first_med * u > maxy)
			maxy = m->g[i].first_med * u;
		for (k = 0; k < m->g[i].max_rewrites; k++)
			if (m->g[i].conv_med[k] * u > maxy)
				maxy = m->g[i].conv_med[k] * u;
	}
	step = (W - left - 60) / (double)maxk; /* room for the last label */
	ymax = y_axis(b, left, W - 10, top, H, maxy * 1.1, m->rate_unit);
	for (k = 0; k <= maxk; k++) {
		char t[24];

		if (k)
			snprintf(t, sizeof(t), "%s %zu", rp_later_name(m), k);
		else
			snprintf(t, sizeof(t), "first");
		pb_buf_printf(b,
			      "<line class=grid x1=%.1f x2=%.1f y1=%.0f "
			      "y2=%.0f stroke=#eee /><text class=tick "
			      "x=%.1f y=%.0f text-anchor=middle>%s</text>",
			      left + step * (double)k, left + step * (double)k,
			      top, top + H, left + step * (double)k,
			      top + H + 18, t);
	}
	pb_buf_printf(b,
		      "<text class=unit x=%.0f y=%.0f text-anchor=end>pass "
		      "(median over repetitions)</text>\n",
		      W - 10, top + H + 36);
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		const char *c = rp_mode_colour(g->pmode);

		if (isnan(g->first_med))
			continue;
		pb_buf_printf(b,
			      "<polyline fill=none stroke=\"%s\" "
			      "stroke-width=2 stroke-dasharray=\"%s\" "
			      "points=\"%.1f,%.1f ",
			      c, point_dash(g), left,
			      top + H - H * g->first_med * u / ymax);
		for (k = 0; k < g->max_rewrites; k++)
			pb_buf_printf(b, "%.1f,%.1f ",
				      left + step * (double)(k + 1),
				      top + H - H * g->conv_med[k] * u / ymax);
		pb_buf_addstr(b, "\"><title>");
		label(b, g);
		pb_buf_addstr(b, "</title></polyline>\n");
		pb_buf_printf(b, "<circle cx=%.1f cy=%.1f r=3 fill=\"%s\" />",
			      left, top + H - H * g->first_med * u / ymax, c);
		for (k = 0; k < g->max_rewrites; k++)
			pb_buf_printf(b,
				      "<circle cx=%.1f cy=%.1f r=3 "
				      "fill=\"%s\" />",
				      left + step * (double)(k + 1),
				      top + H - H * g->conv_med[k] * u / ymax,
				      c);
		pb_buf_addstr(b, "\n");
	}
	lg = (struct rp_legend){b, left, left, top + H + 56, W - 10};
	for (i = 0; i < m->ng; i++) {
		char t[300];

		if (isnan(m->g[i].first_med))
			continue;
		group_text(t, sizeof(t), &m->g[i]);
		rp_legend_add(&lg, rp_mode_colour(m->g[i].pmode),
			      point_dash(&m->g[i]), false, 1, t);
	}
	{
		char title[64];

		snprintf(title, sizeof(title), "Convergence over %ss",
			 rp_later_name(m));
		rp_chart_emit(out, title, "conv", W, lg.y + 12,
			      "median throughput per pass", &body);
	}
}

/*
 * An offered rate's tail as a CCDF (issue 55): per mode, the share of
 * writes slower than a latency, on log scales, first write (solid)
 * against rewrite (dashed), from the percentiles each pass recorded (p50,
 * p99, p99.9: medians over repetitions; the histogram itself is not in
 * run.json), so three steps a line, said in its caption.
 */
void rp_chart_tail(struct pb_buf *out, const struct rp_model *m)
{
	static const double q[] = {0.5, 0.01, 0.001};
	static const enum rp_tail_kind qk[] = {RP_TL_P50, RP_TL_P99,
					       RP_TL_P999};
	struct pb_buf body = PB_BUF_INIT(1u << 24), *b = &body;
	const double W = 640, H = 200, left = 64, top = 30;
	double lo = INFINITY, hi = 0, lx0, lx1;
	struct rp_legend lg;
	size_t i, k, side;

	for (i = 0; i < m->ng; i++)
		for (k = 0; m->g[i].tail.n && k < 3; k++) {
			lo = fmin(lo, fmin(m->g[i].tail.first_med[qk[k]],
					   m->g[i].tail.later_med[qk[k]]));
			hi = fmax(hi, fmax(m->g[i].tail.first_med[qk[k]],
					   m->g[i].tail.later_med[qk[k]]));
		}
	if (!(hi > 0) || !(lo > 0)) {
		pb_buf_dispose(&body);
		return;
	}
	lx0 = floor(log10(lo)), lx1 = fmax(ceil(log10(hi)), lx0 + 1);
	for (k = 0; k <= (size_t)(lx1 - lx0); k++) {
		double x = left + (W - left - 40) * (double)k / (lx1 - lx0);

		pb_buf_printf(b,
			      "<line class=grid x1=%.1f x2=%.1f y1=%.0f "
			      "y2=%.0f stroke=#eee /><text class=tick x=%.1f "
			      "y=%.0f text-anchor=middle>%g ms</text>",
			      x, x, top, top + H, x, top + H + 18,
			      pow(10, lx0 + (double)k));
	}
	for (k = 0; k < 3; k++)
		pb_buf_printf(b,
			      "<text class=tick x=%.0f y=%.1f "
			      "text-anchor=end>%g</text>",
			      left - 6, top + H * (double)k / 2 + 4, q[k]);
	pb_buf_printf(b,
		      "<text class=unit x=%.0f y=%.0f text-anchor=end>latency "
		      "from each write's intended start; share of writes "
		      "slower</text>\n",
		      W - 10, top + H + 36);
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		for (side = 0; g->tail.n && side < 2; side++) {
			pb_buf_printf(b,
				      "<polyline fill=none stroke=\"%s\" "
				      "stroke-width=2 stroke-dasharray=\"%s\" "
				      "points=\"",
				      rp_mode_colour(g->pmode),
				      side ? "5 4" : "none");
			for (k = 0; k < 3; k++) {
				double v = side ? g->tail.later_med[qk[k]]
						: g->tail.first_med[qk[k]];

				pb_buf_printf(b, "%.1f,%.1f ",
					      left + (W - left - 40) *
							      (log10(v) - lx0) /
							      (lx1 - lx0),
					      top + H * (double)k / 2);
			}
			pb_buf_printf(b, "\"><title>%s ",
				      side ? "rewrite" : "first write");
			label(b, g);
			pb_buf_addstr(b, "</title></polyline>\n");
		}
	}
	lg = (struct rp_legend){b, left, left, top + H + 56, W - 10};
	for (i = 0; i < m->ng; i++) {
		char t[300];

		if (!m->g[i].tail.n)
			continue;
		group_text(t, sizeof(t), &m->g[i]);
		rp_legend_add(&lg, rp_mode_colour(m->g[i].pmode), "none", false,
			      1, t);
	}
	rp_legend_add(&lg, "#555", "5 4", false, 1, "rewrite (dashed)");
	rp_chart_emit(out, "The tail at the offered rate", "tail", W, lg.y + 12,
		      "each mode's share of writes slower than a latency, "
		      "first write against rewrite, from each pass's p50, "
		      "p99 and p99.9",
		      &body);
}

/* a penalty's x on the chart: percent from lo to hi across [x0, x1] */
static double pen_x(double v, double lo, double hi, double x0, double x1)
{
	return x0 + (x1 - x0) * (v * 100 - lo) / (hi - lo);
}

/*
 * The first screen's chart (issue 53): each mode's penalty, a dot with its
 * interval's whisker, against a zero line, on an axis from the data's
 * range (zero always in it); the re-warm's beside it, hollow, where the
 * run has one. A row per group; a group without a figure says so.
 */
void rp_chart_penalty(struct pb_buf *out, const struct rp_model *m)
{
	struct pb_buf body = PB_BUF_INIT(1u << 24), *b = &body;
	const double W = 760, left = 170, right = W - 20, top = 12, RH = 24;
	bool rewarm = rp_any_rewarm(m);
	double lo = 0, hi = 0, step, x, y, v, axis;
	struct rp_legend lg;
	size_t i;
	int k;

	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		const double e[] = {g->penalty, g->penalty_lo, g->penalty_hi,
				    g->rewarm,	g->rewarm_lo,  g->rewarm_hi};

		for (k = 0; k < 6; k++)
			if (isfinite(e[k])) {
				lo = fmin(lo, e[k] * 100);
				hi = fmax(hi, e[k] * 100);
			}
	}
	if (!(hi > lo))
		hi = lo + 10;
	step = rp_nice_step(hi - lo, 6);
	/* a first write cannot take less than no time: -100% at the least */
	lo = fmax(floor(lo / step) * step, -100);
	hi = ceil(hi / step) * step;
	/* the axis: ticks every step, the zero line darker */
	axis = top + RH * (double)m->ng;
	for (k = 0, v = ceil(lo / step) * step; k <= 14 && v <= hi + step / 2;
	     k++, v = ceil(lo / step) * step + (double)k * step) {
		x = pen_x(v / 100, lo, hi, left, right);
		pb_buf_printf(b,
			      "<line class=grid x1=%.1f x2=%.1f y1=%.0f "
			      "y2=%.0f stroke=\"%s\" /><text class=tick "
			      "x=%.1f y=%.0f text-anchor=middle>%g%%</text>\n",
			      x, x, top - 6, axis,
			      fabs(v) < step / 2 ? "#444" : "#e4e4e4", x,
			      axis + 14, fabs(v) < step / 2 ? 0 : v);
	}
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		const char *c = rp_mode_colour(g->pmode);
		char l[512], p[32], iv[48];

		y = top + RH * (double)i + RH / 2;
		rp_group_label(l, sizeof(l), g, true);
		pb_buf_printf(b,
			      "<text class=lbl x=%.0f y=%.1f "
			      "text-anchor=end>",
			      left - 8, y + 4);
		fit_text(p, sizeof(p), l, left - 16);
		rp_html_text(b, p);
		pb_buf_addstr(b, "</text>\n");
		if (isnan(g->penalty)) {
			pb_buf_printf(b,
				      "<text class=val x=%.0f y=%.1f>no "
				      "figure</text>\n",
				      left + 4, y + 4);
			continue;
		}
		rp_pct_text(p, sizeof(p), g->penalty);
		rp_pct_interval(iv, sizeof(iv), g->penalty_lo, g->penalty_hi);
		if (isfinite(g->penalty_lo))
			pb_buf_printf(b,
				      "<line x1=%.1f x2=%.1f y1=%.1f y2=%.1f "
				      "stroke=\"%s\" stroke-width=2 />\n",
				      pen_x(g->penalty_lo, lo, hi, left, right),
				      pen_x(g->penalty_hi, lo, hi, left, right),
				      y, y, c);
		pb_buf_printf(b,
			      "<circle cx=%.1f cy=%.1f r=5 fill=\"%s\"><title>",
			      pen_x(g->penalty, lo, hi, left, right), y, c);
		rp_html_text(b, l);
		pb_buf_printf(b, ": penalty %s %s</title></circle>\n", p,
			      isfinite(g->penalty_lo) ? iv : "(no interval)");
		if (rewarm && isfinite(g->rewarm))
			pb_buf_printf(b,
				      "<circle cx=%.1f cy=%.1f r=4 fill=#fff "
				      "stroke=\"%s\" stroke-width=2><title>"
				      "again after a reclaim: %.0f%%</title>"
				      "</circle>\n",
				      pen_x(g->rewarm, lo, hi, left, right),
				      y + 6, c, g->rewarm * 100);
	}
	lg = (struct rp_legend){b, left, left, axis + 46, right};
	rp_legend_add(&lg, "#555", "", false, 1,
		      "dot: the penalty; line: its interval");
	if (rewarm)
		rp_legend_add(&lg, "#555", "", true, 0,
			      "hollow: again after a reclaim");
	rp_legend_add(&lg, "#444", "", false, 1, "0%: no cost");
	pb_buf_printf(b,
		      "<text class=unit x=%.0f y=%.0f text-anchor=end>extra "
		      "time of a first write, %%</text>\n",
		      right, axis + 30);
	rp_chart_emit(out, "The first-write penalty, each mode", "penalty", W,
		      lg.y + 12,
		      "each mode's first-write penalty with its interval, "
		      "against zero",
		      &body);
}
