/*
 * compare.c - a run against an older one of the same experiment: each
 * group's change, and the nightly gate.
 */
#include "report_int.h"

static bool outside(double m, double lo, double hi)
{
	return m < lo || m > hi;
}

bool rp_compare(struct rp_change *c, const struct rp_model *old,
		const struct rp_group *g)
{
	const struct rp_group *o =
		rp_model_find(old, g->target_name, g->workload, g->mode);

	if (!o)
		return false;
	c->first_pct = (g->first_med / o->first_med - 1) * 100;
	c->rewrite_pct = (g->rewrite_med / o->rewrite_med - 1) * 100;
	/* each median outside the other run's interval: a real change */
	c->first_outside = outside(g->first_med, o->first_lo, o->first_hi) &&
			   outside(o->first_med, g->first_lo, g->first_hi);
	c->rewrite_outside =
		outside(g->rewrite_med, o->rewrite_lo, o->rewrite_hi) &&
		outside(o->rewrite_med, g->rewrite_lo, g->rewrite_hi);
	return true;
}

/* Did any mode's first-write or rewrite fall by more than pct? */
bool rp_regressed(const struct rp_model *m, const struct rp_model *old,
		      double pct, struct pb_buf *why)
{
	bool any = false;
	size_t i;

	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		struct rp_change c;
		double f, r;

		if (!rp_compare(&c, old, g))
			continue;
		/* a fall, in percent of the old figure */
		f = -c.first_pct;
		r = -c.rewrite_pct;
		if (f > pct || r > pct) {
			pb_buf_printf(why, "%s%s %s fell %.1f%%",
				      any ? "; " : "", g->mode,
				      f > pct ? "first-write" : "rewrite",
				      f > pct ? f : r);
			any = true;
		}
	}
	return any;
}
