/*
 * run.c - what `provbench run` does (its command line is
 * harness/cli/cmd_run.c): load the profile, build the plan, open every
 * target's backend, take the locks, clean what an earlier crashed run
 * left, prepare, start the results, run the plan's waves (waves.c, each
 * item item.c's), finish run.json and write the report. `check` is
 * check.c's, `cleanup` cleanup.c's; the journal is journal.c's, the locks
 * lock.c's, the results directory results.c's, what is said say.c's.
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

/* A backend's message, the target named when there are several. */
const char *run_target_msg(struct run_state *r, unsigned t, const char *msg)
{
	if (r->p->ntargets < 2)
		return msg;
	snprintf(r->tmsg, sizeof(r->tmsg), "target %s: %s",
		 r->p->targets[t].name, msg);
	return r->tmsg;
}

static bool kv_same(const struct pb_kv *a, const struct pb_kv *b)
{
	unsigned i, k;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++) {
		for (k = 0; k < b->n && strcmp(a->key[i], b->key[k]); k++)
			;
		if (k == b->n || strcmp(a->val[i], b->val[k]))
			return false;
	}
	return true;
}

/*
 * Two arms of a settings A/B on one place (a VM): a backend that sets a
 * VM up once, before the run, cannot give it two configurations; each
 * arm needs its own VM, or its own run. A backend that starts a guest per
 * item (qemu) applies each item's own.
 */
enum pb_error run_arms_check(struct run_state *r)
{
	const struct pb_profile *p = r->p;
	const struct pb_opt_def *d;
	unsigned t, k;

	for (t = 1; t < r->nt; t++) {
		const struct pb_backend_ops *ops = r->t[t].b->ops;

		if (ops->caps & PB_CAP_SETTINGS_PER_ITEM)
			continue;
		for (k = 0; k < t; k++) {
			const char *what = NULL;

			if (r->t[k].b->ops != ops ||
			    strcmp(ops->target_key(r->t[t].b),
				   ops->target_key(r->t[k].b)))
				continue;
			if (!kv_same(pb_target_sysctl(p, t),
				     pb_target_sysctl(p, k)))
				what = "guest_sysctl";
			for (d = ops->options; !what && d && d->key; d++)
				if (d->setting &&
				    !json_equal(
					    json_object_get(p->targets[t].spec,
							    d->key),
					    json_object_get(p->targets[k].spec,
							    d->key)) &&
				    (json_object_get(p->targets[t].spec,
						     d->key) ||
				     json_object_get(p->targets[k].spec,
						     d->key)))
					what = d->key;
			if (what)
				return pb_fail(
					r->errbuf, PB_ERR_INPUT,
					"targets '%s' and '%s' are one %s "
					"place "
					"with a different %s: it is set once, "
					"before the run; give each arm its own "
					"VM (a clone), or run each arm on its "
					"own and compare them (report -c)",
					p->targets[k].name, p->targets[t].name,
					ops->name, what);
		}
	}
	return PB_OK;
}

/* The first target before t with target t's key, or t itself. */
unsigned run_same_key(const struct run_state *r, unsigned t)
{
	const char *key = r->t[t].b->ops->target_key(r->t[t].b);
	unsigned k;

	for (k = 0; k < t && strcmp(r->t[k].b->ops->target_key(r->t[k].b), key);
	     k++)
		;
	return k;
}

/*
 * "concurrency" as this controller can keep it: above what the backend
 * can run at once without its guests competing (qemu: the host's cores),
 * lowered, said, and the plan made again for it (same seed), so what
 * run.json records and the report says is what ran.
 */
enum pb_error run_limit_at_once(struct run_state *r)
{
	unsigned cap = PB_MAX_TARGETS, t, n;

	if (r->p->concurrency < 2 || r->nt < 2)
		return PB_OK;
	for (t = 0; t < r->nt; t++) {
		n = r->t[t].b->ops->at_once ? r->t[t].b->ops->at_once(r->t[t].b)
					    : 0;
		if (n && n < cap)
			cap = n;
	}
	if (r->p->concurrency <= cap)
		return PB_OK;
	fprintf(stderr,
		"provbench: %s: concurrency %u: this machine runs at most %u "
		"of its guests at once without them sharing a core; %u it "
		"is\n",
		r->p->path, r->p->concurrency, cap, cap);
	r->p->concurrency = cap;
	r->p->seed = r->plan.seed;
	r->p->seed_set = true;
	pb_plan_dispose(&r->plan);
	return pb_plan_build(&r->plan, r->p, r->errbuf);
}

/* Load, plan, connect and check: what run --dry-run and check share. */
/* Plan and open the backend for the profile r->p, loaded by the caller. */
int run_profile_open(struct run_state *r, enum pb_error err, const char *modes,
		     const char *targets)
{
	if (!err && modes)
		err = pb_plan_filter_modes(r->p, modes, r->errbuf);
	if (!err && targets)
		err = pb_plan_filter_targets(r->p, targets, r->errbuf);
	if (!err && r->nshards)
		pb_plan_filter_shard(r->p, r->shard, r->nshards);
	if (!err)
		err = pb_plan_build(&r->plan, r->p, r->errbuf);
	if (err)
		return pb_cli_fail(err, NULL, r->errbuf);
	/* the plan first, then what is missing to run it: a lab sees what
	 * a profile costs before it has every setting */
	if (r->plan_first)
		run_plan_print(r->p, &r->plan, r->results);
	err = pb_profile_settle(r->p, r->errbuf);
	if (err)
		return pb_cli_fail(err, NULL, r->errbuf);
	r->ops = r->p->backend;
	for (r->nt = 0; r->nt < r->p->ntargets; r->nt++) {
		r->t[r->nt].lock_fd = -1;
		err = run_target_open(r, r->nt);
		if (err)
			return pb_cli_fail(err, r->p->path,
					   run_target_msg(r, r->nt, r->errbuf));
	}
	err = run_limit_at_once(r);
	if (!err)
		err = run_arms_check(r);
	return err ? pb_cli_fail(err, NULL, r->errbuf) : PB_EXIT_OK;
}

/* What crashed runs left, on every target (each key once). */
enum pb_error run_recover_all(struct run_state *r, const char *run_id, bool dry,
			      bool quiet, unsigned count[2])
{
	enum pb_error err = PB_OK;
	unsigned t, n[2];

	count[0] = count[1] = 0;
	for (t = 0; !err && t < r->nt; t++) {
		if (run_same_key(r, t) != t)
			continue;
		err = pb_journal_recover(r->t[t].b->ops, r->t[t].b, &r->j,
					 r->state, run_id, dry, quiet, n,
					 r->errbuf);
		count[0] += n[0];
		count[1] += n[1];
	}
	return err;
}

int run_profile_load(struct run_state *r, const char *path, const char *modes,
		     const char *targets)
{
	return run_profile_open(r, pb_profile_load(r->p, path, r->errbuf),
				modes, targets);
}

void run_dispose(struct run_state *r)
{
	unsigned t;

	for (t = 0; t < r->nt; t++) {
		if (r->t[t].b)
			r->t[t].b->ops->close(r->t[t].b);
		if (r->t[t].lock_fd >= 0)
			close(r->t[t].lock_fd);
	}
	pb_journal_close(&r->j);
	for (t = 0; t < r->nplaces; t++)
		close(r->place_fd[t]);
	json_decref(r->shared);
	json_decref(r->doc);
	pb_plan_dispose(&r->plan);
	pb_profile_dispose(r->p);
}

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

int pb_run(const struct pb_run_args *a)
{
	struct pb_profile p;
	struct run_state r = {.p = &p, .j = {.fd = -1}};
	const char *parent = a->out_dir ? a->out_dir : "results";
	const char *why = NULL;
	unsigned leftovers[2] = {0, 0}, t;
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
	r.plan_first = a->dry_run;
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
	/* what the run will write, before any server is reached */
	{
		char cost[256];

		run_plan_cost_line(cost, sizeof(cost), &p, &r.plan, parent);
		run_say(r.quiet, "plan: %zu disks; %s", r.plan.n, cost);
	}
	err = pb_plan_confirm(&p, &r.plan, a->yes, r.errbuf);
	if (err) {
		rc = pb_cli_fail(err, "run", r.errbuf);
		goto out;
	}
	/* what an earlier crashed run left goes first */
	err = run_state_open(&r, true);
	r.shared = json_array();
	if (!err)
		err = run_places_lock(&r, r.errbuf);
	if (!err)
		err = run_recover_all(&r, NULL, false, r.quiet, leftovers);
	if (!err)
		err = run_places_foreign(&r, r.errbuf);
	if (!err && !r.quiet)
		pb_notes_print(stderr, p.notes);
	/* everything check checks, before anything is changed: a problem
	 * found after a power cycle has cost the lab its VM for nothing */
	if (!err) {
		struct pb_check_out out = {.fp = stderr, .run = true};

		err = run_check_all(&r, &out, &why);
		if (err)
			pb_fail(r.errbuf, err, "%s", why);
	}
	/* prepared first: what it finds (the accelerator a probe boot
	 * chose, say) belongs in the environment run.json records */
	for (t = 0; !err && t < r.nt; t++) {
		struct prep_arg pa = {&r, t};
		struct pb_prep_ctx c = {.begin = run_journal_begin,
					.end = run_journal_end,
					.step = run_stop_at,
					.arg = &pa};

		err = r.t[t].b->ops->prepare(r.t[t].b, &c,
					     run_reset_fail(r.berr));
		if (err)
			pb_fail(r.errbuf, err, "%s",
				run_target_msg(&r, t, r.berr));
	}
	if (!err)
		err = run_results_start(&r, parent);
	if (!err)
		run_say(r.quiet, "results: %s", r.dir);
	r.t0 = pb_now_ns();
	if (p.concurrency > 1 && r.nt > 1)
		r.tty = false;
	if (!err)
		err = run_waves(&r);
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
	if (r.interrupted && run_stop) {
		char by[128];

		/* the shell's convention: 128 + the signal (130 for ^C) */
		snprintf(by, sizeof(by),
			 "interrupted by %s; partial results kept",
			 run_signal_name(run_stop));
		pb_cli_fail(PB_ERR_INTERRUPTED, "run", by);
		rc = 128 + run_stop;
	} else if (r.interrupted) {
		rc = pb_cli_fail(PB_ERR_INTERRUPTED, "run",
				 "interrupted; partial results kept");
	} else if (err)
		rc = pb_cli_fail(err, "run", r.errbuf);
	else if (r.failed) {
		char what[1300];

		/* partial (exit 4) when something was measured; failed when
		 * nothing was */
		snprintf(what, sizeof(what),
			 "%u of %zu item(s) failed%s; see %s", r.failed,
			 r.plan.n, r.measured ? ", the rest measured" : "",
			 r.json_saved ? r.run_json : "the messages above");
		rc = pb_cli_fail(r.measured ? PB_ERR_INCOMPLETE : PB_ERR_IO,
				 "run", what);
	}
	if (r.json_saved &&
	    json_array_size(json_object_get(r.doc, RJ_K_RESULTS))) {
		/* the report is rebuilt from run.json alone, also later */
		struct rp_opts ro = RP_OPTS_INIT;
		char rerr[PB_ERRBUF_SIZE] = "";
		bool reg;

		ro.results_dir = r.dir;
		ro.quiet = r.quiet;
		if (rp_generate(&ro, &reg, rerr)) {
			pb_error_print("provbench", "report", rerr);
			/* the measurements are kept; the run still failed */
			if (!rc)
				rc = PB_EXIT_FAILED;
		} else if (!r.quiet) {
			printf("report: %s/report.html, report.csv, "
			       "summary.csv\n",
			       r.dir);
		}
	}
	if (r.json_saved)
		run_results_latest(&r);
	/* the results' paths are the command's output (stdout); a file
	 * that failed to be written is never named as written */
	if (r.json_saved && !r.quiet)
		printf("run.json: %s\n", r.run_json);
out:
	run_dispose(&r);
	pthread_mutex_destroy(&r.mu);
	return rc;
}
