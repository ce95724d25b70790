/*
 * html.c - report.html: one self-contained file (inline CSS and SVG, no
 * script, font or image from anywhere: lab networks are often offline),
 * readable printed. Every value from run.json is HTML-escaped.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "draw.h"
#include "columns.h"
#include "findings.h"
#include "fleet.h"
#include "html.h"
#include "model.h"
#include "words.h"

static void td_num(struct pb_buf *b, double v, int decimals, const char *unit)
{
	if (isnan(v))
		pb_buf_addstr(b, "<td class=n>&ndash;</td>");
	else
		pb_buf_printf(b, "<td class=n>%.*f%s</td>", decimals, v, unit);
}

/* a median with its interval below it, small: one column, not two */
static void td_iv(struct pb_buf *b, double v, double lo, double hi,
		  double scale, int decimals, const char *unit)
{
	if (isnan(v)) {
		pb_buf_addstr(b, "<td class=n>&ndash;</td>");
		return;
	}
	pb_buf_printf(b, "<td class=n>%.*f%s", decimals, v * scale + 0.0, unit);
	/* "-3 to 1" where a dash would read as a minus */
	if (!isnan(lo))
		pb_buf_printf(b, "<br><small>%.*f%s%.*f</small>", decimals,
			      lo * scale + 0.0, lo < 0 ? " to " : "&ndash;",
			      decimals, hi * scale + 0.0);
	pb_buf_addstr(b, "</td>");
}

static void label(struct pb_buf *b, const struct rp_group *g)
{
	char l[512];

	rp_group_label(l, sizeof(l), g, true);
	rp_html_text(b, l);
}

/* Runs that differ, read together only because of --force: said in red. */
static void differ_note(struct pb_buf *b, const char *note, const char *done)
{
	if (!note[0])
		return;
	pb_buf_addstr(b, "<p class=bad>These runs differ (");
	rp_html_text(b, note);
	pb_buf_printf(b, "): %s only because --force was given.</p>\n", done);
}

/* a mode's swatch, in its colour */
static void swatch(struct pb_buf *b, enum pb_mode mode)
{
	pb_buf_printf(b, "<span class=sw style=\"background:%s\"></span>",
		      rp_mode_colour(mode));
}

static void li(struct pb_buf *b, const struct rp_model *m,
	       const struct rp_finding *f)
{
	char t[4096];

	rp_finding_text(t, sizeof(t), m, f);
	pb_buf_printf(b, "<li%s>", f->warning ? " class=warn" : "");
	rp_html_text(b, t);
	pb_buf_addstr(b, "</li>\n");
}

/* the answer first: the headline's clauses */
static void answer(struct pb_buf *b, const struct rp_model *m,
		   const struct rp_findings *fs)
{
	size_t i;

	if (!fs->nheadline)
		return;
	pb_buf_addstr(b, "<h2>Answer</h2><ul class=answer>\n");
	for (i = 0; i < fs->nheadline; i++)
		li(b, m, &fs->f[i]);
	pb_buf_addstr(b, "</ul>\n");
}

/* what the intervals say beyond the table, below it */
static void findings(struct pb_buf *b, const struct rp_model *m,
		     const struct rp_findings *fs)
{
	size_t i, n = 0;

	for (i = fs->nheadline; i < fs->n; i++) {
		if (!rp_finding_listed(&fs->f[i]))
			continue;
		if (!n++)
			pb_buf_addstr(b, "<h2>Findings</h2><ul>\n");
		li(b, m, &fs->f[i]);
	}
	if (n)
		pb_buf_addstr(b, "</ul>\n");
}

/* Where each mode's first write spent its time, as a table: the
 * attribution findings (at the device, at the server, in the file), one
 * row each, their figures as the findings hold them. */
static void attribution(struct pb_buf *b, const struct rp_model *m,
			const struct rp_findings *fs)
{
	static const char *const srv[RP_SV__COUNT] = {
		[RP_SV_VDISK_MS] = "server: virtual disk",
		[RP_SV_DEVICE_MS] = "server: LUN device",
		[RP_SV_DS_MS] = "server: datastore",
	};
	size_t i, n = 0;
	char a[32], c[32];

	for (i = fs->nheadline; i < fs->n; i++) {
		const struct rp_finding *f = &fs->f[i];
		const struct rp_devtime *d;

		if (f->kind != RP_F_DEVICE && f->kind != RP_F_SERVER &&
		    f->kind != RP_F_EXTENTS)
			continue;
		if (!n++)
			pb_buf_printf(
				b,
				"<h2>Where the first write's time went</h2>"
				"<table class=sum><tr><th>mode</th>"
				"<th>where</th><th>first write</th>"
				"<th>%ss</th><th>ratio [95%%]</th>"
				"<th></th></tr>\n",
				rp_later_name(m));
		pb_buf_addstr(b, "<tr><td>");
		rp_html_text(b, f->g->mode);
		pb_buf_addstr(b, "</td><td>");
		switch (f->kind) {
		case RP_F_DEVICE:
			d = f->n ? &f->g->hostdev : &f->g->dev;
			pb_buf_addstr(b, f->n ? "host's device " : "device ");
			rp_html_text(b, d->name);
			pb_buf_printf(b,
				      "</td><td>%.2f ms a request</td><td>%.2f "
				      "ms</td>",
				      f->v, f->v2);
			break;
		case RP_F_SERVER:
			rp_html_text(b, srv[f->n] ? srv[f->n] : "server");
			pb_buf_printf(b,
				      "</td><td>%.2f ms a write</td><td>%.2f "
				      "ms</td>",
				      f->v, f->v2);
			break;
		default:
			pb_buf_addstr(b, f->n ? "disk's file on the host"
					      : "file");
			pb_size_format(a, sizeof(a), (uint64_t)f->v);
			pb_size_format(c, sizeof(c), (uint64_t)f->v2);
			pb_buf_printf(b,
				      "</td><td>%s allocated, %s converted</td>"
				      "<td>",
				      a, c);
			if (isnan(f->lo))
				pb_buf_addstr(b, "-");
			else
				pb_buf_printf(b, "%s changed",
					      pb_size_format(a, sizeof(a),
							     (uint64_t)f->lo));
			pb_buf_addstr(b,
				      "</td><td>-</td><td>counted</td></tr>\n");
			continue;
		}
		if (isnan(f->x))
			pb_buf_addstr(b, "<td>-</td>");
		else if (isnan(f->lo))
			pb_buf_printf(b, "<td>%.2fx</td>", f->x);
		else
			pb_buf_printf(b, "<td>%.2fx [%.2f-%.2f]</td>", f->x,
				      f->lo, f->hi);
		pb_buf_printf(b, "<td>%s</td></tr>\n", rp_sig_name(f->sig));
	}
	if (n)
		pb_buf_addstr(b, "</table>\n");
}

/* UTC as run.json says it, and the same moment in the reader's zone */
static void when(struct pb_buf *b, const char *iso)
{
	struct tm tm = {0}, lt;
	char out[64];
	time_t t;

	rp_html_text(b, *iso ? iso : "unknown");
	if (!*iso || !strptime(iso, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return;
	t = timegm(&tm);
	if (localtime_r(&t, &lt) &&
	    strftime(out, sizeof(out), "%Y-%m-%d %H:%M:%S %Z", &lt))
		pb_buf_printf(b, " (%s local)", out);
}

static const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static void gib(struct pb_buf *b, json_t *n)
{
	if (json_is_number(n))
		pb_buf_printf(b, "%.1f GiB",
			      json_number_value(n) / 1073741824.0);
}

static void head_row(struct pb_buf *b, const char *k, const char *v)
{
	if (!v || !*v)
		return;
	pb_buf_printf(b, "<tr><th>%s</th><td>", k);
	rp_html_text(b, v);
	pb_buf_addstr(b, "</td></tr>");
}

/* Which run, when, with what, where: the page's first lines. */
static void header(struct pb_buf *b, const struct rp_model *m)
{
	json_t *env = m->env, *srv = json_object_get(env, "server");
	json_t *host = json_object_get(env, "host");
	json_t *ds = json_object_get(env, "datastore");
	json_t *lun = json_object_get(env, "lun");
	char t[512];

	pb_buf_addstr(b, "<table class=head>");
	head_row(b, "profile", m->profile_name);
	/* what was measured, before where and when */
	head_row(b, "description",
		 json_string_value(json_object_get(m->profile, "description")));
	rp_measured_text(t, sizeof(t), m);
	head_row(b, "measured", t);
	head_row(b, "run", m->run);
	pb_buf_addstr(b, "<tr><th>started</th><td>");
	when(b, m->started_at);
	pb_buf_addstr(b, "</td></tr><tr><th>ended</th><td>");
	if (m->finished)
		when(b, m->updated_at);
	else
		pb_buf_addstr(b, "<span class=bad>not finished</span> (last "
				 "written ");
	if (!m->finished) {
		when(b, m->updated_at);
		pb_buf_addstr(b, ")");
	}
	if (m->interrupted)
		pb_buf_addstr(b, " <span class=bad>interrupted</span>");
	pb_buf_addstr(b, "</td></tr>");
	snprintf(t, sizeof(t), "%s (commit %s)", *m->version ? m->version : "?",
		 *m->commit ? m->commit : "unknown");
	head_row(b, "provbench", t);
	snprintf(t, sizeof(t), "%s%s%s", m->backend, *m->accel ? ", " : "",
		 m->accel);
	head_row(b, "backend", t);
	if (json_is_object(srv)) {
		int k = snprintf(t, sizeof(t), "%s", jstr(srv, "product"));

		if (*jstr(srv, "build") && k > 0 && (size_t)k < sizeof(t))
			snprintf(t + k, sizeof(t) - (size_t)k,
				 " (build %s, API %s)", jstr(srv, "build"),
				 jstr(srv, "api_version_used"));
		head_row(b, "server", t);
	}
	if (json_is_object(host)) {
		snprintf(t, sizeof(t), "%s (ESXi %s, build %s)",
			 jstr(host, "name"), jstr(host, "version"),
			 jstr(host, "build"));
		head_row(b, "host", t);
	} else if (json_is_string(host)) {
		head_row(b, "host", json_string_value(host));
	}
	if (json_is_object(ds)) {
		pb_buf_addstr(b, "<tr><th>datastore</th><td>");
		rp_html_text(b, jstr(ds, "name"));
		pb_buf_addstr(b, " (");
		rp_html_text(b, jstr(ds, "type"));
		if (json_is_number(json_object_get(ds, "capacity"))) {
			pb_buf_addstr(b, ", ");
			gib(b, json_object_get(ds, "capacity"));
			pb_buf_addstr(b, ", ");
			gib(b, json_object_get(ds, "free_at_start"));
			pb_buf_addstr(b, " free at the start");
		}
		pb_buf_addstr(b, ")</td></tr>");
	} else if (m->datastore[0]) {
		snprintf(t, sizeof(t), "%s (%s)", m->datastore,
			 jstr(env, "datastore_fs"));
		head_row(b, "disk directory", t);
	}
	head_row(b, "VM", m->vm);
	if (m->ntinfo > 1) {
		/* the first target's place is above; every target's here */
		pb_buf_addstr(b, "<tr><th>targets</th><td>");
		for (size_t i = 0; i < m->ntinfo; i++) {
			const struct rp_target_info *ti = &m->tinfo[i];

			pb_buf_addstr(b, i ? "<br>" : "");
			rp_html_text(b, ti->name);
			pb_buf_addstr(b, ": ");
			rp_html_text(b, ti->vm);
			pb_buf_addstr(b, *ti->vm && *ti->datastore ? ", " : "");
			rp_html_text(b, ti->datastore);
		}
		pb_buf_addstr(b, "</td></tr>");
	}
	if (json_is_object(lun)) {
		pb_buf_addstr(b, "<tr><th>LUN</th><td>");
		rp_html_text(b, jstr(lun, "canonical_name"));
		pb_buf_addstr(b, " (");
		rp_html_text(b, jstr(lun, "vendor"));
		pb_buf_addstr(b, " ");
		rp_html_text(b, jstr(lun, "model"));
		pb_buf_addstr(b, ", ");
		gib(b, json_object_get(lun, "capacity"));
		pb_buf_addstr(b, ")</td></tr>");
	}
	pb_buf_addstr(b, "</table>\n");
}

static void summary_table(struct pb_buf *b, const struct rp_model *m)
{
	char def[320];
	const struct rp_column *c;
	size_t i;

	/* a column nobody has is left out: the table fits one column */
	pb_buf_addstr(b, "<h2>Summary</h2><table class=sum><tr><th>mode</th>"
			 "<th>reps</th>");
	for (c = rp_columns; c->csv; c++) {
		const char *u = c->unit == RP_UNIT_RATE ? m->rate_unit
							: rp_unit_name(c->unit);
		char head[64];

		if (!rp_column_shown(c, m, RP_COL_HTML))
			continue;
		snprintf(head, sizeof(head), "%s", c->head);
		rp_later_words(head, sizeof(head), m);
		pb_buf_printf(b, "<th>%s", head);
		if (c->unit == RP_UNIT_RATE || c->unit == RP_UNIT_S ||
		    c->unit == RP_UNIT_PCT)
			pb_buf_printf(b, " %s", u);
		pb_buf_addstr(b, "</th>");
	}
	pb_buf_addstr(b, "</tr>\n");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		pb_buf_addstr(b, "<tr><td>");
		swatch(b, g->pmode);
		/* a mode the server made as another is named by it, red */
		if (g->mismatch)
			pb_buf_addstr(b, "<span class=bad>");
		label(b, g);
		if (g->mismatch)
			pb_buf_addstr(b, "</span>");
		pb_buf_printf(b, "</td><td class=n>%zu", g->nok);
		if (g->nfailed)
			pb_buf_printf(b, " <span class=bad>+%zu failed</span>",
				      g->nfailed);
		if (g->nskipped)
			pb_buf_printf(b, " <span class=warn>%zu skipped</span>",
				      g->nskipped);
		pb_buf_addstr(b, "</td>");
		for (c = rp_columns; c->csv; c++) {
			char t[160], iv[64];

			if (!rp_column_shown(c, m, RP_COL_HTML))
				continue;
			rp_cell(t, sizeof(t), iv, sizeof(iv), c, m, g);
			pb_buf_printf(b, "<td%s>", c->text ? "" : " class=n");
			rp_html_text(b, t);
			if (*iv)
				pb_buf_printf(b, "<br><small>%s</small>", iv);
			pb_buf_addstr(b, "</td>");
		}
		pb_buf_addstr(b, "</tr>\n");
	}
	rp_penalty_define(def, sizeof(def), rp_later_name(m), m->baseline,
			  rp_any_paired(m));
	pb_buf_printf(b,
		      "</table>\n<p class=note>Medians over repetitions, "
		      "with their 95%% interval below (none with one "
		      "repetition). %c%s. "
		      "Steady from: where %ss hold steady across passes "
		      "(SNIA PTS's test).%s</p>\n",
		      toupper((unsigned char)def[0]), def + 1, rp_later_name(m),
		      m->later_set && m->later == RUNNER_PASS_RECREATE
			      ? " A recreate deletes the file and writes a new "
				"one; a rewrite overwrites it in place."
			      : "");
}

/*
 * The same mode on each target side by side (a datastore comparison):
 * the warm-up penalty with its interval, and the first write, per target;
 * the verdict says which differences are beyond noise.
 */
static void across_table(struct pb_buf *b, const struct rp_model *m)
{
	const struct rp_group *t[PB_MAX_ACROSS];
	size_t i, k, n, c;

	if (m->ntinfo < 2)
		return;
	pb_buf_addstr(b, "<h2>Across targets</h2><table class=sum><tr>"
			 "<th>mode</th>");
	for (c = 0; c < m->ntinfo; c++) {
		pb_buf_addstr(b, "<th>");
		rp_html_text(b, m->tinfo[c].name);
		pb_buf_addstr(b, "</th>");
	}
	pb_buf_addstr(b, "</tr>\n");
	for (i = 0; i < m->ng; i++) {
		n = rp_across(m, &m->g[i], t, PB_MAX_ACROSS);
		if (t[0] != &m->g[i])
			continue; /* a row per mode and point, at its first */
		pb_buf_addstr(b, "<tr><td>");
		swatch(b, m->g[i].pmode);
		rp_html_text(b, m->g[i].mode);
		if (*m->g[i].workload) {
			pb_buf_addstr(b, " ");
			rp_html_text(b, m->g[i].workload);
		}
		pb_buf_addstr(b, "</td>");
		for (c = 0; c < m->ntinfo; c++) {
			const struct rp_group *g = NULL;

			for (k = 0; k < n; k++)
				if (t[k]->target == (long long)c)
					g = t[k];
			if (!g || isnan(g->penalty)) {
				pb_buf_addstr(b, "<td class=n>&ndash;</td>");
				continue;
			}
			td_iv(b, g->penalty, g->penalty_lo, g->penalty_hi, 100,
			      0, "%");
		}
		pb_buf_addstr(b, "</tr>\n");
	}
	pb_buf_addstr(b, "</table>\n<p class=note>First-write penalty per "
			 "target, with its 95% interval below; figures per "
			 "target are in the summary.</p>\n");
}

/* Items that did not measure: what, where it stopped, why. */
static void failures(struct pb_buf *b, const struct rp_model *m)
{
	size_t i;

	if (!m->nfail)
		return;
	pb_buf_addstr(b,
		      "<h2>Failed and skipped</h2><table class=fail><tr>"
		      "<th>mode</th><th>rep</th><th>target, workload</th><th>"
		      "status</th><th>step</th><th>reason</th></tr>\n");
	for (i = 0; i < m->nfail; i++) {
		const struct rp_failure *f = &m->fail[i];

		pb_buf_addstr(b, "<tr><td>");
		swatch(b, f->mode);
		rp_html_text(b, pb_mode_name(f->mode));
		pb_buf_printf(b, "</td><td class=n>%lld</td><td>", f->rep);
		if (*f->target_name) {
			rp_html_text(b, f->target_name);
			pb_buf_addstr(b, *f->workload ? ", " : "");
		}
		rp_html_text(b, *f->workload || *f->target_name ? f->workload
								: "\u2013");
		pb_buf_printf(b, "</td><td class=%s>%s</td><td>",
			      f->status == RJ_STATUS_SKIPPED ? "warn" : "bad",
			      rj_status_name(f->status));
		rp_html_text(b, *f->step ? f->step : "\u2013");
		pb_buf_addstr(b, "</td><td>");
		rp_html_text(b, f->error);
		pb_buf_addstr(b, "</td></tr>\n");
	}
	pb_buf_addstr(b, "</table>\n");
}

/* ---- charts: axes with ticks and gridlines, legends below the plot ---- */

/* the charts of this page start at 0 */
static double y_axis(struct pb_buf *b, double x0, double x1, double y0,
		     double h, double max, const char *unit)
{
	double lo = 0;

	return rp_y_axis(b, x0, x1, y0, h, &lo, max, unit);
}

struct legend {
	struct pb_buf *b;
	double x0, x, y, xmax;
};

/* One entry: a line (dash) or a box in a colour, then its text; rows
 * wrap at xmax. Widths are estimated (11 px text: ~6.6 px a character),
 * generously, so entries never run into each other. */
static void legend_add(struct legend *l, const char *colour, const char *dash,
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
static void chart_emit(struct pb_buf *out, const char *heading, const char *id,
		       double w, double h, const char *label,
		       struct pb_buf *body)
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

/* Grouped bars: first write (light) and rewrite (solid) per mode in its
 * colour, interval whiskers, the value on each bar; the workload point
 * named once under its modes. */
static void bar_chart(struct pb_buf *out, const struct rp_model *m)
{
	struct pb_buf body = PB_BUF_INIT(1u << 26), *b = &body;
	const double H = 240, top = 30, left = 64, gw = 96, bw = 34;
	const double u = rp_rate(m, 1.0); /* the run's rate unit */
	double max = 1, w, ymax, x, base = NAN, y;
	struct legend lg;
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
	lg = (struct legend){b, left, left, top + H + 62, w - 10};
	for (i = 0; i < m->ng; i++) {
		for (j = 0; j < i && m->g[j].pmode != m->g[i].pmode; j++)
			;
		if (j == i)
			legend_add(&lg, rp_mode_colour(m->g[i].pmode), "", true,
				   1, m->g[i].mode);
	}
	legend_add(&lg, "#777", "", true, 0.35, "first write (light)");
	snprintf(t2, sizeof(t2), "%s (solid)", rp_later_name(m));
	legend_add(&lg, "#777", "", true, 1, t2);
	legend_add(&lg, "#222", "", false, 1, "whisker: 95% interval");
	if (!isnan(base)) {
		char t[96];

		snprintf(t, sizeof(t), "dashed: baseline (%s) first write",
			 m->baseline);
		legend_add(&lg, "#333", "6 4", false, 1, t);
	}
	{
		char title[64], alt[96];

		snprintf(title, sizeof(title), "First write against %s",
			 rp_later_name(m));
		snprintf(alt, sizeof(alt), "first write and %s %s per mode",
			 rp_later_name(m), m->rate_unit);
		chart_emit(out, title, "bars", w, lg.y + 12, alt, &body);
	}
}

/*
 * The first write, a panel per mode (one repetition's pass): throughput
 * so far (all bytes written over all the time taken: a smooth line that
 * reads as "how fast has it been"), each interval's own rate faint behind
 * it, and the mode's rewrite median marked, on one x (data written) and
 * one y (MiB/s) for every panel, so the modes compare at a glance.
 */
static void warmup_panels(struct pb_buf *out, const struct rp_model *m)
{
	struct pb_buf body = PB_BUF_INIT(1u << 28), *b = &body;
	const double W = 760, PH = 84, GAP = 30, left = 64, top = 24;
	const double u = rp_rate(m, 1.0); /* the run's rate unit */
	double maxx = 1, maxy = 1, y0, unit, xstep, xt;
	struct legend lg;
	char t2[96];
	size_t i, np = 0, k;
	struct jl *pt;

	for (i = 0; i < m->ng; i++) {
		double cum = 0;

		if (!m->g[i].curve)
			continue;
		np++;
		jl_foreach(m->g[i].curve, pt)
		{
			cum += jl_num(jl_get(pt, RUNNER_K_BYTES));
			maxy = fmax(maxy,
				    u * jl_num(jl_get(pt, RUNNER_K_MIB_PER_S)));
		}
		maxx = fmax(maxx, cum);
		if (m->g[i].rewrite_med * u > maxy)
			maxy = m->g[i].rewrite_med * u;
	}
	if (!np)
		return;
	maxy = rp_nice_step(maxy * 1.1, 1) *
	       ceil(maxy * 1.1 / rp_nice_step(maxy * 1.1, 1));
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
	lg = (struct legend){b, left, left, y0 + 50, W - 10};
	legend_add(&lg, "#555", "", false, 1, "throughput so far");
	legend_add(&lg, "#bbb", "", false, 1, "each interval's");
	snprintf(t2, sizeof(t2), "the mode's %s median", rp_later_name(m));
	legend_add(&lg, "#333", "4 3", false, 1, t2);
	y0 = lg.y - 40;
	chart_emit(out, "Warm-up during the first write", "curves", W, y0 + 52,
		   "first-write throughput against data written, a panel per "
		   "mode",
		   &body);
}

/* Median throughput over successive passes: does it converge? */
static void convergence(struct pb_buf *out, const struct rp_model *m)
{
	struct pb_buf body = PB_BUF_INIT(1u << 26), *b = &body;
	const double W = 640, H = 200, left = 64, top = 30;
	const double u = rp_rate(m, 1.0); /* the run's rate unit */
	unsigned maxk = 1;
	double maxy = 1, step, ymax;
	struct legend lg;
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
	lg = (struct legend){b, left, left, top + H + 56, W - 10};
	for (i = 0; i < m->ng; i++) {
		char t[300];

		if (isnan(m->g[i].first_med))
			continue;
		group_text(t, sizeof(t), &m->g[i]);
		legend_add(&lg, rp_mode_colour(m->g[i].pmode),
			   point_dash(&m->g[i]), false, 1, t);
	}
	{
		char title[64];

		snprintf(title, sizeof(title), "Convergence over %ss",
			 rp_later_name(m));
		chart_emit(out, title, "conv", W, lg.y + 12,
			   "median throughput per pass", &body);
	}
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
			 "<th>command s</th><th>&times; baseline</th></tr>\n");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		pb_buf_addstr(b, "<tr><td>");
		swatch(b, g->pmode);
		label(b, g);
		pb_buf_addstr(b, "</td>");
		td_num(b, g->mkfs_med, 2, "");
		td_iv(b, g->cmd_med, g->cmd_lo, g->cmd_hi, 1, 2, "");
		td_num(b, g->cmd_vs_base, 2, "&times;");
		pb_buf_addstr(b, "</tr>\n");
	}
	pb_buf_addstr(b, "</table>\n");
}

/* A byte count's key: shown in GiB, not as a long integer. */
static bool bytes_key(const char *k)
{
	static const char *const names[] = {"capacity", "free_at_start",
					    "size_bytes", "device_bytes"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(k, names[i]))
			return true;
	return false;
}

/* A value of the environment: nested objects as tables of fields, arrays
 * as lists, never raw JSON. */
static void env_value(struct pb_buf *b, const char *k, json_t *v, int depth)
{
	const char *kk;
	json_t *x;
	size_t i;

	if (json_is_object(v) && depth < 4) {
		pb_buf_addstr(b, "<table class=kv>");
		json_object_foreach(v, kk, x)
		{
			pb_buf_addstr(b, "<tr><th>");
			rp_html_text(b, kk);
			pb_buf_addstr(b, "</th><td>");
			env_value(b, kk, x, depth + 1);
			pb_buf_addstr(b, "</td></tr>");
		}
		pb_buf_addstr(b, "</table>");
	} else if (json_is_array(v) && depth < 4) {
		pb_buf_addstr(b, "<ul class=kv>");
		json_array_foreach(v, i, x)
		{
			pb_buf_addstr(b, "<li>");
			env_value(b, k, x, depth + 1);
			pb_buf_addstr(b, "</li>");
		}
		pb_buf_addstr(b, "</ul>");
	} else if (json_is_number(v) && bytes_key(k)) {
		gib(b, v);
	} else if (json_is_string(v)) {
		rp_html_text(b, json_string_value(v));
	} else if (json_is_null(v)) {
		pb_buf_addstr(b, "&ndash;");
	} else {
		char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

		rp_html_text(b, text);
		free(text);
	}
}

static void environment(struct pb_buf *b, const struct rp_model *m)
{
	char *text;

	pb_buf_addstr(b, "<h2>Environment</h2>");
	env_value(b, "", m->env, 0);
	pb_buf_addstr(b, "<h2>Profile</h2><pre>");
	text = m->profile ? json_dumps(m->profile,
				       JSON_INDENT(2) | JSON_PRESERVE_ORDER)
			  : NULL;
	rp_html_text(b, text);
	free(text);
	pb_buf_addstr(b, "</pre>\n");
}

/* a change: worse red, better green, within noise neutral */
static void change_cell(struct pb_buf *b, const struct rp_model *m,
			const struct rp_finding *f)
{
	const char *cls;
	char tn[96];

	if (!f) {
		pb_buf_addstr(b, "<td class=n>&ndash;</td>");
		return;
	}
	cls = f->sig != RP_SIG_YES ? "n" : f->x < 0 ? "n bad" : "n good";
	rp_change_then_now(tn, sizeof(tn), m, f);
	pb_buf_printf(b, "<td class=\"%s\">", cls);
	rp_html_text(b, tn);
	pb_buf_printf(b,
		      " (%+.1f%%)<br>"
		      "<small>%s%s</small></td>",
		      f->x,
		      f->sig == RP_SIG_YES   ? "beyond noise"
		      : f->sig == RP_SIG_FEW ? "too few to tell"
					     : "within noise",
		      f->regressed ? ": a regression" : "");
}

/* The change of a group's figure (metric) against the older run. */
static const struct rp_finding *change_of(const struct rp_findings *fs,
					  const struct rp_group *g,
					  const char *metric)
{
	for (size_t i = fs->nheadline; i < fs->n; i++)
		if (fs->f[i].kind == RP_F_CHANGE && fs->f[i].g == g &&
		    !strcmp(fs->f[i].metric, metric))
			return &fs->f[i];
	return NULL;
}

/* With --compare, right after the answer: each group then and now. */
static void comparison(struct pb_buf *b, const struct rp_model *m,
		       const struct rp_model *old, const struct rp_findings *fs)
{
	size_t i;

	pb_buf_addstr(b, "<h2>Compared with ");
	rp_html_text(b, old->run);
	pb_buf_addstr(b, "</h2>");
	differ_note(b, m->compare_note, "compared");
	pb_buf_printf(b,
		      "<p class=note>%s then &rarr; now, and the first "
		      "write's rate as a share of the later writes' in its "
		      "own run (drift between the runs cancels in it); a "
		      "change is marked (red: slower, green: faster) only "
		      "when its 99%% interval (Welch's t on the repetitions' "
		      "logs) leaves out none.</p><table><tr>"
		      "<th>mode</th><th>first write</th><th>%s</th>"
		      "<th>first write against %s</th></tr>",
		      m->rate_unit, rp_later_name(m), rp_later_name(m));
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		const struct rp_finding *fw = change_of(fs, g, "first-write");
		const struct rp_finding *rw = change_of(fs, g, "rewrite");
		const struct rp_finding *vs =
			change_of(fs, g, RP_METRIC_VS_LATER);

		pb_buf_addstr(b, "<tr><td>");
		swatch(b, g->pmode);
		label(b, g);
		pb_buf_addstr(b, "</td>");
		if (!fw && !rw) {
			pb_buf_addstr(b, "<td colspan=3>not in that run</td>"
					 "</tr>");
			continue;
		}
		change_cell(b, m, fw);
		change_cell(b, m, rw);
		change_cell(b, m, vs);
		pb_buf_addstr(b, "</tr>");
	}
	pb_buf_addstr(b, "</table>\n");
}

enum pb_error rp_write_html(const struct rp_model *m,
			    const struct rp_model *old,
			    const struct rp_findings *fs, struct pb_buf *b)
{
	char def[320];
	const char *partial =
		!(fs->nheadline && fs->f[0].kind == RP_F_H_PARTIAL) ? ""
		: m->interrupted ? " (INTERRUPTED: partial)"
		: !m->finished	 ? " (UNFINISHED: partial)"
				 : " (INCOMPLETE: items failed)";

	pb_buf_addstr(b, "<!DOCTYPE html>\n<html lang=en><head><meta "
			 "charset=utf-8><meta name=viewport content=\"width="
			 "device-width\"><title>provbench report: ");
	rp_html_text(b, m->profile_name);
	pb_buf_addstr(b, " ");
	rp_html_text(b, m->run);
	pb_buf_printf(b,
		      "%s</title><style>%s</style></head><body>\n<h1>"
		      "provbench: ",
		      partial, rp_html_style);
	rp_html_text(b, m->profile_name);
	pb_buf_printf(b, "%s%s%s</h1>\n", *partial ? "<span class=bad>" : "",
		      partial, *partial ? "</span>" : "");
	header(b, m);
	if (*m->accel && strcmp(m->accel, "kvm")) {
		/* run.json's words are text, never markup */
		pb_buf_addstr(b, "<p class=warn>Accelerator ");
		rp_html_text(b, m->accel);
		pb_buf_addstr(b, ": the figures carry emulation overhead and "
				 "compare only with runs of the same "
				 "accelerator.</p>\n");
	}
	if (m->nmore) {
		/* a merge: which runs, and how they differ if forced */
		pb_buf_addstr(b, "<p class=note>Merged runs: ");
		rp_html_text(b, m->run);
		for (size_t i = 0; i < m->nmore; i++) {
			pb_buf_addstr(b, ", ");
			rp_html_text(b, m->more[i].run);
		}
		pb_buf_addstr(b, "; each run's targets are its own.</p>\n");
	}
	differ_note(b, m->merge_note, "merged");
	answer(b, m, fs);
	/* with --compare, the comparison follows the answer */
	if (old)
		comparison(b, m, old, fs);
	summary_table(b, m);
	across_table(b, m);
	rp_fleet_html(m, b);
	failures(b, m);
	findings(b, m, fs);
	attribution(b, m, fs);
	bar_chart(b, m);
	warmup_panels(b, m);
	convergence(b, m);
	fs_commands(b, m);
	rp_penalty_define(def, sizeof(def), rp_later_name(m), m->baseline,
			  rp_any_paired(m));
	pb_buf_printf(
		b,
		"<h2>How to read this</h2><p class=note>Medians over "
		"repetitions; intervals are 95%% percentile-bootstrap "
		"intervals of the median (2000 resamples, fixed seed; "
		"above 50 repetitions the order-statistic interval); "
		"under 3 repetitions no interval. Baseline: %s%s. "
		"Warm-up %s; a "
		"geometric mean over repetitions with its 95%% "
		"Student's t interval (Welch's against the baseline), "
		"none under 3 repetitions: two values cannot tell "
		"noise. Ratios to the baseline whose interval holds 1 "
		"are within noise. Steady from: the first pass of a "
		"window of %u passes (2 for a mode with 3 passes or "
		"fewer; each pass's median over "
		"repetitions) whose range is within %.0f%% of their "
		"mean and whose least-squares slope moves them by no "
		"more than %.0f%% of it (SNIA PTS's steady-state test).%s "
		"Every rule is in docs/reports.md.</p>\n",
		m->baseline,
		m->have_baseline ? ""
				 : " &mdash; <span class=bad>absent from "
				   "this run: ratios not shown</span>",
		def, m->pts.window, m->pts.range * 100, m->pts.slope * 100,
		rp_any_rewarm(m) ? " Again: the warm-up penalty of the first "
				   "write after a reclaim (the disk's blocks "
				   "given back), told the same way against the "
				   "first cycle's baseline; the passes after a "
				   "reclaim are never pooled with the first "
				   "cycle's."
				 : "");
	environment(b, m);
	return pb_buf_addstr(b, "</body></html>\n");
}

void rp_fleet_html(const struct rp_model *m, struct pb_buf *b)
{
	const struct rp_fleet *f = &m->fleet;
	char agg[160], pass[48];
	size_t i;

	if (!f->nrow)
		return;
	pb_buf_printf(b,
		      "<h2>Targets at once</h2><table class=sum><tr><th>mode"
		      "</th><th>workload</th><th>pass</th><th>waves</th><th>"
		      "targets</th><th>aggregate</th><th>per target %s"
		      "</th><th>spread</th></tr>\n",
		      m->rate_unit);
	for (i = 0; i < f->nrow; i++) {
		const struct rp_fleet_row *r = &f->row[i];

		rp_fleet_agg_text(agg, sizeof(agg), m, r);
		rp_fleet_pass_name(pass, sizeof(pass), r);
		pb_buf_printf(b, "<tr><td>%s</td><td>", pb_mode_name(r->mode));
		rp_html_text(b, *r->workload ? r->workload : "-");
		pb_buf_addstr(b, "</td><td>");
		rp_html_text(b, pass);
		pb_buf_printf(b,
			      "</td><td class=n>%zu</td><td class=n>%u</td>"
			      "<td>",
			      r->nwaves, r->ntargets);
		rp_html_text(b, agg);
		if (isnan(r->tmin))
			pb_buf_addstr(b, "</td><td class=n>&ndash;</td>");
		else
			pb_buf_printf(b,
				      "</td><td class=n>%.1f&ndash;%.1f"
				      "</td>",
				      rp_rate(m, r->tmin), rp_rate(m, r->tmax));
		if (isnan(r->spread_med))
			pb_buf_addstr(b, "<td class=n>&ndash;</td></tr>\n");
		else
			pb_buf_printf(b, "<td class=n>%.0f%%</td></tr>\n",
				      r->spread_med * 100.0);
	}
	pb_buf_printf(b,
		      "</table>\n<p class=note>Up to %u targets ran each "
		      "wave at once, one mode on one workload. The "
		      "aggregate sums what every target wrote while all of "
		      "them were running (the overlapping window), over "
		      "that window; the spread is (fastest &minus; slowest) "
		      "/ mean of the targets' own passes, median over "
		      "waves. Passes put on one clock by: ",
		      f->most);
	rp_html_text(b, rp_fleet_clock_note(f));
	pb_buf_addstr(b, ".</p>\n");
}
