/*
 * fleet.c - targets measured at once ("concurrency" above 1), the model's
 * part: each wave's aggregate throughput, HCIBench's figure, and the
 * spread across its targets, by mode, workload point and pass. What is
 * concluded of it is findings.c's, said words.c's, laid out by each
 * renderer.
 *
 * A wave is one mode on one workload point on several targets, started
 * together; its aggregate is the bytes all of them wrote while every one
 * was running (the overlapping window, on the host's clock), over that
 * window. Different modes are never summed: the plan never runs them in
 * one wave. The passes' start times come from the runner (the guest's
 * clock) put on the host's by the backend's "clock" note when it gave one
 * (qemu: the console's PB-START line); without one, the guests' own clocks
 * are taken as the host's (VMware Tools keep a guest's in step).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "stats.h"

/* What a wave's pass is summed by, kept while run.json streams past. */
struct rp_wave_pass {
	struct jl_doc *doc; /* its run's, which holds the series span */
	size_t run;	    /* its run, in the model */
	long long wave, rep, target, index;
	const char *workload; /* its group's (stable) */
	enum pb_mode mode;
	char name[24];
	bool timed; /* it said when it started */
	double start_s, seconds, bytes, mib_per_s;
	const char *span; /* its series, raw; NULL if none */
	uint32_t span_len;
};

enum pb_error rp_fleet_add(struct rp_fleet *f, struct rj_reader *rd, size_t run,
			   const struct rj_item *item, const char *workload)
{
	struct jl *clock = jl_get(item->runner, RJ_K_CLOCK), *p;
	const char *base = clock ? rj_str(rd, clock, RJ_K_CLOCK_BASE) : "";
	double offset = clock ? jl_num(jl_get(clock, RJ_K_CLOCK_OFFSET)) : 0;
	bool boot = !strcmp(base, RUNNER_K_STARTED_BOOT);
	struct rj_pass ps;

	/* one at a time, no wave has two items: nothing to keep */
	if (item->wave <= 0 || rd->concurrency < 2)
		return PB_OK;
	if (clock && !f->clock_source[0])
		snprintf(f->clock_source, sizeof(f->clock_source), "%s",
			 rj_str(rd, clock, RJ_K_CLOCK_SOURCE));
	if (isnan(offset))
		offset = 0;
	jl_foreach(item->passes, p)
	{
		struct rp_wave_pass *w;
		struct jl *st;

		rj_pass_read(rd, &ps, p);
		if (!ps.complete || ps.kind == RUNNER_PASS_COMMAND)
			continue;
		if (f->np == f->pcap) {
			size_t cap = f->pcap ? 2 * f->pcap : 64;
			void *q = realloc(f->p, cap * sizeof(*f->p));

			if (!q)
				return PB_ERR_NOMEM;
			f->p = q;
			f->pcap = cap;
		}
		w = &f->p[f->np++];
		memset(w, 0, sizeof(*w));
		w->doc = &rd->jd;
		w->run = run;
		w->wave = item->wave;
		w->rep = item->rep;
		w->target = item->target;
		w->index = jl_int(ps.k[RJ_P_INDEX]);
		w->workload = workload;
		w->mode = item->mode;
		snprintf(w->name, sizeof(w->name), "%s", ps.name);
		st = ps.k[boot ? RJ_P_STARTED_BOOT : RJ_P_STARTED_UNIX];
		w->timed = st && !isnan(jl_num(st));
		w->start_s = w->timed ? (jl_num(st) + offset) / 1e9 : 0;
		w->seconds = ps.seconds;
		w->bytes = jl_num(ps.k[RJ_P_BYTES]);
		w->mib_per_s = ps.mib_per_s;
		if (ps.k[RJ_P_SERIES] && ps.k[RJ_P_SERIES]->type == JL_RAW) {
			w->span = ps.k[RJ_P_SERIES]->s;
			w->span_len = (uint32_t)ps.k[RJ_P_SERIES]->slen;
		}
	}
	return PB_OK;
}

static int pass_cmp(const void *a, const void *b)
{
	const struct rp_wave_pass *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->wave != y->wave)
		return x->wave < y->wave ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->target < y->target ? -1 : x->target > y->target;
}

/* The row of a workload point, mode and pass, made if new. */
static struct rp_fleet_row *row_for(struct rp_fleet *f,
				    const struct rp_wave_pass *w)
{
	struct rp_fleet_row *r;
	size_t i;

	for (i = 0; i < f->nrow; i++) {
		r = &f->row[i];
		if (r->mode == w->mode && r->index == w->index &&
		    !strcmp(r->workload, w->workload))
			return r;
	}
	r = realloc(f->row, (f->nrow + 1) * sizeof(*f->row));
	if (!r)
		return NULL;
	f->row = r;
	r = &f->row[f->nrow++];
	memset(r, 0, sizeof(*r));
	r->workload = w->workload;
	r->mode = w->mode;
	r->index = w->index;
	snprintf(r->name, sizeof(r->name), "%s", w->name);
	r->agg_med = r->agg_lo = r->agg_hi = r->window_med = NAN;
	r->spread_med = r->tmin = r->tmax = NAN;
	return r;
}

static enum pb_error row_push(double **v, size_t *n, double x)
{
	double *q = realloc(*v, (*n + 1) * sizeof(**v));

	if (!q)
		return PB_ERR_NOMEM;
	*v = q;
	q[(*n)++] = x;
	return PB_OK;
}

/* One wave's pass on its targets: w[0..n), sorted by target. */
static enum pb_error add_wave(struct rp_fleet *f, struct rp_wave_pass *w,
			      size_t n)
{
	size_t a, b;
	struct rp_agg_pass ap[PB_MAX_ACROSS];
	double *t_s = NULL, *ib = NULL, mib, window, lo = INFINITY,
	       hi = -INFINITY, sum = 0;
	size_t start[PB_MAX_ACROSS], cap = 0, i, at = 0;
	struct rp_fleet_row *r;
	struct jl_mark mark;
	enum pb_error err = PB_OK;
	bool untimed = false;

	if (n > PB_MAX_ACROSS)
		n = PB_MAX_ACROSS;
	r = row_for(f, &w[0]);
	if (!r)
		return PB_ERR_NOMEM;
	/* who ran at once with whom, for the shared places */
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			if ((size_t)w[a].target < f->nwith &&
			    (size_t)w[b].target < f->nwith && a != b)
				f->with[(size_t)w[a].target * f->nwith +
					(size_t)w[b].target] = 1;
	if ((unsigned)n > r->ntargets)
		r->ntargets = (unsigned)n;
	if ((unsigned)n > f->most)
		f->most = (unsigned)n;
	/* each target's series, parsed once from its span, into one array
	 * (the passes point into it once it has stopped growing) */
	for (i = 0; i < n; i++) {
		struct jl *s, *pt;

		untimed |= !w[i].timed;
		ap[i] = (struct rp_agg_pass){.start_s = w[i].start_s,
					     .seconds = w[i].seconds,
					     .bytes = w[i].bytes};
		start[i] = at;
		jl_mark(w[i].doc, &mark);
		s = w[i].span
			    ? jl_parse_span(w[i].doc, w[i].span, w[i].span_len)
			    : NULL;
		if (s && at + s->n > cap) {
			size_t c = 2 * (at + s->n);
			double *q1 = realloc(t_s, c * sizeof(*t_s));
			double *q2 = q1 ? realloc(ib, c * sizeof(*ib)) : NULL;

			t_s = q1 ? q1 : t_s;
			ib = q2 ? q2 : ib;
			if (!q1 || !q2) {
				jl_reset(w[i].doc, &mark);
				err = PB_ERR_NOMEM;
				goto out;
			}
			cap = c;
		}
		jl_foreach(s, pt)
		{
			t_s[at] = jl_num(jl_get(pt, RUNNER_K_T_S));
			ib[at++] = jl_num(jl_get(pt, RUNNER_K_BYTES));
		}
		jl_reset(w[i].doc, &mark);
		ap[i].n = at - start[i];
		lo = fmin(lo, w[i].mib_per_s);
		hi = fmax(hi, w[i].mib_per_s);
		sum += w[i].mib_per_s;
	}
	for (i = 0; i < n; i++) {
		ap[i].t_s = t_s ? t_s + start[i] : NULL;
		ap[i].ibytes = ib ? ib + start[i] : NULL;
	}
	r->nwaves++;
	/* the spread across the targets: (max - min) / mean, their own
	 * passes, whatever the clocks */
	if (sum > 0)
		err = row_push(&r->spread, &r->nspread,
			       (hi - lo) / (sum / (double)n));
	r->tmin = isnan(r->tmin) ? lo : fmin(r->tmin, lo);
	r->tmax = isnan(r->tmax) ? hi : fmax(r->tmax, hi);
	if (err || untimed) {
		r->nuntimed += untimed;
		goto out;
	}
	switch (rp_aggregate(&mib, &window, ap, n)) {
	case RP_AGG_OK:
		err = row_push(&r->agg, &r->nagg, mib);
		if (!err)
			err = row_push(&r->window, &r->nwindow, window);
		break;
	case RP_AGG_TOO_SHORT:
		r->nshort++;
		break;
	case RP_AGG_NO_OVERLAP:
		r->nnone++;
		break;
	}
out:
	free(t_s);
	free(ib);
	return err;
}

static int row_cmp(const void *a, const void *b)
{
	const struct rp_fleet_row *x = a, *y = b;
	int c = strcmp(x->workload, y->workload);

	if (c)
		return c;
	if (x->mode != y->mode)
		return x->mode < y->mode ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

enum pb_error rp_fleet_build(struct rp_fleet *f, size_t ntargets)
{
	enum pb_error err = PB_OK;
	size_t i, j;

	if (f->np > 1)
		qsort(f->p, f->np, sizeof(*f->p), pass_cmp);
	f->nwith = ntargets;
	f->with = calloc(f->nwith * f->nwith + 1, 1);
	if (!f->with)
		return PB_ERR_NOMEM;
	for (i = 0; !err && i < f->np; i = j) {
		for (j = i + 1; j < f->np && f->p[j].run == f->p[i].run &&
				f->p[j].wave == f->p[i].wave &&
				f->p[j].index == f->p[i].index;
		     j++)
			;
		/* one target alone is a one-at-a-time run's item */
		if (j - i > 1)
			err = add_wave(f, &f->p[i], j - i);
	}
	for (i = 0; i < f->nrow; i++) {
		struct rp_fleet_row *r = &f->row[i];

		if (r->nagg) {
			r->agg_med = rp_median(r->agg, r->nagg);
			rp_median_ci(&r->agg_lo, &r->agg_hi, r->agg, r->nagg);
			r->window_med = rp_median(r->window, r->nwindow);
		}
		if (r->nspread)
			r->spread_med = rp_median(r->spread, r->nspread);
	}
	if (f->nrow > 1)
		qsort(f->row, f->nrow, sizeof(*f->row), row_cmp);
	return err;
}

void rp_fleet_dispose(struct rp_fleet *f)
{
	size_t i;

	for (i = 0; f->row && i < f->nrow; i++) {
		free(f->row[i].agg);
		free(f->row[i].window);
		free(f->row[i].spread);
	}
	free(f->row);
	free(f->p);
	free(f->with);
	memset(f, 0, sizeof(*f));
}
