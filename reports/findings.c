/*
 * findings.c - what the report concludes from the model: the verdict and
 * the findings, each line from the numbers.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

void rp_steady_text(char *out, size_t len, const struct rp_group *g)
{
	size_t told = g->nsettled + g->nnever;
	size_t n = told + g->nshort + g->nnoisy;
	char sz[32], more[96] = "";

	out[0] = '\0';
	if (!n)
		return;
	if (!told && !g->nnoisy) {
		snprintf(out, len, "too short to tell (%zu interval%s)",
			 g->short_intervals,
			 g->short_intervals == 1 ? "" : "s");
		return;
	}
	if (!told) {
		snprintf(out, len,
			 "too noisy to tell (the rewrite itself strays over "
			 "10%% in %zu of %zu reps)",
			 g->nnoisy, n);
		return;
	}
	if (g->steady_window > RP_STEADY_WINDOW)
		snprintf(more, sizeof(more), "; smoothed over %zu intervals",
			 g->steady_window);
	if (g->nnoisy)
		snprintf(more + strlen(more), sizeof(more) - strlen(more),
			 "; %zu too noisy to tell", g->nnoisy);
	if (!g->nsettled) {
		snprintf(out, len, "never settled (%zu of %zu reps%s)",
			 g->nnever, n, more);
		return;
	}
	snprintf(out, len, "%zu of %zu settled, median %s%s%s%s", g->nsettled,
		 n, pb_size_format(sz, sizeof(sz), rp_u64(g->steady_med)),
		 *more ? " (" : "", *more ? more + 2 : "", *more ? ")" : "");
}

bool rp_ratio_noise(double lo, double hi)
{
	return !isnan(lo) && !isnan(hi) && lo <= 1.0 && hi >= 1.0;
}

void rp_findings(const struct rp_model *m,
		 void (*fn)(const char *line, void *arg), void *arg)
{
	json_t *shared = json_object_get(m->env, "shared_with_other_runs");
	char line[768];
	size_t i, j;

	/* another run on the same datastore, LUN or host filesystem */
	for (i = 0; i < json_array_size(shared); i++) {
		snprintf(line, sizeof(line),
			 "warning: another provbench run was using %s when "
			 "this one started: the figures include its load",
			 json_string_value(json_array_get(shared, i)));
		fn(line, arg);
	}

	/* figures that leave out each pass's start say so, once (with the
	 * range, when a matrix varies ramp_ms), and a pass too short for its
	 * ramp is never said to have had one */
	{
		double lo = INFINITY, hi = 0;
		char span[48] = "";

		for (i = 0; i < m->ng; i++)
			if (m->g[i].nramped) {
				lo = fmin(lo, m->g[i].ramp_s);
				hi = fmax(hi, m->g[i].ramp_s);
			}
		if (lo < hi)
			snprintf(span, sizeof(span), "%.0f to ", lo * 1e3);
		if (hi > 0) {
			snprintf(line, sizeof(line),
				 "each pass's first %s%.0f ms are left out of "
				 "its throughput and latency (ramp_ms, as "
				 "fio's ramp_time): its blocks are written, "
				 "its start-up is not measured",
				 span, hi * 1e3);
			fn(line, arg);
		}
	}
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		if (g->nunramped) {
			snprintf(line, sizeof(line),
				 "%s%s%s: %zu pass(es) no longer than their "
				 "ramp: their figures are the whole pass's",
				 g->mode, *g->where ? ", " : "", g->where,
				 g->nunramped);
			fn(line, arg);
		}
	}
	/*
	 * How the penalties were had, said once (the first paired group's
	 * stripe), with what the stripes cost a pass's MiB/s: the
	 * baseline's, else the first group's that knows.
	 */
	{
		const struct rp_group *pg = NULL, *ref = NULL;
		char sz[32], drain[256] = "";

		for (i = 0; i < m->ng; i++) {
			const struct rp_group *h = &m->g[i];

			if (h->penalty_paired && !pg)
				pg = h;
			if (h->stripe_vs_pass_med > 0 &&
			    (!ref ||
			     (m->have_base_mode && h->pmode == m->base_mode &&
			      ref->pmode != m->base_mode)))
				ref = h;
		}
		if (pg && ref)
			snprintf(drain, sizeof(drain),
				 "; each stripe drains the queue at its end "
				 "(%s's rewritten stripes ran at %.0f%% of "
				 "its rewrite passes' rate): the first-write "
				 "column is the fresh stripes', to compare "
				 "with first writes rather than with "
				 "rewrites",
				 ref->mode, ref->stripe_vs_pass_med * 100.0);
		if (pg) {
			snprintf(line, sizeof(line),
				 "penalties from stripe pairs: each rep's "
				 "first write in %s stripes, each fresh one "
				 "followed by a rewrite of the one before it; "
				 "a rep's penalty is the median of its pairs' "
				 "(%zu or more), so what the host does between "
				 "passes cancels%s",
				 pb_size_format(sz, sizeof(sz),
						(uint64_t)pg->pair_stripe),
				 pg->pairs_min, drain);
			fn(line, arg);
		}
	}
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		bool base = m->have_base_mode && g->pmode == m->base_mode;

		/* ratios against a moving baseline are suspect */
		if (base && g->penalty > 0.10) {
			snprintf(line, sizeof(line),
				 "warning: the baseline %s%s%s itself warms up "
				 "by %.0f%% (first write against rewrite): "
				 "ratios against it move with it",
				 g->mode, *g->where ? ", " : "", g->where,
				 g->penalty * 100.0);
			fn(line, arg);
		}
		/*
		 * Two rewrites of one disk are the same measurement twice:
		 * how far apart they come is the noise every single-pass
		 * figure carries (a cloud VM's disk varied 578-1793 MiB/s
		 * over eight identical 1 GiB fio passes). Said of the
		 * baseline, the mode every ratio leans on.
		 */
		if (base && g->rw_spread_med > 0.10) {
			snprintf(
				line, sizeof(line),
				"noise: one disk's rewrites differ by a median "
				"of %.0f%% (%zu reps) for the baseline %s%s%s, "
				"with no first-write cost between them: the "
				"host's pass-to-pass noise; differences of "
				"that size are within it, and the intervals "
				"say which are not (%s)",
				g->rw_spread_med * 100.0, g->nrw_spread,
				g->mode, *g->where ? ", " : "", g->where,
				g->penalty_paired
					? "the penalties, from stripe pairs "
					  "milliseconds apart, do not carry it"
					: "more repetitions or longer passes "
					  "narrow them");
			fn(line, arg);
		}
		/*
		 * Rewrites faster than the baseline's beyond noise: written
		 * blocks cost the baseline's path more than this mode's, and
		 * every ratio to it flatters the mode. The qemu backend's
		 * raw device is a loop device over a file, a driver and a
		 * filesystem under every write that a disk file qemu writes
		 * itself does not have: said, when it is that.
		 */
		if (!base && m->have_base_mode && g->rewrite_vs_base_lo > 1.0) {
			const struct rp_group *b = rp_sibling(m, g, m->base_mode);
			char loop[320] = "";

			if (b && b->nok && b->nloop == b->nok)
				snprintf(loop, sizeof(loop),
					 "; %s here is a loop device over a "
					 "file (the qemu backend's raw-device "
					 "analog): every write passes the loop "
					 "driver's queue and then the host "
					 "filesystem, where %s's disk file is "
					 "written by qemu itself, so part of "
					 "the difference is the analog's cost, "
					 "which a LUN does not have",
					 b->mode, g->mode);
			snprintf(line, sizeof(line),
				 "%s%s%s: rewrites %.2fx the baseline %s's "
				 "[%.2f-%.2f], beyond noise: written blocks "
				 "cost the baseline's path more than this "
				 "mode's, so ratios to it flatter %s%s",
				 g->mode, *g->where ? ", " : "", g->where,
				 g->rewrite_vs_base, pb_mode_name(m->base_mode),
				 g->rewrite_vs_base_lo, g->rewrite_vs_base_hi,
				 g->mode, loop);
			fn(line, arg);
		}
		/* a pass that did not keep its depth measured the guest */
		if (g->qd_asked > 1 && g->qd_kept_min < 0.8 * g->qd_asked) {
			snprintf(line, sizeof(line),
				 "%s%s%s: a pass kept a queue depth of %.1f of "
				 "the %.0f asked (the device waited on the "
				 "guest): its figures understate the disk",
				 g->mode, *g->where ? ", " : "", g->where,
				 g->qd_kept_min, g->qd_asked);
			fn(line, arg);
		}
		for (j = i + 1; j < m->ng; j++) {
			const struct rp_group *h = &m->g[j];

			if (!rp_same_place(h, g->target, g->point, g->workload) ||
			    !rp_overlap(g->penalty_lo, g->penalty_hi,
					h->penalty_lo, h->penalty_hi))
				continue;
			snprintf(line, sizeof(line),
				 "%s and %s%s%s: first-write penalties within "
				 "noise of each other (%.0f%% [%.0f-%.0f] and "
				 "%.0f%% [%.0f-%.0f]): not ranked",
				 g->mode, h->mode, *g->where ? ", " : "",
				 g->where, g->penalty * 100,
				 g->penalty_lo * 100, g->penalty_hi * 100,
				 h->penalty * 100, h->penalty_lo * 100,
				 h->penalty_hi * 100);
			fn(line, arg);
		}
	}
	rp_fleet_findings(m, fn, arg);
}

/* "thin" or "thin (bs=64K)": a group named in a sentence */
static void group_name(char *out, size_t len, const struct rp_group *g)
{
	if (*g->where)
		snprintf(out, len, "%s (%s)", g->mode, g->where);
	else
		snprintf(out, len, "%s", g->mode);
}

/* Is a's first-write rate within noise of b's (intervals overlap)? */
static bool first_same(const struct rp_group *a, const struct rp_group *b)
{
	return rp_overlap(a->first_lo, a->first_hi, b->first_lo, b->first_hi);
}

/*
 * One mode on several targets: "thin: first-write penalty 46% [40-52] on
 * nfs01, 12% [8-15] on local; differs beyond noise (highest on nfs01)".
 * A pair whose intervals overlap is within noise, never ranked.
 */
static void across_line(const struct rp_model *m, const struct rp_group *g,
			void (*fn)(const char *line, void *arg), void *arg)
{
	const struct rp_group *t[PB_MAX_ACROSS];
	size_t n = rp_across(m, g, t, PB_MAX_ACROSS), i, j, hi = 0, lo = 0;
	bool apart = false, told = true, few = false;
	char line[2048];
	double plo;
	size_t len;

	if (n < 2 || t[0] != g)
		return; /* said once, at the first target */
	len = (size_t)snprintf(
		line, sizeof(line), "%s%s%s%s: first-write penalty", g->mode,
		*g->workload ? " (" : "", g->workload, *g->workload ? ")" : "");
	for (i = 0; i < n && len < sizeof(line); i++) {
		if (isnan(t[i]->penalty)) {
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						"%s no figure on %s",
						i ? "," : "",
						t[i]->target_name);
			told = false;
			continue;
		}
		/* whole percent, "-3 to 5" when the interval crosses 0 */
		plo = round(t[i]->penalty_lo * 100) + 0.0;
		len += (size_t)snprintf(
			line + len, sizeof(line) - len,
			"%s %.0f%% [%.0f%s%.0f] on %s", i ? "," : "",
			round(t[i]->penalty * 100) + 0.0, plo,
			plo < 0 ? " to " : "-",
			round(t[i]->penalty_hi * 100) + 0.0, t[i]->target_name);
		if (t[i]->penalty > t[hi]->penalty || isnan(t[hi]->penalty))
			hi = i;
		if (t[i]->penalty < t[lo]->penalty || isnan(t[lo]->penalty))
			lo = i;
		for (j = 0; j < i; j++)
			if (!isnan(t[j]->penalty) &&
			    !rp_overlap(t[i]->penalty_lo, t[i]->penalty_hi,
					t[j]->penalty_lo, t[j]->penalty_hi))
				apart = true;
	}
	for (i = 0; i < n; i++)
		few |= !isnan(t[i]->penalty) && t[i]->nok < 2;
	if (len < sizeof(line) && few)
		snprintf(line + len, sizeof(line) - len,
			 "; too few repetitions to tell noise: not ranked");
	else if (len < sizeof(line) && apart)
		snprintf(line + len, sizeof(line) - len,
			 "; %s beyond noise (highest on %s, lowest on %s)",
			 n == 2 ? "they differ" : "some differ",
			 t[hi]->target_name, t[lo]->target_name);
	else if (len < sizeof(line) && told)
		snprintf(line + len, sizeof(line) - len,
			 "; within noise of each other: not ranked");
	fn(line, arg);
}

void rp_verdict(const struct rp_model *m,
		void (*fn)(const char *line, void *arg), void *arg)
{
	char line[768], n[320], a[32], t[32], ebuf[PB_ERRBUF_SIZE];
	const char *dsz =
		json_string_value(json_object_get(m->profile, "disk_size"));
	uint64_t disk = 0;
	size_t i, j;

	/* blocks are new only once: a break-even past the disk is never */
	if (dsz && pb_size_parse_as(&disk, dsz, PB_SIZE_DISK, NULL, ebuf))
		disk = 0;

	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		double p = g->penalty * 100, lo = g->penalty_lo * 100,
		       hi = g->penalty_hi * 100;
		int k;

		group_name(n, sizeof(n), g);
		if (!g->nok) {
			snprintf(line, sizeof(line), "%s: not measured (%s)", n,
				 g->first_error);
			fn(line, arg);
			continue;
		}
		if (isnan(g->penalty)) {
			snprintf(line, sizeof(line),
				 "%s: no first-write penalty (it needs a "
				 "first write and a rewrite)",
				 n);
			fn(line, arg);
			continue;
		}
		if (isnan(g->penalty_lo) || g->npair < 2)
			k = snprintf(line, sizeof(line),
				     "%s: first write %.0f%% %s than rewrite "
				     "(one repetition: no interval, too few "
				     "to tell noise)",
				     n, fabs(p), p >= 0 ? "slower" : "faster");
		else if (lo <= 0 && hi >= 0)
			k = snprintf(line, sizeof(line),
				     "%s: first write within noise of rewrite "
				     "(penalty %.0f%% [%.0f to %.0f%%])",
				     n, p, lo, hi);
		else
			k = snprintf(line, sizeof(line),
				     "%s: first write %.0f%% %s than rewrite "
				     "[%.0f-%.0f%%]",
				     n, fabs(p), p > 0 ? "slower" : "faster",
				     p > 0 ? lo : -hi, p > 0 ? hi : -lo);
		/* against the baseline, when there is one and it is not g */
		if (k > 0 && (size_t)k < sizeof(line) &&
		    !isnan(g->first_vs_base) && g->pmode != m->base_mode)
			snprintf(line + k, sizeof(line) - (size_t)k,
				 "; against %s: first write %.2fx "
				 "[%.2f-%.2f]%s, rewrite %.2fx [%.2f-%.2f]%s",
				 m->baseline, g->first_vs_base,
				 g->first_vs_base_lo, g->first_vs_base_hi,
				 rp_ratio_noise(g->first_vs_base_lo,
						g->first_vs_base_hi)
					 ? " (within noise)"
					 : "",
				 g->rewrite_vs_base, g->rewrite_vs_base_lo,
				 g->rewrite_vs_base_hi,
				 rp_ratio_noise(g->rewrite_vs_base_lo,
						g->rewrite_vs_base_hi)
					 ? " (within noise)"
					 : "");
		fn(line, arg);
	}
	/* modes whose penalties cannot be told apart: not ranked */
	for (i = 0; i < m->ng; i++)
		for (j = i + 1; j < m->ng; j++) {
			const struct rp_group *g = &m->g[i], *h = &m->g[j];

			if (!rp_same_place(h, g->target, g->point, g->workload) ||
			    !rp_overlap(g->penalty_lo, g->penalty_hi,
					h->penalty_lo, h->penalty_hi))
				continue;
			snprintf(line, sizeof(line),
				 "%s and %s%s%s%s: first-write penalties "
				 "within noise of each other",
				 g->mode, h->mode, *g->where ? " (" : "",
				 g->where, *g->where ? ")" : "");
			fn(line, arg);
		}
	/* what eager's provisioning costs, and when it is paid back */
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		const struct rp_group *others[2] = {
			rp_sibling(m, g, PB_MODE_LAZY),
			rp_sibling(m, g, PB_MODE_THIN)};
		const double be[2] = {g->be_lazy, g->be_thin};

		if (g->pmode != PB_MODE_EAGER || isnan(g->prov_med))
			continue;
		group_name(n, sizeof(n), g);
		for (j = 0; j < 2; j++) {
			const struct rp_group *h = others[j];

			if (!h || isnan(h->prov_med) || isnan(be[j]))
				continue;
			if (first_same(g, h))
				snprintf(line, sizeof(line),
					 "%s: %.1f s to provision against "
					 "%s's %.1f s; their first writes are "
					 "within noise of each other, so a "
					 "break-even is not significant",
					 n, g->prov_med, h->mode, h->prov_med);
			else if (be[j] < 0)
				snprintf(line, sizeof(line),
					 "%s: %.1f s to provision against "
					 "%s's %.1f s, never paid back (its "
					 "first write is no faster)",
					 n, g->prov_med, h->mode, h->prov_med);
			else if ((g->disk_bytes > 0 || disk) &&
				 be[j] > (g->disk_bytes > 0 ? g->disk_bytes
							    : (double)disk))
				snprintf(line, sizeof(line),
					 "%s: %.1f s to provision against "
					 "%s's %.1f s, not paid back within "
					 "the disk (%s of new blocks would be "
					 "needed)",
					 n, g->prov_med, h->mode, h->prov_med,
					 pb_size_format(j ? t : a, 32,
							rp_u64(be[j])));
			else
				snprintf(line, sizeof(line),
					 "%s: %.1f s to provision against "
					 "%s's %.1f s, paid back after %s "
					 "written",
					 n, g->prov_med, h->mode, h->prov_med,
					 pb_size_format(j ? t : a, 32,
							rp_u64(be[j])));
			fn(line, arg);
		}
	}
	/* the same mode on other targets (datastores, hosts, VMs) */
	for (i = 0; m->ntinfo > 1 && i < m->ng; i++)
		across_line(m, &m->g[i], fn, arg);
	if (m->failed_items) {
		snprintf(line, sizeof(line),
			 "%zu item%s failed: the figures above are from what "
			 "did run (see the list of failed items)",
			 m->failed_items, m->failed_items == 1 ? "" : "s");
		fn(line, arg);
	}
}
