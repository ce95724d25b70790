/*
 * places.c - the judging floor: what a run that compares places asks
 * (the guest against its host twin, each target against the first: the
 * arms of an A/B, datastores, machines), one mode on several targets,
 * and targets measured at once that shared a datastore, a LUN or a host
 * filesystem.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "findings.h"
#include "fleet.h"
#include "model.h"
#include "stats.h"

/* One mode and point on several targets: each target's penalty, and
 * whether they differ beyond noise. */
void rp_findings_across(struct rp_findings *fs, const struct rp_model *m,
			const struct rp_group *g)
{
	const struct rp_group *t[PB_MAX_ACROSS];
	size_t n = rp_across(m, g, t, PB_MAX_ACROSS), i, j;
	struct rp_finding *f;
	bool few = false, apart = false;

	for (i = 0, j = 0; i < n; i++)
		j += !isnan(t[i]->penalty);
	/* penalties to set side by side: at least two */
	if (n < 2 || j < 2 || t[0] != g ||
	    !(f = rp_finding_add(fs, RP_F_ACROSS)))
		return;
	f->g = g;
	for (i = 0; i < n; i++) {
		rp_finding_set_add(f, t[i]);
		few |= rp_penalty_sig(t[i]) == RP_SIG_FEW;
		for (j = 0; j < i; j++)
			if (!isnan(t[j]->penalty) && !isnan(t[i]->penalty) &&
			    !rp_overlap(t[i]->penalty_lo, t[i]->penalty_hi,
					t[j]->penalty_lo, t[j]->penalty_hi))
				apart = true;
	}
	f->sig = few ? RP_SIG_FEW : apart ? RP_SIG_YES : RP_SIG_NOISE;
}

/* a group's shares into a range headline's: each kind's range, and
 * whether beyond noise */
static void range_add(struct rp_finding *f, const struct rp_shares *sh)
{
	unsigned k;

	f->n++;
	for (k = 0; k < RP_SH__COUNT; k++) {
		const struct rp_share *s = &sh->s[k];

		if (isnan(s->v))
			continue;
		f->ra[k] = isnan(f->ra[k]) ? s->v : fmin(f->ra[k], s->v);
		f->rb[k] = isnan(f->rb[k]) ? s->v : fmax(f->rb[k], s->v);
		f->yes[k] += rp_share_sig(s) == RP_SIG_YES;
	}
}

/*
 * The question of a run that compares places: with host_baseline, what
 * the guest gets of the host (the seeds' hdparm on both); with several
 * targets, each against the first (the arms of an A/B, machines,
 * datastores). One line each, its shares' range over the modes.
 */
void rp_findings_places(struct rp_findings *fs, const struct rp_model *m)
{
	struct rp_finding *f = NULL;
	size_t i, t;

	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		if (!g->host.ref || isnan(g->host.s[RP_SH_FIRST].v))
			continue;
		if (!f && !(f = rp_finding_add(fs, RP_F_H_HOST)))
			return;
		range_add(f, &g->host);
	}
	for (t = 1; t < m->ntinfo; t++) {
		f = NULL;
		for (i = 0; i < m->ng; i++) {
			const struct rp_group *g = &m->g[i];

			if (g->target != (long long)t || !g->arm.ref)
				continue;
			if (!f && !(f = rp_finding_add(fs, RP_F_H_ARM)))
				return;
			f->g = g;
			f->h = g->arm.ref;
			range_add(f, &g->arm);
		}
	}
}

/* Does target t stand on place key? */
static bool on_place(const struct rp_target_info *t, const json_t *key)
{
	json_t *o;
	size_t y;

	json_array_foreach(t->places, y, o) if (json_equal(o, key)) return true;
	return false;
}

/*
 * Targets measured at once on one place (a datastore, a LUN, a host
 * filesystem): their figures include each other's load. Said once per
 * place, naming the targets that ran at once with another on it.
 */
void rp_fleet_findings(const struct rp_model *m,
		       void (*fn)(const char *line, void *arg), void *arg)
{
	const struct rp_fleet *f = &m->fleet;
	char line[1024], names[600];
	size_t i, j, k, x, len, nt = f->nwith;
	json_t *key;

	for (i = 0; f->with && i < nt && i < m->ntinfo; i++)
		json_array_foreach(m->tinfo[i].places, x, key)
		{
			unsigned n = 0;
			bool earlier = false;

			for (k = 0; k < i && !earlier; k++)
				earlier = on_place(&m->tinfo[k], key);
			if (earlier || !json_is_string(key))
				continue;
			len = 0;
			names[0] = '\0';
			for (j = i; j < nt && j < m->ntinfo; j++) {
				bool together = false;

				if (!on_place(&m->tinfo[j], key))
					continue;
				for (k = i; k < nt && !together; k++)
					together = k != j &&
						   f->with[j * nt + k] &&
						   on_place(&m->tinfo[k], key);
				if (!together)
					continue;
				n++;
				if (len < sizeof(names))
					len += (size_t)snprintf(
						names + len,
						sizeof(names) - len, "%s%s",
						len ? ", " : "",
						m->tinfo[j].name);
			}
			if (n < 2)
				continue;
			snprintf(line, sizeof(line),
				 "targets %s shared %s while measured at "
				 "once: each one's figures include the "
				 "others' load",
				 names, json_string_value(key));
			fn(line, arg);
		}
}
