/*
 * run.c - what `provbench run` does (its command line is
 * harness/cli/cmd_run.c): load the profile, build the plan, open every
 * target's backend, take the locks, clean what an earlier crashed run
 * left, prepare, start the results, run the plan's waves (waves.c, each
 * item item.c's), finish run.json and write the report. A profile's
 * targets opened and closed are targets.c's, shared with `check`
 * (check.c) and `cleanup` (cleanup.c); the plan is plan.c's, the journal
 * journal.c's, the locks lock.c's, the results directory results.c's,
 * what is said say.c's.
 *
 * A signal that stops the run is signals.c's.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cost.h"
#include "run_int.h"
#include "report.h"

/* prepare's journal (struct pb_prep_ctx): its entries are the target's */
struct prep_arg {
	struct run_state *r;
	unsigned t;
};

static enum pb_error run_journal_begin(const struct pb_prep_ctx *c,
				       const char *id, json_t *fields,
				       char *errbuf)
{
	const struct prep_arg *a = c->arg;
	struct run_state *r = a->r;
	json_t *e = json_deep_copy(fields);
	enum pb_error err;

	if (!e)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	json_object_set_new(e, "op", json_string("intent"));
	json_object_set_new(
		e, "target",
		json_string(r->t[a->t].b->ops->target_key(r->t[a->t].b)));
	json_object_set_new(e, "id", json_string(id));
	json_object_set_new(e, "backend", json_string(r->t[a->t].b->ops->name));
	err = run_journal_add(r, e, errbuf);
	json_decref(e);
	return err;
}

static enum pb_error run_journal_end(const struct pb_prep_ctx *c,
				     const char *id, char *errbuf)
{
	const struct prep_arg *a = c->arg;
	json_t *e = json_pack("{s:s,s:s}", "op", "done", "id", id);
	enum pb_error err;

	if (!e)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	err = run_journal_add(a->r, e, errbuf);
	json_decref(e);
	return err;
}

/*
 * Before the first item: what an earlier crashed run left goes first,
 * then the locks, everything check checks (a problem found after a power
 * cycle has cost the lab its VM for nothing), each target prepared, and
 * the results directory started.
 */
static enum pb_error run_start(struct run_state *r, const char *parent,
			       unsigned *leftovers)
{
	const char *why = NULL;
	enum pb_error err;
	unsigned t;

	err = run_state_open(r, true);
	r->shared = json_array();
	if (!err)
		err = run_places_lock(r, r->errbuf);
	if (!err)
		err = run_recover_all(r, NULL, false, r->quiet, leftovers);
	if (!err)
		err = run_places_foreign(r, r->errbuf);
	if (!err && !r->quiet)
		pb_notes_print(stderr, r->p->notes);
	/* everything check checks, before anything is changed: a problem
	 * found after a power cycle has cost the lab its VM for nothing */
	if (!err) {
		struct pb_check_out out = {.fp = stderr, .run = true};

		err = run_check_all(r, &out, &why);
		if (err)
			pb_fail(r->errbuf, err, "%s", why);
	}
	/* prepared first: what it finds (the accelerator a probe boot
	 * chose, say) belongs in the environment run.json records */
	for (t = 0; !err && t < r->nt; t++) {
		struct prep_arg pa = {r, t};
		struct pb_prep_ctx c = {.begin = run_journal_begin,
					.end = run_journal_end,
					.step = run_stop_at,
					.arg = &pa};

		/* a backend with nothing to prepare has no op for it */
		if (!r->t[t].b->ops->prepare)
			continue;
		err = r->t[t].b->ops->prepare(r->t[t].b, &c,
					      run_reset_fail(r->berr));
		if (err)
			pb_fail(r->errbuf, err, "%s",
				run_target_msg(r, t, r->berr));
	}
	if (!err)
		err = run_results_start(r, parent);
	if (!err)
		err = run_adaptive_start(r);
	return err;
}

/* The run's exit code: 128 + the signal that stopped it, the error, or
 * partial (4) when some items failed and others were measured. */
static int run_exit_code(struct run_state *r, enum pb_error err)
{
	int rc = PB_EXIT_OK;

	if (r->interrupted && run_stop) {
		char by[128];

		/* the shell's convention: 128 + the signal (130 for ^C) */
		snprintf(by, sizeof(by),
			 "interrupted by %s; partial results kept",
			 run_signal_name(run_stop));
		pb_cli_fail(PB_ERR_INTERRUPTED, "run", by);
		rc = 128 + run_stop;
	} else if (r->interrupted) {
		rc = pb_cli_fail(PB_ERR_INTERRUPTED, "run",
				 "interrupted; partial results kept");
	} else if (err)
		rc = pb_cli_fail(err, "run", r->errbuf);
	else if (r->failed) {
		char what[1300];

		/* partial (exit 4) when something was measured; failed when
		 * nothing was */
		snprintf(what, sizeof(what),
			 "%u of %zu item(s) failed%s; see %s", r->failed,
			 r->plan.n, r->measured ? ", the rest measured" : "",
			 r->json_saved ? r->run_json : "the messages above");
		rc = pb_cli_fail(r->measured ? PB_ERR_INCOMPLETE : PB_ERR_IO,
				 "run", what);
	}
	return rc;
}

/* The report, rebuilt from run.json alone (as it can be later), the
 * results' latest link, and run.json's path on stdout. */
static int run_report(struct run_state *r, int rc)
{
	if (r->json_saved &&
	    json_array_size(json_object_get(r->doc, RJ_K_RESULTS))) {
		/* the report is rebuilt from run.json alone, also later */
		struct rp_opts ro = RP_OPTS_INIT;
		char rerr[PB_ERRBUF_SIZE] = "";
		bool reg;

		ro.results_dir = r->dir;
		ro.quiet = r->quiet;
		ro.color = pb_want_color(STDOUT_FILENO);
		if (rp_generate(&ro, &reg, rerr)) {
			pb_error_print("provbench", "report", rerr);
			/* the measurements are kept; the run still failed */
			if (!rc)
				rc = PB_EXIT_FAILED;
		} else if (!r->quiet) {
			printf("report: %s/report.html, report.csv, "
			       "summary.csv\n",
			       r->dir);
		}
	}
	if (r->json_saved)
		run_results_latest(r);
	/* the results' paths are the command's output (stdout); a file
	 * that failed to be written is never named as written */
	if (r->json_saved && !r->quiet)
		printf("run.json: %s\n", r->run_json);
	return rc;
}

int pb_run(const struct pb_run_args *a)
{
	struct pb_profile p;
	struct run_state r = {.p = &p, .j = {.fd = -1}};
	const char *parent = a->out_dir ? a->out_dir : "results";
	const char *why = NULL;
	unsigned leftovers[2] = {0, 0};
	enum pb_error err = PB_OK;
	int rc;

	memset(&p, 0, sizeof(p));
	r.results = parent;
	r.quiet = a->quiet;
	run_say_quiet(a->quiet);
	/* a live line is one item's: not while several run at once */
	r.tty = isatty(STDERR_FILENO);
	pthread_mutex_init(&r.mu, NULL);
	run_signals_catch();
	err = pb_plan_shard_resolve(&r.shard, &r.nshards, a->shard,
				    a->shard_count, r.errbuf);
	if (err) {
		rc = pb_cli_fail(err, NULL, r.errbuf);
		goto out;
	}
	err = run_results_root_check(parent, r.errbuf);
	if (err) {
		rc = pb_cli_fail(err, "run", r.errbuf);
		goto out;
	}
	r.plan_first = a->dry_run;
	r.say_plan = !a->dry_run;
	rc = run_profile_load(&r, a->profile, a->modes, a->targets);
	if (rc)
		goto out;
	/* a scheduler may start more shares than there are targets */
	if (r.nshards && !p.ntargets) {
		fprintf(stderr,
			"provbench: run: shard %u/%u: none of the profile's "
			"targets falls to it; nothing to do\n",
			r.shard, r.nshards);
		goto out;
	}
	if (a->dry_run) {
		struct pb_check_out out = {.fp = stdout};

		err = run_check_all(&r, &out, &why);
		if (err)
			rc = pb_cli_fail(err, "check", why);
		else
			printf("dry run: ok, nothing was created\n");
		goto out;
	}
	err = pb_plan_confirm(&p, &r.plan, a->yes, r.errbuf);
	if (err) {
		rc = pb_cli_fail(err, "run", r.errbuf);
		goto out;
	}
	err = run_start(&r, parent, leftovers);
	if (!err)
		run_say(r.quiet, "results: %s", r.dir);
	r.t0 = pb_now_ns();
	if (p.concurrency > 1 && r.nt > 1)
		r.tty = false;
	if (!err)
		err = run_waves(&r);
	if (r.stopped && !err && !run_stop)
		run_say(r.quiet,
			"precision form: %zu of the plan's %zu disks made; the "
			"rest were not needed",
			r.plan.n - r.skipped, r.plan.n);
	if (run_stop)
		r.interrupted = true;
	/* what stopped it, for whoever reads the run later (an ssh session
	 * that dropped is not a person's ^C) */
	if (run_stop && r.doc)
		json_object_set_new(r.doc, RJ_K_INTERRUPTED_BY,
				    json_string(run_signal_name(run_stop)));
	if (r.doc) {
		rj_doc_finish(r.doc);
		if (run_results_save(&r, r.errbuf) && !err)
			err = PB_ERR_IO;
	}
	rc = run_exit_code(&r, err);
	rc = run_report(&r, rc);
out:
	run_dispose(&r);
	pthread_mutex_destroy(&r.mu);
	return rc;
}
