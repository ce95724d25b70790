/*
 * targets.c - a profile's targets as run, check and cleanup share them:
 * the profile loaded and its plan made, each target's backend opened
 * (one login per server), what the machine can run at once, the arms
 * of a settings A/B checked, what crashed runs left recovered, and all
 * of it closed. Below run.c, check.c and cleanup.c, which call it; it
 * calls none of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_int.h"

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
	const struct pb_option *d;
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
			for (d = ops->options; !what && d && d->name; d++)
				if ((d->flags & PB_OPT_F_SETTING) &&
				    !json_equal(
					    json_object_get(p->targets[t].spec,
							    d->name),
					    json_object_get(p->targets[k].spec,
							    d->name)) &&
				    (json_object_get(p->targets[t].spec,
						     d->name) ||
				     json_object_get(p->targets[k].spec,
						     d->name)))
					what = d->name;
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
	/* a run's one line: once its settings are there (one that lacks
	 * them refuses first), before any server is reached */
	if (!r->plan_first && r->say_plan) {
		char cost[256];

		run_plan_cost_line(cost, sizeof(cost), r->p, &r->plan,
				   r->results);
		run_say(r->quiet, "plan: %zu disks; %s", r->plan.n, cost);
	}
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
	free(r->stopped);
	r->stopped = NULL;
	pb_plan_dispose(&r->plan);
	pb_profile_dispose(r->p);
}
