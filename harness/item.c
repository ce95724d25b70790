/*
 * item.c - one plan item: journal the disk, create it (timed), run the
 * runner against it with its progress shown, collect its JSON, destroy
 * the disk whatever happened, journal that, and record the result in
 * run.json. PROVBENCH_STOP_AT stops the harness at a named step, for the
 * tests that kill it there.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "report.h"
#include "run_int.h"

/* a pass's number, NaN when absent */
static double pass_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/*
 * A repetition's own first write against its later writes, in the
 * report's words and by its one definition (reports/penalty.c): the
 * whole first-write pass against its rewritten stripes where it was
 * paired, else against its rewrites' median (recreates' without any).
 * The answer later takes the baseline's own out over every repetition:
 * this is the repetition before that, said as such.
 */
static void rep_penalty(char *out, size_t len, json_t *passes)
{
	double later[2][RUNNER_MAX_PASSES];
	size_t nl[2] = {0, 0}, i;
	struct rp_first_sides s = {.first_mib_s = NAN};
	bool first = false;
	json_t *pass, *pr;

	*out = '\0';
	json_array_foreach(passes, i, pass)
	{
		const char *name =
			json_string_value(json_object_get(pass, RUNNER_K_NAME));
		bool done =
			json_is_true(json_object_get(pass, RUNNER_K_COMPLETE));
		int k = name && !strcmp(name, "rewrite")    ? 0
			: name && !strcmp(name, "recreate") ? 1
							    : -1;

		if (name && !strcmp(name, "reclaim"))
			break; /* the second cycle is the re-warm's */
		if (!done)
			continue;
		if (name && !strcmp(name, "first-write") && !first) {
			first = true;
			s.first_mib_s = pass_num(pass, RUNNER_K_MIB_PER_S);
			pr = json_object_get(pass, RUNNER_K_PAIRED);
			s.paired = json_is_object(pr);
			s.first_s = pass_num(pass, RUNNER_K_SECONDS);
			s.first_bytes = pass_num(pass, RUNNER_K_BYTES);
			s.written_s = pass_num(pr, "written_seconds");
			s.written_bytes = pass_num(pr, "written_bytes");
		} else if (first && k >= 0 && nl[k] < RUNNER_MAX_PASSES) {
			later[k][nl[k]++] = pass_num(pass, RUNNER_K_MIB_PER_S);
		}
	}
	if (!first || (!s.paired && !nl[0] && !nl[1]))
		return;
	s.later_mib_s =
		nl[0] ? rp_median(later[0], nl[0]) : rp_median(later[1], nl[1]);
	rp_penalty_say(out, len, rp_first_time_ratio(&s) - 1,
		       nl[0] || s.paired ? "rewrite" : "recreate");
}

static void summarize(const struct run_state *r, const struct rj_result *res)
{
	json_t *passes = json_object_get(res->runner, RUNNER_K_PASSES), *pass;
	char line[512], pen[128];
	size_t i, len;

	len = (size_t)snprintf(line, sizeof(line), "  provisioned in %.2f s",
			       res->disk.provision_s);
	json_array_foreach(passes, i, pass)
	{
		if (len >= sizeof(line))
			break;
		len += (size_t)snprintf(
			line + len, sizeof(line) - len, ", %s %.1f MiB/s",
			json_string_value(json_object_get(pass, RUNNER_K_NAME)),
			json_real_value(
				json_object_get(pass, RUNNER_K_MIB_PER_S)));
	}
	rep_penalty(pen, sizeof(pen), passes);
	if (*pen && len < sizeof(line))
		snprintf(line + len, sizeof(line) - len, "; %s", pen);
	run_say(r->quiet, "%s", line);
}

/*
 * PROVBENCH_STOP_AT=step: the harness stops itself (SIGSTOP) there, so a
 * test can kill it at exactly that step and prove that `provbench cleanup`
 * then leaves nothing behind. Steps, in order: journaled (the intent is on
 * disk, nothing made yet), created (the disk exists, not yet journaled as
 * such), attached (journaled as created), running (the runner reported
 * progress), destroying (the run is over, the disk not yet removed),
 * destroyed (removed, not yet journaled as such).
 */
void run_stop_at(const char *step)
{
	const char *s = getenv("PROVBENCH_STOP_AT");

	if (s && !strcmp(s, step))
		raise(SIGSTOP);
}

/*
 * The runner's progress: a live line on a terminal, a timestamped line
 * every 30 s in a log.
 */
static void show_progress(const struct pb_run_ctx *ctx, json_t *p)
{
	struct run_worker *w = ctx->arg;
	struct run_state *r = w->r;
	char done[32], total[32];
	uint64_t now = pb_now_ns();

	run_stop_at("running");
	pb_stall_seen(w->stall, p);
	if (r->quiet)
		return;

	/* a runner waiting on mkfs or a command: what it waits on */
	if (json_is_string(json_object_get(p, "waiting"))) {
		if (now < w->next_log && !r->tty)
			return;
		w->next_log = now + 30000000000ull;
		if (r->tty) {
			fprintf(stderr, "\r  %s: waiting on %s\033[K",
				json_string_value(json_object_get(p, "pass")),
				json_string_value(
					json_object_get(p, "waiting")));
			w->progress_shown = true;
		} else {
			run_say(false, "  %s: waiting on %s",
				json_string_value(json_object_get(p, "pass")),
				json_string_value(
					json_object_get(p, "waiting")));
		}
		return;
	}
	pb_size_format(
		done, sizeof(done),
		(uint64_t)json_integer_value(json_object_get(p, "bytes")));
	pb_size_format(
		total, sizeof(total),
		(uint64_t)json_integer_value(json_object_get(p, "total")));
	if (r->tty) {
		fprintf(stderr,
			"\r  %s %lld/%lld: %s / %s, %.1f MiB/s, ETA %.0f "
			"s\033[K",
			json_string_value(json_object_get(p, "pass")),
			json_integer_value(json_object_get(p, "index")) + 1,
			json_integer_value(json_object_get(p, "passes")), done,
			total, json_real_value(json_object_get(p, "mib_per_s")),
			json_number_value(json_object_get(p, "eta_s")));
		w->progress_shown = true;
		return;
	}
	if (now < w->next_log)
		return;
	w->next_log = now + 30000000000ull;
	run_say(false, "  %s: %s / %s, %.1f MiB/s, ETA %.0f s",
		json_string_value(json_object_get(p, "pass")), done, total,
		json_real_value(json_object_get(p, "mib_per_s")),
		json_number_value(json_object_get(p, "eta_s")));
}

/* Arrive at the wave's start line; wait for the others unless told not
 * to (a failed item), or a stop is asked for. Once per worker. */
static void gate_pass(struct run_worker *w, bool wait)
{
	struct run_gate *g = w->gate;

	if (!g || w->at_gate)
		return;
	w->at_gate = true;
	pthread_mutex_lock(&g->mu);
	g->arrived++;
	pthread_cond_broadcast(&g->cv);
	while (wait && g->arrived < g->expected && !run_stop) {
		struct timespec t;

		/* timed: a signal sets the flag without waking us */
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += 200000000;
		if (t.tv_nsec >= 1000000000) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&g->cv, &g->mu, &t);
	}
	pthread_mutex_unlock(&g->mu);
}

/* A journal record, appended and fsynced, whichever worker writes it. */
enum pb_error run_journal_add(struct run_state *r, json_t *e, char *errbuf)
{
	enum pb_error err;

	pthread_mutex_lock(&r->mu);
	err = pb_journal_append(&r->j, e, errbuf);
	pthread_mutex_unlock(&r->mu);
	return err;
}

/* A backend's addition to the disk's journal record ("started"). */
static enum pb_error journal_note(const struct pb_run_ctx *ctx, json_t *fields)
{
	struct run_worker *w = ctx->arg;
	json_t *e = json_deep_copy(fields);
	enum pb_error err;

	if (!e)
		return pb_fail(w->errbuf, PB_ERR_NOMEM, "out of memory");
	json_object_set_new(e, "op", json_string("started"));
	json_object_set_new(e, "id", json_string(ctx->disk_id));
	err = run_journal_add(w->r, e, w->errbuf);
	json_decref(e);
	return err;
}

/* 3h05m, 4m10s, 12s */
static void duration(char *out, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ull;

	if (s >= 3600)
		snprintf(out, len, "%lluh%02llum", (unsigned long long)s / 3600,
			 (unsigned long long)s / 60 % 60);
	else if (s >= 60)
		snprintf(out, len, "%llum%02llus", (unsigned long long)s / 60,
			 (unsigned long long)s % 60);
	else
		snprintf(out, len, "%llus", (unsigned long long)s);
}

/* why a create may take a while, said before the wait */
static const char *create_note(enum pb_mode m)
{
	switch (m) {
	case PB_MODE_EAGER:
		return " (zeroed in full before it is usable: the slow one)";
	case PB_MODE_RDM:
	case PB_MODE_RDMP:
		return " (mapping the LUN)";
	default:
		return "";
	}
}

/* the item's line: where it is in the plan, and the run's pace */
static void say_start(struct run_state *r, size_t idx, uint64_t t_start)
{
	const struct pb_plan_item *it = &r->plan.items[idx];
	const char *tname = r->p->targets[it->target].name;
	/* a worker's lines name its target already */
	const char *tn = run_say_target ? "" : tname;
	char el[32], eta[48] = "";

	/* the whole run's place: elapsed, and what is left at the pace so
	 * far (modes differ, so an estimate, said as one) */
	duration(el, sizeof(el), t_start - r->t0);
	if (idx > r->skipped) {
		char left[32];

		/* at the pace of the items that ran (not those the precision
		 * form skipped) */
		duration(left, sizeof(left),
			 (t_start - r->t0) / (idx - r->skipped) *
				 (r->plan.n - idx));
		/* the precision form's plan is its most: so is what is
		 * left of it */
		snprintf(eta, sizeof(eta), ", %sabout %s left",
			 r->stopped ? "at most " : "", left);
	}
	run_say(r->quiet,
		"[%zu/%zu%s] %s%srepetition %u, %s%s%s (%s elapsed%s)", idx + 1,
		r->plan.n, r->stopped ? " at most" : "", tn, *tn ? ": " : "",
		it->rep, pb_mode_name(it->mode),
		*pb_point_desc(r->p, it->point) ? ", " : "",
		pb_point_desc(r->p, it->point), el, eta);
}

/* One try at an item: its disk from journal to destroyed, the runner in
 * between. What it made and measured, and where it stopped. */
struct attempt {
	struct pb_disk d;
	json_t *runner; /* the runner's document, or NULL */
	const char *step;
	char ebuf[PB_ERRBUF_SIZE];
	bool created;
	/* the run's, the destroy's, the journal's (that one stops the run) */
	enum pb_error err, derr, jerr;
	uint64_t runner_ns, destroy_ns, wait_ns;
	struct pb_stall stall;
};

/* The disk planned, journaled and made; false (a->err) if it was not. */
static bool attempt_create(struct run_worker *wk, size_t idx, struct attempt *a)
{
	struct run_state *r = wk->r;
	const struct pb_plan_item *it = &r->plan.items[idx];
	struct pb_backend *b = r->t[it->target].b;
	json_t *intent = json_object();

	a->d.size = r->p->point_disk[it->point];
	/* the record exists, on disk, before the disk does */
	a->err = b->ops->plan_disk(b, it->mode, (unsigned)idx + 1, &a->d,
				   intent, run_reset_fail(wk->berr));
	if (a->err)
		pb_fail(a->ebuf, a->err, "plan %s disk: %s",
			pb_mode_name(it->mode), wk->berr);
	json_object_set_new(intent, "op", json_string("intent"));
	/* the target is the harness's to write: cleanup compares it */
	json_object_set_new(intent, "target",
			    json_string(b->ops->target_key(b)));
	json_object_set_new(intent, "id", json_string(a->d.id));
	json_object_set_new(intent, "run",
			    json_string(strrchr(r->dir, '/') + 1));
	json_object_set_new(intent, "mode",
			    json_string(pb_mode_name(it->mode)));
	json_object_set_new(intent, "backend", json_string(b->ops->name));
	if (!a->err) {
		a->step = RJ_STEP_JOURNAL;
		a->err = run_journal_add(r, intent, a->ebuf);
		/* no journal, no disk: and none for the items after this */
		if (a->err)
			a->jerr = pb_fail(wk->errbuf, a->err, "%s", a->ebuf);
	}
	json_decref(intent);
	if (a->err)
		return false;
	run_stop_at("journaled");
	run_say(r->quiet, "  creating %s disk%s", pb_mode_name(it->mode),
		a->d.note[0] ? a->d.note : create_note(it->mode));
	a->step = RJ_STEP_CREATE;
	/* a backend whose disks need no making has no op for it */
	a->err = b->ops->create_disk
			 ? b->ops->create_disk(b, &a->d,
					       run_reset_fail(wk->berr))
			 : PB_OK;
	a->created = a->err == PB_OK;
	if (a->err) {
		pb_fail(a->ebuf, a->err, "create %s disk: %s",
			pb_mode_name(it->mode), wk->berr);
		return false;
	}
	{
		json_t *c =
			json_pack("{s:s,s:s,s:s,s:O}", "op", "created", "id",
				  a->d.id, "uuid", a->d.uuid, "readback",
				  a->d.readback ? a->d.readback : json_null());

		run_stop_at("created");
		a->err = run_journal_add(r, c, a->ebuf);
		json_decref(c);
		run_stop_at("attached");
	}
	return !a->err;
}

/* The disk destroyed whatever happened before, and journaled as such. */
static void attempt_destroy(struct run_worker *wk, size_t idx,
			    struct attempt *a)
{
	struct run_state *r = wk->r;
	struct pb_backend *b = r->t[r->plan.items[idx].target].b;
	uint64_t t_destroy = pb_now_ns();

	if (!a->created)
		return;
	run_stop_at("destroying");
	/* nor one to destroy */
	a->derr = b->ops->destroy_disk
			  ? b->ops->destroy_disk(b, &a->d,
						 run_reset_fail(wk->berr))
			  : PB_OK;
	a->destroy_ns = pb_now_ns() - t_destroy;
	if (a->derr) {
		/* the first failure is the one told; a destroy after a
		 * good run is the item's failure */
		if (!a->err) {
			a->step = RJ_STEP_DESTROY;
			pb_fail(a->ebuf, a->derr, "destroy %s: %s", a->d.file,
				wk->berr);
		} else {
			size_t n = strlen(a->ebuf);

			snprintf(a->ebuf + n, sizeof(a->ebuf) - n,
				 "; then destroy %s: %s", a->d.file, wk->berr);
		}
		return;
	}
	run_stop_at("destroyed");
	{
		json_t *x = json_pack("{s:s,s:s}", "op", "destroyed", "id",
				      a->d.id);

		a->derr = run_journal_add(r, x, a->ebuf);
		json_decref(x);
	}
}

/*
 * A stalled runner's own side of the diagnostics, beside what the
 * backend kept: the last progress it gave, and the partial document it
 * wrote (a guest killed mid-pass writes none).
 */
static void keep_stall(const struct attempt *a, const char *diag)
{
	char path[PATH_MAX + 32];

	if (mkdir(diag, 0755) && errno != EEXIST)
		return;
	if (a->stall.last) {
		snprintf(path, sizeof(path), "%s/progress.json", diag);
		json_dump_file(a->stall.last, path, JSON_INDENT(1));
	}
	snprintf(path, sizeof(path), "%s/runner.json", diag);
	if (a->runner)
		json_dump_file(a->runner, path, JSON_INDENT(1));
}

/* One try: create, run, collect, destroy. */
static void attempt_run(struct run_worker *wk, size_t idx, struct attempt *a,
			const char *diag)
{
	struct run_state *r = wk->r;
	const struct pb_plan_item *it = &r->plan.items[idx];
	const struct runner_opts *w = &r->p->points[it->point];
	struct pb_backend *b = r->t[it->target].b;
	struct pb_run_ctx ctx = {
		.stop = &run_stop,
		.progress = show_progress,
		.arg = wk,
		.command = pb_workload_has_command(w) ? r->p->command : NULL,
		.journal = journal_note,
		.disk_id = a->d.id,
		.stall = &a->stall,
		.diag_dir = diag,
	};
	struct pb_buf args = PB_BUF_INIT(4096);
	char local[1200];
	uint64_t t_wait, t_run;

	a->step = RJ_STEP_PLAN; /* where a failure happened */
	attempt_create(wk, idx, a);
	/* the wave starts its runners together; an item that failed
	 * before arrives without waiting, so the others go on */
	t_wait = pb_now_ns();
	gate_pass(wk, !a->err);
	a->wait_ns = pb_now_ns() - t_wait;
	if (!a->err && run_stop)
		a->err = PB_ERR_INTERRUPTED;
	if (!a->err) {
		a->step = RJ_STEP_RUN;
		a->err = pb_workload_args(&args, w, r->plan.seed + idx);
	}
	if (!a->err) {
		snprintf(local, sizeof(local), "%s/runner-%zu.json", r->dir,
			 idx + 1);
		wk->stall = &a->stall;
		pb_stall_start(&a->stall, (double)r->p->stall_s);
		t_run = pb_now_ns();
		a->err = b->ops->run(b, &a->d, args.data, r->p->timeout_s, &ctx,
				     local, run_reset_fail(wk->berr));
		a->runner_ns = pb_now_ns() - t_run;
		wk->stall = NULL;
		if (a->err)
			pb_fail(a->ebuf, a->err, "%s", wk->berr);
		a->runner = json_load_file(local, 0, NULL);
		if (a->err == PB_ERR_STALLED)
			keep_stall(a, diag);
		remove(local); /* its content lives on in run.json */
	}
	pb_buf_dispose(&args);
	/* the disk goes, whatever happened above */
	attempt_destroy(wk, idx, a);
}

static void attempt_dispose(struct attempt *a)
{
	json_decref(a->d.readback);
	json_decref(a->runner);
	pb_stall_dispose(&a->stall);
	memset(a, 0, sizeof(*a));
}

/*
 * One plan item: a try, and when its runner stalled (a guest that hung,
 * a device that stopped completing requests) one more on a new disk,
 * said as such: the first stall's diagnostics are kept and named, a
 * second fails the item naming its own.
 */
enum pb_error run_item(struct run_worker *wk, size_t idx)
{
	struct run_state *r = wk->r;
	const struct pb_plan_item *it = &r->plan.items[idx];
	const char *tname = r->p->targets[it->target].name;
	struct attempt a;
	enum rj_status status = RJ_STATUS_OK;
	char diag[2][1200], retried[PB_ERRBUF_SIZE] = "";
	uint64_t t_start = pb_now_ns();
	struct timespec now;
	int64_t started_unix;
	struct rj_result res;
	enum pb_error err;
	unsigned k;

	memset(&a, 0, sizeof(a));
	/* while targets run at once, each line names its own */
	run_say_target = r->p->concurrency > 1 && r->nt > 1 ? tname : NULL;
	clock_gettime(CLOCK_REALTIME, &now);
	started_unix = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	say_start(r, idx, t_start);
	for (k = 0; k < 2; k++) {
		snprintf(diag[k], sizeof(diag[k]), "%s/runner-%zu.stall%s",
			 r->dir, idx + 1, k ? "-2" : "");
		attempt_run(wk, idx, &a, diag[k]);
		if (a.err != PB_ERR_STALLED || a.derr || a.jerr || run_stop ||
		    k)
			break;
		snprintf(retried, sizeof(retried), "%s", a.ebuf);
		/* the backend's words name what it kept */
		run_say(r->quiet, "  %s; repetition %u again on a new disk",
			a.ebuf, it->rep);
		attempt_dispose(&a);
	}
	if (a.err == PB_ERR_STALLED && k) {
		size_t n = strlen(a.ebuf);

		snprintf(a.ebuf + n, sizeof(a.ebuf) - n,
			 "; stalled twice (the first: %s)",
			 pb_path_base(diag[0]));
	}
	pthread_mutex_lock(&r->mu);
	if (a.err == PB_ERR_INTERRUPTED || run_stop) {
		status = RJ_STATUS_INTERRUPTED;
		r->interrupted = true;
	} else if (a.err == PB_ERR_UNSUPPORTED && !a.created && !a.derr) {
		/* the backend cannot make this mode here (rdm without
		 * root): said in the report, not a failure of the run */
		status = RJ_STATUS_SKIPPED;
	} else if (a.err || a.derr) {
		status = RJ_STATUS_FAILED;
		r->failed++;
	} else {
		r->measured++;
	}
	res = (struct rj_result){
		.target = it->target,
		.wave = it->wave,
		.rep = it->rep,
		.mode = it->mode,
		.point = it->point,
		.workload = pb_point_desc(r->p, it->point),
		.status = status,
		.error = a.ebuf,
		.step = a.step,
		.retried = retried[0] ? retried : NULL,
		.retried_diagnostics =
			retried[0] ? pb_path_base(diag[0]) : NULL,
		.disk = {.id = a.d.id,
			 .file = a.d.file,
			 .uuid = a.d.uuid,
			 .provision_s = a.d.provision_s,
			 .provision_source = a.d.provision_source,
			 .provision_wall_s = a.d.provision_wall_s,
			 .readback = a.d.readback},
		/* where the time went: what is neither provisioning nor
		 * the runner is the harness's own overhead */
		.timing = {.total_s = (double)(pb_now_ns() - t_start) / 1e9,
			   .provision_s = a.d.provision_s,
			   .runner_s = (double)a.runner_ns / 1e9,
			   .destroy_s = (double)a.destroy_ns / 1e9,
			   .wave_wait_s = (double)a.wait_ns / 1e9,
			   .started_unix_ns = started_unix},
		.runner = a.runner,
	};
	a.runner = NULL; /* rj_doc_add_result steals it */
	err = rj_doc_add_result(r->doc, &res) ? PB_OK : PB_ERR_NOMEM;
	if (err)
		pb_fail(wk->errbuf, err, "run.json: out of memory");
	else
		err = run_results_save(r, wk->errbuf);
	pthread_mutex_unlock(&r->mu);
	if (wk->progress_shown) {
		fprintf(stderr, "\r\033[K");
		wk->progress_shown = false;
	}
	if (status == RJ_STATUS_OK)
		summarize(r, &res);
	else if (status == RJ_STATUS_FAILED && r->quiet)
		/* quiet keeps a cron mail empty unless something failed:
		 * then it says what, where and why, in one line */
		fprintf(stderr,
			"provbench: run: %s%s%s, repetition %u%s%s: %s\n",
			tname, *tname ? ": " : "", pb_mode_name(it->mode),
			it->rep, *pb_point_desc(r->p, it->point) ? ", " : "",
			pb_point_desc(r->p, it->point), a.ebuf);
	else
		run_say(r->quiet, "  %s: %s", rj_status_name(status), a.ebuf);
	/* a disk that could not be destroyed stops the run: the journal
	 * keeps it for cleanup, and nothing more is piled on the VM; so
	 * does a run.json that cannot be saved. The item's own failure is
	 * in run.json: the run goes on */
	err = a.derr ? a.derr : a.jerr ? a.jerr : err;
	attempt_dispose(&a);
	return err;
}
