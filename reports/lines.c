/*
 * lines.c - the saying floor's list of findings (issue 53): what a page
 * shows after the answer, ranked by what it is to a reader (findings.c's
 * rp_finding_rank), and one line for a finding each mode of a place has
 * (the demo's four "at the device" and four "in its file" lines, three
 * "rewrites against the baseline", two break-evens), so a reader meets
 * each thing once. The findings stay one per mode as data (report
 * --json); only their saying is joined.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "words.h"
#include "words_int.h"

#define MAX_JOIN RP_MAX_SET

/* The findings one line says: their kind's, at one place. */
struct join {
	const struct rp_finding *f[MAX_JOIN];
	size_t n;
};

/* "rdm, eager and thin": the joined findings' modes */
static void modes_of(char *out, size_t len, const struct join *j)
{
	out[0] = '\0';
	for (size_t i = 0; i < j->n; i++)
		pb_cat(out, len, "%s%s",
		       !i	       ? ""
		       : i + 1 == j->n ? " and "
				       : ", ",
		       j->f[i]->g->mode);
}

/* " (nfs, bs=64K)": the place, once, where the page has several */
static void place_of(char *out, size_t len, const struct join *j)
{
	const char *w = j->f[0]->g->where;

	snprintf(out, len, "%s%s%s", *w ? " (" : "", w, *w ? ")" : "");
}

static void device_line(char *out, size_t len, const struct rp_model *m,
			const struct join *j)
{
	const struct rp_finding *f0 = j->f[0];
	const struct rp_devtime *d0 = f0->n ? &f0->g->hostdev : &f0->g->dev;
	bool same_amp = true;
	char pl[300];

	place_of(pl, sizeof(pl), j);
	snprintf(out, len,
		 "at the %sdevice (%s)%s, a first write's requests against "
		 "the %ss':",
		 f0->n ? "host's " : "", *d0->name ? d0->name : "?", pl,
		 rp_later_name(m));
	for (size_t i = 0; i < j->n; i++) {
		const struct rp_finding *f = j->f[i];
		const struct rp_devtime *d = f->n ? &f->g->hostdev : &f->g->dev;

		pb_cat(out, len, "%s %s %.2f against %.2f ms (%.2fx",
		       i ? ";" : "", f->g->mode, f->v, f->v2, f->x);
		if (!isnan(f->lo))
			pb_cat(out, len, " [%.2f-%.2f], %s", f->lo, f->hi,
			       rp_sig_name(f->sig));
		else
			pb_cat(out, len, ", no interval");
		pb_cat(out, len, ")");
		same_amp &= fabs(d->first_med[RP_DEV_AMP] -
				 d0->first_med[RP_DEV_AMP]) < 0.005;
	}
	if (same_amp)
		pb_cat(out, len,
		       "; each wrote %.2fx the bytes the runner wrote",
		       d0->first_med[RP_DEV_AMP]);
	for (size_t i = 0; !same_amp && i < j->n; i++) {
		const struct rp_finding *f = j->f[i];
		const struct rp_devtime *d = f->n ? &f->g->hostdev : &f->g->dev;

		pb_cat(out, len, "%s %s wrote %.2fx",
		       i ? "," : "; of the runner's bytes,", f->g->mode,
		       d->first_med[RP_DEV_AMP]);
	}
}

static void extents_line(char *out, size_t len, const struct join *j)
{
	bool said[MAX_JOIN] = {false}, in_place = true;
	char pl[300], what[256], other[256];

	place_of(pl, sizeof(pl), j);
	snprintf(out, len, "in %s%s, the first write:",
		 j->f[0]->n ? "each disk's file on the host" : "each file", pl);
	/* the modes whose first write did the same, named together */
	for (size_t i = 0; i < j->n; i++) {
		size_t k, n = 0;

		if (said[i])
			continue;
		rp_extents_phrase(what, sizeof(what), j->f[i]);
		pb_cat(out, len, "%s ", i ? ";" : "");
		for (k = i; k < j->n; k++) {
			rp_extents_phrase(other, sizeof(other), j->f[k]);
			if (said[k] || strcmp(what, other))
				continue;
			said[k] = true;
			pb_cat(out, len, "%s%s", n++ ? " and " : "",
			       j->f[k]->g->mode);
		}
		pb_cat(out, len, " %s", what);
	}
	pb_cat(out, len, "; extents after it:");
	for (size_t i = 0; i < j->n; i++) {
		pb_cat(out, len, "%s %s %.0f", i ? "," : "", j->f[i]->g->mode,
		       j->f[i]->x);
		in_place &= !isnan(j->f[i]->lo) && !(j->f[i]->lo > 0);
	}
	if (in_place)
		pb_cat(out, len, "; the later writes found each in place");
}

static void above_baseline_line(char *out, size_t len, const struct join *j)
{
	const struct rp_finding *f0 = j->f[0];
	double lo = f0->v, hi = f0->v;
	char modes[256], pl[300];

	for (size_t i = 1; i < j->n; i++) {
		lo = fmin(lo, j->f[i]->v);
		hi = fmax(hi, j->f[i]->v);
	}
	modes_of(modes, sizeof(modes), j);
	place_of(pl, sizeof(pl), j);
	snprintf(out, len,
		 "%s%s: rewrites %.2f-%.2fx the baseline %s's, each beyond "
		 "noise: written blocks cost the baseline's path more than "
		 "these modes', so ratios to it flatter them",
		 modes, pl, lo, hi, f0->h->mode);
	if (f0->n)
		pb_cat(out, len,
		       "; %s here is a loop device over a file (the qemu "
		       "backend's raw-device analog): every write passes the "
		       "loop driver's queue and then the host filesystem, "
		       "where a mode's disk file is written by qemu itself, "
		       "so part of the difference is the analog's cost, which "
		       "a LUN does not have",
		       f0->h->mode);
}

/* eager's break-evens of one outcome, against each mode */
static void breakeven_line(char *out, size_t len, const struct join *j)
{
	const struct rp_finding *f0 = j->f[0];
	char modes[256], sz[32];

	out[0] = '\0';
	for (size_t i = 0; i < j->n; i++)
		pb_cat(out, len, "%s%s",
		       !i	       ? ""
		       : i + 1 == j->n ? " and "
				       : ", ",
		       j->f[i]->h->mode);
	snprintf(modes, sizeof(modes), "%s", out);
	bool same = true;

	for (size_t i = 1; i < j->n; i++)
		same &= fabs(j->f[i]->v2 - f0->v2) < 0.005;
	snprintf(out, len, "eager against %s: %.2f s to provision against ",
		 modes, f0->v);
	for (size_t i = 0; i < (same ? 1 : j->n); i++)
		pb_cat(out, len, "%s%.2f s%s%s%s", i ? ", " : "", j->f[i]->v2,
		       same ? "" : " (", same ? "" : j->f[i]->h->mode,
		       same ? "" : ")");
	pb_cat(out, len, ", %s after ",
	       !isnan(f0->hi) && f0->x > f0->hi
		       ? "not paid back within the disk: it would be"
		       : "paid back");
	for (size_t i = 0; i < j->n; i++)
		pb_cat(out, len, "%s%s of new blocks against %s", i ? ", " : "",
		       pb_size_format(sz, sizeof(sz), rp_u64(j->f[i]->x)),
		       j->f[i]->h->mode);
	if (*f0->g->where)
		pb_cat(out, len, " (%s)", f0->g->where);
}

/* a break-even's outcome, as its one line says it: the same outcome
 * joins; another (too few, within noise, never) is said alone */
static int breakeven_outcome(const struct rp_finding *f)
{
	if (!(f->v > f->v2) || f->sig != RP_SIG_YES || f->x < 0)
		return -1;
	return !isnan(f->hi) && f->x > f->hi ? 1 : 2;
}

/* May f be said on one line with first? Its kind joins, at one place. */
static bool joins(const struct rp_finding *first, const struct rp_finding *f)
{
	if (f->kind != first->kind || !f->g || !first->g ||
	    !rp_same_place(f->g, first->g->target, first->g->point,
			   first->g->workload))
		return false;
	switch (f->kind) {
	case RP_F_DEVICE:
	case RP_F_EXTENTS:
		return f->n == first->n;
	case RP_F_ABOVE_BASELINE:
		return f->n == first->n && f->h == first->h;
	case RP_F_BREAKEVEN:
		return breakeven_outcome(f) >= 0 &&
		       breakeven_outcome(f) == breakeven_outcome(first);
	default:
		return false;
	}
}

static enum pb_error add(struct rp_lines *ls, const char *text,
			 enum rp_rank rank, bool warning, size_t nsaid)
{
	struct rp_line *l;

	if (pb_array_grow(&ls->l, &ls->cap, ls->n, sizeof(*ls->l)))
		return PB_ERR_NOMEM;
	l = &ls->l[ls->n];
	l->text = strdup(text);
	if (!l->text)
		return PB_ERR_NOMEM;
	l->rank = rank;
	l->warning = warning;
	l->nsaid = nsaid;
	ls->n++;
	return PB_OK;
}

/* ranked, warnings first, else in the findings' order (a stable sort:
 * insertion, for the few dozen lines a page has) */
static void rank_lines(struct rp_lines *ls)
{
	for (size_t i = 1; i < ls->n; i++) {
		struct rp_line t = ls->l[i];
		size_t k = i;

		while (k > 0 && (ls->l[k - 1].rank > t.rank ||
				 (ls->l[k - 1].rank == t.rank &&
				  !ls->l[k - 1].warning && t.warning))) {
			ls->l[k] = ls->l[k - 1];
			k--;
		}
		ls->l[k] = t;
	}
}

enum pb_error rp_lines_build(struct rp_lines *out, const struct rp_model *m,
			     const struct rp_findings *fs)
{
	bool *used = calloc(fs->n + 1, sizeof(*used));
	char *t = malloc(8192);
	enum pb_error err = PB_OK;
	size_t i, k;

	memset(out, 0, sizeof(*out));
	if (!used || !t) {
		err = PB_ERR_NOMEM;
		goto out;
	}
	for (i = fs->nheadline; i < fs->n && !err; i++) {
		const struct rp_finding *f = &fs->f[i];
		struct join j = {.n = 0};
		bool warning = false;

		if (used[i] || !rp_finding_listed(f))
			continue;
		for (k = i; k < fs->n && j.n < MAX_JOIN; k++)
			if (!used[k] && (k == i || joins(f, &fs->f[k]))) {
				j.f[j.n++] = &fs->f[k];
				used[k] = true;
				warning |= fs->f[k].warning;
			}
		if (j.n == 1)
			rp_finding_text(t, 8192, m, f);
		else if (f->kind == RP_F_DEVICE)
			device_line(t, 8192, m, &j);
		else if (f->kind == RP_F_EXTENTS)
			extents_line(t, 8192, &j);
		else if (f->kind == RP_F_ABOVE_BASELINE)
			above_baseline_line(t, 8192, &j);
		else
			breakeven_line(t, 8192, &j);
		if (j.n > 1)
			rp_later_words(t, 8192, m);
		err = add(out, t, rp_finding_rank(f), warning, j.n);
	}
	rank_lines(out);
out:
	free(used);
	free(t);
	if (err)
		rp_lines_dispose(out);
	return err;
}

void rp_lines_dispose(struct rp_lines *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		free(ls->l[i].text);
	free(ls->l);
	memset(ls, 0, sizeof(*ls));
}
