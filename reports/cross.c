/*
 * cross.c - the analysis floor: groups against each other once each is
 * done (ratios to the baseline and eager's break-even need every group):
 * the baseline chosen (eager when the one asked has no figures), each
 * group's shares of the baseline's, of its host twin's and of the first
 * arm's, the penalty less the baseline's own.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "model.h"
#include "stats.h"

/*
 * The baseline asked for, unless the run has no figures of it (rdm
 * skipped without root for a loop device): then eager, the other mode
 * with nothing to zero, said as such, so ratios are still shown.
 */
static void choose_baseline(struct rp_model *m)
{
	const struct rp_group *g = NULL;
	size_t i;
	bool have = false, eager = false, made_other = false;

	if (!m->have_base_mode)
		return;
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *h = &m->g[i];

		/* a baseline is a mode that applied as asked: a raw-device
		 * mapping the server made as something else is not one */
		if (h->pmode == m->base_mode && h->first_med > 0 &&
		    !h->mismatch)
			have = true;
		if (h->pmode == m->base_mode && h->mismatch)
			made_other = true;
		if (h->pmode == m->base_mode && !g)
			g = h;
		if (h->pmode == PB_MODE_EAGER && h->first_med > 0 &&
		    !h->mismatch)
			eager = true;
	}
	if (have)
		return;
	if (!eager || m->base_mode == PB_MODE_EAGER) {
		if (made_other) {
			snprintf(m->base_note, sizeof(m->base_note),
				 "%s was made as %s, not as asked: no "
				 "baseline, no ratios",
				 m->baseline, g->applied);
			m->have_base_mode = false;
		}
		return;
	}
	if (made_other)
		snprintf(m->base_note, sizeof(m->base_note),
			 "%s was made as %s, not as asked: eager, which has "
			 "nothing left to zero either, is the baseline instead",
			 m->baseline, g->applied);
	else
		snprintf(m->base_note, sizeof(m->base_note),
			 "%s has no figures in this run%s%s%s: eager, which "
			 "has nothing left to zero either, is the baseline "
			 "instead",
			 m->baseline, g && g->first_error[0] ? " (" : "",
			 g && g->first_error[0] ? g->first_error : "",
			 g && g->first_error[0] ? ")" : "");
	m->base_mode = PB_MODE_EAGER;
	m->baseline = pb_mode_name(PB_MODE_EAGER);
}

/* a / b of two groups' medians, and the interval of the share from each
 * side resampled on its own (none under two values a side) */
static void share(struct rp_share *out, const double *a, size_t na, double ma,
		  const double *b, size_t nb, double mb)
{
	out->v = out->lo = out->hi = NAN;
	if (!(ma > 0) || !(mb > 0))
		return;
	out->v = ma / mb;
	if (na >= RP_MIN_TELL && nb >= RP_MIN_TELL)
		rp_ratio_ci(&out->lo, &out->hi, a, na, b, nb);
}

/* g against ref, every pass kind; ref NULL: none */
static void shares_of(struct rp_shares *out, const struct rp_group *g,
		      const struct rp_group *ref)
{
	unsigned k;

	out->ref = ref;
	for (k = 0; k < RP_SH__COUNT; k++)
		out->s[k].v = out->s[k].lo = out->s[k].hi = NAN;
	if (!ref)
		return;
	share(&out->s[RP_SH_FIRST], g->first, g->nfirst, g->first_med,
	      ref->first, ref->nfirst, ref->first_med);
	share(&out->s[RP_SH_LATER], g->rewrite, g->nrewrite, g->rewrite_med,
	      ref->rewrite, ref->nrewrite, ref->rewrite_med);
	share(&out->s[RP_SH_READ], g->read, g->nread, g->read_med, ref->read,
	      ref->nread, ref->read_med);
	share(&out->s[RP_SH_FSYNC], g->fsync, g->nfsync, g->fsync_med,
	      ref->fsync, ref->nfsync, ref->fsync_med);
	share(&out->s[RP_SH_CMD], g->cmd, g->ncmd, g->cmd_med, ref->cmd,
	      ref->ncmd, ref->cmd_med);
}

/* the group of g's mode, point and workload on target t, or NULL */
static const struct rp_group *on_target(const struct rp_model *m,
					const struct rp_group *g, long long t)
{
	for (size_t i = 0; i < m->ng; i++)
		if (m->g[i].target == t && m->g[i].point == g->point &&
		    !strcmp(m->g[i].workload, g->workload) &&
		    m->g[i].pmode == g->pmode)
			return &m->g[i];
	return NULL;
}

/* host_baseline: g in the guest against the same mode and point on the
 * host twin of g's target */
static void host_twin(struct rp_model *m, struct rp_group *g)
{
	size_t t;

	for (t = 0; t < m->ntinfo && m->tinfo[t].host_of != g->target; t++)
		;
	shares_of(&g->host, g,
		  t < m->ntinfo ? on_target(m, g, (long long)t) : NULL);
}

/* Several targets: g against the same mode and point on the first target
 * (host twins are compared with their guests instead) */
static void arm_of(struct rp_model *m, struct rp_group *g)
{
	const struct rp_group *a = NULL;

	if (g->target != 0 && m->ntinfo >= 2 &&
	    !(g->target < (long long)m->ntinfo &&
	      m->tinfo[g->target].host_of >= 0) &&
	    m->tinfo[0].host_of < 0)
		a = on_target(m, g, 0);
	if (a && !(a->first_med > 0 && g->first_med > 0))
		a = NULL;
	shares_of(&g->arm, g, a);
}

static void cross_group(struct rp_model *m)
{
	size_t i;

	for (i = 0; i < m->ng; i++) {
		struct rp_group *g = &m->g[i];
		const struct rp_group *b =
			m->have_base_mode ? rp_sibling(m, g, m->base_mode)
					  : NULL;
		const struct rp_group *lz = rp_sibling(m, g, PB_MODE_LAZY);
		const struct rp_group *th = rp_sibling(m, g, PB_MODE_THIN);

		g->first_vs_base = g->rewrite_vs_base = g->cmd_vs_base = NAN;
		g->first_vs_base_lo = g->first_vs_base_hi = NAN;
		g->rewrite_vs_base_lo = g->rewrite_vs_base_hi = NAN;
		/* a command's time against the baseline's: 2.0 = twice as
		 * long */
		if (b && b->cmd_med > 0)
			g->cmd_vs_base = g->cmd_med / b->cmd_med;
		if (b && b->mismatch)
			b = NULL; /* not a baseline: choose_baseline said */
		/* the penalty less what the baseline's own first write
		 * shows (the baseline's own stays its own) */
		if (b && b != g) {
			rp_group_penalty(g, b);
			rp_group_tail(g, b);
		}
		if (b && b->first_med > 0 && b->rewrite_med > 0) {
			m->have_baseline = true;
			g->first_vs_base = g->first_med / b->first_med;
			g->rewrite_vs_base = g->rewrite_med / b->rewrite_med;
			/* the baseline against itself is 1 by definition:
			 * no interval, nothing to call noise; one
			 * repetition on a side gives no interval either */
			if (g != b && g->nfirst >= RP_MIN_TELL &&
			    b->nfirst >= RP_MIN_TELL) {
				rp_ratio_ci(&g->first_vs_base_lo,
					    &g->first_vs_base_hi, g->first,
					    g->nfirst, b->first, b->nfirst);
				rp_ratio_ci(&g->rewrite_vs_base_lo,
					    &g->rewrite_vs_base_hi, g->rewrite,
					    g->nrewrite, b->rewrite,
					    b->nrewrite);
			}
		}
		host_twin(m, g);
		arm_of(m, g);
		g->be_lazy = g->be_thin = NAN;
		/* eager's provisioning against the others', each as asked:
		 * a disk made as another mode says nothing of either */
		if (g->pmode != PB_MODE_EAGER || isnan(g->first_med) ||
		    g->mismatch)
			continue;
		if (lz && lz->mismatch)
			lz = NULL;
		if (th && th->mismatch)
			th = NULL;
		if (lz)
			g->be_lazy =
				rp_breakeven_bytes(g->prov_med, g->first_med,
						   lz->prov_med, lz->first_med);
		if (th)
			g->be_thin =
				rp_breakeven_bytes(g->prov_med, g->first_med,
						   th->prov_med, th->first_med);
	}
}

void rp_model_cross(struct rp_model *m)
{
	choose_baseline(m);
	cross_group(m);
}
