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
#include "chart.h"
#include "columns.h"
#include "findings.h"
#include "fleet.h"
#include "html.h"
#include "lines.h"
#include "model.h"
#include "phrase.h"
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

static void line_li(struct pb_buf *b, const struct rp_line *l)
{
	pb_buf_printf(b, "<li%s>", l->warning ? " class=warn" : "");
	rp_html_text(b, l->text);
	pb_buf_addstr(b, "</li>\n");
}

/* What the intervals say beyond the answer, ranked (lines.c): the first
 * few, the rest folded (issue 53). */
static void findings(struct pb_buf *b, const struct rp_model *m,
		     const struct rp_findings *fs)
{
	struct rp_lines ls;
	size_t i, shown;

	if (rp_lines_build(&ls, m, fs) || !ls.n) {
		rp_lines_dispose(&ls);
		return;
	}
	shown = ls.n <= RP_LINES_SHOWN ? ls.n : RP_LINES_SHOWN;
	pb_buf_addstr(b, "<h2>Findings</h2><ul class=findings>\n");
	for (i = 0; i < shown; i++)
		line_li(b, &ls.l[i]);
	pb_buf_addstr(b, "</ul>\n");
	if (shown < ls.n) {
		pb_buf_printf(b,
			      "<details class=more><summary>%zu more "
			      "finding%s</summary><ul>\n",
			      ls.n - shown, ls.n - shown == 1 ? "" : "s");
		for (; i < ls.n; i++)
			line_li(b, &ls.l[i]);
		pb_buf_addstr(b, "</ul></details>\n");
	}
	rp_lines_dispose(&ls);
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

/*
 * The run in one line under the title (issue 53): what (the measured
 * line), where (the backend and the VM or directory, the datastore), when
 * (its start, UTC), and what it stands for: the array, or a local analog
 * of it.
 */
static void run_line(struct pb_buf *b, const struct rp_model *m)
{
	char t[1024];
	bool vsphere = !strcmp(m->backend, "vsphere");

	pb_buf_addstr(b, "<p class=runline>");
	rp_measured_text(t, sizeof(t), m);
	rp_html_text(b, t);
	pb_buf_addstr(b, ".<br>On ");
	rp_html_text(b, m->backend);
	if (*m->accel) {
		pb_buf_addstr(b, " (");
		rp_html_text(b, m->accel);
		pb_buf_addstr(b, ")");
	}
	if (m->vm[0]) {
		pb_buf_addstr(b, ", VM ");
		rp_html_text(b, m->vm);
	}
	if (m->datastore[0]) {
		pb_buf_addstr(b, vsphere ? ", datastore " : ", in ");
		rp_html_text(b, m->datastore);
	}
	pb_buf_addstr(b, ", started ");
	rp_html_text(b, *m->started_at ? m->started_at : "at an unknown time");
	pb_buf_printf(b, "; %s.</p>\n",
		      vsphere ? "measured on the array"
			      : "a local analog of ESXi's provisioning, not "
				"the array");
}

/* Which run, when, with what, where: the page's first lines. */
static void header(struct pb_buf *b, const struct rp_model *m)
{
	json_t *env = m->env, *srv = json_object_get(env, "server");
	json_t *host = json_object_get(env, "host");
	json_t *ds = json_object_get(env, "datastore");
	json_t *lun = json_object_get(env, "lun");
	char t[512];

	pb_buf_addstr(b,
		      "<details class=run><summary>The run: profile, "
		      "description, when, where</summary><table class=head>");
	head_row(b, "profile", m->profile_name);
	/* what was measured, before where and when */
	head_row(b, "description",
		 json_string_value(
			 json_object_get(m->rd.resolved, "description")));
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
	pb_buf_addstr(b, "</table></details>\n");
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

	pb_buf_addstr(b, "<details class=env><summary>Environment and "
			 "profile</summary><h2>Environment</h2>");
	env_value(b, "", m->env, 0);
	pb_buf_addstr(b, "<h2>Profile</h2><pre>");
	text = m->profile ? json_dumps(m->profile,
				       JSON_INDENT(2) | JSON_PRESERVE_ORDER)
			  : NULL;
	rp_html_text(b, text);
	free(text);
	pb_buf_addstr(b, "</pre></details>\n");
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
		      f->gate == RP_GATE_FELL	? ": a regression"
		      : f->gate == RP_GATE_HELD ? ": held"
		      : f->gate == RP_GATE_OPEN ? ": cannot tell yet"
						: "");
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
	char def[320], iv[192], seq[256];
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
	run_line(b, m);
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
	/* the first screen decides (issue 53): the answer and each mode's
	 * penalty; then what else was found, ranked */
	answer(b, m, fs);
	rp_chart_penalty(b, m);
	/* with --compare, the comparison follows the answer */
	if (old)
		comparison(b, m, old, fs);
	findings(b, m, fs);
	summary_table(b, m);
	across_table(b, m);
	rp_fleet_html(m, b);
	failures(b, m);
	attribution(b, m, fs);
	rp_chart_bars(b, m);
	rp_chart_warmup(b, m);
	rp_chart_convergence(b, m);
	rp_chart_tail(b, m);
	fs_commands(b, m);
	header(b, m);
	rp_penalty_define(def, sizeof(def), rp_later_name(m), m->baseline,
			  rp_any_paired(m));
	rp_penalty_iv_say(iv, sizeof(iv), &m->seq);
	rp_seq_say(seq, sizeof(seq), &m->seq);
	pb_buf_printf(
		b,
		"<h2>How to read this</h2><p class=note>Medians over "
		"repetitions; intervals are 95%% percentile-bootstrap "
		"intervals of the median (2000 resamples, fixed seed; "
		"above 50 repetitions the order-statistic interval); "
		"under 3 repetitions no interval. Baseline: %s%s. "
		"Warm-up %s; a "
		"geometric mean over repetitions with its %s (Welch's "
		"against the baseline), "
		"none under 3 repetitions: two values cannot tell "
		"noise.%s%s%s Ratios to the baseline whose interval holds 1 "
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
		def, iv, *seq ? " The run looked after each round: " : "", seq,
		*seq ? "; the stopped column says which rule stopped each "
		       "mode, and when."
		     : "",
		m->pts.window, m->pts.range * 100, m->pts.slope * 100,
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
