/*
 * penalty.c - the first-write penalty, defined once (issue 52): the extra
 * time a first write takes over a rewrite of the same bytes, in the time
 * the user waits for, less what the baseline's own first write shows.
 * The model's estimate over repetitions and a repetition's own figure
 * on the harness's progress line come from here, and their words from
 * phrase.h's, so a run shows one number for one mode.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "penalty.h"
#include "stats.h"

/*
 * A repetition's first write over its later writes, in time per byte.
 * Paired: the whole first-write pass (every fresh stripe, the first one,
 * which no pair holds, and a tail's included: a new file's first extents
 * cost what they cost) against the rewritten stripes' seconds per byte,
 * milliseconds after each fresh one. Not paired: the later passes' rate
 * over the first write's. NaN when a side is missing: no figure rather
 * than a mix.
 */
double rp_first_time_ratio(const struct rp_first_sides *s)
{
	if (s->paired) {
		if (!(s->first_s > 0) || !(s->first_bytes > 0) ||
		    !(s->written_s > 0) || !(s->written_bytes > 0))
			return NAN;
		return (s->first_s / s->first_bytes) /
		       (s->written_s / s->written_bytes);
	}
	if (!(s->first_mib_s > 0) || !(s->later_mib_s > 0))
		return NAN;
	return s->later_mib_s / s->first_mib_s;
}

/*
 * The penalty over repetitions: exp(mean of the repetitions' log time
 * ratios, less the baseline's mean of its own) - 1 (0.47: a first write
 * takes 47% longer), and its 95% interval by Student's t (Welch's with a
 * baseline). A mean of logs, not a median of each stripe's rate: a cost
 * that falls on a few stripes is the time it takes in all (issue 36: the
 * pairs' median saw 14% of a 47% cost). The baseline's ratio is what a
 * first write shows where there is nothing to provision (a paired run's
 * rewrite-after-write bias, a first pass's own start): taken out, the
 * rest is the mode's. Under RP_MIN_TELL repetitions no interval.
 */
void rp_penalty_estimate(double *v, double *lo, double *hi, const double *lr,
			 size_t n, const double *base_lr, size_t nbase,
			 double alpha)
{
	double d, l, h;

	*v = *lo = *hi = NAN;
	if (!n)
		return;
	rp_mean_diff_ci(&d, &l, &h, lr, n, base_lr, nbase, alpha);
	*v = expm1(d);
	if (n < RP_MIN_TELL)
		return;
	*lo = expm1(l);
	*hi = expm1(h);
}

bool rp_any_paired(const struct rp_model *m)
{
	for (size_t i = 0; i < m->ng; i++)
		if (m->g[i].penalty_paired)
			return true;
	return false;
}

/*
 * Whether a threshold question still open at look n could not be told by
 * the most repetitions, on the spread seen so far (futility): the chance
 * that the interval at the most leaves the threshold, were the rest of
 * the repetitions drawn about the present estimate (conditional power
 * under the trend), is under RP_SEQ_FUTILE_POWER. Only from half the
 * most on (a spread from 2 or 3 repetitions is too rough to give up on)
 * and only for the threshold question (the corpus's; a precision asked
 * goes to the most). Non-binding: a stop, for whatever reason, is at a
 * look whose interval holds at the look level, so coverage is kept; what
 * it costs is the answers the rest would have found, which the corpus
 * counts (docs/validation.md). Log scale, where the interval is
 * symmetric: its centre the estimate, its half-width t * se.
 */
static bool seq_futile(const struct rp_seq *s, size_t n, double lo, double hi)
{
	double l, u, c, t_now, t_most, se, h_most, sd, th, cp;
	double most = (double)s->max, k = (double)n;

	if (isnan(s->threshold) || s->precision > 0 || 2 * n < s->max ||
	    n >= s->max || n < 2 || !(lo > -1) || !(hi >= lo))
		return false;
	l = log1p(lo);
	u = log1p(hi);
	c = (l + u) / 2;
	t_now = rp_t_critical(s->look_alpha, k - 1);
	t_most = rp_t_critical(s->look_alpha, most - 1);
	if (!(t_now > 0) || !(t_most > 0))
		return false;
	se = (u - l) / 2 / t_now;
	if (!(se > 0))
		return false;
	/* at the most: its half-width on this spread, and where its centre
	 * may land, the rest drawn about c (sd of the mean of all) */
	h_most = t_most * se * sqrt(k / most);
	sd = se * sqrt(k * (most - k)) / most;
	th = log1p(s->threshold);
	cp = 0.5 * erfc(-(c - th - h_most) / sd / M_SQRT2) +
	     0.5 * erfc(-(th - h_most - c) / sd / M_SQRT2);
	return cp < RP_SEQ_FUTILE_POWER;
}

enum rj_stop rp_seq_decide(const struct rp_seq *s, size_t n, double lo,
			   double hi)
{
	if (!s->on || n < s->min)
		return RJ_STOP_OPEN;
	if (!isnan(s->threshold) && lo > s->threshold)
		return RJ_STOP_ABOVE;
	if (!isnan(s->threshold) && hi < s->threshold)
		return RJ_STOP_WITHIN;
	if (s->precision > 0 && (hi - lo) / 2 <= s->precision)
		return RJ_STOP_PRECISE;
	if (n >= s->max)
		return RJ_STOP_MAX;
	return seq_futile(s, n, lo, hi) ? RJ_STOP_FUTILE : RJ_STOP_OPEN;
}

enum rj_stop rp_group_look(const struct rp_model *m, const struct rp_group *g,
			   size_t n)
{
	size_t i;

	if (!m->seq.on)
		return RJ_STOP_OPEN;
	if (g->nskipped && !g->nok && !g->nfailed)
		return RJ_STOP_NONE;
	if (!(m->have_base_mode && g->pmode == m->base_mode))
		return rp_seq_decide(&m->seq, n, g->penalty_lo, g->penalty_hi);
	/* the baseline: on while a mode of its place set against it is */
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *h = &m->g[i];

		if (h != g && h->target == g->target && h->point == g->point &&
		    !strcmp(h->workload, g->workload) &&
		    h->stop == RJ_STOP_OPEN &&
		    rp_group_look(m, h, n) == RJ_STOP_OPEN)
			return RJ_STOP_OPEN;
	}
	return RJ_STOP_BASELINE; /* it has no question of its own */
}
