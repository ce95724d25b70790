/*
 * output.c - the runner's JSON document (jansson), the one format the
 * harness and the report generator read:
 *
 * {"tool","version","started_at","engine","engine_note",
 *  "engine_features":{"async","registered_buffers"},"seed",
 *  "target":{"path","kind","size_bytes","device_bytes","identity",
 *            "created"},
 *  "passes":[{"name","index","pattern","bs","qd","direct","complete",
 *             "bytes","ios","seconds","sync_seconds","mib_per_s","iops",
 *             "lat_us":{"p50","p90","p99","p999","max","min"},
 *             "series":[{"t_s","bytes","mib_per_s"}],"error"?}
 *            | {"name":"command","index","command","complete",
 *               "exit_status","seconds","bytes":0,"output_tail","error"?}],
 *  "verify":null | {"done","expected_generation","chunks","mismatches",
 *                   "first":[{"offset","reason","found_generation"}]},
 *  "filesystem":null | {"type","device","mkfs_command","mkfs_seconds",
 *                       "lazy_init","mount_options","file"},
 *  "interrupted":false,
 *  "system":{"kernel","machine","hostname"}}
 */
#include <jansson.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include "runner_int.h"

static const char *target_kind_name(enum runner_target_kind k)
{
	return k == RUNNER_TARGET_BLOCK ? "block" : "file";
}

static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

static json_t *lat_json(const struct runner_hist *h)
{
	return json_pack(
		"{s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "mean",
		h->count ? (double)h->sum / (double)h->count / 1e3 : 0.0,
		RUNNER_K_P50, us(runner_hist_percentile(h, 50.0)), "p90",
		us(runner_hist_percentile(h, 90.0)), RUNNER_K_P99,
		us(runner_hist_percentile(h, 99.0)), RUNNER_K_P999,
		us(runner_hist_percentile(h, 99.9)), "max",
		us(h->count ? h->max : 0), "min", us(h->count ? h->min : 0));
}

/* integers: a real would lose the sub-second part to a reader's
 * precision (run.json keeps 10 digits) */
static json_t *ts_ns(const struct timespec *t)
{
	return json_integer((json_int_t)t->tv_sec * 1000000000 + t->tv_nsec);
}

static json_t *series_json(const struct runner_pass_result *r)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < r->nseries; i++) {
		const struct runner_point *p = &r->series[i];

		if (json_array_append_new(
			    a, json_pack("{s:f,s:I,s:f}", RUNNER_K_T_S, p->t_s,
					 RUNNER_K_BYTES, (json_int_t)p->bytes,
					 RUNNER_K_MIB_PER_S, p->mib_per_s))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *pass_json(const struct runner_ctx *ctx,
			 const struct runner_pass_result *r)
{
	const struct runner_opts *o = ctx->opts;
	double s = (double)r->ns / 1e9, qd_ach;
	json_t *j;

	if (r->kind == RUNNER_PASS_COMMAND) {
		/* timed, no blocks of its own: seconds are the figure */
		j = json_pack("{s:s,s:i,s:s,s:b,s:i,s:f,s:I,s:s}",
			      RUNNER_K_NAME, runner_pass_name(r->kind),
			      RUNNER_K_INDEX, (int)r->index, RUNNER_K_COMMAND,
			      ctx->command ? ctx->command : "",
			      RUNNER_K_COMPLETE, r->complete, "exit_status",
			      r->exit_status, RUNNER_K_SECONDS, s,
			      RUNNER_K_BYTES, (json_int_t)0, "output_tail",
			      r->output ? r->output : "");
		if (j && r->error[0])
			json_object_set_new(j, "error", json_string(r->error));
		return j;
	}
	/* Little's law: the depth the pass really kept, from its rate and
	 * its mean latency; below --qd, the device waited on the runner */
	qd_ach = s > 0 && r->hist->count
			 ? (double)r->ios / s *
				   ((double)r->hist->sum /
				    (double)r->hist->count / 1e9)
			 : 0.0;
	j = json_pack(
		"{s:s,s:i,s:s,s:i,s:i,s:f,s:i,s:f,s:b,s:b,s:I,s:I,s:f,"
		"s:f,s:f,s:f,s:o,s:o}",
		RUNNER_K_NAME, runner_pass_name(r->kind), RUNNER_K_INDEX,
		(int)r->index, RUNNER_K_PATTERN,
		o->pattern == RUNNER_PATTERN_RAND ? "rand" : "seq", RUNNER_K_BS,
		(int)o->bs, RUNNER_K_QD, (int)r->qd, RUNNER_K_QD_ACHIEVED,
		qd_ach, RUNNER_K_BATCH, (int)r->batch, RUNNER_K_INTERVAL_MS,
		(double)r->interval_ns / 1e6, "direct", r->direct,
		RUNNER_K_COMPLETE, r->complete, RUNNER_K_BYTES,
		(json_int_t)r->bytes, "ios", (json_int_t)r->ios,
		RUNNER_K_SECONDS, s, "sync_seconds", (double)r->sync_ns / 1e9,
		RUNNER_K_MIB_PER_S,
		s > 0 ? (double)r->bytes / 1048576.0 / s : 0.0, RUNNER_K_IOPS,
		s > 0 ? (double)r->ios / s : 0.0, RUNNER_K_LAT_US,
		lat_json(r->hist), RUNNER_K_SERIES, series_json(r));
	if (j && r->started_unix.tv_sec) {
		json_object_set_new(j, RUNNER_K_STARTED_UNIX,
				    ts_ns(&r->started_unix));
		json_object_set_new(j, RUNNER_K_STARTED_BOOT,
				    ts_ns(&r->started_boot));
	}
	if (j && r->error[0])
		json_object_set_new(j, "error", json_string(r->error));
	return j;
}

static json_t *verify_json(const struct runner_ctx *ctx)
{
	const struct runner_verify *v = &ctx->verify;
	json_t *first = json_array(), *j;
	unsigned i;

	if (!ctx->opts->verify) {
		json_decref(first);
		return json_null();
	}
	for (i = 0; first && i < v->nfirst; i++)
		json_array_append_new(
			first,
			json_pack("{s:I,s:s,s:i}", "offset",
				  (json_int_t)v->first[i].offset, "reason",
				  v->first[i].reason, "found_generation",
				  (int)v->first[i].found_generation));
	j = json_pack("{s:b,s:i,s:I,s:I,s:o}", "done", v->done,
		      "expected_generation", (int)v->expected_generation,
		      "chunks", (json_int_t)v->chunks, "mismatches",
		      (json_int_t)v->mismatches, "first", first);
	return j;
}

enum pb_error runner_output_build(struct pb_buf *out,
				  const struct runner_ctx *ctx)
{
	const struct runner_target *t = &ctx->target;
	json_t *root = NULL, *passes = NULL, *fs = NULL;
	enum pb_error err = PB_ERR_NOMEM;
	char *text = NULL;
	struct utsname u;
	unsigned i;

	passes = json_array();
	if (!passes)
		goto out;
	for (i = 0; i < ctx->npasses_done; i++) {
		json_t *p = pass_json(ctx, &ctx->passes[i]);

		if (!p || json_array_append_new(passes, p))
			goto out;
	}
	fs = ctx->fs ? json_pack("{s:s,s:s,s:s,s:f,s:s,s:s,s:s}",
				 RUNNER_K_FS_TYPE,
				 runner_fs_name(ctx->fs->type), "device",
				 ctx->fs->device, "mkfs_command",
				 ctx->fs->mkfs_cmd, RUNNER_K_MKFS_SECONDS,
				 ctx->fs->mkfs_s, RUNNER_K_LAZY_INIT,
				 ctx->fs->type == RUNNER_FS_EXT4
					 ? "off (lazy_itable_init=0,"
					   "lazy_journal_init=0)"
					 : "none (xfs has no background "
					   "initialisation)",
				 "mount_options", "noatime", "file",
				 "provbench.dat")
		     : json_null();
	if (!fs)
		goto out;
	root = json_pack(
		"{s:s,s:s,s:s,s:s,s:s?,s:I,s:{s:s,s:s,s:I,s:I,s:s?,s:b},s:O,"
		"s:o,s:b}",
		RUNNER_K_TOOL, "provbench-runner", "version", PB_VERSION,
		"started_at", ctx->started_at, "engine",
		ctx->engine.ops ? ctx->engine.ops->name : "none", "engine_note",
		ctx->engine_note, "seed", (json_int_t)ctx->opts->seed, "target",
		"path", t->path, "kind", target_kind_name(t->kind),
		"size_bytes", (json_int_t)t->size, "device_bytes",
		(json_int_t)t->dev_size, "identity",
		t->identity[0] ? t->identity : NULL, "created", t->created,
		RUNNER_K_PASSES, passes, "verify", verify_json(ctx),
		RUNNER_K_INTERRUPTED, ctx->interrupted);
	if (!root)
		goto out;
	json_object_set(root, RUNNER_K_FILESYSTEM, fs);
	/* what the engine really did: asked-for is not applied */
	json_object_set_new(
		root, "engine_features",
		json_pack("{s:b,s:b,s:s}", "async",
			  (ctx->engine.flags & RUNNER_ENGINE_F_ASYNC) != 0,
			  "registered_buffers",
			  (ctx->engine.flags & RUNNER_ENGINE_F_FIXEDBUFS) != 0,
			  "completions",
			  ctx->engine.flags & RUNNER_ENGINE_F_DEFER_TASKRUN
				  ? "deferred to the runner's wait"
			  : ctx->engine.flags & RUNNER_ENGINE_F_COOP_TASKRUN
				  ? "cooperative"
				  : "interrupt"));
	/* where it ran: the guest kernel goes into the run's environment */
	if (!uname(&u))
		json_object_set_new(root, "system",
				    json_pack("{s:s,s:s,s:s}", "kernel",
					      u.release, "machine", u.machine,
					      "hostname", u.nodename));
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
					JSON_REAL_PRECISION(10));
	if (!text)
		goto out;
	err = pb_buf_addstr(out, text);
	if (!err)
		err = pb_buf_addstr(out, "\n");
out:
	free(text);
	json_decref(root);
	json_decref(passes);
	json_decref(fs);
	return err;
}
