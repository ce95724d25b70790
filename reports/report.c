/*
 * report.c - from run.json alone (so an old run's report can be rebuilt):
 * the model with its statistics, report.csv (a row per repetition x mode
 * x pass), summary.csv and summary.txt (a row per workload point x mode),
 * the terminal table, and the comparison with an older run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static enum pb_error csv_start(const struct rp_model *m, struct pb_buf *b,
			       struct pb_buf *prefix);
static enum pb_error csv_item(struct rp_model *m, struct pb_buf *b,
			      const struct pb_buf *prefix,
			      const struct rj_item *item);

/* Within a run, a group is a point (its index and its description: the
 * description alone could be shared, and was once cut) and a mode. */
static bool same_group(const struct rp_group *g, long long point, const char *w,
		       enum pb_mode mode)
{
	return g->point == point && g->pmode == mode && !strcmp(g->workload, w);
}

static struct rp_group *group_for(struct rp_model *m, long long point,
				  const char *w, enum pb_mode mode)
{
	struct rp_group *g;
	size_t i;

	for (i = 0; i < m->ng; i++)
		if (same_group(&m->g[i], point, w, mode))
			return &m->g[i];
	if (m->ng == m->gcap) {
		size_t cap = m->gcap ? m->gcap * 2 : 8;
		struct rp_group *q = realloc(m->g, cap * sizeof(*q));

		if (!q)
			return NULL;
		memset(q + m->gcap, 0, (cap - m->gcap) * sizeof(*q));
		m->g = q;
		m->gcap = cap;
	}
	g = &m->g[m->ng];
	g->workload = strdup(w);
	if (!g->workload)
		return NULL;
	m->ng++;
	g->point = point;
	g->pmode = mode;
	g->mode = pb_mode_name(mode);
	g->applied = "";
	g->qd_kept_min = NAN;
	return g;
}

/* The same point of this model in another mode. */
static const struct rp_group *
sibling(const struct rp_model *m, const struct rp_group *g, enum pb_mode mode)
{
	for (size_t i = 0; i < m->ng; i++)
		if (same_group(&m->g[i], g->point, g->workload, mode))
			return &m->g[i];
	return NULL;
}

/* Room for one more item in every per-item array (doubling). */
static enum pb_error group_grow(struct rp_group *g)
{
	double **arrs[] = {&g->first,	     &g->rewrite,    &g->read,
			   &g->prov,	     &g->steady,     &g->p99_first,
			   &g->mkfs,	     &g->cmd,	     &g->pair_first,
			   &g->pair_rewrite, &g->span_target};
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
	g->cap = cap;
	return PB_OK;
}

/* One successful repetition of a group: at most one value per item in
 * each per-item array (several reads of an item count as their median). */
static void add_item(struct rp_model *m, struct rp_group *g,
		     const struct rj_item *item)
{
	double rw[RP_MAX_REWRITES], rd[RP_MAX_REWRITES], cmd[RP_MAX_REWRITES];
	double first_mib = NAN, rw_med = NAN;
	unsigned nrw = 0, nrd = 0, ncmd = 0;
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

		rj_pass_read(&m->rd, &ps, p);
		if (!ps.complete)
			continue;
		p99 = jl_num(ps.lat[RJ_L_P99]);
		if (ps.k[RJ_P_QD_ACHIEVED] && ps.kind != RUNNER_PASS_COMMAND) {
			double kept = jl_num(ps.k[RJ_P_QD_ACHIEVED]);

			if (!(g->qd_kept_min <= kept))
				g->qd_kept_min = kept;
			g->qd_asked = jl_num(ps.k[RJ_P_QD]);
		}
		if (ps.kind == RUNNER_PASS_FIRST_WRITE && !first) {
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
	if (spanned)
		g->span_target[g->nspan - 1] = rw_med;
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

/* Where each repetition's first write settled, against the rewrite
 * median: each series parsed from its span and dropped again. */
static enum pb_error steady_points(struct rp_group *g)
{
	struct jl *series, *pt;
	struct jl_mark mark;
	size_t k, n, i;
	uint64_t *bytes = NULL;
	double *mib = NULL;
	size_t have = 0;
	uint64_t before;
	enum pb_error err = PB_OK;

	for (i = 0; i < g->nspan; i++) {
		jl_mark(cur_doc, &mark);
		series = jl_parse_span(cur_doc, g->span[i], g->span_len[i]);
		n = series ? series->n : 0;
		if (n + 1 > have) {
			uint64_t *b2 = realloc(bytes, (n + 1) * sizeof(*bytes));
			double *m2;

			if (b2)
				bytes = b2;
			m2 = realloc(mib, (n + 1) * sizeof(*mib));
			if (m2)
				mib = m2;
			if (!b2 || !m2) {
				err = PB_ERR_NOMEM;
				jl_reset(cur_doc, &mark);
				break;
			}
			have = n + 1;
		}
		k = 0;
		jl_foreach(series, pt)
		{
			bytes[k] = rp_u64(num(pt, RUNNER_K_BYTES));
			mib[k++] = num(pt, RUNNER_K_MIB_PER_S);
		}
		jl_reset(cur_doc, &mark);
		/* against that rep's own rewrite: disks differ */
		switch (rp_steady_after(&before, bytes, mib, k,
					g->span_target[i], STEADY_WINDOW)) {
		case RP_STEADY_SETTLED:
			g->steady[g->nsteady++] = (double)before;
			g->nsettled++;
			break;
		case RP_STEADY_NEVER:
			g->nnever++;
			break;
		case RP_STEADY_TOO_SHORT:
			if (isnan(g->span_target[i]))
				break; /* no rewrite to settle to */
			if (!g->nshort || k < g->short_intervals)
				g->short_intervals = k;
			g->nshort++;
			break;
		}
	}
	free(bytes);
	free(mib);
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
	g->p99_first_med = rp_median(g->p99_first, g->np99f);
	g->p99_rewrite_med = rp_median(g->p99_rewrite, g->np99r);
	for (k = 0; k < g->max_rewrites; k++)
		g->conv_med[k] = rp_median(g->conv[k], g->nconv[k]);
	steady_points(g);
	g->steady_med = rp_median(g->steady, g->nsteady);
	g->mkfs_med = rp_median(g->mkfs, g->nmkfs);
	g->cmd_med = rp_median(g->cmd, g->ncmd);
	rp_median_ci(&g->cmd_lo, &g->cmd_hi, g->cmd, g->ncmd);
	/* the page draws one rep's curve: that one series stays parsed */
	if (g->nspan)
		g->curve = jl_parse_span(cur_doc, g->span[0], g->span_len[0]);
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
	size_t n = g->nsettled + g->nnever + g->nshort;
	char sz[32];

	out[0] = '\0';
	if (!n)
		return;
	if (!g->nsettled && !g->nnever) {
		snprintf(out, len, "too short to tell (%zu interval%s)",
			 g->short_intervals,
			 g->short_intervals == 1 ? "" : "s");
		return;
	}
	if (!g->nsettled) {
		snprintf(out, len, "never settled (%zu of %zu reps)", g->nnever,
			 n);
		return;
	}
	snprintf(out, len, "%zu of %zu settled, median %s", g->nsettled, n,
		 pb_size_format(sz, sizeof(sz), rp_u64(g->steady_med)));
}

bool rp_ratio_noise(double lo, double hi)
{
	return !isnan(lo) && !isnan(hi) && lo <= 1.0 && hi >= 1.0;
}

void rp_findings(const struct rp_model *m,
		 void (*fn)(const char *line, void *arg), void *arg)
{
	char line[512];
	size_t i, j;

	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		/* ratios against a moving baseline are suspect */
		if (m->have_base_mode && g->pmode == m->base_mode &&
		    g->penalty > 0.10) {
			snprintf(line, sizeof(line),
				 "warning: the baseline %s%s%s itself warms up "
				 "by %.0f%% (first write against rewrite): "
				 "ratios against it move with it",
				 g->mode, *g->workload ? ", " : "", g->workload,
				 g->penalty * 100.0);
			fn(line, arg);
		}
		/* a pass that did not keep its depth measured the guest */
		if (g->qd_asked > 1 && g->qd_kept_min < 0.8 * g->qd_asked) {
			snprintf(line, sizeof(line),
				 "%s%s%s: a pass kept a queue depth of %.1f of "
				 "the %.0f asked (the device waited on the "
				 "guest): its figures understate the disk",
				 g->mode, *g->workload ? ", " : "", g->workload,
				 g->qd_kept_min, g->qd_asked);
			fn(line, arg);
		}
		for (j = i + 1; j < m->ng; j++) {
			const struct rp_group *h = &m->g[j];

			if (h->point != g->point ||
			    strcmp(h->workload, g->workload) ||
			    !rp_overlap(g->penalty_lo, g->penalty_hi,
					h->penalty_lo, h->penalty_hi))
				continue;
			snprintf(line, sizeof(line),
				 "%s and %s%s%s: first-write penalties within "
				 "noise of each other (%.0f%% [%.0f-%.0f] and "
				 "%.0f%% [%.0f-%.0f]): not ranked",
				 g->mode, h->mode, *g->workload ? ", " : "",
				 g->workload, g->penalty * 100,
				 g->penalty_lo * 100, g->penalty_hi * 100,
				 h->penalty * 100, h->penalty_lo * 100,
				 h->penalty_hi * 100);
			fn(line, arg);
		}
	}
}

const struct rp_group *rp_model_find(const struct rp_model *m,
				     const char *workload, const char *mode)
{
	size_t i;

	for (i = 0; i < m->ng; i++)
		if (!strcmp(m->g[i].workload, workload) &&
		    !strcmp(m->g[i].mode, mode))
			return &m->g[i];
	return NULL;
}

/* One result item: its group's counts and values, and its CSV rows. */
static enum pb_error load_item(struct rp_model *m, const struct rj_item *item,
			       struct pb_buf *csv, const struct pb_buf *prefix)
{
	struct rp_group *g;
	enum pb_error err;

	g = group_for(m, item->point, item->workload, item->mode);
	if (!g || group_grow(g))
		return PB_ERR_NOMEM;
	g->nreps++;
	err = csv ? csv_item(m, csv, prefix, item) : PB_OK;
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
	}
	return err;
}

enum pb_error rp_model_load(struct rp_model *m, const char *dir,
			    const char *baseline, struct pb_buf *csv,
			    char *errbuf)
{
	struct pb_buf prefix = PB_BUF_INIT(4096);
	struct rj_item item;
	enum pb_error err;
	bool more = true;
	size_t i;

	memset(m, 0, sizeof(*m));
	m->baseline = baseline;
	m->have_base_mode = pb_mode_parse(&m->base_mode, baseline);
	err = rj_reader_open(&m->rd, dir, errbuf);
	if (err)
		goto out;
	cur_doc = &m->rd.jd;
	m->env = m->rd.environment;
	m->profile = m->rd.profile;
	m->run = m->rd.run;
	m->profile_name = m->rd.profile_name;
	m->backend = m->rd.backend;
	m->accel = m->rd.accel;
	if (csv)
		err = csv_start(m, csv, &prefix);
	while (!err) {
		err = rj_reader_next(&m->rd, &item, &more, errbuf);
		if (err || !more)
			break;
		err = load_item(m, &item, csv, &prefix);
		if (err)
			pb_fail(errbuf, err, "%s: results[%zu]: %s", m->rd.path,
				item.index, pb_strerror(err));
	}
	if (!err)
		err = pb_buf_error(&prefix);
	if (err)
		goto out;
	for (i = 0; i < m->ng; i++)
		finish_group(&m->g[i]);
	choose_baseline(m);
	cross_group(m);
out:
	pb_buf_dispose(&prefix);
	/* a model that failed to load holds nothing */
	if (err)
		rp_model_dispose(m);
	return err;
}

void rp_model_dispose(struct rp_model *m)
{
	size_t i, k;

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
		free(g->p99_first);
		free(g->p99_rewrite);
		for (k = 0; k < RP_MAX_REWRITES; k++)
			free(g->conv[k]);
		free(g->span);
		free(g->span_len);
		free(g->mkfs);
		free(g->cmd);
		free(g->workload);
	}
	free(m->g);
	free(m->command);
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

/* report.csv's header, and the three fields that start every row. */
static enum pb_error csv_start(const struct rp_model *m, struct pb_buf *b,
			       struct pb_buf *prefix)
{
	enum pb_error err;

	err = pb_buf_addstr(b, "profile,backend,accel,mode,rep,pass,"
			       "pass_index,pattern,bs,qd,bytes,seconds,"
			       "mib_per_s,iops,lat_p50_us,lat_p99_us,"
			       "lat_p999_us,provision_s,thin_provisioned,"
			       "eagerly_scrub\r\n");
	if (!err)
		err = rp_csv_field(prefix, m->profile_name);
	if (!err)
		err = pb_buf_addstr(prefix, ",");
	if (!err)
		err = rp_csv_field(prefix, m->backend);
	if (!err)
		err = pb_buf_addstr(prefix, ",");
	if (!err)
		err = rp_csv_field(prefix, m->accel);
	return err;
}

/* report.csv's rows for one item: one per pass. */
static enum pb_error csv_item(struct rp_model *m, struct pb_buf *b,
			      const struct pb_buf *prefix,
			      const struct rj_item *item)
{
	/* the number columns in order */
	static const enum rj_pass_key nums[] = {RJ_P_BS,	RJ_P_QD,
						RJ_P_BYTES,	RJ_P_SECONDS,
						RJ_P_MIB_PER_S, RJ_P_IOPS};
	static const enum rj_lat_key lats[] = {RJ_L_P50, RJ_L_P99, RJ_L_P999};
	struct jl *rb = item->readback, *p;
	const char *mode = pb_mode_name(item->mode);
	struct rj_pass ps;
	size_t k;

	/* pb_buf errors are sticky: checked once, at the end */
	jl_foreach(item->passes, p)
	{
		rj_pass_read(&m->rd, &ps, p);
		pb_buf_add(b, prefix->data, prefix->len);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, mode);
		pb_buf_printf(b, ",%lld,", item->rep);
		rp_csv_field(b, ps.name);
		pb_buf_add(b, ",", 1);
		raw_num(b, ps.k[RJ_P_INDEX], true);
		rp_csv_field(b, jl_str(cur_doc, ps.k[RJ_P_PATTERN]));
		pb_buf_add(b, ",", 1);
		for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++)
			raw_num(b, ps.k[nums[k]], true);
		for (k = 0; k < sizeof(lats) / sizeof(lats[0]); k++)
			raw_num(b, ps.lat[lats[k]], true);
		raw_num(b, jl_get(item->disk, RJ_K_PROVISION_S), true);
		pb_buf_printf(b, "%s,%s\r\n", tri(rb, "thin_provisioned"),
			      tri(rb, "eagerly_scrub"));
	}
	return pb_buf_error(b);
}

static enum pb_error summary_csv(const struct rp_model *m, struct pb_buf *b)
{
	enum pb_error err;
	size_t i;

	err = pb_buf_addstr(b,
			    "mode,first_mib_s,first_lo,first_hi,"
			    "rewrite_mib_s,rewrite_lo,rewrite_hi,"
			    "warmup_penalty,first_vs_baseline,"
			    "rewrite_vs_baseline,steady_after_bytes,"
			    "provision_s,breakeven_bytes_vs_lazy,"
			    "breakeven_bytes_vs_thin,workload,"
			    "warmup_penalty_lo,warmup_penalty_hi,"
			    "first_vs_baseline_lo,first_vs_baseline_hi,"
			    "rewrite_vs_baseline_lo,rewrite_vs_baseline_hi,"
			    "steady_settled_reps,steady_reps,steady_note\r\n");
	for (i = 0; !err && i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];

		err = pb_buf_printf(b, "%s,", g->mode);
		if (!err)
			err = csv_num(b, g->first_med, 3);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->first_lo, 3);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->first_hi, 3);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->rewrite_med, 3);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->rewrite_lo, 3);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->rewrite_hi, 3);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->penalty, 4);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->first_vs_base, 4);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->rewrite_vs_base, 4);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->steady_med, 0);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->prov_med, 3);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->be_lazy, 0);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = csv_num(b, g->be_thin, 0);
		if (!err)
			err = pb_buf_addstr(b, ",");
		if (!err)
			err = rp_csv_field(b, g->workload);
		{
			const double iv[] = {
				g->penalty_lo,	       g->penalty_hi,
				g->first_vs_base_lo,   g->first_vs_base_hi,
				g->rewrite_vs_base_lo, g->rewrite_vs_base_hi};
			char note[160];

			for (size_t k = 0; !err && k < 6; k++) {
				err = pb_buf_addstr(b, ",");
				if (!err)
					err = csv_num(b, iv[k], 4);
			}
			rp_steady_text(note, sizeof(note), g);
			if (!err)
				err = pb_buf_printf(b, ",%zu,%zu,", g->nsettled,
						    g->nsettled + g->nnever +
							    g->nshort);
			if (!err)
				err = rp_csv_field(b, note);
		}
		if (!err)
			err = pb_buf_addstr(b, "\r\n");
	}
	return err;
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

/* mkfs and command times per mode, when the workload had them */
static void fs_command_table(const struct rp_model *m, struct pb_buf *b)
{
	size_t i;

	if (!m->fs_note[0] && !m->command)
		return;
	pb_buf_addstr(b, "\n");
	if (m->fs_note[0])
		pb_buf_printf(b, "filesystem: %s\n", m->fs_note);
	if (m->command)
		pb_buf_printf(b, "command: %s\n", m->command);
	pb_buf_printf(b, "%-16s %-6s %8s %10s %19s %8s\n", "workload", "mode",
		      "mkfs s", "command s", "[interval]", "c/base");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char iv[64];

		pb_buf_printf(b, "%-16.16s %-6s",
			      *g->workload ? g->workload : "-", g->mode);
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
	pb_buf_printf(b,
		      "%-16s %-6s %8s %19s %8s %19s %8s %9s %7s  %7s  %7s  "
		      "%s\n",
		      "workload", "mode", "first", "[interval]", "rewrite",
		      "[interval]", "penalty", "[interval]", "f/base", "r/base",
		      "prov s", "steady state; notes");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char iv[64], st[160];

		pb_buf_printf(b, "%-16.16s %-6s",
			      *g->workload ? g->workload : "-", g->mode);
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
			*g->workload ? " (" : "", g->workload,
			*g->workload ? ")" : "",
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
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		struct rp_change c;

		if (!rp_compare(&c, old, g)) {
			/* a workload the older run did not have (or named
			 * otherwise): said, never compared with another */
			pb_buf_printf(b, "  %-16.16s %-6s not in that run\n",
				      *g->workload ? g->workload : "-",
				      g->mode);
			continue;
		}
		pb_buf_printf(
			b,
			"  %-16.16s %-6s first %+.1f%%%s, rewrite "
			"%+.1f%%%s\n",
			*g->workload ? g->workload : "-", g->mode, c.first_pct,
			c.first_outside ? " (outside both intervals)" : "",
			c.rewrite_pct,
			c.rewrite_outside ? " (outside both intervals)" : "");
	}
}

static bool outside(double m, double lo, double hi)
{
	return m < lo || m > hi;
}

bool rp_compare(struct rp_change *c, const struct rp_model *old,
		const struct rp_group *g)
{
	const struct rp_group *o = rp_model_find(old, g->workload, g->mode);

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

enum pb_error rp_generate(const struct rp_opts *o, bool *reg, char *errbuf)
{
	struct rp_model m, old;
	struct pb_buf csv = PB_BUF_INIT(1u << 30), sum = PB_BUF_INIT(1u << 26),
		      txt = PB_BUF_INIT(1u << 26), html = PB_BUF_INIT(1u << 30),
		      why = PB_BUF_INIT(4096);
	const char *dir = o->out_dir ? o->out_dir : o->results_dir;
	bool have_old = false;
	enum pb_error err;

	*reg = false;
	memset(&old, 0, sizeof(old));
	if (o->out_dir && mkdir(o->out_dir, 0755) && errno != EEXIST)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", o->out_dir,
			       strerror(errno));
	err = rp_model_load(&m, o->results_dir, o->baseline, &csv, errbuf);
	if (!err && o->compare_dir) {
		err = rp_model_load(&old, o->compare_dir, o->baseline, NULL,
				    errbuf);
		have_old = !err;
	}
	if (!err && !m.ng)
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "%s/run.json: no results yet", o->results_dir);
	if (err)
		goto out;
	if (!err)
		err = summary_csv(&m, &sum);
	if (!err) {
		text_table(&m, have_old ? &old : NULL, &txt);
		err = rp_write_html(&m, have_old ? &old : NULL, &html);
	}
	if (!err)
		err = write_out(dir, "report.csv", &csv, errbuf);
	if (!err)
		err = write_out(dir, "summary.csv", &sum, errbuf);
	if (!err)
		err = write_out(dir, "summary.txt", &txt, errbuf);
	if (!err)
		err = write_out(dir, "report.html", &html, errbuf);
	if (err) {
		pb_fail(errbuf, err, "cannot write the report: %s",
			pb_strerror(err));
		goto out;
	}
	if (!o->quiet)
		fputs(txt.data, stdout);
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
	rp_model_dispose(&m);
	rp_model_dispose(&old); /* zeroed, or loaded */
	return err;
}
