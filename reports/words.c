/*
 * words.c - the one wording of every finding (findings.c draws them), and
 * the formats every page shares: a group's label, a percentage and its
 * interval, the within-pass settling. A sentence says only what its
 * finding's figures support: under RP_MIN_TELL repetitions figures and no
 * interval ("2 repetitions: too few to tell"),
 * "within noise" is said of an interval that holds the null, a ratio
 * verdict only where there is an interval.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "findings.h"
#include "fleet.h"
#include "model.h"
#include "phrase.h"
#include "words.h"
#include "words_int.h"

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
		pb_cat(more, sizeof(more), "; %zu too noisy to tell",
		       g->nnoisy);
	if (!g->nsettled) {
		snprintf(out, len, "never settled (%zu of %zu reps%s)",
			 g->nnever, n, more);
		return;
	}
	snprintf(out, len, "%zu of %zu settled, median %s%s%s%s", g->nsettled,
		 n, pb_size_format(sz, sizeof(sz), rp_u64(g->steady_med)),
		 *more ? " (" : "", *more ? more + 2 : "", *more ? ")" : "");
}

void rp_steady_cell(char *out, size_t len, const struct rp_model *m,
		    const struct rp_group *g)
{
	size_t told = g->nsettled + g->nnever;
	size_t n = told + g->nshort + g->nnoisy;
	char sz[32];

	(void)m;
	out[0] = '\0';
	if (!n)
		return;
	if (!told)
		snprintf(out, len, "%s", g->nnoisy ? "too noisy" : "too short");
	else if (!g->nsettled)
		snprintf(out, len, "never (%zu/%zu)", g->nnever, n);
	else
		snprintf(out, len, "%zu/%zu at %s", g->nsettled, n,
			 pb_size_format(sz, sizeof(sz), rp_u64(g->steady_med)));
}

void rp_stop_cell(char *out, size_t len, const struct rp_model *m,
		  const struct rp_group *g)
{
	double t = m->seq.threshold * 100, p = m->seq.precision * 100;
	unsigned n = g->stop_after;

	out[0] = '\0';
	if (!m->seq.on)
		return;
	switch (g->stop) {
	case RJ_STOP_ABOVE:
		snprintf(out, len, "above %g%% after %u", t, n);
		break;
	case RJ_STOP_WITHIN:
		snprintf(out, len, "under %g%% after %u", t, n);
		break;
	case RJ_STOP_PRECISE:
		snprintf(out, len, "\u00b1%g points after %u", p, n);
		break;
	case RJ_STOP_MAX:
		snprintf(out, len, "open at the most, %u", n);
		break;
	case RJ_STOP_FUTILE:
		snprintf(out, len, "no answer by %u, after %u", m->seq.max, n);
		break;
	case RJ_STOP_BASELINE:
		snprintf(out, len, "baseline, %u", n);
		break;
	case RJ_STOP_NONE:
		snprintf(out, len, "skipped");
		break;
	default:
		snprintf(out, len, "open: the run stopped");
		break;
	}
}

/* ---- a group's, a place's, the run's ---- */

static void penalty(char *out, size_t len, const struct rp_finding *f,
		    const char *l)
{
	char p[32], iv[48];

	rp_pct_text(p, sizeof(p), fabs(f->v));
	rp_pct_interval(iv, sizeof(iv), f->v > 0 ? f->lo : -f->hi,
			f->v > 0 ? f->hi : -f->lo);
	switch (f->sig) {
	case RP_SIG_FEW:
		snprintf(out, len,
			 "%s: first write takes %s %s than rewrite (%s: no "
			 "interval, too few to tell noise)",
			 l, p, f->v >= 0 ? "longer" : "less time",
			 rp_reps_few(iv, sizeof(iv), f->g->nlr));
		break;
	case RP_SIG_NOISE:
		rp_pct_text(p, sizeof(p), f->v);
		rp_pct_interval(iv, sizeof(iv), f->lo, f->hi);
		snprintf(out, len,
			 "%s: first write within noise of rewrite (penalty %s "
			 "%s)",
			 l, p, iv);
		break;
	default:
		snprintf(out, len,
			 "%s: first write takes %s %s than rewrite %s", l, p,
			 f->v > 0 ? "longer" : "less time", iv);
	}
	if (f->h)
		pb_cat(out, len, ", less what %s's own shows", f->h->mode);
}

static void warmup(char *out, size_t len, const struct rp_model *m,
		   const struct rp_finding *f, const char *l)
{
	double v = rp_rate(m, f->v), v2 = rp_rate(m, f->v2);
	int at = (int)f->x + (int)f->lo;
	const char *from = f->lo > 0 ? "rewrite 1" : "the first write";

	switch (f->sig) {
	case RP_SIG_FEW:
		snprintf(out, len,
			 "%s across passes: %zu passes, too few to tell where "
			 "rewrites hold steady (a window of %s)",
			 l, f->n, f->detail);
		break;
	case RP_SIG_NOISE:
		snprintf(out, len,
			 "%s across passes: not steady after %zu passes (%.1f "
			 "%s at %s, %.1f at the last)",
			 l, f->n, v, m->rate_unit, from, v2);
		break;
	default:
		if (at == 0)
			snprintf(out, len,
				 "%s across passes: steady from the first "
				 "write (%.1f then %.1f %s)",
				 l, v, v2, m->rate_unit);
		else
			snprintf(out, len,
				 "%s across passes: steady from rewrite %d "
				 "(%.1f %s at %s, %.1f at the last)",
				 l, at, v, m->rate_unit, from, v2);
	}
}

static void breakeven(char *out, size_t len, const struct rp_finding *f)
{
	char sz[32];

	snprintf(out, len,
		 "eager against %s: %.2f s to provision against "
		 "%.2f s, ",
		 f->h->mode, f->v, f->v2);
	if (!(f->v > f->v2))
		pb_cat(out, len, "no longer: nothing to repay");
	else if (f->sig == RP_SIG_FEW)
		pb_cat(out, len, "%s: too few to tell a break-even",
		       rp_reps_few(sz, sizeof(sz),
				   f->g->nfirst < f->h->nfirst ? f->g->nfirst
							       : f->h->nfirst));
	else if (f->sig == RP_SIG_NOISE)
		pb_cat(out, len,
		       "no break-even beyond noise: their first writes are "
		       "within noise of each other");
	else if (f->x < 0)
		pb_cat(out, len,
		       "never paid back: eager's first write is no "
		       "faster");
	else if (!isnan(f->hi) && f->x > f->hi)
		pb_cat(out, len,
		       "not paid back within the disk (%s of new blocks would "
		       "be needed)",
		       pb_size_format(sz, sizeof(sz), rp_u64(f->x)));
	else
		pb_cat(out, len, "paid back after %s of new blocks",
		       pb_size_format(sz, sizeof(sz), rp_u64(f->x)));
}

static void across(char *out, size_t len, const struct rp_finding *f)
{
	const struct rp_group *g = f->g;
	size_t i, hi = 0, lo = 0;
	char iv[48], p[32];

	snprintf(out, len, "%s%s%s%s: first-write penalty", g->mode,
		 *g->workload ? " (" : "", g->workload,
		 *g->workload ? ")" : "");
	for (i = 0; i < f->nset; i++) {
		const struct rp_group *t = f->set[i];

		if (isnan(t->penalty)) {
			pb_cat(out, len, "%s no figure on %s", i ? "," : "",
			       t->target_name);
			continue;
		}
		rp_pct_text(p, sizeof(p), t->penalty);
		rp_pct_interval(iv, sizeof(iv), t->penalty_lo, t->penalty_hi);
		pb_cat(out, len, "%s %s %s on %s", i ? "," : "", p,
		       isnan(t->penalty_lo) ? "" : iv, t->target_name);
		if (t->penalty > f->set[hi]->penalty ||
		    isnan(f->set[hi]->penalty))
			hi = i;
		if (t->penalty < f->set[lo]->penalty ||
		    isnan(f->set[lo]->penalty))
			lo = i;
	}
	if (f->sig == RP_SIG_FEW)
		pb_cat(out, len,
		       "; too few repetitions to tell noise: not ranked");
	else if (f->sig == RP_SIG_YES)
		pb_cat(out, len,
		       "; %s beyond noise (highest on %s, lowest on %s)",
		       f->nset == 2 ? "they differ" : "some differ",
		       f->set[hi]->target_name, f->set[lo]->target_name);
	else
		pb_cat(out, len, "; within noise of each other: not ranked");
}

void rp_change_then_now(char *out, size_t len, const struct rp_model *m,
			const struct rp_finding *f)
{
	char a[32], b[32];

	/* the share the gate watches, and the answer's own penalty then
	 * and now (the share's is the mode's own time ratio, before the
	 * baseline's is taken out): one number per mode on every page */
	if (!strcmp(f->metric, RP_METRIC_VS_LATER)) {
		rp_pct_text(a, sizeof(a), f->h->penalty);
		rp_pct_text(b, sizeof(b), f->g->penalty);
		snprintf(out, len, "%.2fx -> %.2fx (penalty %s -> %s)", f->v,
			 f->v2, a, b);
	} else
		snprintf(out, len, "%.1f -> %.1f %s", rp_rate(m, f->v),
			 rp_rate(m, f->v2), m->rate_unit);
}

static void change(char *out, size_t len, const struct rp_model *m,
		   const struct rp_finding *f, const char *l)
{
	char tn[96];

	rp_change_then_now(tn, sizeof(tn), m, f);
	snprintf(out, len, "%s %s: %s (%+.1f%%), ", l, f->metric, tn, f->x);
	if (f->sig == RP_SIG_FEW) {
		char n[32];

		pb_cat(out, len, "%s on a side: too few to tell noise",
		       rp_reps_few(n, sizeof(n),
				   f->g->nfirst < f->h->nfirst ? f->g->nfirst
							       : f->h->nfirst));
	} else {
		pb_cat(out, len, "%s noise (99%% interval %+.1f to %+.1f%%)",
		       f->sig == RP_SIG_NOISE ? "within" : "beyond",
		       f->change_lo, f->change_hi);
	}
	if (f->gate == RP_GATE_FELL)
		pb_cat(out, len, ": a regression past the %g%% limit",
		       f->limit);
	else if (f->gate == RP_GATE_HELD)
		pb_cat(out, len, ": held (no fall of %g%%)", f->limit);
	else if (f->gate == RP_GATE_OPEN)
		pb_cat(out, len,
		       ": cannot tell yet against %g%% (about %u repetitions "
		       "a run would tell)",
		       f->limit, f->gate_reps);
}

static void finding_text(char *out, size_t len, const struct rp_model *m,
			 const struct rp_finding *f);

void rp_finding_text(char *out, size_t len, const struct rp_model *m,
		     const struct rp_finding *f)
{
	finding_text(out, len, m, f);
	if (f->kind != RP_F_UNPOOLED) /* it names both kinds itself */
		rp_later_words(out, len, m);
}

static void say_not_measured(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	snprintf(out, len, "%s: not measured (%s)", l, f->g->first_error);
}

static void say_no_penalty(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	if (!f->g)
		snprintf(out, len,
			 "no first-write penalty is measured: the "
			 "workload has no rewrite or recreate pass to "
			 "set the first write against");
	else if (f->g->tail.rate_iops > 0)
		snprintf(out, len,
			 "%s: at an offered rate a pass takes the schedule's "
			 "time, not the disk's: no first-write penalty in "
			 "time; the tail at the rate is the figure",
			 l);
	else
		snprintf(out, len,
			 "%s: no first-write penalty (it needs a first "
			 "write and a rewrite)",
			 l);
}

static void say_penalty(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	penalty(out, len, f, l);
}

static void say_applied_as(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	if (f->g->unread) {
		snprintf(out, len,
			 "%s was asked for and could not be read back "
			 "as any mode (its filesystem cannot tell "
			 "written blocks from allocated ones)",
			 f->g->mode);
		pb_cat(out, len,
		       "; not confirmed, it is named %s, never the "
		       "baseline, and left out of what is said of %s",
		       l, f->g->mode);
		return;
	}
	snprintf(out, len, "%s was asked for and the server made %s",
		 f->g->mode, f->g->applied);
	if (*f->detail)
		pb_cat(out, len, ": %s", f->detail);
	pb_cat(out, len,
	       "; its figures are a %s disk's, it is named %s, never the "
	       "baseline, and left out of what is said of %s",
	       f->g->applied, l, f->g->mode);
}

static void say_warmup(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_model *m = s->m;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	warmup(out, len, m, f, l);
}

static void say_baseline_warms(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	snprintf(out, len,
		 "warning: the baseline %s itself warms up (its first "
		 "write takes %.0f%% longer than rewrite): ratios "
		 "against it move with it, and the other modes' "
		 "penalties are less its own",
		 l, round(f->v * 100) + 0.0);
}

static void say_noise(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	snprintf(out, len,
		 "noise: one disk's rewrites differ by a median of "
		 "%.0f%% (%zu reps) for the baseline %s, with no "
		 "first-write cost between them: the host's "
		 "pass-to-pass noise; differences of that size are "
		 "within it, and the intervals say which are not (%s)",
		 round(f->v * 100) + 0.0, f->n, l,
		 f->g->penalty_paired
			 ? "the penalties, from stripe pairs "
			   "milliseconds apart, do not carry it"
			 : "more repetitions or longer passes narrow "
			   "them");
}

static void say_above_baseline(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;
	const char *o = s->o;

	snprintf(out, len,
		 "%s: rewrites %.2fx the baseline %s's [%.2f-%.2f], "
		 "beyond noise: written blocks cost the baseline's "
		 "path more than this mode's, so ratios to it flatter "
		 "%s",
		 l, f->v, o, f->lo, f->hi, f->g->mode);
	if (f->n)
		pb_cat(out, len,
		       "; %s here is a loop device over a file (the qemu "
		       "backend's raw-device analog): every write passes "
		       "the loop driver's queue and then the host "
		       "filesystem, where %s's disk file is written by "
		       "qemu itself, so part of the difference is the "
		       "analog's cost, which a LUN does not have",
		       o, f->g->mode);
}

static void say_qd_kept(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;
	const char *names = s->names;

	if (f->v2 - f->v < 0.05)
		snprintf(out, len,
			 "%s: a pass kept a queue depth of %.1f of the "
			 "%.0f asked (the device waited on the guest): "
			 "its figures understate the disk",
			 f->nset > 1 ? names : l, f->v, f->x);
	else
		snprintf(out, len,
			 "%s: a pass kept a queue depth of %.1f to "
			 "%.1f of the %.0f asked (the device waited on "
			 "the guest): their figures understate the disk",
			 names, f->v, f->v2, f->x);
}

/*
 * Where each mode's penalty spread comes from: its share between disks,
 * and what would narrow it (Kalibera and Jones: repetitions at the level
 * where the variance is). Within a disk, between its rewrite passes: more
 * passes a disk cost a pass each, a repetition a disk and its first
 * write; between its stripes: a larger disk (more stripes).
 */
static void say_levels(const struct said *s)
{
	const struct rp_finding *f = s->f;
	bool own[2] = {false, false};
	size_t i, n;

	snprintf(s->out, s->len,
		 "where the penalty's spread comes from (Kalibera and "
		 "Jones's levels):");
	/* the modes whose spread differs between disks, each with its
	 * share: more repetitions narrow it */
	for (i = 0, n = 0; i < f->nset; i++) {
		const struct rp_group *g = f->set[i];

		if (g->lv_p >= 0.05) {
			own[g->lr_within_kind == RP_WITHIN_PASSES] = true;
			continue;
		}
		pb_cat(s->out, s->len, "%s %s %.0f%%", n++ ? "," : "", g->mode,
		       100 * g->lv_between / (g->lv_between + g->lv_within));
	}
	if (n)
		pb_cat(s->out, s->len,
		       " between disks, beyond a disk's own noise (F test): "
		       "more repetitions narrow %s",
		       n > 1 ? "them" : "it");
	/* the rest: no more than a disk's own noise, by where it was told */
	for (int k = 0; k < 2; k++) {
		if (!own[k])
			continue;
		pb_cat(s->out, s->len, "%s", n ? ";" : "");
		for (i = 0, n = 0; i < f->nset; i++) {
			const struct rp_group *g = f->set[i];

			if (g->lv_p < 0.05 ||
			    (g->lr_within_kind == RP_WITHIN_PASSES) != k)
				continue;
			pb_cat(s->out, s->len, "%s %s", n++ ? "," : "",
			       g->mode);
		}
		pb_cat(s->out, s->len,
		       " no more than a disk's own noise (between its %s): "
		       "%s narrow%s it at less cost than more disks",
		       k ? "passes" : "stripes",
		       k ? "more rewrite passes a disk"
			 : "a larger disk (more stripes)",
		       k ? "" : "s");
	}
}

static void say_unramped(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	snprintf(out, len,
		 "%s: %.0f pass(es) no longer than their ramp: their "
		 "figures are the whole pass's",
		 l, f->x);
}

static void say_same_penalty(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *names = s->names;
	size_t i;

	snprintf(out, len,
		 "%s%s%s%s: first-write penalties within "
		 "noise of each other (",
		 names, *f->g->where ? " (" : "", f->g->where,
		 *f->g->where ? ")" : "");
	for (i = 0; i < f->nset; i++) {
		char p[32], iv[48];

		rp_pct_text(p, sizeof(p), f->set[i]->penalty);
		rp_pct_interval(iv, sizeof(iv), f->set[i]->penalty_lo,
				f->set[i]->penalty_hi);
		pb_cat(out, len, "%s%s %s", i ? ", " : "", p, iv);
	}
	pb_cat(out, len, "): not ranked");
}

static void say_breakeven(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	breakeven(out, len, f);
	if (*f->g->where)
		pb_cat(out, len, " (%s)", f->g->where);
}

static void say_across(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	across(out, len, f);
}

static void say_shared(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	snprintf(out, len,
		 "warning: another provbench run was using %s when "
		 "this one started: the figures include its load",
		 f->detail);
}

static void say_ramp(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	snprintf(out, len, "each pass's first ");
	if (f->v < f->v2)
		pb_cat(out, len, "%.0f to ", f->v * 1e3);
	pb_cat(out, len,
	       "%.0f ms are left out of its throughput and latency "
	       "(ramp_ms, as fio's ramp_time): its blocks are written, "
	       "its start-up is not measured",
	       f->v2 * 1e3);
}

static void say_pairs(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	char sz[32];

	snprintf(out, len,
		 "penalties from stripe pairs: each rep's first write "
		 "in %s stripes, each fresh one followed by a rewrite "
		 "of the one before it; a rep's penalty is the time "
		 "its whole first write took, every fresh stripe, over "
		 "its rewritten stripes' for as many bytes (%zu pairs "
		 "or more), so what the host does between passes "
		 "cancels",
		 pb_size_format(sz, sizeof(sz), (uint64_t)f->g->pair_stripe),
		 f->g->pairs_min);
	if (f->h)
		pb_cat(out, len,
		       "; each stripe drains the queue at its end (%s's "
		       "rewritten stripes ran at %.0f%% of its rewrite "
		       "passes' rate): the first-write column is the "
		       "fresh stripes', to compare with first writes "
		       "rather than with rewrites",
		       f->h->mode, f->h->stripe_vs_pass_med * 100.0);
}

static void say_steady_within(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;

	snprintf(out, len,
		 "within a pass, where a first write settles cannot be "
		 "told for any mode: a pass needs %d intervals, and a "
		 "rewrite that holds still within 10%% to judge it "
		 "against; the warm-up across passes is said per mode",
		 RP_STEADY_MIN_INTERVALS);
}

static void say_baseline_note(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	snprintf(out, len, "baseline: %s", f->detail);
}

static void say_change(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_model *m = s->m;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	change(out, len, m, f, l);
}

/* Each finding kind's sentence: one function per kind (the headlines
 * and comparisons have theirs above). */
static void (*const sayers[RP_F__COUNT])(const struct said *s) = {
	[RP_F_NOT_MEASURED] = say_not_measured,
	[RP_F_NO_PENALTY] = say_no_penalty,
	[RP_F_PENALTY] = say_penalty,
	[RP_F_VS_BASELINE] = rp_say_vs_baseline,
	[RP_F_APPLIED_AS] = say_applied_as,
	[RP_F_WARMUP] = say_warmup,
	[RP_F_BASELINE_WARMS] = say_baseline_warms,
	[RP_F_NOISE] = say_noise,
	[RP_F_ABOVE_BASELINE] = say_above_baseline,
	[RP_F_QD_KEPT] = say_qd_kept,
	[RP_F_LEVELS] = say_levels,
	[RP_F_UNRAMPED] = say_unramped,
	[RP_F_SAME_PENALTY] = say_same_penalty,
	[RP_F_BREAKEVEN] = say_breakeven,
	[RP_F_ACROSS] = say_across,
	[RP_F_SHARED] = say_shared,
	[RP_F_RAMP] = say_ramp,
	[RP_F_PAIRS] = say_pairs,
	[RP_F_STEADY_WITHIN] = say_steady_within,
	[RP_F_BASELINE_NOTE] = say_baseline_note,
	[RP_F_VS_HOST] = rp_say_vs_host,
	[RP_F_ARM] = rp_say_arm,
	[RP_F_DEVICE] = rp_say_device,
	[RP_F_EXTENTS] = rp_say_extents,
	[RP_F_SERVER] = rp_say_server,
	[RP_F_SERVER_SHORT] = rp_say_server_short,
	[RP_F_UNPOOLED] = rp_say_unpooled,
	[RP_F_AFTER_RECLAIM] = rp_say_after_reclaim,
	[RP_F_RECLAIMED] = rp_say_reclaimed,
	[RP_F_REWARM] = rp_say_rewarm,
	[RP_F_FAILED_ITEMS] = rp_say_failed_items,
	[RP_F_FLEET_PLACE] = rp_say_fleet_place,
	[RP_F_RETRIED] = rp_say_retried,
	[RP_F_CHANGE] = say_change,
	[RP_F_TAIL] = rp_say_tail,
	[RP_F_TAIL_UNHELD] = rp_say_tail_unheld,
	[RP_F_HEADROOM] = rp_say_headroom,
};

static void finding_text(char *out, size_t len, const struct rp_model *m,
			 const struct rp_finding *f)
{
	char l[512] = "", o[320] = "", names[1024];
	struct said s = {out, len, m, f, l, o, names};

	out[0] = '\0';
	if (f->kind == RP_F_H_HOST || f->kind == RP_F_H_ARM) {
		rp_say_compare_line(out, len, f);
		return;
	}
	if (f->kind <= RP_F_H_SCOPE) {
		rp_say_headline(out, len, m, f);
		return;
	}
	if (f->g)
		rp_group_label(l, sizeof(l), f->g, true);
	if (f->h)
		rp_group_label(o, sizeof(o), f->h, false);
	rp_set_names(names, sizeof(names), f);
	if (f->kind < RP_F__COUNT && sayers[f->kind])
		sayers[f->kind](&s);
}

const char *rp_finding_rule(const struct rp_finding *f)
{
	static const char *const names[] = {
		[RP_F_H_PARTIAL] = "headline-partial",
		[RP_F_H_SLOWER] = "headline-slower",
		[RP_F_H_FASTER] = "headline-faster",
		[RP_F_H_FLAT] = "headline-flat",
		[RP_F_H_FEW] = "headline-one-repetition",
		[RP_F_H_BREAKEVEN] = "headline-breakeven",
		[RP_F_H_INCONCLUSIVE] = "headline-inconclusive",
		[RP_F_H_NONE] = "headline-nothing-measured",
		[RP_F_H_SCOPE] = "headline-local-analog",
		[RP_F_NOT_MEASURED] = "not-measured",
		[RP_F_NO_PENALTY] = "no-penalty",
		[RP_F_PENALTY] = "penalty",
		[RP_F_VS_BASELINE] = "vs-baseline",
		[RP_F_APPLIED_AS] = "applied-as",
		[RP_F_WARMUP] = "warmup-across-passes",
		[RP_F_BASELINE_WARMS] = "baseline-warms-up",
		[RP_F_NOISE] = "baseline-noise",
		[RP_F_ABOVE_BASELINE] = "rewrite-above-baseline",
		[RP_F_QD_KEPT] = "queue-depth-kept",
		[RP_F_LEVELS] = "spread-levels",
		[RP_F_UNRAMPED] = "shorter-than-ramp",
		[RP_F_SAME_PENALTY] = "penalties-within-noise",
		[RP_F_BREAKEVEN] = "breakeven",
		[RP_F_ACROSS] = "across-targets",
		[RP_F_SHARED] = "shared-with-other-runs",
		[RP_F_RAMP] = "ramp",
		[RP_F_PAIRS] = "stripe-pairs",
		[RP_F_STEADY_WITHIN] = "steady-within-pass",
		[RP_F_BASELINE_NOTE] = "baseline-fallback",
		[RP_F_FAILED_ITEMS] = "failed-items",
		[RP_F_RETRIED] = "retried-after-stall",
		[RP_F_FLEET_PLACE] = "at-once-on-one-place",
		[RP_F_UNPOOLED] = "later-writes-not-pooled",
		[RP_F_AFTER_RECLAIM] = "after-reclaim-not-pooled",
		[RP_F_RECLAIMED] = "reclaimed",
		[RP_F_REWARM] = "rewarm",
		[RP_F_H_HOST] = "headline-guest-against-host",
		[RP_F_H_ARM] = "headline-target-against-first",
		[RP_F_VS_HOST] = "guest-against-host",
		[RP_F_ARM] = "target-against-first",
		[RP_F_DEVICE] = "at-the-device",
		[RP_F_EXTENTS] = "file-extents",
		[RP_F_SERVER] = "at-the-server",
		[RP_F_SERVER_SHORT] = "server-counters-too-short",
		[RP_F_CHANGE] = "change",
		[RP_F_TAIL] = "tail-at-rate",
		[RP_F_TAIL_UNHELD] = "rate-not-held",
		[RP_F_HEADROOM] = "rate-headroom",
	};

	return (size_t)f->kind < sizeof(names) / sizeof(names[0]) &&
			       names[f->kind]
		       ? names[f->kind]
		       : "?";
}

const char *rp_sig_name(enum rp_sig s)
{
	switch (s) {
	case RP_SIG_YES:
		return "beyond noise";
	case RP_SIG_NOISE:
		return "within noise";
	case RP_SIG_FEW:
		return "too few to tell";
	default:
		return "none";
	}
}
