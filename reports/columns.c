/*
 * columns.c - the summary's columns, one table for every format: each
 * figure of a group with its interval, its summary.csv names, its heading
 * and unit on the pages (terminal, summary.txt, report.html), and how the
 * pages print it. A figure a page shows is printed by rp_cell_text, so the
 * headline's figures and the tables' read the same.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "findings.h"
#include "model.h"
#include "words.h"

static void first(double v[3], const struct rp_model *m,
		  const struct rp_group *g)
{
	(void)m;
	v[0] = g->first_med, v[1] = g->first_lo, v[2] = g->first_hi;
}

static void rewrite(double v[3], const struct rp_model *m,
		    const struct rp_group *g)
{
	(void)m;
	v[0] = g->rewrite_med, v[1] = g->rewrite_lo, v[2] = g->rewrite_hi;
}

static void rd(double v[3], const struct rp_model *m, const struct rp_group *g)
{
	(void)m;
	v[0] = g->read_med, v[1] = v[2] = NAN;
}

static void fsy(double v[3], const struct rp_model *m, const struct rp_group *g)
{
	(void)m;
	v[0] = g->fsync_med, v[1] = v[2] = NAN;
}

static bool any_fsync(const struct rp_model *m)
{
	for (size_t i = 0; i < m->ng; i++)
		if (!isnan(m->g[i].fsync_med))
			return true;
	return false;
}

static void penalty(double v[3], const struct rp_model *m,
		    const struct rp_group *g)
{
	(void)m;
	v[0] = g->penalty, v[1] = g->penalty_lo, v[2] = g->penalty_hi;
}

/* an offered rate's tail (issue 55): its rate, first write's and
 * rewrite's p99.9 and stalls (medians over the repetitions that held
 * the rate), the p99.9's difference with its interval, the headroom */
#define TAIL_GETTER(name, expr)                                                \
	static void name(double v[3], const struct rp_model *m,                \
			 const struct rp_group *g)                             \
	{                                                                      \
		const struct rp_tail *t = &g->tail;                            \
		(void)m;                                                       \
		v[1] = v[2] = NAN;                                             \
		v[0] = t->n ? (expr) : NAN;                                    \
	}
TAIL_GETTER(tail_rate, t->rate_iops)
TAIL_GETTER(tail_p999_first, t->first_med[RP_TL_P999])
TAIL_GETTER(tail_p999_rewrite, t->later_med[RP_TL_P999])
TAIL_GETTER(tail_stalls_first, t->first_med[RP_TL_STALLS])
TAIL_GETTER(tail_stalls_rewrite, t->later_med[RP_TL_STALLS])
TAIL_GETTER(tail_room_first, t->room.nrates ? t->room.first : NAN)
TAIL_GETTER(tail_room_rewrite, t->room.nrates ? t->room.later : NAN)
#undef TAIL_GETTER

static void tail_p999_diff(double v[3], const struct rp_model *m,
			   const struct rp_group *g)
{
	const struct rp_tail *t = &g->tail;

	(void)m;
	v[0] = t->n ? t->d[RP_TL_P999] : NAN;
	v[1] = t->n ? t->lo[RP_TL_P999] : NAN;
	v[2] = t->n ? t->hi[RP_TL_P999] : NAN;
}

/* a precision-form run's: after which repetition a mode stopped */
static void stop_after(double v[3], const struct rp_model *m,
		       const struct rp_group *g)
{
	v[0] = m->seq.on && g->stop_after ? (double)g->stop_after : NAN;
	v[1] = v[2] = NAN;
}

static bool any_seq(const struct rp_model *m)
{
	return m->seq.on;
}

static void fbase(double v[3], const struct rp_model *m,
		  const struct rp_group *g)
{
	(void)m;
	v[0] = g->first_vs_base, v[1] = g->first_vs_base_lo,
	v[2] = g->first_vs_base_hi;
}

static void rbase(double v[3], const struct rp_model *m,
		  const struct rp_group *g)
{
	(void)m;
	v[0] = g->rewrite_vs_base, v[1] = g->rewrite_vs_base_lo,
	v[2] = g->rewrite_vs_base_hi;
}

#define ONE(name, expr)                                                        \
	static void name(double v[3], const struct rp_model *m,                \
			 const struct rp_group *g)                             \
	{                                                                      \
		(void)m;                                                       \
		v[0] = (expr), v[1] = v[2] = NAN;                              \
	}

ONE(steady_bytes, g->steady_med)
ONE(steady_settled, (double)g->nsettled)
ONE(steady_reps, (double)(g->nsettled + g->nnever + g->nshort + g->nnoisy))
ONE(prov, g->prov_med)
ONE(be_lazy, g->be_lazy < 0 ? NAN : g->be_lazy)
ONE(be_thin, g->be_thin < 0 ? NAN : g->be_thin)
ONE(qd_kept, g->qd_kept_min)
ONE(mkfs, g->mkfs_med)
ONE(cmd, g->cmd_med)
ONE(pts_pass, g->pts_pass >= 0 ? (double)g->pts_pass : NAN)
ONE(reclaimed, g->reclaim_back_med)
ONE(reclaim_s, g->reclaim_s_med)

#undef ONE

/* figures.h's: a figure's median */
#define FIG_GET(id, pass, read, csv, unit, decimals, json)                     \
	static void fig_##id(double v[3], const struct rp_model *m,            \
			     const struct rp_group *g)                         \
	{                                                                      \
		(void)m;                                                       \
		v[0] = g->fig_med[RP_FIG_##id], v[1] = v[2] = NAN;             \
	}
RP_FIGURES(FIG_GET)
#undef FIG_GET

/* and its column: summary.csv's and report --json's */
#define FIG_COLUMN(id, pass, read, csv_, unit_, decimals, json)                \
	{.csv = csv_,                                                          \
	 .unit = unit_,                                                        \
	 .show = RP_COL_CSV,                                                   \
	 .csv_decimals = decimals,                                             \
	 .get = fig_##id,                                                      \
	 .json_form = json},
#define FIG_COLUMN_AFTER(id, pass, read, csv_, unit_, decimals, json)          \
	{.csv = csv_,                                                          \
	 .unit = unit_,                                                        \
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,                               \
	 .csv_decimals = decimals,                                             \
	 .get = fig_##id,                                                      \
	 .json_form = json},

static void rewarm(double v[3], const struct rp_model *m,
		   const struct rp_group *g)
{
	(void)m;
	v[0] = g->rewarm, v[1] = g->rewarm_lo, v[2] = g->rewarm_hi;
}

static void rewarm_first(double v[3], const struct rp_model *m,
			 const struct rp_group *g)
{
	(void)m;
	v[0] = g->rewarm_vs_first, v[1] = g->rewarm_vs_first_lo,
	v[2] = g->rewarm_vs_first_hi;
}

bool rp_any_rewarm(const struct rp_model *m)
{
	for (size_t i = 0; i < m->ng; i++)
		if (m->g[i].nlr2)
			return true;
	return false;
}

static bool any_read(const struct rp_model *m)
{
	for (size_t i = 0; i < m->ng; i++)
		if (!isnan(m->g[i].read_med))
			return true;
	return false;
}

static bool any_base(const struct rp_model *m)
{
	return m->have_baseline;
}

/* within a pass, only when some group's passes can tell (else one
 * finding says so: RP_F_STEADY_WITHIN) */
static bool any_told(const struct rp_model *m)
{
	for (size_t i = 0; i < m->ng; i++)
		if (rp_steady_told(&m->g[i]))
			return true;
	return false;
}

/* summary.csv's number columns in their order, each figure once */
const struct rp_column rp_columns[] = {
	{.csv = "first_mib_s",
	 .csv_lo = "first_lo_mib_s",
	 .csv_hi = "first_hi_mib_s",
	 .head = "first",
	 .unit = RP_UNIT_RATE,
	 .show = RP_COL_ALL,
	 .csv_decimals = 3,
	 .page_decimals = 1,
	 .get = first,
	 .json_form = RP_JSON_MEDIAN},
	{.csv = "rewrite_mib_s",
	 .csv_lo = "rewrite_lo_mib_s",
	 .csv_hi = "rewrite_hi_mib_s",
	 .head = "rewrite",
	 .unit = RP_UNIT_RATE,
	 .show = RP_COL_ALL,
	 .csv_decimals = 3,
	 .page_decimals = 1,
	 .get = rewrite,
	 .json_form = RP_JSON_MEDIAN},
	{.csv = "read_mib_s",
	 .head = "read",
	 .unit = RP_UNIT_RATE,
	 .show = RP_COL_ALL,
	 .csv_decimals = 3,
	 .page_decimals = 1,
	 .get = rd,
	 .any = any_read,
	 .json_form = RP_JSON_NUMBER},
	{.csv = "warmup_penalty_frac",
	 .csv_lo = "warmup_penalty_lo_frac",
	 .csv_hi = "warmup_penalty_hi_frac",
	 .head = "penalty",
	 .unit = RP_UNIT_PCT,
	 .show = RP_COL_ALL,
	 .csv_decimals = 4,
	 .get = penalty,
	 .json_form = RP_JSON_VALUE},
	/* the precision form: why each mode stopped, by its penalty */
	{.csv = "-",
	 .head = "stopped",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_TEXT | RP_COL_HTML,
	 .any = any_seq,
	 .text = rp_stop_cell},
	/* the baseline's name stands here in summary.csv (rp_summary_csv) */
	{.csv = "first_vs_baseline",
	 .csv_lo = "first_vs_baseline_lo",
	 .csv_hi = "first_vs_baseline_hi",
	 .head = "first/base",
	 .unit = RP_UNIT_RATIO,
	 .show = RP_COL_ALL,
	 .csv_decimals = 4,
	 .page_decimals = 2,
	 .get = fbase,
	 .any = any_base},
	{.csv = "rewrite_vs_baseline",
	 .csv_lo = "rewrite_vs_baseline_lo",
	 .csv_hi = "rewrite_vs_baseline_hi",
	 .head = "rewrite/base",
	 .unit = RP_UNIT_RATIO,
	 .show = RP_COL_ALL,
	 .csv_decimals = 4,
	 .page_decimals = 2,
	 .get = rbase,
	 .any = any_base},
	{.csv = "steady_after_bytes",
	 .unit = RP_UNIT_BYTES,
	 .show = RP_COL_CSV,
	 .get = steady_bytes},
	{.csv = "steady_settled_reps",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_CSV,
	 .get = steady_settled},
	{.csv = "steady_reps",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_CSV,
	 .get = steady_reps},
	{.csv = "provision_s",
	 .head = "provision",
	 .unit = RP_UNIT_S,
	 .show = RP_COL_ALL,
	 .csv_decimals = 3,
	 .page_decimals = 2,
	 .get = prov,
	 .json_form = RP_JSON_NUMBER},
	{.csv = "breakeven_vs_lazy_bytes",
	 .unit = RP_UNIT_BYTES,
	 .show = RP_COL_CSV,
	 .get = be_lazy},
	{.csv = "breakeven_vs_thin_bytes",
	 .unit = RP_UNIT_BYTES,
	 .show = RP_COL_CSV,
	 .get = be_thin},
	RP_FIGURES_BEFORE_NOTE(FIG_COLUMN){.csv = "qd_kept_min",
					   .unit = RP_UNIT_COUNT,
					   .show = RP_COL_CSV,
					   .csv_decimals = 2,
					   .get = qd_kept,
					   .json_form = RP_JSON_NUMBER},
	{.csv = "mkfs_s",
	 .unit = RP_UNIT_S,
	 .show = RP_COL_CSV,
	 .csv_decimals = 3,
	 .get = mkfs,
	 .json_form = RP_JSON_NUMBER},
	{.csv = "command_s",
	 .unit = RP_UNIT_S,
	 .show = RP_COL_CSV,
	 .csv_decimals = 3,
	 .get = cmd,
	 .json_form = RP_JSON_NUMBER},
	/* after the note: appended, so older readers keep their places */
	{.csv = "warmup_steady_pass",
	 .head = "steady from",
	 .unit = RP_UNIT_PASS,
	 .show = RP_COL_ALL | RP_COL_AFTER_NOTE,
	 .get = pts_pass},
	{.csv = "fsync_write_mib_s",
	 .head = "fsync-write",
	 .unit = RP_UNIT_RATE,
	 .show = RP_COL_ALL | RP_COL_AFTER_NOTE,
	 .csv_decimals = 3,
	 .page_decimals = 1,
	 .get = fsy,
	 .any = any_fsync,
	 .json_form = RP_JSON_NUMBER},
	/* the re-warm (issue 40): what the first write after a reclaim
	 * cost, as the penalty is told, and against the rep's first */
	{.csv = "rewarm_penalty_frac",
	 .csv_lo = "rewarm_penalty_lo_frac",
	 .csv_hi = "rewarm_penalty_hi_frac",
	 .head = "again",
	 .unit = RP_UNIT_PCT,
	 .show = RP_COL_ALL | RP_COL_AFTER_NOTE,
	 .csv_decimals = 4,
	 .get = rewarm,
	 .any = rp_any_rewarm},
	{.csv = "rewarm_vs_first_frac",
	 .csv_lo = "rewarm_vs_first_lo_frac",
	 .csv_hi = "rewarm_vs_first_hi_frac",
	 .unit = RP_UNIT_PCT,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .csv_decimals = 4,
	 .get = rewarm_first},
	{.csv = "reclaimed_bytes",
	 .unit = RP_UNIT_BYTES,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .get = reclaimed},
	{.csv = "reclaim_s",
	 .unit = RP_UNIT_S,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .csv_decimals = 3,
	 .get = reclaim_s},
	RP_FIGURES_AFTER_NOTE(FIG_COLUMN_AFTER)
	/* the precision form (issue 54): after which repetition each mode
	 * stopped; empty in a fixed-count run */
	{.csv = "stop_after_reps",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .get = stop_after,
	 .any = any_seq,
	 .json_form = RP_JSON_NUMBER},
	/* the tail at an offered rate (issue 55): report --json has them
	 * in its tail object, so none here */
	{.csv = "tail_rate_iops",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .get = tail_rate},
	{.csv = "tail_p999_first_ms",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .csv_decimals = 3,
	 .get = tail_p999_first},
	{.csv = "tail_p999_rewrite_ms",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .csv_decimals = 3,
	 .get = tail_p999_rewrite},
	{.csv = "tail_p999_diff_ms",
	 .csv_lo = "tail_p999_diff_lo_ms",
	 .csv_hi = "tail_p999_diff_hi_ms",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .csv_decimals = 3,
	 .get = tail_p999_diff},
	{.csv = "tail_stalls_first",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .csv_decimals = 1,
	 .get = tail_stalls_first},
	{.csv = "tail_stalls_rewrite",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .csv_decimals = 1,
	 .get = tail_stalls_rewrite},
	{.csv = "tail_headroom_first_iops",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .get = tail_room_first},
	{.csv = "tail_headroom_rewrite_iops",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_CSV | RP_COL_AFTER_NOTE,
	 .get = tail_room_rewrite},
	/* the pages' only column of words; summary.csv has its figures */
	{.csv = "-",
	 .head = "within a pass",
	 .unit = RP_UNIT_COUNT,
	 .show = RP_COL_TEXT | RP_COL_HTML,
	 .any = any_told,
	 .text = rp_steady_cell},
	{.csv = NULL},
};
#undef FIG_COLUMN_AFTER
#undef FIG_COLUMN

bool rp_column_shown(const struct rp_column *c, const struct rp_model *m,
		     unsigned where)
{
	return (c->show & where) && (!c->any || c->any(m));
}

const char *rp_unit_name(enum rp_unit u)
{
	switch (u) {
	case RP_UNIT_RATE:
		return "MiB/s";
	case RP_UNIT_PCT:
		return "%";
	case RP_UNIT_RATIO:
		return "x";
	case RP_UNIT_S:
		return "s";
	case RP_UNIT_US:
		return "\u00b5s";
	case RP_UNIT_BYTES:
		return "bytes";
	default:
		return "";
	}
}

void rp_cell_text(char *out, size_t len, const struct rp_column *c,
		  const double v[3])
{
	if (isnan(v[0])) {
		snprintf(out, len, "-");
		return;
	}
	switch (c->unit) {
	case RP_UNIT_PCT:
		rp_pct_text(out, len, v[0]);
		break;
	case RP_UNIT_RATIO:
		snprintf(out, len, "%.2fx", v[0]);
		break;
	case RP_UNIT_PASS:
		if (v[0] == 0)
			snprintf(out, len, "first write");
		else
			snprintf(out, len, "rewrite %.0f", v[0]);
		break;
	default:
		snprintf(out, len, "%.*f", c->page_decimals, v[0]);
	}
}

void rp_cell_interval(char *out, size_t len, const struct rp_column *c,
		      const double v[3])
{
	if (isnan(v[1]) || isnan(v[2])) {
		out[0] = '\0';
		return;
	}
	if (c->unit == RP_UNIT_PCT)
		rp_pct_interval(out, len, v[1], v[2]);
	else if (v[1] < 0)
		snprintf(out, len, "[%.*f to %.*f]", c->page_decimals, v[1],
			 c->page_decimals, v[2]);
	else
		snprintf(out, len, "[%.*f-%.*f]", c->page_decimals, v[1],
			 c->page_decimals, v[2]);
}

void rp_cell(char *out, size_t len, char *iv, size_t ivlen,
	     const struct rp_column *c, const struct rp_model *m,
	     const struct rp_group *g)
{
	double v[3];

	iv[0] = '\0';
	if (c->text) {
		c->text(out, len, m, g);
		if (!*out)
			snprintf(out, len, "-");
		rp_later_words(out, len, m);
		return;
	}
	c->get(v, m, g);
	if (c->unit == RP_UNIT_RATE)
		for (int k = 0; k < 3; k++)
			v[k] = rp_rate(m, v[k]);
	rp_cell_text(out, len, c, v);
	rp_later_words(out, len, m);
	rp_cell_interval(iv, ivlen, c, v);
}
