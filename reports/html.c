/*
 * html.c - report.html: one self-contained file (inline CSS and SVG, no
 * script, font or image from anywhere: lab networks are often offline),
 * readable printed. Every value from run.json is HTML-escaped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

static const char *const palette[] = {"#1b6ca8", "#d1495b", "#edae49",
				      "#00798c", "#66a182", "#8d6a9f",
				      "#30362f", "#c17c74"};

enum pb_error rp_html_text(struct pb_buf *b, const char *s)
{
	enum pb_error err = PB_OK;

	for (; !err && s && *s; s++) {
		switch (*s) {
		case '<':
			err = pb_buf_addstr(b, "&lt;");
			break;
		case '>':
			err = pb_buf_addstr(b, "&gt;");
			break;
		case '&':
			err = pb_buf_addstr(b, "&amp;");
			break;
		case '"':
			err = pb_buf_addstr(b, "&quot;");
			break;
		case '\'':
			err = pb_buf_addstr(b, "&#39;");
			break;
		default:
			err = pb_buf_add(b, s, 1);
		}
	}
	return err;
}

static void td_num(struct pb_buf *b, double v, int decimals, const char *unit)
{
	if (isnan(v))
		pb_buf_addstr(b, "<td class=n>&ndash;</td>");
	else
		pb_buf_printf(b, "<td class=n>%.*f%s</td>", decimals, v, unit);
}

static void label(struct pb_buf *b, const struct rp_group *g)
{
	rp_html_text(b, g->mode);
	if (*g->workload) {
		pb_buf_addstr(b, " ");
		rp_html_text(b, g->workload);
	}
}

/* a ratio to the baseline, and "within noise" when its interval holds 1 */
static void ratio_cell(struct pb_buf *b, double v, double lo, double hi)
{
	if (isnan(v)) {
		pb_buf_addstr(b, "<td class=n>&ndash;</td>");
		return;
	}
	pb_buf_printf(b,
		      "<td class=n title=\"95%% interval %.2f &ndash; %.2f\">"
		      "%.2f%s</td>",
		      lo, hi, v,
		      rp_ratio_noise(lo, hi) ? " <small>(within noise)</small>"
					     : "");
}

static void finding_li(const char *line, void *arg)
{
	struct pb_buf *b = arg;

	pb_buf_addstr(b, "<li>");
	rp_html_text(b, line);
	pb_buf_addstr(b, "</li>\n");
}

/* what the intervals say, in words: differences within noise are not
 * ranked, a warming baseline is flagged; no heading when there is none */
static void findings(struct pb_buf *b, const struct rp_model *m)
{
	struct pb_buf items = PB_BUF_INIT(1u << 20);

	rp_findings(m, finding_li, &items);
	if (items.len) {
		pb_buf_addstr(b, "<h2>Findings</h2><ul>\n");
		pb_buf_add(b, items.data, items.len);
		pb_buf_addstr(b, "</ul>\n");
	}
	if (pb_buf_error(&items))
		pb_buf_addstr(b, "<p class=bad>findings: out of memory</p>\n");
	pb_buf_dispose(&items);
}

static void summary_table(struct pb_buf *b, const struct rp_model *m)
{
	size_t i;

	pb_buf_addstr(b, "<h2>Summary</h2><table><tr><th>mode</th><th>applied"
			 "</th><th>reps</th><th>first-write MiB/s</th><th>95% "
			 "interval</th><th>rewrite MiB/s</th><th>95% interval"
			 "</th><th>read MiB/s</th><th>warm-up penalty</th><th>"
			 "95% interval</th><th>first / baseline</th><th>"
			 "rewrite / baseline</th><th>steady "
			 "state</th><th>provision s</th><th>p99 first "
			 "&micro;s</th><th>p99 rewrite &micro;s</th></tr>\n");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char iv[96], st[160];

		pb_buf_addstr(b, "<tr><td>");
		label(b, g);
		/* a server that ignored the requested flags is shown, in red */
		pb_buf_printf(b, "</td><td%s>",
			      g->mismatch ? " class=bad" : "");
		rp_html_text(b, *g->applied ? g->applied : "?");
		if (g->mismatch)
			pb_buf_addstr(b, " (not as requested)");
		pb_buf_printf(b, "</td><td class=n>%zu%s", g->nok,
			      g->nfailed ? " <span class=bad>+ failed</span>"
					 : "");
		if (g->nskipped && !g->nok) {
			pb_buf_addstr(b, " <span class=bad>");
			rp_html_text(b, g->first_error);
			pb_buf_addstr(b, "</span>");
		}
		pb_buf_addstr(b, "</td>");
		td_num(b, g->first_med, 1, "");
		snprintf(iv, sizeof(iv), "%.1f &ndash; %.1f", g->first_lo,
			 g->first_hi);
		pb_buf_printf(b, "<td class=n>%s</td>",
			      isnan(g->first_lo) ? "&ndash;" : iv);
		td_num(b, g->rewrite_med, 1, "");
		snprintf(iv, sizeof(iv), "%.1f &ndash; %.1f", g->rewrite_lo,
			 g->rewrite_hi);
		pb_buf_printf(b, "<td class=n>%s</td>",
			      isnan(g->rewrite_lo) ? "&ndash;" : iv);
		td_num(b, g->read_med, 1, "");
		td_num(b, g->penalty * 100, 1, "%");
		snprintf(iv, sizeof(iv), "%.0f &ndash; %.0f%%",
			 g->penalty_lo * 100, g->penalty_hi * 100);
		pb_buf_printf(b, "<td class=n>%s</td>",
			      isnan(g->penalty_lo) ? "&ndash;" : iv);
		ratio_cell(b, g->first_vs_base, g->first_vs_base_lo,
			   g->first_vs_base_hi);
		ratio_cell(b, g->rewrite_vs_base, g->rewrite_vs_base_lo,
			   g->rewrite_vs_base_hi);
		rp_steady_text(st, sizeof(st), g);
		pb_buf_addstr(b, "<td>");
		rp_html_text(b, *st ? st : "\u2013");
		pb_buf_addstr(b, "</td>");
		td_num(b, g->prov_med, 2, "");
		td_num(b, g->p99_first_med, 0, "");
		td_num(b, g->p99_rewrite_med, 0, "");
		pb_buf_addstr(b, "</tr>\n");
	}
	pb_buf_addstr(b, "</table>\n");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char a[32], t[32];

		if (isnan(g->be_lazy) && isnan(g->be_thin))
			continue;
		pb_buf_addstr(b, "<p>Eager zeroing's longer provisioning pays "
				 "for itself ");
		if (*g->workload) {
			pb_buf_addstr(b, "(");
			rp_html_text(b, g->workload);
			pb_buf_addstr(b, ") ");
		}
		pb_buf_printf(
			b,
			"against lazy after <b>%s</b> written, against "
			"thin after <b>%s</b> written.</p>\n",
			isnan(g->be_lazy) ? "&ndash;"
			: g->be_lazy < 0  ? "never"
					  : pb_size_format(a, sizeof(a),
							   rp_u64(g->be_lazy)),
			isnan(g->be_thin) ? "&ndash;"
			: g->be_thin < 0  ? "never"
					  : pb_size_format(t, sizeof(t),
							   rp_u64(g->be_thin)));
	}
}

/* Grouped bars: first-write and rewrite per mode, interval whiskers. */
static void bar_chart(struct pb_buf *b, const struct rp_model *m)
{
	const double H = 260, top = 24, left = 60, gw = 110;
	double max = 1, w, scale, x, base = NAN;
	size_t i;

	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		if (g->first_hi > max)
			max = g->first_hi;
		if (g->rewrite_hi > max)
			max = g->rewrite_hi;
		if (!strcmp(g->mode, m->baseline) && !isnan(g->first_med))
			base = g->first_med;
	}
	w = left + gw * (double)m->ng + 20;
	scale = H / (max * 1.1);
	pb_buf_printf(
		b,
		"<h2>First write vs rewrite</h2><svg class=chart "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"role=img aria-label=\"first write and rewrite MiB/s "
		"per mode\">\n",
		w, H + 70, w, H + 70);
	pb_buf_printf(b,
		      "<line x1=%.0f y1=%.0f x2=%.0f y2=%.0f stroke=#444 />"
		      "<text x=10 y=%.0f class=ax>MiB/s (top %.0f)</text>\n",
		      left, top + H, w - 10, top + H, top - 6, max * 1.1);
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		double v[2] = {g->first_med, g->rewrite_med};
		double lo[2] = {g->first_lo, g->rewrite_lo};
		double hi[2] = {g->first_hi, g->rewrite_hi};
		unsigned k;

		x = left + gw * (double)i + 15;
		for (k = 0; k < 2; k++) {
			double bx = x + k * 40;

			if (isnan(v[k]))
				continue;
			pb_buf_printf(b,
				      "<rect x=%.1f y=%.1f width=36 "
				      "height=%.1f fill=\"%s\"><title>%s "
				      "%.1f MiB/s</title></rect>\n",
				      bx, top + H - v[k] * scale, v[k] * scale,
				      k ? "#1b6ca8" : "#edae49",
				      k ? "rewrite" : "first-write", v[k]);
			if (!isnan(lo[k]))
				pb_buf_printf(b,
					      "<line x1=%.1f x2=%.1f y1=%.1f "
					      "y2=%.1f stroke=#222 />\n",
					      bx + 18, bx + 18,
					      top + H - lo[k] * scale,
					      top + H - hi[k] * scale);
		}
		pb_buf_printf(b,
			      "<text x=%.1f y=%.0f class=lbl "
			      "text-anchor=middle>",
			      x + 38, top + H + 18);
		rp_html_text(b, g->mode);
		pb_buf_addstr(b, "</text>");
		if (*g->workload) {
			pb_buf_printf(b,
				      "<text x=%.1f y=%.0f class=ax "
				      "text-anchor=middle>",
				      x + 38, top + H + 34);
			rp_html_text(b, g->workload);
			pb_buf_addstr(b, "</text>");
		}
	}
	if (!isnan(base))
		pb_buf_printf(b,
			      "<line x1=%.0f x2=%.0f y1=%.1f y2=%.1f "
			      "stroke=#d1495b stroke-dasharray=\"6 4\" />"
			      "<text x=%.0f y=%.1f class=ax fill=#d1495b>"
			      "baseline (%s) first-write</text>\n",
			      left, w - 10, top + H - base * scale,
			      top + H - base * scale, left + 4,
			      top + H - base * scale - 4, m->baseline);
	pb_buf_printf(b,
		      "<rect x=%.0f y=%.0f width=12 height=12 fill=#edae49 />"
		      "<text x=%.0f y=%.0f class=ax>first-write</text>"
		      "<rect x=%.0f y=%.0f width=12 height=12 fill=#1b6ca8 />"
		      "<text x=%.0f y=%.0f class=ax>rewrite (median of "
		      "rewrites); whiskers: 95%% interval</text></svg>\n",
		      left, H + 50, left + 16, H + 60, left + 110, H + 50,
		      left + 126, H + 60);
}

/* Throughput against bytes written during the first write, per mode. */
static void warmup_curves(struct pb_buf *b, const struct rp_model *m)
{
	const double W = 760, H = 260, left = 60, top = 20;
	double maxx = 1, maxy = 1;
	size_t i;
	struct jl *pt;

	for (i = 0; i < m->ng; i++) {
		double cum = 0;

		jl_foreach(m->g[i].curve, pt)
		{
			cum += jl_num(jl_get(pt, RUNNER_K_BYTES));
			if (jl_num(jl_get(pt, RUNNER_K_MIB_PER_S)) > maxy)
				maxy = jl_num(jl_get(pt, RUNNER_K_MIB_PER_S));
		}
		if (cum > maxx)
			maxx = cum;
		if (m->g[i].rewrite_med > maxy)
			maxy = m->g[i].rewrite_med;
	}
	maxy *= 1.1;
	pb_buf_printf(
		b,
		"<h2>Warm-up during the first write</h2><svg class=chart "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"role=img aria-label=\"first-write throughput against "
		"bytes written\">\n"
		"<line x1=%.0f y1=%.0f x2=%.0f y2=%.0f stroke=#444 />"
		"<text x=10 y=%.0f class=ax>MiB/s (max %.0f)</text>"
		"<text x=%.0f y=%.0f class=ax text-anchor=end>written: "
		"%.2f GiB</text>\n",
		W, H + 40 + 18.0 * (double)m->ng, W,
		H + 40 + 18.0 * (double)m->ng, left, top + H, W - 10, top + H,
		top + 10, maxy, W - 10, top + H + 16, maxx / 1073741824.0);
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		const char *c = palette[i % 8];
		double cum = 0, y;

		pb_buf_printf(b,
			      "<polyline fill=none stroke=\"%s\" "
			      "stroke-width=1.5 points=\"",
			      c);
		/* steps: each interval's rate across the bytes it wrote, so
		 * a pass of a single interval still shows */
		jl_foreach(g->curve, pt)
		{
			y = jl_num(jl_get(pt, RUNNER_K_MIB_PER_S));
			pb_buf_printf(b, "%.1f,%.1f ",
				      left + (W - left - 10) * cum / maxx,
				      top + H - H * y / maxy);
			cum += jl_num(jl_get(pt, RUNNER_K_BYTES));
			pb_buf_printf(b, "%.1f,%.1f ",
				      left + (W - left - 10) * cum / maxx,
				      top + H - H * y / maxy);
		}
		pb_buf_addstr(b, "\" />\n");
		if (!isnan(g->rewrite_med))
			pb_buf_printf(b,
				      "<line x1=%.0f x2=%.0f y1=%.1f y2=%.1f "
				      "stroke=\"%s\" stroke-dasharray=\"5 4\" "
				      "/>\n",
				      left, W - 10,
				      top + H - H * g->rewrite_med / maxy,
				      top + H - H * g->rewrite_med / maxy, c);
		pb_buf_printf(b,
			      "<rect x=%.0f y=%.0f width=12 height=3 "
			      "fill=\"%s\" /><text x=%.0f y=%.0f class=ax>",
			      left, top + H + 30 + 18.0 * (double)i, c,
			      left + 16, top + H + 35 + 18.0 * (double)i);
		label(b, g);
		pb_buf_addstr(b, " (dashed: its rewrite median)</text>\n");
	}
	pb_buf_addstr(b, "</svg>\n");
}

/* Median throughput over successive passes: does it converge? */
static void convergence(struct pb_buf *b, const struct rp_model *m)
{
	const double W = 640, H = 220, left = 60, top = 20;
	unsigned maxk = 1;
	double maxy = 1, step;
	size_t i, k;

	for (i = 0; i < m->ng; i++) {
		if (m->g[i].max_rewrites > maxk)
			maxk = m->g[i].max_rewrites;
		if (m->g[i].first_med > maxy)
			maxy = m->g[i].first_med;
		for (k = 0; k < m->g[i].max_rewrites; k++)
			if (m->g[i].conv_med[k] > maxy)
				maxy = m->g[i].conv_med[k];
	}
	maxy *= 1.1;
	step = (W - left - 60) / (double)maxk; /* room for the last label */
	pb_buf_printf(
		b,
		"<h2>Convergence over rewrites</h2><svg class=chart "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"role=img aria-label=\"throughput per pass\">\n"
		"<line x1=%.0f y1=%.0f x2=%.0f y2=%.0f stroke=#444 />"
		"<text x=10 y=%.0f class=ax>MiB/s (max %.0f)</text>\n",
		W, H + 50, W, H + 50, left, top + H, W - 10, top + H, top + 10,
		maxy);
	for (k = 0; k <= maxk; k++) {
		char t[16];

		if (k)
			snprintf(t, sizeof(t), "rewrite %zu", k);
		else
			snprintf(t, sizeof(t), "first");
		pb_buf_printf(b,
			      "<text x=%.1f y=%.0f class=ax "
			      "text-anchor=middle>%s</text>",
			      left + step * (double)k, top + H + 16, t);
	}
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		if (isnan(g->first_med))
			continue;
		pb_buf_printf(b,
			      "<polyline fill=none stroke=\"%s\" "
			      "stroke-width=2 points=\"%.1f,%.1f ",
			      palette[i % 8], left,
			      top + H - H * g->first_med / maxy);
		for (k = 0; k < g->max_rewrites; k++)
			pb_buf_printf(b, "%.1f,%.1f ",
				      left + step * (double)(k + 1),
				      top + H - H * g->conv_med[k] / maxy);
		pb_buf_addstr(b, "\"><title>");
		label(b, g);
		pb_buf_addstr(b, "</title></polyline>\n");
	}
	pb_buf_addstr(b, "</svg>\n");
}

/* Filesystem workloads and timed commands: per mode, like the passes. */
static void fs_commands(struct pb_buf *b, const struct rp_model *m)
{
	size_t i;

	if (!m->fs_note[0] && !m->command)
		return;
	pb_buf_addstr(b, "<h2>Filesystem and timed command</h2>\n");
	if (m->fs_note[0]) {
		pb_buf_addstr(b, "<p>Filesystem made on each fresh disk: ");
		rp_html_text(b, m->fs_note);
		pb_buf_addstr(b, ". mkfs is timed apart from the passes: on "
				 "thin and lazy disks it pays zeroing costs "
				 "itself.</p>\n");
	}
	if (m->command) {
		pb_buf_addstr(b, "<p>Command, exactly as run in the mount "
				 "point: <code>");
		rp_html_text(b, m->command);
		pb_buf_addstr(b, "</code></p>\n");
	}
	pb_buf_addstr(b, "<table><tr><th>mode</th><th>mkfs s</th>"
			 "<th>command s</th><th>95% interval</th>"
			 "<th>&times; baseline</th></tr>\n");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		pb_buf_addstr(b, "<tr><td>");
		label(b, g);
		pb_buf_addstr(b, "</td>");
		td_num(b, g->mkfs_med, 2, "");
		td_num(b, g->cmd_med, 2, "");
		if (isnan(g->cmd_lo))
			pb_buf_addstr(b, "<td class=n>&ndash;</td>");
		else
			pb_buf_printf(b, "<td class=n>%.2f &ndash; %.2f</td>",
				      g->cmd_lo, g->cmd_hi);
		td_num(b, g->cmd_vs_base, 2, "&times;");
		pb_buf_addstr(b, "</tr>\n");
	}
	pb_buf_addstr(b, "</table>\n");
}

static void environment(struct pb_buf *b, const struct rp_model *m)
{
	json_t *env = m->env, *v;
	char *text;
	const char *k;

	pb_buf_addstr(b, "<h2>Environment</h2><table>");
	json_object_foreach(env, k, v)
	{
		text = json_is_string(v)
			       ? strdup(json_string_value(v))
			       : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		pb_buf_addstr(b, "<tr><th>");
		rp_html_text(b, k);
		pb_buf_addstr(b, "</th><td>");
		rp_html_text(b, text);
		pb_buf_addstr(b, "</td></tr>");
		free(text);
	}
	pb_buf_addstr(b, "</table><h2>Profile</h2><pre>");
	text = m->profile ? json_dumps(m->profile,
				       JSON_INDENT(2) | JSON_PRESERVE_ORDER)
			  : NULL;
	rp_html_text(b, text);
	free(text);
	pb_buf_addstr(b, "</pre>\n");
}

static void comparison(struct pb_buf *b, const struct rp_model *m,
		       const struct rp_model *old)
{
	size_t i;

	pb_buf_addstr(b, "<h2>Compared with ");
	rp_html_text(b, old->run);
	pb_buf_addstr(b, "</h2><table><tr><th>mode</th><th>first-write "
			 "change</th><th>rewrite change</th></tr>");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		struct rp_change c;

		if (!rp_compare(&c, old, g))
			continue;
		pb_buf_addstr(b, "<tr><td>");
		label(b, g);
		pb_buf_printf(
			b,
			"</td><td class=\"n%s\">%+.1f%%%s</td>"
			"<td class=\"n%s\">%+.1f%%%s</td></tr>",
			c.first_outside ? " bad" : "", c.first_pct,
			c.first_outside ? " (outside both intervals)" : "",
			c.rewrite_outside ? " bad" : "", c.rewrite_pct,
			c.rewrite_outside ? " (outside both intervals)" : "");
	}
	pb_buf_addstr(b, "</table>\n");
}

enum pb_error rp_write_html(const struct rp_model *m,
			    const struct rp_model *old, struct pb_buf *b)
{
	pb_buf_addstr(b, "<!DOCTYPE html>\n<html lang=en><head><meta "
			 "charset=utf-8><title>provbench report: ");
	rp_html_text(b, m->profile_name);
	pb_buf_addstr(
		b,
		"</title><style>body{font:14px/1.4 sans-serif;margin:2em;"
		"color:#222}table{border-collapse:collapse;margin:1em 0}"
		"td,th{border:1px solid #bbb;padding:3px 8px}th{background:"
		"#eee;text-align:left}.n{text-align:right;font-variant-numeric:"
		"tabular-nums}.bad{color:#c00;font-weight:bold}.warn{color:#"
		"8a5a00}.ax{font-size:"
		"11px;fill:#333}.lbl{font-size:13px;fill:#222}.chart{display:"
		"block;margin:1em 0;max-width:100%;height:auto}pre{background:"
		"#f6f6f6;padding:1em;overflow:auto}@media print{.chart{"
		"page-break-inside:avoid}}</style></head><body>\n<h1>"
		"provbench: ");
	rp_html_text(b, m->profile_name);
	pb_buf_addstr(b, "</h1><p>Backend ");
	rp_html_text(b, m->backend);
	if (*m->accel) {
		pb_buf_addstr(b, ", accelerator <b>");
		rp_html_text(b, m->accel);
		pb_buf_addstr(b, "</b> (TCG figures carry emulation overhead "
				 "and compare only with each other)");
	}
	pb_buf_printf(b,
		      ". Medians over repetitions; intervals are 95%% "
		      "percentile-bootstrap intervals of the median (2000 "
		      "resamples, fixed seed; above 50 repetitions the "
		      "order-statistic interval). Baseline: %s%s. Warm-up "
		      "penalty = 1 &minus; first-write / rewrite (medians; its "
		      "interval resamples disks with both their passes). "
		      "Ratios to the baseline whose interval holds 1 are "
		      "within noise. &ldquo;Steady state&rdquo;: per "
		      "repetition, the bytes written before the first "
		      "write's throughput stays within 10%% of that "
		      "repetition's rewrite (rolling window of 3 intervals) "
		      "for the rest of the pass; a pass of fewer than 20 "
		      "intervals is too short to tell.</p>\n",
		      m->baseline,
		      m->have_baseline ? ""
				       : " &mdash; <span class=bad>absent from "
					 "this run: ratios not shown</span>");
	if (m->base_note[0]) {
		pb_buf_addstr(b, "<p class=warn>Baseline: ");
		rp_html_text(b, m->base_note);
		pb_buf_addstr(b, ".</p>\n");
	}
	if (m->failed_items)
		pb_buf_printf(b,
			      "<p class=bad>%zu plan item(s) failed; their "
			      "modes show what did run.</p>\n",
			      m->failed_items);
	summary_table(b, m);
	findings(b, m);
	bar_chart(b, m);
	warmup_curves(b, m);
	convergence(b, m);
	fs_commands(b, m);
	if (old)
		comparison(b, m, old);
	environment(b, m);
	return pb_buf_addstr(b, "</body></html>\n");
}
