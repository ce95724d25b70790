/*
 * findings.c - what the report concludes from the model, computed once
 * as data (struct rp_finding: its figures, interval, significance and the
 * rule that made it): the headline's clauses first, then each group's,
 * each place's (a target and workload point: the modes set side by side)
 * and the run's, and each group's change against an older run with the
 * gate's verdict. words.c says each one way; the terminal table,
 * summary.txt, report.html, report --json, the gate and trend only lay
 * them out. docs/reports.md lists every rule.
 *
 * Consistency is kept here, where every conclusion is drawn: a break-even
 * is drawn once per pair; one repetition gives figures and no interval,
 * and no verdict on noise or ratios; a mode the server made as another is
 * named by what it became, is never the baseline, and is left out of
 * claims about the mode asked for, with one finding saying why.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "fleet.h"
#include "model.h"

/* a difference of this size is the one a lab wants told (10%): an
 * interval narrower than twice this half-width tells it, and a penalty
 * whose whole interval lies within it either way is too small to matter */
#define RP_TELL_HALF 0.05

/* A penalty beyond noise, yet too small to matter: its interval within
 * +-5%. */
static bool negligible(const struct rp_group *g)
{
	return g->penalty_lo > -RP_TELL_HALF && g->penalty_hi < RP_TELL_HALF;
}

static bool ratio_noise(double lo, double hi)
{
	return !isnan(lo) && !isnan(hi) && lo <= 1.0 && hi >= 1.0;
}

static enum rp_sig ratio_sig(double v, double lo, double hi)
{
	if (isnan(v))
		return RP_SIG_NA;
	if (isnan(lo) || isnan(hi))
		return RP_SIG_FEW;
	return ratio_noise(lo, hi) ? RP_SIG_NOISE : RP_SIG_YES;
}

static bool is_base(const struct rp_model *m, const struct rp_group *g)
{
	return m->have_base_mode && g->pmode == m->base_mode && !g->mismatch;
}

/* The groups at g's place (target and point), in the model's order. */
static size_t place(const struct rp_model *m, const struct rp_group *g,
		    const struct rp_group **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < m->ng && n < max; i++)
		if (rp_same_place(&m->g[i], g->target, g->point, g->workload))
			out[n++] = &m->g[i];
	return n;
}

/* Is g the first group of its place (its place's findings said once)? */
static bool first_at_place(const struct rp_model *m, const struct rp_group *g)
{
	const struct rp_group *p[1];

	return place(m, g, p, 1) == 1 && p[0] == g;
}

/* The disk a break-even is set against: the runner's target, or the
 * point's disk as it ran (run.json's resolved; merged runs share their
 * points, so the first run's) */
static double disk_bytes(const struct rp_model *m, const struct rp_group *g)
{
	double d = json_number_value(json_object_get(
		rj_point_resolved(&m->rd, g->point), RJ_K_DISK_BYTES));

	if (g->disk_bytes > 0)
		return g->disk_bytes;
	return d > 0 ? d : NAN;
}

static int by_penalty(const void *a, const void *b);

/*
 * Split g (sorted by penalty) into runs whose penalties cannot be told
 * apart: a group joins the run before it when its interval overlaps every
 * member's. at[k] is the start of run k; how many runs.
 */
static size_t runs_of(size_t *at, const struct rp_group *const *g, size_t n)
{
	size_t i, k, nr = 0;

	for (i = 0; i < n; i++) {
		bool joins = nr > 0;

		for (k = nr ? at[nr - 1] : 0; joins && k < i; k++)
			joins = rp_overlap(g[i]->penalty_lo, g[i]->penalty_hi,
					   g[k]->penalty_lo, g[k]->penalty_hi);
		if (!joins)
			at[nr++] = i;
	}
	return nr;
}

/* A clause over a set of groups, its figures the range of their
 * penalties (as the tables show them); dropped when empty. */
static void clause(struct rp_findings *fs, enum rp_fkind kind,
		   const struct rp_group *const *g, size_t n, enum rp_sig want,
		   int sign)
{
	struct rp_finding *f = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		enum rp_sig s = rp_penalty_sig(g[i]);
		/* flat: within noise, or beyond it by too little to matter */
		bool small = kind == RP_F_H_FLAT && s == RP_SIG_YES &&
			     negligible(g[i]);

		if ((s != want && !small) ||
		    (s == RP_SIG_YES && kind != RP_F_H_FLAT &&
		     negligible(g[i])) ||
		    (sign > 0 && !(g[i]->penalty > 0)) ||
		    (sign < 0 && !(g[i]->penalty < 0)))
			continue;
		if (!f && !(f = rp_finding_add(fs, kind)))
			return;
		rp_finding_set_add(f, g[i]);
		f->g = f->g ? f->g : g[i];
		f->sig = want;
		f->v = isnan(f->v) ? g[i]->penalty : fmin(f->v, g[i]->penalty);
		f->v2 = isnan(f->v2) ? g[i]->penalty
				     : fmax(f->v2, g[i]->penalty);
		/* the widest interval's half-width: how flat "flat" is */
		if (!isnan(g[i]->penalty_hi))
			f->x = isnan(f->x)
				       ? (g[i]->penalty_hi - g[i]->penalty_lo) /
						 2
				       : fmax(f->x, (g[i]->penalty_hi -
						     g[i]->penalty_lo) /
							    2);
		f->n = g[i]->nok;
		/* metric: "beyond" when a member is beyond noise, if small */
		if (small)
			f->metric = "small";
	}
}

/* eager's provisioning and its fate, from the place's break-evens in
 * body: one clause, against lazy and thin alike */
static void headline_breakeven(struct rp_findings *fs,
			       const struct rp_findings *body,
			       const struct rp_group *const *g, size_t n)
{
	struct rp_finding *h = NULL;
	size_t i, k;

	for (i = 0; i < body->n; i++) {
		const struct rp_finding *b = &body->f[i];
		bool here = false;

		for (k = 0; k < n; k++)
			here |= b->g == g[k];
		if (b->kind != RP_F_BREAKEVEN || !here)
			continue;
		if (!h) {
			if (!(h = rp_finding_add(fs, RP_F_H_BREAKEVEN)))
				return;
			*h = *b;
			h->kind = RP_F_H_BREAKEVEN;
			h->nset = 0;
		} else if (b->sig != h->sig || (b->x < 0) != (h->x < 0) ||
			   (b->x > b->hi) != (h->x > h->hi)) {
			/* two fates: said as two clauses */
			if (!(h = rp_finding_add(fs, RP_F_H_BREAKEVEN)))
				return;
			*h = *b;
			h->kind = RP_F_H_BREAKEVEN;
			h->nset = 0;
		}
		rp_finding_set_add(h, b->h);
	}
}

/*
 * The place's answer: which modes' first writes take longer beyond noise
 * (and by how much: the range of their penalties), which show none,
 * which had one repetition, eager's provisioning; inconclusive when
 * nothing is beyond noise and the intervals are too wide to tell a 10%
 * difference, with the repetitions that would.
 */
static void headline_place(struct rp_findings *fs,
			   const struct rp_findings *body,
			   const struct rp_group *const *g, size_t n)
{
	size_t i, yes = 0, noise = 0, measured = 0, reps = 0;
	double widest = 0;
	struct rp_finding *f;

	for (i = 0; i < n; i++) {
		enum rp_sig s = rp_penalty_sig(g[i]);

		measured += g[i]->nok > 0;
		yes += s == RP_SIG_YES;
		if (s == RP_SIG_NOISE) {
			noise++;
			yes -= 0;
			if ((g[i]->penalty_hi - g[i]->penalty_lo) / 2 >
			    widest) {
				widest = (g[i]->penalty_hi - g[i]->penalty_lo) /
					 2;
				reps = g[i]->nok;
			}
		}
	}
	if (!measured) {
		if ((f = rp_finding_add(fs, RP_F_H_NONE)))
			f->g = g[0];
		return;
	}
	/* modes slower beyond noise, a clause per set that cannot be told
	 * apart, the largest penalty first: "thin and lazy: first write
	 * takes 36-47% longer ...; eager: first write takes 3% longer" */
	for (int own = 0; own < 2; own++) {
		const struct rp_group *y[RP_MAX_SET];
		size_t at[RP_MAX_SET], ny = 0, nr, r;

		/* the modes less the baseline's own first, then a mode
		 * whose figure is its own (the baseline's): never one set,
		 * they are different measures */
		for (i = 0; i < n && ny < RP_MAX_SET; i++)
			if (rp_penalty_sig(g[i]) == RP_SIG_YES &&
			    g[i]->penalty > 0 && !negligible(g[i]) &&
			    g[i]->penalty_less_base == !own)
				y[ny++] = g[i];
		qsort(y, ny, sizeof(*y), by_penalty);
		nr = runs_of(at, y, ny);
		for (r = nr; r-- > 0;)
			clause(fs, RP_F_H_SLOWER, y + at[r],
			       (r + 1 < nr ? at[r + 1] : ny) - at[r],
			       RP_SIG_YES, 1);
	}
	clause(fs, RP_F_H_FASTER, g, n, RP_SIG_YES, -1);
	clause(fs, RP_F_H_FLAT, g, n, RP_SIG_NOISE, 0);
	clause(fs, RP_F_H_FEW, g, n, RP_SIG_FEW, 0);
	headline_breakeven(fs, body, g, n);
	/* at an offered rate the tail is the answer (issue 55): a line a
	 * mode, moved here from the body */
	for (i = 0; i < n; i++)
		for (size_t k = 0; k < body->n; k++)
			if (body->f[k].kind == RP_F_TAIL &&
			    body->f[k].g == g[i] &&
			    (f = rp_finding_add(fs, RP_F_TAIL)))
				*f = body->f[k];
	/* nothing told apart, and intervals too wide to tell a 10% one */
	if (!yes && noise && widest > RP_TELL_HALF &&
	    (f = rp_finding_add(fs, RP_F_H_INCONCLUSIVE))) {
		f->g = g[0];
		f->v = widest;
		f->n = reps;
		f->x = rp_reps_needed(widest, reps, RP_TELL_HALF);
	}
}

/*
 * Under the answer, what a local run's figures are of: the qemu and host
 * backends measure qcow2 and the host filesystem (issue 36: "thin costs
 * 14%" travelled from the demo to vSphere decisions). Said whenever such
 * a run measured a mode, once for the run.
 */
static void headline_scope(struct rp_findings *fs, const struct rp_model *m)
{
	const char *fs_name =
		json_string_value(json_object_get(m->env, "datastore_fs"));
	/* qemu's thin: qcow2, or a sparse raw file (qemu.thin) */
	const char *thin =
		json_string_value(json_object_get(m->env, "thin_format"));
	struct rp_finding *f;
	size_t i, measured = 0;

	if (!m->backend ||
	    (strcmp(m->backend, "qemu") && strcmp(m->backend, "host")))
		return;
	for (i = 0; i < m->ng; i++)
		measured += m->g[i].nok > 0;
	if (!measured || !(f = rp_finding_add(fs, RP_F_H_SCOPE)))
		return;
	snprintf(f->detail, sizeof(f->detail), "%s%s", m->backend,
		 thin && !strcmp(thin, "raw") ? " raw" : "");
	f->metric = fs_name && strcmp(fs_name, "unknown") ? fs_name : "";
}

/* ---- a group's findings ---- */

static const char *datastore_why(const struct rp_model *m,
				 const struct rp_group *g, char *out,
				 size_t len)
{
	json_t *env = m->env, *ds = json_object_get(env, "datastore");
	const char *type = json_string_value(json_object_get(ds, "type"));
	const char *vaai = json_string_value(json_object_get(ds, "vaai"));
	const char *fs =
		json_string_value(json_object_get(env, "datastore_fs"));

	out[0] = '\0';
	/* the backend's own word, recorded with the disk, comes first */
	if (g->applied_why && *g->applied_why)
		snprintf(out, len, "%s", g->applied_why);
	else if (type && !strcmp(type, "NFS") && vaai &&
		 strcmp(vaai, "vStorageSupported"))
		snprintf(out, len,
			 "the datastore %s is NFS without the VAAI-NAS plugin "
			 "(%s), which makes thin disks whatever is asked",
			 json_string_value(json_object_get(ds, "name")), vaai);
	else if (type && (!strcmp(type, "vsan") || !strcmp(type, "vvol") ||
			  !strcmp(type, "VVOL") || !strcmp(type, "VSAN")))
		snprintf(out, len,
			 "the datastore %s is %s, where the storage policy, "
			 "not the disk's flags, sets provisioning",
			 json_string_value(json_object_get(ds, "name")), type);
	else if (type)
		snprintf(out, len,
			 "the server made it so on the %s datastore %s", type,
			 json_string_value(json_object_get(ds, "name")));
	else if (fs)
		snprintf(out, len,
			 "its file on the host's %s filesystem read back so "
			 "(FIEMAP)",
			 fs);
	return out;
}

/* g against its reference in sh: a finding of kind, judged by the first
 * write's share; the words read every kind from sh */
static void shares_finding(struct rp_findings *fs, enum rp_fkind kind,
			   const struct rp_group *g, const struct rp_shares *sh)
{
	struct rp_finding *f;

	if (!sh->ref || isnan(sh->s[RP_SH_FIRST].v) ||
	    !(f = rp_finding_add(fs, kind)))
		return;
	f->g = g;
	f->h = sh->ref;
	f->v = sh->s[RP_SH_FIRST].v;
	f->lo = sh->s[RP_SH_FIRST].lo;
	f->hi = sh->s[RP_SH_FIRST].hi;
	f->sig = rp_share_sig(&sh->s[RP_SH_FIRST]);
}

/* the device's mean write time per request in the first write against
 * the later writes' (medians), their ratio with an interval from each
 * side resampled; n 1: the host's device under a guest */
static void dev_finding(struct rp_findings *fs, const struct rp_group *g,
			const struct rp_devtime *d, bool host)
{
	struct rp_finding *f;

	if (!d->nfirst || !d->nlater || !(d->later_med[RP_DEV_MS] > 0) ||
	    !(f = rp_finding_add(fs, RP_F_DEVICE)))
		return;
	f->g = g;
	f->n = host;
	f->v = d->first_med[RP_DEV_MS];
	f->v2 = d->later_med[RP_DEV_MS];
	f->x = f->v / f->v2;
	if (d->nfirst >= RP_MIN_TELL && d->nlater >= RP_MIN_TELL)
		rp_ratio_ci(&f->lo, &f->hi, d->first[RP_DEV_MS], d->nfirst,
			    d->later[RP_DEV_MS], d->nlater);
	f->sig = isnan(f->lo)			? RP_SIG_FEW
		 : f->lo <= 1.0 && f->hi >= 1.0 ? RP_SIG_NOISE
						: RP_SIG_YES;
}

/* the server's side of a group's first write against its later
 * writes: the LUN's device write latency the ratio, the kernel, queue,
 * virtual-disk latencies and CPU per write beside it (words.c) */
static void server_finding(struct rp_findings *fs, const struct rp_group *g)
{
	const struct rp_server *v = &g->srv;
	struct rp_finding *f;
	/* the LUN's device where there is a LUN; else the datastore (NFS),
	 * else the virtual disk as the host saw it */
	unsigned k = v->nfirst[RP_SV_DEVICE_MS] && v->nlater[RP_SV_DEVICE_MS]
			     ? RP_SV_DEVICE_MS
		     : v->nfirst[RP_SV_DS_MS] && v->nlater[RP_SV_DS_MS]
			     ? RP_SV_DS_MS
			     : RP_SV_VDISK_MS;

	if (!v->nfirst[k] || !v->nlater[k] ||
	    !(f = rp_finding_add(fs, RP_F_SERVER)))
		return;
	f->g = g;
	f->n = k;
	f->v = v->first_med[k];
	f->v2 = v->later_med[k];
	f->x = f->v2 > 0 ? f->v / f->v2 : NAN;
	if (v->nfirst[k] >= RP_MIN_TELL && v->nlater[k] >= RP_MIN_TELL &&
	    f->v2 > 0)
		rp_ratio_ci(&f->lo, &f->hi, v->first[k], v->nfirst[k],
			    v->later[k], v->nlater[k]);
	f->sig = isnan(f->lo)			? RP_SIG_FEW
		 : f->lo <= 1.0 && f->hi >= 1.0 ? RP_SIG_NOISE
						: RP_SIG_YES;
}

/* what the filesystem did under a file target: said as it was, once
 * per mode (extents are counted, not sampled: no interval) */
static void ext_finding(struct rp_findings *fs, const struct rp_group *g,
			const struct rp_extents *e, bool host)
{
	struct rp_finding *f;

	if (!e->n || !(f = rp_finding_add(fs, RP_F_EXTENTS)))
		return;
	f->g = g;
	f->v = e->alloc_med;
	f->v2 = e->conv_med;
	f->x = e->count_max;
	f->lo = e->nlater ? e->later_max : NAN;
	f->n = host;
}

static void group_findings(struct rp_findings *fs, const struct rp_model *m,
			   const struct rp_group *g)
{
	const struct rp_group *b =
		m->have_base_mode ? rp_sibling(m, g, m->base_mode) : NULL;
	struct rp_finding *f;

	if (b && b->mismatch)
		b = NULL;
	if (!g->nok) {
		if ((f = rp_finding_add(fs, RP_F_NOT_MEASURED)))
			f->g = g;
		return;
	}
	if (g->mismatch && (f = rp_finding_add(fs, RP_F_APPLIED_AS))) {
		f->g = g;
		f->warning = true;
		datastore_why(m, g, f->detail, sizeof(f->detail));
	}
	/* a workload without later writes has no penalty to tell: said
	 * once for the run, not per mode */
	if (isnan(g->penalty)) {
		if (m->later_set && (f = rp_finding_add(fs, RP_F_NO_PENALTY)))
			f->g = g;
	} else if ((f = rp_finding_add(fs, RP_F_PENALTY))) {
		f->g = g;
		f->sig = rp_penalty_sig(g);
		f->v = g->penalty;
		f->lo = g->penalty_lo;
		f->hi = g->penalty_hi;
		f->n = g->nok;
		if (g->penalty_less_base)
			f->h = b;
	}
	/* against the baseline: not the baseline itself */
	if (b && b != g && !isnan(g->first_vs_base) &&
	    (f = rp_finding_add(fs, RP_F_VS_BASELINE))) {
		f->g = g;
		f->h = b;
		f->v = g->first_vs_base;
		f->lo = g->first_vs_base_lo;
		f->hi = g->first_vs_base_hi;
		f->v2 = g->rewrite_vs_base;
		f->lo2 = g->rewrite_vs_base_lo;
		f->hi2 = g->rewrite_vs_base_hi;
		f->sig = ratio_sig(f->v, f->lo, f->hi);
		f->sig2 = ratio_sig(f->v2, f->lo2, f->hi2);
	}
	/* warm-up across passes, as the model judged it */
	if (g->pts_n >= 2 && (f = rp_finding_add(fs, RP_F_WARMUP))) {
		f->g = g;
		f->n = g->pts_n;
		f->x = g->pts_at;
		f->v = g->pts_firstv;
		f->v2 = g->pts_lastv;
		f->lo = (double)g->pts_from;
		f->sig = g->pts_at == -2 ? RP_SIG_FEW
			 : g->pts_at < 0 ? RP_SIG_NOISE
					 : RP_SIG_YES;
		snprintf(f->detail, sizeof(f->detail), "%u", g->pts_window);
	}
	if (is_base(m, g) && g->penalty > 0.10 &&
	    (f = rp_finding_add(fs, RP_F_BASELINE_WARMS))) {
		f->g = g;
		f->v = g->penalty;
		f->warning = true;
	}
	/* two rewrites of one disk are the same measurement twice: how far
	 * apart they come is the noise every single-pass figure carries */
	if (is_base(m, g) && g->rw_spread_med > 0.10 &&
	    (f = rp_finding_add(fs, RP_F_NOISE))) {
		f->g = g;
		f->v = g->rw_spread_med;
		f->n = g->nrw_spread;
	}
	/* rewrites faster than the baseline's beyond noise: ratios to it
	 * flatter the mode */
	if (b && b != g && g->rewrite_vs_base_lo > 1.0 &&
	    (f = rp_finding_add(fs, RP_F_ABOVE_BASELINE))) {
		f->g = g;
		f->h = b;
		f->v = g->rewrite_vs_base;
		f->lo = g->rewrite_vs_base_lo;
		f->hi = g->rewrite_vs_base_hi;
		f->n = b->nok && b->nloop == b->nok; /* a loop device */
	}
	/* host_baseline: what the guest gets of what the host's disk
	 * gives; several targets: each against the first */
	shares_finding(fs, RP_F_VS_HOST, g, &g->host);
	shares_finding(fs, RP_F_ARM, g, &g->arm);
	/* where the first write's time went: the device under the target,
	 * and the host's under a guest's disk */
	dev_finding(fs, g, &g->dev, false);
	dev_finding(fs, g, &g->hostdev, true);
	ext_finding(fs, g, &g->ext, false);
	ext_finding(fs, g, &g->hostext, true);
	server_finding(fs, g);
	rp_findings_tail(fs, g, b);
	if (g->nunramped && (f = rp_finding_add(fs, RP_F_UNRAMPED))) {
		f->g = g;
		f->x = (double)g->nunramped;
	}
	/* what its reclaims gave back, as read back */
	if (g->nreclaim && (f = rp_finding_add(fs, RP_F_RECLAIMED))) {
		f->g = g;
		f->v = g->reclaim_back_med;
		f->v2 = g->reclaim_s_med;
		f->x = (double)g->nreclaim;
		f->n = g->nreclaim_done;
		snprintf(f->detail, sizeof(f->detail), "%s", g->reclaim_why);
		f->metric = g->reclaim_method;
	}
	/* and what the next first write paid: again, or found its blocks */
	if (g->nlr2 && (f = rp_finding_add(fs, RP_F_REWARM))) {
		f->g = g;
		f->v = g->rewarm;
		f->lo = g->rewarm_lo;
		f->hi = g->rewarm_hi;
		f->sig = rp_cost_sig(f->v, f->lo, f->hi);
		f->v2 = g->rewarm_vs_first;
		f->lo2 = g->rewarm_vs_first_lo;
		f->hi2 = g->rewarm_vs_first_hi;
		f->sig2 = rp_cost_sig(f->v2, f->lo2, f->hi2);
		f->x = g->nreclaim_done ? g->reclaim_back_med : NAN;
		f->n = g->nlr2;
		if (g->penalty_less_base)
			f->h = b;
	}
}

/* ---- a place's: modes set side by side ---- */

/* Modes whose penalties cannot be told apart, in sets (runs_of: sorted
 * by penalty, each member's interval overlapping every other's, so a
 * chain A~B~C with A and C apart is two sets), each of two or more said
 * once. */
static int by_penalty(const void *a, const void *b)
{
	const struct rp_group *x = *(const struct rp_group *const *)a;
	const struct rp_group *y = *(const struct rp_group *const *)b;

	return (x->penalty > y->penalty) - (x->penalty < y->penalty);
}

static void same_penalty(struct rp_findings *fs,
			 const struct rp_group *const *all, size_t n)
{
	const struct rp_group *g[RP_MAX_SET];
	size_t at[RP_MAX_SET], i, ng = 0, nr, r, end;
	struct rp_finding *f;
	bool less = false;

	for (i = 0; i < n; i++)
		less |= all[i]->penalty_less_base;
	for (i = 0; i < n && ng < RP_MAX_SET; i++) {
		enum rp_sig s = rp_penalty_sig(all[i]);

		/* the baseline's own figure is not one of the others',
		 * which are less it: not ranked among them */
		if (less && !all[i]->penalty_less_base)
			continue;
		if (s == RP_SIG_YES || s == RP_SIG_NOISE)
			g[ng++] = all[i];
	}
	qsort(g, ng, sizeof(*g), by_penalty);
	nr = runs_of(at, g, ng);
	for (r = 0; r < nr; r++) {
		end = r + 1 < nr ? at[r + 1] : ng;
		if (end - at[r] < 2 ||
		    !(f = rp_finding_add(fs, RP_F_SAME_PENALTY)))
			continue;
		f->sig = RP_SIG_NOISE;
		f->g = g[at[r]];
		for (i = at[r]; i < end; i++)
			rp_finding_set_add(f, g[i]);
	}
}

/*
 * Whether two modes' first writes differ beyond noise: Welch's 95%
 * interval of the difference of their repetitions' log rates excludes
 * nothing. Not the medians' bootstrap intervals apart: at 3 repetitions
 * those are nearly the range of three, apart by chance often enough that
 * the validation corpus saw a break-even told in 1 run of 8 with a cost
 * of 2% (tests/validate, 2026-12-04), 59% off.
 */
static bool first_writes_differ(const struct rp_group *g,
				const struct rp_group *h)
{
	double *a = malloc(g->nfirst * sizeof(*a)),
	       *b = malloc(h->nfirst * sizeof(*b)), d, lo = NAN, hi = NAN;
	size_t i, na = 0, nb = 0;

	for (i = 0; a && i < g->nfirst; i++)
		if (g->first[i] > 0)
			a[na++] = log(g->first[i]);
	for (i = 0; b && i < h->nfirst; i++)
		if (h->first[i] > 0)
			b[nb++] = log(h->first[i]);
	if (a && b)
		rp_mean_diff_ci(&d, &lo, &hi, a, na, b, nb, 0.05);
	free(a);
	free(b);
	return lo > 0 || hi < 0;
}

/*
 * Eager's longer provisioning against lazy and thin, once per pair: not
 * significant when their first writes are within noise, too few to tell
 * with one repetition, never paid back when eager's first write is no
 * faster, not within the disk when the bytes of new blocks needed exceed
 * it (blocks are new only once), else paid back after those bytes.
 */
static void breakevens(struct rp_findings *fs, const struct rp_model *m,
		       const struct rp_group *g)
{
	const struct rp_group *other[2] = {rp_sibling(m, g, PB_MODE_LAZY),
					   rp_sibling(m, g, PB_MODE_THIN)};
	const double be[2] = {g->be_lazy, g->be_thin};
	struct rp_finding *f;
	size_t j;

	/* at an offered rate a first write's rate is the schedule's: no
	 * bytes repay a provisioning by it */
	if (g->pmode != PB_MODE_EAGER || g->mismatch || isnan(g->prov_med) ||
	    g->tail.rate_iops > 0)
		return;
	for (j = 0; j < 2; j++) {
		const struct rp_group *h = other[j];
		double disk = disk_bytes(m, g);

		if (!h || h->mismatch || isnan(h->prov_med) || isnan(be[j]) ||
		    !(f = rp_finding_add(fs, RP_F_BREAKEVEN)))
			continue;
		f->g = g;
		f->h = h;
		f->v = g->prov_med;
		f->v2 = h->prov_med;
		f->x = be[j];
		f->hi = disk;
		if (g->nfirst < RP_MIN_TELL || h->nfirst < RP_MIN_TELL)
			f->sig = RP_SIG_FEW;
		else
			f->sig = first_writes_differ(g, h) ? RP_SIG_YES
							   : RP_SIG_NOISE;
	}
}

/* ---- the run's ---- */

static void fleet_line(const char *line, void *arg)
{
	struct rp_finding *f = rp_finding_add(arg, RP_F_FLEET_PLACE);

	if (f) {
		snprintf(f->detail, sizeof(f->detail), "%s", line);
		f->warning = true;
	}
}

static void run_findings(struct rp_findings *fs, const struct rp_model *m)
{
	json_t *shared = json_object_get(m->env, "shared_with_other_runs");
	const struct rp_group *pg = NULL, *ref = NULL;
	double lo = INFINITY, hi = 0;
	bool told = false;
	struct rp_finding *f;
	size_t i;

	for (i = 0; i < json_array_size(shared); i++)
		if ((f = rp_finding_add(fs, RP_F_SHARED))) {
			snprintf(f->detail, sizeof(f->detail), "%s",
				 json_string_value(json_array_get(shared, i)));
			f->warning = true;
		}
	if (!m->later_set && m->ng && (f = rp_finding_add(fs, RP_F_NO_PENALTY)))
		f->g = NULL;
	if (m->base_note[0] && (f = rp_finding_add(fs, RP_F_BASELINE_NOTE)))
		snprintf(f->detail, sizeof(f->detail), "%s", m->base_note);
	if (m->unpooled && (f = rp_finding_add(fs, RP_F_UNPOOLED)))
		f->x = (double)m->unpooled;
	if (m->after_reclaim && (f = rp_finding_add(fs, RP_F_AFTER_RECLAIM)))
		f->x = (double)m->after_reclaim;
	/* the server's counters, where no pass could have its own */
	if (!m->srv_passes && (m->srv_short || m->srv_unavail) &&
	    (f = rp_finding_add(fs, RP_F_SERVER_SHORT))) {
		f->x = m->srv_short_max_s;
		f->v = m->srv_needs_s;
		f->n = m->srv_unavail;
		snprintf(f->detail, sizeof(f->detail), "%s", m->srv_why);
	}
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *h = &m->g[i];

		if (h->nramped) {
			lo = fmin(lo, h->ramp_s);
			hi = fmax(hi, h->ramp_s);
		}
		if (h->penalty_paired && !pg)
			pg = h;
		/* what a stripe's drain costs: the baseline's, else the
		 * first group's that knows */
		if (h->stripe_vs_pass_med > 0 &&
		    (!ref || (is_base(m, h) && !is_base(m, ref))))
			ref = h;
		told |= rp_steady_told(h);
	}
	if (hi > 0 && (f = rp_finding_add(fs, RP_F_RAMP))) {
		f->v = lo;
		f->v2 = hi;
	}
	if (pg && (f = rp_finding_add(fs, RP_F_PAIRS))) {
		f->g = pg;
		f->h = ref;
	}
	/* within a pass: said once when no mode can tell */
	if (!told && m->ng && (f = rp_finding_add(fs, RP_F_STEADY_WITHIN)))
		f->g = &m->g[0];
	/* passes that did not keep their depth: one finding for the modes
	 * at a depth asked, the lowest and highest kept */
	f = NULL;
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		if (!(g->qd_asked > 1 && g->qd_kept_min < 0.8 * g->qd_asked))
			continue;
		if (!f && !(f = rp_finding_add(fs, RP_F_QD_KEPT)))
			break;
		if (!f->g) {
			f->g = g;
			f->v = f->v2 = g->qd_kept_min;
			f->x = g->qd_asked;
			f->warning = true;
		}
		rp_finding_set_add(f, g);
		f->v = fmin(f->v, g->qd_kept_min);
		f->v2 = fmax(f->v2, g->qd_kept_min);
	}
	/* where each mode's penalty spread comes from, the modes told */
	f = NULL;
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		if (!(g->lv_between + g->lv_within > 0))
			continue;
		if (!f && !(f = rp_finding_add(fs, RP_F_LEVELS)))
			break;
		if (!f->g)
			f->g = g;
		rp_finding_set_add(f, g);
	}
	rp_fleet_findings(m, fleet_line, fs);
	if (m->failed_items && (f = rp_finding_add(fs, RP_F_FAILED_ITEMS)))
		f->x = (double)m->failed_items;
	/* each stall that cost a repetition its first try, by name */
	for (size_t k = 0; k < m->nretry; k++) {
		const struct rp_failure *t = &m->retry[k];

		if (!(f = rp_finding_add(fs, RP_F_RETRIED)))
			break;
		f->warning = true;
		f->x = (double)t->rep;
		/* the stall, as the run said it, without its "stalled: " */
		f->metric = strncmp(t->error, "stalled: ", 9) ? t->error
							      : t->error + 9;
		snprintf(f->detail, sizeof(f->detail), "%s%s%s%s%s",
			 t->target_name, *t->target_name ? ", " : "",
			 t->workload, *t->workload ? ", " : "",
			 pb_mode_name(t->mode));
	}
}

enum pb_error rp_findings_build(struct rp_findings *fs,
				const struct rp_model *m,
				const struct rp_model *old,
				const struct rp_rules *rules)
{
	struct rp_findings body = {0};
	const struct rp_group *p[RP_MAX_SET];
	struct rp_finding *f;
	enum pb_error err = PB_OK;
	size_t i, n;

	memset(fs, 0, sizeof(*fs));
	fs->rules = rules ? *rules : (struct rp_rules)RP_RULES_INIT;
	body.rules = fs->rules;
	/* the body first: the headline draws on its break-evens */
	for (i = 0; i < m->ng; i++)
		group_findings(&body, m, &m->g[i]);
	for (i = 0; i < m->ng; i++) {
		if (first_at_place(m, &m->g[i])) {
			n = place(m, &m->g[i], p, RP_MAX_SET);
			same_penalty(&body, p, n);
		}
		breakevens(&body, m, &m->g[i]);
	}
	for (i = 0; m->ntinfo > 1 && i < m->ng; i++)
		rp_findings_across(&body, m, &m->g[i]);
	run_findings(&body, m);
	if (old)
		rp_findings_changes(&body, m, old);
	/* the headline: a partial run says so first; then each place's
	 * answer */
	if ((m->interrupted || !m->finished || m->failed_items) &&
	    (f = rp_finding_add(fs, RP_F_H_PARTIAL))) {
		f->x = (double)m->failed_items;
		f->n = m->interrupted ? 1 : !m->finished ? 2 : 0;
		f->warning = true;
	}
	/* what a comparison of places asks, before each place's answer */
	rp_findings_places(fs, m);
	for (i = 0; i < m->ng; i++)
		if (first_at_place(m, &m->g[i])) {
			n = place(m, &m->g[i], p, RP_MAX_SET);
			headline_place(fs, &body, p, n);
		}
	headline_scope(fs, m);
	fs->nheadline = fs->n;
	fs->nchanges = body.nchanges;
	fs->nregressed = body.nregressed;
	memcpy(fs->ngate, body.ngate, sizeof(fs->ngate));
	for (i = 0; i < body.n && !err; i++) {
		if (body.f[i].kind == RP_F_TAIL)
			continue; /* the answer's, above */
		if (!(f = rp_finding_add(fs, body.f[i].kind)))
			err = PB_ERR_NOMEM;
		else
			*f = body.f[i];
	}
	free(body.f);
	if (err)
		rp_findings_dispose(fs);
	return err;
}

bool rp_steady_told(const struct rp_group *g)
{
	return g->nsettled + g->nnever > 0;
}

void rp_findings_dispose(struct rp_findings *fs)
{
	if (!fs)
		return;
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}

/* Findings a page lists below its table: the table has each group's
 * penalty and ratios already. */
bool rp_finding_listed(const struct rp_finding *f)
{
	/* a mode steady from its first write is the table's "steady from"
	 * cell alone: nothing warmed up */
	if (f->kind == RP_F_WARMUP && f->sig == RP_SIG_YES && f->x == 0)
		return false;
	return f->kind != RP_F_PENALTY && f->kind != RP_F_VS_BASELINE &&
	       f->kind != RP_F_CHANGE;
}

enum rp_rank rp_finding_rank(const struct rp_finding *f)
{
	/* 1 + its rank: a kind left out (0) is found by
	 * findings:every_kind_ranked */
	static const unsigned char rank[RP_F__COUNT] = {
		[RP_F_NOT_MEASURED] = 1 + RP_RANK_DECIDES,
		[RP_F_NO_PENALTY] = 1 + RP_RANK_EXPLAINS,
		[RP_F_PENALTY] = 1 + RP_RANK_DECIDES,
		[RP_F_VS_BASELINE] = 1 + RP_RANK_EXPLAINS,
		[RP_F_APPLIED_AS] = 1 + RP_RANK_DECIDES,
		[RP_F_WARMUP] = 1 + RP_RANK_EXPLAINS,
		[RP_F_BASELINE_WARMS] = 1 + RP_RANK_EXPLAINS,
		[RP_F_NOISE] = 1 + RP_RANK_EXPLAINS,
		[RP_F_ABOVE_BASELINE] = 1 + RP_RANK_EXPLAINS,
		[RP_F_QD_KEPT] = 1 + RP_RANK_EXPLAINS,
		[RP_F_LEVELS] = 1 + RP_RANK_EXPLAINS,
		[RP_F_UNRAMPED] = 1 + RP_RANK_EXPLAINS,
		[RP_F_SAME_PENALTY] = 1 + RP_RANK_DECIDES,
		[RP_F_BREAKEVEN] = 1 + RP_RANK_DECIDES,
		[RP_F_ACROSS] = 1 + RP_RANK_DECIDES,
		[RP_F_SHARED] = 1 + RP_RANK_DECIDES,
		[RP_F_RAMP] = 1 + RP_RANK_DESCRIBES,
		[RP_F_PAIRS] = 1 + RP_RANK_DESCRIBES,
		[RP_F_STEADY_WITHIN] = 1 + RP_RANK_DESCRIBES,
		[RP_F_BASELINE_NOTE] = 1 + RP_RANK_EXPLAINS,
		[RP_F_FAILED_ITEMS] = 1 + RP_RANK_DECIDES,
		[RP_F_RETRIED] = 1 + RP_RANK_EXPLAINS,
		[RP_F_FLEET_PLACE] = 1 + RP_RANK_DESCRIBES,
		[RP_F_UNPOOLED] = 1 + RP_RANK_DESCRIBES,
		[RP_F_AFTER_RECLAIM] = 1 + RP_RANK_DESCRIBES,
		[RP_F_RECLAIMED] = 1 + RP_RANK_EXPLAINS,
		[RP_F_REWARM] = 1 + RP_RANK_DECIDES,
		[RP_F_VS_HOST] = 1 + RP_RANK_DECIDES,
		[RP_F_ARM] = 1 + RP_RANK_DECIDES,
		[RP_F_DEVICE] = 1 + RP_RANK_EXPLAINS,
		[RP_F_EXTENTS] = 1 + RP_RANK_EXPLAINS,
		[RP_F_SERVER] = 1 + RP_RANK_EXPLAINS,
		[RP_F_SERVER_SHORT] = 1 + RP_RANK_EXPLAINS,
		[RP_F_CHANGE] = 1 + RP_RANK_EXPLAINS,
		[RP_F_TAIL] = 1 + RP_RANK_DECIDES,
		[RP_F_TAIL_UNHELD] = 1 + RP_RANK_DECIDES,
		[RP_F_HEADROOM] = 1 + RP_RANK_DECIDES,
	};

	if (f->kind <= RP_F_H_SCOPE) /* the answer's own lines */
		return RP_RANK_DECIDES;
	/* a change decides when the gate says it fell, or a penalty
	 * within noise explains rather than decides */
	if (f->kind == RP_F_CHANGE && f->gate == RP_GATE_FELL)
		return RP_RANK_DECIDES;
	if ((f->kind == RP_F_PENALTY || f->kind == RP_F_TAIL) &&
	    f->sig != RP_SIG_YES)
		return RP_RANK_EXPLAINS;
	/* one place against another, or eager's provisioning, that the
	 * data cannot tell (too few, within noise) or that has nothing to
	 * repay explains; the answer already says what the run can tell */
	if ((f->kind == RP_F_ARM || f->kind == RP_F_VS_HOST ||
	     f->kind == RP_F_ACROSS || f->kind == RP_F_BREAKEVEN) &&
	    (f->sig != RP_SIG_YES ||
	     (f->kind == RP_F_BREAKEVEN && !(f->v > f->v2))))
		return RP_RANK_EXPLAINS;
	return rank[f->kind] ? (enum rp_rank)(rank[f->kind] - 1)
			     : RP_RANK__UNRANKED;
}

const char *rp_rank_name(enum rp_rank r)
{
	return r == RP_RANK_DECIDES    ? "decides"
	       : r == RP_RANK_EXPLAINS ? "explains"
				       : "describes";
}
