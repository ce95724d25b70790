/*
 * text.c - the terminal's summary and summary.txt: the run's line, the
 * answer, a table of each mode and the findings, ranked. On a terminal it
 * fits 100 columns (issue 53: a narrow table, lines wrapped, the first 7
 * findings), coloured only where it may; summary.txt and --wide have
 * every column with its interval, --all every finding.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "findings.h"
#include "fleet.h"
#include "lines.h"
#include "model.h"
#include "phrase.h"
#include "text.h"
#include "words.h"

/* ---- the terminal table ---- */

static void cell(struct pb_buf *b, double v, int decimals, const char *unit,
		 int width)
{
	char t[64];

	if (isnan(v))
		snprintf(t, sizeof(t), "-");
	else
		snprintf(t, sizeof(t), "%.*f%s", decimals, v, unit);
	pb_buf_printf(b, "%*s", width, t);
}

/* The text tables' first column: as wide as its longest name (target and
 * workload), 16 to 48 characters; longer ones are cut, the CSVs and the
 * page have them in full. */
static int where_width(const struct rp_model *m)
{
	size_t w = 16;

	for (size_t i = 0; i < m->ng; i++)
		if (strlen(m->g[i].where) > w)
			w = strlen(m->g[i].where);
	return (int)(w > 48 ? 48 : w);
}

/* mkfs and command times per mode, when the workload had them */
static void fs_command_table(const struct rp_model *m, struct pb_buf *b)
{
	int ww = where_width(m);
	size_t i;

	if (!m->fs_note[0] && !m->command)
		return;
	pb_buf_addstr(b, "\n");
	if (m->fs_note[0])
		pb_buf_printf(b, "filesystem: %s\n", m->fs_note);
	if (m->command)
		pb_buf_printf(b, "command: %s\n", m->command);
	pb_buf_printf(b, "%-*s %-6s %8s %10s %19s %8s\n", ww, "workload",
		      "mode", "mkfs s", "command s", "[interval]", "c/base");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char iv[64];

		pb_buf_printf(b, "%-*.*s %-6s", ww, ww,
			      *g->where ? g->where : "-", g->mode);
		cell(b, g->mkfs_med, 2, "", 9);
		cell(b, g->cmd_med, 2, "", 11);
		snprintf(iv, sizeof(iv), "[%.2f-%.2f]", g->cmd_lo, g->cmd_hi);
		pb_buf_printf(b, " %19s", isnan(g->cmd_lo) ? "-" : iv);
		cell(b, g->cmd_vs_base, 2, "", 9);
		pb_buf_addstr(b, "\n");
	}
}

/* "first MiB/s", "penalty %", "provision s" */
static void heading(char *out, size_t len, const struct rp_column *c,
		    const struct rp_model *m)
{
	const char *u =
		c->unit == RP_UNIT_RATE ? m->rate_unit : rp_unit_name(c->unit);

	snprintf(out, len, "%s%s%s", c->head,
		 *u && c->unit != RP_UNIT_RATIO && c->unit != RP_UNIT_COUNT &&
				 c->unit != RP_UNIT_BYTES
			 ? " "
			 : "",
		 c->unit != RP_UNIT_RATIO && c->unit != RP_UNIT_COUNT &&
				 c->unit != RP_UNIT_BYTES
			 ? u
			 : "");
	rp_later_words(out, len, m);
}

/* the table's columns as widths: the widest of the heading and cells */
struct tcol {
	const struct rp_column *c;
	int w, wi; /* the figure's width, its interval's (0: none) */
};

static size_t text_columns(struct tcol *t, size_t max, const struct rp_model *m)
{
	const struct rp_column *c;
	size_t n = 0, i;

	for (c = rp_columns; c->csv && n < max; c++) {
		char h[64], v[160], iv[64];

		if (!rp_column_shown(c, m, RP_COL_TEXT))
			continue;
		heading(h, sizeof(h), c, m);
		t[n] = (struct tcol){c, (int)strlen(h), 0};
		for (i = 0; i < m->ng; i++) {
			rp_cell(v, sizeof(v), iv, sizeof(iv), c, m, &m->g[i]);
			if ((int)strlen(v) > t[n].w)
				t[n].w = (int)strlen(v);
			if ((int)strlen(iv) > t[n].wi)
				t[n].wi = (int)strlen(iv);
		}
		n++;
	}
	return n;
}

/* ---- lines that fit ---- */

/* ANSI colours on a terminal that wants them (issue 53: NO_COLOR) */
#define RED   "\033[31m"
#define BOLD  "\033[1m"
#define RESET "\033[0m"

/*
 * text onto b, wrapped at o->width (0: as it is) on spaces: the first
 * line after indent spaces, the rest after hang; a word longer than a
 * line stands alone.
 */
static void wrap(struct pb_buf *b, const char *text, int indent, int hang,
		 const struct rp_text_opts *o)
{
	int col = indent, width = (int)o->width;
	const char *p = text;

	pb_buf_printf(b, "%*s", indent, "");
	if (!width) {
		pb_buf_printf(b, "%s\n", text);
		return;
	}
	while (*p) {
		size_t n = strcspn(p, " ");

		if (col > (p == text ? indent : hang) &&
		    col + 1 + (int)n > width) {
			pb_buf_printf(b, "\n%*s", hang, "");
			col = hang;
		} else if (p != text) {
			pb_buf_addstr(b, " ");
			col++;
		}
		pb_buf_add(b, p, n);
		col += (int)n;
		p += n;
		while (*p == ' ')
			p++;
	}
	pb_buf_addstr(b, "\n");
}

/* a heading, bold on a terminal that wants colour */
static void head(struct pb_buf *b, const char *text,
		 const struct rp_text_opts *o)
{
	pb_buf_printf(b, "\n%s%s:%s\n", o->color ? BOLD : "", text,
		      o->color ? RESET : "");
}

/*
 * The narrow table (issue 53: 100 columns): each mode's penalty with its
 * interval, its rates and the baseline ratio, provisioning, the precision
 * form's stop and the status; the rates' intervals, the settling and the
 * notes are the wide table's (--wide), the page's and summary.txt's.
 */
static void narrow_table(const struct rp_model *m, struct pb_buf *b, int ww,
			 const struct rp_text_opts *o)
{
	char v[160], iv[64], pen[96], st[64];
	size_t i;

	pb_buf_printf(b, "%-*s  %-15s %8s %8s %10s %7s", ww, "mode",
		      "penalty [95%]", "first", rp_later_name(m), "first/base",
		      "prov s");
	if (m->seq.on)
		pb_buf_printf(b, "  %-16s", "stopped");
	pb_buf_printf(b, "  status\n%-*s  %-15s %17s\n", ww, "", "",
		      m->rate_unit);
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		bool beyond = g->penalty_lo > 0;
		char l[512];

		rp_group_label(l, sizeof(l), g, true);
		pb_buf_printf(b, "%-*.*s  ", ww, ww, l);
		rp_pct_text(v, sizeof(v), g->penalty);
		rp_pct_interval(iv, sizeof(iv), g->penalty_lo, g->penalty_hi);
		snprintf(pen, sizeof(pen), "%s %s", v,
			 isnan(g->penalty_lo) ? "" : iv);
		pb_buf_printf(b, "%s%-15s%s", o->color && beyond ? RED : "",
			      pen, o->color && beyond ? RESET : "");
		cell(b, rp_rate(m, g->first_med), 1, "", 9);
		cell(b, rp_rate(m, g->rewrite_med), 1, "", 9);
		cell(b, g->first_vs_base, 2, "x", 11);
		cell(b, g->prov_med, 2, "", 8);
		if (m->seq.on) {
			rp_stop_cell(st, sizeof(st), m, g);
			pb_buf_printf(b, "  %-16.16s", st);
		}
		pb_buf_printf(b, "  %s\n", rp_group_status(g));
	}
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char l[512], t[1024];

		if (!g->nfailed && !g->nskipped)
			continue;
		rp_group_label(l, sizeof(l), g, true);
		snprintf(t, sizeof(t), "%s: %s", l, g->first_error);
		wrap(b, t, 2, 4, o);
	}
}

/* the wide table: every column the pages have, each with its interval */
static void wide_table(const struct rp_model *m, struct pb_buf *b, int ww)
{
	struct tcol t[32];
	size_t nt = text_columns(t, 32, m), i, k;

	pb_buf_printf(b, "%-*s", ww, "mode");
	for (k = 0; k < nt; k++) {
		char h[64];

		heading(h, sizeof(h), t[k].c, m);
		pb_buf_printf(b, "  %*s", t[k].c->text ? -t[k].w : t[k].w, h);
		if (t[k].wi)
			pb_buf_printf(b, " %-*s", t[k].wi, "");
	}
	pb_buf_addstr(b, "  notes\n");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		const char *st = rp_group_status(g), *why = "";
		size_t sl = strlen(st);
		char l[512];

		rp_group_label(l, sizeof(l), g, true);
		pb_buf_printf(b, "%-*.*s", ww, ww, l);
		for (k = 0; k < nt; k++) {
			char v[160], iv[64];

			rp_cell(v, sizeof(v), iv, sizeof(iv), t[k].c, m, g);
			/* words read left to right: left-aligned */
			pb_buf_printf(b, "  %*s",
				      t[k].c->text ? -t[k].w : t[k].w, v);
			if (t[k].wi)
				pb_buf_printf(b, " %-*s", t[k].wi, iv);
		}
		/* "failed: failed: ..." once: the error may already start
		 * with the status */
		if (g->nfailed || g->nskipped)
			why = g->first_error;
		if (!strncmp(why, st, sl) && why[sl] == ':')
			why += sl + 2;
		pb_buf_printf(b, "  %s%s%s\n", st, *why ? ": " : "", why);
	}
}

/* the findings after the answer, ranked; all, or the first few and how
 * many more there are */
static void findings_text(const struct rp_model *m,
			  const struct rp_findings *fs, struct pb_buf *b,
			  const struct rp_text_opts *o)
{
	struct rp_lines ls;
	size_t i, shown;

	if (rp_lines_build(&ls, m, fs) || !ls.n) {
		rp_lines_dispose(&ls);
		return;
	}
	head(b, "findings", o);
	shown = o->all || ls.n <= RP_LINES_SHOWN ? ls.n : RP_LINES_SHOWN;
	for (i = 0; i < shown; i++)
		wrap(b, ls.l[i].text, 2, 4, o);
	if (shown < ls.n)
		pb_buf_printf(b,
			      "  (%zu more: provbench report --all, or the "
			      "page)\n",
			      ls.n - shown);
	rp_lines_dispose(&ls);
}

void rp_text_table(const struct rp_model *m, const struct rp_findings *fs,
		   const struct rp_text_opts *o, struct pb_buf *b)
{
	int ww = 4;
	char line[4096], def[320], ivname[192], t[4400];
	bool partial = fs->nheadline && fs->f[0].kind == RP_F_H_PARTIAL;
	size_t i, k;

	/* an interrupted or failed run says so in its first line */
	pb_buf_printf(b, "provbench report: %s (%s%s%s)%s\n", m->profile_name,
		      m->backend, *m->accel ? ", " : "", m->accel,
		      !partial	       ? ""
		      : m->interrupted ? ": INTERRUPTED, partial results"
		      : !m->finished   ? ": UNFINISHED, partial results"
				       : ": INCOMPLETE, items failed");
	rp_measured_text(line, sizeof(line), m);
	if (*line) {
		snprintf(t, sizeof(t), "measured: %s", line);
		wrap(b, t, 0, 2, o);
	}
	if (m->nmore) {
		pb_buf_printf(b, "merged runs: %s", m->run);
		for (k = 0; k < m->nmore; k++)
			pb_buf_printf(b, ", %s", m->more[k].run);
		pb_buf_addstr(b, " (each run's targets its own)\n");
	}
	if (m->merge_note[0])
		pb_buf_printf(b, "WARNING: the runs differ (%s)\n",
			      m->merge_note);
	head(b, "answer", o);
	for (i = 0; i < fs->nheadline; i++) {
		rp_finding_text(line, sizeof(line), m, &fs->f[i]);
		wrap(b, line, 2, 4, o);
	}
	/* with --compare, the comparison follows the answer */
	if (fs->nchanges) {
		snprintf(t, sizeof(t), "compared with %s", m->compare_run);
		head(b, t, o);
		if (m->compare_note[0])
			pb_buf_printf(b, "  WARNING: the runs differ (%s)\n",
				      m->compare_note);
		for (i = fs->nheadline; i < fs->n; i++)
			if (fs->f[i].kind == RP_F_CHANGE) {
				rp_finding_text(line, sizeof(line), m,
						&fs->f[i]);
				wrap(b, line, 2, 4, o);
			}
	}
	for (i = 0; i < m->ng; i++) {
		char l[512];

		rp_group_label(l, sizeof(l), &m->g[i], true);
		if ((int)strlen(l) > ww)
			ww = (int)strlen(l);
	}
	ww = ww > (o->wide ? 48 : 24) ? (o->wide ? 48 : 24) : ww;
	rp_penalty_define(def, sizeof(def), rp_later_name(m), m->baseline,
			  rp_any_paired(m));
	rp_penalty_iv_say(ivname, sizeof(ivname), &m->seq);
	snprintf(t, sizeof(t), "medians over repetitions%s; %s [%s]%s",
		 o->wide ? ", [95% interval: bootstrap of the median]" : "",
		 def, ivname,
		 rp_any_rewarm(m) && o->wide ? "; again: the same, of the "
					       "first write after a reclaim"
					     : "");
	pb_buf_addstr(b, "\n");
	wrap(b, t, 0, 0, o);
	if (o->wide)
		wide_table(m, b, ww);
	else
		narrow_table(m, b, ww, o);
	rp_fleet_text(m, b);
	findings_text(m, fs, b, o);
	fs_command_table(m, b);
}

void rp_fleet_text(const struct rp_model *m, struct pb_buf *b)
{
	const struct rp_fleet *f = &m->fleet;
	char agg[160], pass[48], tg[64], sp[32];
	size_t i;

	if (!f->nrow)
		return;
	pb_buf_printf(b,
		      "\ntargets at once (up to %u per wave): the aggregate "
		      "sums what every target wrote while all of them ran "
		      "(the overlapping window; passes on one clock: %s); "
		      "median over waves [95%% interval]\n",
		      f->most, rp_fleet_clock_note(f));
	pb_buf_printf(b, "%-24s %-6s %-20s %5s %7s  %-52s %-17s %s\n",
		      "workload", "mode", "pass", "waves", "targets",
		      "aggregate",
		      strcmp(m->rate_unit, "MB/s") ? "per target MiB/s"
						   : "per target MB/s",
		      "spread");
	for (i = 0; i < f->nrow; i++) {
		const struct rp_fleet_row *r = &f->row[i];

		rp_fleet_agg_text(agg, sizeof(agg), m, r);
		rp_fleet_pass_name(pass, sizeof(pass), r);
		snprintf(tg, sizeof(tg), "%.1f-%.1f", rp_rate(m, r->tmin),
			 rp_rate(m, r->tmax));
		snprintf(sp, sizeof(sp), "%.0f%%", r->spread_med * 100.0);
		pb_buf_printf(b,
			      "%-24.24s %-6s %-20s %5zu %7u  %-52s %-17s %s\n",
			      *r->workload ? r->workload : "-",
			      pb_mode_name(r->mode), pass, r->nwaves,
			      r->ntargets, agg, isnan(r->tmin) ? "-" : tg,
			      isnan(r->spread_med) ? "-" : sp);
	}
}
