/*
 * group.c - the analysis floor: a group's statistics once its items are
 * read (medians and their intervals, the penalty and the re-warm by
 * penalty.c's estimate, where a first write settles within a pass) and
 * its warm-up across passes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "model.h"
#include "penalty.h"
#include "stats.h"

/* A series' points, parsed from its span and dropped again. */
struct series {
	uint64_t *bytes;
	double *mib;
	size_t n, have;
};

static enum pb_error series_load(struct series *out, struct jl_doc *doc,
				 const char *span, uint32_t len)
{
	struct jl *series, *pt;
	struct jl_mark mark;
	enum pb_error err = PB_OK;
	size_t n;

	out->n = 0;
	jl_mark(doc, &mark);
	series = jl_parse_span(doc, span, len);
	n = series ? series->n : 0;
	if (n + 1 > out->have) {
		uint64_t *b2 = realloc(out->bytes, (n + 1) * sizeof(*b2));
		double *m2;

		if (b2)
			out->bytes = b2;
		m2 = realloc(out->mib, (n + 1) * sizeof(*m2));
		if (m2)
			out->mib = m2;
		if (!b2 || !m2) {
			err = PB_ERR_NOMEM;
			goto out;
		}
		out->have = n + 1;
	}
	jl_foreach(series, pt)
	{
		/* a point is an object; a paired pass's rewritten stripes
		 * are bare rates, of one stripe each */
		if (pt->type == JL_NUM) {
			out->bytes[out->n] = 1;
			out->mib[out->n++] = jl_num(pt);
			continue;
		}
		out->bytes[out->n] = rp_u64(jl_num(jl_get(pt, RUNNER_K_BYTES)));
		out->mib[out->n++] = jl_num(jl_get(pt, RUNNER_K_MIB_PER_S));
	}
out:
	jl_reset(doc, &mark);
	return err;
}

/* Of a group's log time ratios, those of repetitions up to after (0:
 * all) into out, which has room for every one; how many. */
static size_t lr_upto(double *out, const struct rp_group *g, unsigned after)
{
	size_t i, n = 0;

	for (i = 0; i < g->nlr; i++)
		if (!after || g->lr_rep[i] <= (double)after)
			out[n++] = g->lr[i];
	return n;
}

/*
 * The re-warm (issue 40) is the same estimate of the first write after a
 * reclaim, less the same baseline's first cycle: the method's own bias is
 * the first cycle's, and a baseline's second cycle may have been given
 * back too (a loop device's file is punched by a discard). Against the
 * rep's own first write it is a paired difference, with no baseline.
 * A precision-form run's group that stopped is told as the look that
 * stopped it saw it: its repetitions and the baseline's to then (the
 * baseline runs on while others are open), at the run's look level.
 */
void rp_group_penalty(struct rp_group *g, const struct rp_group *b)
{
	double *mine = malloc((g->nlr + 1) * sizeof(*mine));
	double *base = malloc(((b ? b->nlr : 0) + 1) * sizeof(*base));
	size_t n = 0, nb = 0;

	if (b && (b == g || b->penalty_paired != g->penalty_paired ||
		  b->nlr < 2 || b->mismatch))
		b = NULL;
	g->penalty_less_base = b != NULL;
	if (mine && base) {
		n = lr_upto(mine, g, g->stop_after);
		nb = b ? lr_upto(base, b, g->stop_after) : 0;
	}
	rp_penalty_estimate(&g->penalty, &g->penalty_lo, &g->penalty_hi, mine,
			    n, b ? base : NULL, nb, g->alpha);
	rp_penalty_estimate(&g->rewarm, &g->rewarm_lo, &g->rewarm_hi, g->lr2,
			    g->nlr2, b ? b->lr : NULL, b ? b->nlr : 0,
			    g->alpha);
	rp_penalty_estimate(&g->rewarm_vs_first, &g->rewarm_vs_first_lo,
			    &g->rewarm_vs_first_hi, g->d21, g->nd21, NULL, 0,
			    g->alpha);
	free(mine);
	free(base);
}

/*
 * An offered rate's tail (issue 55): each repetition's first write less
 * its later write, the mean of those less the baseline's mean of its own,
 * with Welch's interval (rp_mean_diff_ci: each value a repetition's own
 * figure, as the penalty's). A baseline offered another rate, or none, is
 * not taken out.
 */
void rp_group_tail(struct rp_group *g, const struct rp_group *b)
{
	struct rp_tail *t = &g->tail;
	double *d = malloc((t->n + 1) * sizeof(*d)), *db = NULL;
	size_t i, nb = 0;
	unsigned k;

	if (b && (b == g || b->tail.n < 2 ||
		  b->tail.rate_iops != t->rate_iops || b->mismatch))
		b = NULL;
	t->less_base = b != NULL;
	if (b)
		db = malloc(b->tail.n * sizeof(*db));
	for (k = 0; k < RP_TL__COUNT; k++) {
		t->d[k] = t->lo[k] = t->hi[k] = NAN;
		if (!d || (b && !db))
			continue;
		for (i = 0; i < t->n; i++)
			d[i] = t->first[k][i] - t->later[k][i];
		for (nb = 0; b && nb < b->tail.n; nb++)
			db[nb] = b->tail.first[k][nb] - b->tail.later[k][nb];
		rp_mean_diff_ci(&t->d[k], &t->lo[k], &t->hi[k], d, t->n, db, nb,
				0.05);
	}
	free(d);
	free(db);
}

/*
 * Where each repetition's first write settled, against its rewrite. A
 * host whose throughput wanders from one interval to the next makes a
 * rewrite itself leave the 10% band, and then where a first write
 * "settles" is noise: it is told over the window its own rep's reference
 * holds still over (rp_steady_window), or said to be too noisy to tell.
 * A rep without a reference series is told at RP_STEADY_WINDOW.
 */
static enum pb_error steady_points(struct rp_group *g)
{
	struct series first = {0}, ref = {0};
	uint64_t before;
	enum pb_error err = PB_OK;
	size_t i, w;

	for (i = 0; i < g->nspan && !err; i++) {
		double target = g->span_target[i];

		err = series_load(&first, g->doc, g->span[i], g->span_len[i]);
		if (err)
			break;
		w = RP_STEADY_WINDOW;
		if (g->ref_span[i] && !isnan(target) &&
		    first.n >= RP_STEADY_MIN_INTERVALS) {
			err = series_load(&ref, g->doc, g->ref_span[i],
					  g->ref_span_len[i]);
			if (err)
				break;
			w = rp_steady_window(ref.bytes, ref.mib, ref.n,
					     g->ref_target[i],
					     RP_STEADY_WINDOW);
			if (!w) {
				g->nnoisy++;
				continue;
			}
		}
		/* against that rep's own rewrite: disks differ */
		switch (rp_steady_after(&before, first.bytes, first.mib,
					first.n, target, w)) {
		case RP_STEADY_SETTLED:
			g->steady[g->nsteady++] = (double)before;
			g->nsettled++;
			if (w > g->steady_window)
				g->steady_window = w;
			break;
		case RP_STEADY_NEVER:
			g->nnever++;
			if (w > g->steady_window)
				g->steady_window = w;
			break;
		case RP_STEADY_TOO_SHORT:
			if (isnan(target))
				break; /* no rewrite to settle to */
			if (!g->nshort || first.n < g->short_intervals)
				g->short_intervals = first.n;
			g->nshort++;
			break;
		}
	}
	free(first.bytes);
	free(first.mib);
	free(ref.bytes);
	free(ref.mib);
	return err;
}

void rp_group_finish(struct rp_group *g)
{
	unsigned k;

	g->first_med = rp_median(g->first, g->nfirst);
	rp_median_ci(&g->first_lo, &g->first_hi, g->first, g->nfirst);
	g->rewrite_med = rp_median(g->rewrite, g->nrewrite);
	rp_median_ci(&g->rewrite_lo, &g->rewrite_hi, g->rewrite, g->nrewrite);
	g->read_med = rp_median(g->read, g->nread);
	g->fsync_med = rp_median(g->fsync, g->nfsync);
	for (k = 0; k < RP_TL__COUNT; k++) {
		g->tail.first_med[k] = rp_median(g->tail.first[k], g->tail.n);
		g->tail.later_med[k] = rp_median(g->tail.later[k], g->tail.n);
	}
	for (unsigned dk = 0; dk < RP_DEV__COUNT; dk++) {
		g->dev.first_med[dk] =
			rp_median(g->dev.first[dk], g->dev.nfirst);
		g->dev.later_med[dk] =
			rp_median(g->dev.later[dk], g->dev.nlater);
		g->hostdev.first_med[dk] =
			rp_median(g->hostdev.first[dk], g->hostdev.nfirst);
		g->hostdev.later_med[dk] =
			rp_median(g->hostdev.later[dk], g->hostdev.nlater);
	}
	for (unsigned sk = 0; sk < RP_SV__COUNT; sk++) {
		g->srv.first_med[sk] =
			rp_median(g->srv.first[sk], g->srv.nfirst[sk]);
		g->srv.later_med[sk] =
			rp_median(g->srv.later[sk], g->srv.nlater[sk]);
	}
	g->ext.alloc_med = rp_median(g->ext.alloc, g->ext.n);
	g->ext.conv_med = rp_median(g->ext.conv, g->ext.n);
	g->hostext.alloc_med = rp_median(g->hostext.alloc, g->hostext.n);
	g->hostext.conv_med = rp_median(g->hostext.conv, g->hostext.n);
	g->prov_med = rp_median(g->prov, g->nprov);
	rp_levels(&g->lv_between, &g->lv_within, &g->lv_p, g->lr, g->lr_within,
		  g->lr_within_df, g->nlr);
	/* each rep's first write paired stripe by stripe with rewrites
	 * milliseconds after: free of the host's drift between passes */
	g->penalty_paired = g->npaired && g->npaired == g->nfirst;
	/* its own, for now: cross_group takes the baseline's out */
	rp_group_penalty(g, NULL);
	rp_group_tail(g, NULL);
	for (k = 0; k < RP_FIG__COUNT; k++)
		g->fig_med[k] = rp_median(g->fig[k], g->nfig[k]);
	for (k = 0; k < g->max_rewrites; k++)
		g->conv_med[k] = rp_median(g->conv[k], g->nconv[k]);
	steady_points(g);
	g->steady_med = rp_median(g->steady, g->nsteady);
	g->mkfs_med = rp_median(g->mkfs, g->nmkfs);
	g->reclaim_back_med = rp_median(g->reclaim_back, g->nreclaim);
	g->reclaim_s_med = rp_median(g->reclaim_s, g->nreclaim);
	g->rw_spread_med = rp_median(g->rw_spread, g->nrw_spread);
	g->stripe_vs_pass_med =
		rp_median(g->stripe_vs_pass, g->nstripe_vs_pass);
	g->cmd_med = rp_median(g->cmd, g->ncmd);
	rp_median_ci(&g->cmd_lo, &g->cmd_hi, g->cmd, g->ncmd);
	/* under RP_MIN_TELL repetitions a figure, never an interval:
	 * nothing can be said of noise with two values */
	if (g->nfirst < RP_MIN_TELL)
		g->first_lo = g->first_hi = NAN;
	if (g->nrewrite < RP_MIN_TELL)
		g->rewrite_lo = g->rewrite_hi = NAN;
	if (g->ncmd < 2)
		g->cmd_lo = g->cmd_hi = NAN;
	/* the page draws one rep's curve: that one series stays parsed */
	if (g->nspan)
		g->curve = jl_parse_span(g->doc, g->span[0], g->span_len[0]);
}

void rp_model_warmup(struct rp_model *m, const struct rp_pts *rules)
{
	static const struct rp_pts def = RP_PTS_INIT;
	size_t i, k;

	m->pts = rules ? *rules : def;
	for (i = 0; i < m->ng; i++) {
		struct rp_group *g = &m->g[i];
		double series[RP_MAX_REWRITES + 1];
		size_t n = 0;

		/* the first write, then each rewrite (each pass's median
		 * over repetitions); a first write in stripe pairs drains
		 * its queue after each stripe, so its rate is not a pass's
		 * and the series starts at rewrite 1 */
		g->pts_from = g->penalty_paired ? 1 : 0;
		if (!isnan(g->first_med) && !g->penalty_paired)
			series[n++] = g->first_med;
		for (k = 0; k < g->max_rewrites && n <= RP_MAX_REWRITES; k++)
			series[n++] = g->conv_med[k];
		g->pts_n = n;
		g->pts_window = rp_pts_window(&m->pts, n);
		g->pts_at = n >= 2 ? rp_pts_steady(series, n, &m->pts) : -2;
		g->pts_pass =
			g->pts_at >= 0 ? g->pts_at + (int)g->pts_from : -1;
		g->pts_firstv = n ? series[0] : NAN;
		g->pts_lastv = n ? series[n - 1] : NAN;
	}
}
