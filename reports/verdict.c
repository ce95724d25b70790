/*
 * verdict.c - the judging floor's smallest parts, under every finding: a
 * finding added to the list, a figure's verdict (too few repetitions to
 * tell, within noise, beyond it), a set of groups one line names.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "model.h"
#include "stats.h"

struct rp_finding *rp_finding_add(struct rp_findings *fs, enum rp_fkind kind)
{
	struct rp_finding *f;

	if (pb_array_grow(&fs->f, &fs->cap, fs->n, sizeof(*fs->f)))
		return NULL;
	f = &fs->f[fs->n++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->v = f->lo = f->hi = f->v2 = f->lo2 = f->hi2 = f->x = NAN;
	f->change_lo = f->change_hi = NAN;
	for (unsigned k = 0; k < RP_SH__COUNT; k++)
		f->ra[k] = f->rb[k] = NAN;
	return f;
}

/* ---- what a group's figures say ---- */

/* A cost's verdict (the penalty's, the re-warm's): one repetition
 * tells nothing of noise; an interval holding 0 is within it. */
enum rp_sig rp_cost_sig(double v, double lo, double hi)
{
	if (isnan(v))
		return RP_SIG_NA;
	if (isnan(lo) || isnan(hi))
		return RP_SIG_FEW;
	return lo <= 0 && hi >= 0 ? RP_SIG_NOISE : RP_SIG_YES;
}

enum rp_sig rp_penalty_sig(const struct rp_group *g)
{
	if (!g->nok)
		return RP_SIG_NA;
	return rp_cost_sig(g->penalty, g->penalty_lo, g->penalty_hi);
}

/* ---- the headline ---- */

void rp_finding_set_add(struct rp_finding *f, const struct rp_group *g)
{
	if (f->nset < RP_MAX_SET)
		f->set[f->nset++] = g;
}

/* the significance of a share: its interval against 1 */
enum rp_sig rp_share_sig(const struct rp_share *s)
{
	return isnan(s->lo)		      ? RP_SIG_FEW
	       : s->lo <= 1.0 && s->hi >= 1.0 ? RP_SIG_NOISE
					      : RP_SIG_YES;
}
