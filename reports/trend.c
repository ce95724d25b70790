/*
 * trend.c - many runs over time: trend.csv (a row per run x workload point
 * x mode) and trend.html (per profile and point: first write, rewrite and
 * penalty over the runs, with their intervals; regressions, failed runs and
 * changed environments marked). Each run's model is loaded, its figures
 * copied into a row, and dropped: memory and time grow with the number of
 * runs, linearly.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chart.h"
#include "draw.h"
#include "analysis.h"
#include "model.h"
#include "report.h"

/* one run, as the trend needs it */
struct trun {
	char *dir, *id, *started, *profile, *backend, *accel, *version, *commit;
	char *sig[6];	    /* what changing means a changed environment */
	const char *status; /* complete, partial, failed, interrupted,
			       unfinished */
	char *change;	    /* what changed since the run before ("") */
	size_t failed;
	size_t orig; /* its index before the runs were sorted */
};

/* the labels of trun.sig, in order */
static const char *const sig_names[6] = {
	"server build", "host build", "datastore",
	"provbench",	"qemu",	      "accelerator",
};

/* one run x target x point x mode */
struct trow {
	size_t run;
	char *target; /* its name: runs are matched by it */
	long long point;
	char *workload;
	enum pb_mode mode;
	const char *status;
	double v[9]; /* first, lo, hi; rewrite, lo, hi; penalty, lo, hi */
	double dfirst, drewrite; /* % change against the series' last run */
	/* a change point: the series' level changed at this run (its
	 * figure's first of a new level), by this much (percent of the
	 * level before); NaN: none here */
	double lfirst, lrewrite;
	bool regressed; /* a level change that fell past the limit */
};

struct trend {
	struct trun *run;
	size_t nrun, runcap;
	struct trow *row;
	size_t nrow, rowcap;
	double max_regression;
};

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

static const char *jpath(json_t *env, const char *a, const char *b)
{
	json_t *v = json_object_get(env, a);
	const char *s;

	if (b)
		v = json_object_get(v, b);
	s = json_string_value(v);
	return s ? s : "";
}

static const char *run_status(const struct rp_model *m)
{
	size_t ok = 0, i;

	for (i = 0; i < m->ng; i++)
		ok += m->g[i].nok;
	if (m->interrupted)
		return "interrupted";
	if (!m->finished)
		return "unfinished";
	if (!ok)
		return "failed";
	return m->failed_items ? "partial" : "complete";
}

static enum pb_error add_run(struct trend *t, const char *dir,
			     const char *baseline, char *errbuf)
{
	struct rp_model m;
	struct trun *r;
	char pv[128];
	enum pb_error err;
	size_t i;

	err = rp_model_load(&m, dir, baseline, NULL, errbuf);
	if (err)
		return err;
	/* a run is counted once, whatever names it: a root's run and the
	 * same run named again, or through a link */
	for (i = 0; i < t->nrun; i++)
		if (*m.run && !strcmp(t->run[i].id, m.run))
			goto out;
	err = pb_array_grow(&t->run, &t->runcap, t->nrun, sizeof(*t->run));
	if (err)
		goto out;
	r = &t->run[t->nrun];
	memset(r, 0, sizeof(*r));
	r->dir = strdup(dir);
	r->id = dup_or_empty(m.run);
	r->started = dup_or_empty(m.started_at);
	r->profile = dup_or_empty(m.profile_name);
	r->backend = dup_or_empty(m.backend);
	r->accel = dup_or_empty(m.accel);
	r->version = dup_or_empty(m.version);
	r->commit = dup_or_empty(m.commit);
	snprintf(pv, sizeof(pv), "%s (%s)", m.version,
		 *m.commit ? m.commit : "unknown");
	r->sig[0] = dup_or_empty(jpath(m.env, "server", "build"));
	r->sig[1] = dup_or_empty(jpath(m.env, "host", "build"));
	r->sig[2] = dup_or_empty(m.datastore);
	r->sig[3] = dup_or_empty(pv);
	r->sig[4] = dup_or_empty(jpath(m.env, "qemu", NULL));
	r->sig[5] = dup_or_empty(m.accel);
	r->status = run_status(&m);
	r->failed = m.failed_items;
	r->change = NULL;
	r->orig = t->nrun;
	t->nrun++;
	for (i = 0; i < m.ng; i++) {
		const struct rp_group *g = &m.g[i];
		struct trow *w;

		err = pb_array_grow(&t->row, &t->rowcap, t->nrow,
				    sizeof(*t->row));
		if (err)
			goto out;
		w = &t->row[t->nrow++];
		*w = (struct trow){
			.run = t->nrun - 1,
			.target = strdup(g->target_name),
			.point = g->point,
			.workload = strdup(g->workload),
			.mode = g->pmode,
			.status = rp_group_status(g),
			.v = {g->first_med, g->first_lo, g->first_hi,
			      g->rewrite_med, g->rewrite_lo, g->rewrite_hi,
			      g->penalty, g->penalty_lo, g->penalty_hi},
			.dfirst = NAN,
			.drewrite = NAN,
		};
		if (!w->workload || !w->target)
			err = PB_ERR_NOMEM;
	}
	if (!r->dir || !r->id || !r->started || !r->profile || !r->backend ||
	    !r->accel || !r->version || !r->commit)
		err = PB_ERR_NOMEM;
	for (i = 0; i < 6; i++)
		if (!r->sig[i])
			err = PB_ERR_NOMEM;
out:
	if (err == PB_ERR_NOMEM)
		pb_fail(errbuf, err, "%s: out of memory", dir);
	rp_model_dispose(&m);
	return err;
}

/* An argument: a run's directory (or its run.json), or a root of runs. */
static enum pb_error add_path(struct trend *t, const char *path,
			      const char *baseline, char *errbuf)
{
	char p[PATH_MAX];
	struct dirent **ents = NULL;
	struct stat st;
	enum pb_error err = PB_OK;
	int n, i;

	snprintf(p, sizeof(p), "%s/run.json", path);
	if (!stat(path, &st) && S_ISREG(st.st_mode))
		return add_run(t, path, baseline, errbuf);
	if (!stat(p, &st))
		return add_run(t, path, baseline, errbuf);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return pb_fail(errbuf, PB_ERR_NOTFOUND,
			       "%s: neither a run's results nor a directory of "
			       "them",
			       path);
	/* a root: every directory in it with a run.json; its links
	 * ("latest", "latest-attempt") name one of them again */
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", path,
			       strerror(errno));
	for (i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;

		snprintf(p, sizeof(p), "%s/%s", path, e);
		if (!err && e[0] != '.' && !lstat(p, &st) &&
		    !S_ISLNK(st.st_mode)) {
			snprintf(p, sizeof(p), "%s/%s/run.json", path, e);
			if (!access(p, R_OK)) {
				snprintf(p, sizeof(p), "%s/%s", path, e);
				err = add_run(t, p, baseline, errbuf);
			}
		}
		free(ents[i]);
	}
	free(ents);
	return err;
}

static int run_cmp(const void *a, const void *b)
{
	const struct trun *x = a, *y = b;
	int c = strcmp(x->started, y->started);

	return c ? c : strcmp(x->id, y->id);
}

/* the same series: profile, target, point, workload and mode */
static bool same_series(const struct trend *t, const struct trow *a,
			const struct trow *b)
{
	return a->mode == b->mode && a->point == b->point &&
	       !strcmp(a->target, b->target) &&
	       !strcmp(a->workload, b->workload) &&
	       !strcmp(t->run[a->run].profile, t->run[b->run].profile);
}

/* rows of one profile and point: the order both sorts start with */
static int point_cmp(const struct trend *t, const struct trow *x,
		     const struct trow *y)
{
	int c = strcmp(t->run[x->run].profile, t->run[y->run].profile);

	if (c)
		return c;
	c = strcmp(x->target, y->target);
	if (c)
		return c;
	if (x->point != y->point)
		return x->point < y->point ? -1 : 1;
	return strcmp(x->workload, y->workload);
}

static int ord(long long a, long long b)
{
	return a < b ? -1 : a > b;
}

/* series order: a point's rows by mode, then time */
static int row_cmp(const void *a, const void *b, void *t)
{
	const struct trow *x = a, *y = b;
	int c = point_cmp(t, x, y);

	if (!c)
		c = ord(x->mode, y->mode);
	return c ? c : ord((long long)x->run, (long long)y->run);
}

/* the files' order: a point's rows by time, then mode */
static int time_cmp(const void *a, const void *b, void *t)
{
	const struct trow *x = a, *y = b;
	int c = point_cmp(t, x, y);

	if (!c)
		c = ord((long long)x->run, (long long)y->run);
	return c ? c : ord(x->mode, y->mode);
}

/* a change point is kept when its t-test says under one in a thousand,
 * and each level holds for at least this many runs */
#define RP_TREND_ALPHA	 0.001
#define RP_TREND_MIN_SEG 3

/*
 * The series rows [a, b) (one target, point and mode, in time order):
 * the change points of its figure at v[at] (0 first write, 3 rewrite),
 * each marked on the row where the new level starts with the change of
 * the level's mean; a fall past the limit is a regression.
 */
static enum pb_error levels(struct trend *t, size_t a, size_t b, int at)
{
	double *v = malloc((b - a + 1) * sizeof(*v));
	size_t *idx = malloc((b - a + 1) * sizeof(*idx));
	size_t *cp = malloc((b - a + 1) * sizeof(*cp));
	size_t n = 0, ncp, i, c;

	if (!v || !idx || !cp) {
		free(v);
		free(idx);
		free(cp);
		return PB_ERR_NOMEM;
	}
	for (i = a; i < b; i++) {
		if (at == 0)
			t->row[i].lfirst = NAN;
		else
			t->row[i].lrewrite = NAN;
		if (!isnan(t->row[i].v[at])) {
			v[n] = t->row[i].v[at];
			idx[n++] = i;
		}
	}
	ncp = rp_change_points(cp, n, v, n, RP_TREND_ALPHA, RP_TREND_MIN_SEG);
	for (c = 0; c < ncp; c++) {
		size_t s0 = c ? cp[c - 1] : 0, s1 = cp[c];
		size_t e1 = c + 1 < ncp ? cp[c + 1] : n;
		double before = 0, after = 0, pct;
		struct trow *w = &t->row[idx[s1]];

		for (i = s0; i < s1; i++)
			before += v[i];
		for (i = s1; i < e1; i++)
			after += v[i];
		before /= (double)(s1 - s0);
		after /= (double)(e1 - s1);
		pct = (after / before - 1) * 100;
		if (at == 0)
			w->lfirst = pct;
		else
			w->lrewrite = pct;
		w->regressed |=
			t->max_regression >= 0 && -pct > t->max_regression;
	}
	free(v);
	free(idx);
	free(cp);
	return PB_OK;
}

/*
 * Runs in time order, each row's change against the last run of its series
 * that had the figure, the change points of each series (where its level
 * changed, found as nightly performance data is: rp_change_points), a
 * level change that fell past the limit marked a regression, and each
 * run's change of environment against the run of its profile before it.
 */
static enum pb_error analyse(struct trend *t)
{
	size_t *map = NULL, i, j, k;
	struct trun *sorted = NULL;

	if (!t->nrun)
		return PB_OK;
	/* sort the runs, and renumber the rows' references */
	map = malloc(t->nrun * sizeof(*map));
	sorted = malloc(t->nrun * sizeof(*sorted));
	if (!map || !sorted) {
		free(map);
		free(sorted);
		return PB_ERR_NOMEM;
	}
	memcpy(sorted, t->run, t->nrun * sizeof(*sorted));
	qsort(sorted, t->nrun, sizeof(*sorted), run_cmp);
	for (j = 0; j < t->nrun; j++)
		map[sorted[j].orig] = j;
	free(t->run);
	t->run = sorted;
	t->runcap = t->nrun;
	for (k = 0; k < t->nrow; k++)
		t->row[k].run = map[t->row[k].run];
	free(map);
	if (t->nrow > 1)
		qsort_r(t->row, t->nrow, sizeof(*t->row), row_cmp, t);
	for (k = 1; k < t->nrow; k++) {
		struct trow *w = &t->row[k];
		const struct trow *prev = NULL;

		for (j = k; j-- > 0 && same_series(t, &t->row[j], w);)
			if (!isnan(t->row[j].v[0]) || !isnan(t->row[j].v[3])) {
				prev = &t->row[j];
				break;
			}
		if (!prev)
			continue;
		w->dfirst = (w->v[0] / prev->v[0] - 1) * 100;
		w->drewrite = (w->v[3] / prev->v[3] - 1) * 100;
	}
	for (k = 0; k < t->nrow; k = j) {
		for (j = k + 1;
		     j < t->nrow && same_series(t, &t->row[k], &t->row[j]); j++)
			;
		if (levels(t, k, j, 0) || levels(t, k, j, 3))
			return PB_ERR_NOMEM;
	}
	/* the files read by time within each profile and point */
	if (t->nrow > 1)
		qsort_r(t->row, t->nrow, sizeof(*t->row), time_cmp, t);
	/* environment changes, per profile */
	for (i = 0; i < t->nrun; i++) {
		struct trun *r = &t->run[i];
		struct pb_buf b = PB_BUF_INIT(4096);

		for (j = i; j-- > 0;)
			if (!strcmp(t->run[j].profile, r->profile))
				break;
		if (j < i) /* j wrapped when there is none */
			for (k = 0; k < 6; k++)
				if (strcmp(t->run[j].sig[k], r->sig[k]))
					pb_buf_printf(
						&b, "%s%s %s -> %s",
						b.len ? "; " : "", sig_names[k],
						*t->run[j].sig[k]
							? t->run[j].sig[k]
							: "?",
						*r->sig[k] ? r->sig[k] : "?");
		r->change = strdup(b.data ? b.data : "");
		pb_buf_dispose(&b);
		if (!r->change)
			return PB_ERR_NOMEM;
	}
	return PB_OK;
}

static void trend_dispose(struct trend *t)
{
	size_t i, k;

	for (i = 0; i < t->nrun; i++) {
		struct trun *r = &t->run[i];

		free(r->dir);
		free(r->id);
		free(r->started);
		free(r->profile);
		free(r->backend);
		free(r->accel);
		free(r->version);
		free(r->commit);
		free(r->change);
		for (k = 0; k < 6; k++)
			free(r->sig[k]);
	}
	for (i = 0; i < t->nrow; i++) {
		free(t->row[i].workload);
		free(t->row[i].target);
	}
	free(t->run);
	free(t->row);
	memset(t, 0, sizeof(*t));
}

/* ---- trend.csv ---- */

static void csv_n(struct pb_buf *b, double v, int d)
{
	pb_buf_add(b, ",", 1);
	if (!isnan(v) && !isinf(v))
		pb_buf_printf(b, "%.*f", d, v);
}

static enum pb_error trend_csv(const struct trend *t, struct pb_buf *b)
{
	size_t k, i;

	pb_buf_addstr(b, "run_id,started_at,profile,backend,accel,"
			 "provbench_version,commit,server_build,host_build,"
			 "datastore,run_status,target,point,workload,mode,"
			 "status,"
			 "first_mib_s,first_lo_mib_s,first_hi_mib_s,"
			 "rewrite_mib_s,rewrite_lo_mib_s,rewrite_hi_mib_s,"
			 "warmup_penalty_frac,warmup_penalty_lo_frac,"
			 "warmup_penalty_hi_frac,first_change_pct,"
			 "rewrite_change_pct,regressed,environment_change,"
			 "first_level_change_pct,rewrite_level_change_pct\r\n");
	for (k = 0; k < t->nrow; k++) {
		const struct trow *w = &t->row[k];
		const struct trun *r = &t->run[w->run];
		const char *f[] = {r->id,      r->started, r->profile,
				   r->backend, r->accel,   r->version,
				   r->commit,  r->sig[0],  r->sig[1],
				   r->sig[2],  r->status,  w->target};

		for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			if (i)
				pb_buf_add(b, ",", 1);
			rp_csv_field(b, f[i]);
		}
		pb_buf_printf(b, ",%lld,", w->point);
		rp_csv_field(b, w->workload);
		pb_buf_printf(b, ",%s,%s", pb_mode_name(w->mode), w->status);
		for (i = 0; i < 9; i++)
			csv_n(b, w->v[i], i < 6 ? 3 : 4);
		csv_n(b, w->dfirst, 2);
		csv_n(b, w->drewrite, 2);
		pb_buf_printf(b, ",%s,", w->regressed ? "true" : "false");
		rp_csv_field(b, r->change);
		csv_n(b, w->lfirst, 2);
		csv_n(b, w->lrewrite, 2);
		pb_buf_addstr(b, "\r\n");
	}
	return pb_buf_error(b);
}

/* ---- trend.html ---- */

/* One chart: metric m (0 first, 1 rewrite, 2 penalty) of the rows
 * [a, b), which are one profile and point, several modes, in time order. */
/* A chart's frame: its size, plot area, value range and run count, what
 * X() and Y() place a point by */
struct frame {
	double W, H, left, top, lo, hi, scale;
	size_t nr; /* runs less one: the x axis' span */
	int metric;
};

#define X(run)                                                                 \
	(fr->left + (fr->W - fr->left - 16) * (double)(run) / (double)fr->nr)
#define Y(val) (fr->top + fr->H - fr->H * ((val)-fr->lo) / (fr->hi - fr->lo))

/* the time axis: the date and time of a run every few runs, on two
 * lines, the last kept inside the chart */
static void chart_time_axis(struct pb_buf *h, const struct trend *t,
			    const struct frame *fr)
{
	const double W = fr->W, H = fr->H, left = fr->left, top = fr->top;
	size_t j, every;

	every = t->nrun / 6 + 1;
	for (j = 0; j < t->nrun; j += every) {
		char day[11] = "", hm[6] = "";
		const char *st = t->run[j].started;
		const char *anchor = "middle";

		snprintf(day, sizeof(day), "%s", st);
		if (strlen(st) >= 16)
			snprintf(hm, sizeof(hm), "%s", st + 11);
		if (X(j) > W - 60)
			anchor = "end";
		else if (X(j) < left + 30)
			anchor = "start";
		pb_buf_printf(h,
			      "<line class=grid x1=%.1f x2=%.1f y1=%.0f "
			      "y2=%.0f stroke=#f0f0f0 /><text class=tick "
			      "x=%.1f y=%.0f text-anchor=%s>",
			      X(j), X(j), top, top + H, X(j), top + H + 16,
			      anchor);
		rp_html_text(h, day);
		pb_buf_printf(h,
			      "</text><text class=tick x=%.1f y=%.0f "
			      "text-anchor=%s>",
			      X(j), top + H + 28, anchor);
		rp_html_text(h, hm);
		pb_buf_addstr(h, "</text>\n");
	}
	pb_buf_printf(h,
		      "<text class=unit x=%.0f y=%.0f text-anchor=end>run "
		      "(start, UTC)</text>\n",
		      W - 16, top + H + 42);
}

/* runs that failed or changed environment, on this chart's runs */
static void chart_marks(struct pb_buf *h, const struct trend *t,
			const struct frame *fr, size_t first_run,
			size_t last_run)
{
	const double H = fr->H, top = fr->top;
	size_t j;

	for (j = first_run; j <= last_run && first_run != SIZE_MAX; j++) {
		const struct trun *r = &t->run[j];
		bool bad = strcmp(r->status, "complete");

		if (!bad && !*r->change)
			continue;
		pb_buf_printf(h,
			      "<line class=%s x1=%.1f x2=%.1f y1=%.0f y2=%.0f "
			      "stroke=\"%s\" stroke-dasharray=\"3 3\"><title>",
			      bad ? "runbad" : "envchange", X(j), X(j), top,
			      top + H, bad ? "#b00" : "#777");
		rp_html_text(h, r->id);
		pb_buf_printf(h, ": %s", r->status);
		if (*r->change) {
			pb_buf_addstr(h, "; ");
			rp_html_text(h, r->change);
		}
		pb_buf_addstr(h, "</title></line>\n");
	}
}

/* one mode's median line with its interval band (chart.c), and its
 * regression rings */
static void chart_mode(struct pb_buf *h, const struct trend *t,
		       const struct frame *fr, size_t a, size_t b, int mi,
		       bool *seen, bool *any_reg)
{
	const double scale = fr->scale;
	const int metric = fr->metric;
	double *x = malloc((b - a + 1) * sizeof(*x));
	double *mid = malloc((b - a + 1) * sizeof(*mid));
	double *lo = malloc((b - a + 1) * sizeof(*lo));
	double *hi = malloc((b - a + 1) * sizeof(*hi));
	size_t k, n = 0;
	double y;

	for (k = a; x && mid && lo && hi && k < b; k++) {
		const struct trow *w = &t->row[k];
		const double *q = &w->v[metric * 3];

		if ((int)w->mode != mi || isnan(q[0]))
			continue;
		*seen = true;
		x[n] = X(w->run);
		mid[n] = Y(q[0] * scale);
		lo[n] = isnan(q[1]) ? NAN : Y(q[1] * scale);
		hi[n++] = isnan(q[1]) ? NAN : Y(q[2] * scale);
	}
	if (n)
		rp_chart_band(h, rp_mode_colour((enum pb_mode)mi), x, mid, lo,
			      hi, n);
	free(x);
	free(mid);
	free(lo);
	free(hi);
	/* where the level changed: ringed, red when it fell
	 * past the limit */
	for (k = a; k < b && metric < 2; k++) {
		const struct trow *w = &t->row[k];
		const double *q = &w->v[metric * 3];
		double d = metric ? w->lrewrite : w->lfirst;
		bool fell = t->max_regression >= 0 && -d > t->max_regression;

		if ((int)w->mode != mi || isnan(d) || isnan(q[0]))
			continue;
		*any_reg = true;
		y = Y(q[0] * scale);
		pb_buf_printf(h,
			      "<circle class=%s cx=%.1f cy=%.1f r=6 "
			      "fill=none stroke=%s stroke-width=2>"
			      "<title>",
			      fell ? "regressed" : "levelchange", X(w->run), y,
			      fell ? "#b00" : "#333");
		rp_html_text(h, t->run[w->run].id);
		pb_buf_printf(h,
			      " %s: the level changed by %+.1f%%"
			      "</title></circle>\n",
			      pb_mode_name(w->mode), d);
	}
}

/* the legend, below the axis labels (chart.c's) */
static void chart_legend(struct pb_buf *h, const struct frame *fr,
			 const bool *seen, bool any_reg)
{
	struct rp_legend lg = {h, fr->left, fr->left, fr->top + fr->H + 62,
			       fr->W - 16};
	int mi;

	for (mi = 0; mi < PB_MODE__COUNT; mi++)
		if (seen[mi])
			rp_legend_add(&lg, rp_mode_colour((enum pb_mode)mi), "",
				      false, 1, pb_mode_name((enum pb_mode)mi));
	rp_legend_add(&lg, "#888", "", true, 0.15, "95% interval");
	rp_legend_add(&lg, "#333", "", false, 1,
		      any_reg ? "ring: level changed here (red: fell past "
				"the limit)"
			      : "ring: level changed here (none here)");
	rp_legend_add(&lg, "#b00", "3 3", false, 1, "run not complete");
	rp_legend_add(&lg, "#777", "3 3", false, 1, "environment changed");
}

#undef X
#undef Y

static void chart(struct pb_buf *h, const struct trend *t, size_t a, size_t b,
		  int metric, const char *title)
{
	struct frame f = {.W = 780,
			  .H = 200,
			  .left = 64,
			  .top = 28,
			  .lo = 0,
			  .hi = 1,
			  .scale = metric == 2 ? 100 : 1,
			  .metric = metric};
	size_t k, j, nr = t->nrun;
	size_t first_run = SIZE_MAX, last_run = 0;
	bool seen[PB_MODE__COUNT] = {false}, any_reg = false;
	int mi;

	for (k = a; k < b; k++) {
		const double *q = &t->row[k].v[metric * 3];

		for (j = 0; j < 3; j++) {
			if (isnan(q[j]))
				continue;
			if (q[j] * f.scale > f.hi)
				f.hi = q[j] * f.scale;
			if (q[j] * f.scale < f.lo)
				f.lo = q[j] * f.scale;
		}
		if (t->row[k].run < first_run)
			first_run = t->row[k].run;
		if (t->row[k].run > last_run)
			last_run = t->row[k].run;
	}
	f.nr = nr > 1 ? nr - 1 : 1;
	pb_buf_printf(h,
		      "<h3>%s</h3><svg class=chart width=%.0f height=%.0f "
		      "viewBox=\"0 0 %.0f %.0f\" role=img aria-label=\"%s "
		      "over time\">\n",
		      title, f.W, f.H + 122, f.W, f.H + 122, title);
	f.hi = rp_y_axis(h, f.left, f.W - 16, f.top, f.H, &f.lo, f.hi * 1.05,
			 metric == 2 ? "penalty %" : "MiB/s");
	chart_time_axis(h, t, &f);
	chart_marks(h, t, &f, first_run, last_run);
	for (mi = 0; mi < PB_MODE__COUNT; mi++)
		chart_mode(h, t, &f, a, b, mi, &seen[mi], &any_reg);
	chart_legend(h, &f, seen, any_reg);
	pb_buf_addstr(h, "</svg>\n");
}

static enum pb_error trend_html(const struct trend *t, struct pb_buf *h)
{
	size_t a, b, i;
	unsigned nreg = 0;

	pb_buf_printf(h,
		      "<!DOCTYPE html>\n<html lang=en><head><meta "
		      "charset=utf-8><title>provbench trend</title><style>%s"
		      "</style></head><body>\n<h1>provbench trend: %zu "
		      "run%s</h1>\n",
		      rp_html_style, t->nrun, t->nrun == 1 ? "" : "s");
	for (i = 0; i < t->nrow; i++)
		nreg += t->row[i].regressed;
	if (t->nrun) {
		pb_buf_addstr(h, "<p>From ");
		rp_html_text(h, t->run[0].started);
		pb_buf_addstr(h, " to ");
		rp_html_text(h, t->run[t->nrun - 1].started);
		pb_buf_addstr(h, ". ");
	}
	pb_buf_printf(h,
		      "Where a figure's level changed is ringed: a change "
		      "point of the series (Welch's t-test split, as Apache "
		      "Otava finds them in nightly performance data: under "
		      "one in a thousand by chance, each level held for %d "
		      "runs or more); %u fell more than %g%% (red). Each line "
		      "is a mode's median "
		      "over its repetitions, the band its 95%% interval; "
		      "runs of different backends, accelerators or "
		      "environments are marked where they change and are "
		      "not comparable across the mark.</p>\n",
		      RP_TREND_MIN_SEG, nreg, t->max_regression);
	for (a = 0; a < t->nrow; a = b) {
		const struct trow *w = &t->row[a];
		char title[512];

		for (b = a + 1; b < t->nrow &&
				!strcmp(t->run[t->row[b].run].profile,
					t->run[w->run].profile) &&
				t->row[b].point == w->point &&
				!strcmp(t->row[b].target, w->target) &&
				!strcmp(t->row[b].workload, w->workload);
		     b++)
			;
		pb_buf_addstr(h, "<h2>");
		rp_html_text(h, t->run[w->run].profile);
		if (*w->target) {
			pb_buf_addstr(h, " on ");
			rp_html_text(h, w->target);
		}
		if (*w->workload) {
			pb_buf_addstr(h, ": ");
			rp_html_text(h, w->workload);
		}
		pb_buf_addstr(h, "</h2>\n");
		snprintf(title, sizeof(title), "First write");
		chart(h, t, a, b, 0, title);
		snprintf(title, sizeof(title), "Rewrite");
		chart(h, t, a, b, 1, title);
		snprintf(title, sizeof(title), "Warm-up penalty");
		chart(h, t, a, b, 2, title);
	}
	/* what the marks mean, run by run */
	pb_buf_addstr(h, "<h2>Runs not complete or with a changed "
			 "environment</h2><table><tr><th>run</th><th>status"
			 "</th><th>what changed since the run before</th>"
			 "</tr>\n");
	for (i = 0; i < t->nrun; i++) {
		const struct trun *r = &t->run[i];

		if (!strcmp(r->status, "complete") && !*r->change)
			continue;
		pb_buf_addstr(h, "<tr><td>");
		rp_html_text(h, r->id);
		pb_buf_printf(h, "</td><td class=%s>%s</td><td>",
			      strcmp(r->status, "complete") ? "bad" : "n",
			      r->status);
		rp_html_text(h, *r->change ? r->change : "\u2013");
		pb_buf_addstr(h, "</td></tr>\n");
	}
	pb_buf_addstr(h, "</table></body></html>\n");
	return pb_buf_error(h);
}

enum pb_error rp_trend(const struct rp_trend_opts *o, unsigned *regressed,
		       char *errbuf)
{
	struct trend t = {.max_regression = o->max_regression};
	struct pb_buf csv = PB_BUF_INIT(1u << 30), html = PB_BUF_INIT(1u << 30);
	char path[PATH_MAX];
	enum pb_error err = PB_OK;
	size_t i;

	*regressed = 0;
	for (i = 0; !err && i < o->npaths; i++)
		err = add_path(&t, o->paths[i], o->baseline, errbuf);
	if (!err && !t.nrun)
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "%s: no run.json found there", o->paths[0]);
	if (!err && (err = analyse(&t)))
		pb_fail(errbuf, err, "trend: out of memory");
	if (!err && (err = trend_csv(&t, &csv)))
		pb_fail(errbuf, err, "trend.csv: %s", pb_strerror(err));
	if (!err && (err = trend_html(&t, &html)))
		pb_fail(errbuf, err, "trend.html: %s", pb_strerror(err));
	if (!err && mkdir(o->out_dir, 0755) && errno != EEXIST)
		err = pb_fail(errbuf, PB_ERR_IO, "%s: %s", o->out_dir,
			      strerror(errno));
	if (!err) {
		snprintf(path, sizeof(path), "%s/trend.csv", o->out_dir);
		err = pb_write_atomic(path, csv.data, csv.len, errbuf);
	}
	if (!err) {
		snprintf(path, sizeof(path), "%s/trend.html", o->out_dir);
		err = pb_write_atomic(path, html.data, html.len, errbuf);
	}
	for (i = 0; !err && i < t.nrow; i++)
		*regressed += t.row[i].regressed;
	if (!err && !o->quiet)
		printf("trend: %zu runs, %zu rows, %u regression%s marked: "
		       "%s/trend.html, %s/trend.csv\n",
		       t.nrun, t.nrow, *regressed, *regressed == 1 ? "" : "s",
		       o->out_dir, o->out_dir);
	pb_buf_dispose(&csv);
	pb_buf_dispose(&html);
	trend_dispose(&t);
	return err;
}
