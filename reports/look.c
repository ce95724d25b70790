/*
 * look.c - the face's look for the precision form (issue 54): a run read
 * back between rounds through the same model its report is made from,
 * and each open mode's question asked of it (penalty.c's rp_group_look),
 * so the harness stops a mode on the very interval the page will print;
 * with an older run, the nightly gate's question too (changes.c's
 * verdicts), so a night that cannot tell yet runs the repetitions that
 * would before it reports.
 */
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "compare.h"
#include "findings.h"
#include "phrase.h"
#include "report.h"

/* Has g a change the gate cannot tell yet? */
static bool gate_open(const struct rp_findings *fs, const struct rp_group *g)
{
	for (size_t i = fs ? fs->nheadline : 0; fs && i < fs->n; i++)
		if (fs->f[i].kind == RP_F_CHANGE && fs->f[i].g == g &&
		    fs->f[i].gate == RP_GATE_OPEN)
			return true;
	return false;
}

/*
 * The rule that stops g at this look, or RJ_STOP_OPEN: its own question
 * (rp_group_look), then the gate's (fs, NULL: none asked) until the
 * most: a mode whose own question is answered stays on while a change
 * of its cannot be told, and a baseline while such a mode does.
 */
static enum rj_stop stop_rule(const struct rp_model *m,
			      const struct rp_findings *fs,
			      const struct rp_group *g, unsigned look)
{
	enum rj_stop rule = rp_group_look(m, g, look);
	size_t i;

	if (rule == RJ_STOP_OPEN || rule == RJ_STOP_MAX ||
	    rule == RJ_STOP_NONE || !fs || look >= m->seq.max)
		return rule;
	if (gate_open(fs, g))
		return RJ_STOP_OPEN;
	for (i = 0; rule == RJ_STOP_BASELINE && i < m->ng; i++) {
		const struct rp_group *h = &m->g[i];

		if (h != g && h->target == g->target && h->point == g->point &&
		    !strcmp(h->workload, g->workload) &&
		    h->stop == RJ_STOP_OPEN && gate_open(fs, h))
			return RJ_STOP_OPEN;
	}
	return rule;
}

enum pb_error rp_run_look(struct rp_look *lk, rp_stop_fn fn, void *arg,
			  char *errbuf)
{
	struct rp_model m, old;
	struct rp_findings fs = {0};
	struct rp_rules rules = {.gate_pct = lk->gate_pct};
	char ebuf[PB_ERRBUF_SIZE] = "", said[512], l[256], why[160];
	bool gate = false;
	enum pb_error err;
	size_t i;

	memset(&old, 0, sizeof(old));
	err = rp_model_load(&m, lk->dir, NULL, NULL, ebuf);
	if (!err && lk->against) {
		char differ[400] = "";

		err = rp_model_load(&old, lk->against, NULL, NULL, ebuf);
		if (!err)
			rp_runs_differ(differ, sizeof(differ), &m.rd, &old.rd,
				       true);
		if (!err && differ[0])
			snprintf(lk->gate_note, sizeof(lk->gate_note),
				 "not gated against %s: %s", old.run, differ);
		else if (!err)
			err = rp_findings_build(&fs, &m, &old, &rules);
		gate = !err && !differ[0];
	}
	if (err) {
		pb_fail(errbuf, err,
			"the run read back after repetition %u: %s", lk->look,
			ebuf);
		goto out;
	}
	for (i = 0; !err && i < m.ng; i++) {
		const struct rp_group *g = &m.g[i];
		struct rj_stop_rec st;

		/* stopped at an earlier look, or a host twin (it follows
		 * its guest: the harness's to say) */
		if (g->stop != RJ_STOP_OPEN || g->target < 0 || g->point < 0 ||
		    rj_target_host_of(&m.rd, g->target) >= 0)
			continue;
		st = (struct rj_stop_rec){
			.target = (unsigned)g->target,
			.point = (unsigned)g->point,
			.mode = g->pmode,
			.after = lk->look,
			.rule = stop_rule(&m, gate ? &fs : NULL, g, lk->look)};
		if (st.rule == RJ_STOP_OPEN)
			continue;
		rp_stop_say(why, sizeof(why), st.rule, lk->look, &m.seq);
		rp_group_label(l, sizeof(l), g, true);
		snprintf(said, sizeof(said), "%s: %s%s", l, why,
			 !gate || st.rule == RJ_STOP_MAX ||
					 st.rule == RJ_STOP_NONE
				 ? ""
			 : gate_open(&fs, g)
				 ? ", the gate still open at the most"
				 : ", and the gate can tell");
		err = fn(arg, &st, said);
	}
out:
	if (gate)
		rp_findings_dispose(&fs);
	rp_model_dispose(&m);
	rp_model_dispose(&old);
	return err;
}
