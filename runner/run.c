/*
 * run.c - the runner's passes: keep --qd I/Os in flight, stamp what is
 * written, time every I/O into the histogram, cut the throughput series at
 * every interval, show progress, verify at the end, and stop cleanly on
 * SIGINT/SIGTERM with what was measured so far.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runner_int.h"

/* ---- time series ---- */

/*
 * Without --interval-ms the series sizes itself: 10 ms intervals, and
 * each time it reaches SERIES_MAX points, neighbours are merged in pairs
 * and the interval doubles. Any pass longer than 0.5 s then has at least
 * 50 points (between 128 and 256 past 1.3 s), whatever its length, so the
 * report's steady-state figure has something to stand on.
 */
#define SERIES_AUTO_NS 10000000ull
#define SERIES_MAX     256

struct series_state {
	uint64_t start, interval, next_tick, last_tick, bytes;
	bool autosize;
};

/* Two neighbours into one, the interval doubled (autosize). */
static void series_coalesce(struct runner_pass_result *r,
			    struct series_state *s)
{
	size_t i, n = r->nseries / 2;

	s->interval *= 2;
	for (i = 0; i < n; i++) {
		struct runner_point *a = &r->series[2 * i],
				    *b = &r->series[2 * i + 1];
		uint64_t bytes = a->bytes + b->bytes;

		r->series[i].t_s = b->t_s;
		r->series[i].bytes = bytes;
		r->series[i].mib_per_s =
			(double)bytes / 1048576.0 / ((double)s->interval / 1e9);
	}
	r->nseries = n;
}

static enum pb_error series_push(struct runner_pass_result *r, double t_s,
				 uint64_t bytes, double span_s)
{
	struct runner_point *p;

	if (r->nseries == r->aseries) {
		size_t n = r->aseries ? r->aseries * 2 : 64;

		p = realloc(r->series, n * sizeof(*p));
		if (!p)
			return PB_ERR_NOMEM;
		r->series = p;
		r->aseries = n;
	}
	p = &r->series[r->nseries++];
	p->t_s = t_s;
	p->bytes = bytes;
	p->mib_per_s = span_s > 0 ? (double)bytes / 1048576.0 / span_s : 0;
	return PB_OK;
}

/* Close every interval that ended before now. */
static enum pb_error series_advance(struct runner_pass_result *r,
				    struct series_state *s, uint64_t now)
{
	enum pb_error err;

	while (now >= s->next_tick) {
		err = series_push(r, (double)(s->next_tick - s->start) / 1e9,
				  s->bytes, (double)s->interval / 1e9);
		if (err)
			return err;
		s->bytes = 0;
		s->last_tick = s->next_tick;
		if (s->autosize && r->nseries >= SERIES_MAX)
			series_coalesce(r, s);
		s->next_tick = s->last_tick + s->interval;
	}
	return PB_OK;
}

/* The last, partial interval: the series then sums to the pass bytes. */
static enum pb_error series_finish(struct runner_pass_result *r,
				   struct series_state *s, uint64_t end)
{
	enum pb_error err = series_advance(r, s, end);

	if (err || end == s->last_tick)
		return err;
	return series_push(r, (double)(end - s->start) / 1e9, s->bytes,
			   (double)(end - s->last_tick) / 1e9);
}

/* ---- progress on stderr ---- */

struct progress {
	uint64_t next;
	uint64_t step;
	uint64_t next_file; /* --progress-file is rewritten once a second */
	bool tty;
	bool quiet;
	bool shown;
};

/*
 * --progress-file: the same figures as a small JSON document, replaced
 * atomically, for whoever watches from outside (the harness reads it
 * through VMware Tools while the runner works in the guest, and tells a
 * stall from it). Besides the pass's figures: "beat", the document's
 * number (one seen twice is a copy resent, not a new one), "done", the
 * I/Os the run has completed so far, and while the runner waits on
 * something else (mkfs, a command) "waiting" and what the device under
 * the target does ("device_done", "device_in_flight").
 */
struct progress_doc {
	const char *pass;
	unsigned index;
	uint64_t bytes, total;
	double el, rate, eta;
	const char *waiting;		  /* NULL: its own I/O */
	const struct runner_devstat *dev; /* NULL: none read */
};

static unsigned long long progress_beat;

static void progress_write(const struct runner_ctx *ctx,
			   const struct progress_doc *p)
{
	char doc[768], err[PB_ERRBUF_SIZE] = "";
	unsigned long long done = 0;
	unsigned i;
	int n;

	for (i = 0; i < ctx->npasses_done; i++)
		done += ctx->passes[i].ios;
	if (ctx->npasses_done < ctx->opts->npasses)
		done += ctx->passes[ctx->npasses_done].ios;
	n = snprintf(doc, sizeof(doc),
		     "{\"pass\": \"%s\", \"index\": %u, \"passes\": %u, "
		     "\"bytes\": %llu, \"total\": %llu, \"beat\": %llu, "
		     "\"done\": %llu",
		     p->pass, p->index, ctx->opts->npasses,
		     (unsigned long long)p->bytes, (unsigned long long)p->total,
		     ++progress_beat, done);
	/* a rate and an end are the pass's own I/O's: a wait has none */
	if (n > 0 && (size_t)n < sizeof(doc) && !p->waiting)
		n += snprintf(doc + n, sizeof(doc) - (size_t)n,
			      ", \"elapsed_s\": %.1f, \"mib_per_s\": %.1f, "
			      "\"eta_s\": %.0f",
			      p->el, p->rate, p->eta);
	if (n > 0 && (size_t)n < sizeof(doc) && p->waiting)
		n += snprintf(doc + n, sizeof(doc) - (size_t)n,
			      ", \"waiting\": \"%s\"", p->waiting);
	if (n > 0 && (size_t)n < sizeof(doc) && p->dev)
		n += snprintf(doc + n, sizeof(doc) - (size_t)n,
			      ", \"device_done\": %llu, "
			      "\"device_in_flight\": %llu",
			      p->dev->reads + p->dev->writes,
			      p->dev->in_flight);
	if (n > 0 && (size_t)n < sizeof(doc))
		n += snprintf(doc + n, sizeof(doc) - (size_t)n, "}\n");
	if (n <= 0 || (size_t)n >= sizeof(doc))
		return;
	/* best effort: progress must never disturb the measurement */
	pb_write_atomic(ctx->opts->progress_file, doc, (size_t)n, err);
}

static void progress_file(const struct runner_ctx *ctx,
			  const struct runner_pass_result *r, double el,
			  double rate, double eta, uint64_t total)
{
	struct progress_doc p = {.pass = runner_pass_name(r->kind),
				 .index = r->index,
				 .bytes = r->bytes,
				 .total = total,
				 .el = el,
				 .rate = rate,
				 .eta = eta};

	progress_write(ctx, &p);
}

/* the run whose progress file a wait's heartbeat rewrites: one run per
 * process (runner_run sets it, with the beat, when it has the file) */
static const struct runner_ctx *waiting_ctx;

/* a wait's beat (wait.c's, at most once a second): the pass it is in,
 * what it waits on and what the device under it did */
static void wait_beat(const char *what, const struct runner_devstat *dev)
{
	const struct runner_ctx *ctx = waiting_ctx;
	unsigned k;

	if (!ctx)
		return;
	k = ctx->npasses_done < ctx->opts->npasses ? ctx->npasses_done
						   : ctx->opts->npasses - 1;
	{
		struct progress_doc p = {
			.pass = ctx->opts->npasses
					? runner_pass_name(ctx->opts->passes[k])
					: "",
			.index = k,
			.waiting = what,
			.dev = dev};

		progress_write(ctx, &p);
	}
}

static void progress_show(struct progress *pg, const struct runner_ctx *ctx,
			  const struct runner_pass_result *r, uint64_t start,
			  uint64_t now, uint64_t total)
{
	char done_s[32], total_s[32], ts[32];
	double el = (double)(now - start) / 1e9;
	double rate = el > 0 ? (double)r->bytes / 1048576.0 / el : 0;
	double eta =
		rate > 0 ? (double)(total - r->bytes) / 1048576.0 / rate : 0;

	runner_stop_file_poll(ctx->opts->stop_file, now);
	if (ctx->opts->progress_file && now >= pg->next_file) {
		pg->next_file = now + 1000000000ull;
		progress_file(ctx, r, el, rate, eta, total);
	}
	if (pg->quiet || now < pg->next)
		return;
	pg->next = now + pg->step;
	pb_size_format(done_s, sizeof(done_s), r->bytes);
	pb_size_format(total_s, sizeof(total_s), total);
	if (pg->tty) {
		fprintf(stderr,
			"\r%-11s %10s / %-10s %9.1f MiB/s  ETA %5.0fs \033[K",
			runner_pass_name(r->kind), done_s, total_s, rate, eta);
		pg->shown = true;
	} else {
		pb_utc_iso(ts, sizeof(ts));
		fprintf(stderr,
			"%s provbench-runner: %s %s: %s / %s, %.1f MiB/s, "
			"ETA %.0f s\n",
			ts, ctx->target.path, runner_pass_name(r->kind), done_s,
			total_s, rate, eta);
	}
}

/* a pass's progress from start on: a line a quarter second on a
 * terminal, every 10 s in a log */
static void progress_start(struct progress *pg, const struct runner_ctx *ctx,
			   uint64_t start)
{
	*pg = (struct progress){.tty = ctx->tty, .quiet = ctx->opts->quiet};
	pg->step = ctx->tty ? 250000000ull : 10000000000ull;
	pg->next = start + pg->step;
}

static void progress_clear(struct progress *pg)
{
	if (pg->tty && pg->shown)
		fprintf(stderr, "\r\033[K");
	pg->shown = false;
}

/* ---- passes ---- */

static void refill_buffers(struct runner_ctx *ctx)
{
	unsigned i;

	for (i = 0; i < ctx->depth; i++)
		memcpy(ctx->bufs[i], ctx->pool, ctx->opts->bs);
}

/*
 * The I/O loop every pass shares: blocks [first, first + n) of the
 * region, in order or in perm's, depth I/Os in flight, each freed slot
 * refilled and submitted every batch I/Os (1: at once, fio's default, so
 * the device never waits while the runner stamps the next buffers), and
 * the queue drained at the end. Each reap's completions go to reaped(),
 * their slots already free; the first error, the engine's or reaped()'s
 * (through *err), is the walk's, and in-flight I/O drains either way.
 */
struct walk {
	struct runner_ctx *ctx;
	struct runner_pass_result *r; /* r->error: what went wrong */
	uint64_t first, n;
	const struct runner_perm *perm; /* NULL: in order */
	enum runner_io_op op;
	unsigned depth, batch;
	void (*reaped)(struct walk *w, struct runner_io *const *done,
		       unsigned n, uint64_t now, enum pb_error *err);
	void *arg; /* reaped()'s */
	uint64_t issued;
	/* an offered rate (--rate-iops): the mean gap, the next I/O's
	 * intended start, Poisson's generator (0: a fixed gap) */
	uint64_t gap_ns, due, rng;
	/* a wake comes late (tens of us in a VM), and the I/O due then
	 * would carry that lateness as the device's: the walk wakes
	 * early by twice the wakes' mean lateness (late_ns, an average
	 * over the last eight or so) and polls from there to the due */
	uint64_t late_ns;
	bool capped; /* an I/O came due with every slot busy */
};

/* at most this early: beyond it, polling costs more CPU than a late
 * wake costs truth (a TCG guest's wakes can be a millisecond late) */
#define WALK_EARLY_MAX_NS 250000u

static uint64_t walk_wake_at(const struct walk *w)
{
	uint64_t early = 2 * w->late_ns + 2000;

	if (early > WALK_EARLY_MAX_NS)
		early = WALK_EARLY_MAX_NS;
	return w->due > early ? w->due - early : 0;
}

/* a wake asked for at wake came now: learn how late wakes come */
static void walk_learn(struct walk *w, uint64_t wake)
{
	uint64_t now = pb_now_ns(), late = now > wake ? now - wake : 0;

	w->late_ns = w->late_ns - w->late_ns / 8 + late / 8;
}

/* The next gap of an offered rate: fixed, or exponential with the same
 * mean (a uniform in (0, 1) through -ln) */
static uint64_t next_gap(struct walk *w)
{
	if (!w->rng)
		return w->gap_ns;
	return (uint64_t)(-log(pb_uniform01(&w->rng)) * (double)w->gap_ns);
}

/*
 * Wait for completions. A closed loop waits for one; an offered rate
 * waits at most until a little before its next I/O is due (0 back: the
 * caller looks again), sleeping there when nothing is in flight, and
 * from there polls, so the I/O starts when it is due, not when a wake
 * comes.
 */
static int walk_wait(struct walk *w, struct runner_io **done, unsigned inflight)
{
	struct runner_engine *e = &w->ctx->engine;
	uint64_t now, wake;
	int got;

	if (!w->gap_ns || w->issued >= w->n || runner_stop_requested())
		return inflight ? e->ops->getevents(e, 1, done, inflight) : 0;
	/* no slot for what is due: nothing to do but wait for one */
	if (inflight == w->depth || (inflight && !e->ops->getevents_timed))
		return e->ops->getevents(e, 1, done, inflight);
	now = pb_now_ns();
	wake = walk_wake_at(w);
	if (now >= wake) /* close to the due: poll */
		return inflight ? e->ops->getevents_timed(e, done, inflight, 0)
				: 0;
	if (!inflight) {
		runner_sleep_until_ns(wake);
		walk_learn(w, wake);
		return 0;
	}
	got = e->ops->getevents_timed(e, done, inflight, wake - now);
	if (got == 0)
		walk_learn(w, wake);
	return got;
}

static enum pb_error walk_run(struct walk *w)
{
	struct runner_ctx *ctx = w->ctx;
	const struct runner_opts *o = ctx->opts;
	struct runner_io *done[RUNNER_MAX_QD];
	unsigned freelist[RUNNER_MAX_QD], nfree = w->depth, inflight = 0;
	unsigned queued, i;
	bool writes = w->op != RUNNER_OP_READ;
	enum pb_error err = PB_OK;
	int got;

	for (i = 0; i < w->depth; i++)
		freelist[i] = w->depth - 1 - i;
	w->issued = 0;
	w->due = pb_now_ns();
	for (;;) {
		queued = 0;
		while (inflight < w->depth && w->issued < w->n &&
		       !runner_stop_requested() && !err) {
			struct runner_io *io;
			uint64_t b, now = pb_now_ns();

			if (w->gap_ns && now < w->due)
				break; /* the next is not due yet */
			io = &ctx->ios[freelist[--nfree]];
			b = w->perm ? runner_perm_at(w->perm, w->issued)
				    : w->issued;
			io->off = (w->first + b) * o->bs;
			io->len = o->bs;
			if (writes)
				runner_stamp_buf(io->buf, io->len, io->off,
						 o->seed, ctx->generation);
			/* at a rate, latency runs from the intended start:
			 * a stall delays every I/O due during it, and each
			 * one counts (coordinated omission, wrk2) */
			io->t_start = w->gap_ns ? w->due : pb_now_ns();
			if (w->gap_ns) {
				w->r->lag_ns = now - w->due;
				w->due += next_gap(w);
				w->r->cap_waits += w->capped;
				w->capped = false;
			}
			ctx->engine.ops->queue(&ctx->engine, io, w->op);
			inflight++;
			w->issued++;
			if (++queued == w->batch) {
				got = ctx->engine.ops->commit(&ctx->engine);
				if (got < 0 && !err)
					err = pb_fail(w->r->error, PB_ERR_IO,
						      "submit: %s",
						      strerror(-got));
				queued = 0;
			}
		}
		got = queued ? ctx->engine.ops->commit(&ctx->engine) : 0;
		if (got < 0 && !err)
			err = pb_fail(w->r->error, PB_ERR_IO, "submit: %s",
				      strerror(-got));
		/* an I/O due with every slot busy: the cap, counted once
		 * each time it holds the schedule up */
		if (w->gap_ns && inflight == w->depth && w->issued < w->n &&
		    pb_now_ns() >= w->due)
			w->capped = true;
		if (!inflight && (!w->gap_ns || w->issued >= w->n || err ||
				  runner_stop_requested()))
			break;
		got = walk_wait(w, done, inflight);
		if (got == 0 && w->gap_ns && w->issued < w->n &&
		    !runner_stop_requested())
			continue; /* the next I/O is due */
		if (got < 0) {
			/* completions cannot be reaped: nothing to drain */
			err = pb_fail(w->r->error, PB_ERR_IO, "reap: %s",
				      strerror(-got));
			break;
		}
		if (got == 0) {
			/* an engine that neither completes nor fails would
			 * spin here forever: say so instead */
			err = pb_fail(w->r->error, PB_ERR_INTERNAL,
				      "%s: %u I/Os in flight, none completes",
				      ctx->engine.ops->name, inflight);
			break;
		}
		for (i = 0; i < (unsigned)got; i++)
			freelist[nfree++] = done[i]->slot;
		inflight -= (unsigned)got;
		w->reaped(w, done, (unsigned)got, pb_now_ns(), &err);
	}
	return err;
}

/* Did io transfer all it asked? If not, the walk's first error says so. */
static bool io_whole(const struct walk *w, const struct runner_io *io,
		     enum pb_error *err)
{
	if (io->res == (int)io->len)
		return true;
	if (!*err)
		*err = pb_fail(w->r->error, PB_ERR_IO, "%s at offset %llu: %s",
			       w->op == RUNNER_OP_READ ? "read" : "write",
			       (unsigned long long)io->off,
			       io->res < 0 ? strerror(-io->res)
					   : "short transfer");
	return false;
}

/* ---- the first write in pairs (--pair-stripe) ---- */

/* a stripe's completions: their latencies (hist NULL: none kept) and
 * how many were whole */
struct stripe {
	struct runner_hist *hist;
	uint64_t ios;
};

static void stripe_reaped(struct walk *w, struct runner_io *const *done,
			  unsigned n, uint64_t now, enum pb_error *err)
{
	struct stripe *st = w->arg;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (st->hist)
			runner_hist_add(st->hist, now - done[i]->t_start);
		if (io_whole(w, done[i], err))
			st->ios++;
	}
}

/*
 * n blocks from block first on (in order, or perm's), alone in the queue:
 * filled, kept full and drained. Its time into *ns, the I/Os that
 * completed whole into *ios, their latencies into hist (NULL: none kept).
 */
static enum pb_error stripe_write(struct runner_ctx *ctx,
				  struct runner_pass_result *r, uint64_t first,
				  uint64_t n, const struct runner_perm *perm,
				  struct runner_hist *hist, uint64_t *ns,
				  uint64_t *ios)
{
	struct stripe st = {.hist = hist};
	struct walk w = {.ctx = ctx,
			 .r = r,
			 .first = first,
			 .n = n,
			 .perm = perm,
			 .op = RUNNER_OP_WRITE,
			 .depth = ctx->depth,
			 .batch = r->batch,
			 .reaped = stripe_reaped,
			 .arg = &st};
	uint64_t start = pb_now_ns();
	enum pb_error err = walk_run(&w);

	*ns = pb_now_ns() - start;
	*ios = st.ios;
	return err;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void runner_pairs_free(struct runner_pairs *pr)
{
	if (!pr)
		return;
	free(pr->penalty);
	free(pr->written);
	free(pr);
}

/*
 * The first write in pairs: stripe 0 fresh, then stripe k fresh and
 * stripe k - 1 rewritten, for every k, each stripe alone in the queue.
 * A fresh stripe and the written one after it are milliseconds apart:
 * what the host does over seconds (a cloud volume wanders by 25% from
 * one second to the next) is the same for both and cancels in their
 * ratio. Every block is written first here, once; the stripes left over
 * at the end (the region in whole stripes) are written fresh, unpaired.
 * The pass's bytes, time, histogram and series are the fresh stripes'
 * (one series point per stripe): it is the first write.
 */
/* b - a added to acc: what the device did between two readings */
static void devstat_add(struct runner_devstat *acc,
			const struct runner_devstat *a,
			const struct runner_devstat *b)
{
	acc->reads += b->reads - a->reads;
	acc->read_sectors += b->read_sectors - a->read_sectors;
	acc->read_ms += b->read_ms - a->read_ms;
	acc->writes += b->writes - a->writes;
	acc->write_sectors += b->write_sectors - a->write_sectors;
	acc->write_ms += b->write_ms - a->write_ms;
	acc->busy_ms += b->busy_ms - a->busy_ms;
	acc->queue_ms += b->queue_ms - a->queue_ms;
	memcpy(acc->name, b->name, sizeof(acc->name));
}

/* One stripe, its device counts added to acc while pr->has_dev holds. */
static enum pb_error stripe_counted(struct runner_ctx *ctx,
				    struct runner_pass_result *r,
				    struct runner_devstat *acc, uint64_t first,
				    uint64_t n, struct runner_perm *perm,
				    struct runner_hist *hist, uint64_t *ns,
				    uint64_t *ios)
{
	struct runner_devstat a, b;
	bool have = r->pairs->has_dev && runner_devstat_get(&a, ctx->target.fd);
	enum pb_error err = stripe_write(ctx, r, first, n, perm, hist, ns, ios);

	if (have && runner_devstat_get(&b, ctx->target.fd))
		devstat_add(acc, &a, &b);
	else
		r->pairs->has_dev = false;
	return err;
}

static enum pb_error run_paired(struct runner_ctx *ctx,
				struct runner_pass_result *r)
{
	const struct runner_opts *o = ctx->opts;
	uint64_t spb = o->pair_stripe / o->bs, nstripes = ctx->nblocks / spb;
	uint64_t tail = ctx->nblocks - nstripes * spb, k, ns, ios, start;
	uint64_t fresh_ns = 0, sbytes = spb * o->bs;
	struct runner_perm perm, tperm;
	struct progress pg;
	struct runner_pairs *pr = calloc(1, sizeof(*pr));
	bool rnd = o->pattern == RUNNER_PATTERN_RAND;
	enum pb_error err = PB_OK;
	double fresh;

	r->pairs = pr; /* ctx_dispose frees it, whatever is made of it */
	if (!pr || !(pr->penalty = calloc(nstripes, sizeof(double))) ||
	    !(pr->written = calloc(nstripes, sizeof(double))))
		return pb_fail(ctx->errbuf, PB_ERR_NOMEM, "out of memory");
	pr->stripe = sbytes;
	pr->has_dev = true;
	runner_perm_init(&perm, spb, o->seed + r->index);
	if (tail)
		runner_perm_init(&tperm, tail, o->seed + r->index);
	start = pb_now_ns();
	runner_clock_now(&r->started_unix, &r->started_boot);
	progress_start(&pg, ctx, start);
	for (k = 0; k <= nstripes && !err && !runner_stop_requested(); k++) {
		uint64_t n = k < nstripes ? spb : tail, fresh_stripe_ns;

		if (!n)
			break;
		err = stripe_counted(ctx, r, &pr->dev_fresh, k * spb, n,
				     rnd ? (k < nstripes ? &perm : &tperm)
					 : NULL,
				     r->hist, &ns, &ios);
		r->ios += ios;
		r->bytes += ios * o->bs;
		fresh_ns += ns;
		fresh_stripe_ns = ns;
		fresh = ns ? (double)(ios * o->bs) / ((double)ns / 1e9) : 0;
		if (ios &&
		    series_push(r, (double)fresh_ns / 1e9, ios * o->bs,
				(double)ns / 1e9) &&
		    !err)
			err = pb_fail(r->error, PB_ERR_NOMEM, "out of memory");
		if (!err && !runner_stop_requested() && k && k < nstripes) {
			err = stripe_counted(
				ctx, r, &pr->dev_written, (k - 1) * spb, spb,
				rnd ? &perm : NULL, NULL, &ns, &ios);
			pr->written_bytes += ios * o->bs;
			pr->written_ns += ns;
			if (!err && ios == spb && ns && fresh > 0) {
				double w = (double)sbytes / ((double)ns / 1e9);

				pr->written[pr->n] = w / 1048576.0;
				pr->penalty[pr->n++] = 1 - fresh / w;
				pr->pair_fresh_ns += fresh_stripe_ns;
				pr->pair_written_ns += ns;
			}
		}
		progress_show(&pg, ctx, r, start, pb_now_ns(),
			      ctx->target.size);
	}
	progress_clear(&pg);
	/* in order of size: the quantiles are read from it */
	qsort(pr->penalty, pr->n, sizeof(*pr->penalty), cmp_dbl);
	r->ns = fresh_ns;
	pr->wall_ns = pb_now_ns() - start;
	r->interval_ns = r->nseries ? fresh_ns / r->nseries : 0;
	r->complete =
		!err && r->ios == ctx->nblocks && !runner_stop_requested();
	if (!err && runner_stop_requested())
		err = PB_ERR_INTERRUPTED;
	return err;
}

/* a whole pass's completions: latency, bytes, series, ramp, progress */
struct pass_walk {
	struct series_state ss;
	struct progress pg;
	uint64_t start, ramp_end;
	uint64_t stall_ns; /* --stall-us; 0: none counted */
};

static void pass_reaped(struct walk *w, struct runner_io *const *done,
			unsigned n, uint64_t now, enum pb_error *err)
{
	struct pass_walk *pw = w->arg;
	struct runner_pass_result *r = w->r;
	bool in_ramp = now < pw->ramp_end;
	unsigned i;

	for (i = 0; i < n; i++) {
		struct runner_io *io = done[i];
		uint64_t lat = now - io->t_start;

		runner_hist_add(in_ramp ? r->ramp_hist : r->hist, lat);
		if (pw->stall_ns && lat > pw->stall_ns && !in_ramp) {
			r->stalls++;
			r->stall_ns += lat;
		}
		if (!io_whole(w, io, err))
			continue;
		if (series_advance(r, &pw->ss, now) && !*err)
			*err = pb_fail(r->error, PB_ERR_NOMEM, "out of memory");
		pw->ss.bytes += io->len;
		r->bytes += io->len;
		r->ios++;
		if (in_ramp) {
			r->ramp_bytes += io->len;
			r->ramp_ios++;
		}
	}
	progress_show(&pw->pg, w->ctx, r, pw->start, now, w->ctx->target.size);
}

/*
 * One pass over every block of the region. Returns PB_OK, PB_ERR_IO
 * (r->error says which I/O) or PB_ERR_INTERRUPTED; the result is filled in
 * either way.
 */
static enum pb_error run_pass(struct runner_ctx *ctx, unsigned index,
			      enum runner_pass_kind kind)
{
	const struct runner_opts *o = ctx->opts;
	struct runner_pass_result *r = &ctx->passes[index];
	struct runner_perm perm;
	struct pass_walk pw = {0};
	struct walk w = {.ctx = ctx, .r = r, .reaped = pass_reaped, .arg = &pw};
	uint64_t now;
	enum pb_error err;
	bool writes = runner_pass_writes(kind);

	r->kind = kind;
	r->index = index;
	r->direct = !o->buffered;
	r->hist = malloc(sizeof(*r->hist));
	r->ramp_hist = o->ramp_ms ? malloc(sizeof(*r->ramp_hist)) : NULL;
	if (!r->hist || (o->ramp_ms && !r->ramp_hist))
		return pb_fail(ctx->errbuf, PB_ERR_NOMEM, "out of memory");
	runner_hist_init(r->hist);
	if (r->ramp_hist)
		runner_hist_init(r->ramp_hist);

	/* an application that fsyncs every write waits for each one */
	w.depth = kind == RUNNER_PASS_FSYNC_WRITE ? 1 : ctx->depth;
	r->qd = w.depth;
	w.batch = o->batch < w.depth ? o->batch : w.depth;
	r->batch = w.batch;
	w.op = kind == RUNNER_PASS_FSYNC_WRITE ? RUNNER_OP_WRITE_DSYNC
	       : writes			       ? RUNNER_OP_WRITE
					       : RUNNER_OP_READ;
	if (writes) {
		ctx->generation++;
		refill_buffers(ctx);
	} else if (o->buffered) {
		/* measure the disk, not the page cache (hdparm -t flushes) */
		runner_fd_sync(ctx->target.fd);
		runner_fd_drop_cache(ctx->target.fd);
	}
	/* the device's own counters around the pass: what it did, and how
	 * long its requests took there */
	r->has_dev = runner_devstat_get(&r->dev0, ctx->target.fd);
	/* a file's extents around the pass: what its filesystem allocated
	 * or converted in it (thin's holes filled, lazy's unwritten ones
	 * written) */
	r->has_ext = ctx->target.kind == RUNNER_TARGET_FILE &&
		     runner_extents_get(&r->ext0, ctx->target.fd);
	if (kind == RUNNER_PASS_FIRST_WRITE && o->pair_stripe) {
		err = run_paired(ctx, r);
		r->has_dev = r->has_dev &&
			     runner_devstat_get(&r->dev1, ctx->target.fd);
		r->has_ext = r->has_ext &&
			     runner_extents_get(&r->ext1, ctx->target.fd);
		return err;
	}
	runner_perm_init(&perm, ctx->nblocks, o->seed + index);
	w.n = ctx->nblocks;
	w.perm = o->pattern == RUNNER_PATTERN_RAND ? &perm : NULL;
	if (o->rate_iops) {
		w.gap_ns = 1000000000ull / o->rate_iops;
		/* each pass its own arrivals, from the run's seed */
		w.rng = o->poisson ? ((o->seed ^ 0x7261746573ull) + index) | 1
				   : 0;
	}
	pw.stall_ns = (uint64_t)o->stall_us * 1000u;

	pw.start = pb_now_ns();
	runner_clock_now(&r->started_unix, &r->started_boot);
	pw.ss = (struct series_state){
		.start = pw.start,
		.interval = o->interval_ms
				    ? (uint64_t)o->interval_ms * 1000000ull
				    : SERIES_AUTO_NS,
		.autosize = !o->interval_ms,
		.last_tick = pw.start};
	pw.ss.next_tick = pw.start + pw.ss.interval;
	pw.ramp_end =
		o->ramp_ms ? pw.start + (uint64_t)o->ramp_ms * 1000000ull : 0;
	progress_start(&pw.pg, ctx, pw.start);

	err = walk_run(&w);
	if (writes && o->buffered && !err) {
		/* like `dd ... && sync`: the flush belongs to the pass */
		uint64_t s = pb_now_ns();

		int rc = runner_fd_sync(ctx->target.fd);

		if (rc)
			err = pb_fail(r->error, PB_ERR_IO, "fdatasync: %s",
				      strerror(-rc));
		r->sync_ns = pb_now_ns() - s;
	}
	now = pb_now_ns();
	r->ns = now - pw.start;
	r->has_dev = r->has_dev && runner_devstat_get(&r->dev1, ctx->target.fd);
	r->has_ext = r->has_ext && runner_extents_get(&r->ext1, ctx->target.fd);
	r->interval_ns = pw.ss.interval;
	if (pw.ramp_end && (now <= pw.ramp_end || r->ramp_ios == r->ios)) {
		/* no time after the ramp: the whole pass is the figure,
		 * said by ramp_s 0, never a rate over nothing */
		runner_hist_merge(r->hist, r->ramp_hist);
		r->ramp_bytes = r->ramp_ios = 0;
	} else if (pw.ramp_end) {
		r->ramp_ns = pw.ramp_end - pw.start;
	}
	if (series_finish(r, &pw.ss, now) && !err)
		err = pb_fail(r->error, PB_ERR_NOMEM, "out of memory");
	progress_clear(&pw.pg);
	r->complete =
		!err && w.issued == ctx->nblocks && !runner_stop_requested();
	if (!err && runner_stop_requested())
		err = PB_ERR_INTERRUPTED;
	return err;
}

/* Read everything back and check every chunk's stamp and payload. */
static enum pb_error run_verify(struct runner_ctx *ctx)
{
	const struct runner_opts *o = ctx->opts;
	struct runner_verify *v = &ctx->verify;
	struct runner_io *done[RUNNER_MAX_QD];
	unsigned freelist[RUNNER_MAX_QD], nfree = ctx->depth, inflight = 0, i;
	uint32_t cs = o->bs < RUNNER_CHUNK ? o->bs : RUNNER_CHUNK, pos, found;
	uint64_t issued = 0;
	enum pb_error err = PB_OK;
	const char *why;
	int n;

	v->done = false;
	v->expected_generation = ctx->generation; /* 0: take the first seen */
	if (o->buffered) {
		runner_fd_sync(ctx->target.fd);
		runner_fd_drop_cache(ctx->target.fd);
	}
	for (i = 0; i < ctx->depth; i++)
		freelist[i] = i;
	for (;;) {
		while (inflight < ctx->depth && issued < ctx->nblocks &&
		       !runner_stop_requested()) {
			struct runner_io *io = &ctx->ios[freelist[--nfree]];

			io->off = issued * o->bs;
			io->len = o->bs;
			io->t_start = pb_now_ns();
			ctx->engine.ops->queue(&ctx->engine, io,
					       RUNNER_OP_READ);
			inflight++;
			issued++;
		}
		n = ctx->engine.ops->commit(&ctx->engine);
		if (n < 0)
			return pb_fail(ctx->errbuf, PB_ERR_IO,
				       "verify: submit: %s", strerror(-n));
		if (!inflight)
			break;
		runner_stop_file_poll(ctx->opts->stop_file, pb_now_ns());
		n = ctx->engine.ops->getevents(&ctx->engine, 1, done, inflight);
		if (n < 0)
			return pb_fail(ctx->errbuf, PB_ERR_IO,
				       "verify: reap: %s", strerror(-n));
		if (n == 0)
			return pb_fail(ctx->errbuf, PB_ERR_INTERNAL,
				       "verify: %s: no completion",
				       ctx->engine.ops->name);
		for (i = 0; i < (unsigned)n; i++) {
			struct runner_io *io = done[i];
			const uint8_t *b = io->buf;

			freelist[nfree++] = io->slot;
			inflight--;
			if (io->res != (int)io->len) {
				err = pb_fail(ctx->errbuf, PB_ERR_IO,
					      "verify: read at offset %llu: %s",
					      (unsigned long long)io->off,
					      io->res < 0 ? strerror(-io->res)
							  : "short read");
				continue;
			}
			for (pos = 0; pos + cs <= io->len; pos += cs) {
				why = runner_chunk_check(
					b + pos, cs, ctx->pool + pos,
					io->off + pos, o->seed,
					v->expected_generation, &found);
				v->chunks++;
				if (!why && !v->expected_generation)
					v->expected_generation = found;
				if (!why)
					continue;
				if (v->nfirst < RUNNER_VERIFY_MAX_REPORTED) {
					struct runner_mismatch *m =
						&v->first[v->nfirst++];

					m->offset = io->off + pos;
					m->reason = why;
					m->found_generation = found;
				}
				v->mismatches++;
			}
		}
	}
	v->done = !err && !runner_stop_requested();
	if (!err && runner_stop_requested())
		err = PB_ERR_INTERRUPTED;
	return err;
}

static void print_summary(const struct runner_ctx *ctx)
{
	const struct runner_pass_result *r;
	char sz[32];
	unsigned i;

	for (i = 0; i < ctx->npasses_done; i++) {
		r = &ctx->passes[i];
		double s = (double)r->ns / 1e9, mib_s, iops;

		if (r->kind == RUNNER_PASS_COMMAND) {
			fprintf(stderr, "%-11s exit %d in %7.2f s\n",
				runner_pass_name(r->kind), r->exit_status, s);
			continue;
		}
		if (!r->hist)
			continue;
		runner_pass_rates(&mib_s, &iops, r);
		pb_size_format(sz, sizeof(sz), r->bytes);
		fprintf(stderr,
			"%-11s %10s in %7.2f s  %9.1f MiB/s  %8.0f IOPS  "
			"p50 %.0f us  p99 %.0f us  max %.0f us%s%s\n",
			runner_pass_name(r->kind), sz, s, mib_s, iops,
			(double)runner_hist_percentile(r->hist, 50) / 1e3,
			(double)runner_hist_percentile(r->hist, 99) / 1e3,
			(double)r->hist->max / 1e3,
			r->ramp_ns ? "  (after its ramp)" : "",
			r->complete ? "" : "  (incomplete)");
		if (r->kind == RUNNER_PASS_RECREATE)
			fprintf(stderr,
				"%-11s after a delete of %.2f s%s%s%s\n", "",
				(double)r->delete_ns / 1e9,
				r->trimmed ? " and a trim" : "",
				r->trim_error[0] ? "; not trimmed: " : "",
				r->trim_error);
		/* the two sides, measured; what a first write costs is
		 * provbench's to say (reports/penalty.c), in one way */
		if (r->pairs && r->pairs->n)
			fprintf(stderr,
				"%-11s %u pairs of %s stripes: the rewritten "
				"stripes %.1f MiB/s\n",
				"", r->pairs->n,
				pb_size_format(sz, sizeof(sz),
					       r->pairs->stripe),
				runner_pairs_written_rate(r->pairs));
	}
	if (ctx->verify.done || ctx->verify.chunks)
		fprintf(stderr, "verify      %llu chunks, %llu mismatches\n",
			(unsigned long long)ctx->verify.chunks,
			(unsigned long long)ctx->verify.mismatches);
}

static enum pb_error engine_start(struct runner_ctx *ctx)
{
	const struct runner_opts *o = ctx->opts;
	char why[PB_ERRBUF_SIZE] = "";
	enum pb_error err;

	if (o->engine != RUNNER_ENGINE_PSYNC) {
		ctx->engine.ops = runner_engine_async;
		ctx->engine.flags = ctx->engine.ops->flags;
		err = ctx->engine.ops->init(&ctx->engine, ctx->target.fd,
					    ctx->depth, ctx->bufs, o->bs, why);
		if (!err)
			return PB_OK;
		if (o->engine == RUNNER_ENGINE_IO_URING)
			return pb_fail(ctx->errbuf, err, "--engine %s: %s",
				       runner_engine_async->name, why);
		/* seccomp or an old kernel: say so in the output */
		snprintf(ctx->engine_note_buf, sizeof(ctx->engine_note_buf),
			 "%s unavailable, fell back to %s",
			 runner_engine_async->name, runner_engine_sync->name);
		ctx->engine_note = ctx->engine_note_buf;
		if (!o->quiet)
			fprintf(stderr, "provbench-runner: %s (%s)\n",
				ctx->engine_note, why);
	}
	ctx->engine.ops = runner_engine_sync;
	ctx->engine.flags = ctx->engine.ops->flags;
	return ctx->engine.ops->init(&ctx->engine, ctx->target.fd, ctx->depth,
				     ctx->bufs, o->bs, ctx->errbuf);
}

static enum pb_error write_all(int fd, const struct pb_buf *doc,
			       const char *name, char *errbuf)
{
	size_t done = 0;
	ssize_t w;

	while (done < doc->len) {
		w = write(fd, doc->data + done, doc->len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return pb_fail(errbuf, PB_ERR_IO,
				       "%s: write failed: %s", name,
				       strerror(errno));
		done += (size_t)w;
	}
	return PB_OK;
}

/*
 * Where -o may point: a regular file (replaced atomically), a new file, or
 * a character device or FIFO (written in place: renaming over /dev/null
 * would replace the device with a file). Never a block device or a
 * directory. Checked before the run, so a bad -o wastes no measurement.
 */
static enum pb_error check_output(const char *path, char *errbuf)
{
	struct stat st;

	if (!path || !strcmp(path, "-") || stat(path, &st))
		return PB_OK;
	if (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return PB_OK;
	return pb_fail(errbuf, PB_ERR_USAGE,
		       "-o: %s is not a regular file, character device or FIFO",
		       path);
}

/* A regular file is written to a temporary, fsynced and renamed: never a
 * torn file, even on a crash. */
static enum pb_error write_output(const struct runner_ctx *ctx,
				  const struct pb_buf *doc)
{
	const char *path = ctx->opts->output;
	enum pb_error err;
	struct stat st;
	int fd;

	if (!path || !strcmp(path, "-"))
		return write_all(STDOUT_FILENO, doc, "stdout", ctx->errbuf);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return pb_fail(ctx->errbuf, PB_ERR_IO,
				       "%s: cannot open: %s", path,
				       strerror(errno));
		err = write_all(fd, doc, path, ctx->errbuf);
		close(fd);
		return err;
	}
	return pb_write_atomic(path, doc->data, doc->len, ctx->errbuf);
}

static bool any_write(const struct runner_opts *o)
{
	unsigned i;

	for (i = 0; i < o->npasses; i++)
		if (runner_pass_writes(o->passes[i]))
			return true;
	return false;
}

static bool any_io(const struct runner_opts *o)
{
	unsigned i;

	for (i = 0; i < o->npasses; i++)
		if (o->passes[i] != RUNNER_PASS_COMMAND)
			return true;
	return false;
}

/* A command pass: in the mount point, or / for a raw target. */
static enum pb_error run_command_pass(struct runner_ctx *ctx, unsigned index)
{
	struct runner_pass_result *r = &ctx->passes[index];
	const struct runner_fs *fs = ctx->fs;

	r->kind = RUNNER_PASS_COMMAND;
	r->index = index;
	/* when it ran, so that what the host or the server counted in it
	 * can be found (the host's device, the server's counters) */
	runner_clock_now(&r->started_unix, &r->started_boot);
	return runner_command_run(r, ctx->command, ctx->opts->stop_file,
				  fs ? fs->mnt : "/",
				  fs			? fs->device
				  : ctx->target.path[0] ? ctx->target.path
							: NULL);
}

/*
 * Delete the file, trim if asked, and write a new one of the same size:
 * the field notes' "delete and re-write", which a filesystem may place on
 * other blocks than the file it replaces (a rewrite overwrites in place).
 */
static enum pb_error run_recreate(struct runner_ctx *ctx, unsigned index)
{
	struct runner_pass_result *r = &ctx->passes[index];
	enum pb_error err;

	r->kind = RUNNER_PASS_RECREATE;
	r->index = index;
	/* io_uring holds the old file registered: a new engine for the new
	 * file, as the first pass had */
	if (ctx->engine.ops)
		ctx->engine.ops->cleanup(&ctx->engine);
	memset(&ctx->engine, 0, sizeof(ctx->engine));
	runner_target_close(&ctx->target);
	err = runner_fs_recreate(ctx->fs, ctx->opts->trim, r, r->error);
	if (!err)
		err = runner_target_open(&ctx->target, ctx->opts, true,
					 r->error);
	if (!err)
		err = engine_start(ctx);
	if (err)
		return err;
	ctx->depth = ctx->engine.depth;
	return run_pass(ctx, index, RUNNER_PASS_RECREATE);
}

/*
 * Still, --reclaim-wait-ms at most, in slices that a stop request ends,
 * the progress file saying "waiting": what; *told when --reclaim-go-file
 * ended it (removed as seen, so the next hold waits anew), *ns how long.
 */
static enum pb_error hold(struct runner_ctx *ctx, const char *what, bool *told,
			  uint64_t *ns)
{
	struct runner_wait w = RUNNER_WAIT_INIT(what, NULL);
	const char *go = ctx->opts->reclaim_go_file;
	uint64_t t0 = pb_now_ns(),
		 end = t0 + (uint64_t)ctx->opts->reclaim_wait_ms * 1000000u;
	enum pb_error err = PB_OK;
	struct stat st;

	while (pb_now_ns() < end) {
		uint64_t left_ms = (end - pb_now_ns()) / 1000000u + 1;

		runner_wait_tick(&w);
		runner_stop_file_poll(ctx->opts->stop_file, pb_now_ns());
		if (runner_stop_requested()) {
			err = PB_ERR_INTERRUPTED;
			break;
		}
		if (go && !stat(go, &st)) {
			unlink(go);
			*told = true;
			break;
		}
		runner_sleep_ms(left_ms < 50 ? (unsigned)left_ms : 50);
	}
	runner_wait_done(&w);
	*ns = pb_now_ns() - t0;
	return err;
}

/*
 * Around a reclaim, the hypervisor's time to give the space back and the
 * host's to read it: after the discard the runner holds still ("waiting":
 * "reclaim"), outside every figure, until a harness that read the space
 * back says go (--reclaim-go-file) or reclaim_wait_ms ran out. A harness
 * that reads the space back says so: then the runner also holds before
 * the discard ("before reclaim"), for the harness to read what the disk
 * held first.
 */
static enum pb_error reclaim_hold_before(struct runner_ctx *ctx,
					 struct runner_pass_result *r)
{
	bool told = false;

	return ctx->opts->reclaim_go_file
		       ? hold(ctx, "before reclaim", &told, &r->before_ns)
		       : PB_OK;
}

/*
 * Give the written blocks back: on a filesystem the file deleted and the
 * free blocks trimmed (FITRIM), the next pass's first write making a new
 * file; on a raw target the region discarded (BLKDISCARD, or a punched
 * hole in a file). What the device would not do is said, not failed: the
 * first write after it is measured either way.
 */
static enum pb_error run_reclaim(struct runner_ctx *ctx, unsigned index)
{
	struct runner_pass_result *r = &ctx->passes[index];
	uint64_t t0 = pb_now_ns();
	enum pb_error err;

	r->kind = RUNNER_PASS_RECLAIM;
	r->index = index;
	err = reclaim_hold_before(ctx, r);
	if (err)
		return err;
	t0 = pb_now_ns();
	runner_clock_now(&r->started_unix, &r->started_boot);
	if (ctx->fs) {
		if (ctx->engine.ops)
			ctx->engine.ops->cleanup(&ctx->engine);
		memset(&ctx->engine, 0, sizeof(ctx->engine));
		runner_target_close(&ctx->target);
		r->reclaim_method = "fitrim";
		err = runner_fs_recreate(ctx->fs, true, r, r->error);
		ctx->reopen = true;
	} else {
		/* a file's blocks as its filesystem holds them, before and
		 * after: what the reclaim really gave back, read back */
		r->has_ext = ctx->target.kind == RUNNER_TARGET_FILE &&
			     runner_extents_get(&r->ext0, ctx->target.fd);
		err = runner_target_reclaim(&ctx->target, r, r->error);
		r->has_ext = r->has_ext && !err &&
			     runner_extents_get(&r->ext1, ctx->target.fd);
	}
	r->ns = pb_now_ns() - t0;
	r->complete = !err;
	if (!err)
		err = hold(ctx, "reclaim", &r->wait_told, &r->wait_ns);
	return err;
}

/* After a reclaim on a filesystem: the file the next pass writes, new. */
static enum pb_error reopen(struct runner_ctx *ctx, unsigned index)
{
	struct runner_pass_result *r = &ctx->passes[index];
	enum pb_error err;

	ctx->reopen = false;
	err = runner_target_open(&ctx->target, ctx->opts, true, r->error);
	if (!err)
		err = engine_start(ctx);
	if (!err)
		ctx->depth = ctx->engine.depth;
	return err;
}

/* Pass i, by its kind. */
static enum pb_error run_one(struct runner_ctx *ctx, unsigned i)
{
	const struct runner_opts *o = ctx->opts;
	enum pb_error err;

	if (ctx->reopen) {
		err = reopen(ctx, i);
		if (err)
			return err;
	}
	switch ((enum runner_pass_kind)o->passes[i]) {
	case RUNNER_PASS_COMMAND:
		return run_command_pass(ctx, i);
	case RUNNER_PASS_RECREATE:
		return run_recreate(ctx, i);
	case RUNNER_PASS_RECLAIM:
		return run_reclaim(ctx, i);
	default:
		return run_pass(ctx, i, o->passes[i]);
	}
}

static void ctx_dispose(struct runner_ctx *ctx)
{
	unsigned i;

	if (ctx->engine.ops)
		ctx->engine.ops->cleanup(&ctx->engine);
	runner_target_close(&ctx->target);
	for (i = 0; i < RUNNER_MAX_PASSES; i++) {
		free(ctx->passes[i].hist);
		free(ctx->passes[i].ramp_hist);
		free(ctx->passes[i].series);
		free(ctx->passes[i].output);
		runner_pairs_free(ctx->passes[i].pairs);
	}
	free(ctx->command);
	for (i = 0; i < ctx->nbufs; i++)
		pb_aligned_free(ctx->bufs[i]);
	free(ctx->ios);
	pb_aligned_free(ctx->pool);
}

enum pb_error runner_run(const struct runner_opts *o, char *errbuf)
{
	struct runner_ctx *ctx;
	struct runner_fs fs = {.type = RUNNER_FS_NONE};
	struct runner_opts fo;
	struct pb_buf doc = PB_BUF_INIT(1u << 30);
	enum pb_error err, run_err = PB_OK;
	time_t now = time(NULL);
	unsigned i;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	ctx->opts = o;
	ctx->errbuf = errbuf;
	ctx->target.fd = -1;
	waiting_ctx = ctx;
	runner_wait_beat_set(o->progress_file ? wait_beat : NULL);
	ctx->tty = isatty(STDERR_FILENO);
	pb_utc_format(ctx->started_at, sizeof(ctx->started_at), now,
		      PB_TIME_ISO);

	err = check_output(o->output, errbuf);
	if (err)
		goto out;
	if (o->command_file) {
		ctx->command = pb_slurp_file(o->command_file, NULL);
		if (!ctx->command) {
			err = pb_fail(errbuf, PB_ERR_INPUT,
				      "--command-file %s: %s", o->command_file,
				      strerror(errno));
			goto out;
		}
	} else if (o->command && !(ctx->command = strdup(o->command))) {
		err = pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (o->filesystem != RUNNER_FS_NONE) {
		/* from here on the target is the file in the filesystem */
		err = runner_fs_setup(&fs, o, errbuf);
		ctx->fs = &fs;
		if (err == PB_ERR_INTERRUPTED) {
			/* stopped while it formatted: no pass ran, and the
			 * document says so (issue 56) */
			snprintf(ctx->stopped_in, sizeof(ctx->stopped_in),
				 "mkfs");
			run_err = err;
			goto report;
		}
		if (err)
			goto out;
		fo = *o;
		fo.target = fs.file;
		o = &fo;
		ctx->opts = o;
	}
	if (!any_io(o)) {
		/* commands only: no target to open, nothing to measure */
		snprintf(ctx->target.path, sizeof(ctx->target.path), "%s",
			 ctx->fs ? fs.device : o->target);
		goto passes;
	}
	err = runner_target_open(&ctx->target, o, any_write(o), errbuf);
	if (err)
		goto out;
	ctx->nblocks = ctx->target.size / o->bs;
	ctx->depth = o->qd;
	if ((uint64_t)ctx->depth > ctx->nblocks)
		ctx->depth = (unsigned)ctx->nblocks;
	ctx->nbufs = ctx->depth;
	ctx->ios = calloc(ctx->nbufs, sizeof(*ctx->ios));
	ctx->pool = pb_aligned_alloc(4096, o->bs);
	if (!ctx->ios || !ctx->pool) {
		err = pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
		goto out;
	}
	runner_pool_fill(ctx->pool, o->bs, o->seed);
	for (i = 0; i < ctx->depth; i++) {
		if (!(ctx->bufs[i] = pb_aligned_alloc(4096, o->bs))) {
			err = pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
			goto out;
		}
		/* zeroed once: memcheck cannot see io_uring fill a buffer,
		 * and would call every later read of it uninitialised */
		memset(ctx->bufs[i], 0, o->bs);
		ctx->ios[i].buf = ctx->bufs[i];
		ctx->ios[i].slot = i;
	}
	err = engine_start(ctx);
	if (err)
		goto out;
	/* psync completes one I/O at a time, whatever --qd asked for */
	ctx->depth = ctx->engine.depth;
passes:
	for (i = 0; i < o->npasses && !run_err; i++) {
		run_err = run_one(ctx, i);
		ctx->npasses_done = i + 1;
		if (run_err == PB_ERR_INTERRUPTED)
			snprintf(ctx->stopped_in, sizeof(ctx->stopped_in),
				 "pass %u (%s)", i + 1,
				 runner_pass_name(o->passes[i]));
		if (run_err && ctx->passes[i].error[0])
			pb_fail(errbuf, run_err, "%s pass: %s",
				runner_pass_name(o->passes[i]),
				ctx->passes[i].error);
	}
	if (!run_err && o->verify) {
		run_err = run_verify(ctx);
		if (run_err == PB_ERR_INTERRUPTED)
			snprintf(ctx->stopped_in, sizeof(ctx->stopped_in),
				 "verify");
		/* a finding, reported in full in the JSON: not a crash */
		if (!run_err && ctx->verify.mismatches)
			run_err = pb_fail(
				errbuf, PB_ERR_VERIFY,
				"verify: %llu mismatching chunks "
				"(first at offset %llu: %s)",
				(unsigned long long)ctx->verify.mismatches,
				(unsigned long long)ctx->verify.first[0].offset,
				ctx->verify.first[0].reason);
	}
report:
	ctx->interrupted = run_err == PB_ERR_INTERRUPTED;
	if (ctx->interrupted)
		pb_fail(errbuf, PB_ERR_INTERRUPTED,
			"interrupted; partial results written");
	if (!o->quiet)
		print_summary(ctx);

	err = runner_output_build(&doc, ctx);
	if (err) {
		pb_fail(errbuf, err, "cannot build the JSON output: %s",
			pb_strerror(err));
		goto out;
	}
	err = write_output(ctx, &doc);
	if (!err)
		err = run_err;
out:
	pb_buf_dispose(&doc);
	ctx_dispose(ctx);
	/* after the target file is closed; also after a failed pass */
	runner_fs_teardown(&fs);
	runner_wait_beat_set(NULL);
	waiting_ctx = NULL;
	free(ctx);
	return err;
}
