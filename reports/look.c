/*
 * look.c - the face's look for the precision form (issue 54): a run read
 * back between rounds through the same model its report is made from,
 * and each open mode's question asked of it (penalty.c's rp_group_look),
 * so the harness stops a mode on the very interval the page will print.
 */
#include <stdio.h>

#include "analysis.h"
#include "phrase.h"
#include "report.h"

enum pb_error rp_run_look(const char *dir, unsigned look, rp_stop_fn fn,
			  void *arg, char *errbuf)
{
	struct rp_model m;
	char ebuf[PB_ERRBUF_SIZE] = "", said[512], l[256], why[160];
	enum pb_error err;
	size_t i;

	err = rp_model_load(&m, dir, NULL, NULL, ebuf);
	if (err) {
		pb_fail(errbuf, err,
			"the run read back after repetition %u: %s", look,
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
		st = (struct rj_stop_rec){.target = (unsigned)g->target,
					  .point = (unsigned)g->point,
					  .mode = g->pmode,
					  .after = look,
					  .rule = rp_group_look(&m, g, look)};
		if (st.rule == RJ_STOP_OPEN)
			continue;
		rp_stop_say(why, sizeof(why), st.rule, look, &m.seq);
		rp_group_label(l, sizeof(l), g, true);
		snprintf(said, sizeof(said), "%s: %s", l, why);
		err = fn(arg, &st, said);
	}
out:
	rp_model_dispose(&m);
	return err;
}
