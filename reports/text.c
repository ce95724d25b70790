/*
 * text.c - the terminal table and summary.txt.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "findings.h"
#include "fleet.h"
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

void rp_text_table(const struct rp_model *m, const struct rp_findings *fs,
		   struct pb_buf *b)
{
	struct tcol t[32];
	size_t nt = text_columns(t, 32, m), i, k;
	int ww = 4;
	char line[4096], def[320], ivname[192];
	bool partial = fs->nheadline && fs->f[0].kind == RP_F_H_PARTIAL;

	/* an interrupted or failed run says so in its first line */
	pb_buf_printf(b, "provbench report: %s (%s%s%s)%s\n", m->profile_name,
		      m->backend, *m->accel ? ", " : "", m->accel,
		      !partial	       ? ""
		      : m->interrupted ? ": INTERRUPTED, partial results"
		      : !m->finished   ? ": UNFINISHED, partial results"
				       : ": INCOMPLETE, items failed");
	rp_measured_text(line, sizeof(line), m);
	if (*line)
		pb_buf_printf(b, "measured: %s\n", line);
	if (m->nmore) {
		pb_buf_printf(b, "merged runs: %s", m->run);
		for (k = 0; k < m->nmore; k++)
			pb_buf_printf(b, ", %s", m->more[k].run);
		pb_buf_addstr(b, " (each run's targets its own)\n");
	}
	if (m->merge_note[0])
		pb_buf_printf(b, "WARNING: the runs differ (%s)\n",
			      m->merge_note);
	pb_buf_addstr(b, "\nanswer:\n");
	for (i = 0; i < fs->nheadline; i++) {
		rp_finding_text(line, sizeof(line), m, &fs->f[i]);
		pb_buf_printf(b, "  %s\n", line);
	}
	/* with --compare, the comparison follows the answer */
	if (fs->nchanges) {
		pb_buf_printf(b, "\ncompared with %s:\n", m->compare_run);
		if (m->compare_note[0])
			pb_buf_printf(b, "  WARNING: the runs differ (%s)\n",
				      m->compare_note);
		for (i = fs->nheadline; i < fs->n; i++)
			if (fs->f[i].kind == RP_F_CHANGE) {
				rp_finding_text(line, sizeof(line), m,
						&fs->f[i]);
				pb_buf_printf(b, "  %s\n", line);
			}
	}
	for (i = 0; i < m->ng; i++) {
		char l[512];

		rp_group_label(l, sizeof(l), &m->g[i], true);
		if ((int)strlen(l) > ww)
			ww = (int)strlen(l);
	}
	ww = ww > 48 ? 48 : ww;
	rp_penalty_define(def, sizeof(def), rp_later_name(m), m->baseline,
			  rp_any_paired(m));
	rp_penalty_iv_say(ivname, sizeof(ivname), &m->seq);
	pb_buf_printf(b,
		      "\nmedians over repetitions, [95%% interval: bootstrap "
		      "of the median]; %s [%s]%s\n",
		      def, ivname,
		      rp_any_rewarm(m) ? "; again: the same, of the first "
					 "write after a reclaim"
				       : "");
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
		{
			const char *st = rp_group_status(g), *why = "";
			size_t sl = strlen(st);

			/* "failed: failed: ..." once: the error may already
			 * start with the status */
			if (g->nfailed || g->nskipped)
				why = g->first_error;
			if (!strncmp(why, st, sl) && why[sl] == ':')
				why += sl + 2;
			pb_buf_printf(b, "  %s%s%s\n", st, *why ? ": " : "",
				      why);
		}
	}
	rp_fleet_text(m, b);
	for (i = fs->nheadline, k = 0; i < fs->n; i++) {
		if (!rp_finding_listed(&fs->f[i]))
			continue;
		if (!k++)
			pb_buf_addstr(b, "\nfindings:\n");
		rp_finding_text(line, sizeof(line), m, &fs->f[i]);
		pb_buf_printf(b, "  %s\n", line);
	}
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
