/*
 * changes.c - the judging floor: a run against an older one of the same
 * experiment, group by group, each figure's move told beyond noise or
 * within it by Welch's t at 99% on the repetitions' logs, and a fall past
 * the gate's limit beyond noise marked a regression (the nightly gate:
 * gate.c says it).
 */
#include <math.h>
#include <stdlib.h>

#include "findings.h"
#include "model.h"
#include "stats.h"

/* ---- against an older run ---- */

/*
 * Whether a figure moved between two runs beyond noise: the difference of
 * the means of the repetitions' logs (a rate's change as a ratio) and its
 * 99% interval by Welch's t, beyond noise when the interval leaves out
 * no change. Each night's figure is a handful of repetitions: two whose
 * intervals merely miss each other are not a change (a gate that judged
 * that way alarmed on 8 of 20 nights alike), and under RP_MIN_TELL on
 * either side nothing is told.
 */
struct moved {
	enum rp_sig sig;
	double lo, hi; /* the change's 99% interval, percent */
	/* the same as logs: the change, its interval's half-width, and the
	 * fewer repetitions of the two runs' */
	double d, h;
	size_t n;
};

static struct moved moved_logs(const double *a, size_t na, const double *b,
			       size_t nb)
{
	struct moved mv = {RP_SIG_FEW, NAN, NAN, NAN, NAN, na < nb ? na : nb};
	double d, lo, hi;

	if (na < RP_MIN_TELL || nb < RP_MIN_TELL)
		return mv;
	rp_mean_diff_ci(&d, &lo, &hi, a, na, b, nb, 0.01);
	if (!isnan(lo)) {
		mv.sig = lo <= 0 && hi >= 0 ? RP_SIG_NOISE : RP_SIG_YES;
		mv.lo = expm1(lo) * 100;
		mv.hi = expm1(hi) * 100;
		mv.d = d;
		mv.h = (hi - lo) / 2;
	}
	return mv;
}

/*
 * The gate's verdict on a change, against a fall of limit percent: fell
 * (past it, beyond noise), held (the interval leaves out a fall of its
 * size), else cannot tell yet, with the repetitions a run would take for
 * the interval to shrink to the nearer answer (its half-width as one
 * over the square root of the repetitions, from the spread seen: the
 * gap to the limit, or to no change).
 */
static enum rp_gate_verdict gate_verdict(unsigned *reps, double x,
					 const struct moved *mv, double limit)
{
	double fall = log1p(-limit / 100);

	*reps = 0;
	if (mv->sig == RP_SIG_FEW) {
		*reps = RP_MIN_TELL;
		return RP_GATE_OPEN;
	}
	if (mv->d - mv->h > fall)
		return RP_GATE_HELD;
	if (mv->sig == RP_SIG_YES && -x > limit)
		return RP_GATE_FELL;
	*reps = rp_reps_needed(mv->h, mv->n,
			       mv->d > fall ? mv->d - fall : -mv->d);
	return RP_GATE_OPEN;
}

/* v's positive values' logs (k = 1), or v's values times k (k = -1: a
 * log time ratio as the log of its rate ratio), into a new array */
static double *logs_of(size_t *n, const double *v, size_t nv, double k)
{
	double *a = malloc((nv + 1) * sizeof(*a));
	size_t i;

	*n = 0;
	for (i = 0; a && i < nv; i++) {
		if (k > 0 && v[i] > 0)
			a[(*n)++] = log(v[i]);
		else if (k < 0 && !isnan(v[i]))
			a[(*n)++] = -v[i];
	}
	return a;
}

static struct moved moved(const double *now, size_t nnow, const double *then,
			  size_t nthen, double k)
{
	size_t na, nb;
	double *a = logs_of(&na, now, nnow, k),
	       *b = logs_of(&nb, then, nthen, k);
	struct moved mv = {RP_SIG_FEW, NAN, NAN, NAN, NAN, 0};

	if (a && b)
		mv = moved_logs(a, na, b, nb);
	free(a);
	free(b);
	return mv;
}

/* exp of the mean of -v: a mean log time ratio as its rate ratio */
static double rate_ratio(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? exp(-s / (double)n) : NAN;
}

/* A group's figure now against then: the gate fails a fall past its
 * limit only when it is beyond noise, and says a fall past it within
 * noise as such. */
static void change(struct rp_findings *fs, const struct rp_group *g,
		   const struct rp_group *o, const char *metric, double now,
		   double lo, double hi, double then, double olo, double ohi,
		   struct moved mv)
{
	struct rp_finding *f;

	if (isnan(now) || isnan(then) || !(then > 0) ||
	    !(f = rp_finding_add(fs, RP_F_CHANGE)))
		return;
	f->g = g;
	f->h = o;
	f->metric = metric;
	f->v = then;
	f->lo = olo;
	f->hi = ohi;
	f->v2 = now;
	f->lo2 = lo;
	f->hi2 = hi;
	f->x = (now / then - 1) * 100;
	f->sig = mv.sig;
	f->change_lo = mv.lo;
	f->change_hi = mv.hi;
	fs->nchanges++;
	f->limit = fs->rules.gate_pct;
	if (fs->rules.gate_pct >= 0) {
		f->gate = gate_verdict(&f->gate_reps, f->x, &mv,
				       fs->rules.gate_pct);
		f->regressed = f->gate == RP_GATE_FELL;
		f->warning = f->regressed;
		fs->nregressed += f->regressed;
		fs->ngate[f->gate]++;
	}
}

void rp_findings_changes(struct rp_findings *fs, const struct rp_model *m,
			 const struct rp_model *old)
{
	size_t i;

	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		const struct rp_group *o = rp_model_find(old, g->target_name,
							 g->workload, g->mode);

		if (!o)
			continue;
		change(fs, g, o, "first-write", g->first_med, g->first_lo,
		       g->first_hi, o->first_med, o->first_lo, o->first_hi,
		       moved(g->first, g->nfirst, o->first, o->nfirst, 1));
		change(fs, g, o, "rewrite", g->rewrite_med, g->rewrite_lo,
		       g->rewrite_hi, o->rewrite_med, o->rewrite_lo,
		       o->rewrite_hi,
		       moved(g->rewrite, g->nrewrite, o->rewrite, o->nrewrite,
			     1));
		/* the first write against the later writes of its own run
		 * (its stripes' pairs, or its passes): what the host does
		 * between nights cancels, so a first write that fell is
		 * told with few repetitions where its rate alone is not */
		if (g->penalty_paired == o->penalty_paired)
			change(fs, g, o, RP_METRIC_VS_LATER,
			       rate_ratio(g->lr, g->nlr), NAN, NAN,
			       rate_ratio(o->lr, o->nlr), NAN, NAN,
			       moved(g->lr, g->nlr, o->lr, o->nlr, -1));
	}
}
