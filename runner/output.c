/*
 * output.c - the runner's JSON document (written with common's jsonw), the one format the
 * harness and the report generator read:
 *
 * {"tool","version","started_at","engine","engine_note",
 *  "engine_features":{"async","registered_buffers"},"seed",
 *  "target":{"path","kind","size_bytes","device_bytes","identity",
 *            "created"},
 *  "passes":[{"name","index","pattern","bs","qd","direct","complete",
 *             "bytes","ios","seconds","sync_seconds",
 *             "ramp_s"?,"ramp_bytes"? (--ramp-ms: mib_per_s, iops, lat_us
 *             and qd_achieved are then after it; 0: the pass was no
 *             longer, and they are the whole pass's),"mib_per_s","iops",
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
#include <stdlib.h>

#include "runner_int.h"

static const char *target_kind_name(enum runner_target_kind k)
{
	return k == RUNNER_TARGET_BLOCK ? "block" : "file";
}

static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

static void lat_json(struct pb_jw *w, const struct runner_hist *h)
{
	pb_jw_obj_open(w, RUNNER_K_LAT_US);
	pb_jw_real(w, RUNNER_K_MEAN,
		   h->count ? (double)h->sum / (double)h->count / 1e3 : 0.0);
	pb_jw_real(w, RUNNER_K_P50, us(runner_hist_percentile(h, 50.0)));
	pb_jw_real(w, "p90", us(runner_hist_percentile(h, 90.0)));
	pb_jw_real(w, RUNNER_K_P99, us(runner_hist_percentile(h, 99.0)));
	pb_jw_real(w, RUNNER_K_P999, us(runner_hist_percentile(h, 99.9)));
	pb_jw_real(w, RUNNER_K_P9999, us(runner_hist_percentile(h, 99.99)));
	pb_jw_real(w, RUNNER_K_MAX, us(h->count ? h->max : 0));
	pb_jw_real(w, "min", us(h->count ? h->min : 0));
	pb_jw_obj_close(w);
}

/*
 * An offered rate's account: what was offered, what the pass achieved
 * over its whole time, and whether that held it (95% of it: a pass that
 * fell behind is no latency at that rate, and a reader says so), the
 * times the qd cap held the schedule up and how late its last I/O
 * started; the stalls past --stall-us.
 */
static void rate_json(struct pb_jw *w, const struct runner_opts *o,
		      const struct runner_pass_result *r)
{
	double achieved = r->ns ? (double)r->ios / ((double)r->ns / 1e9) : 0;

	if (o->rate_iops) {
		pb_jw_obj_open(w, RUNNER_K_RATE);
		pb_jw_int(w, RUNNER_K_OFFERED_IOPS, o->rate_iops);
		pb_jw_bool(w, "poisson", o->poisson);
		pb_jw_real(w, RUNNER_K_ACHIEVED_IOPS, achieved);
		pb_jw_bool(w, RUNNER_K_RATE_HELD,
			   r->complete && achieved >= 0.95 * o->rate_iops);
		pb_jw_int(w, "cap_waits", (int64_t)r->cap_waits);
		pb_jw_real(w, "last_lag_ms", (double)r->lag_ns / 1e6);
		pb_jw_obj_close(w);
	}
	if (o->stall_us) {
		pb_jw_obj_open(w, RUNNER_K_STALLS);
		pb_jw_int(w, RUNNER_K_STALL_US, o->stall_us);
		pb_jw_int(w, RUNNER_K_COUNT, (int64_t)r->stalls);
		pb_jw_real(w, RUNNER_K_TOTAL_MS, (double)r->stall_ns / 1e6);
		pb_jw_obj_close(w);
	}
}

/* integers: a real would lose the sub-second part to a reader's
 * precision (run.json keeps 10 digits) */
static void ts_ns(struct pb_jw *w, const char *key, const struct timespec *t)
{
	pb_jw_int(w, key, (int64_t)t->tv_sec * 1000000000 + t->tv_nsec);
}

static void series_json(struct pb_jw *w, const struct runner_pass_result *r)
{
	size_t i;

	pb_jw_arr_open(w, RUNNER_K_SERIES);
	for (i = 0; i < r->nseries; i++) {
		const struct runner_point *p = &r->series[i];

		pb_jw_obj_open(w, NULL);
		pb_jw_real(w, RUNNER_K_T_S, p->t_s);
		pb_jw_int(w, RUNNER_K_BYTES, (int64_t)p->bytes);
		pb_jw_real(w, RUNNER_K_MIB_PER_S, p->mib_per_s);
		pb_jw_obj_close(w);
	}
	pb_jw_arr_close(w);
}

/*
 * A paired first write: the penalty is the median of the pairs' (each 1 -
 * fresh / written throughput), with the quartiles for its spread; the
 * written stripes' own figures beside the pass's fresh ones.
 */
static void pairs_json(struct pb_jw *w, const struct runner_pairs *pr)
{
	pb_jw_obj_open(w, RUNNER_K_PAIRED);
	pb_jw_int(w, RUNNER_K_STRIPE, (int64_t)pr->stripe);
	pb_jw_int(w, RUNNER_K_PAIRS, pr->n);
	if (pr->n) {
		pb_jw_real(w, RUNNER_K_PENALTY, runner_pairs_quantile(pr, 0.5));
		pb_jw_real(w, "penalty_p25", runner_pairs_quantile(pr, 0.25));
		pb_jw_real(w, "penalty_p75", runner_pairs_quantile(pr, 0.75));
	} else {
		/* interrupted before a pair: no figure, not a 0 */
		pb_jw_null(w, RUNNER_K_PENALTY);
	}
	pb_jw_int(w, "written_bytes", (int64_t)pr->written_bytes);
	pb_jw_real(w, "written_seconds", (double)pr->written_ns / 1e9);
	pb_jw_real(w, RUNNER_K_WRITTEN_MIB_PER_S,
		   runner_pairs_written_rate(pr));
	/* the measured pairs' two sides in time: the penalty in time is
	 * 1 - written / fresh over them */
	pb_jw_real(w, RUNNER_K_PAIRS_FRESH_S, (double)pr->pair_fresh_ns / 1e9);
	pb_jw_real(w, RUNNER_K_PAIRS_WRITTEN_S,
		   (double)pr->pair_written_ns / 1e9);
	pb_jw_real(w, "wall_seconds", (double)pr->wall_ns / 1e9);
	/* each pair's rewritten stripe, MiB/s, in order: with the pass's
	 * series (the fresh ones) the pairs can be had again */
	pb_jw_arr_open(w, RUNNER_K_WRITTEN_SERIES);
	for (unsigned i = 0; i < pr->n; i++)
		pb_jw_real(w, NULL, pr->written[i]);
	pb_jw_arr_close(w);
	/* the device's side of each kind, apart: the pass's own "device"
	 * holds both */
	if (pr->has_dev) {
		const struct runner_devstat *d[2] = {&pr->dev_fresh,
						     &pr->dev_written};
		static const char *const k[2] = {"device_fresh",
						 "device_written"};

		for (unsigned i = 0; i < 2; i++) {
			pb_jw_obj_open(w, k[i]);
			pb_jw_int(w, "writes", (int64_t)d[i]->writes);
			pb_jw_int(w, "write_bytes",
				  (int64_t)d[i]->write_sectors * 512);
			pb_jw_int(w, "write_ms", (int64_t)d[i]->write_ms);
			pb_jw_obj_close(w);
		}
	}
	pb_jw_obj_close(w);
}

/* the device's counters over the pass, as deltas (Linux block stat):
 * sectors are 512 bytes whatever the device's own */
static void dev_json(struct pb_jw *w, const struct runner_pass_result *r)
{
	const struct runner_devstat *a = &r->dev0, *b = &r->dev1;

	pb_jw_obj_open(w, RUNNER_K_DEVICE);
	pb_jw_str(w, "name", b->name);
	pb_jw_int(w, "reads", (int64_t)(b->reads - a->reads));
	pb_jw_int(w, "read_bytes",
		  (int64_t)(b->read_sectors - a->read_sectors) * 512);
	pb_jw_int(w, "read_ms", (int64_t)(b->read_ms - a->read_ms));
	pb_jw_int(w, "writes", (int64_t)(b->writes - a->writes));
	pb_jw_int(w, "write_bytes",
		  (int64_t)(b->write_sectors - a->write_sectors) * 512);
	pb_jw_int(w, "write_ms", (int64_t)(b->write_ms - a->write_ms));
	pb_jw_int(w, "busy_ms", (int64_t)(b->busy_ms - a->busy_ms));
	pb_jw_int(w, "queue_ms", (int64_t)(b->queue_ms - a->queue_ms));
	pb_jw_int(w, "in_flight_end", (int64_t)b->in_flight);
	pb_jw_obj_close(w);
}

/* a file's extents before and after the pass, as its filesystem held
 * them: what the pass made it allocate (thin's holes) or convert (lazy's
 * unwritten extents), and into how many pieces */
static void ext_one(struct pb_jw *w, const char *key,
		    const struct runner_extents *x)
{
	pb_jw_obj_open(w, key);
	pb_jw_int(w, "written_bytes", (int64_t)x->written);
	pb_jw_int(w, "unwritten_bytes", (int64_t)x->unwritten);
	pb_jw_int(w, "count", (int64_t)x->count);
	pb_jw_obj_close(w);
}

static void ext_json(struct pb_jw *w, const struct runner_pass_result *r)
{
	pb_jw_obj_open(w, RUNNER_K_EXTENTS);
	ext_one(w, "before", &r->ext0);
	ext_one(w, "after", &r->ext1);
	pb_jw_obj_close(w);
}

static void pass_json(struct pb_jw *w, const struct runner_ctx *ctx,
		      const struct runner_pass_result *r)
{
	const struct runner_opts *o = ctx->opts;
	double s = (double)r->ns / 1e9, mib_s, iops, qd_ach;

	pb_jw_obj_open(w, NULL);
	pb_jw_str(w, RUNNER_K_NAME, runner_pass_name(r->kind));
	pb_jw_int(w, RUNNER_K_INDEX, r->index);
	if (r->kind == RUNNER_PASS_COMMAND) {
		/* timed, no blocks of its own: seconds are the figure */
		pb_jw_str(w, RUNNER_K_COMMAND,
			  ctx->command ? ctx->command : "");
		pb_jw_bool(w, RUNNER_K_COMPLETE, r->complete);
		pb_jw_int(w, "exit_status", r->exit_status);
		pb_jw_real(w, RUNNER_K_SECONDS, s);
		pb_jw_int(w, RUNNER_K_BYTES, 0);
		pb_jw_str(w, "output_tail", r->output ? r->output : "");
		if (r->started_unix.tv_sec) {
			ts_ns(w, RUNNER_K_STARTED_UNIX, &r->started_unix);
			ts_ns(w, RUNNER_K_STARTED_BOOT, &r->started_boot);
		}
		goto error;
	}
	if (r->kind == RUNNER_PASS_RECLAIM) {
		/* blocks given back: time and bytes, no I/O of its own */
		pb_jw_bool(w, RUNNER_K_COMPLETE, r->complete);
		pb_jw_real(w, RUNNER_K_SECONDS, s);
		pb_jw_int(w, RUNNER_K_BYTES, 0);
		if (r->started_unix.tv_sec) {
			ts_ns(w, RUNNER_K_STARTED_UNIX, &r->started_unix);
			ts_ns(w, RUNNER_K_STARTED_BOOT, &r->started_boot);
		}
		pb_jw_obj_open(w, RUNNER_K_RECLAIM);
		pb_jw_str(w, "method",
			  r->reclaim_method ? r->reclaim_method : "");
		pb_jw_bool(w, "done", r->trimmed);
		pb_jw_int(w, RUNNER_K_TRIM_BYTES, (int64_t)r->trim_bytes);
		pb_jw_real(w, RUNNER_K_SECONDS, (double)r->trim_ns / 1e9);
		if (ctx->fs)
			pb_jw_real(w, RUNNER_K_DELETE_SECONDS,
				   (double)r->delete_ns / 1e9);
		if (r->trim_error[0])
			pb_jw_str(w, "why_not", r->trim_error);
		pb_jw_real(w, "waited_seconds", (double)r->wait_ns / 1e9);
		pb_jw_str(w, "wait_ended", r->wait_told ? "told" : "time");
		if (ctx->opts->reclaim_go_file)
			pb_jw_real(w, "held_before_seconds",
				   (double)r->before_ns / 1e9);
		pb_jw_obj_close(w);
		if (r->has_ext)
			ext_json(w, r);
		goto error;
	}
	if (r->kind == RUNNER_PASS_RECREATE) {
		/* what came before the write, outside its figures */
		pb_jw_obj_open(w, RUNNER_K_RECREATE);
		pb_jw_real(w, RUNNER_K_DELETE_SECONDS,
			   (double)r->delete_ns / 1e9);
		if (ctx->opts->trim) {
			pb_jw_obj_open(w, RUNNER_K_TRIM);
			pb_jw_bool(w, "done", r->trimmed);
			pb_jw_real(w, RUNNER_K_SECONDS,
				   (double)r->trim_ns / 1e9);
			pb_jw_int(w, RUNNER_K_TRIM_BYTES,
				  (int64_t)r->trim_bytes);
			if (r->trim_error[0])
				pb_jw_str(w, "why_not", r->trim_error);
			pb_jw_obj_close(w);
		}
		pb_jw_obj_close(w);
	}
	if (!r->hist) {
		/* stopped before its first I/O (a recreate's delete) */
		pb_jw_bool(w, RUNNER_K_COMPLETE, false);
		goto error;
	}
	/* Little's law: the depth the pass really kept, from its rate and
	 * its mean latency; below --qd, the device waited on the runner */
	runner_pass_rates(&mib_s, &iops, r);
	qd_ach = r->hist->count ? iops * ((double)r->hist->sum /
					  (double)r->hist->count / 1e9)
				: 0.0;
	pb_jw_str(w, RUNNER_K_PATTERN,
		  o->pattern == RUNNER_PATTERN_RAND ? "rand" : "seq");
	pb_jw_int(w, RUNNER_K_BS, o->bs);
	pb_jw_int(w, RUNNER_K_QD, r->qd);
	pb_jw_real(w, RUNNER_K_QD_ACHIEVED, qd_ach);
	pb_jw_int(w, RUNNER_K_BATCH, r->batch);
	pb_jw_real(w, RUNNER_K_INTERVAL_MS, (double)r->interval_ns / 1e6);
	pb_jw_bool(w, "direct", r->direct);
	pb_jw_bool(w, RUNNER_K_COMPLETE, r->complete);
	pb_jw_int(w, RUNNER_K_BYTES, (int64_t)r->bytes);
	pb_jw_int(w, "ios", (int64_t)r->ios);
	pb_jw_real(w, RUNNER_K_SECONDS, s);
	pb_jw_real(w, "sync_seconds", (double)r->sync_ns / 1e9);
	/* the figures: after the ramp, when one was asked (0: the pass was
	 * no longer than it, and the figures are the whole pass's) */
	if (o->ramp_ms) {
		pb_jw_real(w, RUNNER_K_RAMP_S, (double)r->ramp_ns / 1e9);
		pb_jw_int(w, RUNNER_K_RAMP_BYTES, (int64_t)r->ramp_bytes);
	}
	pb_jw_real(w, RUNNER_K_MIB_PER_S, mib_s);
	pb_jw_real(w, RUNNER_K_IOPS, iops);
	if (r->has_dev)
		dev_json(w, r);
	if (r->has_ext)
		ext_json(w, r);
	lat_json(w, r->hist);
	rate_json(w, o, r);
	series_json(w, r);
	if (r->pairs)
		pairs_json(w, r->pairs);
	if (r->started_unix.tv_sec) {
		ts_ns(w, RUNNER_K_STARTED_UNIX, &r->started_unix);
		ts_ns(w, RUNNER_K_STARTED_BOOT, &r->started_boot);
	}
error:
	if (r->error[0])
		pb_jw_str(w, "error", r->error);
	pb_jw_obj_close(w);
}

static void verify_json(struct pb_jw *w, const struct runner_ctx *ctx)
{
	const struct runner_verify *v = &ctx->verify;
	unsigned i;

	if (!ctx->opts->verify) {
		pb_jw_null(w, "verify");
		return;
	}
	pb_jw_obj_open(w, "verify");
	pb_jw_bool(w, "done", v->done);
	pb_jw_int(w, "expected_generation", v->expected_generation);
	pb_jw_int(w, "chunks", (int64_t)v->chunks);
	pb_jw_int(w, "mismatches", (int64_t)v->mismatches);
	pb_jw_arr_open(w, "first");
	for (i = 0; i < v->nfirst; i++) {
		pb_jw_obj_open(w, NULL);
		pb_jw_int(w, "offset", (int64_t)v->first[i].offset);
		pb_jw_str(w, "reason", v->first[i].reason);
		pb_jw_int(w, "found_generation", v->first[i].found_generation);
		pb_jw_obj_close(w);
	}
	pb_jw_arr_close(w);
	pb_jw_obj_close(w);
}

static void fs_json(struct pb_jw *w, const struct runner_fs *fs)
{
	if (!fs) {
		pb_jw_null(w, RUNNER_K_FILESYSTEM);
		return;
	}
	pb_jw_obj_open(w, RUNNER_K_FILESYSTEM);
	pb_jw_str(w, RUNNER_K_FS_TYPE, runner_fs_name(fs->type));
	pb_jw_str(w, "device", fs->device);
	pb_jw_str(w, "mkfs_command", fs->mkfs_cmd);
	pb_jw_real(w, RUNNER_K_MKFS_SECONDS, fs->mkfs_s);
	pb_jw_str(w, RUNNER_K_LAZY_INIT,
		  fs->type == RUNNER_FS_EXT4
			  ? "off (lazy_itable_init=0,lazy_journal_init=0)"
		  : fs->type == RUNNER_FS_NTFS && fs->full_format
			  ? "none (a full format wrote every block: a thin "
			    "disk is allocated in full, and the passes after "
			    "it are not the storage's first writes)"
		  : fs->type == RUNNER_FS_NTFS
			  ? "none (a quick format writes the MFT, log and "
			    "bitmap only; no background initialisation)"
			  : "none (xfs has no background initialisation)");
	pb_jw_str(w, "mount_options",
		  fs->type == RUNNER_FS_NTFS ? "a mount point, no drive letter"
					     : "noatime");
	pb_jw_str(w, "file", "provbench.dat");
	pb_jw_obj_close(w);
}

enum pb_error runner_output_build(struct pb_buf *out,
				  const struct runner_ctx *ctx)
{
	const struct runner_target *t = &ctx->target;
	struct runner_system sys;
	struct pb_jw w;
	unsigned f = ctx->engine.flags, i;

	pb_jw_init(&w, out);
	pb_jw_obj_open(&w, NULL);
	pb_jw_str(&w, RUNNER_K_TOOL, "provbench-runner");
	pb_jw_str(&w, "version", PB_VERSION);
	pb_jw_str(&w, "started_at", ctx->started_at);
	pb_jw_str(&w, "engine",
		  ctx->engine.ops ? ctx->engine.ops->name : "none");
	pb_jw_str(&w, "engine_note", ctx->engine_note);
	pb_jw_int(&w, "seed", (int64_t)ctx->opts->seed);
	pb_jw_obj_open(&w, "target");
	pb_jw_str(&w, "path", t->path);
	pb_jw_str(&w, "kind", target_kind_name(t->kind));
	pb_jw_int(&w, "size_bytes", (int64_t)t->size);
	pb_jw_int(&w, "device_bytes", (int64_t)t->dev_size);
	pb_jw_str(&w, "identity", t->identity[0] ? t->identity : NULL);
	pb_jw_bool(&w, "created", t->created);
	pb_jw_obj_close(&w);
	pb_jw_arr_open(&w, RUNNER_K_PASSES);
	for (i = 0; i < ctx->npasses_done; i++)
		pass_json(&w, ctx, &ctx->passes[i]);
	pb_jw_arr_close(&w);
	verify_json(&w, ctx);
	pb_jw_bool(&w, RUNNER_K_INTERRUPTED, ctx->interrupted);
	/* where: a stop in mkfs leaves no pass to say it */
	pb_jw_str(&w, "interrupted_in",
		  ctx->interrupted && ctx->stopped_in[0] ? ctx->stopped_in
							 : NULL);
	fs_json(&w, ctx->fs);
	/* what the engine really did: asked-for is not applied */
	pb_jw_obj_open(&w, "engine_features");
	pb_jw_bool(&w, "async", (f & RUNNER_ENGINE_F_ASYNC) != 0);
	pb_jw_bool(&w, "registered_buffers",
		   (f & RUNNER_ENGINE_F_FIXEDBUFS) != 0);
	pb_jw_str(&w, "completions",
		  f & RUNNER_ENGINE_F_DEFER_TASKRUN
			  ? "deferred to the runner's wait"
		  : f & RUNNER_ENGINE_F_COOP_TASKRUN ? "cooperative"
		  : f & RUNNER_ENGINE_F_COMPLETION_PORT
			  ? "queued to a completion port, reaped in the "
			    "runner's wait"
			  : "interrupt");
	pb_jw_obj_close(&w);
	/* where it ran: the guest kernel goes into the run's environment */
	if (runner_system_get(&sys)) {
		pb_jw_obj_open(&w, "system");
		pb_jw_str(&w, "kernel", sys.kernel);
		pb_jw_str(&w, "machine", sys.machine);
		pb_jw_str(&w, "hostname", sys.hostname);
		pb_jw_obj_close(&w);
	}
	pb_jw_obj_close(&w);
	return pb_jw_finish(&w);
}
