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
#include "words.h"

/* out += printf, never past len */
/* "one repetition" or "2 repetitions": too few to tell noise with */
static const char *reps_few(char *buf, size_t len, size_t n)
{
	if (n <= 1)
		snprintf(buf, len, "one repetition");
	else
		snprintf(buf, len, "%zu repetitions", n);
	return buf;
}

static void cat(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void cat(char *out, size_t len, const char *fmt, ...)
{
	size_t n = strnlen(out, len);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(out + n, len - n, fmt, ap);
	va_end(ap);
}

/* a whole percent, never "-0%" */
void rp_pct_text(char *out, size_t len, double v)
{
	if (isnan(v))
		snprintf(out, len, "-");
	else
		snprintf(out, len, "%.0f%%", round(v * 100) + 0.0);
}

void rp_pct_interval(char *out, size_t len, double lo, double hi)
{
	double a = round(lo * 100) + 0.0, b = round(hi * 100) + 0.0;

	if (isnan(lo) || isnan(hi))
		snprintf(out, len, "-");
	else if (a < 0)
		snprintf(out, len, "[%.0f to %.0f%%]", a, b);
	else
		snprintf(out, len, "[%.0f-%.0f%%]", a, b);
}

void rp_group_label(char *out, size_t len, const struct rp_group *g, bool where)
{
	bool w = where && *g->where;

	snprintf(out, len, "%s", g->mode);
	if (g->unread && w)
		cat(out, len, " (not read back; %s)", g->where);
	else if (g->unread)
		cat(out, len, " (not read back)");
	else if (g->mismatch && w)
		cat(out, len, " (applied as %s; %s)", g->applied, g->where);
	else if (g->mismatch)
		cat(out, len, " (applied as %s)", g->applied);
	else if (w)
		cat(out, len, " (%s)", g->where);
}

/* "thin", "thin and lazy", "thin, lazy and eager" */
static void set_names(char *out, size_t len, const struct rp_finding *f)
{
	char l[320];
	size_t i;

	out[0] = '\0';
	for (i = 0; i < f->nset; i++) {
		rp_group_label(l, sizeof(l), f->set[i], false);
		cat(out, len, "%s%s",
		    !i		       ? ""
		    : i + 1 == f->nset ? " and "
				       : ", ",
		    l);
	}
}

/* "bs=64K: " before a headline clause when the place has a name */
static void place_prefix(char *out, size_t len, const struct rp_group *g)
{
	out[0] = '\0';
	if (g && *g->where)
		snprintf(out, len, "%s: ", g->where);
}

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
		cat(more, sizeof(more), "; %zu too noisy to tell", g->nnoisy);
	if (!g->nsettled) {
		snprintf(out, len, "never settled (%zu of %zu reps%s)",
			 g->nnever, n, more);
		return;
	}
	snprintf(out, len, "%zu of %zu settled, median %s%s%s%s", g->nsettled,
		 n, pb_size_format(sz, sizeof(sz), rp_u64(g->steady_med)),
		 *more ? " (" : "", *more ? more + 2 : "", *more ? ")" : "");
}

void rp_steady_cell(char *out, size_t len, const struct rp_group *g)
{
	size_t told = g->nsettled + g->nnever;
	size_t n = told + g->nshort + g->nnoisy;
	char sz[32];

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

/* ---- the headline ---- */

/* what a local run measured: the analog, never ESXi's zeroing */
static void scope(char *out, size_t len, const struct rp_finding *f)
{
	const char *fs = f->metric && *f->metric ? f->metric : "the host's",
		   *sfx = f->metric && *f->metric ? "" : " filesystem";

	if (!strcmp(f->detail, "qemu raw"))
		snprintf(out, len,
			 "what this measured is the local analog, not ESXi: "
			 "thin's first write pays %s%s filling a sparse disk "
			 "file's holes, lazy's %s%s converting unwritten "
			 "extents; VMFS zeroing its 1 MiB blocks, VAAI and the "
			 "array are not in these figures",
			 fs, sfx, fs, sfx);
	else if (!strcmp(f->detail, "qemu"))
		snprintf(out, len,
			 "what this measured is the local analog, not ESXi: "
			 "thin's first write pays qcow2 allocating clusters "
			 "and %s%s filling the disk file's holes, lazy's %s%s "
			 "converting unwritten extents; VMFS zeroing its 1 "
			 "MiB blocks, VAAI and the array are not in these "
			 "figures",
			 fs, sfx, fs, sfx);
	else
		snprintf(out, len,
			 "what this measured is the host's own filesystem, "
			 "not ESXi: thin's first write pays %s%s filling a "
			 "sparse file's holes, lazy's %s%s converting "
			 "unwritten extents; VMFS zeroing its 1 MiB blocks, "
			 "VAAI and the array are not in these figures",
			 fs, sfx, fs, sfx);
}

static void headline(char *out, size_t len, const struct rp_model *m,
		     const struct rp_finding *f)
{
	char names[1024], pre[512], a[32], b[32], sz[32];
	size_t i;

	set_names(names, sizeof(names), f);
	place_prefix(pre, sizeof(pre), f->g);
	switch (f->kind) {
	case RP_F_H_PARTIAL:
		snprintf(out, len, "%s",
			 f->n == 1 ? "INTERRUPTED: the run was stopped before "
				     "its plan ended"
			 : f->n == 2 ? "UNFINISHED: run.json does not say the "
				       "run ended (it is still going, or it "
				       "crashed)"
				     : "INCOMPLETE");
		if (f->x > 0)
			cat(out, len, "%s %.0f item%s failed (listed below)",
			    f->n ? ";" : ":", f->x, f->x == 1 ? "" : "s");
		cat(out, len, "; what follows is what it measured");
		return;
	case RP_F_H_SLOWER:
	case RP_F_H_FASTER:
		rp_pct_text(a, sizeof(a), fabs(f->v));
		rp_pct_text(b, sizeof(b), fabs(f->v2));
		if (f->kind == RP_F_H_FASTER) {
			char t[32];

			snprintf(t, sizeof(t), "%s", a);
			snprintf(a, sizeof(a), "%s", b);
			snprintf(b, sizeof(b), "%s", t);
		}
		if (!strcmp(a, b))
			snprintf(out, len,
				 "%s%s: first write takes %s %s than rewrite",
				 pre, names, a,
				 f->kind == RP_F_H_SLOWER ? "longer"
							  : "less time");
		else
			snprintf(out, len,
				 "%s%s: first write takes %.*s-%s %s than "
				 "rewrite",
				 pre, names, (int)(strlen(a) - 1), a, b,
				 f->kind == RP_F_H_SLOWER ? "longer"
							  : "less time");
		return;
	case RP_F_H_FLAT:
		snprintf(out, len, "%s%s show%s no first-write penalty %s", pre,
			 names, f->nset == 1 ? "s" : "",
			 f->metric ? "of 5% or more" : "beyond noise");
		if (!isnan(f->x))
			cat(out, len, " (to within \u00b1%.0f%%)",
			    round(f->x * 100) + 0.0);
		return;
	case RP_F_H_FEW:
		snprintf(out, len,
			 "%s%s, so no interval and no verdict on noise: "
			 "first-write penalty ",
			 pre,
			 reps_few(a, sizeof(a), f->nset ? f->set[0]->nok : 1));
		for (i = 0; i < f->nset; i++) {
			char l[320];

			rp_group_label(l, sizeof(l), f->set[i], false);
			rp_pct_text(a, sizeof(a), f->set[i]->penalty);
			cat(out, len, "%s%s %s", i ? ", " : "", l, a);
		}
		return;
	case RP_F_H_BREAKEVEN:
		snprintf(out, len, "%seager's %.2f s of provisioning ", pre,
			 f->v);
		if (!(f->v > f->v2))
			cat(out, len,
			    "takes no longer than %s's: nothing "
			    "to repay",
			    names);
		else if (f->sig == RP_SIG_FEW)
			cat(out, len,
			    "against %s's: %s, too few to tell whether it "
			    "is repaid",
			    names,
			    reps_few(a, sizeof(a), f->g ? f->g->nok : 1));
		else if (f->sig == RP_SIG_NOISE)
			cat(out, len,
			    "cannot be weighed against %s's: their first "
			    "writes are within noise of each other",
			    names);
		else if (f->x < 0)
			cat(out, len,
			    "is never repaid against %s: its first write is "
			    "no faster",
			    names);
		else if (!isnan(f->hi) && f->x > f->hi)
			cat(out, len,
			    "is not repaid within this disk against %s", names);
		else
			cat(out, len,
			    "is repaid against %s after %s of new blocks",
			    names,
			    pb_size_format(sz, sizeof(sz), rp_u64(f->x)));
		return;
	case RP_F_H_INCONCLUSIVE:
		snprintf(out, len,
			 "%sinconclusive: with %zu repetition%s the penalty "
			 "intervals are up to \u00b1%.0f%% wide; about %.0f "
			 "repetitions would tell a 10%% difference",
			 pre, f->n, f->n == 1 ? "" : "s",
			 round(f->v * 100) + 0.0, f->x);
		return;
	case RP_F_H_NONE:
		snprintf(out, len, "%snothing was measured", pre);
		return;
	case RP_F_H_SCOPE:
		scope(out, len, f);
		return;
	default:
		break;
	}
	(void)m;
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
			 reps_few(iv, sizeof(iv), f->g->nlr));
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
		cat(out, len, ", less what %s's own shows", f->h->mode);
}

/* "first write 0.50x [0.30-0.53]": a ratio, and whether the finding
 * judged it within noise (never judged here) */
static void ratio(char *out, size_t len, const char *what, double v, double lo,
		  double hi, enum rp_sig sig)
{
	cat(out, len, "%s %.2fx", what, v);
	if (!isnan(lo))
		cat(out, len, " [%.2f-%.2f]%s", lo, hi,
		    sig == RP_SIG_NOISE ? " (within noise)" : "");
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
		cat(out, len, "no longer: nothing to repay");
	else if (f->sig == RP_SIG_FEW)
		cat(out, len, "%s: too few to tell a break-even",
		    reps_few(sz, sizeof(sz),
			     f->g->nfirst < f->h->nfirst ? f->g->nfirst
							 : f->h->nfirst));
	else if (f->sig == RP_SIG_NOISE)
		cat(out, len,
		    "no break-even beyond noise: their first writes are "
		    "within noise of each other");
	else if (f->x < 0)
		cat(out, len,
		    "never paid back: eager's first write is no "
		    "faster");
	else if (!isnan(f->hi) && f->x > f->hi)
		cat(out, len,
		    "not paid back within the disk (%s of new blocks would "
		    "be needed)",
		    pb_size_format(sz, sizeof(sz), rp_u64(f->x)));
	else
		cat(out, len, "paid back after %s of new blocks",
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
			cat(out, len, "%s no figure on %s", i ? "," : "",
			    t->target_name);
			continue;
		}
		rp_pct_text(p, sizeof(p), t->penalty);
		rp_pct_interval(iv, sizeof(iv), t->penalty_lo, t->penalty_hi);
		cat(out, len, "%s %s %s on %s", i ? "," : "", p,
		    isnan(t->penalty_lo) ? "" : iv, t->target_name);
		if (t->penalty > f->set[hi]->penalty ||
		    isnan(f->set[hi]->penalty))
			hi = i;
		if (t->penalty < f->set[lo]->penalty ||
		    isnan(f->set[lo]->penalty))
			lo = i;
	}
	if (f->sig == RP_SIG_FEW)
		cat(out, len,
		    "; too few repetitions to tell noise: not ranked");
	else if (f->sig == RP_SIG_YES)
		cat(out, len, "; %s beyond noise (highest on %s, lowest on %s)",
		    f->nset == 2 ? "they differ" : "some differ",
		    f->set[hi]->target_name, f->set[lo]->target_name);
	else
		cat(out, len, "; within noise of each other: not ranked");
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

		cat(out, len, "%s on a side: too few to tell noise",
		    reps_few(n, sizeof(n),
			     f->g->nfirst < f->h->nfirst ? f->g->nfirst
							 : f->h->nfirst));
	} else {
		cat(out, len, "%s noise (99%% interval %+.1f to %+.1f%%)",
		    f->sig == RP_SIG_NOISE ? "within" : "beyond", f->change_lo,
		    f->change_hi);
	}
	if (f->regressed)
		cat(out, len, ": a regression past the %g%% limit", f->limit);
	else if (f->past_limit_noise)
		cat(out, len, ": past the %g%% limit, but not a regression",
		    f->limit);
}

static void finding_text(char *out, size_t len, const struct rp_model *m,
			 const struct rp_finding *f);

/* "; read 1.27x [1.19-1.34], beyond noise": one share of a pass kind,
 * nothing when it has no figure */
static void share_said(char *out, size_t len, const char *what, double v,
		       double lo, double hi)
{
	if (isnan(v))
		return;
	cat(out, len, "; %s %.2fx", what, v);
	if (isnan(lo))
		return;
	cat(out, len, " [%.2f-%.2f], %s", lo, hi,
	    lo <= 1.0 && hi >= 1.0 ? "within noise" : "beyond noise");
}

void rp_finding_text(char *out, size_t len, const struct rp_model *m,
		     const struct rp_finding *f)
{
	finding_text(out, len, m, f);
	if (f->kind != RP_F_UNPOOLED) /* it names both kinds itself */
		rp_later_words(out, len, m);
}

/* "first write 0.05-0.33x (3 of 3 beyond noise)" */
static void range_said(char *out, size_t len, const char *what, double a,
		       double b, unsigned yes, size_t n, bool first)
{
	if (isnan(a))
		return;
	cat(out, len, "%s%s ", first ? "" : ", ", what);
	if (a == b || fabs(a - b) < 0.005)
		cat(out, len, "%.2fx", a);
	else
		cat(out, len, "%.2f-%.2fx", a, b);
	if (!yes)
		cat(out, len, " (within noise)");
	else if (yes == n)
		cat(out, len, " (beyond noise)");
	else
		cat(out, len, " (%u of %zu modes beyond noise)", yes, n);
}

/* RP_F_H_HOST, RP_F_H_ARM: a comparison's shares, over its modes */
static void compare_line(char *out, size_t len, const struct rp_finding *f)
{
	static const struct {
		enum rp_share_kind k;
		const char *what;
	} rates[] = {{RP_SH_FIRST, "first write"},
		     {RP_SH_READ, "read"},
		     {RP_SH_FSYNC, "fsync-write"}};
	bool first = true;
	double a = f->ra[RP_SH_CMD], b = f->rb[RP_SH_CMD];
	unsigned yes = f->yes[RP_SH_CMD];

	if (f->kind == RP_F_H_HOST)
		snprintf(out, len, "the guest against the host: ");
	else
		snprintf(out, len, "%s against %s: ", f->g->target_name,
			 *f->h->target_name ? f->h->target_name : "the first");
	for (unsigned i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (!isnan(f->ra[rates[i].k])) {
			range_said(out, len, rates[i].what, f->ra[rates[i].k],
				   f->rb[rates[i].k], f->yes[rates[i].k], f->n,
				   first);
			first = false;
		}
	/* a time: larger is slower, said as such */
	if (isnan(a))
		return;
	cat(out, len, "; the command takes ");
	if (fabs(a - b) < 0.05)
		cat(out, len, "%.1fx", a);
	else
		cat(out, len, "%.1f-%.1fx", a, b);
	cat(out, len, " as long%s",
	    !yes	  ? " (within noise)"
	    : yes == f->n ? " (beyond noise)"
			  : " (not beyond noise for every mode)");
}

/* the kinds after the first write, each said when it has a figure */
static void shares_said(char *out, size_t len, const struct rp_shares *sh,
			bool later)
{
	if (later)
		share_said(out, len, "rewrite", sh->s[RP_SH_LATER].v,
			   sh->s[RP_SH_LATER].lo, sh->s[RP_SH_LATER].hi);
	share_said(out, len, "read", sh->s[RP_SH_READ].v, sh->s[RP_SH_READ].lo,
		   sh->s[RP_SH_READ].hi);
	share_said(out, len, "fsync-write", sh->s[RP_SH_FSYNC].v,
		   sh->s[RP_SH_FSYNC].lo, sh->s[RP_SH_FSYNC].hi);
	share_said(out, len, "the command's time", sh->s[RP_SH_CMD].v,
		   sh->s[RP_SH_CMD].lo, sh->s[RP_SH_CMD].hi);
}

/* What every finding's sentence is made from: the finding, the model,
 * and its groups' labels, made once. */
struct said {
	char *out;
	size_t len;
	const struct rp_model *m;
	const struct rp_finding *f;
	const char *l, *o; /* its group's label, and the other group's */
	const char *names; /* the set's names, where a finding has one */
};

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

static void say_vs_baseline(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;
	const char *o = s->o;

	snprintf(out, len, "%s against %s: ", l, o);
	ratio(out, len, "first write", f->v, f->lo, f->hi, f->sig);
	ratio(out, len, ", rewrite", f->v2, f->lo2, f->hi2, f->sig2);
	if (f->sig == RP_SIG_FEW) {
		char nr[32];

		cat(out, len, " (%s: no interval)",
		    reps_few(nr, sizeof(nr), f->g->nfirst));
	}
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
		cat(out, len,
		    "; not confirmed, it is named %s, never the "
		    "baseline, and left out of what is said of %s",
		    l, f->g->mode);
		return;
	}
	snprintf(out, len, "%s was asked for and the server made %s",
		 f->g->mode, f->g->applied);
	if (*f->detail)
		cat(out, len, ": %s", f->detail);
	cat(out, len,
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
		cat(out, len,
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
		cat(out, len, "%s%s %s", i ? ", " : "", p, iv);
	}
	cat(out, len, "): not ranked");
}

static void say_breakeven(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	breakeven(out, len, f);
	if (*f->g->where)
		cat(out, len, " (%s)", f->g->where);
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
		cat(out, len, "%.0f to ", f->v * 1e3);
	cat(out, len,
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
		cat(out, len,
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

static void say_vs_host(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_model *m = s->m;
	const struct rp_finding *f = s->f;

	/* "thin in the guest: 0.91x the host's first write [0.88-0.93]
	 * (1478.4 against 1633.4 MiB/s), 0.97x its rewrite [...],
	 * beyond noise; read ..." */
	const struct rp_share *w = &f->g->host.s[RP_SH_LATER];
	char a[64] = "", b[64] = "";

	if (!isnan(f->lo))
		snprintf(a, sizeof(a), " [%.2f-%.2f]", f->lo, f->hi);
	if (!isnan(w->lo))
		snprintf(b, sizeof(b), " [%.2f-%.2f]", w->lo, w->hi);
	snprintf(out, len,
		 "%s in the guest: %.2fx the host's first write%s "
		 "(%.1f against %.1f %s)",
		 f->g->mode, f->v, a, rp_rate(m, f->g->first_med),
		 rp_rate(m, f->h->first_med), m->rate_unit);
	if (!isnan(w->v))
		cat(out, len, ", %.2fx its rewrite%s", w->v, b);
	cat(out, len, "%s",
	    f->sig == RP_SIG_FEW     ? " (too few repetitions: no "
				       "interval)"
	    : f->sig == RP_SIG_NOISE ? ", within noise of the host"
				     : ", beyond noise");
	shares_said(out, len, &f->g->host, false);
}

static void say_arm(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_model *m = s->m;
	const struct rp_finding *f = s->f;

	/* "thin on mem_file=true: first write 0.86x mem_file=false's
	 * [0.83-0.89] (120.2 against 140.4 MiB/s), beyond noise;
	 * rewrite 0.95x [0.90-1.01], within noise" */
	char a[64] = "";

	if (!isnan(f->lo))
		snprintf(a, sizeof(a), " [%.2f-%.2f]", f->lo, f->hi);
	snprintf(out, len,
		 "%s on %s: first write %.2fx %s's%s (%.1f against "
		 "%.1f %s)%s",
		 f->g->mode, f->g->target_name, f->v,
		 *f->h->target_name ? f->h->target_name : "the first", a,
		 rp_rate(m, f->g->first_med), rp_rate(m, f->h->first_med),
		 m->rate_unit,
		 f->sig == RP_SIG_FEW	  ? " (too few repetitions: "
					    "no interval)"
		 : f->sig == RP_SIG_NOISE ? ", within noise"
					  : ", beyond noise");
	shares_said(out, len, &f->g->arm, true);
}

static void say_device(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	/* "thin at the device (vda): a first write's requests took
	 * 2.57 ms on average against 1.63 ms in the rewrites (1.58x
	 * [1.11-2.08], beyond noise); it wrote 1.00x the bytes" */
	const struct rp_devtime *d = f->n ? &f->g->hostdev : &f->g->dev;
	char nr[32];

	snprintf(out, len,
		 "%s at the %sdevice (%s): a first write's requests "
		 "took %.2f ms on average against %.2f ms in the "
		 "rewrites (%.2fx",
		 l, f->n ? "host's " : "", *d->name ? d->name : "?", f->v,
		 f->v2, f->x);
	if (!isnan(f->lo))
		cat(out, len, " [%.2f-%.2f], %s", f->lo, f->hi,
		    f->sig == RP_SIG_NOISE ? "within noise" : "beyond noise");
	else
		cat(out, len, "; %s: no interval",
		    reps_few(nr, sizeof(nr), d->nfirst));
	cat(out, len,
	    "); it wrote %.2fx the bytes the runner wrote (%.2fx in "
	    "the rewrites)",
	    d->first_med[RP_DEV_AMP], d->later_med[RP_DEV_AMP]);
	if (!isnan(d->first_med[RP_DEV_CPU]) &&
	    !isnan(d->later_med[RP_DEV_CPU]))
		cat(out, len,
		    "; qemu used %.3f ms of CPU per write against %.3f "
		    "in the rewrites",
		    d->first_med[RP_DEV_CPU], d->later_med[RP_DEV_CPU]);
}

static void say_extents(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	/* "thin in its file: the first write had the filesystem
	 * allocate 256 MiB (holes filled); 3 extents after it; the
	 * later writes found it in place" */
	char al[32], cv[32], lt[32];

	pb_size_format(al, sizeof(al), (uint64_t)f->v);
	pb_size_format(cv, sizeof(cv), (uint64_t)f->v2);
	snprintf(out, len, "%s in %s: the first write ", l,
		 f->n ? "its disk's file on the host" : "its file");
	if (f->v > 0 && f->v2 > 0)
		cat(out, len,
		    "had the filesystem allocate %s (holes filled) "
		    "and convert %s of unwritten extents to written",
		    al, cv);
	else if (f->v > 0)
		cat(out, len, "had the filesystem allocate %s (holes filled)",
		    al);
	else if (f->v2 > 0)
		cat(out, len,
		    "had the filesystem convert %s of unwritten "
		    "extents to written",
		    cv);
	else
		cat(out, len,
		    "found every block written before (nothing "
		    "allocated or converted)");
	cat(out, len, "; %.0f extent%s after it", f->x, f->x == 1 ? "" : "s");
	if (!isnan(f->lo) && f->lo > 0)
		cat(out, len, "; the later writes changed %s",
		    pb_size_format(lt, sizeof(lt), (uint64_t)f->lo));
	else if (!isnan(f->lo))
		cat(out, len, "; the later writes found it in place");
}

static void say_server(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_model *m = s->m;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	/* "thin at the server (scsi0:1, LUN naa.x): a first write's
	 * device write latency 5.0 ms against 4.0 ms in the rewrites
	 * (1.25x [1.10-1.40], beyond noise); kernel 0.1 against 0.1
	 * ms, queue 0.0 against 0.0 ms, the virtual disk 6.0 against
	 * 4.5 ms; CPU 0.400 against 0.300 ms per write" */
	static const char *const what[RP_SV__COUNT] = {
		[RP_SV_GUEST_MS] = "the guest (the runner)",
		[RP_SV_VDISK_MS] = "the virtual disk",
		[RP_SV_KERNEL_MS] = "kernel",
		[RP_SV_DEVICE_MS] = "device",
		[RP_SV_QUEUE_MS] = "queue",
		[RP_SV_DS_MS] = "the datastore",
	};
	const struct rp_server *v = &f->g->srv;
	const char *later = rp_later_name(m);

	snprintf(out, len,
		 "%s at the server (%s%s%s): a first write's %s write "
		 "latency %.2f ms against %.2f ms in the %ss",
		 l, *v->vdisk ? v->vdisk : "?", *v->lun ? ", LUN " : "", v->lun,
		 f->n == RP_SV_DEVICE_MS ? "device"
		 : f->n == RP_SV_DS_MS	 ? "datastore"
					 : "virtual disk",
		 f->v, f->v2, later);
	if (!isnan(f->lo))
		cat(out, len, " (%.2fx [%.2f-%.2f], %s)", f->x, f->lo, f->hi,
		    f->sig == RP_SIG_NOISE ? "within noise" : "beyond noise");
	else if (!isnan(f->x))
		cat(out, len,
		    " (%.2fx; too few repetitions: no "
		    "interval)",
		    f->x);
	for (unsigned k = 0; k < RP_SV_CPU; k++) {
		if (k == (unsigned)f->n || isnan(v->first_med[k]) ||
		    isnan(v->later_med[k]))
			continue;
		cat(out, len, "; %s %.2f against %.2f ms", what[k],
		    v->first_med[k], v->later_med[k]);
	}
	if (!isnan(v->first_med[RP_SV_CPU]) && !isnan(v->later_med[RP_SV_CPU]))
		cat(out, len, "; the VM's CPU %.3f against %.3f ms per write",
		    v->first_med[RP_SV_CPU], v->later_med[RP_SV_CPU]);
	/* where the first write's extra time is, said only when the
	 * difference is beyond noise: the layer that grew most */
	if (f->sig == RP_SIG_YES) {
		static const char *const at[RP_SV__COUNT] = {
			[RP_SV_KERNEL_MS] = "in the VMkernel",
			[RP_SV_DEVICE_MS] = "in the device",
			[RP_SV_QUEUE_MS] = "in the queue",
		};
		unsigned best = RP_SV__COUNT;
		double d, bd = 0;

		for (unsigned k = RP_SV_KERNEL_MS; k <= RP_SV_QUEUE_MS; k++) {
			d = v->first_med[k] - v->later_med[k];
			if (!isnan(d) && d > bd) {
				bd = d;
				best = k;
			}
		}
		if (best < RP_SV__COUNT)
			cat(out, len,
			    ": the first write's extra time is %s "
			    "(+%.2f ms a write)",
			    at[best], bd);
	}
}

static void say_server_short(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	if (f->x > 0)
		snprintf(out, len,
			 "the server's counters cannot tell where the "
			 "time went: every write pass was shorter than "
			 "two "
			 "of its %.0f s samples (the longest %.1f s); "
			 "a pass needs %.0f s to hold a sample of its "
			 "own (a larger disk, or passes of the same "
			 "disk that take longer)",
			 f->v / 2, f->x, f->v);
	else
		snprintf(out, len,
			 "the server's counters could not be read: %s",
			 *f->detail ? f->detail : "?");
}

static void say_after_reclaim(const struct said *s)
{
	snprintf(s->out, s->len,
		 "%.0f pass%s after a reclaim (the first write again and what "
		 "followed it) %s not in these figures: a second cycle is "
		 "another workload, whose cost the re-warm lines say "
		 "(run.json and report.csv keep each pass)",
		 s->f->x, s->f->x == 1 ? "" : "es",
		 s->f->x == 1 ? "is" : "are");
}

/*
 * "thin: a reclaim (punch-hole) gave back 64 MiB of its file in 0.01 s,
 * read back from its extents (median of 3)"; eager and lazy files that
 * gave blocks back turned sparse, which a real disk of theirs does not
 */
static void say_reclaimed(const struct said *s)
{
	const struct rp_finding *f = s->f;
	char sz[32], med[40] = "";
	bool thick =
		f->g->pmode == PB_MODE_EAGER || f->g->pmode == PB_MODE_LAZY;
	/* a raw mapping's stand-in: a loop device over a written file */
	bool raw = pb_mode_is_raw_mapping(f->g->pmode);
	const char *where = f->g->reclaim_where ? f->g->reclaim_where : "file";

	if (f->x > 1)
		snprintf(med, sizeof(med), " (median of %.0f)", f->x);
	if (!f->n) {
		snprintf(s->out, s->len, "%s: the reclaim was not done (%s)",
			 s->l, *f->detail ? f->detail : "not said why");
		return;
	}
	if (isnan(f->v)) {
		snprintf(s->out, s->len,
			 "%s: a reclaim (%s) discarded the region in %.2f s%s; "
			 "whether the space came back is not read back here",
			 s->l, f->metric ? f->metric : "?", f->v2, med);
		return;
	}
	pb_size_format(sz, sizeof(sz), f->v > 0 ? (uint64_t)f->v : 0);
	snprintf(s->out, s->len,
		 "%s: a reclaim (%s) gave back %s of its %s in %.2f s, read "
		 "back from %s%s%s",
		 s->l, f->metric ? f->metric : "?", sz, where, f->v2,
		 strstr(where, "datastore") ? "the server" : "its extents", med,
		 !(f->v > 0) ? ""
		 : thick     ? ": the file turned sparse, a thin disk's from "
			       "then on (a real disk of this mode keeps its "
			       "blocks)"
		 : raw	     ? ": the LUN's file turned sparse, a thin LUN's "
			       "from then on (as an array's thin LUN that "
			       "honours UNMAP)"
			     : "");
}

/* what gave the space back, as the re-warm line starts */
static void rewarm_after(char *out, size_t len, const struct rp_finding *f,
			 const char *l)
{
	const struct rp_group *g = f->g;
	char sz[32];

	if (!g->nreclaim_done) {
		snprintf(out, len, "%s: after a reclaim that was not done", l);
	} else if (isnan(f->x)) {
		snprintf(out, len, "%s: after a reclaim (%s) in %.2f s", l,
			 g->reclaim_method ? g->reclaim_method : "?",
			 g->reclaim_s_med);
	} else if (!(f->x > 0)) {
		snprintf(out, len, "%s: with no space given back", l);
	} else {
		pb_size_format(sz, sizeof(sz), (uint64_t)f->x);
		snprintf(out, len, "%s: after %s reclaimed in %.2f s", l, sz,
			 g->reclaim_s_med);
	}
}

/*
 * "thin: after 1 GiB reclaimed in 0.01 s, the next write paid 31%
 * [26-36%] again (the first write 33%: the same within noise)";
 * "eager: with no space given back, the next write found its blocks:
 * 1% [-2 to 4%] over a rewrite, within noise". Found its blocks is said
 * only where nothing was given back; a cost within noise of a rewrite
 * and of the first write alike is said as not told.
 */
static void say_rewarm(const struct said *s)
{
	const struct rp_finding *f = s->f;
	const struct rp_group *g = f->g;
	bool kept = !g->nreclaim_done || (!isnan(f->x) && !(f->x > 0));
	char p[32], iv[48], p1[32];

	rewarm_after(s->out, s->len, f, s->l);
	rp_pct_text(p, sizeof(p), f->v);
	rp_pct_interval(iv, sizeof(iv), f->lo, f->hi);
	rp_pct_text(p1, sizeof(p1), g->penalty);
	if (f->sig == RP_SIG_FEW) {
		cat(s->out, s->len,
		    ", the next write cost %s over a rewrite (%s: no "
		    "interval, too few to tell noise)",
		    p, reps_few(iv, sizeof(iv), f->n));
	} else if (f->sig == RP_SIG_YES && f->v > 0) {
		cat(s->out, s->len, ", the next write paid %s %s again", p, iv);
	} else if (kept) {
		cat(s->out, s->len,
		    ", the next write found its blocks: %s %s over a rewrite%s",
		    p, iv, f->sig == RP_SIG_NOISE ? ", within noise" : "");
	} else if (f->sig2 == RP_SIG_NOISE) {
		cat(s->out, s->len,
		    ", whether the next write paid again cannot be told: %s %s "
		    "over a rewrite, within noise of a rewrite and of the "
		    "first write (%s)",
		    p, iv, p1);
		goto out;
	} else {
		cat(s->out, s->len,
		    ", the next write paid no more than a rewrite: %s %s%s", p,
		    iv, f->sig == RP_SIG_NOISE ? ", within noise" : "");
	}
	if (f->sig2 == RP_SIG_NOISE) {
		cat(s->out, s->len,
		    " (the first write %s: the same within noise)", p1);
	} else if (f->sig2 == RP_SIG_YES) {
		rp_pct_text(p, sizeof(p), fabs(f->v2));
		rp_pct_interval(iv, sizeof(iv), f->v2 > 0 ? f->lo2 : -f->hi2,
				f->v2 > 0 ? f->hi2 : -f->lo2);
		cat(s->out, s->len,
		    " (the first write %s; this one took %s %s %s)", p1, p, iv,
		    f->v2 > 0 ? "longer" : "less time");
	} else if (!isnan(g->penalty)) {
		cat(s->out, s->len, " (the first write %s)", p1);
	}
out:
	if (f->h)
		cat(s->out, s->len, ", less what %s's first write shows",
		    f->h->mode);
}

static void say_unpooled(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_model *m = s->m;
	const struct rp_finding *f = s->f;

	snprintf(out, len,
		 "%.0f %s pass%s not in these figures: the later "
		 "writes here are %ss, and a %s is another workload "
		 "(run.json keeps each pass)",
		 f->x, m->later == RUNNER_PASS_REWRITE ? "recreate" : "rewrite",
		 f->x == 1 ? " is" : "es are", rp_later_name(m),
		 m->later == RUNNER_PASS_REWRITE ? "recreate" : "rewrite");
}

static void say_failed_items(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	snprintf(out, len,
		 "%.0f item%s failed: the figures are from what did "
		 "run (see the list of failed items)",
		 f->x, f->x == 1 ? "" : "s");
}

static void say_fleet_place(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	snprintf(out, len, "%s", f->detail);
}

static void say_retried(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	snprintf(out, len,
		 "%s, repetition %.0f: its first try stalled (%s); its "
		 "figures are a second try's, on a new disk",
		 f->detail, f->x, f->metric);
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
	[RP_F_VS_BASELINE] = say_vs_baseline,
	[RP_F_APPLIED_AS] = say_applied_as,
	[RP_F_WARMUP] = say_warmup,
	[RP_F_BASELINE_WARMS] = say_baseline_warms,
	[RP_F_NOISE] = say_noise,
	[RP_F_ABOVE_BASELINE] = say_above_baseline,
	[RP_F_QD_KEPT] = say_qd_kept,
	[RP_F_UNRAMPED] = say_unramped,
	[RP_F_SAME_PENALTY] = say_same_penalty,
	[RP_F_BREAKEVEN] = say_breakeven,
	[RP_F_ACROSS] = say_across,
	[RP_F_SHARED] = say_shared,
	[RP_F_RAMP] = say_ramp,
	[RP_F_PAIRS] = say_pairs,
	[RP_F_STEADY_WITHIN] = say_steady_within,
	[RP_F_BASELINE_NOTE] = say_baseline_note,
	[RP_F_VS_HOST] = say_vs_host,
	[RP_F_ARM] = say_arm,
	[RP_F_DEVICE] = say_device,
	[RP_F_EXTENTS] = say_extents,
	[RP_F_SERVER] = say_server,
	[RP_F_SERVER_SHORT] = say_server_short,
	[RP_F_UNPOOLED] = say_unpooled,
	[RP_F_AFTER_RECLAIM] = say_after_reclaim,
	[RP_F_RECLAIMED] = say_reclaimed,
	[RP_F_REWARM] = say_rewarm,
	[RP_F_FAILED_ITEMS] = say_failed_items,
	[RP_F_FLEET_PLACE] = say_fleet_place,
	[RP_F_RETRIED] = say_retried,
	[RP_F_CHANGE] = say_change,
};

static void finding_text(char *out, size_t len, const struct rp_model *m,
			 const struct rp_finding *f)
{
	char l[512] = "", o[320] = "", names[1024];
	struct said s = {out, len, m, f, l, o, names};

	out[0] = '\0';
	if (f->kind == RP_F_H_HOST || f->kind == RP_F_H_ARM) {
		compare_line(out, len, f);
		return;
	}
	if (f->kind <= RP_F_H_SCOPE) {
		headline(out, len, m, f);
		return;
	}
	if (f->g)
		rp_group_label(l, sizeof(l), f->g, true);
	if (f->h)
		rp_group_label(o, sizeof(o), f->h, false);
	set_names(names, sizeof(names), f);
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

json_t *rp_finding_json(const struct rp_model *m, const struct rp_finding *f)
{
	char text[2048];
	json_t *o = json_object(), *set = json_array();
	size_t i;

	rp_finding_text(text, sizeof(text), m, f);
	json_object_set_new(o, "rule", json_string(rp_finding_rule(f)));
	json_object_set_new(o, "significance",
			    json_string(rp_sig_name(f->sig)));
	json_object_set_new(o, "warning", json_boolean(f->warning));
	if (f->g) {
		json_object_set_new(o, "mode", json_string(f->g->mode));
		json_object_set_new(o, "applied_mode",
				    json_string(f->g->applied));
		json_object_set_new(o, "target",
				    json_string(f->g->target_name));
		json_object_set_new(o, "workload", json_string(f->g->workload));
	}
	if (f->h)
		json_object_set_new(o, "other_mode", json_string(f->h->mode));
	for (i = 0; i < f->nset; i++)
		json_array_append_new(set, json_string(f->set[i]->mode));
	json_object_set_new(o, "modes", set);
	if (f->metric)
		json_object_set_new(o, "metric", json_string(f->metric));
	json_object_set_new(o, "value", rp_jnum(f->v));
	json_object_set_new(o, "lo", rp_jnum(f->lo));
	json_object_set_new(o, "hi", rp_jnum(f->hi));
	json_object_set_new(o, "value2", rp_jnum(f->v2));
	json_object_set_new(o, "lo2", rp_jnum(f->lo2));
	json_object_set_new(o, "hi2", rp_jnum(f->hi2));
	json_object_set_new(o, "x", rp_jnum(f->x));
	if (f->kind == RP_F_CHANGE)
		json_object_set_new(o, "regressed", json_boolean(f->regressed));
	json_object_set_new(o, "text", json_string(text));
	return o;
}

/* a profile value as text: "1G", 4, true */
static const char *pval(json_t *o, const char *k, char *buf, size_t len)
{
	json_t *v = json_object_get(o, k);

	buf[0] = '\0';
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	return buf;
}

void rp_measured_text(char *out, size_t len, const struct rp_model *m)
{
	json_t *p = m->profile, *w = json_object_get(p, "workload");
	json_t *passes = json_object_get(w, "passes"), *x;
	char a[64], b[64];
	size_t i;

	out[0] = '\0';
	if (!p)
		return;
	if (*pval(p, "disk_size", a, sizeof(a)))
		cat(out, len, "%s disks", a);
	if (*pval(w, "file_size", a, sizeof(a)))
		cat(out, len, ", a %s file", a);
	if (*pval(w, "filesystem", a, sizeof(a)) && strcmp(a, "none"))
		cat(out, len, " on %s", a);
	if (json_array_size(passes)) {
		cat(out, len, "%s", *out ? "; " : "");
		json_array_foreach(passes, i, x)
			cat(out, len, "%s%s", i ? ", " : "",
			    json_string_value(x) ? json_string_value(x) : "?");
	}
	cat(out, len, "%s%s %s writes", *out ? "; " : "",
	    *pval(w, "pattern", a, sizeof(a)) ? a : "seq",
	    *pval(w, "bs", b, sizeof(b)) ? b : "1M");
	if (*pval(w, "qd", a, sizeof(a)))
		cat(out, len, " at qd %s", a);
	pval(w, "direct", a, sizeof(a));
	cat(out, len, ", %s", !strcmp(a, "false") ? "buffered" : "direct");
	if (*pval(w, "pair_stripe", a, sizeof(a)))
		cat(out, len, ", first write in %s stripe pairs", a);
	if (*pval(p, "repetitions", a, sizeof(a)))
		cat(out, len, "; %s repetition%s", a,
		    strcmp(a, "1") ? "s" : "");
	if (m->nmore)
		cat(out, len, " per run, %zu runs merged", m->nmore + 1);
	cat(out, len, "; baseline %s", m->have_baseline ? m->baseline : "none");
}

void rp_fleet_agg_text(char *out, size_t len, const struct rp_model *m,
		       const struct rp_fleet_row *r)
{
	/* in the run's unit, as every page's rates */
	if (r->nagg && r->nagg > 1)
		snprintf(out, len, "%.1f %s [%.1f-%.1f] over %.2f s",
			 rp_rate(m, r->agg_med), m->rate_unit,
			 rp_rate(m, r->agg_lo), rp_rate(m, r->agg_hi),
			 r->window_med);
	else if (r->nagg)
		snprintf(out, len,
			 "%.1f %s over %.2f s (one wave: no "
			 "interval)",
			 rp_rate(m, r->agg_med), m->rate_unit, r->window_med);
	else if (r->nshort)
		snprintf(out, len,
			 "too short to tell (the passes overlapped "
			 "for under %d intervals)",
			 RP_AGG_MIN_INTERVALS);
	else if (r->nnone)
		snprintf(out, len, "none: the passes did not overlap");
	else
		snprintf(out, len, "none: the passes carry no start times");
}

/* The wave's pass as a row names it: "rewrite (pass 2)". */
void rp_fleet_pass_name(char *out, size_t len, const struct rp_fleet_row *r)
{
	snprintf(out, len, "%s (pass %lld)", r->name, r->index + 1);
}

/* How the passes were put on one clock, for the tables' notes. */
const char *rp_fleet_clock_note(const struct rp_fleet *f)
{
	return f->clock_source[0] ? f->clock_source
				  : "the guests' own clocks, taken as the "
				    "host's (VMware Tools keep them in step)";
}
