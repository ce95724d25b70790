/*
 * item.c - one plan item: journal the disk, create it (timed), run the
 * runner against it with its progress shown, collect its JSON, destroy
 * the disk whatever happened, journal that, and record the result in
 * run.json. PROVBENCH_STOP_AT stops the harness at a named step, for the
 * tests that kill it there.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run_int.h"

static void summarize(const struct run_state *r, const struct rj_result *res)
{
	json_t *passes = json_object_get(res->runner, RUNNER_K_PASSES), *pass;
	char line[512];
	size_t i, len;

	len = (size_t)snprintf(line, sizeof(line), "  provisioned in %.2f s",
			       res->disk.provision_s);
	json_array_foreach(passes, i, pass)
	{
		json_t *pen =
			json_object_get(json_object_get(pass, RUNNER_K_PAIRED),
					RUNNER_K_PENALTY);

		if (len >= sizeof(line))
			break;
		len += (size_t)snprintf(
			line + len, sizeof(line) - len, ", %s %.1f MiB/s",
			json_string_value(json_object_get(pass, RUNNER_K_NAME)),
			json_real_value(
				json_object_get(pass, RUNNER_K_MIB_PER_S)));
		/* a paired first write's own penalty: its stripes' rate
		 * alone is not to be set against the rewrites' */
		if (json_is_number(pen) && len < sizeof(line))
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						" (penalty %.0f%% in pairs)",
						json_number_value(pen) * 100);
	}
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
	if (r->quiet)
		return;

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

/* One plan item: journal, create, run, collect, destroy, journal. */
enum pb_error run_item(struct run_worker *wk, size_t idx)
{
	struct run_state *r = wk->r;
	const struct pb_plan_item *it = &r->plan.items[idx];
	const struct runner_opts *w = &r->p->points[it->point];
	struct pb_backend *b = r->t[it->target].b;
	const char *tname = r->p->targets[it->target].name;
	struct pb_disk d;
	struct pb_run_ctx ctx = {
		.stop = &run_stop,
		.progress = show_progress,
		.arg = wk,
		.command = pb_workload_has_command(w) ? r->p->command : NULL,
		.journal = journal_note,
	};
	struct pb_buf args = PB_BUF_INIT(4096);
	char local[1200], ebuf[PB_ERRBUF_SIZE] = "";
	json_t *intent = json_object(), *runner = NULL;
	enum pb_error err, derr = PB_OK, jerr = PB_OK;
	const char *step = RJ_STEP_PLAN; /* where a failure happened */
	bool created = false;
	enum rj_status status = RJ_STATUS_OK;
	uint64_t t_start, t_run, t_wait, runner_ns = 0, destroy_ns = 0;
	uint64_t wait_ns;
	struct timespec now;
	int64_t started_unix;
	struct rj_result res;

	/* while targets run at once, each line names its own */
	run_say_target = r->p->concurrency > 1 && r->nt > 1 ? tname : NULL;
	memset(&d, 0, sizeof(d));
	d.size = r->p->point_disk[it->point];
	ctx.disk_id = d.id;
	t_start = pb_now_ns();
	clock_gettime(CLOCK_REALTIME, &now);
	started_unix = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	{
		/* the whole run's place: elapsed, and what is left at the
		 * pace so far (modes differ, so an estimate, said as one) */
		char el[32], eta[48] = "";

		duration(el, sizeof(el), t_start - r->t0);
		if (idx) {
			char left[32];

			duration(left, sizeof(left),
				 (t_start - r->t0) / idx * (r->plan.n - idx));
			snprintf(eta, sizeof(eta), ", about %s left", left);
		}
		/* a worker's lines name its target already */
		const char *tn = run_say_target ? "" : tname;

		run_say(r->quiet,
			"[%zu/%zu] %s%srepetition %u, %s%s%s (%s elapsed%s)",
			idx + 1, r->plan.n, tn, *tn ? ": " : "", it->rep,
			pb_mode_name(it->mode),
			*pb_point_desc(r->p, it->point) ? ", " : "",
			pb_point_desc(r->p, it->point), el, eta);
	}
	/* the record exists, on disk, before the disk does */
	err = b->ops->plan_disk(b, it->mode, (unsigned)idx + 1, &d, intent,
				run_reset_fail(wk->berr));
	if (err)
		pb_fail(ebuf, err, "plan %s disk: %s", pb_mode_name(it->mode),
			wk->berr);
	json_object_set_new(intent, "op", json_string("intent"));
	/* the target is the harness's to write: cleanup compares it */
	json_object_set_new(intent, "target",
			    json_string(b->ops->target_key(b)));
	json_object_set_new(intent, "id", json_string(d.id));
	json_object_set_new(intent, "run",
			    json_string(strrchr(r->dir, '/') + 1));
	json_object_set_new(intent, "mode",
			    json_string(pb_mode_name(it->mode)));
	json_object_set_new(intent, "backend", json_string(b->ops->name));
	if (!err) {
		step = RJ_STEP_JOURNAL;
		err = run_journal_add(r, intent, ebuf);
		/* no journal, no disk: and none for the items after this */
		if (err)
			jerr = pb_fail(wk->errbuf, err, "%s", ebuf);
	}
	json_decref(intent);
	if (!err) {
		run_stop_at("journaled");
		run_say(r->quiet, "  creating %s disk%s",
			pb_mode_name(it->mode),
			d.note[0] ? d.note : create_note(it->mode));
		step = RJ_STEP_CREATE;
		err = b->ops->create_disk(b, &d, run_reset_fail(wk->berr));
		created = err == PB_OK;
		if (err)
			pb_fail(ebuf, err, "create %s disk: %s",
				pb_mode_name(it->mode), wk->berr);
	}
	if (created) {
		json_t *c = json_pack("{s:s,s:s,s:s,s:O}", "op", "created",
				      "id", d.id, "uuid", d.uuid, "readback",
				      d.readback ? d.readback : json_null());

		run_stop_at("created");
		err = run_journal_add(r, c, ebuf);
		json_decref(c);
		run_stop_at("attached");
	}
	/* the wave starts its runners together; an item that failed
	 * before arrives without waiting, so the others go on */
	t_wait = pb_now_ns();
	gate_pass(wk, !err);
	wait_ns = pb_now_ns() - t_wait;
	if (!err && run_stop)
		err = PB_ERR_INTERRUPTED;
	if (!err) {
		step = RJ_STEP_RUN;
		err = pb_workload_args(&args, w, r->plan.seed + idx);
	}
	if (!err) {
		snprintf(local, sizeof(local), "%s/runner-%zu.json", r->dir,
			 idx + 1);
		t_run = pb_now_ns();
		err = b->ops->run(b, &d, args.data, r->p->timeout_s, &ctx,
				  local, run_reset_fail(wk->berr));
		runner_ns = pb_now_ns() - t_run;
		if (err)
			pb_fail(ebuf, err, "%s", wk->berr);
		runner = json_load_file(local, 0, NULL);
		remove(local); /* its content lives on in run.json */
	}
	pb_buf_dispose(&args);
	/* the disk goes, whatever happened above */
	if (created) {
		uint64_t t_destroy = pb_now_ns();

		run_stop_at("destroying");
		derr = b->ops->destroy_disk(b, &d, run_reset_fail(wk->berr));
		destroy_ns = pb_now_ns() - t_destroy;
		if (!derr)
			run_stop_at("destroyed");
		if (derr) {
			/* the first failure is the one told; a destroy
			 * after a good run is the item's failure */
			if (!err) {
				step = RJ_STEP_DESTROY;
				pb_fail(ebuf, derr, "destroy %s: %s", d.file,
					wk->berr);
			} else {
				size_t n = strlen(ebuf);

				snprintf(ebuf + n, sizeof(ebuf) - n,
					 "; then destroy %s: %s", d.file,
					 wk->berr);
			}
		} else {
			json_t *x = json_pack("{s:s,s:s}", "op", "destroyed",
					      "id", d.id);

			derr = run_journal_add(r, x, ebuf);
			json_decref(x);
		}
	}
	pthread_mutex_lock(&r->mu);
	if (err == PB_ERR_INTERRUPTED || run_stop) {
		status = RJ_STATUS_INTERRUPTED;
		r->interrupted = true;
	} else if (err == PB_ERR_UNSUPPORTED && !created && !derr) {
		/* the backend cannot make this mode here (rdm without
		 * root): said in the report, not a failure of the run */
		status = RJ_STATUS_SKIPPED;
	} else if (err || derr) {
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
		.error = ebuf,
		.step = step,
		.disk = {.id = d.id,
			 .file = d.file,
			 .uuid = d.uuid,
			 .provision_s = d.provision_s,
			 .provision_source = d.provision_source,
			 .provision_wall_s = d.provision_wall_s,
			 .readback = d.readback},
		/* where the time went: what is neither provisioning nor
		 * the runner is the harness's own overhead */
		.timing = {.total_s = (double)(pb_now_ns() - t_start) / 1e9,
			   .provision_s = d.provision_s,
			   .runner_s = (double)runner_ns / 1e9,
			   .destroy_s = (double)destroy_ns / 1e9,
			   .wave_wait_s = (double)wait_ns / 1e9,
			   .started_unix_ns = started_unix},
		.runner = runner,
	};
	err = rj_doc_add_result(r->doc, &res) ? PB_OK : PB_ERR_NOMEM;
	if (err)
		pb_fail(wk->errbuf, err, "run.json: out of memory");
	else
		err = run_results_save(r, wk->errbuf);
	pthread_mutex_unlock(&r->mu);
	json_decref(d.readback);
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
			pb_point_desc(r->p, it->point), ebuf);
	else
		run_say(r->quiet, "  %s: %s", rj_status_name(status), ebuf);
	/* a disk that could not be destroyed stops the run: the journal
	 * keeps it for cleanup, and nothing more is piled on the VM */
	return derr ? derr : jerr ? jerr : err;
}
