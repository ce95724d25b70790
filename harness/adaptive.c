/*
 * adaptive.c - the precision form's looks (issue 54): after each round of
 * repetitions from min_repetitions on, the run so far is read back
 * through the report's own model (one definition of the penalty and its
 * interval, at the run's look level), each open mode's question is asked
 * of it (reports/penalty.c's rp_group_look), and a mode whose question
 * is answered stops: "stops" in run.json says after which round and why,
 * and its items of later rounds are not run. A host twin follows its
 * guest; with several targets at once a wave's cell runs until every
 * target's mode in it has stopped, so a wave stays one fleet's figure.
 */
#include <stdio.h>
#include <stdlib.h>

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

enum pb_error run_adaptive_start(struct run_state *r)
{
	if (!r->p->adaptive)
		return PB_OK;
	r->stopped =
		calloc((size_t)r->p->ntargets * r->p->npoints * PB_MODE__COUNT,
		       sizeof(*r->stopped));
	return r->stopped ? PB_OK
			  : pb_fail(r->errbuf, PB_ERR_NOMEM, "out of memory");
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
	enum pb_error err;

	if (!r->stopped || look < r->p->min_repetitions || look <= r->looked)
		return PB_OK;
	r->looked = look;
	r->said_stop = false;
	err = rp_run_look(r->dir, look, stop, r, r->errbuf);
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
