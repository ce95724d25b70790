/*
 * tails.c - the judging floor: what an offered rate says (issue 55): a
 * mode's first-write tail against its rewrite's, the passes that could
 * not hold the rate (never a latency at a rate the pass did not offer),
 * and over a sweep of rates, how far the rate goes before a first write
 * misses the p99.9 the run asks (the rate headroom).
 */
#include <math.h>

#include "findings.h"
#include "model.h"

/* An offered rate's tail, and the passes that could not hold the rate:
 * never a latency at a rate the pass did not offer */
void rp_findings_tail(struct rp_findings *fs, const struct rp_group *g,
		      const struct rp_group *b)
{
	const struct rp_tail *t = &g->tail;
	struct rp_finding *f;

	if (t->unheld && (f = rp_finding_add(fs, RP_F_TAIL_UNHELD))) {
		f->g = g;
		f->n = t->unheld;
		f->x = t->rate_iops;
		f->v = t->achieved_min;
		f->warning = true;
	}
	if (t->room.nrates && t->room.lead &&
	    (f = rp_finding_add(fs, RP_F_HEADROOM))) {
		f->g = g;
		f->n = t->room.nrates;
		f->x = t->room.target_ms;
		f->v = t->room.first;
		f->v2 = t->room.later;
		f->lo = t->room.rate_lo;
		f->hi = t->room.rate_hi;
	}
	if (!t->n || !(f = rp_finding_add(fs, RP_F_TAIL)))
		return;
	f->g = g;
	f->h = t->less_base ? b : NULL;
	f->n = t->n;
	f->x = t->rate_iops;
	f->v = t->first_med[RP_TL_P999];
	f->v2 = t->later_med[RP_TL_P999];
	f->lo = t->lo[RP_TL_P999];
	f->hi = t->hi[RP_TL_P999];
	f->sig = isnan(f->lo)		  ? RP_SIG_FEW
		 : f->lo > 0 || f->hi < 0 ? RP_SIG_YES
					  : RP_SIG_NOISE;
}
