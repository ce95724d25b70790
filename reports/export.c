/*
 * export.c - `provbench export`: a run's figures where labs keep theirs.
 * Every figure comes from the report's model and findings (a group's
 * medians and intervals, a regression the gate found), or for fio-json
 * from the runner's own passes in run.json; none is derived here.
 *
 *   openmetrics  OpenMetrics text: Prometheus scrapes or backfills it
 *                (`promtool tsdb create-blocks-from openmetrics`)
 *   influx       InfluxDB line protocol, a line per group
 *   junit        JUnit XML for CI servers: a testcase per mode and point
 *   fio-json     fio's --output-format=json, a job per pass, for fio-plot
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "findings.h"
#include "analysis.h"
#include "gate.h"
#include "compare.h"
#include "model.h"
#include "report.h"
#include "phrase.h"
#include "words.h"
#include "runjson.h"
#include "runner.h"

static const char *const formats[] = {
	[RP_EXPORT_OPENMETRICS] = "openmetrics",
	[RP_EXPORT_INFLUX] = "influx",
	[RP_EXPORT_JUNIT] = "junit",
	[RP_EXPORT_FIO_JSON] = "fio-json",
	NULL,
};

const char *const *rp_export_formats(void)
{
	return formats;
}

bool rp_export_format_parse(enum rp_export_format *out, const char *s)
{
	for (unsigned i = 0; formats[i]; i++)
		if (!strcmp(formats[i], s)) {
			*out = (enum rp_export_format)i;
			return true;
		}
	return false;
}

/* run.json's started_at ("2026-12-03T08:00:00Z") as seconds since 1970 */
static long long run_time(const struct rp_model *m)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = m->started_at ? strptime(m->started_at, "%Y-%m-%dT%H:%M:%S", &tm)
			    : NULL;
	return end ? (long long)timegm(&tm) : 0;
}

static const char *target_of(const struct rp_model *m, const struct rp_group *g)
{
	return g->target >= 0 && (size_t)g->target < m->ntinfo
		       ? m->tinfo[g->target].name
		       : "";
}

/* ---- OpenMetrics ---- */

/* a label value: backslash, double quote and newline escaped */
static void om_value(struct pb_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			pb_buf_printf(b, "\\%c", *s);
		else if (*s == '\n')
			pb_buf_addstr(b, "\\n");
		else
			pb_buf_add(b, s, 1);
	}
}

static void om_labels(struct pb_buf *b, const struct rp_model *m,
		      const struct rp_group *g)
{
	pb_buf_addstr(b, "{run=\"");
	om_value(b, m->run ? m->run : "");
	pb_buf_addstr(b, "\",profile=\"");
	om_value(b, m->profile_name ? m->profile_name : "");
	pb_buf_addstr(b, "\",target=\"");
	om_value(b, target_of(m, g));
	pb_buf_printf(b, "\",point=\"%lld\",workload=\"", g->point);
	om_value(b, g->workload);
	pb_buf_printf(b, "\",mode=\"%s\",applied=\"", g->mode);
	om_value(b, *g->applied ? g->applied : g->mode);
	pb_buf_addstr(b, "\"");
}

/* one sample; none for a figure the data cannot support (NaN) */
static void om_sample(struct pb_buf *b, const char *name,
		      const struct rp_model *m, const struct rp_group *g,
		      const char *extra, double v, long long t)
{
	if (!isfinite(v))
		return;
	pb_buf_addstr(b, name);
	om_labels(b, m, g);
	pb_buf_printf(b, "%s} %.10g %lld\n", extra, v, t);
}

static void om_family(struct pb_buf *b, const char *name, const char *unit,
		      const char *help)
{
	pb_buf_printf(b, "# TYPE %s gauge\n", name);
	if (*unit)
		pb_buf_printf(b, "# UNIT %s %s\n", name, unit);
	pb_buf_printf(b, "# HELP %s %s\n", name, help);
}

/* a figure and its 95% interval's ends, as stat="median|lower95|upper95"
 * (a penalty's point is its "estimate": a geometric mean, no median) */
static void om_stat(struct pb_buf *b, const char *name,
		    const struct rp_model *m, const struct rp_group *g,
		    const char *pass, double scale, double med, double lo,
		    double hi, long long t)
{
	const double v[3] = {med, lo, hi};
	const char *const st[3] = {pass ? "median" : "estimate", "lower95",
				   "upper95"};
	char extra[96];

	for (unsigned k = 0; k < 3; k++) {
		snprintf(extra, sizeof(extra), "%s%s%s,stat=\"%s\"",
			 pass ? ",pass=\"" : "", pass ? pass : "",
			 pass ? "\"" : "", st[k]);
		om_sample(b, name, m, g, extra, v[k] * scale, t);
	}
}

#define MIB 1048576.0

/* one layer's first-write and later-write medians (milliseconds in the
 * model), as seconds */
static void om_layer(struct pb_buf *b, const char *name,
		     const struct rp_model *m, const struct rp_group *g,
		     const char *layer, double first_ms, double later_ms)
{
	char extra[128];

	snprintf(extra, sizeof(extra), ",pass=\"first-write\",layer=\"%s\"",
		 layer);
	om_sample(b, name, m, g, extra, first_ms / 1e3, run_time(m));
	snprintf(extra, sizeof(extra), ",pass=\"%s\",layer=\"%s\"",
		 rp_later_name(m), layer);
	om_sample(b, name, m, g, extra, later_ms / 1e3, run_time(m));
}

static void om_layers(struct pb_buf *b, const char *name,
		      const struct rp_model *m, const struct rp_group *g,
		      bool cpu)
{
	static const char *const srv[RP_SV__COUNT] = {
		[RP_SV_GUEST_MS] = "guest",   [RP_SV_VDISK_MS] = "virtual_disk",
		[RP_SV_KERNEL_MS] = "kernel", [RP_SV_DEVICE_MS] = "lun_device",
		[RP_SV_QUEUE_MS] = "queue",   [RP_SV_DS_MS] = "datastore",
		[RP_SV_CPU] = "vm",
	};
	const struct rp_server *v = &g->srv;

	if (cpu) {
		if (g->hostdev.nfirst && g->hostdev.nlater)
			om_layer(b, name, m, g, "qemu",
				 g->hostdev.first_med[RP_DEV_CPU],
				 g->hostdev.later_med[RP_DEV_CPU]);
		if (v->nfirst[RP_SV_CPU] && v->nlater[RP_SV_CPU])
			om_layer(b, name, m, g, srv[RP_SV_CPU],
				 v->first_med[RP_SV_CPU],
				 v->later_med[RP_SV_CPU]);
		return;
	}
	if (g->dev.nfirst && g->dev.nlater)
		om_layer(b, name, m, g, "device", g->dev.first_med[RP_DEV_MS],
			 g->dev.later_med[RP_DEV_MS]);
	if (g->hostdev.nfirst && g->hostdev.nlater)
		om_layer(b, name, m, g, "host_device",
			 g->hostdev.first_med[RP_DEV_MS],
			 g->hostdev.later_med[RP_DEV_MS]);
	for (unsigned k = 0; k < RP_SV_CPU; k++)
		if (v->nfirst[k] && v->nlater[k])
			om_layer(b, name, m, g, srv[k], v->first_med[k],
				 v->later_med[k]);
}

/* the penalty's verdict, a sample per state (1 for the one that holds):
 * beyond noise, within it, or too few repetitions to tell (a figure with
 * no interval is no verdict). A gauge with a state label, the way
 * Prometheus' own exporters say states: promtool's parser knows no
 * OpenMetrics stateset. */
static void om_verdict(struct pb_buf *b, const char *name,
		       const struct rp_model *m, const struct rp_findings *fs,
		       const struct rp_group *g)
{
	static const struct {
		enum rp_sig sig;
		const char *state;
	} st[] = {{RP_SIG_YES, "beyond_noise"},
		  {RP_SIG_NOISE, "within_noise"},
		  {RP_SIG_FEW, "too_few_to_tell"}};
	const struct rp_finding *f = NULL;
	char extra[160];

	for (size_t i = fs->nheadline; i < fs->n && !f; i++)
		if (fs->f[i].kind == RP_F_PENALTY && fs->f[i].g == g)
			f = &fs->f[i];
	for (size_t k = 0; f && k < sizeof(st) / sizeof(st[0]); k++) {
		snprintf(extra, sizeof(extra), ",verdict=\"%s\"", st[k].state);
		om_sample(b, name, m, g, extra, f->sig == st[k].sig,
			  run_time(m));
	}
}

/*
 * An offered rate's tail (issue 55): each mode's first write's and later
 * write's latency quantiles (medians over repetitions, from each write's
 * intended start) and stalls; a family only for runs that offered one.
 */
static void om_tail(struct pb_buf *b, struct rp_model *const *ms, size_t n)
{
	static const char *lat = "provbench_rate_latency_seconds",
			  *st = "provbench_rate_stalls";
	static const char *const q[] = {"50", "99", "99.9"};
	bool any = false;
	char extra[128];
	size_t r, i, k;

	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++)
			any |= ms[r]->g[i].tail.n > 0;
	if (!any)
		return;
	om_family(b, lat, "seconds",
		  "At an offered rate: the median over repetitions of a pass "
		  "kind's latency quantile, from each write's intended start "
		  "(passes that held the rate only).");
	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++) {
			const struct rp_group *g = &ms[r]->g[i];

			for (k = 0; g->tail.n && k < 3; k++) {
				snprintf(extra, sizeof(extra),
					 ",pass=\"first-write\",percentile=\"%"
					 "s\"",
					 q[k]);
				om_sample(b, lat, ms[r], g, extra,
					  g->tail.first_med[k] / 1e3,
					  run_time(ms[r]));
				snprintf(extra, sizeof(extra),
					 ",pass=\"%s\",percentile=\"%s\"",
					 rp_later_name(ms[r]), q[k]);
				om_sample(b, lat, ms[r], g, extra,
					  g->tail.later_med[k] / 1e3,
					  run_time(ms[r]));
			}
		}
	om_family(b, st, "",
		  "At an offered rate: the median over repetitions of a pass "
		  "kind's writes slower than stall_us.");
	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++) {
			const struct rp_group *g = &ms[r]->g[i];

			if (!g->tail.n)
				continue;
			om_sample(b, st, ms[r], g, ",pass=\"first-write\"",
				  g->tail.first_med[RP_TL_STALLS],
				  run_time(ms[r]));
			snprintf(extra, sizeof(extra), ",pass=\"%s\"",
				 rp_later_name(ms[r]));
			om_sample(b, st, ms[r], g, extra,
				  g->tail.later_med[RP_TL_STALLS],
				  run_time(ms[r]));
		}
}

static void openmetrics(struct pb_buf *b, struct rp_model *const *ms,
			struct rp_findings *const *fss, size_t n)
{
	static const char *tp = "provbench_throughput_bytes_per_second",
			  *pen = "provbench_first_write_penalty_ratio",
			  *verdict = "provbench_first_write_penalty_verdict",
			  *prov = "provbench_provision_seconds",
			  *reps = "provbench_repetitions",
			  *when = "provbench_run_timestamp_seconds",
			  *lat = "provbench_write_latency_seconds",
			  *cpu = "provbench_cpu_per_write_seconds",
			  *alloc = "provbench_first_write_extent_bytes";
	char def[320], help[512];
	bool paired = false;
	size_t r, i;

	/* each family's samples together, over every run */
	om_family(b, tp, "bytes_per_second",
		  "Median over repetitions of a pass kind's throughput and "
		  "its 95% interval's ends (stat).");
	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++) {
			const struct rp_model *m = ms[r];
			const struct rp_group *g = &m->g[i];
			long long t = run_time(m);

			om_stat(b, tp, m, g, "first-write", MIB, g->first_med,
				g->first_lo, g->first_hi, t);
			om_stat(b, tp, m, g, rp_later_name(m), MIB,
				g->rewrite_med, g->rewrite_lo, g->rewrite_hi,
				t);
			om_stat(b, tp, m, g, "read", MIB, g->read_med, NAN, NAN,
				t);
			om_stat(b, tp, m, g, "fsync-write", MIB, g->fsync_med,
				NAN, NAN, t);
		}
	for (r = 0; r < n; r++)
		paired |= rp_any_paired(ms[r]);
	rp_penalty_define(def, sizeof(def), "later write", NULL, paired);
	snprintf(help, sizeof(help),
		 "The first write's warm-up %s (0.5: half as long again), "
		 "its estimate and 95%% interval's ends (stat); no interval "
		 "under 3 repetitions.",
		 def);
	om_family(b, pen, "ratio", help);
	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++)
			om_stat(b, pen, ms[r], &ms[r]->g[i], NULL, 1.0,
				ms[r]->g[i].penalty, ms[r]->g[i].penalty_lo,
				ms[r]->g[i].penalty_hi, run_time(ms[r]));
	om_family(b, verdict, "",
		  "The penalty's verdict, 1 for the state that holds: "
		  "beyond_noise, within_noise, or too_few_to_tell (under 3 "
		  "repetitions).");
	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++)
			om_verdict(b, verdict, ms[r], fss[r], &ms[r]->g[i]);
	om_family(b, prov, "seconds",
		  "Median time to create the disk (eager's zeroing in it).");
	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++)
			om_sample(b, prov, ms[r], &ms[r]->g[i], "",
				  ms[r]->g[i].prov_med, run_time(ms[r]));
	/* where the time went (issue 33's findings' figures): each layer's
	 * mean write latency in the first write and the later writes,
	 * medians over repetitions */
	om_family(b, lat, "seconds",
		  "Median over repetitions of a layer's mean write latency in "
		  "a pass kind: the block device under the runner (device), "
		  "the host's under a guest (host_device), the server's "
		  "virtual disk, VMkernel, LUN device and queue (vSphere).");
	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++)
			om_layers(b, lat, ms[r], &ms[r]->g[i], false);
	om_family(b, cpu, "seconds",
		  "Median over repetitions of the CPU the hypervisor spent per "
		  "write the runner made: qemu's (qemu), the VM's as the "
		  "server counted it (vm).");
	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++)
			om_layers(b, cpu, ms[r], &ms[r]->g[i], true);
	om_family(b, alloc, "bytes",
		  "Median over repetitions of what a file's first write had "
		  "its filesystem allocate (holes filled) or convert "
		  "(unwritten extents written), as FIEMAP told it (what): the "
		  "runner's file, or the disk's file on the host (file).");
	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++) {
			const struct rp_group *g = &ms[r]->g[i];
			const struct rp_extents *e[2] = {&g->ext, &g->hostext};
			static const char *const x[2][2] = {
				{",file=\"runner\",what=\"allocated\"",
				 ",file=\"runner\",what=\"converted\""},
				{",file=\"host\",what=\"allocated\"",
				 ",file=\"host\",what=\"converted\""}};

			for (unsigned k = 0; k < 2; k++) {
				if (!e[k]->n)
					continue;
				om_sample(b, alloc, ms[r], g, x[k][0],
					  e[k]->alloc_med, run_time(ms[r]));
				om_sample(b, alloc, ms[r], g, x[k][1],
					  e[k]->conv_med, run_time(ms[r]));
			}
		}
	om_tail(b, ms, n);
	om_family(b, reps, "", "Repetitions measured (status ok).");
	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++)
			om_sample(b, reps, ms[r], &ms[r]->g[i], "",
				  (double)ms[r]->g[i].nok, run_time(ms[r]));
	om_family(b, when, "seconds", "When the run started.");
	for (r = 0; r < n; r++) {
		long long t = run_time(ms[r]);

		pb_buf_printf(b, "%s{run=\"", when);
		om_value(b, ms[r]->run ? ms[r]->run : "");
		pb_buf_addstr(b, "\",profile=\"");
		om_value(b, ms[r]->profile_name ? ms[r]->profile_name : "");
		pb_buf_printf(b, "\"} %lld %lld\n", t, t);
	}
	pb_buf_addstr(b, "# EOF\n");
}

/* ---- InfluxDB line protocol ---- */

/* a tag value: commas, spaces and equals signs escaped; an empty one is
 * not allowed, so "-" stands for it */
static void lp_tag(struct pb_buf *b, const char *key, const char *v)
{
	pb_buf_printf(b, ",%s=", key);
	if (!*v)
		v = "-";
	for (; *v; v++) {
		if (*v == ',' || *v == ' ' || *v == '=' || *v == '\\')
			pb_buf_add(b, "\\", 1);
		if (*v == '\n')
			pb_buf_addstr(b, "\\n");
		else
			pb_buf_add(b, v, 1);
	}
}

static void lp_field(struct pb_buf *b, bool *first, const char *key, double v)
{
	if (!isfinite(v))
		return;
	pb_buf_printf(b, "%s%s=%.10g", *first ? " " : ",", key, v);
	*first = false;
}

static void influx(struct pb_buf *b, struct rp_model *const *ms, size_t n)
{
	char pt[32];

	for (size_t r = 0; r < n; r++) {
		const struct rp_model *m = ms[r];
		long long t = run_time(m);

		for (size_t i = 0; i < m->ng; i++) {
			const struct rp_group *g = &m->g[i];
			struct pb_buf line = PB_BUF_INIT(1u << 16);
			bool first = true;

			pb_buf_addstr(&line, "provbench");
			lp_tag(&line, "run", m->run ? m->run : "");
			lp_tag(&line, "profile",
			       m->profile_name ? m->profile_name : "");
			lp_tag(&line, "target", target_of(m, g));
			snprintf(pt, sizeof(pt), "%lld", g->point);
			lp_tag(&line, "point", pt);
			lp_tag(&line, "mode", g->mode);
			lp_tag(&line, "applied",
			       *g->applied ? g->applied : g->mode);
			lp_field(&line, &first, "first_mib_s", g->first_med);
			lp_field(&line, &first, "first_lo_mib_s", g->first_lo);
			lp_field(&line, &first, "first_hi_mib_s", g->first_hi);
			lp_field(&line, &first, "later_mib_s", g->rewrite_med);
			lp_field(&line, &first, "later_lo_mib_s",
				 g->rewrite_lo);
			lp_field(&line, &first, "later_hi_mib_s",
				 g->rewrite_hi);
			lp_field(&line, &first, "read_mib_s", g->read_med);
			lp_field(&line, &first, "fsync_write_mib_s",
				 g->fsync_med);
			lp_field(&line, &first, "penalty", g->penalty);
			lp_field(&line, &first, "penalty_lo", g->penalty_lo);
			lp_field(&line, &first, "penalty_hi", g->penalty_hi);
			lp_field(&line, &first, "provision_s", g->prov_med);
			/* an offered rate's tail, where one was held */
			if (g->tail.n) {
				lp_field(&line, &first, "rate_iops",
					 g->tail.rate_iops);
				lp_field(&line, &first, "first_p999_ms",
					 g->tail.first_med[RP_TL_P999]);
				lp_field(&line, &first, "later_p999_ms",
					 g->tail.later_med[RP_TL_P999]);
				lp_field(&line, &first, "p999_diff_ms",
					 g->tail.d[RP_TL_P999]);
				lp_field(&line, &first, "p999_diff_lo_ms",
					 g->tail.lo[RP_TL_P999]);
				lp_field(&line, &first, "p999_diff_hi_ms",
					 g->tail.hi[RP_TL_P999]);
			}
			/* where the time went, where the passes tell it */
			if (g->dev.nfirst && g->dev.nlater) {
				lp_field(&line, &first, "device_first_ms",
					 g->dev.first_med[RP_DEV_MS]);
				lp_field(&line, &first, "device_later_ms",
					 g->dev.later_med[RP_DEV_MS]);
			}
			if (g->srv.nfirst[RP_SV_DEVICE_MS] &&
			    g->srv.nlater[RP_SV_DEVICE_MS]) {
				lp_field(&line, &first, "lun_device_first_ms",
					 g->srv.first_med[RP_SV_DEVICE_MS]);
				lp_field(&line, &first, "lun_device_later_ms",
					 g->srv.later_med[RP_SV_DEVICE_MS]);
			}
			if (g->ext.n) {
				lp_field(&line, &first,
					 "extent_allocated_bytes",
					 g->ext.alloc_med);
				lp_field(&line, &first,
					 "extent_converted_bytes",
					 g->ext.conv_med);
			}
			/* a line needs a field: a group that measured nothing
			 * has no line */
			if (!first) {
				pb_buf_printf(&line,
					      ",reps_ok=%zui %lld000000000\n",
					      g->nok, t);
				pb_buf_add(b, line.data, line.len);
			}
			pb_buf_dispose(&line);
		}
	}
}

/* ---- JUnit XML ---- */

static void xml_text(struct pb_buf *b, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<':
			pb_buf_addstr(b, "&lt;");
			break;
		case '>':
			pb_buf_addstr(b, "&gt;");
			break;
		case '&':
			pb_buf_addstr(b, "&amp;");
			break;
		case '"':
			pb_buf_addstr(b, "&quot;");
			break;
		default:
			/* XML 1.0 has no other control characters */
			if ((unsigned char)*s >= 0x20 || *s == '\n' ||
			    *s == '\t')
				pb_buf_add(b, s, 1);
		}
}

/* a regression the gate found for g, or NULL */
static const struct rp_finding *regression_of(const struct rp_findings *fs,
					      const struct rp_group *g)
{
	for (size_t i = fs->nheadline; i < fs->n; i++)
		if (fs->f[i].kind == RP_F_CHANGE && fs->f[i].g == g &&
		    fs->f[i].regressed)
			return &fs->f[i];
	return NULL;
}

static void junit(struct pb_buf *b, struct rp_model *const *ms,
		  struct rp_findings *const *fss, size_t n)
{
	size_t tests = 0, failures = 0, r, i, k;

	for (r = 0; r < n; r++)
		for (i = 0; i < ms[r]->ng; i++) {
			tests++;
			failures += ms[r]->g[i].nfailed ||
				    regression_of(fss[r], &ms[r]->g[i]);
		}
	pb_buf_printf(b,
		      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<testsuites name=\"provbench\" tests=\"%zu\" "
		      "failures=\"%zu\" errors=\"0\">\n",
		      tests, failures);
	for (r = 0; r < n; r++) {
		const struct rp_model *m = ms[r];
		const struct rp_findings *fs = fss[r];
		size_t fail = 0, skip = 0;

		for (i = 0; i < m->ng; i++) {
			fail += m->g[i].nfailed || regression_of(fs, &m->g[i]);
			skip += !m->g[i].nok && !m->g[i].nfailed;
		}
		pb_buf_addstr(b, "  <testsuite name=\"");
		xml_text(b, m->profile_name ? m->profile_name : "");
		pb_buf_printf(b,
			      "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
			      "skipped=\"%zu\" timestamp=\"%.19s\" "
			      "hostname=\"provbench\" id=\"%zu\" package=\"",
			      m->ng, fail, skip,
			      m->started_at ? m->started_at
					    : "1970-01-01T00:00:00",
			      r);
		xml_text(b, m->run ? m->run : "");
		pb_buf_addstr(b, "\">\n    <properties>\n");
		pb_buf_addstr(b, "      <property name=\"run\" value=\"");
		xml_text(b, m->run ? m->run : "");
		pb_buf_addstr(b, "\"/>\n      <property name=\"backend\" "
				 "value=\"");
		xml_text(b, m->backend ? m->backend : "");
		pb_buf_addstr(b, "\"/>\n    </properties>\n");
		for (i = 0; i < m->ng; i++) {
			const struct rp_group *g = &m->g[i];
			const struct rp_finding *reg = regression_of(fs, g);
			char t[4096], l[512];

			rp_group_label(l, sizeof(l), g, true);
			pb_buf_addstr(b,
				      "    <testcase classname=\"provbench.");
			xml_text(b, m->profile_name ? m->profile_name : "");
			if (*target_of(m, g)) {
				pb_buf_addstr(b, ".");
				xml_text(b, target_of(m, g));
			}
			pb_buf_addstr(b, "\" name=\"");
			xml_text(b, l);
			pb_buf_addstr(b, "\" time=\"0\">\n");
			if (reg) {
				rp_finding_text(t, sizeof(t), m, reg);
				pb_buf_addstr(
					b, "      <failure type=\"regression\" "
					   "message=\"");
				xml_text(b, t);
				pb_buf_addstr(b, "\">");
				xml_text(b, t);
				pb_buf_addstr(b, "</failure>\n");
			}
			if (g->nfailed) {
				pb_buf_addstr(
					b,
					"      <failure type=\"failed-item\" "
					"message=\"");
				xml_text(b, g->first_error);
				pb_buf_printf(
					b, "\">%zu of %zu repetitions failed: ",
					g->nfailed, g->nreps);
				xml_text(b, g->first_error);
				pb_buf_addstr(b, "</failure>\n");
			} else if (!g->nok) {
				pb_buf_addstr(b, "      <skipped message=\"");
				xml_text(b, g->first_error);
				pb_buf_addstr(b, "\"/>\n");
			}
			/* what the report says of it, as it says it */
			pb_buf_addstr(b, "      <system-out>");
			for (k = fs->nheadline; k < fs->n; k++)
				if (fs->f[k].g == g) {
					rp_finding_text(t, sizeof(t), m,
							&fs->f[k]);
					xml_text(b, t);
					pb_buf_addstr(b, "\n");
				}
			pb_buf_addstr(b, "</system-out>\n    </testcase>\n");
		}
		pb_buf_addstr(b, "  </testsuite>\n");
	}
	pb_buf_addstr(b, "</testsuites>\n");
}

/* ---- fio's JSON ---- */

static const char *fio_rw(int kind, const char *pattern)
{
	bool rnd = !strcmp(pattern, "rand");

	if (kind == RUNNER_PASS_READ)
		return rnd ? "randread" : "read";
	return rnd ? "randwrite" : "write";
}

/* one direction's block: what fio calls it, from the pass, or zeros */
static void fio_dir(json_t *job, const char *dir, const struct rj_pass *ps,
		    bool used)
{
	double bytes = used ? jl_num(ps->k[RJ_P_BYTES]) : 0;
	double s = used ? ps->seconds : 0;
	double iops = used ? jl_num(ps->k[RJ_P_IOPS]) : 0;
	double bw = used ? ps->mib_per_s * 1048576.0 : 0;
	double ios = used ? bytes / jl_num(ps->k[RJ_P_BS]) : 0;
	json_t *pct = json_object(), *clat = json_object();
	static const struct {
		enum rj_lat_key k;
		const char *name;
	} p[] = {{RJ_L_P50, "50.000000"},
		 {RJ_L_P99, "99.000000"},
		 {RJ_L_P999, "99.900000"}};

	for (unsigned i = 0; used && i < sizeof(p) / sizeof(p[0]); i++)
		if (isfinite(jl_num(ps->lat[p[i].k])))
			json_object_set_new(
				pct, p[i].name,
				json_integer(
					(json_int_t)(jl_num(ps->lat[p[i].k]) *
						     1000.0)));
	json_object_set_new(clat, "percentile", pct);
	json_object_set_new(
		job, dir,
		json_pack("{s:I,s:I,s:I,s:I,s:f,s:I,s:I,s:o}", "io_bytes",
			  (json_int_t)(isfinite(bytes) ? bytes : 0),
			  "io_kbytes",
			  (json_int_t)(isfinite(bytes) ? bytes / 1024 : 0),
			  "bw_bytes", (json_int_t)bw, "bw",
			  (json_int_t)(bw / 1024), "iops",
			  isfinite(iops) ? iops : 0.0, "runtime",
			  (json_int_t)(s * 1000), "total_ios",
			  (json_int_t)(isfinite(ios) ? ios : 0), "clat_ns",
			  clat));
}

static enum pb_error fio_run(json_t *jobs, const char *dir, char *errbuf)
{
	struct rj_reader rd;
	struct rj_item it;
	struct rj_pass ps;
	struct jl *p;
	enum pb_error err = rj_reader_open(&rd, dir, errbuf);
	bool more = !err;

	while (!err && more) {
		err = rj_reader_next(&rd, &it, &more, errbuf);
		if (err || !more || !it.runner)
			continue;
		jl_foreach(it.passes, p)
		{
			json_t *job, *pb, *unm = json_array();
			char name[512], bs[32], qd[32];
			bool rd_pass;

			rj_pass_read(&rd, &ps, p);
			if (ps.kind == RUNNER_PASS_COMMAND || !ps.complete) {
				json_decref(unm);
				continue;
			}
			rd_pass = ps.kind == RUNNER_PASS_READ;
			snprintf(name, sizeof(name), "%s%s%s/rep%lld/%s/%s",
				 it.target_name, *it.target_name ? "/" : "",
				 pb_mode_name(it.mode), it.rep,
				 it.workload && *it.workload ? it.workload
							     : "point0",
				 ps.name);
			/* fio writes its job options as strings */
			snprintf(bs, sizeof(bs), "%.0f", jl_num(ps.k[RJ_P_BS]));
			snprintf(qd, sizeof(qd), "%.0f", jl_num(ps.k[RJ_P_QD]));
			job = json_pack(
				"{s:s,s:i,s:i,s:{s:s,s:s,s:s,s:s}}", "jobname",
				name, "groupid", 0, "error", 0, "job options",
				"rw",
				fio_rw(ps.kind, rj_str(&rd, p, "pattern")),
				"bs", bs, "iodepth", qd, "direct",
				jl_get(p, "direct") && !strcmp(rj_str(&rd, p,
								      "direct"),
							       "false")
					? "0"
					: "1");
			fio_dir(job, "read", &ps, rd_pass);
			fio_dir(job, "write", &ps, !rd_pass);
			/* what fio's form has no place for, named */
			json_array_append_new(unm, json_string("series"));
			if (ps.k[RJ_P_PAIRED])
				json_array_append_new(unm,
						      json_string("paired"));
			if (ps.kind == RUNNER_PASS_FSYNC_WRITE)
				json_array_append_new(
					unm, json_string("fsync after each "
							 "write"));
			pb = json_pack("{s:s,s:s,s:I,s:s,s:o}", "mode",
				       pb_mode_name(it.mode), "applied",
				       *it.applied ? it.applied
						   : pb_mode_name(it.mode),
				       "rep", (json_int_t)it.rep, "pass",
				       ps.name, "unmapped", unm);
			json_object_set_new(job, "provbench", pb);
			json_array_append_new(jobs, job);
		}
	}
	rj_reader_dispose(&rd);
	return err;
}

static enum pb_error fio_json(struct pb_buf *b, const struct rp_export_opts *o,
			      char *errbuf)
{
	json_t *doc = json_object(), *jobs = json_array();
	enum pb_error err = PB_OK;
	char *text;

	json_object_set_new(doc, "fio version",
			    json_string("provbench " PB_VERSION));
	for (size_t i = 0; !err && i < o->ndirs; i++)
		err = fio_run(jobs, o->dirs[i], errbuf);
	json_object_set_new(doc, "jobs", jobs);
	text = err ? NULL : json_dumps(doc, JSON_INDENT(2));
	if (!err && !text)
		err = pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	if (text) {
		pb_buf_addstr(b, text);
		pb_buf_addstr(b, "\n");
	}
	free(text);
	json_decref(doc);
	return err;
}

/* ---- the command's work ---- */

enum pb_error rp_export(struct pb_buf *out, const struct rp_export_opts *o,
			char *errbuf)
{
	struct rp_model **ms = calloc(o->ndirs ? o->ndirs : 1, sizeof(*ms));
	struct rp_findings **fss =
		calloc(o->ndirs ? o->ndirs : 1, sizeof(*fss));
	struct rp_model old;
	/* with a run to compare, any fall beyond noise fails unless a limit
	 * says how much may */
	struct rp_rules rules = {.gate_pct =
					 o->compare_dir && o->max_regression < 0
						 ? 0
						 : o->max_regression};
	char differ[1024];
	bool have_old = false;
	enum pb_error err = PB_OK;
	size_t i, n = 0;

	memset(&old, 0, sizeof(old));
	if (!ms || !fss) {
		err = pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (o->format == RP_EXPORT_FIO_JSON) {
		err = fio_json(out, o, errbuf);
		goto out;
	}
	for (i = 0; !err && i < o->ndirs; i++, n++) {
		if (!(ms[i] = calloc(1, sizeof(*ms[i]))) ||
		    !(fss[i] = calloc(1, sizeof(*fss[i])))) {
			err = pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
			n++;
			break;
		}
		err = rp_model_load(ms[i], o->dirs[i], o->baseline, NULL,
				    errbuf);
		if (err) {
			free(ms[i]);
			free(fss[i]);
			ms[i] = NULL;
			fss[i] = NULL;
			break;
		}
		if (o->compare_dir && !have_old) {
			err = rp_model_load(&old, o->compare_dir,
					    o->baseline ? o->baseline
							: ms[i]->baseline,
					    NULL, errbuf);
			have_old = !err;
		}
		/* judged as report --compare judges: never against itself,
		 * nor against a run of another kind */
		if (!err && have_old)
			err = rp_compare_check(differ, sizeof(differ), ms[i],
					       &old, o->compare_dir, false,
					       errbuf);
		if (!err)
			err = rp_findings_build(fss[i], ms[i],
						have_old ? &old : NULL, &rules);
	}
	if (err)
		goto out;
	switch (o->format) {
	case RP_EXPORT_OPENMETRICS:
		openmetrics(out, ms, fss, n);
		break;
	case RP_EXPORT_INFLUX:
		influx(out, ms, n);
		break;
	case RP_EXPORT_JUNIT:
		junit(out, ms, fss, n);
		break;
	default:
		break;
	}
	if (pb_buf_error(out))
		err = pb_fail(errbuf, pb_buf_error(out),
			      "the export does not fit in memory");
out:
	for (i = 0; ms && fss && i < n; i++) {
		if (fss[i])
			rp_findings_dispose(fss[i]);
		free(fss[i]);
		if (ms[i])
			rp_model_dispose(ms[i]);
		free(ms[i]);
	}
	if (have_old)
		rp_model_dispose(&old);
	free(ms);
	free(fss);
	return err;
}
