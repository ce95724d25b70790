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

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static struct rp_group *group_for(struct rp_model *m, const char *w,
				  const char *mode, size_t cap)
{
	size_t i;

	for (i = 0; i < m->ng; i++)
		if (!strcmp(m->g[i].workload, w) && !strcmp(m->g[i].mode, mode))
			return &m->g[i];
	if (m->ng == cap)
		return NULL;
	i = m->ng++;
	snprintf(m->g[i].workload, sizeof(m->g[i].workload), "%s", w);
	snprintf(m->g[i].mode, sizeof(m->g[i].mode), "%s", mode);
	return &m->g[i];
}

/* Arrays sized for every item: a group never has more values. */
static enum pb_error group_alloc(struct rp_group *g, size_t n)
{
	double **arrs[] = {&g->first,  &g->rewrite,   &g->read,	      &g->prov,
			   &g->steady, &g->p99_first, &g->p99_rewrite};
	size_t i;

	for (i = 0; i < sizeof(arrs) / sizeof(arrs[0]); i++)
		if (!*arrs[i] && !(*arrs[i] = calloc(n + 1, sizeof(double))))
			return PB_ERR_NOMEM;
	for (i = 0; i < RP_MAX_REWRITES; i++)
		if (!g->conv[i] &&
		    !(g->conv[i] = calloc(n + 1, sizeof(double))))
			return PB_ERR_NOMEM;
	return PB_OK;
}

/* One successful repetition of a group. */
static void add_item(struct rp_group *g, json_t *item)
{
	json_t *runner = json_object_get(item, "runner"), *passes, *p;
	json_t *rb = json_object_get(json_object_get(item, "disk"), "readback");
	double rw[RP_MAX_REWRITES];
	unsigned nrw = 0;
	size_t i;

	passes = json_object_get(runner, "passes");
	g->prov[g->nprov++] = num(json_object_get(item, "disk"), "provision_s");
	if (json_is_object(rb) && json_object_get(rb, "mode")) {
		snprintf(g->applied, sizeof(g->applied), "%s", str(rb, "mode"));
		if (strcmp(g->applied, g->mode))
			g->mismatch = true;
	}
	json_array_foreach(passes, i, p)
	{
		const char *name = str(p, "name");
		double mib = num(p, "mib_per_s");
		double p99 = num(json_object_get(p, "lat_us"), "p99");

		if (!json_is_true(json_object_get(p, "complete")))
			continue;
		if (!strcmp(name, "first-write")) {
			g->first[g->nfirst++] = mib;
			g->p99_first[g->np99f++] = p99;
			if (!g->curve)
				g->curve = json_object_get(p, "series");
		} else if (!strcmp(name, "rewrite") && nrw < RP_MAX_REWRITES) {
			g->conv[nrw][g->nconv[nrw]++] = mib;
			rw[nrw++] = mib;
			g->p99_rewrite[g->np99r++] = p99;
		} else if (!strcmp(name, "read")) {
			g->read[g->nread++] = mib;
		}
	}
	if (nrw) {
		g->rewrite[g->nrewrite++] = rp_median(rw, nrw);
		if (nrw > g->max_rewrites)
			g->max_rewrites = nrw;
	}
}

/* Where each repetition's first write settled, against the rewrite median */
static enum pb_error steady_points(struct rp_group *g, json_t *items)
{
	json_t *item, *p, *series, *pt;
	size_t i, j, k, n;
	uint64_t *bytes;
	double *mib;
	bool settled;

	if (isnan(g->rewrite_med))
		return PB_OK;
	json_array_foreach(items, i, item)
	{
		if (strcmp(str(item, "workload"), g->workload) ||
		    strcmp(str(item, "mode"), g->mode) ||
		    strcmp(str(item, "status"), "ok"))
			continue;
		json_array_foreach(
			json_object_get(json_object_get(item, "runner"),
					"passes"),
			j, p)
		{
			if (strcmp(str(p, "name"), "first-write"))
				continue;
			series = json_object_get(p, "series");
			n = json_array_size(series);
			bytes = calloc(n + 1, sizeof(*bytes));
			mib = calloc(n + 1, sizeof(*mib));
			if (!bytes || !mib) {
				free(bytes);
				free(mib);
				return PB_ERR_NOMEM;
			}
			json_array_foreach(series, k, pt)
			{
				bytes[k] = (uint64_t)num(pt, "bytes");
				mib[k] = num(pt, "mib_per_s");
			}
			g->steady[g->nsteady++] = (double)rp_steady_after(
				bytes, mib, n, g->rewrite_med, STEADY_WINDOW,
				&settled);
			if (!settled)
				g->never_steady = true;
			free(bytes);
			free(mib);
		}
	}
	return PB_OK;
}

static void finish_group(struct rp_model *m, struct rp_group *g)
{
	unsigned k;

	g->first_med = rp_median(g->first, g->nfirst);
	rp_median_ci(&g->first_lo, &g->first_hi, g->first, g->nfirst);
	g->rewrite_med = rp_median(g->rewrite, g->nrewrite);
	rp_median_ci(&g->rewrite_lo, &g->rewrite_hi, g->rewrite, g->nrewrite);
	g->read_med = rp_median(g->read, g->nread);
	g->prov_med = rp_median(g->prov, g->nprov);
	g->penalty = rp_warmup_penalty(g->first_med, g->rewrite_med);
	g->p99_first_med = rp_median(g->p99_first, g->np99f);
	g->p99_rewrite_med = rp_median(g->p99_rewrite, g->np99r);
	for (k = 0; k < g->max_rewrites; k++)
		g->conv_med[k] = rp_median(g->conv[k], g->nconv[k]);
	steady_points(g, json_object_get(m->doc, "results"));
	g->steady_med = rp_median(g->steady, g->nsteady);
}

/* Ratios to the baseline and eager's break-even need every group done. */
static void cross_group(struct rp_model *m)
{
	size_t i;

	for (i = 0; i < m->ng; i++) {
		struct rp_group *g = &m->g[i];
		const struct rp_group *b =
			rp_model_find(m, g->workload, m->baseline);
		const struct rp_group *lz =
			rp_model_find(m, g->workload, "lazy");
		const struct rp_group *th =
			rp_model_find(m, g->workload, "thin");

		g->first_vs_base = g->rewrite_vs_base = NAN;
		if (b && b->first_med > 0 && b->rewrite_med > 0) {
			m->have_baseline = true;
			g->first_vs_base = g->first_med / b->first_med;
			g->rewrite_vs_base = g->rewrite_med / b->rewrite_med;
		}
		g->be_lazy = g->be_thin = NAN;
		if (strcmp(g->mode, "eager"))
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

enum pb_error rp_model_load(struct rp_model *m, const char *dir,
			    const char *baseline, char *errbuf)
{
	char path[1200];
	json_error_t je;
	json_t *items, *item, *env;
	char *text;
	size_t i, n, len;
	enum pb_error err = PB_OK;

	memset(m, 0, sizeof(*m));
	m->baseline = baseline;
	snprintf(path, sizeof(path), "%s/run.json", dir);
	/* whole, then parsed from memory: json_load_file reads by getc */
	text = pb_slurp_file(path, &len);
	if (!text)
		return pb_fail(errbuf, PB_ERR_INPUT, "%s: %s", path,
			       strerror(errno));
	m->doc = json_loadb(text, len, 0, &je);
	free(text);
	if (!m->doc)
		return pb_fail(errbuf, PB_ERR_INPUT, "%s:%d:%d: %s", path,
			       je.line, je.column, je.text);
	items = json_object_get(m->doc, "results");
	if (!json_is_array(items) || strcmp(str(m->doc, "tool"), "provbench"))
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "%s: not a provbench run.json (no results)",
			       path);
	env = json_object_get(m->doc, "environment");
	m->profile_name = str(json_object_get(m->doc, "profile"), "name");
	m->backend = str(env, "backend");
	m->accel = str(env, "accelerator");
	n = json_array_size(items);
	m->g = calloc(n + 1, sizeof(*m->g));
	if (!m->g)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	json_array_foreach(items, i, item)
	{
		struct rp_group *g = group_for(m, str(item, "workload"),
					       str(item, "mode"), n);

		if (!g || !*str(item, "mode"))
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "%s: results[%zu] has no mode", path, i);
		err = group_alloc(g, n);
		if (err)
			return pb_fail(errbuf, err, "out of memory");
		g->nreps++;
		if (strcmp(str(item, "status"), "ok") ||
		    !json_is_object(json_object_get(item, "runner"))) {
			g->nfailed++;
			m->failed_items++;
			if (!g->first_error[0])
				snprintf(g->first_error, sizeof(g->first_error),
					 "%s: %s", str(item, "status"),
					 str(item, "error"));
			continue;
		}
		g->nok++;
		add_item(g, item);
	}
	for (i = 0; i < m->ng; i++)
		finish_group(m, &m->g[i]);
	cross_group(m);
	return PB_OK;
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
		free(g->p99_first);
		free(g->p99_rewrite);
		for (k = 0; k < RP_MAX_REWRITES; k++)
			free(g->conv[k]);
	}
	free(m->g);
	json_decref(m->doc);
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

static const char *tri(json_t *rb, const char *k)
{
	json_t *v = json_object_get(rb, k);

	return json_is_true(v) ? "true" : json_is_false(v) ? "false" : "";
}

static enum pb_error report_csv(const struct rp_model *m, struct pb_buf *b)
{
	json_t *item, *p;
	size_t i, j;
	enum pb_error err;

	err = pb_buf_addstr(b, "profile,backend,accel,mode,rep,pass,"
			       "pass_index,pattern,bs,qd,bytes,seconds,"
			       "mib_per_s,iops,lat_p50_us,lat_p99_us,"
			       "lat_p999_us,provision_s,thin_provisioned,"
			       "eagerly_scrub\r\n");
	json_array_foreach(json_object_get(m->doc, "results"), i, item)
	{
		json_t *disk = json_object_get(item, "disk");
		json_t *rb = json_object_get(disk, "readback");

		json_array_foreach(
			json_object_get(json_object_get(item, "runner"),
					"passes"),
			j, p)
		{
			json_t *lat = json_object_get(p, "lat_us");

			if (!err)
				err = rp_csv_field(b, m->profile_name);
			if (!err)
				err = pb_buf_addstr(b, ",");
			if (!err)
				err = rp_csv_field(b, m->backend);
			if (!err)
				err = pb_buf_addstr(b, ",");
			if (!err)
				err = rp_csv_field(b, m->accel);
			if (!err)
				err = pb_buf_printf(
					b,
					",%s,%lld,%s,%lld,%s,%lld,%lld,%lld,",
					str(item, "mode"),
					json_integer_value(
						json_object_get(item, "rep")),
					str(p, "name"),
					json_integer_value(
						json_object_get(p, "index")),
					str(p, "pattern"),
					json_integer_value(
						json_object_get(p, "bs")),
					json_integer_value(
						json_object_get(p, "qd")),
					json_integer_value(
						json_object_get(p, "bytes")));
			if (!err)
				err = pb_buf_printf(
					b,
					"%.6f,%.3f,%.1f,%.1f,%.1f,%.1f,%.6f,%s,"
					"%s\r\n",
					num(p, "seconds"), num(p, "mib_per_s"),
					num(p, "iops"), num(lat, "p50"),
					num(lat, "p99"), num(lat, "p999"),
					num(disk, "provision_s"),
					tri(rb, "thin_provisioned"),
					tri(rb, "eagerly_scrub"));
		}
	}
	return err;
}

static enum pb_error summary_csv(const struct rp_model *m, struct pb_buf *b)
{
	enum pb_error err;
	size_t i;

	err = pb_buf_addstr(b, "mode,first_mib_s,first_lo,first_hi,"
			       "rewrite_mib_s,rewrite_lo,rewrite_hi,"
			       "warmup_penalty,first_vs_baseline,"
			       "rewrite_vs_baseline,steady_after_bytes,"
			       "provision_s,breakeven_bytes_vs_lazy,"
			       "breakeven_bytes_vs_thin,workload\r\n");
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

static void text_table(const struct rp_model *m, const struct rp_model *old,
		       struct pb_buf *b)
{
	size_t i;

	pb_buf_printf(b, "provbench report: %s (%s%s%s)\n", m->profile_name,
		      m->backend, *m->accel ? ", " : "", m->accel);
	pb_buf_printf(b,
		      "medians over repetitions; [95%% interval: bootstrap "
		      "of the median]; baseline %s%s\n\n",
		      m->baseline,
		      m->have_baseline ? ""
				       : " (absent: ratios "
					 "not shown)");
	pb_buf_printf(b,
		      "%-16s %-6s %8s %19s %8s %19s %8s %7s %7s %10s %7s  %s\n",
		      "workload", "mode", "first", "[interval]", "rewrite",
		      "[interval]", "penalty", "f/base", "r/base", "steady@MiB",
		      "prov s", "notes");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char iv[64];

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
		cell(b, g->first_vs_base, 2, "", 8);
		cell(b, g->rewrite_vs_base, 2, "", 8);
		cell(b, g->steady_med / 1048576.0, 0, "", 11);
		cell(b, g->prov_med, 2, "", 8);
		pb_buf_printf(b, "  %s%s%s%s%s\n",
			      g->never_steady ? "never settled " : "",
			      g->mismatch ? "APPLIED AS " : "",
			      g->mismatch ? g->applied : "",
			      g->nfailed ? " FAILED " : "",
			      g->nfailed ? g->first_error : "");
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
						 (uint64_t)g->be_lazy),
			isnan(g->be_thin) ? "-"
			: g->be_thin < 0  ? "never"
					  : "after ",
			isnan(g->be_thin) || g->be_thin < 0
				? ""
				: pb_size_format(t, sizeof(t),
						 (uint64_t)g->be_thin));
	}
	if (!old)
		return;
	pb_buf_printf(b, "\ncompared with %s:\n",
		      json_string_value(json_object_get(old->doc, "run")));
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		struct rp_change c;

		if (!rp_compare(&c, old, g))
			continue;
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
	err = rp_model_load(&m, o->results_dir, o->baseline, errbuf);
	if (!err && o->compare_dir) {
		err = rp_model_load(&old, o->compare_dir, o->baseline, errbuf);
		have_old = !err;
	}
	if (!err && !m.ng)
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "%s/run.json: no results yet", o->results_dir);
	if (err)
		goto out;
	if (!err)
		err = report_csv(&m, &csv);
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
		pb_fail(errbuf, PB_ERR_FAULT, "regression over %.1f%%: %s",
			o->max_regression, why.data);
	}
out:
	pb_buf_dispose(&csv);
	pb_buf_dispose(&sum);
	pb_buf_dispose(&txt);
	pb_buf_dispose(&html);
	pb_buf_dispose(&why);
	rp_model_dispose(&m);
	if (have_old || old.doc)
		rp_model_dispose(&old);
	return err;
}
