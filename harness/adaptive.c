/*
 * adaptive.c - the precision form's looks (issue 54): after each round of
 * repetitions from min_repetitions on, the run so far is read back
 * through the report's own model (one definition of the penalty and its
 * interval, at the run's look level), each open mode's question is asked
 * of it (reports/penalty.c's rp_group_look), and a mode whose question
 * is answered stops: "stops" in run.json says after which round and why,
 * and its items of later rounds are not run. With gate_pct the nightly
 * gate's question is asked too, against the last finished run of the
 * profile: a mode goes on while the gate cannot tell. A host twin
 * follows its guest; with several targets at once a wave's cell runs
 * until every target's mode in it has stopped, so a wave stays one
 * fleet's figure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "run_int.h"

/* where the round a target's point's mode stopped after is kept */
static unsigned *stop_slot(const struct run_state *r, unsigned t,
			   unsigned point, enum pb_mode mode)
{
	return &r->stopped[((size_t)t * r->p->npoints + point) *
				   PB_MODE__COUNT +
			   mode];
}

/*
 * The gate's question (gate_pct): against the newest earlier finished run
 * of the profile beside this one, recorded in resolved.adaptive; none
 * there, it is not asked, and said.
 */
static enum pb_error gate_start(struct run_state *r)
{
	json_t *a = json_object_get(json_object_get(r->doc, RJ_K_RESOLVED),
				    RJ_K_ADAPTIVE);
	char ebuf[PB_ERRBUF_SIZE] = "";
	const char *base = strrchr(r->dir, '/') + 1;

	json_object_set_new(a, RJ_K_GATE_PCT, json_real(r->p->gate_pct));
	if (rp_find_previous(r->gate_against, sizeof(r->gate_against),
			     r->results, r->p->name, NULL, base, ebuf) ||
	    !r->gate_against[0]) {
		r->gate_against[0] = '\0';
		json_object_set_new(a, RJ_K_GATE_AGAINST, json_null());
		run_say(r->quiet,
			"precision form: no earlier finished run of %s in %s: "
			"the gate's question is not asked",
			r->p->name, r->results);
		return PB_OK;
	}
	json_object_set_new(a, RJ_K_GATE_AGAINST,
			    json_string(strrchr(r->gate_against, '/') + 1));
	run_say(r->quiet,
		"precision form: and the gate's, against %s at %g%%: a mode "
		"goes on while a change of its cannot be told",
		strrchr(r->gate_against, '/') + 1, r->p->gate_pct);
	return run_results_save(r, r->errbuf);
}

enum pb_error run_adaptive_start(struct run_state *r)
{
	if (!r->p->adaptive)
		return PB_OK;
	r->stopped =
		calloc((size_t)r->p->ntargets * r->p->npoints * PB_MODE__COUNT,
		       sizeof(*r->stopped));
	if (!r->stopped)
		return pb_fail(r->errbuf, PB_ERR_NOMEM, "out of memory");
	return r->p->gate_set ? gate_start(r) : PB_OK;
}

/* A guest's mode stopped: it, and its host twin, in run.json, said. */
static enum pb_error stop(void *arg, const struct rj_stop_rec *st,
			  const char *said)
{
	struct run_state *r = arg;
	struct rj_stop_rec tw = *st;
	unsigned t;

	if (st->target >= r->p->ntargets || st->point >= r->p->npoints)
		return PB_OK; /* not this run's: nothing to skip */
	*stop_slot(r, st->target, st->point, st->mode) = st->after;
	if (!rj_doc_add_stop(r->doc, st))
		return pb_fail(r->errbuf, PB_ERR_NOMEM, "out of memory");
	for (t = 0; t < r->p->ntargets; t++) {
		if (!r->p->targets[t].twin ||
		    r->p->targets[t].twin_of != st->target)
			continue;
		tw.target = t;
		*stop_slot(r, t, st->point, st->mode) = st->after;
		if (!rj_doc_add_stop(r->doc, &tw))
			return pb_fail(r->errbuf, PB_ERR_NOMEM,
				       "out of memory");
	}
	run_say(r->quiet, "stops: %s", said);
	r->said_stop = true;
	return PB_OK;
}

enum pb_error run_adaptive_look(struct run_state *r, unsigned look)
{
	struct rp_look lk = {
		.dir = r->dir,
		.look = look,
		.against = r->gate_against[0] ? r->gate_against : NULL,
		.gate_pct = r->p->gate_pct,
	};
	enum pb_error err;

	if (!r->stopped || look < r->p->min_repetitions || look <= r->looked)
		return PB_OK;
	r->looked = look;
	r->said_stop = false;
	err = rp_run_look(&lk, stop, r, r->errbuf);
	if (lk.gate_note[0] && !r->gate_said) {
		run_say(r->quiet, "precision form: %s", lk.gate_note);
		r->gate_said = true;
	}
	if (!err && r->said_stop)
		err = run_results_save(r, r->errbuf);
	return err;
}

bool run_adaptive_skips(const struct run_state *r,
			const struct pb_plan_item *it)
{
	const struct pb_target *tg;
	unsigned t, after;

	if (!r->stopped)
		return false;
	tg = &r->p->targets[it->target];
	t = tg->twin ? tg->twin_of : it->target;
	after = *stop_slot(r, t, it->point, it->mode);
	if (!after || it->rep <= after)
		return false;
	if (r->p->concurrency < 2 || r->nt < 2)
		return true;
	/* a wave is a cell on every target: it runs while any is open */
	for (t = 0; t < r->p->ntargets; t++)
		if (!r->p->targets[t].twin &&
		    !*stop_slot(r, t, it->point, it->mode))
			return false;
	return true;
}
