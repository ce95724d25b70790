/*
 * report.c - from run.json alone (so an old run's report can be rebuilt):
 * the model with its statistics, report.csv (a row per repetition x mode
 * x pass), summary.csv and summary.txt (a row per workload point x mode),
 * the terminal table, and the comparison with an older run.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_int.h"

#define STEADY_WINDOW 3

/* the document a model reads from, for decoding its strings */
static struct jl_doc *cur_doc;

static const char *str(struct jl *o, const char *k)
{
	return jl_str(cur_doc, jl_get(o, k));
}

static double num(struct jl *o, const char *k)
{
	return jl_num(jl_get(o, k));
}

static enum pb_error csv_start(struct pb_buf *b);
static void csv_run_fields(const struct rp_model *m, struct pb_buf *b,
			   long long target);
static void mismatch(char *out, size_t len, const struct rj_reader *m,
		     const struct rj_reader *old, bool compare);
__attribute__((format(printf, 3, 4))) static void
list_add(char *out, size_t len, const char *fmt, ...);
static enum pb_error csv_item(struct rp_model *m, struct pb_buf *b,
			      const struct rj_item *item);

/* Within a run, a group is a target, a point (its index and its
 * description: the description alone could be shared, and was once cut)
 * and a mode. Two groups at the same place differ only in mode. */
static bool same_place(const struct rp_group *g, long long target,
		       long long point, const char *w)
{
	return g->target == target && g->point == point &&
	       !strcmp(g->workload, w);
}

static bool same_group(const struct rp_group *g, long long target,
		       long long point, const char *w, enum pb_mode mode)
{
	return same_place(g, target, point, w) && g->pmode == mode;
}

/* "nfs, bs=64K", "nfs", "bs=64K" or "" */
static char *where_text(const char *target, const char *w)
{
	size_t n = strlen(target) + strlen(w) + 3;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s%s%s", target, *target && *w ? ", " : "", w);
	return s;
}

static struct rp_group *group_for(struct rp_model *m,
				  const struct rj_item *item)
{
	struct rp_group *g;
	size_t i;

	for (i = 0; i < m->ng; i++)
		if (same_group(&m->g[i], item->target, item->point,
			       item->workload, item->mode))
			return &m->g[i];
	if (pb_array_grow(&m->g, &m->gcap, m->ng, sizeof(*m->g)))
		return NULL;
	g = &m->g[m->ng];
	memset(g, 0, sizeof(*g));
	g->workload = strdup(item->workload);
	g->target_name = strdup(item->target_name);
	g->where = where_text(item->target_name, item->workload);
	m->ng++; /* disposed as it is, whatever failed */
	if (!g->workload || !g->target_name || !g->where)
		return NULL;
	g->target = item->target;
	g->doc = cur_doc;
	g->point = item->point;
	g->pmode = item->mode;
	g->mode = pb_mode_name(item->mode);
	g->applied = "";
	g->qd_kept_min = NAN;
	return g;
}

/* The same point of this model in another mode. */
static const struct rp_group *
sibling(const struct rp_model *m, const struct rp_group *g, enum pb_mode mode)
{
	for (size_t i = 0; i < m->ng; i++)
		if (same_group(&m->g[i], g->target, g->point, g->workload,
			       mode))
			return &m->g[i];
	return NULL;
}

/* Room for one more item in every per-item array (doubling). */
static enum pb_error group_grow(struct rp_group *g)
{
	double **arrs[] = {&g->first,	    &g->rewrite,
			   &g->read,	    &g->prov,
			   &g->steady,	    &g->p99_first,
			   &g->mkfs,	    &g->cmd,
			   &g->pair_first,  &g->pair_rewrite,
			   &g->span_target, &g->rw_spread,
			   &g->paired,	    &g->stripe_vs_pass,
			   &g->ref_target};
	size_t cap, i;
	void *q;

	if (g->nreps < g->cap)
		return PB_OK;
	cap = g->cap ? g->cap * 2 : 16;
	for (i = 0; i < sizeof(arrs) / sizeof(arrs[0]); i++) {
		if (!(q = realloc(*arrs[i], cap * sizeof(double))))
			return PB_ERR_NOMEM;
		*arrs[i] = q;
	}
	for (i = 0; i < RP_MAX_REWRITES; i++) {
		if (!(q = realloc(g->conv[i], cap * sizeof(double))))
			return PB_ERR_NOMEM;
		g->conv[i] = q;
	}
	/* every rewrite pass of an item has its p99 */
	if (!(q = realloc(g->p99_rewrite,
			  cap * RP_MAX_REWRITES * sizeof(double))))
		return PB_ERR_NOMEM;
	g->p99_rewrite = q;
	if (!(q = realloc(g->span, cap * sizeof(*g->span))))
		return PB_ERR_NOMEM;
	g->span = q;
	if (!(q = realloc(g->span_len, cap * sizeof(*g->span_len))))
		return PB_ERR_NOMEM;
	g->span_len = q;
	if (!(q = realloc(g->ref_span, cap * sizeof(*g->ref_span))))
		return PB_ERR_NOMEM;
	g->ref_span = q;
	if (!(q = realloc(g->ref_span_len, cap * sizeof(*g->ref_span_len))))
		return PB_ERR_NOMEM;
	g->ref_span_len = q;
	g->cap = cap;
	return PB_OK;
}

/* One successful repetition of a group: at most one value per item in
 * each per-item array (several reads of an item count as their median). */
static void add_item(struct rp_model *m, struct rp_group *g,
		     const struct rj_item *item)
{
	double rw[RP_MAX_REWRITES], rd[RP_MAX_REWRITES], cmd[RP_MAX_REWRITES];
	double first_mib = NAN, rw_med = NAN, stripes_mib = NAN, ref_mib = NAN,
	       settle_to;
	unsigned nrw = 0, nrd = 0, ncmd = 0;
	const struct jl *ref = NULL, *stripes = NULL;
	bool first = false, spanned = false;
	enum pb_mode applied;
	struct rj_pass ps;
	struct jl *fs = item->filesystem, *p;

	if (fs) {
		g->mkfs[g->nmkfs++] = num(fs, RUNNER_K_MKFS_SECONDS);
		if (!m->fs_note[0])
			snprintf(m->fs_note, sizeof(m->fs_note),
				 "%s, lazy init %s", str(fs, RUNNER_K_FS_TYPE),
				 str(fs, RUNNER_K_LAZY_INIT));
	}

	g->prov[g->nprov++] = item->provision_s;
	if (*str(item->readback, RJ_K_RB_BACKING) &&
	    !strncmp(str(item->readback, RJ_K_RB_DEVICE), "/dev/loop", 9))
		g->nloop++;
	/* its disk, as the runner found it: a matrix may vary it */
	if (!(g->disk_bytes > 0))
		g->disk_bytes = jl_num(
			jl_get(jl_get(item->runner, "target"), "device_bytes"));
	if (*item->applied) {
		/* a mode's name (static), or the server's own word for one
		 * no mode matches: a mismatch either way */
		if (pb_mode_parse(&applied, item->applied)) {
			g->applied = pb_mode_name(applied);
			if (applied != g->pmode)
				g->mismatch = true;
		} else {
			g->applied = "?";
			g->mismatch = true;
		}
	}
	jl_foreach(item->passes, p)
	{
		double p99;

		rj_pass_read(m->cur, &ps, p);
		if (!ps.complete)
			continue;
		p99 = jl_num(ps.lat[RJ_L_P99]);
		if (ps.k[RJ_P_RAMP_S] && ps.kind != RUNNER_PASS_COMMAND) {
			double ramp = jl_num(ps.k[RJ_P_RAMP_S]);

			if (ramp > 0 && g->nramped++ == 0)
				g->ramp_s = ramp; /* a point's one ramp_ms */
			else if (!(ramp > 0))
				g->nunramped++;
		}
		/* a paired first write drains its queue after each stripe,
		 * as it should: not a depth the device waited for */
		if (ps.k[RJ_P_QD_ACHIEVED] && ps.kind != RUNNER_PASS_COMMAND &&
		    !ps.k[RJ_P_PAIRED]) {
			double kept = jl_num(ps.k[RJ_P_QD_ACHIEVED]);

			if (!(g->qd_kept_min <= kept))
				g->qd_kept_min = kept;
			g->qd_asked = jl_num(ps.k[RJ_P_QD]);
		}
		if (ps.kind == RUNNER_PASS_FIRST_WRITE && !first) {
			struct jl *pr = ps.k[RJ_P_PAIRED];
			double pen = jl_num(jl_get(pr, RUNNER_K_PENALTY)),
			       npairs = jl_num(jl_get(pr, RUNNER_K_PAIRS));

			if (pr && !isnan(pen) && npairs >= 1) {
				g->paired[g->npaired++] = pen;
				if (!g->pairs_min ||
				    (size_t)npairs < g->pairs_min)
					g->pairs_min = (size_t)npairs;
				g->pair_stripe =
					jl_num(jl_get(pr, RUNNER_K_STRIPE));
				stripes_mib = jl_num(
					jl_get(pr, RUNNER_K_WRITTEN_MIB_PER_S));
				stripes = jl_get(pr, RUNNER_K_WRITTEN_SERIES);
			}
			first = true;
			first_mib = ps.mib_per_s;
			g->first[g->nfirst++] = ps.mib_per_s;
			g->p99_first[g->np99f++] = p99;
			if (ps.k[RJ_P_SERIES] &&
			    ps.k[RJ_P_SERIES]->type == JL_RAW) {
				g->span[g->nspan] = ps.k[RJ_P_SERIES]->s;
				g->span_len[g->nspan++] =
					ps.k[RJ_P_SERIES]->slen;
				spanned = true;
			}
		} else if (ps.kind == RUNNER_PASS_REWRITE &&
			   nrw < RP_MAX_REWRITES) {
			if (!nrw) {
				ref = ps.k[RJ_P_SERIES];
				ref_mib = ps.mib_per_s;
			}
			g->conv[nrw][g->nconv[nrw]++] = ps.mib_per_s;
			rw[nrw++] = ps.mib_per_s;
			g->p99_rewrite[g->np99r++] = p99;
		} else if (ps.kind == RUNNER_PASS_READ &&
			   nrd < RP_MAX_REWRITES) {
			rd[nrd++] = ps.mib_per_s;
		} else if (ps.kind == RUNNER_PASS_COMMAND &&
			   ncmd < RP_MAX_REWRITES) {
			cmd[ncmd++] = ps.seconds;
			if (!m->command)
				m->command = strdup(
					jl_str(cur_doc, ps.k[RJ_P_COMMAND]));
		}
	}
	if (nrw)
		rw_med = rp_median(rw, nrw);
	settle_to = rw_med;
	if (nrw >= 2 && rw_med > 0) {
		double lo = rw[0], hi = rw[0];

		for (unsigned k = 1; k < nrw; k++) {
			lo = fmin(lo, rw[k]);
			hi = fmax(hi, rw[k]);
		}
		g->rw_spread[g->nrw_spread++] = (hi - lo) / rw_med;
	}
	/*
	 * A paired first write settles against its own rewritten stripes:
	 * each stripe drains the queue at its end, as its fresh ones do,
	 * where a rewrite pass streams; the passes' median would hold even
	 * the baseline's fresh stripes a few percent under it.
	 */
	if (stripes_mib > 0) {
		ref = stripes;
		ref_mib = stripes_mib;
		settle_to = stripes_mib;
	}
	if (spanned) {
		bool raw = ref && ref->type == JL_RAW;

		g->span_target[g->nspan - 1] = settle_to;
		/* the reference is judged against its own rate: whether it
		 * holds still, not whether rewrites converge */
		g->ref_target[g->nspan - 1] = ref_mib;
		g->ref_span[g->nspan - 1] = raw ? ref->s : NULL;
		g->ref_span_len[g->nspan - 1] = raw ? ref->slen : 0;
	}
	if (stripes_mib > 0 && rw_med > 0)
		g->stripe_vs_pass[g->nstripe_vs_pass++] = stripes_mib / rw_med;
	if (first || nrw) {
		g->pair_first[g->npair] = first_mib;
		g->pair_rewrite[g->npair++] = rw_med;
	}
	if (nrw) {
		g->rewrite[g->nrewrite++] = rw_med;
		if (nrw > g->max_rewrites)
			g->max_rewrites = nrw;
	}
	if (nrd)
		g->read[g->nread++] = rp_median(rd, nrd);
	if (ncmd)
		g->cmd[g->ncmd++] = rp_median(cmd, ncmd);
}

/* A series' points, parsed from its span and dropped again. */
struct series {
	uint64_t *bytes;
	double *mib;
	size_t n, have;
};

static enum pb_error series_load(struct series *out, struct jl_doc *doc,
				 const char *span, uint32_t len)
{
	struct jl *series, *pt;
	struct jl_mark mark;
	enum pb_error err = PB_OK;
	size_t n;

	out->n = 0;
	jl_mark(doc, &mark);
	series = jl_parse_span(doc, span, len);
	n = series ? series->n : 0;
	if (n + 1 > out->have) {
		uint64_t *b2 = realloc(out->bytes, (n + 1) * sizeof(*b2));
		double *m2;

		if (b2)
			out->bytes = b2;
		m2 = realloc(out->mib, (n + 1) * sizeof(*m2));
		if (m2)
			out->mib = m2;
		if (!b2 || !m2) {
			err = PB_ERR_NOMEM;
			goto out;
		}
		out->have = n + 1;
	}
	jl_foreach(series, pt)
	{
		/* a point is an object; a paired pass's rewritten stripes
		 * are bare rates, of one stripe each */
		if (pt->type == JL_NUM) {
			out->bytes[out->n] = 1;
			out->mib[out->n++] = jl_num(pt);
			continue;
		}
		out->bytes[out->n] = rp_u64(num(pt, RUNNER_K_BYTES));
		out->mib[out->n++] = num(pt, RUNNER_K_MIB_PER_S);
	}
out:
	jl_reset(doc, &mark);
	return err;
}

/*
 * Where each repetition's first write settled, against its rewrite. A
 * host whose throughput wanders from one interval to the next makes a
 * rewrite itself leave the 10% band, and then where a first write
 * "settles" is noise: it is told over the window its own rep's reference
 * holds still over (rp_steady_window), or said to be too noisy to tell.
 * A rep without a reference series is told at STEADY_WINDOW.
 */
static enum pb_error steady_points(struct rp_group *g)
{
	struct series first = {0}, ref = {0};
	uint64_t before;
	enum pb_error err = PB_OK;
	size_t i, w;

	for (i = 0; i < g->nspan && !err; i++) {
		double target = g->span_target[i];

		err = series_load(&first, g->doc, g->span[i], g->span_len[i]);
		if (err)
			break;
		w = STEADY_WINDOW;
		if (g->ref_span[i] && !isnan(target) &&
		    first.n >= RP_STEADY_MIN_INTERVALS) {
			err = series_load(&ref, g->doc, g->ref_span[i],
					  g->ref_span_len[i]);
			if (err)
				break;
			w = rp_steady_window(ref.bytes, ref.mib, ref.n,
					     g->ref_target[i], STEADY_WINDOW);
			if (!w) {
				g->nnoisy++;
				continue;
			}
		}
		/* against that rep's own rewrite: disks differ */
		switch (rp_steady_after(&before, first.bytes, first.mib,
					first.n, target, w)) {
		case RP_STEADY_SETTLED:
			g->steady[g->nsteady++] = (double)before;
			g->nsettled++;
			if (w > g->steady_window)
				g->steady_window = w;
			break;
		case RP_STEADY_NEVER:
			g->nnever++;
			if (w > g->steady_window)
				g->steady_window = w;
			break;
		case RP_STEADY_TOO_SHORT:
			if (isnan(target))
				break; /* no rewrite to settle to */
			if (!g->nshort || first.n < g->short_intervals)
				g->short_intervals = first.n;
			g->nshort++;
			break;
		}
	}
	free(first.bytes);
	free(first.mib);
	free(ref.bytes);
	free(ref.mib);
	return err;
}

static void finish_group(struct rp_group *g)
{
	unsigned k;

	g->first_med = rp_median(g->first, g->nfirst);
	rp_median_ci(&g->first_lo, &g->first_hi, g->first, g->nfirst);
	g->rewrite_med = rp_median(g->rewrite, g->nrewrite);
	rp_median_ci(&g->rewrite_lo, &g->rewrite_hi, g->rewrite, g->nrewrite);
	g->read_med = rp_median(g->read, g->nread);
	g->prov_med = rp_median(g->prov, g->nprov);
	g->penalty = rp_warmup_penalty(g->first_med, g->rewrite_med);
	rp_penalty_ci(&g->penalty_lo, &g->penalty_hi, g->pair_first,
		      g->pair_rewrite, g->npair);
	if (g->npaired && g->npaired == g->nfirst) {
		/*
		 * Each rep's first write paired stripe by stripe with
		 * rewrites milliseconds after: its own penalty, free of the
		 * host's drift between passes. The penalty is their median,
		 * its interval theirs; the passes' figures stay as they are.
		 */
		g->penalty = rp_median(g->paired, g->npaired);
		rp_median_ci(&g->penalty_lo, &g->penalty_hi, g->paired,
			     g->npaired);
		g->penalty_paired = true;
	}
	g->p99_first_med = rp_median(g->p99_first, g->np99f);
	g->p99_rewrite_med = rp_median(g->p99_rewrite, g->np99r);
	for (k = 0; k < g->max_rewrites; k++)
		g->conv_med[k] = rp_median(g->conv[k], g->nconv[k]);
	steady_points(g);
	g->steady_med = rp_median(g->steady, g->nsteady);
	g->mkfs_med = rp_median(g->mkfs, g->nmkfs);
	g->rw_spread_med = rp_median(g->rw_spread, g->nrw_spread);
	g->stripe_vs_pass_med =
		rp_median(g->stripe_vs_pass, g->nstripe_vs_pass);
	g->cmd_med = rp_median(g->cmd, g->ncmd);
	rp_median_ci(&g->cmd_lo, &g->cmd_hi, g->cmd, g->ncmd);
	/* the page draws one rep's curve: that one series stays parsed */
	if (g->nspan)
		g->curve = jl_parse_span(g->doc, g->span[0], g->span_len[0]);
}

/*
 * The baseline asked for, unless the run has no figures of it (rdm
 * skipped without root for a loop device): then eager, the other mode
 * with nothing to zero, said as such, so ratios are still shown.
 */
static void choose_baseline(struct rp_model *m)
{
	const struct rp_group *g = NULL;
	size_t i;
	bool have = false, eager = false;

	if (!m->have_base_mode)
		return;
	for (i = 0; i < m->ng; i++) {
		if (m->g[i].pmode == m->base_mode && m->g[i].first_med > 0)
			have = true;
		if (m->g[i].pmode == m->base_mode && !g)
			g = &m->g[i];
		if (m->g[i].pmode == PB_MODE_EAGER && m->g[i].first_med > 0)
			eager = true;
	}
	if (have || !eager || m->base_mode == PB_MODE_EAGER)
		return;
	snprintf(m->base_note, sizeof(m->base_note),
		 "%s has no figures in this run%s%s%s: eager, which has "
		 "nothing left to zero either, is the baseline instead",
		 m->baseline, g && g->first_error[0] ? " (" : "",
		 g && g->first_error[0] ? g->first_error : "",
		 g && g->first_error[0] ? ")" : "");
	m->base_mode = PB_MODE_EAGER;
	m->baseline = pb_mode_name(PB_MODE_EAGER);
}

/* Ratios to the baseline and eager's break-even need every group done. */
static void cross_group(struct rp_model *m)
{
	size_t i;

	for (i = 0; i < m->ng; i++) {
		struct rp_group *g = &m->g[i];
		const struct rp_group *b =
			m->have_base_mode ? sibling(m, g, m->base_mode) : NULL;
		const struct rp_group *lz = sibling(m, g, PB_MODE_LAZY);
		const struct rp_group *th = sibling(m, g, PB_MODE_THIN);

		g->first_vs_base = g->rewrite_vs_base = g->cmd_vs_base = NAN;
		g->first_vs_base_lo = g->first_vs_base_hi = NAN;
		g->rewrite_vs_base_lo = g->rewrite_vs_base_hi = NAN;
		/* a command's time against the baseline's: 2.0 = twice as
		 * long */
		if (b && b->cmd_med > 0)
			g->cmd_vs_base = g->cmd_med / b->cmd_med;
		if (b && b->first_med > 0 && b->rewrite_med > 0) {
			m->have_baseline = true;
			g->first_vs_base = g->first_med / b->first_med;
			g->rewrite_vs_base = g->rewrite_med / b->rewrite_med;
			/* the baseline against itself is 1 by definition:
			 * no interval, nothing to call noise */
			if (g != b) {
				rp_ratio_ci(&g->first_vs_base_lo,
					    &g->first_vs_base_hi, g->first,
					    g->nfirst, b->first, b->nfirst);
				rp_ratio_ci(&g->rewrite_vs_base_lo,
					    &g->rewrite_vs_base_hi, g->rewrite,
					    g->nrewrite, b->rewrite,
					    b->nrewrite);
			}
		}
		g->be_lazy = g->be_thin = NAN;
		if (g->pmode != PB_MODE_EAGER || isnan(g->first_med))
			continue;
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
	if (g->steady_window > STEADY_WINDOW)
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
			const struct rp_group *b = sibling(m, g, m->base_mode);
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

			if (!same_place(h, g->target, g->point, g->workload) ||
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

const char *rp_mode_colour(enum pb_mode mode)
{
	static const char *const c[PB_MODE__COUNT] = {
		[PB_MODE_THIN] = "#E69F00",  /* orange */
		[PB_MODE_LAZY] = "#CC79A7",  /* reddish purple */
		[PB_MODE_EAGER] = "#009E73", /* bluish green */
		[PB_MODE_RDM] = "#0072B2",   /* blue */
		[PB_MODE_RDMP] = "#56B4E9",  /* sky blue */
	};

	return (unsigned)mode < PB_MODE__COUNT ? c[mode] : "#555555";
}

const char *rp_group_status(const struct rp_group *g)
{
	if (g->nok)
		return g->nfailed ? "partial" : "ok";
	if (g->nskipped && !g->nfailed)
		return "skipped";
	return "failed";
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

size_t rp_across(const struct rp_model *m, const struct rp_group *g,
		 const struct rp_group **out, size_t max)
{
	size_t i, n = 0;

	/* groups are sorted by target: out comes in target order */
	for (i = 0; i < m->ng && n < max; i++) {
		const struct rp_group *h = &m->g[i];

		if (h->point == g->point && h->pmode == g->pmode &&
		    !strcmp(h->workload, g->workload))
			out[n++] = h;
	}
	return n;
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

			if (!same_place(h, g->target, g->point, g->workload) ||
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
			sibling(m, g, PB_MODE_LAZY),
			sibling(m, g, PB_MODE_THIN)};
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

const struct rp_group *rp_model_find(const struct rp_model *m,
				     const char *target, const char *workload,
				     const char *mode)
{
	size_t i;

	for (i = 0; i < m->ng; i++)
		if (!strcmp(m->g[i].target_name, target) &&
		    !strcmp(m->g[i].workload, workload) &&
		    !strcmp(m->g[i].mode, mode))
			return &m->g[i];
	return NULL;
}

/* An item that did not measure, kept for the page's list. */
static enum pb_error add_failure(struct rp_model *m, const struct rj_item *item)
{
	struct rp_failure *f;

	if (pb_array_grow(&m->fail, &m->failcap, m->nfail, sizeof(*m->fail)))
		return PB_ERR_NOMEM;
	f = &m->fail[m->nfail];
	f->mode = item->mode;
	f->rep = item->rep;
	f->point = item->point;
	f->status = item->status;
	f->target_name = strdup(item->target_name);
	f->workload = strdup(item->workload);
	f->step = strdup(item->step);
	f->error = strdup(item->error);
	m->nfail++;
	return f->target_name && f->workload && f->step && f->error
		       ? PB_OK
		       : PB_ERR_NOMEM;
}

/* The order of the page and the files: by point, then in the profile's
 * "modes" order, so rows and colours stay put however the plan was
 * shuffled. */
static int mode_rank(const struct rp_model *m, enum pb_mode mode)
{
	json_t *modes = json_object_get(m->profile, "modes"), *v;
	size_t i;

	json_array_foreach(modes, i, v)
	{
		enum pb_mode pm;

		if (json_is_string(v) &&
		    pb_mode_parse(&pm, json_string_value(v)) && pm == mode)
			return (int)i;
	}
	return PB_MODE__COUNT + (int)mode; /* not in the profile: after */
}

static int group_cmp(const void *a, const void *b, void *model)
{
	const struct rp_group *x = a, *y = b;
	int rx = mode_rank(model, x->pmode);
	int ry = mode_rank(model, y->pmode);

	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	if (x->point != y->point)
		return x->point < y->point ? -1 : 1;
	if (strcmp(x->workload, y->workload))
		return strcmp(x->workload, y->workload);
	return rx < ry ? -1 : rx > ry;
}

/* A place named in the environment: an object's "name", or a string. */
static void env_name(char *out, size_t len, json_t *env, const char *key)
{
	json_t *v = json_object_get(env, key);

	if (json_is_object(v))
		v = json_object_get(v, "name");
	snprintf(out, len, "%s", json_is_string(v) ? json_string_value(v) : "");
}

/* One result item: its group's counts and values, and its CSV rows. */
static enum pb_error load_item(struct rp_model *m, const struct rj_item *item,
			       struct pb_buf *csv)
{
	struct rp_group *g;
	enum pb_error err;

	g = group_for(m, item);
	if (!g || group_grow(g))
		return PB_ERR_NOMEM;
	g->nreps++;
	err = csv ? csv_item(m, csv, item) : PB_OK;
	if (!err && item->status != RJ_STATUS_OK)
		err = add_failure(m, item);
	if (item->status == RJ_STATUS_SKIPPED) {
		g->nskipped++;
		if (!g->first_error[0])
			snprintf(g->first_error, sizeof(g->first_error), "%s",
				 item->error);
	} else if (item->status != RJ_STATUS_OK || !item->runner) {
		g->nfailed++;
		m->failed_items++;
		if (!g->first_error[0])
			snprintf(g->first_error, sizeof(g->first_error),
				 "%s: %s", rj_status_name(item->status),
				 item->error);
	} else {
		g->nok++;
		add_item(m, g, item);
		if (!err)
			err = rp_fleet_add(m, item, g->workload);
	}
	return err;
}

/* The i-th run of the model: the first, or one merged with it. */
static struct rj_reader *run_reader(struct rp_model *m, size_t i)
{
	return i ? &m->more[i - 1] : &m->rd;
}

/* Is name already a target's, before target n? */
static bool name_taken(const struct rp_model *m, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m->tinfo[i].name, name))
			return true;
	return false;
}

/*
 * A run's targets as the report names them: the head's "targets", or (a
 * run before them) one, the run's environment. Merged with other runs,
 * each target stays its own, never pooled with another run's: one without
 * a name is named by its run's id, a name already taken gets "@run id".
 */
static enum pb_error load_targets(struct rp_model *m, struct rj_reader *rd,
				  size_t *base)
{
	size_t n = json_array_size(rd->targets), k = n ? n : 1, i;
	void *q = realloc(m->tinfo, (m->ntinfo + k) * sizeof(*m->tinfo));

	if (!q)
		return PB_ERR_NOMEM;
	m->tinfo = q;
	*base = m->ntinfo;
	for (i = 0; i < k; i++) {
		struct rp_target_info *t = &m->tinfo[m->ntinfo];
		json_t *env =
			n ? json_object_get(json_array_get(rd->targets, i),
					    RJ_K_ENVIRONMENT)
			  : rd->environment;
		const char *name = rj_target_name(rd, (long long)i);

		memset(t, 0, sizeof(*t));
		t->prefix = (struct pb_buf)PB_BUF_INIT(4096);
		t->rd = rd;
		if (m->nmore && !*name)
			snprintf(t->name, sizeof(t->name), "%s", rd->run);
		else if (name_taken(m, m->ntinfo, name))
			snprintf(t->name, sizeof(t->name), "%s@%s", name,
				 rd->run);
		else
			snprintf(t->name, sizeof(t->name), "%s", name);
		t->places = n ? json_object_get(json_array_get(rd->targets, i),
						RJ_K_PLACES)
			      : NULL;
		env_name(t->vm, sizeof(t->vm), env, "vm");
		env_name(t->datastore, sizeof(t->datastore), env, "datastore");
		m->ntinfo++;
	}
	return PB_OK;
}

/* Every item of one run into the model. */
static enum pb_error load_run(struct rp_model *m, struct rj_reader *rd,
			      struct pb_buf *csv, char *errbuf)
{
	struct rj_item item;
	enum pb_error err;
	bool more = true;
	size_t base = 0, t;
	long long n;

	err = load_targets(m, rd, &base);
	n = (long long)(m->ntinfo - base);
	m->cur = rd;
	cur_doc = &rd->jd;
	for (t = base; !err && csv && t < m->ntinfo; t++)
		csv_run_fields(m, &m->tinfo[t].prefix, (long long)t);
	while (!err) {
		err = rj_reader_next(rd, &item, &more, errbuf);
		if (!err && more && item.target >= n)
			err = pb_fail(errbuf, PB_ERR_INPUT,
				      "%s: results[%zu]: target %lld: not in "
				      "\"targets\"",
				      rd->path, item.index, item.target);
		if (err || !more)
			break;
		item.target += (long long)base;
		item.target_name = m->tinfo[item.target].name;
		err = load_item(m, &item, csv);
		if (err)
			pb_fail(errbuf, err, "%s: results[%zu]: %s", rd->path,
				item.index, pb_strerror(err));
	}
	for (t = base; !err && t < m->ntinfo; t++)
		err = pb_buf_error(&m->tinfo[t].prefix);
	if (err == PB_ERR_NOMEM && !errbuf[0])
		pb_fail(errbuf, err, "out of memory");
	return err;
}

enum pb_error rp_model_load(struct rp_model *m, const char *dir,
			    const char *baseline, struct pb_buf *csv,
			    char *errbuf)
{
	return rp_model_load_many(m, &dir, 1, false, baseline, csv, errbuf);
}

enum pb_error rp_model_load_many(struct rp_model *m, const char *const *dirs,
				 size_t ndirs, bool force, const char *baseline,
				 struct pb_buf *csv, char *errbuf)
{
	enum pb_error err;
	size_t i;

	memset(m, 0, sizeof(*m));
	m->baseline = baseline;
	m->have_base_mode = pb_mode_parse(&m->base_mode, baseline);
	if (ndirs > 1) {
		m->more = calloc(ndirs - 1, sizeof(*m->more));
		if (!m->more)
			return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	}
	err = rj_reader_open(&m->rd, dirs[0], errbuf);
	/* every run is checked against the first before anything is read:
	 * a merge of different experiments is refused, naming why */
	for (i = 1; !err && i < ndirs; i++) {
		char differ[1024];

		err = rj_reader_open(&m->more[i - 1], dirs[i], errbuf);
		if (err)
			break;
		m->nmore = i;
		mismatch(differ, sizeof(differ), &m->rd, &m->more[i - 1],
			 false);
		if (differ[0] && !force)
			err = pb_fail(errbuf, PB_ERR_INPUT,
				      "will not merge %s with %s: %s (--force "
				      "merges anyway)",
				      m->more[i - 1].run, m->rd.run, differ);
		else if (differ[0])
			list_add(m->merge_note, sizeof(m->merge_note), "%s: %s",
				 m->more[i - 1].run, differ);
	}
	if (err)
		goto out;
	m->env = m->rd.environment;
	m->profile = m->rd.profile;
	m->run = m->rd.run;
	m->profile_name = m->rd.profile_name;
	m->backend = m->rd.backend;
	m->accel = m->rd.accel;
	m->version = m->rd.version;
	m->commit = m->rd.commit;
	m->started_at = m->rd.started_at;
	env_name(m->vm, sizeof(m->vm), m->env, "vm");
	env_name(m->datastore, sizeof(m->datastore), m->env, "datastore");
	if (csv)
		err = csv_start(csv);
	for (i = 0; !err && i < ndirs; i++)
		err = load_run(m, run_reader(m, i), csv, errbuf);
	if (err)
		goto out;
	/* finished and uninterrupted only if every merged run was */
	m->updated_at = m->rd.updated_at;
	m->finished = true;
	for (i = 0; i < ndirs; i++) {
		m->finished &= run_reader(m, i)->finished;
		m->interrupted |= run_reader(m, i)->interrupted;
	}
	for (i = 0; i < m->ng; i++)
		finish_group(&m->g[i]);
	if (m->ng > 1)
		qsort_r(m->g, m->ng, sizeof(*m->g), group_cmp, m);
	choose_baseline(m);
	cross_group(m);
	err = rp_fleet_build(m);
	if (err)
		pb_fail(errbuf, err, "out of memory");
out:
	/* a model that failed to load holds nothing */
	if (err)
		rp_model_dispose(m);
	return err;
}

void rp_model_dispose(struct rp_model *m)
{
	size_t i, k;

	for (i = 0; m->tinfo && i < m->ntinfo; i++)
		pb_buf_dispose(&m->tinfo[i].prefix);
	free(m->tinfo);
	for (i = 0; m->more && i < m->nmore; i++)
		rj_reader_dispose(&m->more[i]);
	free(m->more);
	for (i = 0; m->g && i < m->ng; i++) {
		struct rp_group *g = &m->g[i];

		free(g->first);
		free(g->rewrite);
		free(g->read);
		free(g->prov);
		free(g->steady);
		free(g->pair_first);
		free(g->pair_rewrite);
		free(g->span_target);
		free(g->rw_spread);
		free(g->paired);
		free(g->stripe_vs_pass);
		free(g->ref_target);
		free(g->p99_first);
		free(g->p99_rewrite);
		for (k = 0; k < RP_MAX_REWRITES; k++)
			free(g->conv[k]);
		free(g->span);
		free(g->span_len);
		free(g->ref_span);
		free(g->ref_span_len);
		free(g->mkfs);
		free(g->cmd);
		free(g->workload);
		free(g->target_name);
		free(g->where);
	}
	free(m->g);
	for (i = 0; m->fail && i < m->nfail; i++) {
		free(m->fail[i].workload);
		free(m->fail[i].target_name);
		free(m->fail[i].step);
		free(m->fail[i].error);
	}
	free(m->fail);
	free(m->command);
	rp_fleet_dispose(&m->fleet);
	rj_reader_dispose(&m->rd);
	memset(m, 0, sizeof(*m));
}

/* ---- CSV ---- */

enum pb_error rp_csv_field(struct pb_buf *b, const char *s)
{
	const char *p;
	enum pb_error err;

	/* RFC 4180: quote when needed, double the quotes inside */
	if (!strpbrk(s, ",\"\r\n"))
		return pb_buf_addstr(b, s);
	err = pb_buf_addstr(b, "\"");
	for (p = s; !err && *p; p++)
		err = *p == '"' ? pb_buf_addstr(b, "\"\"")
				: pb_buf_add(b, p, 1);
	return err ? err : pb_buf_addstr(b, "\"");
}

static enum pb_error csv_num(struct pb_buf *b, double v, int decimals)
{
	if (isnan(v))
		return PB_OK; /* empty field: not measured */
	return pb_buf_printf(b, "%.*f", decimals, v);
}

static const char *tri(struct jl *rb, const char *k)
{
	struct jl *v = jl_get(rb, k);

	return !v		     ? ""
	       : v->type == JL_TRUE  ? "true"
	       : v->type == JL_FALSE ? "false"
				     : "";
}

/* A number field as the runner wrote it: exact, and no printf per value. */
static enum pb_error raw_num(struct pb_buf *b, struct jl *n, bool comma)
{
	enum pb_error err = PB_OK;

	if (n && n->type == JL_NUM)
		err = pb_buf_add(b, n->s, n->slen);
	return err || !comma ? err : pb_buf_add(b, ",", 1);
}

/* The fields that start every row of both files: which run, where (the
 * row's target). */
static void csv_run_fields(const struct rp_model *m, struct pb_buf *b,
			   long long target)
{
	const struct rp_target_info *t = &m->tinfo[target];
	const struct rj_reader *rd = t->rd;
	const char *f[] = {rd->run,	rd->started_at, rd->profile_name,
			   rd->backend, rd->accel,	t->name,
			   t->vm,	t->datastore};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (i)
			pb_buf_add(b, ",", 1);
		rp_csv_field(b, f[i]);
	}
}

#define CSV_RUN_COLUMNS                                                        \
	"run_id,started_at,profile,backend,accel,target,vm,datastore,"

/* report.csv's header, and the fields that start every row of each
 * target. */
static enum pb_error csv_start(struct pb_buf *b)
{
	pb_buf_addstr(b, CSV_RUN_COLUMNS
		      "mode,applied_mode,status,step,error,rep,point,"
		      "workload,pass,pass_index,pattern,bs,qd,bytes,seconds,"
		      "mib_per_s,iops,lat_p50_us,lat_p99_us,lat_p999_us,"
		      "qd_achieved,provision_s,thin_provisioned,"
		      "eagerly_scrub\r\n");
	return pb_buf_error(b);
}

/* A whole number and its comma, empty when absent (< 0); no printf: a
 * report of 10,000 repetitions writes this a million times. */
static void whole_field(struct pb_buf *b, long long v)
{
	char t[24], *p = t + sizeof(t);

	*--p = ',';
	if (v >= 0)
		do
			*--p = (char)('0' + v % 10);
		while ((v /= 10) > 0);
	pb_buf_add(b, p, (size_t)(t + sizeof(t) - p));
}

/* report.csv's rows for one item: one per pass, or one with the pass
 * fields empty for an item that ran none (failed, skipped), so every item
 * is in the file with its status and error. */
static enum pb_error csv_item(struct rp_model *m, struct pb_buf *b,
			      const struct rj_item *item)
{
	const struct pb_buf *prefix = &m->tinfo[item->target].prefix;
	/* the number columns in order */
	static const enum rj_pass_key nums[] = {RJ_P_BS,	RJ_P_QD,
						RJ_P_BYTES,	RJ_P_SECONDS,
						RJ_P_MIB_PER_S, RJ_P_IOPS};
	static const enum rj_lat_key lats[] = {RJ_L_P50, RJ_L_P99, RJ_L_P999};
	struct jl *rb = item->readback, *p;
	const char *mode = pb_mode_name(item->mode);
	struct rj_pass ps;
	size_t k, rows = 0;

	/* pb_buf errors are sticky: checked once, at the end */
	for (p = item->passes ? item->passes->first : NULL;; p = p->next) {
		bool empty = !p;

		if (empty && rows)
			break;
		memset(&ps, 0, sizeof(ps));
		if (!empty)
			rj_pass_read(m->cur, &ps, p);
		rows++;
		pb_buf_add(b, prefix->data, prefix->len);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, mode);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, item->applied);
		pb_buf_add(b, ",", 1);
		pb_buf_addstr(b, rj_status_name(item->status));
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, item->step);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, item->error);
		pb_buf_add(b, ",", 1);
		whole_field(b, item->rep);
		whole_field(b, item->point);
		rp_csv_field(b, item->workload);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, empty ? "" : ps.name);
		pb_buf_add(b, ",", 1);
		raw_num(b, ps.k[RJ_P_INDEX], true);
		rp_csv_field(b, jl_str(cur_doc, ps.k[RJ_P_PATTERN]));
		pb_buf_add(b, ",", 1);
		for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++)
			raw_num(b, ps.k[nums[k]], true);
		for (k = 0; k < sizeof(lats) / sizeof(lats[0]); k++)
			raw_num(b, ps.lat[lats[k]], true);
		raw_num(b, ps.k[RJ_P_QD_ACHIEVED], true);
		raw_num(b, jl_get(item->disk, RJ_K_PROVISION_S), true);
		pb_buf_addstr(b, tri(rb, "thin_provisioned"));
		pb_buf_add(b, ",", 1);
		pb_buf_addstr(b, tri(rb, "eagerly_scrub"));
		pb_buf_add(b, "\r\n", 2);
		if (empty)
			break;
	}
	return pb_buf_error(b);
}

/* One more item of a "; "-separated list in out (cut at len). */
__attribute__((format(printf, 3, 4))) static void
list_add(char *out, size_t len, const char *fmt, ...)
{
	size_t n = strnlen(out, len);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(out + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	if (n < len)
		vsnprintf(out + n, len - n, fmt, ap);
	va_end(ap);
}

/* A break-even in words when it is not a number of bytes. */
static const char *breakeven_note(double be)
{
	return isnan(be) ? "" : be < 0 ? "never" : "";
}

/* summary.csv's note: what a number column leaves empty, said. */
static void summary_note(char *out, size_t len, const struct rp_model *m,
			 const struct rp_group *g)
{
	char st[160];

	out[0] = '\0';
	rp_steady_text(st, sizeof(st), g);
	if (*st)
		list_add(out, len, "steady state: %s", st);
	if (*breakeven_note(g->be_lazy))
		list_add(out, len, "break-even vs lazy: %s",
			 breakeven_note(g->be_lazy));
	if (*breakeven_note(g->be_thin))
		list_add(out, len, "break-even vs thin: %s",
			 breakeven_note(g->be_thin));
	if (g->mismatch)
		list_add(out, len, "applied as %s, not as requested",
			 g->applied);
	if (g->pmode == m->base_mode && m->base_note[0])
		list_add(out, len, "%s", m->base_note);
	if (g->penalty_paired)
		list_add(out, len,
			 "penalty from stripe pairs (%zu or more per rep)",
			 g->pairs_min);
	if (!m->have_baseline)
		list_add(out, len, "no baseline figures: ratios empty");
}

/* summary.csv's "baseline" column stands before the tenth number */
#define BASELINE_COL 10

static enum pb_error summary_csv(const struct rp_model *m, struct pb_buf *b)
{
	size_t i, k;

	pb_buf_addstr(b, CSV_RUN_COLUMNS
		      "point,workload,mode,applied_mode,status,reps,reps_ok,"
		      "reps_failed,reps_skipped,error,"
		      "first_mib_s,first_lo_mib_s,first_hi_mib_s,"
		      "rewrite_mib_s,rewrite_lo_mib_s,rewrite_hi_mib_s,"
		      "read_mib_s,warmup_penalty_frac,warmup_penalty_lo_frac,"
		      "warmup_penalty_hi_frac,baseline,first_vs_baseline,"
		      "first_vs_baseline_lo,first_vs_baseline_hi,"
		      "rewrite_vs_baseline,rewrite_vs_baseline_lo,"
		      "rewrite_vs_baseline_hi,steady_after_bytes,"
		      "steady_settled_reps,steady_reps,provision_s,"
		      "breakeven_vs_lazy_bytes,breakeven_vs_thin_bytes,"
		      "p99_first_us,p99_rewrite_us,qd_kept_min,mkfs_s,"
		      "command_s,note\r\n");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		/* the number columns in order, each with its decimals; a
		 * NaN is an empty field, said in the note */
		const struct {
			double v;
			int d;
		} nums[] = {
			{g->first_med, 3},
			{g->first_lo, 3},
			{g->first_hi, 3},
			{g->rewrite_med, 3},
			{g->rewrite_lo, 3},
			{g->rewrite_hi, 3},
			{g->read_med, 3},
			{g->penalty, 4},
			{g->penalty_lo, 4},
			{g->penalty_hi, 4},
			/* the baseline's name goes here (BASELINE_COL) */
			{g->first_vs_base, 4},
			{g->first_vs_base_lo, 4},
			{g->first_vs_base_hi, 4},
			{g->rewrite_vs_base, 4},
			{g->rewrite_vs_base_lo, 4},
			{g->rewrite_vs_base_hi, 4},
			{g->steady_med, 0},
			{(double)g->nsettled, 0},
			{(double)(g->nsettled + g->nnever + g->nshort +
				  g->nnoisy),
			 0},
			{g->prov_med, 3},
			{g->be_lazy < 0 ? NAN : g->be_lazy, 0},
			{g->be_thin < 0 ? NAN : g->be_thin, 0},
			{g->p99_first_med, 0},
			{g->p99_rewrite_med, 0},
			{g->qd_kept_min, 2},
			{g->mkfs_med, 3},
			{g->cmd_med, 3},
		};
		char note[1024];

		csv_run_fields(m, b, g->target);
		if (g->point >= 0)
			pb_buf_printf(b, ",%lld,", g->point);
		else
			pb_buf_addstr(b, ",,");
		rp_csv_field(b, g->workload);
		pb_buf_printf(b, ",%s,", g->mode);
		rp_csv_field(b, g->applied);
		pb_buf_printf(b, ",%s,%zu,%zu,%zu,%zu,", rp_group_status(g),
			      g->nreps, g->nok, g->nfailed, g->nskipped);
		rp_csv_field(b, g->first_error);
		for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
			if (k == BASELINE_COL) {
				pb_buf_add(b, ",", 1);
				rp_csv_field(b, m->have_baseline ? m->baseline
								 : "");
			}
			pb_buf_add(b, ",", 1);
			csv_num(b, nums[k].v, nums[k].d);
		}
		summary_note(note, sizeof(note), m, g);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, note);
		pb_buf_addstr(b, "\r\n");
	}
	return pb_buf_error(b);
}

/* ---- the terminal table ---- */

static void cell(struct pb_buf *b, double v, int decimals, const char *unit,
		 int width)
{
	char t[64];

	if (isnan(v))
		snprintf(t, sizeof(t), "-");
	else
		snprintf(t, sizeof(t), "%.*f%s", decimals, v, unit);
	pb_buf_printf(b, "%*s", width, t);
}

/* The text tables' first column: as wide as its longest name (target and
 * workload), 16 to 48 characters; longer ones are cut, the CSVs and the
 * page have them in full. */
static int where_width(const struct rp_model *m)
{
	size_t w = 16;

	for (size_t i = 0; i < m->ng; i++)
		if (strlen(m->g[i].where) > w)
			w = strlen(m->g[i].where);
	return (int)(w > 48 ? 48 : w);
}

/* mkfs and command times per mode, when the workload had them */
static void fs_command_table(const struct rp_model *m, struct pb_buf *b)
{
	int ww = where_width(m);
	size_t i;

	if (!m->fs_note[0] && !m->command)
		return;
	pb_buf_addstr(b, "\n");
	if (m->fs_note[0])
		pb_buf_printf(b, "filesystem: %s\n", m->fs_note);
	if (m->command)
		pb_buf_printf(b, "command: %s\n", m->command);
	pb_buf_printf(b, "%-*s %-6s %8s %10s %19s %8s\n", ww, "workload",
		      "mode", "mkfs s", "command s", "[interval]", "c/base");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char iv[64];

		pb_buf_printf(b, "%-*.*s %-6s", ww, ww,
			      *g->where ? g->where : "-", g->mode);
		cell(b, g->mkfs_med, 2, "", 9);
		cell(b, g->cmd_med, 2, "", 11);
		snprintf(iv, sizeof(iv), "[%.2f-%.2f]", g->cmd_lo, g->cmd_hi);
		pb_buf_printf(b, " %19s", isnan(g->cmd_lo) ? "-" : iv);
		cell(b, g->cmd_vs_base, 2, "", 9);
		pb_buf_addstr(b, "\n");
	}
}

static void finding_line(const char *line, void *arg)
{
	pb_buf_printf(arg, "  %s\n", line);
}

static void text_table(const struct rp_model *m, const struct rp_model *old,
		       struct pb_buf *b)
{
	int ww = where_width(m);
	size_t i;

	pb_buf_printf(b, "provbench report: %s (%s%s%s)\n", m->profile_name,
		      m->backend, *m->accel ? ", " : "", m->accel);
	pb_buf_printf(b,
		      "medians over repetitions; [95%% interval: bootstrap "
		      "of the median]; baseline %s%s%s%s\n\n",
		      m->baseline,
		      m->have_baseline ? ""
				       : " (absent: ratios "
					 "not shown)",
		      m->base_note[0] ? "\n" : "", m->base_note);
	if (m->nmore) {
		pb_buf_printf(b, "merged runs: %s", m->run);
		for (size_t k = 0; k < m->nmore; k++)
			pb_buf_printf(b, ", %s", m->more[k].run);
		pb_buf_addstr(b, " (each run's targets its own)\n");
	}
	if (m->merge_note[0])
		pb_buf_printf(b, "WARNING: the runs differ (%s)\n",
			      m->merge_note);
	{
		struct pb_buf v = PB_BUF_INIT(1u << 20);

		rp_verdict(m, finding_line, &v);
		if (v.len)
			pb_buf_printf(b, "verdict:\n%s\n", v.data);
		pb_buf_dispose(&v);
	}
	pb_buf_printf(b,
		      "%-*s %-6s %8s %19s %8s %19s %8s %9s %7s  %7s  %7s  "
		      "%s\n",
		      ww, "workload", "mode", "first", "[interval]", "rewrite",
		      "[interval]", "penalty", "[interval]", "f/base", "r/base",
		      "prov s", "steady state; notes");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char iv[64], st[160];

		pb_buf_printf(b, "%-*.*s %-6s", ww, ww,
			      *g->where ? g->where : "-", g->mode);
		cell(b, g->first_med, 1, "", 9);
		snprintf(iv, sizeof(iv), "[%.1f-%.1f]", g->first_lo,
			 g->first_hi);
		pb_buf_printf(b, " %19s", isnan(g->first_lo) ? "-" : iv);
		cell(b, g->rewrite_med, 1, "", 9);
		snprintf(iv, sizeof(iv), "[%.1f-%.1f]", g->rewrite_lo,
			 g->rewrite_hi);
		pb_buf_printf(b, " %19s", isnan(g->rewrite_lo) ? "-" : iv);
		cell(b, g->penalty * 100.0, 1, "%", 9);
		snprintf(iv, sizeof(iv), "[%.0f-%.0f]", g->penalty_lo * 100.0,
			 g->penalty_hi * 100.0);
		pb_buf_printf(b, " %9s", isnan(g->penalty_lo) ? "-" : iv);
		cell(b, g->first_vs_base, 2, "", 8);
		pb_buf_addstr(b, rp_ratio_noise(g->first_vs_base_lo,
						g->first_vs_base_hi)
					 ? "~"
					 : " ");
		cell(b, g->rewrite_vs_base, 2, "", 7);
		pb_buf_addstr(b, rp_ratio_noise(g->rewrite_vs_base_lo,
						g->rewrite_vs_base_hi)
					 ? "~"
					 : " ");
		cell(b, g->prov_med, 2, "", 7);
		rp_steady_text(st, sizeof(st), g);
		pb_buf_printf(b, "  %s%s%s%s%s%s\n", st,
			      *st && (g->mismatch || g->nfailed || g->nskipped)
				      ? ";"
				      : "",
			      g->mismatch ? "APPLIED AS " : "",
			      g->mismatch ? g->applied : "",
			      g->nfailed ? " FAILED " : "",
			      g->nfailed || g->nskipped ? g->first_error : "");
	}
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char a[32], t[32];

		if (isnan(g->be_lazy) && isnan(g->be_thin))
			continue;
		pb_buf_printf(
			b,
			"\neager pays for its provisioning%s%s%s: vs lazy "
			"%s%s, vs thin %s%s\n",
			*g->where ? " (" : "", g->where, *g->where ? ")" : "",
			isnan(g->be_lazy) ? "-"
			: g->be_lazy < 0  ? "never"
					  : "after ",
			isnan(g->be_lazy) || g->be_lazy < 0
				? ""
				: pb_size_format(a, sizeof(a),
						 rp_u64(g->be_lazy)),
			isnan(g->be_thin) ? "-"
			: g->be_thin < 0  ? "never"
					  : "after ",
			isnan(g->be_thin) || g->be_thin < 0
				? ""
				: pb_size_format(t, sizeof(t),
						 rp_u64(g->be_thin)));
	}
	rp_fleet_text(m, b);
	{
		struct pb_buf f = PB_BUF_INIT(1u << 20);

		rp_findings(m, finding_line, &f);
		if (f.len)
			pb_buf_printf(b,
				      "\nfindings (~: a ratio within noise "
				      "of 1):\n%s",
				      f.data);
		pb_buf_dispose(&f);
	}
	fs_command_table(m, b);
	if (!old)
		return;
	pb_buf_printf(b, "\ncompared with %s:\n", old->run);
	if (m->compare_note[0])
		pb_buf_printf(b, "  WARNING: the runs differ (%s)\n",
			      m->compare_note);
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i], *o;
		struct rp_change c;

		if (!rp_compare(&c, old, g)) {
			/* a workload the older run did not have (or named
			 * otherwise): said, never compared with another */
			pb_buf_printf(b, "  %-*.*s %-6s not in that run\n", ww,
				      ww, *g->where ? g->where : "-", g->mode);
			continue;
		}
		o = rp_model_find(old, g->target_name, g->workload, g->mode);
		pb_buf_printf(
			b,
			"  %-*.*s %-6s first %.1f -> %.1f MiB/s %+.1f%%%s, "
			"rewrite %.1f -> %.1f %+.1f%%%s\n",
			ww, ww, *g->where ? g->where : "-", g->mode,
			o->first_med, g->first_med, c.first_pct,
			c.first_outside ? " (outside both intervals)"
					: " (within noise)",
			o->rewrite_med, g->rewrite_med, c.rewrite_pct,
			c.rewrite_outside ? " (outside both intervals)"
					  : " (within noise)");
	}
}

static bool outside(double m, double lo, double hi)
{
	return m < lo || m > hi;
}

bool rp_compare(struct rp_change *c, const struct rp_model *old,
		const struct rp_group *g)
{
	const struct rp_group *o =
		rp_model_find(old, g->target_name, g->workload, g->mode);

	if (!o)
		return false;
	c->first_pct = (g->first_med / o->first_med - 1) * 100;
	c->rewrite_pct = (g->rewrite_med / o->rewrite_med - 1) * 100;
	/* each median outside the other run's interval: a real change */
	c->first_outside = outside(g->first_med, o->first_lo, o->first_hi) &&
			   outside(o->first_med, g->first_lo, g->first_hi);
	c->rewrite_outside =
		outside(g->rewrite_med, o->rewrite_lo, o->rewrite_hi) &&
		outside(o->rewrite_med, g->rewrite_lo, g->rewrite_hi);
	return true;
}

/* Did any mode's first-write or rewrite fall by more than pct? */
static bool regressed(const struct rp_model *m, const struct rp_model *old,
		      double pct, struct pb_buf *why)
{
	bool any = false;
	size_t i;

	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		struct rp_change c;
		double f, r;

		if (!rp_compare(&c, old, g))
			continue;
		/* a fall, in percent of the old figure */
		f = -c.first_pct;
		r = -c.rewrite_pct;
		if (f > pct || r > pct) {
			pb_buf_printf(why, "%s%s %s fell %.1f%%",
				      any ? "; " : "", g->mode,
				      f > pct ? "first-write" : "rewrite",
				      f > pct ? f : r);
			any = true;
		}
	}
	return any;
}

static enum pb_error write_out(const char *dir, const char *name,
			       const struct pb_buf *b, char *errbuf)
{
	char path[1200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return pb_write_atomic(path, b->data ? b->data : "", b->len, errbuf);
}

/* a candidate of rp_find_previous: its start and directory name */
struct prev_run {
	char at[64];
	char name[256];
};

static int prev_newest_first(const void *a, const void *b)
{
	const struct prev_run *x = a, *y = b;

	return -strcmp(x->at, y->at);
}

/* Did the run in path finish uninterrupted? Its results are streamed
 * through: "finished" is written after them. */
static bool finished_whole(const char *path)
{
	char ebuf[PB_ERRBUF_SIZE];
	struct rj_reader rd;
	struct rj_item it;
	bool more = true, ok;

	if (rj_reader_open(&rd, path, ebuf))
		return false;
	while (more && !rj_reader_next(&rd, &it, &more, ebuf))
		;
	ok = rd.finished && !rd.interrupted;
	rj_reader_dispose(&rd);
	return ok;
}

enum pb_error rp_find_previous(char *out, size_t len, const char *root,
			       const char *profile, const char *before,
			       const char *skip, char *errbuf)
{
	char path[PATH_MAX], ebuf[PB_ERRBUF_SIZE];
	struct prev_run *c = NULL;
	size_t n = 0, cap = 0, i;
	DIR *d = opendir(root);
	struct dirent *e;
	enum pb_error err = PB_OK;

	out[0] = '\0';
	if (!d)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", root,
			       strerror(errno));
	/* the candidates from their heads alone (profile, start) ... */
	while ((e = readdir(d))) {
		struct rj_reader rd;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "latest") ||
		    (skip && !strcmp(e->d_name, skip)) ||
		    strlen(e->d_name) >= sizeof(c->name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/run.json", root, e->d_name);
		if (access(path, R_OK) || rj_reader_open(&rd, path, ebuf))
			continue;
		if (!strcmp(rd.profile_name, profile) &&
		    (!before || strcmp(rd.started_at, before) < 0)) {
			if (pb_array_grow(&c, &cap, n, sizeof(*c))) {
				rj_reader_dispose(&rd);
				err = pb_fail(errbuf, PB_ERR_NOMEM,
					      "out of memory");
				break;
			}
			snprintf(c[n].at, sizeof(c[n].at), "%s", rd.started_at);
			snprintf(c[n].name, sizeof(c[n].name), "%s", e->d_name);
			n++;
		}
		rj_reader_dispose(&rd);
	}
	closedir(d);
	/* ... then newest first, the first that finished whole: one run's
	 * results read, not every run's in the root */
	if (!err && n > 1)
		qsort(c, n, sizeof(*c), prev_newest_first);
	for (i = 0; !err && i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, c[i].name);
		if (finished_whole(path)) {
			snprintf(out, len, "%s", path);
			break;
		}
	}
	free(c);
	return err;
}

/* Why two runs' figures do not compare: "" when they do. */
/*
 * How two runs differ in what makes their figures comparable ("" when
 * they do not): for a comparison also the profile's name, for a merge
 * its modes (a merge's targets differ by design).
 */
static void mismatch(char *out, size_t len, const struct rj_reader *m,
		     const struct rj_reader *old, bool compare)
{
	static const char *const keys[] = {"disk_size", "workload",   "matrix",
					   "command",	"filesystem", "modes"};
	size_t i, nkeys = sizeof(keys) / sizeof(keys[0]) - (compare ? 1 : 0);

	out[0] = '\0';
	if (strcmp(m->backend, old->backend))
		list_add(out, len, "backend %s, then %s", m->backend,
			 old->backend);
	if (strcmp(m->accel, old->accel))
		list_add(out, len, "accelerator %s, then %s",
			 *m->accel ? m->accel : "none",
			 *old->accel ? old->accel : "none");
	if (compare && strcmp(m->profile_name, old->profile_name))
		list_add(out, len, "profile %s, then %s", m->profile_name,
			 old->profile_name);
	for (i = 0; i < nkeys; i++) {
		json_t *a = json_object_get(m->profile, keys[i]);
		json_t *b = json_object_get(old->profile, keys[i]);

		if (!(a == b || (a && b && json_equal(a, b))))
			list_add(out, len, "the profile's %s differs", keys[i]);
	}
}

enum pb_error rp_generate(const struct rp_opts *o, bool *reg, char *errbuf)
{
	struct rp_model m, old;
	struct pb_buf csv = PB_BUF_INIT(1u << 30), sum = PB_BUF_INIT(1u << 26),
		      txt = PB_BUF_INIT(1u << 26), html = PB_BUF_INIT(1u << 30),
		      why = PB_BUF_INIT(4096), fleet = PB_BUF_INIT(1u << 26);
	const char *dir = o->out_dir ? o->out_dir : o->results_dir;
	const char *compare = o->compare_dir;
	char prev[PATH_MAX], differ[1024] = "";
	bool have_old = false;
	enum pb_error err;

	*reg = false;
	memset(&old, 0, sizeof(old));
	err = o->results_dirs
		      ? rp_model_load_many(&m, o->results_dirs, o->nresults,
					   o->force, o->baseline, &csv, errbuf)
		      : rp_model_load(&m, o->results_dir, o->baseline, &csv,
				      errbuf);
	if (!err && m.merge_note[0])
		fprintf(stderr,
			"provbench: report: WARNING: merging runs that differ: "
			"%s\n",
			m.merge_note);
	if (!err && compare && !strcmp(compare, RP_COMPARE_PREVIOUS)) {
		char real[PATH_MAX], *sl;

		/* the run's own directory, a "latest" link resolved */
		if (!realpath(o->results_dir, real))
			err = pb_fail(errbuf, PB_ERR_IO, "%s: %s",
				      o->results_dir, strerror(errno));
		sl = err ? NULL : strrchr(real, '/');
		if (sl) {
			*sl = '\0';
			err = rp_find_previous(
				prev, sizeof(prev), *real ? real : "/",
				m.profile_name, m.started_at, sl + 1, errbuf);
		}
		compare = !err && prev[0] ? prev : NULL;
		if (!err && !compare && !o->quiet)
			fprintf(stderr,
				"provbench: report: no earlier complete run "
				"of %s beside %s: nothing to compare\n",
				m.profile_name, o->results_dir);
	}
	if (!err && compare) {
		err = rp_model_load(&old, compare, o->baseline, NULL, errbuf);
		have_old = !err;
	}
	if (have_old) {
		mismatch(differ, sizeof(differ), &m.rd, &old.rd, true);
		if (differ[0] && !o->force) {
			err = pb_fail(errbuf, PB_ERR_INPUT,
				      "will not compare with %s: %s "
				      "(--force compares anyway)",
				      old.run, differ);
			goto out;
		}
		if (differ[0])
			fprintf(stderr,
				"provbench: report: WARNING: comparing runs "
				"that differ: %s\n",
				differ);
		snprintf(m.compare_note, sizeof(m.compare_note), "%s", differ);
	}
	if (!err && !m.ng)
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "%s/run.json: no results yet", o->results_dir);
	if (err)
		goto out;
	if (!err)
		err = summary_csv(&m, &sum);
	if (!err && m.fleet.nrow)
		err = rp_fleet_csv(&m, &fleet);
	if (!err) {
		text_table(&m, have_old ? &old : NULL, &txt);
		err = rp_write_html(&m, have_old ? &old : NULL, &html);
	}
	/* made only now: a refused report leaves nothing behind */
	if (!err && o->out_dir && mkdir(o->out_dir, 0755) && errno != EEXIST)
		err = pb_fail(errbuf, PB_ERR_IO, "%s: %s", o->out_dir,
			      strerror(errno));
	if (!err)
		err = write_out(dir, "report.csv", &csv, errbuf);
	if (!err)
		err = write_out(dir, "summary.csv", &sum, errbuf);
	if (!err && fleet.len)
		err = write_out(dir, "fleet.csv", &fleet, errbuf);
	if (!err)
		err = write_out(dir, "summary.txt", &txt, errbuf);
	if (!err)
		err = write_out(dir, "report.html", &html, errbuf);
	if (err)
		goto out; /* write_out's message names the file */
	if (o->json) {
		json_t *j = rp_model_json(&m);

		if (!j || json_dumpf(j, stdout,
				     JSON_INDENT(1) | JSON_PRESERVE_ORDER |
					     JSON_REAL_PRECISION(8)))
			err = pb_fail(errbuf, PB_ERR_NOMEM,
				      "report --json: out of memory");
		else
			fputc('\n', stdout);
		json_decref(j);
		if (err)
			goto out;
	} else if (!o->quiet) {
		fputs(txt.data, stdout);
	}
	if (have_old && o->max_regression >= 0 &&
	    regressed(&m, &old, o->max_regression, &why)) {
		*reg = true;
		pb_fail(errbuf, PB_ERR_REGRESSED, "regression over %.1f%%: %s",
			o->max_regression, why.data);
	}
out:
	pb_buf_dispose(&csv);
	pb_buf_dispose(&sum);
	pb_buf_dispose(&txt);
	pb_buf_dispose(&html);
	pb_buf_dispose(&why);
	pb_buf_dispose(&fleet);
	rp_model_dispose(&m);
	rp_model_dispose(&old); /* zeroed, or loaded */
	return err;
}

/* ---- report --json: the summary model, for scripts ---- */

static void verdict_json(const char *line, void *arg)
{
	json_array_append_new(arg, json_string(line));
}

static json_t *group_json(const struct rp_model *m, const struct rp_group *g)
{
	char st[160];
	json_t *o;

	rp_steady_text(st, sizeof(st), g);
	o = json_pack("{s:s,s:I,s:s,s:s,s:s,s:s,s:{s:I,s:I,s:I,s:I},s:s}",
		      "target", g->target_name, "point", (json_int_t)g->point,
		      "workload", g->workload, "mode", g->mode, "applied_mode",
		      g->applied, "status", rp_group_status(g), "reps",
		      "planned", (json_int_t)g->nreps, "ok", (json_int_t)g->nok,
		      "failed", (json_int_t)g->nfailed, "skipped",
		      (json_int_t)g->nskipped, "error", g->first_error);
	if (!o)
		return NULL;
	json_object_set_new(o, "first_mib_s",
			    json_pack("{s:o,s:o,s:o}", "median",
				      rp_jnum(g->first_med), "lo",
				      rp_jnum(g->first_lo), "hi",
				      rp_jnum(g->first_hi)));
	json_object_set_new(o, "rewrite_mib_s",
			    json_pack("{s:o,s:o,s:o}", "median",
				      rp_jnum(g->rewrite_med), "lo",
				      rp_jnum(g->rewrite_lo), "hi",
				      rp_jnum(g->rewrite_hi)));
	json_object_set_new(o, "read_mib_s", rp_jnum(g->read_med));
	json_object_set_new(o, "warmup_penalty_frac",
			    json_pack("{s:o,s:o,s:o}", "value",
				      rp_jnum(g->penalty), "lo",
				      rp_jnum(g->penalty_lo), "hi",
				      rp_jnum(g->penalty_hi)));
	json_object_set_new(o, "first_vs_baseline",
			    json_pack("{s:o,s:o,s:o,s:b}", "value",
				      rp_jnum(g->first_vs_base), "lo",
				      rp_jnum(g->first_vs_base_lo), "hi",
				      rp_jnum(g->first_vs_base_hi),
				      "within_noise",
				      rp_ratio_noise(g->first_vs_base_lo,
						     g->first_vs_base_hi)));
	json_object_set_new(o, "rewrite_vs_baseline",
			    json_pack("{s:o,s:o,s:o,s:b}", "value",
				      rp_jnum(g->rewrite_vs_base), "lo",
				      rp_jnum(g->rewrite_vs_base_lo), "hi",
				      rp_jnum(g->rewrite_vs_base_hi),
				      "within_noise",
				      rp_ratio_noise(g->rewrite_vs_base_lo,
						     g->rewrite_vs_base_hi)));
	json_object_set_new(
		o, "steady_state",
		json_pack("{s:I,s:I,s:I,s:I,s:I,s:o,s:s}", "settled",
			  (json_int_t)g->nsettled, "never",
			  (json_int_t)g->nnever, "too_short",
			  (json_int_t)g->nshort, "too_noisy",
			  (json_int_t)g->nnoisy, "window",
			  (json_int_t)(g->steady_window ? g->steady_window
							: STEADY_WINDOW),
			  "median_bytes",
			  rp_jnum(g->nsettled ? g->steady_med : NAN), "text",
			  st));
	json_object_set_new(o, "provision_s", rp_jnum(g->prov_med));
	/* never paying back is a word, not a negative number */
	json_object_set_new(o, "breakeven_vs_lazy_bytes",
			    g->be_lazy < 0 ? json_string("never")
					   : rp_jnum(g->be_lazy));
	json_object_set_new(o, "breakeven_vs_thin_bytes",
			    g->be_thin < 0 ? json_string("never")
					   : rp_jnum(g->be_thin));
	json_object_set_new(o, "p99_first_us", rp_jnum(g->p99_first_med));
	json_object_set_new(o, "p99_rewrite_us", rp_jnum(g->p99_rewrite_med));
	json_object_set_new(o, "qd_kept_min", rp_jnum(g->qd_kept_min));
	json_object_set_new(o, "rewrite_spread", rp_jnum(g->rw_spread_med));
	json_object_set_new(
		o, "penalty_method",
		json_string(g->penalty_paired ? "stripe pairs" : "passes"));
	json_object_set_new(o, "mkfs_s", rp_jnum(g->mkfs_med));
	json_object_set_new(o, "command_s", rp_jnum(g->cmd_med));
	json_object_set_new(o, "colour", json_string(rp_mode_colour(g->pmode)));
	(void)m;
	return o;
}

json_t *rp_model_json(const struct rp_model *m)
{
	json_t *doc, *groups = json_array(), *verdict = json_array(),
		     *findings = json_array(), *fails = json_array();
	size_t i;

	for (i = 0; groups && i < m->ng; i++)
		json_array_append_new(groups, group_json(m, &m->g[i]));
	for (i = 0; fails && i < m->nfail; i++) {
		const struct rp_failure *f = &m->fail[i];

		json_array_append_new(
			fails,
			json_pack("{s:s,s:s,s:I,s:I,s:s,s:s,s:s,s:s}", "target",
				  f->target_name, "mode", pb_mode_name(f->mode),
				  "rep", (json_int_t)f->rep, "point",
				  (json_int_t)f->point, "workload", f->workload,
				  "status", rj_status_name(f->status), "step",
				  f->step, "error", f->error));
	}
	rp_verdict(m, verdict_json, verdict);
	rp_findings(m, verdict_json, findings);
	doc = json_pack(
		"{s:i,s:s,s:{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:b,s:b},"
		"s:{s:s,s:b,s:s},s:o,s:o,s:o,s:o}",
		"format", RP_JSON_FORMAT, "tool", "provbench-report", "run",
		"id", m->run, "profile", m->profile_name, "started_at",
		m->started_at, "updated_at", m->updated_at ? m->updated_at : "",
		"version", m->version, "commit", m->commit, "backend",
		m->backend, "accel", m->accel, "vm", m->vm, "datastore",
		m->datastore, "finished", m->finished, "interrupted",
		m->interrupted, "baseline", "mode", m->baseline, "have_figures",
		m->have_baseline, "note", m->base_note, "groups", groups,
		"verdict", verdict, "findings", findings, "failures", fails);
	if (doc && m->fleet.nrow)
		json_object_set_new(doc, "at_once", rp_fleet_json(m));
	return doc;
}
