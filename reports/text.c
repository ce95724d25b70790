/*
 * text.c - the terminal table and summary.txt.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

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

static void finding_line(const char *line, void *arg)
{
	pb_buf_printf(arg, "  %s\n", line);
}

void rp_text_table(const struct rp_model *m, const struct rp_model *old,
		       struct pb_buf *b)
{
	int ww = where_width(m);
	size_t i;

	pb_buf_printf(b, "provbench report: %s (%s%s%s)\n", m->profile_name,
		      m->backend, *m->accel ? ", " : "", m->accel);
	pb_buf_printf(b,
		      "medians over repetitions; [95%% interval: bootstrap "
		      "of the median]; baseline %s%s%s%s\n\n",
		      m->baseline,
		      m->have_baseline ? ""
				       : " (absent: ratios "
					 "not shown)",
		      m->base_note[0] ? "\n" : "", m->base_note);
	if (m->nmore) {
		pb_buf_printf(b, "merged runs: %s", m->run);
		for (size_t k = 0; k < m->nmore; k++)
			pb_buf_printf(b, ", %s", m->more[k].run);
		pb_buf_addstr(b, " (each run's targets its own)\n");
	}
	if (m->merge_note[0])
		pb_buf_printf(b, "WARNING: the runs differ (%s)\n",
			      m->merge_note);
	{
		struct pb_buf v = PB_BUF_INIT(1u << 20);

		rp_verdict(m, finding_line, &v);
		if (v.len)
			pb_buf_printf(b, "verdict:\n%s\n", v.data);
		pb_buf_dispose(&v);
	}
	pb_buf_printf(b,
		      "%-*s %-6s %8s %19s %8s %19s %8s %9s %7s  %7s  %7s  "
		      "%s\n",
		      ww, "workload", "mode", "first", "[interval]", "rewrite",
		      "[interval]", "penalty", "[interval]", "f/base", "r/base",
		      "prov s", "steady state; notes");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char iv[64], st[160];

		pb_buf_printf(b, "%-*.*s %-6s", ww, ww,
			      *g->where ? g->where : "-", g->mode);
		cell(b, g->first_med, 1, "", 9);
		snprintf(iv, sizeof(iv), "[%.1f-%.1f]", g->first_lo,
			 g->first_hi);
		pb_buf_printf(b, " %19s", isnan(g->first_lo) ? "-" : iv);
		cell(b, g->rewrite_med, 1, "", 9);
		snprintf(iv, sizeof(iv), "[%.1f-%.1f]", g->rewrite_lo,
			 g->rewrite_hi);
		pb_buf_printf(b, " %19s", isnan(g->rewrite_lo) ? "-" : iv);
		cell(b, g->penalty * 100.0, 1, "%", 9);
		snprintf(iv, sizeof(iv), "[%.0f-%.0f]", g->penalty_lo * 100.0,
			 g->penalty_hi * 100.0);
		pb_buf_printf(b, " %9s", isnan(g->penalty_lo) ? "-" : iv);
		cell(b, g->first_vs_base, 2, "", 8);
		pb_buf_addstr(b, rp_ratio_noise(g->first_vs_base_lo,
						g->first_vs_base_hi)
					 ? "~"
					 : " ");
		cell(b, g->rewrite_vs_base, 2, "", 7);
		pb_buf_addstr(b, rp_ratio_noise(g->rewrite_vs_base_lo,
						g->rewrite_vs_base_hi)
					 ? "~"
					 : " ");
		cell(b, g->prov_med, 2, "", 7);
		rp_steady_text(st, sizeof(st), g);
		pb_buf_printf(b, "  %s%s%s%s%s%s\n", st,
			      *st && (g->mismatch || g->nfailed || g->nskipped)
				      ? ";"
				      : "",
			      g->mismatch ? "APPLIED AS " : "",
			      g->mismatch ? g->applied : "",
			      g->nfailed ? " FAILED " : "",
			      g->nfailed || g->nskipped ? g->first_error : "");
	}
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char a[32], t[32];

		if (isnan(g->be_lazy) && isnan(g->be_thin))
			continue;
		pb_buf_printf(
			b,
			"\neager pays for its provisioning%s%s%s: vs lazy "
			"%s%s, vs thin %s%s\n",
			*g->where ? " (" : "", g->where, *g->where ? ")" : "",
			isnan(g->be_lazy) ? "-"
			: g->be_lazy < 0  ? "never"
					  : "after ",
			isnan(g->be_lazy) || g->be_lazy < 0
				? ""
				: pb_size_format(a, sizeof(a),
						 rp_u64(g->be_lazy)),
			isnan(g->be_thin) ? "-"
			: g->be_thin < 0  ? "never"
					  : "after ",
			isnan(g->be_thin) || g->be_thin < 0
				? ""
				: pb_size_format(t, sizeof(t),
						 rp_u64(g->be_thin)));
	}
	rp_fleet_text(m, b);
	{
		struct pb_buf f = PB_BUF_INIT(1u << 20);

		rp_findings(m, finding_line, &f);
		if (f.len)
			pb_buf_printf(b,
				      "\nfindings (~: a ratio within noise "
				      "of 1):\n%s",
				      f.data);
		pb_buf_dispose(&f);
	}
	fs_command_table(m, b);
	if (!old)
		return;
	pb_buf_printf(b, "\ncompared with %s:\n", old->run);
	if (m->compare_note[0])
		pb_buf_printf(b, "  WARNING: the runs differ (%s)\n",
			      m->compare_note);
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i], *o;
		struct rp_change c;

		if (!rp_compare(&c, old, g)) {
			/* a workload the older run did not have (or named
			 * otherwise): said, never compared with another */
			pb_buf_printf(b, "  %-*.*s %-6s not in that run\n", ww,
				      ww, *g->where ? g->where : "-", g->mode);
			continue;
		}
		o = rp_model_find(old, g->target_name, g->workload, g->mode);
		pb_buf_printf(
			b,
			"  %-*.*s %-6s first %.1f -> %.1f MiB/s %+.1f%%%s, "
			"rewrite %.1f -> %.1f %+.1f%%%s\n",
			ww, ww, *g->where ? g->where : "-", g->mode,
			o->first_med, g->first_med, c.first_pct,
			c.first_outside ? " (outside both intervals)"
					: " (within noise)",
			o->rewrite_med, g->rewrite_med, c.rewrite_pct,
			c.rewrite_outside ? " (outside both intervals)"
					  : " (within noise)");
	}
}
