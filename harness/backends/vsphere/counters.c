/*
 * counters.c - the server's side of each pass: what vCenter or ESXi
 * counted for the VM's virtual disk, the VM's CPU and the host's LUN
 * behind the datastore while the runner's pass ran, beside the runner's
 * own figures in its document (run.json's pass "server_counters").
 *
 * The server keeps real-time counters as 20 s samples on its own clock,
 * each appearing 20-30 s after its interval ends (perf.c says how real
 * servers answer). A pass is placed on the server's clock by the guest's
 * (VMware Tools or NTP keep them together; when the runner's first pass
 * claims to start before the server launched it, or after the server
 * saw it end, the guest's clock is moved into that span and the move
 * recorded). Only samples wholly inside a pass are its own; a pass
 * shorter than two intervals may hold none, and says so with the length
 * it would need, rather than borrowing its neighbours' figures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vsb.h"

/* the newest sample appears this long after its interval ends, at most:
 * 20-30 s on real servers, whose interval is 20 s; a server that says
 * another interval (its refreshRate) is taken at the same proportion */
#define LAG_INTERVALS 1.75

/* the server's real-time interval, seconds */
static double interval_of(const struct vsb *b)
{
	return b->pc.refresh_s > 0 ? b->pc.refresh_s : 20;
}

/* a figure, or null where the server gave none */
static json_t *fig(const struct vs_perf_window *w, enum vs_pc k)
{
	return w->nv[k] ? json_real(w->v[k]) : json_null();
}

static json_t *window_json(const struct vs_perf_window *vw,
			   const struct vs_perf_window *hw, const char *vd,
			   const char *lun, const char *ds)
{
	json_t *o, *miss;
	char a[40], b[40];

	if (vw->too_short)
		return json_pack("{s:b,s:f,s:f,s:f}", "too_short", 1, "seconds",
				 vw->seconds, "interval_s", vw->interval_s,
				 "needs_s", 2 * vw->interval_s);
	o = json_pack("{s:f,s:f,s:i}", "seconds", vw->seconds, "interval_s",
		      vw->interval_s, "samples", (int)vw->samples);
	if (!o)
		return NULL;
	if (vw->samples) {
		pb_utc_format(a, sizeof(a), (time_t)floor(vw->first),
			      PB_TIME_ISO);
		pb_utc_format(b, sizeof(b), (time_t)floor(vw->last),
			      PB_TIME_ISO);
		json_object_set_new(o, "from", json_string(a));
		json_object_set_new(o, "to", json_string(b));
	}
	json_object_set_new(
		o, "virtual_disk",
		json_pack("{s:s,s:o,s:o,s:o}", "instance", vd, "writes_per_s",
			  fig(vw, VS_PC_VD_WRITES), "write_kbps",
			  fig(vw, VS_PC_VD_WRITE_KBPS), "write_latency_ms",
			  fig(vw, VS_PC_VD_WRITE_MS)));
	json_object_set_new(
		o, "cpu",
		json_pack("{s:o,s:o,s:o}", "used_ms", fig(vw, VS_PC_CPU_USED),
			  "ready_ms", fig(vw, VS_PC_CPU_READY), "ms_per_write",
			  isnan(vw->cpu_ms_per_write)
				  ? json_null()
				  : json_real(vw->cpu_ms_per_write)));
	json_object_set_new(
		o, "lun",
		json_pack("{s:s,s:o,s:o,s:o,s:o}", "instance", lun,
			  "kernel_write_ms", fig(hw, VS_PC_DISK_KERNEL_MS),
			  "device_write_ms", fig(hw, VS_PC_DISK_DEVICE_MS),
			  "queue_write_ms", fig(hw, VS_PC_DISK_QUEUE_MS),
			  "total_write_ms", fig(hw, VS_PC_DISK_TOTAL_MS)));
	json_object_set_new(o, "datastore",
			    json_pack("{s:s,s:o,s:o}", "instance", ds,
				      "writes_per_s", fig(hw, VS_PC_DS_WRITES),
				      "write_latency_ms",
				      fig(hw, VS_PC_DS_WRITE_MS)));
	/* what the samples in the pass did not give */
	miss = json_array();
	for (unsigned k = 0; k < VS_PC__COUNT; k++)
		if (!(vs_pc_on_host(k) ? hw : vw)->nv[k])
			json_array_append_new(miss, json_string(vs_pc_name(k)));
	json_object_set_new(o, "missing", miss);
	return o;
}

/* the pass's [start, end] on the guest's clock, seconds */
static bool pass_span(json_t *p, double *a, double *b)
{
	json_t *t = json_object_get(p, RUNNER_K_STARTED_UNIX);
	json_t *pr = json_object_get(p, RUNNER_K_PAIRED);
	/* a paired first write's seconds are its fresh stripes'; it ran
	 * for its wall time */
	double s = json_number_value(json_object_get(
		pr ? pr : p, pr ? "wall_seconds" : RUNNER_K_SECONDS));

	if (!json_is_integer(t) || !(s > 0))
		return false;
	*a = (double)json_integer_value(t) / 1e9;
	*b = *a + s;
	return true;
}

void vsb_counters_annotate(struct vsb *b, const char *path, double launched,
			   double ended, const struct pb_run_ctx *ctx)
{
	json_t *doc = json_load_file(path, 0, NULL), *p, *clock;
	struct vs_perf_samples *vm = NULL, *host = NULL;
	const char *vinst[VS_PC__COUNT] = {0}, *hinst[VS_PC__COUNT] = {0};
	char vd[32] = "", why[PB_ERRBUF_SIZE] = "", tmp[1100];
	const char *lun = "";
	double off = 0, lo = INFINITY, hi = -INFINITY, a, e, now = NAN,
	       waited = 0;
	bool any_long = false;
	size_t i;
	struct vs_vm_hw hw;

	if (!doc)
		return;
	/* the guest's clock against the server's: the first pass starts
	 * after the server launched the runner and ends before it saw
	 * the runner end */
	p = json_array_get(json_object_get(doc, RUNNER_K_PASSES), 0);
	if (pass_span(p, &a, &e) && !isnan(launched) && !isnan(ended)) {
		if (a < launched - 1)
			off = launched - a;
		else if (a > ended + 1)
			off = ended - a;
	}
	json_array_foreach(json_object_get(doc, RUNNER_K_PASSES), i, p)
	{
		if (!pass_span(p, &a, &e))
			continue;
		a += off;
		e += off;
		lo = a < lo ? a : lo;
		hi = e > hi ? e : hi;
		any_long |= e - a >= 2 * interval_of(b);
	}
	/* the instances: the disk on its controller, the LUN behind it */
	if (!vs_vm_controllers(b->s, &b->vm.ref, &hw))
		for (i = 0; i < hw.nctl; i++)
			if (hw.ctl[i].key == b->cur.controller_key)
				snprintf(vd, sizeof(vd), "scsi%d:%d",
					 hw.ctl[i].bus, b->cur.unit);
	lun = b->cur.lun_name[0] ? b->cur.lun_name
	      : b->have_dsd	 ? b->dsd.lun
				 : "";
	for (unsigned k = 0; k < VS_PC__COUNT; k++) {
		if (k == VS_PC_DS_WRITES || k == VS_PC_DS_WRITE_MS)
			hinst[k] = b->have_dsd && b->dsd.uuid[0] ? b->dsd.uuid
								 : NULL;
		else if (vs_pc_on_host(k))
			hinst[k] = lun[0] ? lun : NULL;
		else if (k == VS_PC_CPU_USED || k == VS_PC_CPU_READY)
			vinst[k] = "";
		else
			vinst[k] = vd[0] ? vd : NULL;
	}
	vm = calloc(1, sizeof(*vm));
	host = calloc(1, sizeof(*host));
	if (!vm || !host)
		goto out;
	vm->interval_s = host->interval_s = (int)interval_of(b);
	if (any_long && b->have_pc) {
		/* the newest sample a pass can hold ends by the pass's end
		 * and appears up to LAG_INTERVALS intervals later: wait for
		 * it (a run's ^C stops the wait) */
		double need = hi + LAG_INTERVALS * interval_of(b);

		if (!vs_server_time(b->s, &now) && now < need)
			pb_progress("waiting %.0f s for the server's counters "
				    "of the last pass (its samples appear up "
				    "to %.0f s late)",
				    need - now, LAG_INTERVALS * interval_of(b));

		while (!vs_server_time(b->s, &now) && now < need &&
		       !(ctx && ctx->stop && *ctx->stop)) {
			double step = need - now > 5 ? 5 : need - now;
			struct timespec ts = {
				(time_t)step,
				(long)((step - floor(step)) * 1e9)};

			nanosleep(&ts, NULL);
			waited += step;
		}
		if (vs_perf_query(b->s, &b->vm.ref, &b->pc, vinst, lo - 20,
				  hi + 20, vm) ||
		    (b->vm.host.value[0] &&
		     vs_perf_query(b->s, &b->vm.host, &b->pc, hinst, lo - 20,
				   hi + 20, host)))
			snprintf(why, sizeof(why), "%s",
				 vs_session_error(b->s));
	} else if (any_long) {
		snprintf(why, sizeof(why), "%s", b->pc_why);
	}
	json_array_foreach(json_object_get(doc, RUNNER_K_PASSES), i, p)
	{
		struct vs_perf_window vw, hw2;
		json_t *o;

		if (!pass_span(p, &a, &e))
			continue;
		vs_perf_window(&vw, vm, a + off, e + off);
		vs_perf_window(&hw2, host, a + off, e + off);
		if (!vw.too_short && why[0])
			o = json_pack("{s:f,s:s}", "seconds", vw.seconds,
				      "unavailable", why);
		else
			o = window_json(&vw, &hw2, vd, lun,
					b->have_dsd ? b->dsd.uuid : "");
		json_object_set_new(p, "server_counters", o);
	}
	clock = json_pack("{s:f,s:f,s:f,s:f}", "guest_offset_s", off,
			  "lag_waited_s", waited, "lag_s",
			  LAG_INTERVALS * interval_of(b), "interval_s",
			  interval_of(b));
	json_object_set_new(doc, "server_clock", clock);
	/* in place of the runner's document, whole or not at all */
	snprintf(tmp, sizeof(tmp), "%s.counters", path);
	if (!json_dump_file(doc, tmp, JSON_INDENT(1)))
		rename(tmp, path);
	else
		remove(tmp);
out:
	free(vm);
	free(host);
	json_decref(doc);
}

/* What the VM and its host offer at the real-time interval
 * (QueryAvailablePerfMetric): a counter the server keeps but the entity
 * does not offer gives the passes nothing, said. */
static void check_offered(struct vsb *b, struct pb_check_out *out)
{
	unsigned vm = 0, host = 0;
	char absent[600] = "";

	if (vs_perf_available(b->s, &b->vm.ref, &b->pc, &vm) ||
	    (b->vm.host.value[0] &&
	     vs_perf_available(b->s, &b->vm.host, &b->pc, &host)))
		return; /* the queries' own refusal is said by check */
	for (unsigned k = 0; k < VS_PC__COUNT; k++)
		if (b->pc.key[k] &&
		    !((vs_pc_on_host(k) ? host : vm) & (1u << k)))
			snprintf(absent + strlen(absent),
				 sizeof(absent) - strlen(absent), "%s%s",
				 absent[0] ? ", " : "", vs_pc_name(k));
	if (absent[0])
		pb_check_warn(out, "counters",
			      "not offered at the real-time interval by the "
			      "VM or its host: %s (the passes will lack them)",
			      absent);
}

void vsb_counters_check(struct vsb *b, struct pb_check_out *out)
{
	char missing[600] = "";
	unsigned have = 0;
	struct vs_perf_samples *smp = NULL;
	const char *inst[VS_PC__COUNT] = {0};
	double now;

	b->have_pc = false;
	if (vs_perf_counters_get(b->s, &b->pc)) {
		snprintf(b->pc_why, sizeof(b->pc_why), "%s",
			 vs_session_error(b->s));
		pb_check_warn(out, "counters",
			      "the server's counter list cannot be read (%s): "
			      "passes will carry none of its counters",
			      b->pc_why);
		return;
	}
	/* the interval the samples come at, as the VM's server says it
	 * (20 s on every real one) */
	if (vs_perf_refresh(b->s, &b->vm.ref, &b->pc))
		pb_check_warn(out, "counters",
			      "the VM's real-time interval cannot be read "
			      "(%s): 20 s assumed",
			      vs_session_error(b->s));
	for (unsigned k = 0; k < VS_PC__COUNT; k++) {
		if (b->pc.key[k])
			have++;
		else
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), "%s%s",
				 missing[0] ? ", " : "", vs_pc_name(k));
	}
	if (!have) {
		snprintf(b->pc_why, sizeof(b->pc_why),
			 "the server keeps none of the counters asked for");
		pb_check_warn(out, "counters", "%s", b->pc_why);
		return;
	}
	/* may this user read them? one query of the last minute each of
	 * the VM and its host (the aggregate CPU, which both have): a
	 * NoPermission here is the run's later */
	smp = malloc(sizeof(*smp));
	inst[VS_PC_CPU_USED] = "";
	if (smp && !vs_server_time(b->s, &now)) {
		if (vs_perf_query(b->s, &b->vm.ref, &b->pc, inst, now - 60, now,
				  smp)) {
			snprintf(b->pc_why, sizeof(b->pc_why), "VM %s: %s",
				 b->vm.name, vs_session_error(b->s));
			pb_check_warn(out, "counters",
				      "the VM's counters cannot be read "
				      "(%s; QueryPerf needs System.Read on "
				      "the VM): passes will carry none",
				      vs_session_error(b->s));
			goto out;
		}
		if (b->vm.host.value[0] &&
		    vs_perf_query(b->s, &b->vm.host, &b->pc, inst, now - 60,
				  now, smp)) {
			pb_check_warn(out, "counters",
				      "the host's counters cannot be read "
				      "(%s; QueryPerf needs System.Read on "
				      "the host): passes will carry no LUN "
				      "latencies",
				      vs_session_error(b->s));
			memset(b->pc.key + VS_PC_DISK_KERNEL_MS, 0,
			       sizeof(int) *
				       (VS_PC__COUNT - VS_PC_DISK_KERNEL_MS));
		}
	}
	b->have_pc = true;
	check_offered(b, out);
	pb_check_say(out, "counters",
		     "%u of %u kept (real-time, %.0f s samples: a pass needs "
		     "%.0f s to have its own)%s%s",
		     have, (unsigned)VS_PC__COUNT, interval_of(b),
		     2 * interval_of(b), missing[0] ? "; none of " : "",
		     missing);
out:
	free(smp);
}
