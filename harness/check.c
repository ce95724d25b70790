/*
 * check.c - `provbench check` and a dry run: the plan as check --json's
 * data (as lines: plan_out.c), and every target's check, each finding
 * said by name (pb_check_say), creating nothing.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "run_int.h"

/* The plan as check --json prints it: what print_plan says, as data. */
/* The plan's cost as check --json says it: the one the lines say. */
static json_t *cost_json(const struct pb_profile *p, const struct pb_plan *plan,
			 const char *results)
{
	struct pb_plan_cost c;
	char place[PB_PLACES_MAX][300];
	uint64_t bytes[PB_PLACES_MAX], shared;
	json_t *places = json_array(), *per = json_object(), *o;
	unsigned j, n;

	pb_plan_cost(&c, p, plan);
	pb_plan_cost_rate(&c, p, results);
	n = pb_plan_cost_place_list(&c, p, place, bytes);
	for (j = 0; j < n; j++)
		json_array_append_new(places,
				      json_pack("{s:s,s:I}", "place", place[j],
						"bytes", (json_int_t)bytes[j]));
	for (j = 0; j < p->ntargets; j++)
		json_object_set_new(per, p->targets[j].name,
				    json_integer((json_int_t)c.per_target[j]));
	shared = pb_plan_cost_shared(&c, p);
	o = json_pack("{s:I,s:I,s:I,s:o,s:o,s:f,s:s?,s:f,s:I,s:b}",
		      "passes_bytes", (json_int_t)c.passes, "eager_zeros_bytes",
		      (json_int_t)c.zeros, "space_at_once_bytes",
		      (json_int_t)c.peak, "per_target", per, "per_place",
		      places, "rate_mib_s", c.mib_s, "rate_from",
		      c.rate_from[0] ? c.rate_from : NULL, "duration_s",
		      pb_plan_cost_seconds(&c), "shared_bytes",
		      (json_int_t)shared, "confirm", pb_plan_cost_asks(&c, p));
	/* the precision form: the above are its most, these its least and
	 * what the last finished run of it ran */
	if (o && c.adaptive)
		json_object_set_new(
			o, "adaptive",
			json_pack("{s:I,s:I,s:o}", "least_passes_bytes",
				  (json_int_t)c.min_passes,
				  "least_eager_zeros_bytes",
				  (json_int_t)c.min_zeros, "expected_share",
				  isnan(c.expect_share)
					  ? json_null()
					  : json_real(c.expect_share)));
	return o;
}

static json_t *plan_json(const struct pb_profile *p, const struct pb_plan *plan,
			 const char *results)
{
	json_t *items = json_array(), *modes = json_array();
	json_t *targets = json_array(), *cost;
	size_t i;

	for (i = 0; i < p->nmodes; i++)
		json_array_append_new(modes,
				      json_string(pb_mode_name(p->modes[i])));
	for (i = 0; i < plan->n; i++) {
		json_array_append_new(
			items,
			json_pack("{s:s,s:i,s:i,s:s,s:i,s:s}", "target",
				  p->targets[plan->items[i].target].name,
				  "wave", (int)plan->items[i].wave, "rep",
				  (int)plan->items[i].rep, "mode",
				  pb_mode_name(plan->items[i].mode), "point",
				  (int)plan->items[i].point, "workload",
				  pb_point_desc(p, plan->items[i].point)));
	}
	for (i = 0; i < p->ntargets; i++)
		json_array_append_new(targets, json_string(p->targets[i].name));
	/* bytes_to_write: the passes' and eager's zeros, the cost the lines
	 * say (it once counted each writing pass's size alone, leaving out
	 * stripe pairs' rewrites and the zeros) */
	cost = cost_json(p, plan, results);
	return json_pack("{s:o,s:i,s:o,s:i,s:i,s:I,s:b,s:I,s:I,s:o,s:o}",
			 "targets", targets, "concurrency",
			 p->ntargets > 1 ? (int)p->concurrency : 1, "modes",
			 modes, "repetitions", (int)p->repetitions, "points",
			 (int)p->npoints, "disk_size_bytes",
			 (json_int_t)p->disk_size, "shuffled", p->shuffle,
			 "seed", (json_int_t)plan->seed, "bytes_to_write",
			 (json_int_t)(json_integer_value(json_object_get(
					      cost, "passes_bytes")) +
				      json_integer_value(json_object_get(
					      cost, "eager_zeros_bytes"))),
			 "cost", cost, "items", items);
}

/* Every target's check; its findings under its name when there are
 * several. *why: the failure's message. */
/* a disk that writes this fast is the fastest a pass is likely to meet:
 * a pass shorter than the settling's intervals at it is short anywhere */
#define CHECK_FAST_MIB_S 1024.0
/* the fewest intervals a first write's settling within a pass needs
 * (reports: RP_STEADY_MIN_INTERVALS) */
#define CHECK_MIN_INTERVALS 20

/*
 * What the profile can tell, said before anything runs: with fewer than
 * 3 repetitions no interval can be had, so no difference is told from
 * noise; a pass shorter than the settling's intervals cannot say where a
 * first write settles within it. Warnings: the run is still worth having.
 */
static void check_power(struct pb_check_out *out, const struct pb_profile *p)
{
	char sz[32], need[32];
	unsigned i, k;

	if (p->repetitions < 3)
		pb_check_warn(out, "repetitions",
			      "repetitions %u: too few to tell: an interval "
			      "needs 3 or more, so no difference can be told "
			      "from noise with fewer; 5 tell a difference of "
			      "10%% on a disk whose passes vary by 5%% or "
			      "less, and the report of a first run says how "
			      "many would on this one",
			      p->repetitions);
	for (i = 0; i < p->npoints; i++) {
		const struct runner_opts *w = &p->points[i];
		double s = (double)w->size / 1048576.0 / CHECK_FAST_MIB_S;
		/* unset, the runner sizes its intervals to the pass, 10 ms
		 * the shortest */
		double iv = (w->interval_ms ? w->interval_ms : 10) / 1000.0;
		bool writes = false;

		for (k = 0; k < w->npasses; k++)
			writes |= runner_pass_writes(w->passes[k]);
		if (!writes || s / iv >= CHECK_MIN_INTERVALS)
			continue;
		pb_check_warn(
			out, "pass length",
			"%s%s%s: a pass of %s lasts %.2f s at %.0f MiB/s, "
			"under the %d intervals of %.0f ms that tell "
			"where a first write settles within a pass; %s "
			"or more would (the warm-up across passes is "
			"told whatever their length)",
			pb_point_desc(p, i), *pb_point_desc(p, i) ? ", " : "",
			*pb_point_desc(p, i) ? "" : "the workload",
			pb_size_format(sz, sizeof(sz), w->size), s,
			CHECK_FAST_MIB_S, CHECK_MIN_INTERVALS, iv * 1000,
			pb_size_format(need, sizeof(need),
				       (uint64_t)(CHECK_MIN_INTERVALS * iv *
						  CHECK_FAST_MIB_S *
						  1048576.0)));
	}
}

enum pb_error run_check_all(struct run_state *r, struct pb_check_out *out,
			    const char **why)
{
	enum pb_error err = PB_OK;
	unsigned t;

	out->target = NULL;
	/* what a profile can tell, said before a run as check says it (a
	 * run of 2 repetitions is one whose report can tell nothing), but
	 * not by a --quiet one: advice, not a failure, and cron mails it */
	if (!out->run || !r->quiet)
		check_power(out, r->p);
	for (t = 0; !err && t < r->nt; t++) {
		out->target = r->nt > 1 ? r->p->targets[t].name : NULL;
		out->problems = 0;
		out->first = PB_OK;
		out->first_msg[0] = '\0';
		if (out->target && !out->items && !out->run)
			fprintf(out->fp, "target %s:\n", out->target);
		/* a backend with nothing to reach or lack has no check */
		err = !r->t[t].b->ops->check
			      ? PB_OK
			      : r->t[t].b->ops->check(r->t[t].b, &r->plan, out,
						      run_reset_fail(r->berr));
		if (err)
			*why = run_target_msg(r, t, r->berr);
	}
	return err;
}

/* check --json: the plan and every finding, and the verdict, on stdout;
 * the exit code as without --json */
static int check_json(struct run_state *r, const char *profile,
		      const char *modes, const char *targets)
{
	struct pb_check_out out = {.fp = stdout, .items = json_array()};
	enum pb_error err = pb_profile_load(r->p, profile, r->errbuf);
	const char *why = r->errbuf;
	json_t *doc;
	char *text;

	if (!err && modes)
		err = pb_plan_filter_modes(r->p, modes, r->errbuf);
	if (!err && targets)
		err = pb_plan_filter_targets(r->p, targets, r->errbuf);
	if (!err && !(err = pb_plan_build(&r->plan, r->p, r->errbuf)) &&
	    !(err = pb_profile_settle(r->p, r->errbuf))) {
		r->ops = r->p->backend;
		for (r->nt = 0; !err && r->nt < r->p->ntargets; r->nt++) {
			r->t[r->nt].lock_fd = -1;
			err = run_target_open(r, r->nt);
			if (err)
				why = run_target_msg(r, r->nt, r->errbuf);
		}
	}
	if (!err && ((err = run_limit_at_once(r)) || (err = run_arms_check(r))))
		why = r->errbuf;
	if (!err)
		err = run_check_all(r, &out, &why);
	doc = json_pack("{s:i,s:s,s:s,s:s?,s:o?,s:o,s:s,s:s?}", "format", 1,
			"tool", "provbench", "profile", profile, "backend",
			r->ops ? r->ops->name : NULL, "plan",
			r->plan.n ? plan_json(r->p, &r->plan, r->results)
				  : NULL,
			"checks", out.items, "verdict", err ? "failed" : "ok",
			"error", err ? why : NULL);
	text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER)
		   : NULL;
	json_decref(doc);
	if (!text)
		return pb_cli_fail(PB_ERR_NOMEM, "check", "out of memory");
	puts(text);
	free(text);
	/* the person reading stderr gets the usual line too */
	return err ? pb_cli_fail(err, "check", why) : PB_EXIT_OK;
}

int pb_check(const char *profile, bool json, const char *results,
	     const char *modes, const char *targets)
{
	struct pb_profile p;
	struct run_state r = {.p = &p,
			      .results = results ? results : "results",
			      .j = {.fd = -1}};
	struct pb_check_out out = {.fp = stdout};
	const char *why = NULL;
	enum pb_error err;
	int rc;

	memset(&p, 0, sizeof(p));
	/* where run would put its results: said now, not at a run's end */
	if (results && (err = run_results_root_check(results, r.errbuf))) {
		rc = pb_cli_fail(err, "check", r.errbuf);
		run_dispose(&r);
		return rc;
	}
	if (json) {
		rc = check_json(&r, profile, modes, targets);
		run_dispose(&r);
		return rc;
	}
	r.plan_first = true;
	rc = run_profile_load(&r, profile, modes, targets);
	if (!rc) {
		err = run_check_all(&r, &out, &why);
		if (err)
			rc = pb_cli_fail(err, "check", why);
		else
			printf("check: ok, nothing was created\n");
	}
	run_dispose(&r);
	return rc;
}
