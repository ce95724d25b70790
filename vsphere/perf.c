/*
 * perf.c - the server's own counters (PerformanceManager): which of the
 * counters a pass's attribution needs this server has (their keys, by
 * group.name.rollup, differ between servers), and their real-time
 * samples for one entity over a window.
 *
 * How real servers answer (vSphere Monitoring and Performance, "Data
 * Counters" and "Real-time statistics"; govmomi's performance package and
 * `govc metric.sample`): real-time statistics are 20 s samples, each
 * stamped with the end of its interval on the server's clock, kept for
 * an hour; a sample appears some 20-30 s after its interval ends; a
 * counter's key is the server's own (PerfCounterInfo: groupInfo.key,
 * nameInfo.key, rollupType); QueryPerf's startTime is exclusive and its
 * endTime inclusive; a per-device counter is asked for by instance
 * ("scsi0:1" for a VM's virtual disk, the LUN's canonical name for a
 * host's disk counters, "" for the aggregate). format "csv" answers
 * PerfEntityMetricCSV: sampleInfoCSV "20,<time>,20,<time>..." and each
 * series' values as one comma-separated string, -1 where a sample has no
 * value.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vs_int.h"

static const char *const pc_names[VS_PC__COUNT] = {
	[VS_PC_VD_WRITES] = "virtualDisk.numberWriteAveraged.average",
	[VS_PC_VD_WRITE_KBPS] = "virtualDisk.write.average",
	[VS_PC_VD_WRITE_MS] = "virtualDisk.totalWriteLatency.average",
	[VS_PC_CPU_USED] = "cpu.used.summation",
	[VS_PC_CPU_READY] = "cpu.ready.summation",
	[VS_PC_DISK_KERNEL_MS] = "disk.kernelWriteLatency.average",
	[VS_PC_DISK_DEVICE_MS] = "disk.deviceWriteLatency.average",
	[VS_PC_DISK_QUEUE_MS] = "disk.queueWriteLatency.average",
	[VS_PC_DISK_TOTAL_MS] = "disk.totalWriteLatency.average",
	[VS_PC_DS_WRITES] = "datastore.numberWriteAveraged.average",
	[VS_PC_DS_WRITE_MS] = "datastore.totalWriteLatency.average",
};

const char *vs_pc_name(enum vs_pc c)
{
	return (unsigned)c < VS_PC__COUNT ? pc_names[c] : "?";
}

bool vs_pc_on_host(enum vs_pc c)
{
	return c >= VS_PC_DISK_KERNEL_MS;
}

/* ---- the counters this server has ---- */

static enum pb_error on_counters(struct vs_session *s,
				 const struct vs_objcontent *oc, void *arg)
{
	struct vs_perf_counters *pc = arg;
	xmlNodePtr c;
	char name[200], g[64], n[96], r[32], key[24];

	(void)s;
	for (c = vs_child(vs_prop(oc, "perfCounter"), NULL); c;
	     c = vs_next(c, NULL)) {
		vs_text(g, sizeof(g), vs_child(c, "groupInfo"), "key");
		vs_text(n, sizeof(n), vs_child(c, "nameInfo"), "key");
		vs_text(r, sizeof(r), c, "rollupType");
		snprintf(name, sizeof(name), "%s.%s.%s", g, n, r);
		for (unsigned k = 0; k < VS_PC__COUNT; k++)
			if (!strcmp(name, pc_names[k]))
				pc->key[k] = atoi(
					vs_text(key, sizeof(key), c, "key"));
	}
	return PB_OK;
}

enum pb_error vs_perf_counters_get(struct vs_session *s,
				   struct vs_perf_counters *out)
{
	static const char *const paths[] = {"perfCounter", NULL};

	memset(out, 0, sizeof(*out));
	if (!s->sc.perf_manager.value[0])
		return pb_fail(s->errbuf, PB_ERR_UNSUPPORTED,
			       "the server has no PerformanceManager");
	return vs_retrieve_one(s, &s->sc.perf_manager, paths, on_counters, out);
}

/* the real-time interval as asked of the server: its own, or 20 */
static int refresh(const struct vs_perf_counters *pc)
{
	return pc->refresh_s > 0 ? pc->refresh_s : 20;
}

enum pb_error vs_perf_refresh(struct vs_session *s,
			      const struct vs_moref *entity,
			      struct vs_perf_counters *pc)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret;
	char v[24];
	enum pb_error err;

	err = vs_req_new(&r, "QueryPerfProviderSummary", &s->sc.perf_manager);
	if (err)
		return pb_fail(s->errbuf, err, "out of memory");
	if (!vs_add_moref(r.op, "entity", entity)) {
		vs_req_dispose(&r);
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	err = vs_call(s, &r, true, &doc, &ret);
	vs_req_dispose(&r);
	if (!err) {
		int rate =
			atoi(vs_text(v, sizeof(v), vs_child(ret, "returnval"),
				     "refreshRate"));

		if (rate > 0)
			pc->refresh_s = rate;
		else
			err = pb_fail(s->errbuf, PB_ERR_UNSUPPORTED,
				      "%s has no real-time statistics "
				      "(refreshRate %s)",
				      entity->value, v);
	}
	xmlFreeDoc(doc);
	return err;
}

enum pb_error vs_perf_available(struct vs_session *s,
				const struct vs_moref *entity,
				const struct vs_perf_counters *pc,
				unsigned *offered)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, id;
	char key[24];
	enum pb_error err;

	*offered = 0;
	err = vs_req_new(&r, "QueryAvailablePerfMetric", &s->sc.perf_manager);
	if (err)
		return pb_fail(s->errbuf, err, "out of memory");
	/* entity, beginTime, endTime, intervalId: the real-time one */
	if (!vs_add_moref(r.op, "entity", entity) ||
	    !vs_addf(r.op, "intervalId", "%d", refresh(pc))) {
		vs_req_dispose(&r);
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	err = vs_call(s, &r, true, &doc, &ret);
	vs_req_dispose(&r);
	for (id = err ? NULL : vs_child(ret, "returnval"); id;
	     id = vs_next(id, "returnval")) {
		int k = atoi(vs_text(key, sizeof(key), id, "counterId"));

		for (unsigned c = 0; c < VS_PC__COUNT; c++)
			if (k && pc->key[c] == k)
				*offered |= 1u << c;
	}
	xmlFreeDoc(doc);
	return err;
}

/* ---- the server's clock ---- */

enum pb_error vs_server_time(struct vs_session *s, double *out)
{
	static const struct vs_moref si = {"ServiceInstance",
					   "ServiceInstance"};
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret;
	char t[64];
	enum pb_error err;

	*out = NAN;
	err = vs_req_new(&r, "CurrentTime", &si);
	if (err)
		return pb_fail(s->errbuf, err, "out of memory");
	err = vs_call(s, &r, true, &doc, &ret);
	vs_req_dispose(&r);
	if (!err) {
		*out = vs_datetime(vs_text(t, sizeof(t), ret, "returnval"));
		if (isnan(*out))
			err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
				      "CurrentTime: not a time: '%s'", t);
	}
	xmlFreeDoc(doc);
	return err;
}

/* ---- samples ---- */

/* "20,2026-12-03T10:00:20Z,20,..." into the samples' times */
static enum pb_error sample_info(struct vs_perf_samples *out, const char *csv)
{
	const char *p = csv;

	out->n = 0;
	while (*p) {
		char *end;
		long iv = strtol(p, &end, 10);
		char t[64];
		size_t k = 0;

		if (end == p || *end != ',')
			return PB_ERR_PROTOCOL;
		p = end + 1;
		while (*p && *p != ',' && k + 1 < sizeof(t))
			t[k++] = *p++;
		t[k] = '\0';
		if (*p == ',')
			p++;
		if (out->n >= VS_PERF_MAX_SAMPLES)
			return PB_ERR_PROTOCOL;
		out->t[out->n] = vs_datetime(t);
		if (isnan(out->t[out->n]))
			return PB_ERR_PROTOCOL;
		out->interval_s = (int)iv;
		out->n++;
	}
	return PB_OK;
}

/* one series' "v,v,v" (-1: no value) into v[0..n) */
static enum pb_error series_values(double *v, unsigned n, const char *csv)
{
	const char *p = csv;

	for (unsigned i = 0; i < n; i++) {
		char *end;
		double x = strtod(p, &end);

		if (end == p)
			return PB_ERR_PROTOCOL;
		v[i] = x < 0 ? NAN : x;
		p = end;
		if (*p == ',')
			p++;
		else if (i + 1 < n)
			return PB_ERR_PROTOCOL;
	}
	return PB_OK;
}

enum pb_error vs_perf_read(struct vs_session *s, xmlNodePtr ret,
			   const struct vs_perf_counters *pc,
			   const char *const *inst, struct vs_perf_samples *out)
{
	xmlNodePtr em = vs_child(ret, "returnval"), v;
	char *csv = NULL;
	char id[24], in[200];
	enum pb_error err = PB_OK;

	out->n = 0;
	out->interval_s = refresh(pc);
	for (unsigned k = 0; k < VS_PC__COUNT; k++)
		for (unsigned i = 0; i < VS_PERF_MAX_SAMPLES; i++)
			out->v[k][i] = NAN;
	/* no samples in the window: no returnval at all */
	if (!em)
		return PB_OK;
	csv = malloc(VS_PERF_MAX_SAMPLES * 40);
	if (!csv)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	vs_text(csv, VS_PERF_MAX_SAMPLES * 40, em, "sampleInfoCSV");
	if (sample_info(out, csv)) {
		err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			      "QueryPerf: sampleInfoCSV is not \"interval,"
			      "time,...\" (%.60s)",
			      csv);
		goto out;
	}
	for (v = vs_child(em, "value"); v; v = vs_next(v, "value")) {
		int key = atoi(vs_text(id, sizeof(id), vs_child(v, "id"),
				       "counterId"));

		vs_text(in, sizeof(in), vs_child(v, "id"), "instance");
		for (unsigned k = 0; k < VS_PC__COUNT; k++) {
			if (!pc->key[k] || pc->key[k] != key || !inst[k] ||
			    strcmp(inst[k], in))
				continue;
			vs_text(csv, VS_PERF_MAX_SAMPLES * 40, v, "value");
			if (series_values(out->v[k], out->n, csv)) {
				err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
					      "QueryPerf: %s: %u samples, "
					      "values '%.60s'",
					      pc_names[k], out->n, csv);
				goto out;
			}
		}
	}
out:
	free(csv);
	return err;
}

enum pb_error vs_perf_query(struct vs_session *s, const struct vs_moref *entity,
			    const struct vs_perf_counters *pc,
			    const char *const *inst, double t0, double t1,
			    struct vs_perf_samples *out)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr spec, ret, mid;
	char a[40], b[40];
	enum pb_error err;
	bool any = false;

	err = vs_req_new(&r, "QueryPerf", &s->sc.perf_manager);
	if (err)
		return pb_fail(s->errbuf, err, "out of memory");
	pb_utc_format(a, sizeof(a), (time_t)floor(t0), PB_TIME_ISO);
	pb_utc_format(b, sizeof(b), (time_t)ceil(t1), PB_TIME_ISO);
	/* PerfQuerySpec in schema order: entity, startTime, endTime,
	 * maxSample, metricId, intervalId, format */
	spec = vs_add(r.op, "querySpec", NULL);
	if (!spec || !vs_add_moref(spec, "entity", entity) ||
	    !vs_add(spec, "startTime", a) || !vs_add(spec, "endTime", b)) {
		err = PB_ERR_NOMEM;
		goto out;
	}
	for (unsigned k = 0; k < VS_PC__COUNT; k++) {
		if (!pc->key[k] || !inst[k])
			continue;
		mid = vs_add(spec, "metricId", NULL);
		if (!mid || !vs_addf(mid, "counterId", "%d", pc->key[k]) ||
		    !vs_add(mid, "instance", inst[k])) {
			err = PB_ERR_NOMEM;
			goto out;
		}
		any = true;
	}
	if (!vs_addf(spec, "intervalId", "%d", refresh(pc)) ||
	    !vs_add(spec, "format", "csv")) {
		err = PB_ERR_NOMEM;
		goto out;
	}
	if (!any) {
		vs_req_dispose(&r);
		return vs_perf_read(s, NULL, pc, inst, out);
	}
	err = vs_call(s, &r, true, &doc, &ret);
	if (!err)
		err = vs_perf_read(s, ret, pc, inst, out);
out:
	if (err == PB_ERR_NOMEM)
		pb_fail(s->errbuf, err, "out of memory");
	vs_req_dispose(&r);
	xmlFreeDoc(doc);
	return err;
}

/* ---- a window's figures ---- */

void vs_perf_window(struct vs_perf_window *out,
		    const struct vs_perf_samples *smp, double a, double b)
{
	double iv = smp->interval_s > 0 ? smp->interval_s : 20;

	memset(out, 0, sizeof(*out));
	out->interval_s = iv;
	out->seconds = b - a;
	out->first = out->last = NAN;
	for (unsigned k = 0; k < VS_PC__COUNT; k++) {
		out->v[k] = NAN;
		out->nv[k] = 0;
	}
	/* too short: two intervals, so that one whole sample lies in it
	 * wherever the pass falls against the server's 20 s marks */
	if (b - a < 2 * iv) {
		out->too_short = true;
		return;
	}
	for (unsigned i = 0; i < smp->n; i++) {
		/* a sample covers (t - interval, t]: only those wholly in
		 * the pass are its */
		if (smp->t[i] - iv < a || smp->t[i] > b)
			continue;
		if (!out->samples++)
			out->first = smp->t[i] - iv;
		out->last = smp->t[i];
		for (unsigned k = 0; k < VS_PC__COUNT; k++) {
			double x = smp->v[k][i];

			if (isnan(x))
				continue;
			out->v[k] = out->nv[k]++ ? out->v[k] + x : x;
		}
	}
	/* averages are per interval: their mean; summations (CPU
	 * milliseconds per interval) add up */
	for (unsigned k = 0; k < VS_PC__COUNT; k++)
		if (out->nv[k] && k != VS_PC_CPU_USED && k != VS_PC_CPU_READY)
			out->v[k] /= (double)out->nv[k];
	/* CPU per write: the VM's CPU in the samples over the writes
	 * they saw (a rate per second times the samples' span) */
	if (out->nv[VS_PC_CPU_USED] && out->nv[VS_PC_VD_WRITES] &&
	    out->v[VS_PC_VD_WRITES] > 0)
		out->cpu_ms_per_write = out->v[VS_PC_CPU_USED] /
					(out->v[VS_PC_VD_WRITES] * iv *
					 (double)out->nv[VS_PC_VD_WRITES]);
	else
		out->cpu_ms_per_write = NAN;
}
