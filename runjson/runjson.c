/*
 * runjson.c - run.json written (jansson: a document of a few hundred
 * items, rewritten after each) and read (jlite: streamed, one item at a
 * time, for reports over tens of thousands of items). Both sides use the
 * RJ_K_* names and the status table, and readers check "format".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runjson.h"

static const char *const status_names[RJ_STATUS__COUNT] = {
	[RJ_STATUS_OK] = "ok",
	[RJ_STATUS_FAILED] = "failed",
	[RJ_STATUS_SKIPPED] = "skipped",
	[RJ_STATUS_INTERRUPTED] = "interrupted",
};

const char *rj_status_name(enum rj_status s)
{
	return (unsigned)s < RJ_STATUS__COUNT ? status_names[s] : "?";
}

bool rj_status_parse(enum rj_status *out, const char *s)
{
	for (unsigned i = 0; i < RJ_STATUS__COUNT; i++)
		if (!strcmp(status_names[i], s)) {
			*out = (enum rj_status)i;
			return true;
		}
	return false;
}

static const char *const stop_names[RJ_STOP__COUNT] = {
	[RJ_STOP_OPEN] = "open",   [RJ_STOP_PRECISE] = "precise",
	[RJ_STOP_ABOVE] = "above", [RJ_STOP_WITHIN] = "within",
	[RJ_STOP_MAX] = "max",	   [RJ_STOP_BASELINE] = "baseline",
	[RJ_STOP_NONE] = "none",   [RJ_STOP_FUTILE] = "futile",
};

const char *rj_stop_name(enum rj_stop s)
{
	return (unsigned)s < RJ_STOP__COUNT ? stop_names[s] : "?";
}

bool rj_stop_parse(enum rj_stop *out, const char *s)
{
	for (unsigned i = 0; s && i < RJ_STOP__COUNT; i++)
		if (!strcmp(stop_names[i], s)) {
			*out = (enum rj_stop)i;
			return true;
		}
	return false;
}

enum pb_error rj_format_check(long long found, const char *path, char *errbuf)
{
	if (found > RJ_FORMAT)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "%s: format %lld is newer than this provbench "
			       "reads (%d to %d); read it with a newer one",
			       path, found, RJ_FORMAT_MIN, RJ_FORMAT);
	if (found < RJ_FORMAT_MIN)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "%s: format %lld is not a run.json format", path,
			       found);
	return PB_OK;
}

/* ---- writing ---- */

json_t *rj_doc_new(const struct rj_head *h)
{
	json_t *doc, *points = json_array(), *env = h->environment, *targets;
	size_t i;

	if (!env)
		env = json_object();
	for (i = 0; points && i < h->npoints; i++) {
		json_t *pt = json_pack("{s:I,s:s}", RJ_K_INDEX, (json_int_t)i,
				       RJ_K_DESCRIPTION,
				       h->points[i] ? h->points[i] : "");

		if (pt && h->point_opts)
			json_object_set_new(
				pt, RJ_K_RESOLVED,
				json_pack("{s:I,s:o}", RJ_K_DISK_BYTES,
					  (json_int_t)h->point_disk[i],
					  RJ_K_WORKLOAD_RS,
					  rj_workload_json(&h->point_opts[i])));
		if (json_array_append_new(points, pt)) {
			json_decref(points);
			points = NULL;
		}
	}
	if (env && h->backend)
		json_object_set_new(env, RJ_K_BACKEND, json_string(h->backend));
	targets = json_array();
	for (i = 0; targets && i < h->ntargets; i++) {
		const struct rj_target *t = &h->targets[i];
		json_t *te = t->environment ? t->environment : json_object();

		json_t *o;

		/* a host_baseline twin says its own backend (host) */
		if (te && h->backend && !json_object_get(te, RJ_K_BACKEND))
			json_object_set_new(te, RJ_K_BACKEND,
					    json_string(h->backend));
		o = json_pack("{s:I,s:s,s:s,s:o,s:o}", RJ_K_INDEX,
			      (json_int_t)i, RJ_K_NAME, t->name ? t->name : "",
			      RJ_K_KEY, t->key ? t->key : "", RJ_K_PLACES,
			      t->places ? t->places : json_array(),
			      RJ_K_ENVIRONMENT, te);
		if (o && t->is_twin)
			json_object_set_new(o, RJ_K_HOST_OF,
					    json_integer(t->twin_of));
		if (json_array_append_new(targets, o)) {
			json_decref(targets);
			targets = NULL;
		}
	}
	/* the head goes before "results", so a reader streams the items
	 * in one pass over the file */
	doc = json_pack(
		"{s:i,s:s,s:s,s:s,s:s,s:s,s:o,s:s,s:{s:s,s:I,s:I,s:I},"
		"s:o,s:o,s:o,s:o,s:[]}",
		RJ_K_FORMAT, RJ_FORMAT, RJ_K_TOOL, RJ_TOOL, RJ_K_VERSION,
		PB_VERSION, RJ_K_COMMIT, h->commit ? h->commit : "unknown",
		RJ_K_STARTED_AT, h->started_at, RJ_K_PROFILE_PATH,
		h->profile_path, RJ_K_PROFILE,
		h->profile ? h->profile : json_null(), RJ_K_RUN, h->run,
		RJ_K_PLAN, RJ_K_ORDER, h->shuffled ? "shuffle" : "fixed",
		RJ_K_SEED, (json_int_t)h->seed, RJ_K_ITEMS,
		(json_int_t)h->items, RJ_K_CONCURRENCY,
		(json_int_t)(h->concurrency ? h->concurrency : 1), RJ_K_POINTS,
		points, RJ_K_TARGETS, targets, RJ_K_ENVIRONMENT, env,
		RJ_K_RESOLVED, h->resolved ? h->resolved : json_object(),
		RJ_K_RESULTS);
	if (doc && h->nshards)
		json_object_set_new(json_object_get(doc, RJ_K_PLAN), "shard",
				    json_pack("{s:i,s:i}", "index",
					      (int)h->shard, "count",
					      (int)h->nshards));
	return doc;
}

json_t *rj_doc_add_result(json_t *doc, const struct rj_result *r)
{
	json_t *disk, *timing, *res;
	const char *src = r->disk.provision_source;

	disk = json_pack("{s:s,s:s,s:s,s:f,s:s,s:f,s:O}", RJ_K_ID,
			 r->disk.id ? r->disk.id : "", RJ_K_FILE,
			 r->disk.file ? r->disk.file : "", RJ_K_UUID,
			 r->disk.uuid ? r->disk.uuid : "", RJ_K_PROVISION_S,
			 r->disk.provision_s, RJ_K_PROVISION_SOURCE,
			 src ? src : "client wall", RJ_K_PROVISION_WALL_S,
			 r->disk.provision_wall_s > 0 ? r->disk.provision_wall_s
						      : r->disk.provision_s,
			 RJ_K_READBACK,
			 r->disk.readback ? r->disk.readback : json_null());
	timing = json_pack(
		"{s:f,s:f,s:f,s:f,s:f,s:I}", RJ_K_TOTAL_S, r->timing.total_s,
		RJ_K_PROVISION_S, r->timing.provision_s, RJ_K_RUNNER_S,
		r->timing.runner_s, RJ_K_DESTROY_S, r->timing.destroy_s,
		RJ_K_WAVE_WAIT_S, r->timing.wave_wait_s, RJ_K_STARTED_UNIX_NS,
		(json_int_t)r->timing.started_unix_ns);
	res = json_pack("{s:i,s:i,s:i,s:s,s:i,s:s,s:s,s:s?,s:s?,s:o?,s:o?,s:o}",
			RJ_K_TARGET, (int)r->target, RJ_K_WAVE, (int)r->wave,
			RJ_K_REP, (int)r->rep, RJ_K_MODE, pb_mode_name(r->mode),
			RJ_K_POINT, (int)r->point, RJ_K_WORKLOAD,
			r->workload ? r->workload : "", RJ_K_STATUS,
			rj_status_name(r->status), RJ_K_ERROR,
			r->error && *r->error ? r->error : NULL, RJ_K_STEP,
			r->status != RJ_STATUS_OK ? r->step : NULL, RJ_K_DISK,
			disk, RJ_K_TIMING, timing, RJ_K_RUNNER,
			r->runner ? r->runner : json_null());
	if (res && r->retried)
		json_object_set_new(res, RJ_K_RETRIED,
				    json_pack("{s:s,s:s?}", RJ_K_REASON,
					      r->retried, RJ_K_DIAGNOSTICS,
					      r->retried_diagnostics));
	if (!res || !disk || !timing ||
	    json_array_append_new(json_object_get(doc, RJ_K_RESULTS), res))
		return NULL;
	return res;
}

bool rj_doc_add_stop(json_t *doc, const struct rj_stop_rec *st)
{
	json_t *stops = json_object_get(doc, RJ_K_STOPS);

	if (!stops) {
		stops = json_array();
		if (json_object_set_new(doc, RJ_K_STOPS, stops))
			return false;
	}
	return !json_array_append_new(
		stops, json_pack("{s:I,s:I,s:s,s:I,s:s}", RJ_K_TARGET,
				 (json_int_t)st->target, RJ_K_POINT,
				 (json_int_t)st->point, RJ_K_MODE,
				 pb_mode_name(st->mode), RJ_K_AFTER,
				 (json_int_t)st->after, RJ_K_RULE,
				 rj_stop_name(st->rule)));
}

bool rj_stop_read(const struct rj_reader *r, size_t i, struct rj_stop_rec *out)
{
	json_t *o = json_array_get(r->stops, i);
	json_t *t = json_object_get(o, RJ_K_TARGET),
	       *p = json_object_get(o, RJ_K_POINT),
	       *a = json_object_get(o, RJ_K_AFTER);

	if (!json_is_integer(t) || !json_is_integer(p) || !json_is_integer(a) ||
	    json_integer_value(t) < 0 || json_integer_value(p) < 0 ||
	    json_integer_value(a) < 0 ||
	    !pb_mode_parse(&out->mode,
			   json_string_value(json_object_get(o, RJ_K_MODE))
				   ?: "") ||
	    !rj_stop_parse(&out->rule,
			   json_string_value(json_object_get(o, RJ_K_RULE))))
		return false;
	out->target = (unsigned)json_integer_value(t);
	out->point = (unsigned)json_integer_value(p);
	out->after = (unsigned)json_integer_value(a);
	return true;
}

void rj_doc_finish(json_t *doc)
{
	json_object_set_new(doc, RJ_K_FINISHED, json_true());
}

enum pb_error rj_doc_save(json_t *doc, const char *path, bool interrupted,
			  char *errbuf)
{
	char *text, ts[32];
	enum pb_error err;

	pb_utc_iso(ts, sizeof(ts));
	json_object_set_new(doc, RJ_K_UPDATED_AT, json_string(ts));
	json_object_set_new(doc, RJ_K_INTERRUPTED, json_boolean(interrupted));
	text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
				       JSON_REAL_PRECISION(10));
	if (!text)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	err = pb_write_atomic(path, text, strlen(text), errbuf);
	free(text);
	return err;
}

/* ---- reading ---- */

const char *rj_str(struct rj_reader *r, struct jl *obj, const char *key)
{
	return jl_str(&r->jd, jl_get(obj, key));
}

static json_t *parse_raw(struct jl *n)
{
	return n && n->type == JL_RAW ? json_loadb(n->s, n->slen, 0, NULL)
				      : NULL;
}

static const char *json_str_or(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

long long rj_target_host_of(const struct rj_reader *r, long long t)
{
	json_t *o = t >= 0 ? json_array_get(r->targets, (size_t)t) : NULL;
	json_t *v = json_object_get(o, RJ_K_HOST_OF);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

const char *rj_target_name(const struct rj_reader *r, long long t)
{
	json_t *o = t >= 0 ? json_array_get(r->targets, (size_t)t) : NULL;

	return json_str_or(o, RJ_K_NAME);
}

/* ---- what ran, resolved ---- */

json_t *rj_workload_json(const struct runner_opts *o)
{
	const struct pb_option *opt;
	json_t *w = json_object();
	char buf[1024];

	for (opt = runner_options; w && opt->name; opt++)
		if (opt->flags & PB_OPT_F_WORKLOAD)
			json_object_set_new(w, runner_option_key(opt),
					    json_string(runner_option_value(
						    o, opt, buf, sizeof(buf))));
	return w;
}

/* A profile value as the text its option reads: "1M", "4", "true",
 * "first-write,rewrite" (a list); NULL for another kind. */
static char *value_text(json_t *v)
{
	char *out = NULL;
	size_t i, n = 0;
	json_t *x;

	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_integer(v) &&
	    asprintf(&out, "%lld", (long long)json_integer_value(v)) < 0)
		return NULL;
	if (json_is_boolean(v))
		return strdup(json_is_true(v) ? "true" : "false");
	if (json_is_array(v)) {
		json_array_foreach(v, i, x) n +=
			strlen(json_string_value(x) ? json_string_value(x)
						    : "") +
			1;
		if (!(out = calloc(1, n + 1)))
			return NULL;
		json_array_foreach(v, i, x)
		{
			if (i)
				strcat(out, ",");
			strcat(out, json_string_value(x) ? json_string_value(x)
							 : "");
		}
	}
	return out;
}

/* key's text into o (a workload key), or into *disk (disk_size); texts
 * kept in keep (a borrowed string must outlive its formatting) */
static void legacy_set(struct runner_opts *o, uint64_t *disk, const char *key,
		       char *text, char **keep, size_t *nkeep)
{
	const struct pb_option *opt = runner_option_by_key(key);
	char why[PB_ERRBUF_SIZE];
	uint64_t d;

	if (!text)
		return;
	keep[(*nkeep)++] = text;
	if (!strcmp(key, "disk_size") && !pb_size_parse(&d, text, why))
		*disk = d;
	else if (opt)
		runner_option_set(o, opt, text, why); /* as it ran, or not */
}

/*
 * A file written before "resolved" (2026-12-06): what ran, filled from
 * its profile once, here, as the harness resolved it then: the runner's
 * defaults under the profile's workload, a point's matrix values over
 * them (its description, "bs=64K qd=8"), its disk the profile's
 * disk_size or the point's own.
 */
static json_t *legacy_point(json_t *profile, const char *desc, json_int_t i)
{
	char *keep[256], *copy = strdup(desc ? desc : ""), *tok, *save = NULL;
	size_t nkeep = 0, k;
	struct runner_opts o;
	uint64_t disk = 0;
	const char *key;
	json_t *v, *pt;

	runner_opts_init(&o);
	legacy_set(&o, &disk, "disk_size",
		   value_text(json_object_get(profile, "disk_size")), keep,
		   &nkeep);
	json_object_foreach(json_object_get(profile, "workload"), key, v)
	{
		if (nkeep < 250)
			legacy_set(&o, &disk, key, value_text(v), keep, &nkeep);
	}
	for (tok = copy ? strtok_r(copy, " ", &save) : NULL; tok && nkeep < 250;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (eq) {
			*eq = '\0';
			legacy_set(&o, &disk, tok, strdup(eq + 1), keep,
				   &nkeep);
		}
	}
	pt = json_pack("{s:I,s:s,s:{s:I,s:o}}", RJ_K_INDEX, i, RJ_K_DESCRIPTION,
		       desc ? desc : "", RJ_K_RESOLVED, RJ_K_DISK_BYTES,
		       (json_int_t)disk, RJ_K_WORKLOAD_RS,
		       rj_workload_json(&o));
	for (k = 0; k < nkeep; k++)
		free(keep[k]);
	free(copy);
	return pt;
}

static void resolve_legacy(struct rj_reader *r)
{
	json_t *p = r->profile, *pts = json_array(), *pt, *modes;
	json_t *rep = json_object_get(p, "repetitions");
	size_t i;

	if (!r->points || !json_array_size(r->points)) {
		json_decref(r->points);
		r->points = json_pack("[{s:i,s:s}]", RJ_K_INDEX, 0,
				      RJ_K_DESCRIPTION, "");
	}
	json_array_foreach(r->points, i, pt)
	{
		if (json_object_get(pt, RJ_K_RESOLVED))
			json_array_append(pts, pt);
		else
			json_array_append_new(
				pts,
				legacy_point(p,
					     json_string_value(json_object_get(
						     pt, RJ_K_DESCRIPTION)),
					     (json_int_t)i));
	}
	json_decref(r->points);
	r->points = pts;
	if (r->resolved)
		return;
	modes = json_object_get(p, "modes");
	modes = json_is_array(modes) ? json_incref(modes) : json_array();
	r->resolved = json_pack(
		"{s:o,s:O,s:s,s:I,s:s}", "modes", modes, "baseline",
		json_is_string(json_object_get(p, "baseline"))
			? json_object_get(p, "baseline")
			: json_null(),
		"units",
		json_str_or(p, "units")[0] ? json_str_or(p, "units") : "MiB",
		"repetitions",
		(json_int_t)(json_is_integer(rep) ? json_integer_value(rep)
						  : 1),
		"description", json_str_or(p, "description"));
}

json_t *rj_point_resolved(const struct rj_reader *r, long long point)
{
	return json_object_get(
		json_array_get(r->points, point < 0 ? 0 : (size_t)point),
		RJ_K_RESOLVED);
}

enum pb_error rj_reader_open(struct rj_reader *r, const char *path,
			     char *errbuf)
{
	/* the free-form parts stay raw (parsed with jansson: small), the
	 * results are streamed */
	static const char *const raw[] = {
		RJ_K_ENVIRONMENT, RJ_K_PROFILE, RJ_K_TARGETS, RJ_K_POINTS,
		RJ_K_RESOLVED,	  RJ_K_STOPS,	NULL};
	/* provbench writes these before the results, so the results stream
	 * through once; a file reordered by hand is read in two passes (as
	 * is one from before "resolved", 2026-12-06: what ran decides how
	 * the results are read, a precision form's intervals among it) */
	static const char *const before[] = {RJ_K_FORMAT,  RJ_K_TOOL,
					     RJ_K_RUN,	   RJ_K_ENVIRONMENT,
					     RJ_K_PROFILE, RJ_K_RESOLVED};
	char ebuf[PB_ERRBUF_SIZE] = "";
	struct stat st;
	struct jl *f;
	enum pb_error err;
	size_t i;

	memset(r, 0, sizeof(*r));
	/* a file named as such, else a results directory (also one that
	 * is not there: the message then names the run.json it lacks) */
	if (!stat(path, &st) && S_ISREG(st.st_mode))
		snprintf(r->path, sizeof(r->path), "%s", path);
	else
		snprintf(r->path, sizeof(r->path), "%s/run.json", path);
	err = jl_load(&r->jd, r->path, raw, RJ_K_RESULTS, errbuf);
	for (i = 0; i < sizeof(before) / sizeof(before[0]) && !err; i++)
		if (!jl_get(r->jd.root, before[i]))
			err = jl_complete(&r->jd, errbuf);
	if (err)
		goto out;
	if (strcmp(jl_str(&r->jd, jl_get(r->jd.root, RJ_K_TOOL)), RJ_TOOL) ||
	    jl_iter_start(&r->jd, &r->it, jl_get(r->jd.root, RJ_K_RESULTS),
			  ebuf)) {
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "%s: not a provbench run.json (no results)",
			      r->path);
		goto out;
	}
	f = jl_get(r->jd.root, RJ_K_FORMAT);
	if (f && f->type != JL_NUM) {
		err = pb_fail(errbuf, PB_ERR_INPUT, "%s: format: not a number",
			      r->path);
		goto out;
	}
	r->format = f ? jl_int(f) : 1;
	err = rj_format_check(r->format, r->path, errbuf);
	if (err)
		goto out;
	r->version = rj_str(r, r->jd.root, RJ_K_VERSION);
	r->commit = rj_str(r, r->jd.root, RJ_K_COMMIT);
	r->run = rj_str(r, r->jd.root, RJ_K_RUN);
	r->profile_path = rj_str(r, r->jd.root, RJ_K_PROFILE_PATH);
	r->started_at = rj_str(r, r->jd.root, RJ_K_STARTED_AT);
	r->environment = parse_raw(jl_get(r->jd.root, RJ_K_ENVIRONMENT));
	if (!r->environment)
		r->environment = json_object();
	r->profile = parse_raw(jl_get(r->jd.root, RJ_K_PROFILE));
	r->concurrency =
		jl_int(jl_get(jl_get(r->jd.root, RJ_K_PLAN), RJ_K_CONCURRENCY));
	if (r->concurrency < 1)
		r->concurrency = 1;
	r->plan_items =
		jl_int(jl_get(jl_get(r->jd.root, RJ_K_PLAN), RJ_K_ITEMS));
	r->targets = parse_raw(jl_get(r->jd.root, RJ_K_TARGETS));
	if (!json_is_array(r->targets)) {
		json_decref(r->targets);
		r->targets = json_array();
	}
	r->profile_name = json_str_or(r->profile, "name");
	r->points = parse_raw(jl_get(r->jd.root, RJ_K_POINTS));
	r->resolved = parse_raw(jl_get(r->jd.root, RJ_K_RESOLVED));
	resolve_legacy(r);
	r->backend = json_str_or(r->environment, RJ_K_BACKEND);
	r->accel = json_str_or(r->environment, RJ_K_ACCELERATOR);
	if (!r->environment || !r->targets)
		err = pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
out:
	/* a reader that failed to open holds nothing */
	if (err)
		rj_reader_dispose(r);
	return err;
}

/* A member that must be a whole number: its value, or -1 when absent. */
static enum pb_error whole(long long *out, struct jl *item, const char *key,
			   bool required, char *errbuf)
{
	struct jl *n = jl_get(item, key);
	double v = jl_num(n);

	*out = -1;
	if (!n && !required)
		return PB_OK;
	if (!n || n->type != JL_NUM || !(v >= 0) || v != floor(v))
		return pb_fail(errbuf, PB_ERR_INPUT, "%s: not a whole number",
			       key);
	*out = jl_int(n);
	return PB_OK;
}

static enum pb_error item_read(struct rj_reader *r, struct rj_item *o,
			       struct jl *item, char *errbuf)
{
	const char *mode = rj_str(r, item, RJ_K_MODE);
	const char *status = rj_str(r, item, RJ_K_STATUS);
	enum pb_error err;

	if (!pb_mode_parse(&o->mode, mode))
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "mode \"%s\": not a provisioning mode", mode);
	if (!rj_status_parse(&o->status, status))
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "status \"%s\": not a status", status);
	/* from format 2 on, the point is the key results are grouped by */
	err = whole(&o->point, item, RJ_K_POINT, r->format >= 2, errbuf);
	if (!err)
		err = whole(&o->rep, item, RJ_K_REP, false, errbuf);
	if (!err)
		err = whole(&o->target, item, RJ_K_TARGET, false, errbuf);
	if (!err)
		err = whole(&o->wave, item, RJ_K_WAVE, false, errbuf);
	if (err)
		return err;
	if (o->target < 0)
		o->target = 0;
	if (o->wave < 0)
		o->wave = 0;
	o->target_name = rj_target_name(r, o->target);
	o->workload = rj_str(r, item, RJ_K_WORKLOAD);
	o->error = rj_str(r, item, RJ_K_ERROR);
	o->step = rj_str(r, item, RJ_K_STEP);
	o->retried = rj_str(r, jl_get(item, RJ_K_RETRIED), RJ_K_REASON);
	o->retried_diagnostics =
		rj_str(r, jl_get(item, RJ_K_RETRIED), RJ_K_DIAGNOSTICS);
	o->disk = jl_get(item, RJ_K_DISK);
	o->readback = jl_get(o->disk, RJ_K_READBACK);
	o->timing = jl_get(item, RJ_K_TIMING);
	o->provision_s = jl_num(jl_get(o->disk, RJ_K_PROVISION_S));
	o->applied = o->readback && o->readback->type == JL_OBJ
			     ? rj_str(r, o->readback, RJ_K_MODE)
			     : "";
	o->applied_why = o->readback && o->readback->type == JL_OBJ
				 ? rj_str(r, o->readback, RJ_K_RB_WHY)
				 : "";
	o->runner = jl_get(item, RJ_K_RUNNER);
	if (o->runner && o->runner->type != JL_OBJ)
		o->runner = NULL;
	o->passes = jl_get(o->runner, RUNNER_K_PASSES);
	o->filesystem = jl_get(o->runner, RUNNER_K_FILESYSTEM);
	if (o->filesystem && o->filesystem->type != JL_OBJ)
		o->filesystem = NULL;
	return PB_OK;
}

enum pb_error rj_reader_next(struct rj_reader *r, struct rj_item *out,
			     bool *more, char *errbuf)
{
	/* the long series stay raw: a report parses the ones it draws */
	static const char *const item_raw[] = {RUNNER_K_SERIES,
					       RUNNER_K_WRITTEN_SERIES, NULL};
	char ebuf[PB_ERRBUF_SIZE] = "";
	struct jl *item;
	enum pb_error err;

	memset(out, 0, sizeof(*out));
	*more = false;
	/* the previous item's nodes go; what its reader kept it copied */
	if (r->marked)
		jl_reset(&r->jd, &r->mark);
	jl_mark(&r->jd, &r->mark);
	r->marked = true;
	err = jl_iter_next(&r->jd, &r->it, item_raw, &item, ebuf);
	if (err)
		return pb_fail(errbuf, err, "%s: results: %s", r->path, ebuf);
	if (!item) {
		/* the members after the results are parsed now */
		r->finished =
			jl_get(r->jd.root, RJ_K_FINISHED) &&
			jl_get(r->jd.root, RJ_K_FINISHED)->type == JL_TRUE;
		r->interrupted =
			jl_get(r->jd.root, RJ_K_INTERRUPTED) &&
			jl_get(r->jd.root, RJ_K_INTERRUPTED)->type == JL_TRUE;
		r->updated_at = rj_str(r, r->jd.root, RJ_K_UPDATED_AT);
		json_decref(r->stops);
		r->stops = parse_raw(jl_get(r->jd.root, RJ_K_STOPS));
		return PB_OK;
	}
	out->index = r->it.index - 1;
	err = item_read(r, out, item, ebuf);
	if (err)
		return pb_fail(errbuf, err, "%s: results[%zu]: %s", r->path,
			       out->index, ebuf);
	*more = true;
	return PB_OK;
}

void rj_pass_read(struct rj_reader *r, struct rj_pass *out, struct jl *pass)
{
	static const char *const keys[RJ_P__COUNT] = {
		[RJ_P_NAME] = RUNNER_K_NAME,
		[RJ_P_INDEX] = RUNNER_K_INDEX,
		[RJ_P_PATTERN] = RUNNER_K_PATTERN,
		[RJ_P_BS] = RUNNER_K_BS,
		[RJ_P_QD] = RUNNER_K_QD,
		[RJ_P_BYTES] = RUNNER_K_BYTES,
		[RJ_P_SECONDS] = RUNNER_K_SECONDS,
		[RJ_P_MIB_PER_S] = RUNNER_K_MIB_PER_S,
		[RJ_P_IOPS] = RUNNER_K_IOPS,
		[RJ_P_LAT] = RUNNER_K_LAT_US,
		[RJ_P_COMPLETE] = RUNNER_K_COMPLETE,
		[RJ_P_SERIES] = RUNNER_K_SERIES,
		[RJ_P_COMMAND] = RUNNER_K_COMMAND,
		[RJ_P_QD_ACHIEVED] = RUNNER_K_QD_ACHIEVED,
		[RJ_P_STARTED_UNIX] = RUNNER_K_STARTED_UNIX,
		[RJ_P_STARTED_BOOT] = RUNNER_K_STARTED_BOOT,
		[RJ_P_RAMP_S] = RUNNER_K_RAMP_S,
		[RJ_P_PAIRED] = RUNNER_K_PAIRED,
		[RJ_P_DEVICE] = RUNNER_K_DEVICE,
	};
	static const char *const lat[RJ_L__COUNT] = {
		[RJ_L_P50] = RUNNER_K_P50,
		[RJ_L_P99] = RUNNER_K_P99,
		[RJ_L_P999] = RUNNER_K_P999,
		[RJ_L_MEAN] = RUNNER_K_MEAN,
	};
	enum runner_pass_kind kind;

	jl_pick(pass, keys, RJ_P__COUNT, out->k);
	jl_pick(out->k[RJ_P_LAT], lat, RJ_L__COUNT, out->lat);
	out->name = jl_str(&r->jd, out->k[RJ_P_NAME]);
	out->kind = runner_pass_parse(&kind, out->name) ? (int)kind : -1;
	out->complete =
		out->k[RJ_P_COMPLETE] && out->k[RJ_P_COMPLETE]->type == JL_TRUE;
	out->mib_per_s = jl_num(out->k[RJ_P_MIB_PER_S]);
	out->seconds = jl_num(out->k[RJ_P_SECONDS]);
}

void rj_reader_dispose(struct rj_reader *r)
{
	json_decref(r->environment);
	json_decref(r->targets);
	json_decref(r->profile);
	json_decref(r->points);
	json_decref(r->resolved);
	json_decref(r->stops);
	jl_free(&r->jd);
	memset(r, 0, sizeof(*r));
}
